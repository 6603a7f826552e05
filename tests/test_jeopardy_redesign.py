"""The Fowl Play redesign search (issue 5): certified per-komi enclosures, the ranking of
designs, the disk cache, the Dask paths and ``exactprob fowl-redesign``.

Oracles: the exact component solver (``solver.solve``, rationals, no interval code) for
every komi of small decks; for goal 1 a recursion written here from the rules; exact
ranks of all designs recomputed here from the exact values.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from cli_runner import run
from text_style import style_faults

from exactprob import Enclosure
from exactprob.errors import WriteError
from exactprob.games.jeopardy import FowlPlay
from exactprob.games.jeopardy.redesign.search import (
    DeckResult,
    SchedulerError,
    cache_path,
    deck_result,
    fairest_designs,
    load_cached,
    search,
    store,
)
from exactprob.games.jeopardy.solving.solver import solve_race
from exactprob.util import cluster
from exactprob.util.text import decimal_text

GOAL = 6
DECKS = [(1, 1), (2, 1), (3, 1), (2, 2), (3, 2), (4, 3)]
HALF = Fraction(1, 2)


@cache
def exact_wins(chickens: int, wolves: int, goal: int) -> tuple[Fraction, ...]:
    """Every komi's exact first-player chance, by the exact solver."""
    solution = solve_race(FowlPlay(chickens, wolves, goal))
    return tuple(solution.first_player_win(komi) for komi in range(goal))


