"""exactprob.engine._internal.refine: exact solutions lifted from a float LU.

Oracles: FLINT's dense exact LU (``linear._dense_solve``, a different algorithm), sympy's
determinant for singularity, and, through the engine, the enumeration and Gauss-Jordan
oracles of ``models`` with the refinement forced on every cyclic component.
"""

from __future__ import annotations

import random
import sys
from contextlib import contextmanager
from fractions import Fraction as F
from pathlib import Path

import gmpy2
import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from models import (
    check_against_optimum,
    check_optimal,
    cyclic_chains,
    cyclic_games,
    game_values,
    optimal_by_enumeration,
    reachable,
)

import exactprob as ep
from exactprob import NonTerminationError
from exactprob.engine._internal import linear, refine
from exactprob.engine._internal.linear import RATIONAL, _dense_solve
from exactprob.engine._internal.refine import IntegerSystem, refined_solve
from exactprob.util.numbers import mpq

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from bench_long_answers import Snakes  # the benchmark's board


def leaky_rows(rng: random.Random, n: int, degree: int, leak: bool = True) -> list[dict]:
    """Rows of I - P for a random substochastic P with ``degree`` moves per state; with
    ``leak`` every state may leave (I - P non-singular), else only some do."""
    rows = []
    for i in range(n):
        weights = {rng.randrange(n): rng.randint(1, 5) for _ in range(degree)}
        out = rng.randint(1, 3) if leak or rng.random() < 0.1 else 0
        total = sum(weights.values()) + out
        row = {i: mpq(1)}
        for j, w in weights.items():
            row[j] = row.get(j, mpq(0)) - mpq(w, total)
        rows.append({j: v for j, v in row.items() if v})
    return rows


def long_value(rng: random.Random, digits: int) -> mpq:
    return mpq(rng.randrange(-(10**digits), 10**digits), rng.randrange(1, 10**digits))


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    n=st.integers(1, 40),
    degree=st.integers(1, 6),
    columns=st.integers(1, 3),
    digits=st.sampled_from([1, 3, 40, 400]),
)
def test_refinement_equals_dense_exact_lu(seed, n, degree, columns, digits):
    """Short and long right-hand sides (long ones are shortened first) alike."""
    rng = random.Random(seed)
    rows = leaky_rows(rng, n, degree)
    rhs = [[long_value(rng, digits) for _ in range(columns)] for _ in range(n)]
    assert refined_solve(rows, rhs) == _dense_solve(RATIONAL, rows, rhs)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(1, 12), degree=st.integers(1, 4))
def test_a_singular_system_is_refused_never_solved(seed, n, degree):
    """A system whose states may never leave: non-termination exactly when sympy's
    determinant is zero; otherwise the exact solution."""
    rng = random.Random(seed)
    rows = leaky_rows(rng, n, degree, leak=False)
    rhs = [[mpq(rng.randint(0, 3))] for _ in range(n)]
    A = sympy.Matrix(n, n, lambda i, j: sympy.Rational(str(rows[i].get(j, 0))))
    if A.det() == 0:
        with pytest.raises(NonTerminationError):
            refined_solve(rows, rhs)
    else:
        assert refined_solve(rows, rhs) == _dense_solve(RATIONAL, rows, rhs)


def test_explicit_zero_entries_are_no_moves():
    """State 0 loops on itself forever; its row lists a zero entry towards state 1,
    which leaves: that is no way out, and the system is singular."""
    rows = [{0: mpq(0), 1: mpq(0)}, {1: mpq(1)}]
    with pytest.raises(NonTerminationError):
        refined_solve(rows, [[mpq(0)], [mpq(1)]])


def test_a_matrix_whose_signs_do_not_tell_is_left_to_elimination():
    rows = [{0: mpq(1), 1: mpq(2)}, {0: mpq(3), 1: mpq(1)}]  # not diagonally dominant
    assert IntegerSystem.of(rows, [[mpq(1)], [mpq(1)]]).nonsingular() is None
    assert refined_solve(rows, [[mpq(1)], [mpq(1)]]) is None
    assert linear.solve_linear(RATIONAL, rows, [[mpq(1)], [mpq(1)]]) == [[mpq(1, 5)], [mpq(2, 5)]]


def test_rows_too_long_for_machine_words_are_left_to_elimination():
    rows = [{0: mpq(1), 1: mpq(-1, 2**45)}, {1: mpq(1)}]
    assert IntegerSystem.of(rows, [[mpq(1)], [mpq(1)]]) is None


