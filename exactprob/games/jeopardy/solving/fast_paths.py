r"""The race's own solvers as the engine's methods for its models (:mod:`exactprob.engine.methods`).

``ep.solve(JeopardyModel(game))`` (or of :class:`~.fowl_arrays.FowlPlayArrays`) takes the
component solver :func:`~.solver.solve_race`; ``method="certified"`` on Fowl Play the
interval sweep :func:`~.certified.enclose_race` (Pig's certified solve is left to the
engine). Both solve the whole game, every komi at once, and answer for the model's states:
the model's state :math:`(s_0, s_1, k, d, m)` is the mover's state
:math:`(s_m, s_{1-m}, k, d)` of the race, and player 0's value is the mover's chance,
:math:`P`, when player 0 moves, and :math:`1 - P` when player 1 does.

>>> import exactprob as ep
>>> from exactprob.games.jeopardy.rules import JeopardyModel, Pig
>>> solved = ep.solve(JeopardyModel(Pig(goal=10)))
>>> solved.solver, solved.value()
('jeopardy components', Fraction(7776, 10961))
>>> ep.solve(JeopardyModel(Pig(goal=10)), generic=True).value()  # the generic engine
Fraction(7776, 10961)
>>> solved.ties((0, 0, 4, 0, 1))  # player 1, 4 in hand: roll on
('roll',)
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np

from ....engine import Enclosure, ExactFastPath, FastPathResult, Solved, register
from ....util.limits import refuse_more_than
from ..fairness import SolvedRace
from ..fowl_arrays import FowlPlayArrays
from ..policies import PolicyTable, deck_cards
from ..rules import FowlPlay, Jeopardy, JeopardyModel
from .certified import CertifiedRace, enclose_race
from .solver import JeopardySolution, solve_race

__all__ = ["CertifiedRaceSolution", "RaceSolution", "solved_race"]

RaceModel = JeopardyModel | FowlPlayArrays


class MoverState(NamedTuple):
    """A model's state as the mover sees it: own and other score, turn total, deck."""

    own: int
    other: int
    turn_total: int
    deck: Hashable
    mover: int


def _mover_state(game: Jeopardy, model: RaceModel, state: Any) -> MoverState | None:
    """The mover's view of ``state`` (the initial state when ``None``), or ``None`` when the
    race is over. :class:`~.fowl_arrays.FowlPlayArrays` spells the deck ``w, c`` inline."""
    state = model.initial if state is None else tuple(state)
    if isinstance(model, FowlPlayArrays):
        s0, s1, k, w, c, mover = state
        deck: Hashable = (w, c)
    else:
        s0, s1, k, deck, mover = state
    if s0 >= game.goal or s1 >= game.goal:
        return None
    own, other = (s0, s1) if mover == 0 else (s1, s0)
    return MoverState(own, other, k, deck, mover)


def _table_index(view: MoverState) -> tuple[int, ...]:
    """Where ``view`` sits in a policy table or its bounds: ``(a, b, k, w, c)``."""
    return (view.own, view.other, view.turn_total, *deck_cards(view.deck))


def _ended_value(game: Jeopardy, model: RaceModel, state: Any) -> Fraction:
    """Player 0's outcome in a finished race: 1 when player 0 reached the goal."""
    state = model.initial if state is None else state
    return Fraction(int(state[0] >= game.goal))


class RaceSolution(ExactFastPath):
    """An exact race (:class:`~.solver.JeopardySolution`, in ``race``) answering for the
    states of the model it solved; :meth:`first_player_win` asks the race at any komi."""

    __slots__ = ("game", "race")
    name = "jeopardy components"

    def __init__(self, model: RaceModel, race: JeopardySolution, max_states: int) -> None:
        super().__init__(model, max_states)
        self.game, self.race = model.game, race

    def value(self, state: Any = None) -> Fraction:
        """Player 0's exact chance to win from ``state``."""
        view = _mover_state(self.game, self.model, state)
        if view is None:
            return _ended_value(self.game, self.model, state)
        race, own, other, deck = self.race, view.own, view.other, view.deck
        if view.turn_total == 0:  # a turn start: solved already, no component to replay
            chance = race.start_value(own, other, deck)
        else:
            chance = race.value(own, other, view.turn_total, deck)
        return chance if view.mover == 0 else 1 - chance

    def ties(self, state: Any = None) -> tuple[str, ...]:
        """The optimal actions of ``state``: both on an exact tie, draw first."""
        view = _mover_state(self.game, self.model, state)
        if view is None:
            return ()
        return self.race.actions(view.own, view.other, view.turn_total, view.deck)

    def first_player_win(self, komi: int = 0) -> Fraction:
        """The first player's chance when the second starts with ``komi`` points."""
        return self.race.first_player_win(komi)

    def policy_table(self) -> PolicyTable:
        """Where the optimal mover holds (:meth:`~.solver.JeopardySolution.policy_table`)."""
        return self.race.policy_table()

    def _repr_html_(self) -> str:
        return SolvedRace._repr_html_(self.race)


