"""The console script: help, version, JSON contract, one-line errors with status 2."""

import argparse
import itertools
import json
import re
import subprocess
import sys
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from cli_runner import SMALL_RUNS, run

from exactprob import __version__
from exactprob.cli import build_parser
from exactprob.commands import SUBCOMMANDS


def test_help_lists_subcommands(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--help")
    assert status == 0 and "tour" in out and "dice" in out and "--json" in out


@pytest.mark.parametrize("command", list(SUBCOMMANDS))
def test_every_flag_has_help_that_names_its_default(command: str) -> None:
    # one style: a flag with a default says "(default X)"; a bare "(X)" is the old style
    sub = build_parser(command).commands[command]
    for action in sub._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        flag = "/".join(action.option_strings) or action.dest
        assert action.help and action.help != argparse.SUPPRESS, f"{command} {flag} has no help"
        flags = (argparse._StoreTrueAction, argparse._StoreFalseAction)
        shown = action.default is not None and action.default is not argparse.SUPPRESS
        shown = shown and not isinstance(action, flags)
        named = re.search(r"\(default[ )]", action.help)
        assert not shown or named, f"{command} {flag}: default not named as (default X)"
        assert re.sub(r"\s*\(default[^)]*\)", "", action.help), f"{command} {flag}: only a default"
        assert not re.search(r"\((\d[\d,.]*|[a-z-]+)\)\s*$", action.help), f"{command} {flag}"


def test_exact_means_one_thing_in_every_subcommand() -> None:
    """--exact gives exact rationals where the default certifies; its help says so alike."""
    helps = {
        command: action.help
        for command in SUBCOMMANDS
        for action in build_parser(command).commands[command]._actions
        if "--exact" in action.option_strings
    }
    assert set(helps) >= {"fowl-play", "red-light", "softlock", "yahtzee"}
    prefix = "exact rationals where a certified enclosure is the default: "
    assert all(str(text).startswith(prefix) for text in helps.values()), helps


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--version")
    assert status == 0 and out.strip() == f"exactprob {__version__}"


def test_dice_json_matches_enumeration(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "dice", "2d6-2d6", "--json")
    assert status == 0
    payload = json.loads(out)
    counts: dict[int, int] = {}
    for a, b, c, d in product(range(1, 7), repeat=4):
        counts[a + b - c - d] = counts.get(a + b - c - d, 0) + 1
    table = {row["outcome"]: Fraction(row["probability"]) for row in payload["distribution"]}
    assert table == {k: Fraction(v, 6**4) for k, v in counts.items()}
    assert payload["mean"] == "0" and payload["variance"] == "35/3"  # 4 * 35/12
    assert payload["variance_decimal"] == "11.666666666667"


@pytest.mark.parametrize(
    "expression, holds",
    [
        ("3d6>d20", lambda x, y: x > y),
        ("2D6 <= 1d12", lambda x, y: x <= y),
        ("d6+d6 == 2d6", lambda x, y: x == y),
        ("2d4=d8", lambda x, y: x == y),
        ("d6 != 3", lambda x, y: x != y),
    ],
)
def test_a_comparison_of_dice_is_the_enumerated_chance(
    capsys: pytest.CaptureFixture[str], expression: str, holds: Any
) -> None:
    status, out, _ = run(capsys, "dice", expression, "--json")
    assert status == 0
    sides = {
        "3d6>d20": ([6] * 3, [20]),
        "2D6 <= 1d12": ([6] * 2, [12]),
        "d6+d6 == 2d6": ([6] * 2, [6] * 2),
        "2d4=d8": ([4] * 2, [8]),
        "d6 != 3": ([6], []),
    }[expression]
    left, right = (list(product(*(range(1, s + 1) for s in dice))) for dice in sides)
    constant = 3 if expression == "d6 != 3" else 0
    wins = sum(holds(sum(a), sum(b) + constant) for a in left for b in right)
    assert Fraction(json.loads(out)["probability"]) == Fraction(wins, len(left) * len(right))


#: Each subcommand's --json on a small input, for the JSON convention.
_EXACT = re.compile(r"^-?\d+(/\d+)?$")


def _untwinned(node: Any, path: str, twinned: bool = False) -> list[str]:
    """The exact "p/q" (or whole "n") strings of a JSON value with no decimal twin: ``key_decimal``
    beside ``key``, or, inside a list or map, beside the list's or map's key."""
    found = []
    items = (
        node.items()
        if isinstance(node, dict)
        else enumerate(node)
        if isinstance(node, list)
        else []
    )
    for key, value in items:
        beside = isinstance(node, dict) and f"{key}_decimal" in node
        if isinstance(value, str) and _EXACT.match(value) and not (beside or twinned):
            found.append(f"{path}.{key} = {value[:30]}")
        found += _untwinned(value, f"{path}.{key}", beside)
    return found


def test_the_json_runs_cover_every_subcommand() -> None:
    # fowl-redesign needs a Dask cluster: its JSON is checked in test_jeopardy_redesign.py
    assert {argv[0] for argv in SMALL_RUNS} | {"fowl-redesign"} == set(SUBCOMMANDS)


@pytest.mark.parametrize("argv", SMALL_RUNS, ids=lambda argv: " ".join(argv))
def test_every_json_gives_each_exact_value_a_decimal_twin(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    status, out, _ = run(capsys, *argv, "--json")
    assert status == 0
    assert _untwinned(json.loads(out), "") == []


def test_tour_json_has_exact_and_decimal_fields(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "tour", "--json")
    payload = json.loads(out)
    assert status == 0
    assert payload["two_dice_seven"] == "1/6" and payload["two_dice_seven_decimal"].startswith(
        "0.1666"
    )
    # P(3d6 > d20) by enumeration of all 6^3 * 20 outcomes
    wins = sum(a + b + c > d for a, b, c in product(range(1, 7), repeat=3) for d in range(1, 21))
    assert Fraction(payload["three_d6_beats_d20"]) == Fraction(wins, 6**3 * 20)
    assert payload["ruin_closed_form_agrees"] is True
    # gambler's ruin from 3 to 10 at p = 18/37: the textbook formulas, with r = q/p,
    # P = (r^i - 1)/(r^N - 1) and E[bets] = i/(q - p) - N/(q - p) * (1 - r^i)/(1 - r^N)
    p, i, n = Fraction(18, 37), 3, 10
    q = 1 - p
    r = q / p
    assert Fraction(payload["ruin_roulette"]) == (r**i - 1) / (r**n - 1)
    steps = i / (q - p) - n / (q - p) * (1 - r**i) / (1 - r**n)
    assert Fraction(payload["ruin_roulette_steps"]) == steps
    assert payload["hp_rogue_level_9"] == "56"  # 12 + 8 * 11/2
    # the classic count of a Yahtzee in three rolls, keeping the most common face
    assert Fraction(payload["yahtzee_in_one_turn"]) == Fraction(2_783_176, 6**10)
    games = ("pig_to_20", "fowl_play_to_6", "red_light_to_8", "rubber_band_resources_mean")
    assert all(0 < Fraction(payload[key]) for key in games)


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["dice", "2x6"], "cannot read '2x6'"),
        (["dice", ""], "empty dice expression"),
        (["dice", "0d6"], "the number of dice must be a whole number from 1 to 10000, got 0"),
        (["dice", "9000d9000"], "outcomes; at most"),
        (["dice", "1000d1000"], "too large to write out exactly"),
        (["dice", "2d6 3"], "spaces are allowed only around + and -"),
        (["dice", "3d6>d20>d4"], "has 2 comparisons"),
        (
            ["prd", "--odds", "0.03,0.17", "--gaps", "10000", "--trials", "10"],
            "list fewer (--gaps)",
        ),
        (
            ["ff", "--hero", "10", "4", "0", "--opponent", "10", "4", "--out", "a.csv"],
            "--out is for 'exactprob ff atlas', not 'fight'",
        ),
        (
            ["ff", "atlas", "--rounds", "5", "--policy", "none"],
            "--policy, --rounds are for 'exactprob ff fight', not 'atlas'",
        ),
        (["dice", "2d6<"], "a dice expression on each side"),
        (["dice", "9" * 5000], "a constant must be a whole number"),
        (["nonsense"], "invalid choice"),
        (["dice", "200d200+200d200+200d200+200d200"], "159,201 probabilities of about 1,841"),
        (["prd", "--odds", "1/" + "9" * 4400], "too long: at most 4,000 digits above and below"),
        (["rubber-band", "--up", "1e-100000"], "--up: '1e-100000' is too long: at most 4,000"),
        (["dice", "+".join(["1d2"] * 20000)], "... (79,999 characters) is too large"),
        (
            ["risk", "--attacker", "3", "--defender", "2", "--bogus"],
            "exactprob risk: error: unrecognized arguments: --bogus",
        ),
        (["risk", "--max-states", "١٠٠"], "--max-states: expected a whole number in digits 0-9"),
        (["risk", "--max-states", "1_000"], "expected a whole number in digits 0-9, got '1_000'"),
        (
            ["ff", "--hero", "10", "10", "5", "--opponent", "8", "8", "--keep-stamina", "-5"],
            "--keep-stamina must be a whole number >= 0, got -5",
        ),
        (["dice", "2d6\n3"], "cannot read '2d6\\n3'"),
        (["rubber-band", "--up", "-1/10"], "--up must be a decimal or p/q from 0 to 100"),
    ],
)
def test_bad_input_is_one_line_with_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""  # nothing half-written
    assert fragment in err
    assert "Traceback" not in err
    assert err.count("\n") == 1 or err.startswith("usage:")


