r"""The derivation of a long run, written out: the stationary law of each closed class
and the gain it gives, the bias equations of the states nearest the start, and each
decision of the best play with its exact margin (and the ties).

It reads the answer through :class:`~exactprob.engine.long_run.chain.LongRun`'s own
methods, and each action through the explored graph, so every printed number is one the
reader can check by hand: :math:`\pi_j = \sum_i \pi_i P(j \mid i)`,
:math:`g = \sum_s \pi_s r(s)`, :math:`g(s) + h(s) = r(s, a) + \sum_t P(t \mid s, a)\, h(t)`.

>>> import exactprob as ep
>>> class Machine:
...     initial = "worn"
...     def outcome(self, s): return None
...     def actions(self, s): return ("keep", "renew") if s == "worn" else ("run",)
...     def transition(self, s, a):
...         if a == "run": return ep.Dist({"new": "1/2", "worn": "1/2"})
...         return ep.Dist({"worn" if a == "keep" else "new": 1})
...     def reward(self, s, a): return {"keep": 1, "renew": -3, "run": 4}[a]
>>> print(ep.stationary(Machine()).derivation().markdown())  # doctest: +ELLIPSIS
# The best long run
...
g &= \frac{1}{3} \cdot \left(-3\right) + \frac{2}{3} \cdot 4 = \frac{5}{3}
...
In 'worn' the play is renew, better than keep by $\frac{2}{3}$.
...
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, Protocol

from ...errors import ModelError
from ...util.mathdoc import Document, Math, latex_number, math_text
from ...util.text import count_text
from ..dist import Dist
from ..exact.derivation import StateNames
from ..graph.state_graph import StateGraph

__all__ = ["derive_long_run"]


class LongRun(Protocol):
    """What the derivation reads of a long run
    (:class:`~exactprob.engine.long_run.chain.LongRun`)."""

    @property
    def graph(self) -> StateGraph: ...

    @property
    def classes(self) -> tuple[tuple[Hashable, ...], ...]: ...

    @property
    def laws(self) -> tuple[Dist[Any], ...]: ...

    def long_run_average(self, reward: Any = None, state: Any = None) -> Any: ...

    def bias(self, state: Any = None, reward: Any = None) -> Any: ...

    def policy(self, state: Any = None) -> Any: ...

    def ties(self, state: Any = None) -> tuple[Any, ...]: ...


def derive_long_run(run: LongRun, *, limit: int = 12) -> Document:
    """The derivation of ``run`` (see the module): the first ``limit`` states in full."""
    G = run.graph
    if G.rewards is None:
        raise ModelError("a long run's derivation writes out its gain: the model has no rewards")
    best = any(len(actions) > 1 for actions in G.actions)
    doc = Document("The best long run" if best else "The long run")
    shown = list(range(min(limit, len(G))))
    described = [k for k, members in enumerate(run.classes) if G.id_of(members[0]) in shown]
    written = [G.id_of(s) for k in described for s in run.classes[k][:limit]]
    names = StateNames(G, shown, written)
    recurrent = sum(len(c) for c in run.classes)
    left = len(G) - recurrent
    doc.paragraph(
        f"The model has {count_text(len(G), 'state')}; under the play, "
        f"{count_text(len(run.classes), 'closed class', 'closed classes')} (where play, "
        f"once in, stays for ever) hold {recurrent:,} of them"
        + (f", and play leaves the other {left:,} for good. " if left else ". "),
        *names.legend(),
    )
    for k in described:
        _describe_class(doc, run, k, run.classes[k], names, limit)
    _describe_bias(doc, run, shown, names)
    if best:
        _describe_decisions(doc, run, shown, names)
    return doc


def _describe_class(
    doc: Document, run: LongRun, k: int, members: Sequence[Any], names: StateNames, limit: int
) -> None:
    r"""The law of class ``k`` and the gain :math:`g = \sum \pi_s r(s)` it gives."""
    G = run.graph
    law = run.laws[k]
    doc.heading(f"Class {k}: {count_text(len(members), 'state')}")
    gain = run.long_run_average(state=members[0])
    if len(members) == 1 and not G.actions[G.id_of(members[0])]:
        doc.paragraph(f"{names.plain(G.id_of(members[0]))} ends play: it earns nothing more.")
        return
    doc.paragraph(
        "Its stationary law solves ",
        Math(r"\pi_j = \sum_i \pi_i P(j \mid i)"),
        " and ",
        Math(r"\sum_j \pi_j = 1"),
        ":",
    )
    written = list(members)[:limit]
    doc.equations(
        [f"\\pi({names.text(G.id_of(s))}) &= {latex_number(law[s])}" for s in written]
        + ([r"&\ \vdots"] if len(members) > limit else [])
    )
    doc.paragraph("The gain is the average reward the law earns:")
    terms = [
        f"{latex_number(law[s])} \\cdot {_bracketed(_reward(run, G.id_of(s)))}" for s in written
    ]
    sum_text = " + ".join(terms) + (" + \\dots" if len(members) > limit else "")
    doc.equations([f"g &= {sum_text} = {latex_number(gain)}"])


def _describe_bias(doc: Document, run: LongRun, shown: list[int], names: StateNames) -> None:
    r"""The bias equation :math:`g + h(s) = r + \sum P h` of each shown state."""
    G = run.graph
    doc.heading("The bias")
    doc.paragraph(
        "Each state's bias ",
        Math("h"),
        " solves ",
        Math(r"g(s) + h(s) = r(s, a) + \sum_t P(t \mid s, a)\, h(t)"),
        " under the played action ",
        Math("a"),
        ", with ",
        Math(r"\sum_s \pi_s h(s) = 0"),
        " on each class:",
    )
    lines = []
    for s in shown:
        if not G.actions[s]:
            continue
        gain, bias = run.long_run_average(state=G.states[s]), run.bias(G.states[s])
        k = G.actions[s].index(run.policy(G.states[s]))
        right = _earning(run, s, k, names)
        lines.append(
            f"{latex_number(gain)} + h({names.text(s)}) &= {right} "
            f"\\implies h({names.text(s)}) = {latex_number(bias)}"
        )
    doc.equations(lines)


def _describe_decisions(doc: Document, run: LongRun, shown: list[int], names: StateNames) -> None:
    r"""Each shown choice: every action's :math:`\sum P g` and :math:`r + \sum P h`."""
    G = run.graph
    doc.heading("The decisions")
    minimises = any(G.players[s] == 1 and len(G.actions[s]) > 1 for s in range(len(G)))
    doc.paragraph(
        "An action first keeps the best gain, ",
        Math(r"\sum_t P(t \mid s, a)\, g(t) = g(s)"),
        "; among those, the play takes the " + ("least" if minimises else "most") + " ",
        Math(r"Q(s, a) = r(s, a) + \sum_t P(t \mid s, a)\, h(t)"),
        ".",
    )
    for s in shown:
        actions = G.actions[s]
        if len(actions) < 2:
            continue
        state = G.states[s]
        gain = run.long_run_average(state=state)
        lines, earned = [], {}
        for k, action in enumerate(actions):
            reach = _expected(run, s, k, lambda t: run.long_run_average(state=t))
            label = f"({names.text(s)}, {math_text(str(action))})"
            if reach != gain:
                lines.append(f"\\sum P g{label} &= {latex_number(reach)}")
                continue
            value = _expected(run, s, k, run.bias) + _reward_of(run, s, k)
            earned[action] = value
            lines.append(f"Q{label} &= {_earning(run, s, k, names)} = {latex_number(value)}")
        doc.equations(lines)
        play = (run.policy(state), run.ties(state))
        doc.paragraph(*_verdict(names.plain(s), play, earned, minimises))