def test_a_dyadic_answer_ends_when_the_residual_vanishes():
    rows = [{0: mpq(1), 1: mpq(-1, 2)}, {1: mpq(1), 0: mpq(-1, 4)}]
    x = refined_solve(rows, [[mpq(3, 8)], [mpq(1, 16)]])
    assert x == _dense_solve(RATIONAL, rows, [[mpq(3, 8)], [mpq(1, 16)]])


def hard_chain(n: int = 120, seed: int = 3) -> tuple[list[dict], list[list[mpq]]]:
    rng = random.Random(seed)
    return leaky_rows(rng, n, 5), [[mpq(rng.randint(0, 6), 7)] for _ in range(n)]


def test_an_inaccurate_float_lu_still_gives_the_exact_answer(monkeypatch):
    """The floats only steer: an LU of a perturbed matrix (entries off by up to 1e-4)
    lifts fewer bits a step, and the answer is the same exact one."""
    rows, rhs = hard_chain()
    original = refine.Lifting.__init__

    def perturbed(self, system):
        original(self, system)
        from scipy.sparse.linalg import splu

        noisy = self.float_matrix.copy()
        noisy.data *= 1 + 1e-4 * np.random.default_rng(1).uniform(-1, 1, noisy.nnz)
        self.lu = splu(noisy)

    monkeypatch.setattr(refine.Lifting, "__init__", perturbed)
    assert refined_solve(rows, rhs) == _dense_solve(RATIONAL, rows, rhs)


def test_a_useless_float_lu_gives_up_and_elimination_answers(monkeypatch):
    """An LU of another matrix cannot shorten the residual: the lifting stops (no
    answer, never a wrong one) and the elimination answers."""
    rows, rhs = hard_chain()
    original = refine.Lifting.__init__

    def wrong(self, system):
        original(self, system)
        from scipy.sparse import identity
        from scipy.sparse.linalg import splu

        self.lu = splu(identity(len(system), format="csc") * -3.0)

    monkeypatch.setattr(refine.Lifting, "__init__", wrong)
    assert refined_solve(rows, rhs) is None
    assert linear.solve_linear(RATIONAL, rows, rhs) == _dense_solve(RATIONAL, rows, rhs)


def test_the_exact_check_catches_a_corrupted_reconstruction(monkeypatch):
    """A reconstruction off by one in one numerator never passes the check: the lifting
    goes on to the Hadamard bound and gives up; the answer comes from elimination."""
    rows, rhs = hard_chain(40)
    original, check = refine._entries, IntegerSystem.check
    checked = []

    def corrupted(*args):
        found = original(*args)
        if found is None:
            return None
        numerators, L = found
        return [numerators[0] + 1, *numerators[1:]], L

    def spy_check(self, j, numerators, L):
        checked.append(verdict := check(self, j, numerators, L))
        return verdict

    monkeypatch.setattr(refine, "_entries", corrupted)
    monkeypatch.setattr(refine.IntegerSystem, "check", spy_check)
    assert refined_solve(rows, rhs) is None
    assert checked and not any(checked)
    assert linear.solve_linear(RATIONAL, rows, rhs) == _dense_solve(RATIONAL, rows, rhs)


@contextmanager
def refining_everything():
    """Every cyclic component's system, from two states on, goes to the refinement;
    yields the calls (size, whether it answered)."""
    calls = []
    original = linear.refined_solve

    def recorded(rows, rhs, progress=False):
        answer = original(rows, rhs, progress)
        calls.append((len(rows), answer is not None))
        return answer

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(linear, "SMALL_LIMIT", 0)
        patch.setattr(linear, "REFINE_LIMIT", 1)
        patch.setattr(linear, "refined_solve", recorded)
        yield calls


@settings(max_examples=60, deadline=None)
@given(cyclic_chains())
def test_forced_refinement_solves_chains_exactly(model):
    with refining_everything() as calls:
        S = ep.solve(model)
    check_optimal(model, S)
    assert all(answered for _, answered in calls)


@settings(max_examples=40, deadline=None)
@given(cyclic_games(two_players=False))
def test_forced_refinement_solves_mdps_exactly(model):
    states = reachable(model)
    with refining_everything():
        S = ep.solve(model)
    check_against_optimum(model, S, optimal_by_enumeration(model, states))


