"""``exactprob cartwheel``: the best chance of gambling a purse up to a target on a tavern
wheel, the optimal stake at every amount with exact ties, and bold and timid play.

Three slots, one covered at even money, target 3 (gambler's ruin with ratio 2: from 2 gold,
staking 1 wins with 3/7, going all in with 1/3):

>>> from exactprob.cli import main
>>> main(["cartwheel", "--gold", "2", "--target", "3", "--numbers", "3", "--bet", "1:1"])
Wheel of 3 slots: from 2 gold to 3, stakes up to the whole purse
  bet 1:1  covers 1 slot, pays 1 to 1: wins with chance 0.3333333333 = 1/3, the player's edge -0.3333333333 = -1/3 per gold staked
  best chance  0.4285714286 = 3/7
  bold play    0.4285714286 = 3/7
  timid play   0.4285714286 = 3/7
Optimal stakes at every amount (all exactly tied stakes):
  gold  best chance   stakes
     1  0.1428571429  1
     2  0.4285714286  1
0
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import UsageError
from ..games.cartwheel import (
    CARTWHEEL,
    CARTWHEEL_NUMBERS,
    MAX_CHOICES,
    MAX_TARGET,
    Bet,
    Wheel,
    stake_choices,
    wheel_report,
)
from ..util.numbers import parse_whole
from . import help_of
from ._options import add_json_flag, plot_path
from ._output import emit_with_plot

__all__ = ["parse_bet", "register", "run"]


def parse_bet(text: str, numbers: int) -> Bet:
    """``"K:M"``: a bet covering K of the ``numbers`` slots and paying M to 1.

    >>> parse_bet("2:3", 10)
    Bet(covers=2, pays=3)
    >>> parse_bet("10:1", 10)
    Traceback (most recent call last):
    ...
    exactprob.errors.UsageError: --bet 10:1: covered slots must be a whole number from 1 to 9, got 10
    """
    covers, colon, pays = text.partition(":")
    if not colon:
        raise UsageError(f"--bet must be K:M (K covered slots, paying M to 1), got {text!r}")
    flag = f"--bet {text}: "
    return Bet(
        parse_whole(f"{flag}covered slots", covers, 1, numbers - 1, UsageError),
        parse_whole(f"{flag}payout", pays, 1, None, UsageError),
    )


def _wheel(args: argparse.Namespace) -> tuple[Wheel, int]:
    """The wheel and the purse from the arguments, every check before any work."""
    gold = parse_whole("--gold", args.gold, 1, None, UsageError)
    target = parse_whole("--target", args.target, 2, MAX_TARGET, UsageError)
    if target <= gold:
        raise UsageError(f"--target must be greater than --gold ({gold}), got {target}")
    numbers = parse_whole("--numbers", args.numbers, 2, None, UsageError)
    max_stake = (
        None
        if args.max_stake is None
        else parse_whole("--max-stake", args.max_stake, 1, None, UsageError)
    )
    bets = tuple(parse_bet(text, numbers) for text in args.bet) if args.bet else (CARTWHEEL,)
    repeated = [str(bet) for i, bet in enumerate(bets) if bet in bets[:i]]
    if repeated:
        raise UsageError(f"--bet lists {repeated[0]} more than once")
    count = stake_choices(target, max_stake, len(bets))
    if count > MAX_CHOICES:
        raise UsageError(
            f"the wheel has {count:,} (gold, stake) choices, more than {MAX_CHOICES:,}: lower "
            "--target or --max-stake, or give fewer --bet"
        )
    return Wheel(target, numbers, bets, max_stake), gold


def run(args: argparse.Namespace) -> None:
    wheel, gold = _wheel(args)
    plot = plot_path(args.plot)
    emit_with_plot(wheel_report(wheel, gold), plot, args.json)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "cartwheel",
        help=help_of("cartwheel"),
        description=(
            "A wheel of --numbers equally likely slots; the hero holds --gold and needs "
            "--target, and before each spin stakes 1 to min(gold, --max-stake) on a bet kind "
            "K:M (covers K slots, pays M to 1: +M*stake on a covered slot, -stake otherwise) "
            "or walks away (and has lost). Prints the exact best chance of reaching the target, "
            "every optimal stake at each amount (exact ties), and bold play (stake what one win "
            "needs) and timid play (stake 1) on each bet. Default: the cartwheel, 10 slots, "
            "one number paying 8 to 1."
        ),
    )
    parser.add_argument("--gold", required=True, help="gold in hand, at least 1")
    parser.add_argument(
        "--target", required=True, help=f"gold needed, more than --gold (at most {MAX_TARGET:,})"
    )
    parser.add_argument(
        "--max-stake", metavar="M", help="the table's largest stake (default: the whole purse)"
    )
    parser.add_argument(
        "--numbers",
        default=str(CARTWHEEL_NUMBERS),
        help=f"slots on the wheel, at least 2 (default {CARTWHEEL_NUMBERS})",
    )
    parser.add_argument(
        "--bet",
        nargs="+",
        action="extend",
        metavar="K:M",
        help=f"bet kinds offered: K slots covered, paying M to 1 (default {CARTWHEEL})",
    )
    parser.add_argument(
        "--plot", metavar="FILE", help="write win chance against gold (.png, .svg, .pdf)"
    )
    add_json_flag(parser)
    parser.set_defaults(run=run)
