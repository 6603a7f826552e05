"""``exactprob prism``: a PRISM model's properties, answered exactly.

>>> from exactprob.cli import main
>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "coin.prism").write_text(
...     "dtmc const double p; module coin x : [0..2] init 0;"
...     " [] x=0 -> p:(x'=1) + 1-p:(x'=2); [] x>0 -> true; endmodule")
>>> main(["prism", str(folder / "coin.prism"), "--property", "P=? [F x=1]", "--constant", "p=0.3"])
PRISM dtmc coin.prism: 3 states, 1 initial state
  P=? [F x=1] = 0.3000000000 = 3/10
0
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..errors import ConstantError, UsageError
from ..prism import load, prism_report
from ..util.limits import DEFAULT_MAX_STATES
from ..util.text import count_text
from . import help_of
from ._options import add_json_flag, add_max_states_flag
from ._output import emit, show_progress

__all__ = ["register", "run"]

METHODS = ("exact", "certified", "depth-first")


def constants(given: list[str]) -> dict[str, str]:
    """``--constant N=16 --constant MAX=2`` or ``--constant N=16,MAX=2`` as a mapping.

    >>> constants(["N=16,MAX=2", "p=0.5"])
    {'N': '16', 'MAX': '2', 'p': '0.5'}
    """
    found: dict[str, str] = {}
    for text in given:
        for part in text.split(","):
            name, sign, value = part.partition("=")
            if not sign or not name.strip() or not value.strip():
                raise UsageError(
                    f"--constant takes NAME=VALUE (several joined by commas), got {part!r}"
                )
            found[name.strip()] = value.strip()
    return found


def run(args: argparse.Namespace) -> None:
    given = constants(args.constant or [])
    try:
        model = load(
            args.model,
            given,
            parameters=args.parameter or (),
            max_states=args.max_states,
            progress=show_progress(),
        )
        properties = []
        if args.properties is not None:
            path = Path(args.properties)
            try:
                text = path.read_text()
            except OSError as error:
                raise UsageError(
                    f"cannot read the properties file {path}: {error.strerror or error}"
                ) from None
            properties.extend(model.properties(text, source=path.name))
        for text in args.property or []:
            properties.extend(model.properties(text))
    except ConstantError as missing:
        raise UsageError(
            f"the constant {missing.name} has no value: give it with --constant {missing.name}=VALUE"
        ) from None
    model.check_constants_used()
    if not properties:
        raise UsageError("give a properties file or --property TEXT: there is nothing to check")
    if args.name:
        chosen = [p for p in properties if p.name in args.name]
        unknown = sorted(set(args.name) - {p.name for p in chosen})
        if unknown:
            names = ", ".join(p.name for p in properties if p.name) or "none"
            raise UsageError(f"no property is named {unknown[0]!r} (named: {names})")
        properties = chosen
    report = prism_report(model, properties, Path(args.model).name, method=args.method)
    if report.deadlocks and not args.json:
        print(
            f"note: {count_text(report.deadlocks, 'state')} without an enabled command: each "
            "stays where it is (a self-loop, as PRISM and Storm do)",
            file=sys.stderr,
        )
    emit(report.to_json(), report.text(), args.json)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "prism",
        help=help_of("prism"),
        description=(
            "Check the properties of a model written in the PRISM language (dtmc or mdp) "
            "exactly: P=?, Pmax=?, Pmin=? of F, U, G, W and X, bounded on the steps (F<=k, "
            'F>=k, F[a,b]) or on a reward gathered (F^{rew{"r"}<=B}); R{"r"}=? (and max, '
            "min) of F and C<=k; Storm's T=? (expected steps); S=? (the long run); bounds "
            "such as P>=1 give true or false; filter(op, prop, states). A double such as "
            "0.091 is the exact decimal 91/1000. Where several commands are enabled in a "
            "DTMC, each is taken with equal probability; a state with no enabled command "
            "stays put."
        ),
    )
    parser.add_argument("model", help="the PRISM model file (.prism, .pm, .nm)")
    parser.add_argument("properties", nargs="?", help="a properties file (.props, .pctl)")
    parser.add_argument(
        "--property",
        action="append",
        metavar="TEXT",
        help="a property to check; repeat the flag for more",
    )
    parser.add_argument(
        "--name",
        action="append",
        metavar="NAME",
        help="check only the named property; repeat the flag for more",
    )
    parser.add_argument(
        "--constant",
        action="append",
        metavar="NAME=VALUE",
        help="a value for a constant the files leave undefined: N=16, p=0.3, p=1/3, flag=true "
        "(repeatable, or joined by commas)",
    )
    parser.add_argument(
        "--parameter",
        action="append",
        metavar="NAME",
        help="keep an undefined double constant as a symbol: a DTMC's values become rational "
        "functions of it (repeat the flag for more); an MDP's, with one parameter, a "
        "piecewise function, one piece per interval where one play is best",
    )
    parser.add_argument(
        "--method",
        choices=METHODS,
        default="exact",
        help="exact rationals, certified enclosures, or depth-first (exact, no graph kept) "
        "(default exact)",
    )
    add_max_states_flag(parser, DEFAULT_MAX_STATES)
    add_json_flag(parser)
    parser.set_defaults(run=run)
