#!/usr/bin/env python
"""PRISM models of the QVBS benchmark set (``tests/qvbs``, CC-BY 4.0): exactprob's reader
and exact engine against Storm's exact engine (stormpy), on the same files, in the same
run.

Usage::

    python benchmarks/bench_prism.py [--quick] [--out FILE]

Each row reads one model file with its constants, builds the reachable states and checks
every listed property exactly: ``exactprob.prism.load(...).check(prop)`` against
stormpy's ``parse_prism_program``, ``build_model[Rational]`` (the properties given, so
Storm builds only what they need) and ``model_checking`` with its exact environment.
Each side runs in a fresh process with its libraries loaded before the clock starts, and
the table gives the whole time (reading, building, checking), states per second, peak
memory and whether every value is the same rational. The first rows are the vendored
instances at their published constants; the rest scale the same files up. ``--quick``
keeps the small rows. The script exits with status 1 when two values differ.
"""

from __future__ import annotations

import json
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from bench_memory import peak_kib
from bench_worker import measured, run_benchmark

REPO = Path(__file__).resolve().parent.parent
QVBS = REPO / "tests" / "qvbs"
sys.path.insert(0, str(REPO))
sys.set_int_max_str_digits(0)  # exact answers of thousands of digits

#: (benchmark, constants) beyond the published instances: the same files, larger.
SCALED = [
    ("brp", {"N": "64", "MAX": "5"}),
    ("consensus", {"K": "32"}),
    ("pacman", {"MAXSTEPS": "10"}),
    ("brp", {"N": "256", "MAX": "5"}),
    ("egl", {"N": "5", "L": "4"}),
    ("zeroconf", {"N": "1000", "K": "2", "reset": "false"}),
    ("firewire", {"delay": "3", "deadline": "800"}),  # a reward bound: 1.9 million pairs
]
QUICK_BENCHMARKS = ("brp", "consensus", "haddad-monmege")
#: A small MDP with a cycle, which each side checks before the clock starts: the imports
#: of a first check, the cyclic solver's among them (its 301 states are over the engine's
#: small-graph limit, so scipy is loaded too).
WARM_UP = (
    "mdp module m x : [0..301] init 0; "
    "[a] x<300 -> 1/2:(x'=x+1) + 1/4:(x'=0) + 1/4:(x'=301); "
    "[b] x<300 -> 1/3:(x'=x+1) + 2/3:(x'=301); endmodule"
)
WARM_UP_PROPERTY = "Pmax=? [F x=300]"


def _instance(benchmark: str) -> dict[str, object]:
    instances = json.loads((QVBS / "instances.json").read_text())
    return next(i for i in instances if i["benchmark"] == benchmark)  # type: ignore[no-any-return]


def check(side: str, benchmark: str, constants_json: str) -> dict[str, object]:
    """One side's whole check of every listed property, in this process."""
    instance = _instance(benchmark)
    constants = json.loads(constants_json)
    names = [p["name"] for p in instance["properties"]]  # type: ignore[attr-defined]
    model_path = QVBS / str(instance["model_file"])
    props_text = (QVBS / str(instance["properties_file"])).read_text()
    if side == "storm":
        import stormpy

        warm = stormpy.parse_prism_program(str(_warm_up_file()))
        warm_property = stormpy.parse_properties(WARM_UP_PROPERTY, warm)
        warm_model = stormpy.build_model[stormpy.Rational](warm, warm_property)
        stormpy.model_checking(
            warm_model, warm_property[0], environment=stormpy.environments.exact()
        )

        def run() -> tuple[int, dict[str, str]]:
            program = stormpy.parse_prism_program(str(model_path))
            props = stormpy.parse_properties(props_text, program, property_filter=names)
            if constants:
                text = ",".join(f"{k}={v}" for k, v in constants.items())
                program, props = stormpy.instantiate_constants(program, text, props)
            model = stormpy.build_model[stormpy.Rational](program, props)
            env = stormpy.environments.exact()
            values = {}
            for prop in props:
                result = stormpy.model_checking(
                    model, prop, only_initial_states=True, environment=env
                )
                if result.is_qualitative():  # P>=1 and the like: true or false
                    truth = result.get_truth_values_vector()
                    found = [bool(truth.get(s)) for s in model.initial_states]
                else:
                    found = [result.get_value(s) for s in model.initial_states]
                values[prop.get_name()] = _shown(found)
            return model.nr_states, values

    else:
        from exactprob import prism

        prism.loads(WARM_UP).check(WARM_UP_PROPERTY)

        def run() -> tuple[int, dict[str, str]]:
            model = prism.load(model_path, constants, progress=False)
            chosen = [p for p in model.properties(props_text) if p.name in names]
            values = {}
            for prop in chosen:
                values[str(prop.name)] = _shown(list(model.check(prop).values.values()))
            return len(model.space), values

    start = time.perf_counter()
    states, values = run()
    return {
        "seconds": time.perf_counter() - start,
        "states": states,
        "values": values,
        "mb": peak_kib() / 1024,
    }


