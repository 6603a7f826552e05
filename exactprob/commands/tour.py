"""``exactprob tour``: the headline exact result of every game exactprob solves, each at a
size that takes a moment, and where to go next."""

from __future__ import annotations

import argparse
from typing import Any

from ..engine import dice, die, solve
from ..games.cartwheel import Wheel, solve_wheel
from ..games.fighting_fantasy import Fight, solve_grid
from ..games.fleet_battle import Fleet, battle
from ..games.gamblers_ruin import GamblersRuin, closed_form
from ..games.gamebook import example_book, solve_book
from ..games.jeopardy import FowlPlay, JeopardyModel, Pig, RaceSolution
from ..games.risk import risk_battle
from ..games.roguelike import (
    RubberBand,
    Waffles,
    count_distribution,
    hit_points,
    staircakes,
    starve_probability,
)
from ..games.roguelike.generator import rogue_d2_hit_points
from ..games.roguelike.prd import PRDTable
from ..games.roguelike.softlock import locked_forever
from ..games.yahtzee import YahtzeeLevels, YahtzeeRules
from ..util.numbers import exact_fields
from ..util.text import exact_text
from . import help_of
from ._options import add_json_flag
from ._output import emit


def headlines() -> list[tuple[str, str, Any]]:
    """(key, description, exact value) for each headline result."""
    import sympy

    p = sympy.Symbol("p", positive=True)
    ruin = solve(GamblersRuin(goal=10, start=3, p="18/37"), progress=False)
    ruin_p = solve(GamblersRuin(4, 2, p), progress=False).value()
    fighters = battle(Fleet.of({"fighter": 5}), Fleet.of({"war-sun": 1}))
    return [
        ("two_dice_seven", "P(2d6 = 7)", (die(6) + die(6))[7]),
        (
            "sextinomial_zero",
            "P(2d6 - 2d6 = 0), the sextinomial row's centre",
            (dice(2, 6) - dice(2, 6))[0],
        ),
        ("three_d6_beats_d20", "P(3d6 > d20)", dice(3, 6).gt(die(20))[True]),
        ("ruin_roulette", "gambler's ruin, 3 -> 10 units on red (18 of 37 win)", ruin.value()),
        ("ruin_roulette_steps", "  expected number of bets", ruin.expected_steps()),
        ("ruin_symbolic", "gambler's ruin 2 -> 4 units as a function of p", ruin_p),
        (
            "ruin_closed_form_agrees",
            "  equals the closed form (rho^i - 1)/(rho^N - 1)",
            sympy.simplify(ruin_p - closed_form(4, 2, p)) == 0,
        ),
        ("fighters_beat_war_sun", "P(5 fighters beat a war sun)", fighters.win),
        ("fighters_war_sun_mutual", "  mutual destruction", fighters.mutual),
        ("risk_10_v_10", "Risk 10 v 10 conquest", risk_battle(10, 10).win),
        (
            "ff_luck_7",
            "Fighting Fantasy, equal skills, stamina 6 each, luck 7",
            solve_grid(Fight(0, 6, 6, 7)).value(6, 6, 7),
        ),
        (
            "prd_rate",
            "PRD table 3%, 17%, ..., 83%: long-run activation rate",
            PRDTable.from_odds(("0.03", "0.17", "0.29", "0.37", "0.43", "0.59", "0.83")).rate(),
        ),
        ("softlock_ac10", "floating eye, AC 10: P(paralysed forever)", locked_forever(10)),
        (
            "cartwheel_10_to_20",
            "tavern wheel (8 to 1 on one number of 10): 10 -> 20 gold",
            solve_wheel(Wheel(target=20, max_stake=5)).values[10],
        ),
        (
            "hp_rogue_level_9",
            "Rogue's hit points 12 + 8d10: mean",
            hit_points("1d10", 8, 12).mean(),
        ),
        (
            "rogue_d2_hit_points_72",
            "  12 + 40d2 on Rogue's own generator: P(exactly 72)",
            rogue_d2_hit_points()[72],
        ),
        (
            "rubber_band_resources_mean",
            "rubber-band odds 70%, +15%, -40%: mean resources in 20 levels",
            count_distribution(RubberBand()).mean(),
        ),
        ("staircakes_none", "  staircakes: P(none in a game)", staircakes().none),
        (
            "waffles_starve",
            "  2 waffles, one eaten every 2nd level: P(starve)",
            starve_probability(Waffles(waffles=2, every=2)),
        ),
        (
            "gamebook_salt_mine",
            "The Salt Mine, a gamebook: P(win) with optimal choices",
            solve_book(example_book()).win,
        ),
        (
            "pig_to_20",
            "Pig to 20, optimal play: P(first player wins)",
            _first_player_win(Pig(goal=20)),
        ),
        (
            "fowl_play_to_6",
            "Fowl Play (42 chickens, 6 wolves) to 6: P(first wins)",
            _first_player_win(FowlPlay(42, 6, 6)),
        ),
        (
            "red_light_to_8",
            "Red Light (24 chickens, 4 wolves) to 8: P(first wins)",
            _first_player_win(FowlPlay(24, 4, 8)),
        ),
        (
            "yahtzee_in_one_turn",
            "Yahtzee: P(a Yahtzee in one turn, keeping for it)",
            solve(
                YahtzeeLevels(YahtzeeRules(("Yahtzee",), extra_yahtzees=False)), progress=False
            ).value()
            / 50,
        ),
    ]


def _first_player_win(game: Pig | FowlPlay) -> Any:
    """The first player's exact chance under optimal play, through the front door."""
    solved = solve(JeopardyModel(game), progress=False)
    assert isinstance(solved, RaceSolution)
    return solved.first_player_win()


#: Where to go from the tour.
NEXT = (
    "",
    "next: exactprob --help lists every command, each with --help and --json; the full",
    "games are `exactprob pig --goal 100` (15 s), `exactprob fowl-play` (20 s), `exactprob",
    "yahtzee` (20 s; --law: 2 more minutes), and `exactprob gamebook BOOK --walkthrough`",
    "for a book of your own (the tour's is examples/books/the_salt_mine.toml).",
)


def run(args: argparse.Namespace) -> None:
    rows = headlines()
    payload: dict[str, Any] = {}
    lines = ["exactprob tour: headline exact results, each computed now", ""]
    width = max(len(text) for _, text, _ in rows)
    for key, text, value in rows:
        if isinstance(value, bool):
            payload[key] = value
            lines.append(f"{text:<{width}}  {'yes' if value else 'no'}")
        elif hasattr(value, "free_symbols") and value.free_symbols:
            payload[key] = str(value)
            lines.append(f"{text:<{width}}  {value}")
        else:
            payload.update(exact_fields(key, value))
            lines.append(f"{text:<{width}}  {exact_text(value)}")
    emit(payload, "\n".join([*lines, *NEXT]), args.json)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "tour",
        help=help_of("tour"),
        description="Print headline exact results, each computed now by the engine.",
    )
    add_json_flag(parser)
    parser.set_defaults(run=run)