@settings(max_examples=40, deadline=None)
@given(cyclic_games(two_players=True))
def test_forced_refinement_solves_games_exactly(model):
    states = reachable(model)
    maxmin, minmax = game_values(model, states)
    assert maxmin == minmax
    with refining_everything():
        S = ep.solve(model)
    check_against_optimum(model, S, maxmin)


def record_refinements(monkeypatch) -> list:
    """The answers of every refinement from now on (``None``: it did not apply)."""
    calls = []
    original = linear.refined_solve

    def recorded(*args):
        calls.append(answer := original(*args))
        return answer

    monkeypatch.setattr(linear, "refined_solve", recorded)
    return calls


def test_a_large_component_is_refined_and_equals_elimination(monkeypatch):
    """A 300-square board with 57 snakes (benchmarks/bench_long_answers.py; too many
    feedback states for the forward-reach solve): the refinement (the default at this
    size) and the elimination (forced) give the same exact values."""
    model = Snakes(300)
    calls = record_refinements(monkeypatch)
    refined = ep.solve(model)
    assert calls and all(answer is not None for answer in calls)
    monkeypatch.setattr(linear, "REFINE_LIMIT", 10**9)
    eliminated = ep.solve(model)
    assert all(refined.value(s) == eliminated.value(s) for s in refined.states)
    assert refined.value() == F(eliminated.value())


def test_a_long_solve_shows_its_progress_in_bits(capsys):
    rows, rhs = hard_chain()
    assert refined_solve(rows, rhs, progress=True) == _dense_solve(RATIONAL, rows, rhs)
    assert "lifting 120 states" in capsys.readouterr().err


def test_a_solve_too_large_for_the_machine_is_refused_up_front(monkeypatch):
    from exactprob import ResourceError
    from exactprob.util import resources

    monkeypatch.setattr(resources, "physical_memory", lambda: 2**14)  # a 16 KiB machine
    rows, rhs = hard_chain()
    with pytest.raises(ResourceError, match="cyclic component of 120 states"):
        refined_solve(rows, rhs)


@settings(max_examples=40, deadline=None)
@given(cyclic_chains())
def test_forced_refinement_gives_the_same_forward_laws_and_visits(model):
    """The systems of expected visits (solved by columns: (I - P)^T) and of the
    absorption law, refined, equal those eliminated."""
    plain = ep.solve(model)
    expected = (plain.absorption(), plain.expected_steps(), ep.stationary(model).expected_visits())
    with refining_everything() as calls:
        S = ep.solve(model)
        refined = (S.absorption(), S.expected_steps(), ep.stationary(model).expected_visits())
    assert refined == expected
    assert all(answered for _, answered in calls)


class Ring:
    """A token walks a ring of ``n`` squares with 2d6; square 30 sends it to square 0."""

    def __init__(self, n: int) -> None:
        self.n, self.initial = n, 0

    def outcome(self, s):
        return None

    def actions(self, s):
        return ("roll",)

    def transition(self, s, a):
        return ep.dice(2, 6).map(lambda d: 0 if (s + d) % self.n == 30 else (s + d) % self.n)


def test_a_stationary_law_of_300_states_is_refined_and_equals_elimination(monkeypatch):
    calls = record_refinements(monkeypatch)
    refined = ep.stationary(Ring(300)).law()
    assert calls and all(answer is not None for answer in calls)
    monkeypatch.setattr(linear, "REFINE_LIMIT", 10**9)
    assert refined == ep.stationary(Ring(300)).law()
    assert sum(refined.values()) == 1


@pytest.mark.slow
def test_chutes_and_ladders_equals_the_published_fraction():
    """RobinFiveWords (2024) published the first player's exact chance: 4,453 digits over
    4,453, the first and last 50 digits of each, and 50 decimals."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
    from chutes_and_ladders import ChutesAndLadders

    value = ep.solve(ChutesAndLadders()).value()
    digits = [gmpy2.mpz(n).digits(10) for n in (value.numerator, value.denominator)]
    assert [len(d) for d in digits] == [4453, 4453]
    assert digits[0][:50] == "18092633267099670514343477485255245523539807365785"
    assert digits[0][-50:] == "90240587291785142074765117906190638869011346271241"
    assert digits[1][:50] == "35629252561560253605625838295628123481462480630624"
    assert digits[1][-50:] == "42580337736686693566230404055465297923649011295808"
    published = F("0.50780277346091397787392387841954080716542767187942")
    assert abs(value - published) <= F(1, 2 * 10**50)
