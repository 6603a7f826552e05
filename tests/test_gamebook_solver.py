"""The generic gamebook solver against independent oracles: plain recursion over random
acyclic books, hand derivations, and an enumeration of every policy of a cyclic book."""

from __future__ import annotations

from collections import defaultdict, deque
from fractions import Fraction as F
from itertools import product

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactprob import Dist, DistributionError, InexactError, ModelError, StateLimitError
from exactprob.games.gamebook import Leaf, SolutionNode, situations, solve_choices, walkthrough

# ======================================================================================
# Random acyclic books versus a brute-force recursive solver
# ======================================================================================


@st.composite
def acyclic_books(draw):
    """States 0..n-1; state i moves only to larger states; the last state is known.
    Targets may repeat inside a choice (regrouping) and a choice may copy an earlier one
    under another description (an exact tie)."""
    n = draw(st.integers(2, 7))
    scores, choices = {}, {}
    for i in range(n):
        if i == n - 1 or draw(st.booleans()) and i > 0:
            scores[i] = draw(st.sampled_from([F(0), F(1, 3), F(1, 2), F(2, 3), F(1)]))
            continue
        listed = []
        for j in range(draw(st.integers(1, 3))):
            if listed and draw(st.booleans()):
                outcomes = draw(st.sampled_from([o for _, o in listed]))
            else:
                targets = draw(st.lists(st.integers(i + 1, n - 1), min_size=1, max_size=3))
                weights = draw(st.lists(st.integers(1, 3), min_size=len(targets), max_size=3))
                total = sum(weights[: len(targets)])
                outcomes = [(t, f"{w}/{total}") for t, w in zip(targets, weights)]
            listed.append((f"c{j}", outcomes))
        choices[i] = listed
    return scores, choices


def brute_value(book, s):
    """V(s) by plain recursion over every path (no memo, no engine)."""
    scores, choices = book
    if s in scores:
        return scores[s]
    return max(choice_value(book, outcomes) for _, outcomes in choices[s])


def choice_value(book, outcomes):
    return sum((F(p) * brute_value(book, t) for t, p in outcomes), F(0))


def brute_best(book, s):
    """Descriptions of every optimal choice, in the listed order."""
    best = brute_value(book, s)
    return [d for d, outcomes in book[1][s] if choice_value(book, outcomes) == best]


def regrouped(outcomes):
    total = defaultdict(F)
    for t, p in outcomes:
        total[t] += F(p)
    return dict(total)


def chosen_outcomes(book, s):
    first = brute_best(book, s)[0]
    return next(outcomes for d, outcomes in book[1][s] if d == first)


def first_arrivals(book, s, where, prob, found):
    """Push probability along every path of the first optimal choices, stopping at the
    first selected state (path enumeration)."""
    if where(s):
        found[s] += prob
    elif s not in book[0]:
        for t, p in chosen_outcomes(book, s):
            first_arrivals(book, t, where, prob * F(p), found)


def solve_book(book, start=0):
    scores, choices = book
    return solve_choices(choices.__getitem__, scores.get, start)


def nodes_by_state(tree):
    found, queue = {}, deque([tree])
    while queue:
        node = queue.popleft()
        if node.state in found:
            assert found[node.state] is node  # one shared node per state
            continue
        found[node.state] = node
        if isinstance(node, SolutionNode):
            queue.extend(child for child, _ in node.outcomes)
    return found


@settings(max_examples=150, deadline=None)
@given(acyclic_books())
def test_random_acyclic_books_match_brute_force(book):
    tree = solve_book(book)
    nodes = nodes_by_state(tree)
    for s, node in nodes.items():
        assert node.score == brute_value(book, s) and type(node.score) is F
        if s in book[0]:
            assert isinstance(node, Leaf)
            continue
        best = brute_best(book, s)
        assert node.description == best[0] and node.ties == tuple(best)
        assert {c.state: p for c, p in node.outcomes} == regrouped(chosen_outcomes(book, s))
        assert sum(p for _, p in node.outcomes) == 1
    # the tree holds exactly the states reachable under the first optimal choices
    reach, stack = {0}, [0]
    while stack:
        s = stack.pop()
        if s not in book[0]:
            for t, _ in chosen_outcomes(book, s):
                if t not in reach:
                    reach.add(t)
                    stack.append(t)
    assert set(nodes) == reach