class CertifiedRaceSolution(FastPathResult):
    """A certified Fowl Play race (:class:`~.certified.CertifiedRace`, in ``race``)
    answering for the model's states: enclosures of player 0's chance, the certified
    action, and both actions where the enclosures cannot separate them."""

    __slots__ = ("_bounds", "game", "race")
    name = "jeopardy interval sweep"

    def __init__(self, model: RaceModel, race: CertifiedRace, max_states: int) -> None:
        super().__init__(model, max_states)
        self.game, self.race = model.game, race
        self._bounds: tuple[PolicyTable, np.ndarray, np.ndarray] | None = None

    def _table(self) -> tuple[PolicyTable, np.ndarray, np.ndarray]:
        """Every state's choice and bounds (:meth:`~.certified.CertifiedRace.state_bounds`),
        computed on first use."""
        if self._bounds is None:
            self._bounds = self.race.state_bounds()
        return self._bounds

    def value(self, state: Any = None) -> Enclosure:
        """An enclosure of player 0's chance to win from ``state``."""
        view = _mover_state(self.game, self.model, state)
        if view is None:
            win = _ended_value(self.game, self.model, state)
            return Enclosure(win, win)
        if view.own + view.turn_total >= self.game.goal:  # the mover holds and wins
            box = Enclosure(1, 1)
        elif view.turn_total == 0:  # a turn start: the sweep's own enclosure
            box = self.race.start_value(view.own, view.other, deck_cards(view.deck))
        else:
            _, low, high = self._table()
            where = _table_index(view)
            box = Enclosure(float(low[where]), float(high[where]))
        return box if view.mover == 0 else Enclosure(1 - box.high, 1 - box.low)

    def ties(self, state: Any = None) -> tuple[str, ...]:
        """The certified action alone, or draw and hold when the enclosures leave the
        choice undecided."""
        view = _mover_state(self.game, self.model, state)
        if view is None:
            return ()
        draw = self.game.draw_word
        if view.turn_total == 0:
            return (draw,)
        if view.own + view.turn_total >= self.game.goal:
            return ("hold",)
        table, _, _ = self._table()
        where = _table_index(view)
        if table.undecided is not None and table.undecided[where]:
            return (draw, "hold")
        return ("hold",) if table.holds[where] else (draw,)

    def policy(self, state: Any = None) -> str | None:
        """The certified action, or where undecided the one the midpoints favour."""
        view = _mover_state(self.game, self.model, state)
        if view is None:
            return None
        tied = self.ties(state)
        if len(tied) == 1:
            return tied[0]
        table, _, _ = self._table()
        where = _table_index(view)
        return "hold" if table.holds[where] else self.game.draw_word

    def first_player_win(self, komi: int = 0) -> Enclosure:
        """An enclosure of the first player's chance at ``komi``."""
        return self.race.first_player_win(komi)

    def policy_table(self) -> PolicyTable:
        """The optimal mover's certified choices
        (:meth:`~.certified.CertifiedRace.policy_table`)."""
        return self.race.policy_table()

    def _repr_html_(self) -> str:
        return SolvedRace._repr_html_(self.race)


def solved_race(solved: Solved) -> JeopardySolution | CertifiedRace:
    """The race a solution of a race model holds (what :func:`exactprob.solve` answered
    through this module's fast paths)."""
    if not isinstance(solved, RaceSolution | CertifiedRaceSolution):
        raise TypeError(f"not a solved race: {type(solved).__name__}")
    return solved.race


def _check_size(model: RaceModel, max_states: int) -> None:
    game = model.game
    refuse_more_than(
        max_states,
        game.nonterminal_states(),
        f"{game.name} to {game.goal} (its non-terminal states, every komi)",
    )


@register(JeopardyModel)
@register(FowlPlayArrays)
def _exact(model: RaceModel, *, max_states: int, progress: bool) -> RaceSolution:
    """The component solver (:func:`~.solver.solve_race`) for the whole race."""
    _check_size(model, max_states)
    return RaceSolution(model, solve_race(model.game, progress=progress), max_states)


@register(JeopardyModel, "certified")
@register(FowlPlayArrays, "certified")
def _certified(
    model: RaceModel, *, max_states: int, progress: bool
) -> CertifiedRaceSolution | None:
    """The interval sweep (:func:`~.certified.enclose_race`) for Fowl Play; Pig is left to
    the engine."""
    if not isinstance(model.game, FowlPlay):
        return None
    _check_size(model, max_states)
    return CertifiedRaceSolution(model, enclose_race(model.game, progress=progress), max_states)