def _shown(found: list[Any]) -> str:
    """The largest value at the initial states, as text: ``p/q``, or ``true``/``false``
    for a qualitative property (Storm's and ours alike).

    >>> _shown([Fraction(1, 2), Fraction(3, 4)]), _shown([True])
    ('3/4', 'true')
    """
    if all(isinstance(v, bool) for v in found):
        return str(all(found)).lower()
    return str(max(Fraction(str(v)) for v in found))


def _warm_up_file() -> Path:
    import tempfile

    path = Path(tempfile.mkdtemp()) / "warm.prism"
    path.write_text(WARM_UP)
    return path


def worker(side: str, benchmark: str, constants_json: str) -> dict[str, object]:
    """The worker's arguments, as the command line gives them."""
    return check(side, benchmark, constants_json)


def main() -> int:
    from bench_engine import benchmark_parser, finish_report, log, report_header

    parser = benchmark_parser(__doc__, "the small instances")
    parser.add_argument("--only", metavar="NAMES", help="only these models, comma-separated")
    args = parser.parse_args()
    instances = json.loads((QVBS / "instances.json").read_text())
    rows = [(i["benchmark"], i["constants"]) for i in instances]
    rows += SCALED
    if args.only:
        rows = [(b, c) for b, c in rows if b in args.only.split(",")]
    if args.quick:
        rows = [(b, c) for b, c in rows if b in QUICK_BENCHMARKS and c == _instance(b)["constants"]]
    start = time.perf_counter()
    report = report_header(
        "PRISM models (QVBS): exactprob against Storm's exact engine", args.quick
    )
    report += [
        (
            "| model | constants | type | our states | Storm's states | exactprob s | MB | Storm s "
            "| MB | exactprob / Storm | states/s (ours) | same values |"
        ),
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for benchmark, constants in rows:
        shown = ", ".join(f"{k}={v}" for k, v in constants.items()) or "(in the file)"
        log(f"{benchmark} {shown}")
        as_json = json.dumps(constants)
        ours = measured(__file__, "ours", benchmark, as_json)
        storm = measured(__file__, "storm", benchmark, as_json)
        same = ours["values"] == storm["values"]
        published = {p["name"]: p["exact_value"] for p in _instance(benchmark)["properties"]}  # type: ignore[attr-defined]
        if constants == _instance(benchmark)["constants"]:
            same = same and all(
                ours["values"][k] == str(v)
                if v in ("true", "false")
                else Fraction(ours["values"][k]) == Fraction(v)  # type: ignore[index]
                for k, v in published.items()
            )
        seconds = float(ours["seconds"])  # type: ignore[arg-type]
        report.append(
            f"| {benchmark} | {shown} | {_instance(benchmark)['type']} | {ours['states']:,} | "
            f"{storm['states']:,} | {seconds:.2f} | {float(ours['mb']):.0f} | "  # type: ignore[arg-type]
            f"{float(storm['seconds']):.2f} | {float(storm['mb']):.0f} | "  # type: ignore[arg-type]
            f"{seconds / float(storm['seconds']):.1f}x | {int(ours['states']) / seconds:,.0f} | "  # type: ignore[call-overload,arg-type]
            f"{'yes' if same else 'DIFFERENT'} |"
        )
    report += [
        "",
        (
            "Storm builds only the states the properties need (it stops at their targets), so "
            "its count can be smaller; exactprob builds every reachable state, as the set's "
            "counts do. Where the published instance is checked, 'same' also compares with the "
            "set's values."
        ),
        "",
    ]
    return finish_report(report, start, args.out)


if __name__ == "__main__":
    run_benchmark(main, worker)