@settings(max_examples=100, deadline=None)
@given(acyclic_books(), st.data())
def test_random_acyclic_reports_match_path_enumeration(book, data):
    tree = solve_book(book)
    selected = data.draw(st.frozensets(st.integers(0, 6)))
    found = defaultdict(F)
    first_arrivals(book, 0, selected.__contains__, F(1), found)
    report = situations(tree, selected.__contains__)
    assert dict(report) == {s: p for s, p in found.items() if p}
    keys = [(-p, repr(s)) for s, p in report]
    assert keys == sorted(keys)
    # the walkthrough: every reachable choosing state once, breadth-first from the start
    order, seen, queue = [], {0}, deque([0])
    while queue:
        s = queue.popleft()
        if s not in book[0]:
            order.append((s, brute_best(book, s)[0], brute_value(book, s)))
            for t in sorted(regrouped(chosen_outcomes(book, s))):
                if t not in seen:
                    seen.add(t)
                    queue.append(t)
    assert walkthrough(tree) == order


# ======================================================================================
# A hand-derived book
# ======================================================================================

HAND_BOOK = {
    "1": [
        ("take the bridge", [("2", "1/2"), ("dead", "1/2")]),
        ("wade the ford", [("3", "1/3"), ("2", "2/3")]),
    ],
    "2": [("climb", [("win", "3/4"), ("dead", "1/4")]), ("rest", [("3", 1)])],
    "3": [("fight", [("win", "4/6"), ("dead", "2/6")]), ("bribe", [("4", 1)])],
    "4": [("run", [("win", "2/3"), ("dead", "1/3")])],
}
HAND_SCORES = {"win": 1, "dead": 0}


def test_hand_derived_book():
    # V(4) = 2/3; V(3) = max(fight 4/6, bribe V(4) = 2/3) = 2/3, a tie, fight listed first;
    # V(2) = max(climb 3/4, rest V(3) = 2/3) = 3/4;
    # V(1) = max(bridge 1/2 * 3/4 = 3/8, ford 1/3 * 2/3 + 2/3 * 3/4 = 2/9 + 1/2 = 13/18).
    tree = solve_choices(HAND_BOOK.__getitem__, HAND_SCORES.get, "1")
    assert (tree.description, tree.score, tree.ties) == (
        "wade the ford",
        F(13, 18),
        ("wade the ford",),
    )
    two, three = (child for child, _ in tree.outcomes)
    assert [p for _, p in tree.outcomes] == [F(2, 3), F(1, 3)]
    assert (two.state, two.description, two.score) == ("2", "climb", F(3, 4))
    assert (three.state, three.ties, three.score) == ("3", ("fight", "bribe"), F(2, 3))
    assert {c.state: p for c, p in three.outcomes} == {"win": F(2, 3), "dead": F(1, 3)}
    assert isinstance(three.outcomes[0][0], Leaf)
    # the win node is shared by sections 2 and 3
    assert {c.state: c for c, _ in two.outcomes}["win"] is three.outcomes[1][0]
    assert walkthrough(tree) == [
        ("1", "wade the ford", F(13, 18)),
        ("2", "climb", F(3, 4)),
        ("3", "fight", F(2, 3)),
    ]
    # first arrival at sections 2 and 3 from 1: the ford's own probabilities
    assert situations(tree, lambda s: s in {"2", "3"}) == [("2", F(2, 3)), ("3", F(1, 3))]
    # section 3 alone: only through the ford (section 2 climbs, never rests)
    assert situations(tree, lambda s: s == "3") == [("3", F(1, 3))]
    # the end: win = V(1) = 13/18 since scores are 1 and 0
    assert situations(tree, HAND_SCORES.__contains__) == [("win", F(13, 18)), ("dead", F(5, 18))]


def test_known_start_is_a_leaf_and_reports_ties_by_repr():
    leaf = solve_choices(HAND_BOOK.__getitem__, HAND_SCORES.get, "win")
    assert isinstance(leaf, Leaf) and leaf.score == 1 and walkthrough(leaf) == []
    coin = {"toss": [("toss", [("b", "1/2"), ("a", "1/2")])]}
    tree = solve_choices(coin.__getitem__, {"a": 1, "b": 0}.get, "toss")
    assert situations(tree, lambda s: s != "toss") == [("a", F(1, 2)), ("b", F(1, 2))]
    assert situations(tree, lambda s: s == "toss") == [("toss", F(1))]
    # ties are ordered by repr, not by the states' own order: '10' < '9'
    dice = {0: [("roll", [(9, "1/3"), (10, "1/3"), (11, "1/6"), (12, "1/6")])]}
    tree = solve_choices(dice.__getitem__, lambda s: 1 if s else None, 0)
    assert [s for s, _ in situations(tree, bool)] == [10, 9, 11, 12]