@pytest.mark.parametrize("command", ["fowl-redesign", "yahtzee"])
def test_a_scheduler_address_of_one_process_is_refused_with_no_client_left_behind(
    command: str,
) -> None:
    # a client half made for inproc:// hung 20 s at exit and printed a traceback
    argv = {
        "fowl-redesign": ["--chickens", "3", "--wolves", "1", "--goal", "3", "--scheduler"],
        "yahtzee": ["--categories", "chance", "--cluster"],
    }[command]
    done = subprocess.run(
        [sys.executable, "-m", "exactprob.cli", command, *argv, "inproc://x"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "is not a scheduler's network address" in done.stderr


def test_console_script_exit_status() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "exactprob.cli", "dice", "1d0"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "exactprob dice: error: the number of sides must be a whole number from 1 to 10000, got 0"
    )
    assert done.stdout == ""


def test_every_subcommand_is_listed_once_with_the_help_its_module_gives() -> None:
    """SUBCOMMANDS (what --help shows without importing games) names exactly the
    subcommands the modules register, each with the help its own parser carries."""
    import argparse

    from exactprob.cli import build_parser
    from exactprob.commands import SUBCOMMANDS, help_of

    for name in SUBCOMMANDS:
        parser = build_parser(name)
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        assert list(sub.choices) == sorted(sub.choices, key=list(SUBCOMMANDS).index)
        assert set(sub.choices) == set(SUBCOMMANDS)
        listed = {action.dest: action.help for action in sub._choices_actions}
        assert listed[name] == help_of(name)
        assert sub.choices[name].get_default("run") is not None  # in full, not a stub


HEAVY = ("dask", "matplotlib", "networkx", "scipy", "sklearn", "sympy")


@pytest.mark.parametrize(
    "code",
    [
        "import exactprob",
        "from exactprob.cli import main; main(['--version'])",
        "from exactprob.cli import main; main(['--help'])",
        "from exactprob.cli import main; main(['dice', '2d6'])",
    ],
)
def test_start_up_imports_no_heavy_library(code: str) -> None:
    """``import exactprob``, ``--help``, ``--version`` and ``dice`` load none of the
    libraries that take a tenth of a second or more (the times are in
    benchmarks/bench_startup.py; the engine loads scipy and sympy when a solve needs them)."""
    probe = (
        f"import sys\ntry:\n    {code}\nexcept SystemExit:\n    pass\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & set(sys.argv[1:])))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, *HEAVY], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_a_first_solve_of_a_small_model_imports_no_heavy_library() -> None:
    """A small graph is ordered by Tarjan's search in Python and solved without scipy's
    BLAS controls, its cycles' acyclic parts by numpy: loading scipy would cost the first
    solve in a process 0.2 s, a hundred times the work. The models are the start-up
    benchmark's, one without cycles and one with, solved by every method."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from bench_startup import FIRST_CYCLIC_SOLVE, FIRST_SOLVE

    probe = (FIRST_SOLVE + FIRST_CYCLIC_SOLVE) + (
        "import sys\n"
        "for method in ('certified', 'depth-first'):\n"
        "    ep.solve(Race(), method=method)\n"
        "    ep.solve(Pig(), method=method)\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & set(sys.argv[1:])))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, *HEAVY], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_progress_bars_only_on_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    # 4,000 turns is a long softlock run, which shows a bar on a terminal; stderr here is
    # captured (not a terminal), so nothing may be written to it
    status, _, err = run(capsys, "softlock", "--ac", "10", "--limit", "4000")
    assert status == 0 and err == ""


SIGNAL_PROBE = """
import signal, sys
from exactprob.cli import main
from exactprob.games.fighting_fantasy.atlas import Atlas

write_csv = Atlas.write_csv

def write_then_stop(self, path):  # half the file is written when the signal comes
    with open(path, "w") as out:
        out.write("delta,hero\\n")
    # raised in this thread, so its handler runs before the next line
    signal.raise_signal(getattr(signal, sys.argv[1]))
    raise AssertionError("the signal was not handled")

Atlas.write_csv = write_then_stop
# Python leaves SIGINT ignored when it starts ignored, as in a job started in the background
# by a shell without job control (where CI's pytest may run): restore Ctrl-C's handler
signal.signal(signal.SIGINT, signal.default_int_handler)
sys.exit(main(["ff", "atlas", "--out", sys.argv[2], "--max-stamina", "3", "--max-luck", "1"]))
"""


@pytest.mark.parametrize(("name", "status"), [("SIGINT", 130), ("SIGTERM", 143)])
def test_a_signal_mid_write_leaves_no_file_and_no_traceback(
    tmp_path, name: str, status: int
) -> None:
    """Ctrl-C (one line, status 130) and SIGTERM (silent, 143) while the atlas is being
    written: the temporary file is removed and the target never appears."""
    target = tmp_path / "atlas.csv"
    done = subprocess.run(
        [sys.executable, "-c", SIGNAL_PROBE, name, str(target)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == status, done.stderr
    assert "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []
    if name == "SIGINT":
        assert done.stderr.strip() == "exactprob ff: interrupted"


def test_a_number_too_long_to_print_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(capsys, "rubber-band", "--up", "1e-100000", "--levels", "1000")
    assert status == 2 and out == "" and err.count("\n") == 1 and "--up" in err


@pytest.mark.parametrize("figures", ["/proc/no-such-dir", "a-file/sub"])
def test_atlas_figures_place_is_checked_before_any_work(
    capsys: pytest.CaptureFixture[str], tmp_path, figures: str
) -> None:
    (tmp_path / "a-file").write_text("")
    place = figures if figures.startswith("/") else str(tmp_path / figures)
    out = tmp_path / "atlas.csv"
    argv = ["ff", "atlas", "--out", str(out), "--max-stamina", "2", "--max-luck", "1"]
    status, stdout, err = run(capsys, *argv, "--figures", place)
    assert status == 2 and stdout == "" and err.count("\n") == 1 and "--figures" in err
    assert not out.exists()  # no data file without its figures


@pytest.mark.parametrize("kind", ["device", "symlink", "directory", "unwritable"])
def test_outputs_go_to_regular_files_only(
    capsys: pytest.CaptureFixture[str], tmp_path, kind: str
) -> None:
    """--out to /dev/null, a symlink or a directory is refused, not replaced; a directory
    that takes no file (/proc) fails before the work."""
    target = tmp_path / "elsewhere.csv"
    target.write_text("keep me")
    out = {
        "device": "/dev/null",
        "symlink": str(tmp_path / "link.csv"),
        "directory": str(tmp_path),
        "unwritable": "/proc/atlas.csv",
    }[kind]
    if kind == "symlink":
        (tmp_path / "link.csv").symlink_to(target)
    argv = ["ff", "atlas", "--out", out, "--max-stamina", "2", "--max-luck", "1"]
    status, stdout, err = run(capsys, *argv)
    assert status == 2 and stdout == "" and err.count("\n") == 1 and "--out" in err
    assert target.read_text() == "keep me"
    assert (tmp_path / "link.csv").is_symlink() == (kind == "symlink")


LONG = "n" * 300  # over the 255 bytes a file name may have


@pytest.mark.parametrize(
    "argv",
    [
        ["hp", "--plot", f"{LONG}.png"],
        ["pig", "--goal", "5", "--plot", f"{LONG}.png"],
        ["prd", "--odds", "0.1,0.2", "--plot", f"{LONG}/x.png"],
        ["cartwheel", "--gold", "5", "--target", "8", "--plot", f"{LONG}.svg"],
        ["ff", "atlas", "--out", f"{LONG}.csv", "--max-stamina", "2", "--max-luck", "1"],
        ["fowl-redesign", "--chickens", "3", "--wolves", "1", "--goal", "3", "--cache", LONG],
    ],
)
def test_a_file_name_too_long_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path, monkeypatch, argv: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    status, stdout, err = run(capsys, *argv)
    assert status == 2 and stdout == "" and err.count("\n") == 1
    assert "File name too long" in err and "(30" in err  # its length in bytes
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("blocked", "argv", "extra"),
    [
        (("sklearn",), ["pig", "--goal", "5", "--players", "tree"], "learn"),
        (
            ("distributed",),
            ["fowl-redesign", "--chickens", "3", "--wolves", "1", "--goal", "3"],
            "cluster",
        ),
    ],
)
def test_a_missing_extra_is_named_in_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch, tmp_path, blocked, argv, extra
) -> None:
    """A lean install (no scikit-learn, no Dask): the command that needs one says which
    extra installs it, in one line with status 2."""
    for name in [m for m in sys.modules if m.split(".")[0] in blocked] + list(blocked):
        monkeypatch.setitem(sys.modules, name, None)  # import raises ImportError
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # no redesign cache to read
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert f"pip install 'exactprob[{extra}]'" in err


def test_a_negative_fraction_is_a_value_not_an_option(capsys: pytest.CaptureFixture[str]) -> None:
    """``--start -1/10`` reaches the command (a negative start is allowed there)."""
    status, out, err = run(capsys, "rubber-band", "--start", "-1/10", "--levels", "2", "--json")
    assert (status, err) == (0, "")
    assert json.loads(out)["start"] == "-1/10"


def test_running_out_of_memory_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last line of defence behind the estimates: a MemoryError is reported, not
    shown as a traceback."""
    import exactprob.commands.dice as dice_command

    def exhausted(args: object) -> None:
        raise MemoryError

    monkeypatch.setattr(dice_command, "run", exhausted)
    status, out, err = run(capsys, "dice", "2d6")
    assert (status, out) == (2, "")
    assert err == "exactprob dice: error: out of memory; try a smaller problem\n"


def test_a_dice_expression_with_repeated_terms_matches_enumeration() -> None:
    """Equal dice are summed together; the law is still that of every term rolled."""
    from exactprob.commands.dice import parse_dice

    got = parse_dice("1d4-2+1d6-1d4+3+1d6")
    ways: dict[int, int] = {}
    for a, b, c, d in itertools.product(range(1, 5), range(1, 7), range(1, 5), range(1, 7)):
        ways[a - 2 + b - c + 3 + d] = ways.get(a - 2 + b - c + 3 + d, 0) + 1
    assert dict(got.items()) == {k: Fraction(v, 4 * 6 * 4 * 6) for k, v in ways.items()}


def test_a_full_disk_mid_figures_leaves_neither_data_nor_figures(
    capsys: pytest.CaptureFixture[str], tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The atlas's CSV and its figures are written all or none: a disk that fills up at
    the second figure leaves no CSV, no figure, no temporary file and no new directory."""
    from exactprob.commands import ff

    real_jobs = ff.atlas_figure_jobs

    def filling_up(atlas: object, directory: Path) -> list:
        jobs = real_jobs(atlas, directory)

        def full(temporary: Path) -> None:
            raise OSError(28, "No space left on device")

        return [jobs[0], (jobs[1][0], full), *jobs[2:]]

    monkeypatch.setattr(ff, "atlas_figure_jobs", filling_up)
    out, plots = tmp_path / "atlas.csv", tmp_path / "figures"
    argv = ["ff", "atlas", "--out", str(out), "--max-stamina", "2", "--max-luck", "1"]
    status, stdout, err = run(capsys, *argv, "--figures", str(plots))
    assert (status, stdout) == (2, "")
    assert "No space left on device" in err and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("argv", "laws"),
    [
        (
            ["ff", "--hero", "10", "10", "5", "--opponent", "8", "8", "--rounds", "6", "--json"],
            ["round", "decisive_rounds", "luck_spent", "stamina_on_victory", "rounds"],
        ),
        (["rogue-rng", "--n", "3", "--json"], ["sum.distribution"]),
    ],
)
def test_every_exact_law_in_json_has_its_decimal_twin(
    capsys: pytest.CaptureFixture[str], argv: list[str], laws: list[str]
) -> None:
    status, out, _ = run(capsys, *argv)
    assert status == 0
    payload = json.loads(out)
    for path in laws:
        *parents, key = path.split(".")
        where = payload
        for parent in parents:
            where = where[parent]
        exact, twin = where[key], where[f"{key}_decimal"]
        assert exact.keys() == twin.keys() and sum(map(Fraction, exact.values())) == 1
        for k, p in exact.items():  # the exact value to 12 places
            assert abs(Fraction(twin[k]) - Fraction(p)) <= Fraction(1, 2 * 10**12)
