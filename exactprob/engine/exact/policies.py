"""A fixed policy's exact values (:func:`evaluate`): the model explored under the policy's
one action per state, then solved like any chain."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

from ...errors import ModelError, UsageError
from ...util.deprecation import NOT_GIVEN, warn_deprecated
from ...util.limits import DEFAULT_MAX_STATES
from ...util.progress import shows_progress
from ..array_model import Explorable, one_state_at_a_time
from ..dist import Dist
from ..graph.exploring import check_model, explore, start_states
from ..model import seats_refused
from .solution import Solution
from .solving import solve_graph

__all__ = ["Policy", "evaluate", "fixed_policy", "starts_given"]


Policy = Callable[[Any], Any] | Mapping[Any, Any]


def evaluate(
    model: Explorable,
    policy: Policy,
    *,
    starts: Sequence[Hashable] | None = None,
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool | None = None,
    start: Any = NOT_GIVEN,
) -> Solution:
    """The generic engine's exact values of a fixed ``policy``, with the parameters of
    :func:`exactprob.evaluate` (which answers with this where no game registered a faster
    evaluation): the model explored under the policy's one action per state, only where
    the policy leads (so a policy need only be defined there), and solved as an absorbing
    chain; the answer is the engine's :class:`~.solution.Solution`.

    >>> from exactprob.games.gamblers_ruin import GamblersRuin
    >>> ruin = GamblersRuin(goal=5, start=2, p="2/5")  # (r^2 - 1)/(r^5 - 1), r = 3/2
    >>> evaluate(ruin, lambda fortune: "bet").value()
    Fraction(40, 211)
    """
    starts = starts_given(starts, start)
    if starts is not None:
        starts = start_states(model, starts)  # refuses an empty or unhashable one
    progress = shows_progress(progress)
    restricted = fixed_policy(model, policy, starts[0] if starts else None)
    graph = explore(restricted, max_states=max_states, progress=progress, starts=starts)
    if graph.seats:
        raise seats_refused("exactprob.evaluate")
    return solve_graph(graph, progress=progress)


def starts_given(starts: Sequence[Hashable] | None, start: Any) -> Sequence[Hashable] | None:
    """``starts``, or ``[start]`` from the ``start=`` of ``evaluate`` deprecated in 0.2.0
    (warning at the line that called ``evaluate``).

    >>> starts_given([1, 2], NOT_GIVEN)
    [1, 2]
    """
    if start is NOT_GIVEN:
        return starts
    warn_deprecated("evaluate(model, policy, start=s)", "starts=[s]", "0.2.0", stacklevel=4)
    if starts is not None:
        raise UsageError("evaluate takes starts=[...] or the deprecated start=, not both")
    return None if start is None else [start]


def fixed_policy(model: Explorable, policy: Policy, start: Any = None) -> Any:
    """``model`` with only ``policy``'s action in each state (a Markov chain), from
    ``start`` (the model's initial state by default); a policy is a function of the
    state or a mapping, and a ModelError names a state it gives no allowed action."""
    if not (isinstance(policy, Mapping) or callable(policy)):
        raise ModelError(
            f"a policy is a function of the state or a mapping from states to actions, not "
            f"{type(policy).__name__}"
        )
    chooser = policy.__getitem__ if isinstance(policy, Mapping) else policy
    model = one_state_at_a_time(model)
    check_model(model, needs_initial=start is None)
    return _FixedPolicy(model, chooser, model.initial if start is None else start)


class _FixedPolicy:
    """A model whose every state offers only the action the policy picks."""

    def __init__(self, model: Any, chooser: Callable[[Any], Any], initial: Hashable) -> None:
        self.model = model
        self.chooser = chooser
        self.initial = initial

    def outcome(self, state: Any) -> Any:
        return self.model.outcome(state)

    def actions(self, state: Any) -> tuple[Any, ...]:
        try:
            action = self.chooser(state)
        except (KeyError, IndexError):
            raise ModelError(f"the policy gives no action for state {state!r}") from None
        allowed = tuple(self.model.actions(state))
        if action not in allowed:
            raise ModelError(
                f"the policy picks {action!r} in state {state!r}; allowed: {list(allowed)}"
            )
        return (action,)

    def transition(self, state: Any, action: Any) -> Dist[Any]:
        dist: Dist[Any] = self.model.transition(state, action)
        return dist

    def player(self, state: Any) -> int:
        player = getattr(self.model, "player", None)
        return 0 if player is None else player(state)

    def __getattr__(self, name: str) -> Any:
        """The model's ``reward``, where it has one (the only other part read)."""
        if name == "reward":
            return getattr(self.model, name)
        raise AttributeError(name)
