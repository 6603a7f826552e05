"""The depth-first solver against the engine's graph solver, on random books with loops:
the same value and the same ties in every reachable state (the engine explores the whole
graph first and solves it; the depth-first solver never stores it), and the same refusals."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactprob.engine.choice_tree import BookModel
from exactprob.engine.exact.depth_first import solve_depth_first
from exactprob.engine.exact.solving import solve_model
from exactprob.errors import ModelError, NonTerminationError, StateLimitError
from exactprob.games.gamebook import solve_choices

ENDINGS = {"won": F(1), "half": F(1, 2), "lost": F(0)}


@st.composite
def books_with_loops(draw):
    """States 0..n-1, each with 1-3 choices whose outcomes go anywhere (itself, back,
    forward) or to an ending, with weights 1-3."""
    n = draw(st.integers(1, 6))
    targets = st.sampled_from([*range(n), *ENDINGS])
    book = {}
    for s in range(n):
        listed = []
        for c in range(draw(st.integers(1, 3))):
            goes = draw(st.lists(targets, min_size=1, max_size=4))
            weights = draw(st.lists(st.integers(1, 3), min_size=len(goes), max_size=len(goes)))
            total = sum(weights)
            listed.append((f"c{c}", [(t, F(w, total)) for t, w in zip(goes, weights)]))
        book[s] = listed
    return book


def model_of(book):
    return BookModel(book.__getitem__, ENDINGS.get, 0)


@settings(max_examples=300, deadline=None)
@given(books_with_loops())
def test_values_and_ties_equal_the_engine_on_every_state(book):
    try:
        engine = solve_model(model_of(book))
    except NonTerminationError:
        with pytest.raises(NonTerminationError):
            solve_depth_first(model_of(book))
        return
    mine = solve_depth_first(model_of(book))
    assert len(mine) == len(engine.states)
    for s in engine.states:
        assert mine.value(s) == engine.value(s), s
        assert mine.ties(s) == engine.ties(s), s
        assert (mine.policy(s) is None) == (engine.policy(s) is None)
        if mine.policy(s) is not None:
            assert mine.policy(s) in mine.ties(s)


def test_a_self_loop_alone_is_a_do_over_and_a_dead_one_is_refused():
    # "wait" stays with 1/2: V = (1/2 * 1) / (1 - 1/2) = 1 against "go" at 1/2
    book = {0: [("go", [("half", 1)]), ("wait", [(0, F(1, 2)), ("won", F(1, 2))])]}
    values = solve_depth_first(model_of(book))
    assert (values.value(0), values.ties(0)) == (1, (1,))
    with pytest.raises(ModelError, match="never reaches a known state"):
        solve_choices({0: [("stay", [(0, 1)])]}.__getitem__, ENDINGS.get, 0)


def test_the_state_limit_counts_every_state_reached():
    def ladder(s):
        return [("up", [(s + 1, 1)])]

    values = solve_depth_first(
        BookModel(ladder, lambda s: 1 if s == 10 else None, 0), max_states=11
    )
    assert len(values) == 11 and values.value(0) == 1
    with pytest.raises(StateLimitError, match="more than 10 reachable states"):
        solve_depth_first(BookModel(ladder, lambda s: 1 if s == 10 else None, 0), max_states=10)