@pytest.fixture(scope="module")
def scheduler():
    """The address of an in-process Dask cluster (threads; no worker processes)."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=False,
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},  # never the busy 8787
    ) as cluster:
        yield cluster.scheduler_address


@pytest.mark.parametrize("deck", DECKS)
def test_every_komi_enclosure_holds_the_exact_value(deck):
    result = deck_result(*deck, GOAL)
    exact = exact_wins(*deck, GOAL)
    assert len(result.wins) == GOAL and not result.cached
    for win, value in zip(result.wins, exact, strict=True):
        assert win.contains(value) and win.width() < 1e-9


@pytest.mark.parametrize("chickens, wolves", [(1, 1), (1, 3), (5, 2), (7, 4)])
def test_goal_one_matches_the_rules(chickens, wolves):
    """To 1 point the first chicken wins; a wolf passes the turn with one more wolf out, and
    the last wolf passes a fresh deck. So with ``P_w`` the mover's chance after ``w``
    wolves, ``P_w = C/(C+W-w) + (W-w)/(C+W-w) (1 - P_{w+1})`` and ``P_W = P_0``. ``P_0`` is
    affine in itself: carry ``P_w = a + b P_0`` down from ``w = W`` (``a = 0, b = 1``)."""
    a, b = Fraction(0), Fraction(1)
    for w in reversed(range(wolves)):
        left = chickens + wolves - w
        chicken, wolf = Fraction(chickens, left), Fraction(wolves - w, left)
        a, b = chicken + wolf * (1 - a), -wolf * b
    value = a / (1 - b)
    assert deck_result(chickens, wolves, 1).wins[0].contains(value)


def test_fairest_designs_rank_as_the_exact_values_do():
    results = [deck_result(*deck, GOAL) for deck in DECKS]
    everything = fairest_designs(results, top=len(DECKS) * GOAL)
    distance = {
        (c, w, komi): abs(value - HALF)
        for c, w in DECKS
        for komi, value in enumerate(exact_wins(c, w, GOAL))
    }
    assert len(everything) == len(distance)
    for design in everything:
        key = (design.chickens, design.wolves, design.komi)
        low, high = design.distance
        assert low <= distance[key] <= high
        exact_best = 1 + sum(d < distance[key] for d in distance.values())
        exact_worst = sum(d <= distance[key] for d in distance.values())
        assert design.ranks[0] <= exact_best and exact_worst <= design.ranks[1]
    ordered = sorted(distance.values())
    assert ordered[0] < ordered[1]  # a unique fairest design: the search must find it
    best = fairest_designs(results, top=1)[0]
    assert distance[(best.chickens, best.wolves, best.komi)] == ordered[0]
    assert best.decided
    assert fairest_designs(results, top=3) == everything[:3]


def test_overlapping_enclosures_leave_the_rank_open():
    results = [deck_result(2, 1, GOAL), deck_result(2, 1, GOAL)]  # the same deck twice
    first, second = fairest_designs(results, top=2)
    assert first.ranks == second.ranks == (1, 2)
    assert not first.decided


def test_ranking_by_the_upper_bound_with_ties_and_overlaps():
    """Hand-made enclosures (goal 2: komi 0 and 1). By hand, the distances from 1/2 are
    deck (1, 1): [0, 1/10] and exactly 1/4; deck (2, 1): exactly 1/20 and exactly 1/4.
    Upper bounds order them 1/20 < 1/10 < 1/4 = 1/4; 1/20 lies inside [0, 1/10], so those
    two may come in either order, and the two exact 1/4 tie for ranks 3 and 4."""
    wide = DeckResult(1, 1, 2, (Enclosure(0.5, 0.6), Enclosure(0.75, 0.75)), 0.0)
    sharp = DeckResult(2, 1, 2, (Enclosure(0.45, 0.45), Enclosure(0.25, 0.25)), 0.0)
    designs = fairest_designs([wide, sharp], top=4)
    rows = [(d.chickens, d.komi, d.distance, d.ranks) for d in designs]
    twentieth = HALF - Fraction(0.45)  # the binary float 0.45 is a little off 9/20
    tenth = Fraction(0.6) - HALF
    quarter = (Fraction(1, 4), Fraction(1, 4))
    assert rows == [
        (2, 0, (twentieth, twentieth), (1, 2)),
        (1, 0, (0, tenth), (1, 2)),
        (1, 1, quarter, (3, 4)),
        (2, 1, quarter, (3, 4)),
    ]


def test_a_rerun_reads_the_cache_and_contacts_no_cluster(tmp_path, scheduler, monkeypatch):
    decks = DECKS[:3]
    first = search(decks, GOAL, tmp_path, scheduler=scheduler)
    assert [r.deck for r in first] == decks and not any(r.cached for r in first)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        cache_path(tmp_path, c, w, GOAL).name for c, w in decks
    )
    # nothing is missing, so the unreachable scheduler is never asked
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "0.2s")
    again = search(decks, GOAL, tmp_path, scheduler="tcp://127.0.0.1:1")
    assert all(r.cached for r in again)
    assert [r.wins for r in again] == [r.wins for r in first]  # repr round-trips exactly
    with pytest.raises(SchedulerError, match="scheduler 'tcp://127.0.0.1:1'"):
        search([*decks, (4, 3)], GOAL, tmp_path, scheduler="tcp://127.0.0.1:1")


def test_a_full_disk_leaves_no_cache_folder_behind(tmp_path, scheduler, monkeypatch):
    """The first deck's file cannot be written: the error is the write's, and the cache
    folders the search made (two levels) are gone again."""

    def disk_full(temporary):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_text", lambda self, text: disk_full(self))
    cache = tmp_path / "new" / "cache"
    with pytest.raises(WriteError, match="No space left on device"):
        search(DECKS[:2], GOAL, cache, scheduler=scheduler)
    assert list(tmp_path.iterdir()) == []


def test_untrustworthy_cache_files_are_recomputed(tmp_path, scheduler):
    decks = DECKS[:5]
    search(decks, GOAL, tmp_path, scheduler=scheduler)
    garbled, other_deck, other_format, bad_bounds, kept = decks
    cache_path(tmp_path, *garbled, GOAL).write_text('{"format": 2, "chick')
    cache_path(tmp_path, *other_deck, GOAL).write_text(
        cache_path(tmp_path, *kept, GOAL).read_text()
    )
    path = cache_path(tmp_path, *other_format, GOAL)
    path.write_text(path.read_text().replace('"format": 2', '"format": 3'))
    path = cache_path(tmp_path, *bad_bounds, GOAL)
    record = json.loads(path.read_text())
    record["komi_low"][0], record["komi_high"][0] = record["komi_high"][0], "0.0"
    path.write_text(json.dumps(record))
    for deck in (garbled, other_deck, other_format, bad_bounds):
        assert load_cached(tmp_path, *deck, GOAL) is None
    results = search(decks, GOAL, tmp_path, scheduler=scheduler)
    assert [r.cached for r in results] == [False, False, False, False, True]
    for result in results:
        exact = exact_wins(*result.deck, GOAL)
        assert all(win.contains(v) for win, v in zip(result.wins, exact, strict=True))
        assert load_cached(tmp_path, *result.deck, GOAL) is not None  # rewritten


def cli_args(cache_dir: Path, *extra: str) -> list[str]:
    return [
        "fowl-redesign", "--chickens", "2-3", "--wolves", "1-4:2", "--goal", "5",
        "--cache", str(cache_dir), *extra,
    ]  # fmt: skip


def test_cli_json_on_a_local_cluster_then_from_the_cache(capsys, tmp_path):
    status, out, err = run(capsys, *cli_args(tmp_path, "--workers", "1", "--top", "4", "--json"))
    assert (status, err) == (0, "")
    payload = json.loads(out)
    assert (payload["goal"], payload["decks"], payload["designs"]) == (5, 4, 20)
    assert (payload["decks_cached"], payload["decks_solved"]) == (0, 4)
    decks = {(row["chickens"], row["wolves"]) for row in payload["deck_table"]}
    assert decks == {(2, 1), (2, 3), (3, 1), (3, 3)}
    exact = {
        (c, w, komi): value for c, w in decks for komi, value in enumerate(exact_wins(c, w, 5))
    }
    assert len(payload["fairest"]) == 4
    distances = sorted(abs(v - HALF) for v in exact.values())
    for rank, row in enumerate(payload["fairest"], start=1):
        assert row["rank"] == rank and row["rank_best"] <= rank <= row["rank_worst"]
        value = exact[(row["chickens"], row["wolves"], row["komi"])]
        low, high = Fraction(row["first_player_win_low"]), Fraction(row["first_player_win_high"])
        assert low <= value <= high
        assert Fraction(row["distance_from_even_low"]) <= abs(value - HALF)
        assert abs(value - HALF) <= Fraction(row["distance_from_even_high"])
        assert abs(value - HALF) == distances[rank - 1]  # exact distances are all distinct
    status, out, err = run(capsys, *cli_args(tmp_path))
    assert (status, err) == (0, "")
    assert "4 from the cache, 0 solved" in out
    lines = out.splitlines()
    assert lines[2].split()[:4] == ["rank", "chickens", "wolves", "komi"]
    top = payload["fairest"][0]
    middle = (Fraction(top["first_player_win_low"]) + Fraction(top["first_player_win_high"])) / 2
    assert lines[3].split()[:5] == [
        "1", str(top["chickens"]), str(top["wolves"]), str(top["komi"]), decimal_text(middle),
    ]  # fmt: skip
    assert style_faults(out) == []


BAD = [
    (["--chickens", "5-3"], "--chickens range '5-3' is empty"),
    (["--chickens", "0"], "--chickens must be a whole number from 1"),
    (["--wolves", "2-x"], "--wolves must be a whole number or a range"),
    (["--wolves", "1-4:0"], "--wolves step must be a whole number from 1"),
    (["--goal", "0"], "--goal must be a whole number from 1"),
    (["--top", "0"], "--top must be a whole number >= 1"),
    (["--workers", "0"], "--workers must be a whole number from 1"),
    (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "leave it out with --scheduler"),
    (["--scheduler", "nowhere"], "scheduler 'nowhere' cannot be reached"),
    (["--scheduler", "tcp://127.0.0.1:1"], "scheduler 'tcp://127.0.0.1:1' cannot be reached"),
]


@pytest.mark.parametrize("extra, message", BAD, ids=[" ".join(extra) for extra, _ in BAD])
def test_cli_bad_input_is_one_line_and_writes_nothing(
    capsys, tmp_path, monkeypatch, extra, message
):
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "0.2s")
    cache_dir = tmp_path / "cache"
    status, out, err = run(capsys, *cli_args(cache_dir, *extra))
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and message in err, err
    assert not cache_dir.exists()


def test_cli_cache_must_be_a_directory(capsys, tmp_path):
    file = tmp_path / "file"
    file.write_text("")
    status, out, err = run(capsys, *cli_args(file))
    assert (status, out) == (2, "") and "--cache must be a directory" in err


def test_a_hand_edited_or_deeply_nested_cache_file_is_not_trusted(tmp_path, scheduler):
    """Bounds edited to 0.5 (the digest no longer matches) and a file nested 100,000 deep
    (which crashed every rerun) are both recomputed."""
    edited, nested = DECKS[:2]
    search([edited, nested], GOAL, tmp_path, scheduler=scheduler)
    path = cache_path(tmp_path, *edited, GOAL)
    record = json.loads(path.read_text())
    record["komi_low"] = record["komi_high"] = ["0.5"] * GOAL
    path.write_text(json.dumps(record))
    cache_path(tmp_path, *nested, GOAL).write_text("[" * 100_000 + "]" * 100_000)
    assert load_cached(tmp_path, *edited, GOAL) is None
    assert load_cached(tmp_path, *nested, GOAL) is None
    results = search([edited, nested], GOAL, tmp_path, scheduler=scheduler)
    assert not any(r.cached for r in results)


def test_a_malformed_scheduler_address_fails_at_once_and_exits_cleanly(tmp_path):
    """'bogus' left a half-made Dask client that hung for 20 s at exit and printed a
    traceback; the address is now checked before any client exists."""
    argv = ["fowl-redesign", "--scheduler", "bogus", "--cache", str(tmp_path), "--chickens", "8"]
    done = subprocess.run(
        [sys.executable, "-m", "exactprob.cli", *argv],
        capture_output=True,
        text=True,
        timeout=120,  # start-up and Dask's import on a busy machine; the hang printed a traceback
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "missing port number" in done.stderr


def test_a_grid_too_large_is_refused_before_any_cluster_starts(
    capsys, tmp_path, monkeypatch: pytest.MonkeyPatch
):
    """The largest deck's states, and the memory of the decks solved at once (two
    workers here, on a machine of 1 GiB: 2 x 917.7 MiB by working_bytes)."""
    import exactprob.util.resources

    argv = ["fowl-redesign", "--cache", str(tmp_path), "--goal", "100"]
    status, out, err = run(capsys, *argv, "--chickens", "9000", "--wolves", "9000")
    assert (status, out) == (2, "") and "41,565,105,000,000 non-terminal states" in err
    monkeypatch.setattr(exactprob.util.resources, "physical_memory", lambda: 2**30)
    argv = ["fowl-redesign", "--cache", str(tmp_path), "--goal", "5", "--workers", "2"]
    status, out, err = run(capsys, *argv, "--chickens", "1999-2000", "--wolves", "1")
    assert (status, out) == (2, "")
    assert "solving 2 of these decks at once needs about 1.8 GiB of memory" in err
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("kind", ["fifo", "device", "huge"])
def test_a_cache_entry_that_is_no_regular_small_file_is_not_read(tmp_path, kind):
    """A FIFO blocked the reader forever and a link to /dev/zero read until memory ran
    out; neither is opened now, and an oversized file is not trusted."""
    path = cache_path(tmp_path, *DECKS[0], GOAL)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path.symlink_to("/dev/zero")
    else:  # a sound record, padded past the size read
        wins = tuple(Enclosure(0.25, 0.75) for _ in range(GOAL))
        store(DeckResult(*DECKS[0], GOAL, wins, 1.0), tmp_path)
        assert load_cached(tmp_path, *DECKS[0], GOAL) is not None
        path.write_text(path.read_text() + " " * 1_000_000)
    assert load_cached(tmp_path, *DECKS[0], GOAL) is None


INTERRUPTED_SEARCH = """
import signal, sys
from exactprob.cli import main
# Python leaves SIGINT ignored when it starts ignored (a background job of a shell without
# job control, where CI's pytest may run): give it Ctrl-C's handler, as a terminal does
signal.signal(signal.SIGINT, signal.default_int_handler)
sys.exit(main(["fowl-redesign", "--chickens", "10-40", "--wolves", "2-6", "--goal", "30",
               "--workers", "2", "--cache", sys.argv[1]]))
"""


@pytest.mark.slow
def test_ctrl_c_reaches_every_process_and_only_one_line_is_printed(tmp_path):
    """A terminal's Ctrl-C goes to the whole process group, the Dask workers included,
    once the first deck is solved (its cache file is the readiness marker): one line,
    status 130, no traceback from a worker, and no worker left running."""
    search = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED_SEARCH, str(tmp_path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a process group of its own, as a terminal's job
    )
    try:
        deadline = time.monotonic() + 120
        while not any(tmp_path.glob("*.json")) and time.monotonic() < deadline:
            time.sleep(0.05)
        os.killpg(search.pid, signal.SIGINT)
        _, err = search.communicate(timeout=60)
        assert search.returncode == 130 and err.strip() == "exactprob fowl-redesign: interrupted"
        deadline = time.monotonic() + 30
        while _group_alive(search.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _group_alive(search.pid)
    finally:
        if _group_alive(search.pid):
            os.killpg(search.pid, signal.SIGKILL)


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True
