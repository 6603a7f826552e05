r"""Learned approximate players: a small network or a decision tree fitted to an optimal table.

Neller, Malec, Presser and Jacobs ("Optimal, Approximately Optimal, and Fair Play of the
Fowl Play Card Game", ICGA 2013) approximated optimal Fowl Play with a network of 13 hidden
units (118 weights) whose inputs are the scores :math:`i, j`, the turn total :math:`k`, the
wolves and chickens left, :math:`w_\text{rem}` and :math:`c_\text{rem}`, the chance that the
next card is a chicken and the expected loss of a draw. Here the same inputs, divided by
constants of the game (goal :math:`g`, wolves :math:`W`, chickens :math:`C`; constants are not
parameters), are

.. math::

    x = \Bigl(\frac{i}{g}, \frac{j}{g}, \frac{k}{g}, \frac{w_\text{rem}}{W},
        \frac{c_\text{rem}}{C}, \frac{c_\text{rem}}{w_\text{rem} + c_\text{rem}},
        \frac{k\, w_\text{rem}}{g\,(w_\text{rem} + c_\text{rem})}\Bigr),

and in Pig just :math:`(i/g, j/g, k/g)`. Two learners read them:

* :func:`fit_network`: one hidden layer of :math:`h` tanh units; the player holds iff
  :math:`v \cdot \tanh(A x + a_0) + v_0 > 0` (the logistic output is above 1/2). Its
  parameters are :math:`h (d + 1) + h + 1` for :math:`d` inputs: 118 for Fowl Play with
  :math:`h = 13`, as in the paper.
* :func:`fit_tree`: a decision tree with at most ``leaves`` leaves. Written down in preorder,
  each internal node is a feature index and a threshold (2 parameters) and each leaf an
  action (1), so :math:`L` leaves cost :math:`2(L - 1) + L = 3L - 2` parameters: 40 leaves
  cost 118, the network's count.

The training set is the optimal table at its *choice states*
(:func:`~exactprob.games.jeopardy.policies.choice_states`: turn total :math:`k \ge 1`, :math:`i + k < g`, and in Fowl
Play :math:`k \le` the chickens dealt), each weighted alike, subsampled without replacement
to ``samples`` states with ``numpy.random.default_rng(seed)``. The learned player is its
vectorised rule; its table (:func:`~exactprob.games.jeopardy.policies.policy_table`, forced moves applied) and its
exact :func:`~exactprob.games.jeopardy.policies.agreement` with the optimal table come with it, all fixed by the seed.

Fowl Play to 8 with 8 chickens and 2 wolves: every choice state has distinct inputs, so a
tree allowed a leaf per state copies the optimal table exactly:

>>> from exactprob.games.jeopardy.policies import optimal_policy_table
>>> from exactprob.games.jeopardy.rules import FowlPlay
>>> from exactprob.games.jeopardy.solving.solver import solve_race
>>> game = FowlPlay(chickens=8, wolves=2, goal=8)
>>> optimal = optimal_policy_table(solve_race(game))
>>> from exactprob.games.jeopardy.policies import choice_states
>>> fit_tree(game, optimal, leaves=int(choice_states(game).sum())).agreement
Fraction(1, 1)
>>> fit_network(game, optimal, hidden=13).parameters  # 7 * 13 + 13 + 13 + 1
118
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ....errors import ModelError
from ....util.extras import import_extra
from ....util.numbers import whole_number
from ..policies import (
    Holds,
    PolicyTable,
    agreement,
    check_table,
    choice_states,
    policy_table,
    table_shape,
)
from ..rules import Jeopardy, Pig

__all__ = [
    "LearnedPlayer",
    "features",
    "fit_network",
    "fit_tree",
]

SAMPLES = 50_000
"""Default training-set size: a network fits in about 15 s (on one core, as every fit)."""

ITERATIONS = 1000
"""L-BFGS iterations of the network fit (a fixed budget: its stopping rule)."""


@dataclass(frozen=True)
class LearnedPlayer:
    """A player learned from an optimal table.

    ``holds`` is the model's vectorised rule (a :data:`~exactprob.games.jeopardy.policies.Holds`), ``table`` the same
    rule asked about every state, ``agreement`` the exact fraction of choice states where
    ``table`` matches the optimal table, ``parameters`` the numbers that define the model,
    ``training_states`` how many choice states it was fitted to, ``model`` the fitted
    scikit-learn estimator.
    """

    name: str
    parameters: int
    holds: Holds
    table: PolicyTable
    agreement: Fraction
    training_states: int
    model: Any


def features(
    game: Jeopardy, a: np.ndarray, b: np.ndarray, k: np.ndarray, w: np.ndarray, c: np.ndarray
) -> np.ndarray:
    """The scaled inputs of the states ``(a, b, k, w, c)`` (1-D arrays): one row each, 3
    columns for Pig and 7 for Fowl Play (see the module's formula).

    >>> from exactprob.games.jeopardy.rules import FowlPlay
    >>> game = FowlPlay(chickens=3, wolves=1, goal=4)
    >>> features(game, *np.array([[1], [2], [2], [0], [2]])).tolist()  # 1 wolf, 1 chicken left
    [[0.25, 0.5, 0.5, 1.0, 0.3333333333333333, 0.5, 0.25]]
    """
    goal = game.goal
    columns = [a / goal, b / goal, k / goal]
    if not isinstance(game, Pig):
        wolves_left, chickens_left = game.wolves - w, game.chickens - c
        left = wolves_left + chickens_left
        columns += [
            wolves_left / game.wolves,
            chickens_left / game.chickens,
            chickens_left / left,
            k * wolves_left / (goal * left),
        ]
    return np.column_stack(columns).astype(np.float64)


def fit_network(
    game: Jeopardy,
    optimal: PolicyTable,
    hidden: int = 13,
    seed: int = 0,
    samples: int = SAMPLES,
    iterations: int = ITERATIONS,
) -> LearnedPlayer:
    """A one-hidden-layer network of ``hidden`` tanh units fitted by L-BFGS (at most
    ``iterations`` steps, initial weights from ``seed``) to ``samples`` choice states of
    ``optimal``; :math:`h (d + 1) + h + 1` parameters for :math:`h` units and :math:`d`
    inputs."""
    whole_number("hidden", hidden, 1)
    whole_number("iterations", iterations, 1)
    network = _sklearn("neural_network").MLPClassifier(
        (hidden,), activation="tanh", solver="lbfgs", max_iter=iterations, random_state=seed
    )
    trained_on = _fit(game, optimal, network, seed, samples)
    parameters = sum(m.size for m in network.coefs_ + network.intercepts_)
    name = f"network ({hidden} hidden units)"
    return _player(game, optimal, name, parameters, network, trained_on)


def fit_tree(
    game: Jeopardy, optimal: PolicyTable, leaves: int = 40, seed: int = 0, samples: int = SAMPLES
) -> LearnedPlayer:
    """A decision tree of at most ``leaves`` leaves (best-first growth, ties broken by
    ``seed``) fitted to ``samples`` choice states of ``optimal``; ``3 L - 2`` parameters
    for the :math:`L` leaves it grows."""
    whole_number("leaves", leaves, 2)
    tree = _sklearn("tree").DecisionTreeClassifier(max_leaf_nodes=leaves, random_state=seed)
    trained_on = _fit(game, optimal, tree, seed, samples)
    grown = int(tree.get_n_leaves())
    return _player(game, optimal, f"tree ({grown} leaves)", 3 * grown - 2, tree, trained_on)


def _fit(game: Jeopardy, optimal: PolicyTable, model: Any, seed: int, samples: int) -> int:
    """Fit ``model`` to a seeded uniform sample of ``optimal``'s choice states; returns the
    sample's size."""
    whole_number("seed", seed, 0, 2**32 - 1)
    whole_number("samples", samples, 1)
    check_table(game, optimal, "optimal table")
    shape = table_shape(game)
    states = np.flatnonzero(choice_states(game))
    if states.size == 0:
        raise ModelError(f"goal must be at least 2 to leave a choice, got {game.goal}")
    if samples < states.size:
        rng = np.random.default_rng(seed)
        states = np.sort(rng.choice(states, size=samples, replace=False))
    a, b, k, w, c = np.unravel_index(states, shape)
    from threadpoolctl import threadpool_limits

    convergence = _sklearn("exceptions").ConvergenceWarning
    with warnings.catch_warnings(), threadpool_limits(1):  # one core: fast, and reproducible
        warnings.simplefilter("ignore", convergence)  # the iteration budget is the rule
        model.fit(features(game, a, b, k, w, c), optimal.holds[a, b, k, w, c])
    return int(states.size)


def _sklearn(module: str) -> Any:
    """``sklearn.<module>``, loaded on first use (half a second), from the extra ``learn``."""
    return import_extra(f"sklearn.{module}", "learn", "the learned players (network, tree)")


def _rule(game: Jeopardy, model: Any) -> Holds:
    """The fitted ``model`` as a vectorised player (any broadcastable arrays of states)."""

    def holds(
        a: np.ndarray, b: np.ndarray, k: np.ndarray, w: np.ndarray, c: np.ndarray
    ) -> np.ndarray:
        state = np.broadcast_arrays(a, b, k, w, c)
        if state[0].size == 0:  # scikit-learn refuses to predict nothing
            return np.zeros(state[0].shape, dtype=bool)
        rows = features(game, *(np.ravel(x) for x in state))
        return np.asarray(model.predict(rows), dtype=bool).reshape(state[0].shape)

    return holds


def _player(
    game: Jeopardy, optimal: PolicyTable, name: str, parameters: int, model: Any, trained_on: int
) -> LearnedPlayer:
    """The fitted ``model`` as a player, with its table and its agreement with ``optimal``."""
    holds = _rule(game, model)
    table = policy_table(game, holds)
    return LearnedPlayer(
        name=name,
        parameters=int(parameters),
        holds=holds,
        table=table,
        agreement=agreement(game, optimal, table),
        training_states=trained_on,
        model=model,
    )