def test_each_state_solved_once_and_shared():
    # a ladder: from rung s, move up 1 or 2 rungs; 2^40-ish paths, 42 states
    calls = defaultdict(int)

    def choices(s):
        calls[s] += 1
        return [("up", [(s + 1, "1/2"), (s + 2, "1/2")]), ("jump", [(s + 2, 1)])]

    tree = solve_choices(choices, lambda s: F(s % 3, 2) if s >= 40 else None, 0)
    nodes = nodes_by_state(tree)
    # once while solving, and once more for the states of the tree (their choices are
    # not kept, to save memory)
    asked_again = {s for s, node in nodes.items() if isinstance(node, SolutionNode)}
    assert calls == {s: 1 + (s in asked_again) for s in range(40)}
    assert len(nodes) <= 42
    assert len(walkthrough(tree)) == len([n for n in nodes.values() if isinstance(n, SolutionNode)])


# ======================================================================================
# Books with loops
# ======================================================================================

CORRIDOR = {
    "room1": [
        ("leave by the west door", [("exit", 1)]),
        ("walk east", [("room2", "3/4"), ("trap", "1/4")]),
    ],
    "room2": [
        ("walk west", [("room1", "3/4"), ("trap", "1/4")]),
        ("search", [("win", "1/2"), ("trap", "1/4"), ("room1", "1/4")]),
    ],
}
CORRIDOR_SCORES = {"exit": F(1, 3), "win": 1, "trap": 0}


def corridor_by_enumeration():
    """The best of the four stationary policies, each solved by Cramer's rule on
    x = a + b y, y = c + d x (x, y the values of room1 and room2)."""
    best = None
    for east, search in product([False, True], repeat=2):
        a, b = (F(0), F(3, 4)) if east else (F(1, 3), F(0))
        c, d = (F(1, 2), F(1, 4)) if search else (F(0), F(3, 4))
        x = (a + b * c) / (1 - b * d)
        y = c + d * x
        best = (x, y) if best is None else (max(best[0], x), max(best[1], y))
    return best


def test_corridor_walked_back_and_forth():
    # By hand: walk east and search: x = 3/4 y, y = 1/2 + x/4, so y = 1/2 + 3y/16,
    # y = 8/13, x = 6/13 > 1/3 (the west door); walking west from room2 is 3/4 x = 9/26 < 8/13.
    assert corridor_by_enumeration() == (F(6, 13), F(8, 13))
    tree = solve_choices(CORRIDOR.__getitem__, CORRIDOR_SCORES.get, "room1")
    assert (tree.description, tree.score) == ("walk east", F(6, 13))
    room2 = {c.state: c for c, _ in tree.outcomes}["room2"]
    assert (room2.description, room2.score) == ("search", F(8, 13))
    assert {c.state: c for c, _ in room2.outcomes}["room1"] is tree  # a graph
    assert repr(tree) == (
        "SolutionNode(state='room1', description='walk east', score=Fraction(6, 13), outcomes=2)"
    )
    assert walkthrough(tree) == [("room1", "walk east", F(6, 13)), ("room2", "search", F(8, 13))]
    # first arrival at room2 is 3/4 (the expected number of visits would be 12/13:
    # v1 = 1 + v2/4, v2 = 3 v1/4)
    assert situations(tree, lambda s: s == "room2") == [("room2", F(3, 4))]
    # the end: P(win) = V(room1) = 6/13 since the exit (1/3) is never taken
    assert situations(tree, CORRIDOR_SCORES.__contains__) == [("trap", F(7, 13)), ("win", F(6, 13))]


def test_self_loop_is_renormalised():
    # pull the bucket: 1/3 win, 1/6 fall in (0), 1/2 try again: V = (1/3) / (1 - 1/2) = 2/3
    well = {"well": [("pull", [("win", "1/3"), ("fell", "1/6"), ("well", "1/2")])]}
    tree = solve_choices(well.__getitem__, {"win": 1, "fell": 0}.get, "well")
    assert tree.score == F(2, 3)
    assert {c.state: c for c, _ in tree.outcomes}["well"] is tree
    assert situations(tree, lambda s: s == "win") == [("win", F(2, 3))]