def _verdict(
    name: str, play: tuple[Any, Sequence[Any]], earned: dict[Any, Any], minimises: bool
) -> list[str | Math]:
    """The decision in words: the play, its margin over the next best, or its ties."""
    chosen, ties = play
    if len(ties) > 1:
        tied = ", ".join(str(a) for a in ties if a != chosen)
        return [f"In {name} the play is {chosen}, tied exactly with {tied}."]
    others = {a: v for a, v in earned.items() if a != chosen}
    if not others:
        return [f"In {name} the play is {chosen}: no other action keeps the best gain."]
    runner = (min if minimises else max)(others, key=others.__getitem__)
    return [
        f"In {name} the play is {chosen}, better than {runner} by ",
        Math(latex_number(abs(earned[chosen] - others[runner]))),
        ".",
    ]


def _earning(run: LongRun, s: int, k: int, names: StateNames) -> str:
    """``r + p_1 h(t_1) + ...`` for action ``k`` of ``s``."""
    G = run.graph
    c = G.choice_start[s] + k
    terms = [
        f"h({names.text(t)})" if p == 1 else f"{latex_number(p)} h({names.text(t)})"
        for t, p in G.choice_edges(c)
    ]
    reward = _reward_of(run, s, k)
    if reward != 0:
        terms.insert(0, latex_number(reward))
    return " + ".join(terms).replace("+ -", "- ")


def _expected(run: LongRun, s: int, k: int, value: Callable[[Any], Any]) -> Any:
    r""":math:`\sum_t P(t \mid s, a)\, v(t)` for action ``k`` of ``s``."""
    G = run.graph
    return sum(p * value(G.states[t]) for t, p in G.choice_edges(G.choice_start[s] + k))


def _reward_of(run: LongRun, s: int, k: int) -> Any:
    rewards = run.graph.rewards
    return 0 if rewards is None else rewards[run.graph.choice_start[s] + k]


def _reward(run: LongRun, s: int) -> Any:
    """The reward of the played action in ``s``."""
    G = run.graph
    return _reward_of(run, s, G.actions[s].index(run.policy(G.states[s])))


def _bracketed(value: Any) -> str:
    text = latex_number(value)
    return f"\\left({text}\\right)" if text.startswith("-") else text
