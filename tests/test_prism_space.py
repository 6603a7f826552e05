"""The PRISM state space's graph facts and the questions' graphs, on random programs.

The facts (which states reach a target with probability 0 or 1, under some or every
choice) are checked against the fixed points as Baier and Katoen define them, each
written here over plain sets, one round at a time; the graph a question is solved on,
read off the space's columns, is checked against the engine's own exploration of the
question model, column by column.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from prism_programs import ONE_PARAMETRIC_MOVE, programs

from exactprob import explore, prism
from exactprob.prism.check import probability_question, reward_question
from exactprob.prism.questions import QuestionModel, question_graph
from exactprob.prism.space import StateSpace

RANDOM = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def successor_sets(space: StateSpace) -> list[list[set[int]]]:
    """Each state's choices, as the sets of states they may move to."""
    return [[{t for t, _ in dist} for _, dist in moves] for moves in space.moves]


def least(start: set[int], grow: Any) -> set[int]:
    """The least fixed point above ``start`` of ``X -> X | grow(X)``."""
    found = set(start)
    while True:
        more = grow(found) - found
        if not more:
            return found
        found |= more


def facts_by_definition(
    space: StateSpace, target: set[int], through: set[int]
) -> dict[str, set[int]]:
    """The four sets, each a fixed point computed over sets, round by round."""
    moves = successor_sets(space)
    every = set(range(len(space)))
    reach_some = least(target, lambda X: {s for s in through if any(c & X for c in moves[s])})
    forced = least(target, lambda X: {s for s in through if all(c & X for c in moves[s])})
    avoid_some = every - forced
    risky = least(
        avoid_some, lambda X: {s for s in through - target if any(c & X for c in moves[s])}
    )
    keep = every
    while True:  # the greatest set from which some choice stays in it and nears the target
        inside = keep
        near = least(
            target & inside,
            lambda X, inside=inside: {
                s for s in through & inside if any(c <= inside and c & X for c in moves[s])
            },
        )
        if near == keep:
            break
        keep = near
    return {
        "reach_some": reach_some,
        "avoid_some": avoid_some,
        "sure_every": every - risky,
        "sure_some": keep,
    }


@RANDOM
@given(programs())
def test_the_graph_facts_are_the_fixed_points_of_their_definitions(case: Any) -> None:
    _, text, _ = case
    model = prism.loads(text)
    space = model.space
    target = space.holds(model.program.compile(model.program.label_exprs["target"], "").function)
    left = space.holds(model.program.compile(model.program.label_exprs["left"], "").function)
    for through in (None, left):
        expected = facts_by_definition(
            space, target, set(range(len(space))) if through is None else through
        )
        for name, states in expected.items():
            assert getattr(space, name)(target, through) == states, (text, name, through)


def same_graph(G: Any, H: Any) -> None:
    """Two state graphs with the same states, moves, numbers and rewards, column by column."""
    assert list(G.states) == list(H.states)
    assert G.outcomes == H.outcomes and G.players == H.players and G.actions == H.actions
    assert list(G.choice_start) == list(H.choice_start) and list(G.edge_start) == list(H.edge_start)
    assert list(G.targets) == list(H.targets)
    assert G.probabilities == H.probabilities  # the distinct ones, in the order first met
    assert list(G.prob_ids) == list(H.prob_ids)
    assert G.rewards == H.rewards and G.symbolic == H.symbolic


@RANDOM
@given(programs())
def test_a_questions_graph_is_the_engines_exploration_of_its_model(case: Any) -> None:
    _, text, properties = case
    model = prism.loads(text)
    space = model.space
    for prop in properties:
        expr = model.properties(prop)[0].expr
        if prop.startswith("S") or prop.endswith("[S]"):
            continue  # the long run is solved on the model itself, not a question's graph
        if prop.startswith("P"):
            question: QuestionModel = probability_question(space, expr)[0]
        else:
            question, sure = reward_question(space, expr)
        starts = [i for i in range(len(space)) if i not in question.terminal]
        if prop.startswith("R"):
            starts = [i for i in starts if i in sure]
        if not starts:
            continue
        explored = explore(question, starts=[space.states[i] for i in starts])
        same_graph(question_graph(question, starts), explored)


def test_a_questions_graph_keeps_only_the_probabilities_it_meets() -> None:
    # x=1's move reads the parameter; the graph from x=0 to the target x=1 stops there
    model = prism.loads(ONE_PARAMETRIC_MOVE, parameters=["p"])
    expr = model.properties("P=? [F x=1]")[0].expr
    question = probability_question(model.space, expr)[0]
    graph = question_graph(question, [0])
    same_graph(graph, explore(question, starts=[model.space.states[0]]))
    assert not graph.symbolic