@pytest.mark.parametrize(
    "book",
    [
        {"a": [("go on", [("b", 1)])], "b": [("go back", [("a", 1)])]},
        {"a": [("wait", [("a", 1)])]},
        {
            "start": [("win", [("end", 1)]), ("enter the maze", [("a", 1)])],
            "a": [("left", [("b", 1)]), ("right", [("b", "1/2"), ("a", "1/2")])],
            "b": [("on", [("a", 1)])],
        },
    ],
)
def test_loop_that_never_ends_is_rejected(book):
    start = "start" if "start" in book else "a"
    with pytest.raises(ModelError, match="never reaches a known state.*'a'"):
        solve_choices(book.__getitem__, {"end": 1}.get, start)


# ======================================================================================
# Probabilities and bad input
# ======================================================================================


def one_choice(outcomes):
    return lambda s: [("open the chest", outcomes)]


SCORES = {"gold": 1, "snake": 0, "dust": F(1, 2)}.get


@pytest.mark.parametrize(
    "probs",
    [("1/3", "1/3", "1/3"), ("0.333", "0.333", "0.334"), (F(1, 2), F(1, 4), "1/4"), (1, 0, 0)],
)
def test_probabilities_summing_to_one_exactly_are_accepted(probs):
    outcomes = list(zip(["gold", "snake", "dust"], probs))
    tree = solve_choices(one_choice(outcomes), SCORES, "chest")
    assert tree.score == sum((F(p) * F(SCORES(s)) for s, p in outcomes), F(0))


def test_probabilities_not_summing_to_one_are_rejected_exactly():
    # 1/3 + 1/3 + 3333/10000 = (20000 + 9999)/30000
    bad = one_choice([("gold", "1/3"), ("snake", "1/3"), ("dust", "0.3333")])
    with pytest.raises(DistributionError, match=r"'open the chest' of state 'chest'.*29999/30000"):
        solve_choices(bad, SCORES, "chest")
    with pytest.raises(DistributionError, match="'open the chest' of state 'chest'.*negative"):
        solve_choices(one_choice([("gold", "3/2"), ("snake", "-1/2")]), SCORES, "chest")
    with pytest.raises(InexactError, match="'open the chest' of state 'chest'.*float 0.1"):
        solve_choices(one_choice([("gold", 0.1), ("snake", 0.9)]), SCORES, "chest")


def test_equal_outcomes_are_regrouped_and_dists_accepted():
    tree = solve_choices(
        one_choice([("gold", "1/4"), ("snake", "1/2"), ("gold", "1/4")]), SCORES, "x"
    )
    assert sorted((c.state, p) for c, p in tree.outcomes) == [("gold", F(1, 2)), ("snake", F(1, 2))]
    assert tree.score == F(1, 2)
    assert solve_choices(one_choice(Dist({"gold": "1/4", "dust": "3/4"})), SCORES, "x").score == F(
        5, 8
    )


def test_bad_books_are_rejected_with_the_state_named():
    with pytest.raises(ModelError, match=r"choices\('x'\) is empty"):
        solve_choices(lambda s: [], SCORES, "x")
    with pytest.raises(ModelError, match=r"choices\('x'\) lists 'oops'"):
        solve_choices(lambda s: ["oops"], SCORES, "x")
    with pytest.raises(ModelError, match=r"'open the chest' of state 'x'.*pairs"):
        solve_choices(one_choice([("gold",)]), SCORES, "x")
    with pytest.raises(ModelError, match=r"score\('gold'\) is not an exact rational"):
        solve_choices(one_choice([("gold", 1)]), {"gold": 0.1}.get, "x")
    p = sympy.Symbol("p")
    with pytest.raises(ModelError, match=r"score\('gold'\) must be a rational"):
        solve_choices(one_choice([("gold", 1)]), {"gold": p}.get, "x")
    with pytest.raises(ModelError, match="'open the chest' of state 'x'.*not symbols"):
        solve_choices(one_choice(Dist({"gold": p, "snake": 1 - p})), SCORES, "x")
    with pytest.raises(StateLimitError):
        solve_choices(
            lambda s: [("on", [(s + 1, 1)])], lambda s: 1 if s == 100 else None, 0, max_states=10
        )


def test_progress_shows_the_engine_bars_on_stderr(capsys):
    tree = solve_choices(lambda s: [("step", [(s + 1, 1)])], lambda s: 1 if s == 50 else None, 0,
                 progress=True)  # fmt: skip
    assert tree.score == 1
    assert "solving" in capsys.readouterr().err
