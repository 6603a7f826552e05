"""The front door: one ``solve`` for every model and method, and every registered fast path
answering exactly what the generic engine answers, on random instances of its class."""

from __future__ import annotations

import pickle
import sys
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import exactprob as ep
from exactprob.cli import main
from exactprob.engine import methods
from exactprob.engine.certified.solving import CertifiedSolution
from exactprob.engine.exact.depth_first import DepthFirstSolution
from exactprob.engine.exact.solution import Solution
from exactprob.errors import StateLimitError, UsageError
from exactprob.games.fighting_fantasy import RULES, Fight, FightModel
from exactprob.games.gamblers_ruin import GamblersRuin
from exactprob.games.jeopardy import FowlPlay, FowlPlayArrays, JeopardyModel, Pig
from exactprob.games.jeopardy.players.best_response import _AgainstFixed


@st.composite
def pig_models(draw: st.DrawFn) -> JeopardyModel:
    game = Pig(goal=draw(st.integers(1, 7)), sides=draw(st.integers(2, 6)))
    return JeopardyModel(game, draw(st.integers(0, game.goal - 1)))


@st.composite
def fowl_games(draw: st.DrawFn) -> FowlPlay:
    return FowlPlay(draw(st.integers(1, 5)), draw(st.integers(1, 3)), draw(st.integers(1, 5)))


@st.composite
def fowl_models(draw: st.DrawFn) -> Any:
    game = draw(fowl_games())
    model_class = draw(st.sampled_from([JeopardyModel, FowlPlayArrays]))
    return model_class(game, draw(st.integers(0, game.goal - 1)))


@st.composite
def fight_models(draw: st.DrawFn) -> FightModel:
    return FightModel(
        Fight(
            draw(st.integers(-4, 4)),
            draw(st.integers(1, 6)),
            draw(st.integers(1, 6)),
            draw(st.integers(0, 4)),
            rule=draw(st.sampled_from(sorted(RULES))),
        )
    )


#: A strategy of random instances for every (class, method) a game registers: a new fast
#: path without one here fails :func:`test_every_registered_fast_path_is_checked_here`.
INSTANCES: dict[tuple[type, str], st.SearchStrategy[Any]] = {
    (JeopardyModel, "exact"): st.one_of(pig_models(), fowl_models()),
    (FowlPlayArrays, "exact"): fowl_games().map(FowlPlayArrays),
    (JeopardyModel, "certified"): fowl_games().map(JeopardyModel),
    (FowlPlayArrays, "certified"): fowl_games().map(FowlPlayArrays),
    (FightModel, "exact"): fight_models(),
}


def test_every_registered_fast_path_is_checked_here() -> None:
    ep.solve(GamblersRuin(goal=2, start=1, p="1/2"))  # the generic engine registers on use
    registered = set(methods._REGISTRY)
    assert registered == set(INSTANCES)


def check_exact_fast_path(model: Any) -> None:
    """Value, ties and policy of every reachable state equal the generic engine's (the
    policy may break an exact tie differently: it must be one of the ties); the laws of
    play under the fast path's policy average to its value."""
    fast, generic = ep.solve(model), ep.solve(model, generic=True)
    assert (fast.method, generic.method) == ("exact", "exact")
    assert fast.solver != "generic" and generic.solver == "generic"
    assert isinstance(fast, ep.SolvedLaws)
    assert list(fast.states) == list(generic.states)
    for state in generic.states:
        assert fast.value(state) == generic.value(state), state
        assert fast.ties(state) == generic.ties(state), state
        assert (fast.policy(state) is None) == (generic.policy(state) is None)
        if fast.ties(state):
            assert fast.policy(state) in fast.ties(state)
        assert fast.action_values(state) == generic.action_values(state), state
    for state in list(generic.states)[:3]:
        outcomes = fast.outcome_distribution(state)
        assert sum(outcomes.values()) == 1
        assert outcomes.mean() == fast.value(state)
    assert fast.to_json()["value"] == generic.to_json()["value"]


def check_certified_fast_path(model: Any) -> None:
    """Every enclosure holds the generic engine's exact value; every exactly tied action
    is left undecided; a decided action is the exact optimum."""
    boxed, exact = ep.solve(model, method="certified"), ep.solve(model, generic=True)
    assert boxed.method == "certified" and boxed.solver != "generic"
    for state in exact.states:
        assert boxed.value(state).contains(exact.value(state)), state
        boxes, values = boxed.action_values(state), exact.action_values(state)
        assert list(boxes) == list(values), state
        assert all(boxes[a].contains(values[a]) for a in values), state
        tied, candidates = exact.ties(state), boxed.ties(state)
        assert set(tied) <= set(candidates), state
        assert boxed.policy(state) in candidates if candidates else boxed.policy(state) is None
        if len(candidates) == 1:
            assert candidates == tied


@pytest.mark.parametrize("key", sorted(INSTANCES, key=lambda k: (k[0].__name__, k[1])))
def test_every_fast_path_answers_as_the_generic_engine(key: tuple[type, str]) -> None:
    check = check_exact_fast_path if key[1] == "exact" else check_certified_fast_path

    @settings(max_examples=25, deadline=None)
    @given(INSTANCES[key])
    def random_instances(model: Any) -> None:
        assert methods.fast_path(model, key[1]) is not None
        check(model)

    random_instances()


def luck_policies(model: FightModel) -> st.SearchStrategy[Any]:
    """A random fixed policy of a fight: after each won or lost round with luck left, test
    luck or not, as a table drawn over the grid's phase states (the rounds only roll)."""
    fight = model.fight
    phases = [
        (phase, h, o, luck, streak)
        for phase in ("won", "lost")
        for h in range(1, fight.hero_stamina + 1)
        for o in range(1, fight.opponent_stamina + 1)
        for luck in range(1, fight.luck + 1)
        for streak in (False, True)
    ]
    tables = st.lists(st.booleans(), min_size=len(phases), max_size=len(phases))

    def policy_of(tests: list[bool]) -> Any:
        table = dict(zip(phases, tests, strict=True))
        return lambda state: (
            "roll" if state[0] == "round" else ("luck" if table.get(state, False) else "no luck")
        )

    return tables.map(policy_of)


#: Random instances and random fixed policies for every class with a registered evaluation.
EVALUATED: dict[type, st.SearchStrategy[Any]] = {
    FightModel: fight_models().flatmap(lambda m: st.tuples(st.just(m), luck_policies(m))),
}


def test_every_registered_evaluation_is_checked_here() -> None:
    assert set(methods._EVALUATORS) == set(EVALUATED)


@pytest.mark.parametrize("model_class", list(EVALUATED), ids=lambda c: c.__name__)
def test_every_registered_evaluation_answers_as_the_generic_engine(model_class: type) -> None:
    """A fixed policy through a game's registered evaluation: every reachable state's
    value, play, action values and laws equal the generic engine's evaluation."""

    @settings(max_examples=25, deadline=None)
    @given(EVALUATED[model_class])
    def random_policies(case: tuple[Any, Any]) -> None:
        model, policy = case
        fast = ep.evaluate(model, policy)
        generic = ep.evaluate(model, policy, generic=True)
        assert fast.solver != "generic" and generic.solver == "generic"
        assert list(fast.states) == list(generic.states)  # the states play reaches
        for state in generic.states:
            assert fast.value(state) == generic.value(state), state
            assert fast.ties(state) == generic.ties(state), state
            assert fast.policy(state) == generic.policy(state), state
            assert fast.action_values(state) == generic.action_values(state), state
        assert fast.absorption() == generic.absorption()

    random_policies()


def _never_luck(state: Any) -> str:
    """Never test luck (a function of the module, so that an answer under it pickles)."""
    return "roll" if state[0] == "round" else "no luck"


def test_a_fight_evaluated_on_the_grid_pickles_and_answers_alike() -> None:
    model = FightModel(Fight(1, 5, 4, 3, "crypt"))
    answer = pickle.loads(pickle.dumps(ep.evaluate(model, _never_luck)))
    assert answer.solver == "fighting fantasy grid"
    assert answer.value() == ep.evaluate(model, _never_luck, generic=True).value()


def test_an_evaluation_leaves_to_the_engine_a_policy_it_cannot_ask_everywhere() -> None:
    """A table of the states the policy reaches (here the first won or lost round only)
    has no action elsewhere on the grid: the generic engine answers, which asks only the
    reached states; its refusals are the engine's own."""
    fight = FightModel(Fight(0, 2, 2, 1))  # after the first round: luck spent, or a death
    table = {("won", 2, 2, 1, False): "luck", ("lost", 2, 2, 1, False): "no luck"}

    def policy(state: Any) -> str:
        if state[0] == "round":
            return "roll"
        return "no luck" if state[3] == 0 else table[state]  # luck left: the table

    answer = ep.evaluate(fight, policy)
    assert answer.solver == "generic"
    assert answer.value() == ep.evaluate(fight, policy, generic=True).value()

    # a policy that fails where play never reaches, or a box over the limit: the engine's
    # own evaluation answers, which asks and counts only the states play reaches
    def strict(state: Any) -> str:
        if state[0] == "round":
            return "roll"
        return "no luck" if 1 // (state[1] - 1) else "luck"  # fails where the hero has 1

    never = FightModel(Fight(0, 10, 10, 10))
    assert ep.evaluate(FightModel(Fight(0, 2, 2, 1)), strict).solver == "generic"
    assert ep.evaluate(never, _never_luck, max_states=500).solver == "generic"
    # a policy that picks an action a reached state does not offer: the engine's refusal
    with pytest.raises(ep.ModelError, match=r"picks 'luck' in state \('round', 4, 4, 2"):
        ep.evaluate(FightModel(Fight(0, 4, 4, 2)), lambda state: "luck" if state[3] else "no luck")
    with pytest.raises(ep.ModelError, match="the policy picks 'luck' in state"):
        ep.evaluate(
            FightModel(Fight(0, 2, 2, 0)), lambda state: "roll" if state[0] == "round" else "luck"
        )


def test_a_fast_path_declines_what_it_does_not_cover() -> None:
    """Pig has no interval sweep, a fight with symbolic odds no grid: the engine answers."""
    pig = JeopardyModel(Pig(goal=4))
    assert isinstance(ep.solve(pig, method="certified"), CertifiedSolution)
    fight = FightModel(Fight(3, 3, 3, 1))  # the hero is the better fighter: the grid says > 1/2
    fight.odds = type(fight.odds)(Fraction(1, 3), Fraction(1, 3), Fraction(1, 3))
    assert isinstance(ep.solve(fight), Solution)  # not the grid of the real odds
    assert (
        ep.solve(fight).value() == Fraction(1, 2) < ep.solve(FightModel(Fight(3, 3, 3, 1))).value()
    )


def test_a_subclass_is_not_taken_for_its_base() -> None:
    """A subclass may change the rules its base's fast path assumes (the best response
    fixes one player's choices): only its own class's registration applies."""
    assert methods.fast_path(_AgainstFixed.__new__(_AgainstFixed)) is None
    assert methods.fast_path(JeopardyModel(Pig(goal=3))) is not None


@pytest.mark.parametrize(
    ("method", "kind"),
    [("exact", Solution), ("certified", CertifiedSolution), ("depth-first", DepthFirstSolution)],
)
def test_generic_methods_answer_the_protocol(method: Any, kind: type) -> None:
    ruin = GamblersRuin(goal=5, start=2, p="2/5")
    solved = ep.solve(ruin, method=method)
    assert isinstance(solved, kind) and isinstance(solved, ep.Solved)
    assert solved.method == method and solved.initial == 2 and len(solved.states) == 6
    assert solved.solver == "generic" and solved.to_json()["solver"] == "generic"
    assert solved.ties() == ("bet",) and solved.ties(0) == () and solved.policy(5) is None
    assert solved.to_json(3)["state"] == "3"
    assert "<table" in solved._repr_html_()
    assert isinstance(solved, ep.SolvedLaws) == (method != "certified")


def test_a_symbolic_answer_has_json_without_a_decimal() -> None:
    """Gambler's ruin from 1 to 3 with a symbolic p: the chance of reaching 3 is
    p^2 / (1 - p + p^2) (first-step analysis: V1 = p V2, V2 = p + (1 - p) V1)."""
    p = sympy.Symbol("p")
    answer = ep.solve(GamblersRuin(goal=3, start=1, p=p)).to_json()
    assert sympy.simplify(sympy.sympify(answer["value"]) - p**2 / (1 - p + p**2)) == 0
    assert "value_decimal" not in answer


@pytest.mark.parametrize(
    ("kwargs", "error", "fragment"),
    [
        ({"method": "fast"}, UsageError, "method must be one of 'exact', 'certified'"),
        ({"max_states": 0}, StateLimitError, "max_states must be a whole number >= 1"),
        ({"max_states": 5}, StateLimitError, "Pig to 10"),
    ],
)
def test_bad_requests_are_refused_in_one_line(kwargs: Any, error: type, fragment: str) -> None:
    with pytest.raises(error, match=fragment):
        ep.solve(JeopardyModel(Pig(goal=10)), **kwargs)


def calls_of(functions: Iterable[Callable[..., Any]], run: Callable[[], Any]) -> list[Any]:
    """The model of every call of any of ``functions`` while ``run`` runs."""
    codes, seen = {function.__code__ for function in functions}, []

    def watch(frame: Any, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code in codes:
            seen.append(frame.f_locals["model"])

    sys.setprofile(watch)
    try:
        run()
    finally:
        sys.setprofile(None)
    return seen


@pytest.mark.parametrize(
    ("argv", "model_class"),
    [
        (["pig", "--goal", "8"], JeopardyModel),
        (["fowl-play", "--chickens", "4", "--wolves", "2", "--goal", "5"], JeopardyModel),
        (["ff", "--hero", "10", "8", "3", "--opponent", "9", "7"], FightModel),
        (
            ["ff", "--hero", "10", "8", "3", "--opponent", "9", "7", "--policy", "heuristic:1:2"],
            FightModel,
        ),
        (["risk", "--attacker", "3", "--defender", "2"], object),
    ],
)
def test_the_commands_ask_the_front_door(
    argv: list[str], model_class: type, capsys: pytest.CaptureFixture[str]
) -> None:
    models = calls_of((methods.solve, methods.evaluate), lambda: main(argv))
    capsys.readouterr()
    assert models and all(isinstance(model, model_class) for model in models)


def test_solve_shows_a_bar_by_default_only_on_a_terminal(monkeypatch, capsys):
    from exactprob.games.gamblers_ruin import GamblersRuin
    from exactprob.util import progress

    ruin = GamblersRuin(goal=5, start=2, p="2/5")
    ep.solve(ruin)
    assert capsys.readouterr().err == ""  # stderr here is no terminal
    monkeypatch.setattr(progress, "on_terminal", lambda: True)
    ep.solve(ruin)
    assert "states" in capsys.readouterr().err
    ep.solve(ruin, progress=False)
    assert capsys.readouterr().err == ""


def test_no_stderr_or_a_closed_one_is_no_terminal(monkeypatch):
    import io
    import sys

    from exactprob.util.progress import on_terminal

    monkeypatch.setattr(sys, "stderr", None)
    assert on_terminal() is False
    closed = io.StringIO()
    closed.close()
    monkeypatch.setattr(sys, "stderr", closed)
    assert on_terminal() is False
