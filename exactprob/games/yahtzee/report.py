r"""One Yahtzee question answered in full: what ``exactprob yahtzee`` prints.

The game is solved through the engine (``ep.solve`` of :class:`~exactprob.games.yahtzee.model.YahtzeeLevels`):
certified by default (the optimal expected score as an enclosure), exactly for a small
variant. Optionally: the best keep or category in a situation (:mod:`~exactprob.games.yahtzee.advice`) and the
scores of simulated games (:mod:`~exactprob.games.yahtzee.simulator`), optimal and greedy, beside the
greedy player's value (:mod:`~exactprob.games.yahtzee.strategies`); the law of the final
score under optimal play (the engine's forward sweep, :mod:`~exactprob.engine.levels.laws`).

>>> from .rules import YahtzeeRules
>>> report = yahtzee_report(
...     YahtzeeRules(categories=("Yahtzee",), extra_yahtzees=False), method="exact"
... )
>>> report.to_json()["value"], report.to_json()["states"]
('8697425/3779136', 2)
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ...engine import CertifiedLaw, Enclosure, LevelSolution, cluster_client, solve
from ...util.deprecation import ReportMethod, method_of_exact
from ...util.display import Report
from ...util.limits import DEFAULT_MAX_STATES, refuse_more_than
from ...util.numbers import decimal_string, exact_fields, exact_map_fields, to_sympy
from ...util.text import bound_text, decimal_text, exact_text
from .advice import Advice, Situation, advise
from .model import YahtzeeLevels
from .rules import YahtzeeRules
from .simulator import GreedyPlayer, OptimalPlayer, YahtzeeRuns, simulate_games
from .strategies import STRATEGIES, GreedyLevels

__all__ = ["EXACT_STATES", "YahtzeeReport", "yahtzee_report"]

#: The name of the greedy player's strategy in :data:`~exactprob.games.yahtzee.strategies.STRATEGIES`.
GREEDY = "greedy keeps and categories"
#: The percentiles of the final score reported with its law.
PERCENTILES = (1, 10, 25, 50, 75, 90, 99)
#: The most turn-start states solved exactly (about 0.1 s each in rationals); larger
#: games are certified.
EXACT_STATES = 2_000
#: Which optimal player's law is given, in both modes (the JSON's ``tie_rule``).
TIE_RULE = (
    "tied keeps go to the first (fewer dice first, then by the sorted dice), tied "
    "categories to the first on the card; certified, options within the values' margin of "
    "the best count as tied (undecided_choices), and a game small enough to solve exactly "
    "has its law solved exactly when there are any"
)


@dataclass(frozen=True)
class Simulated:
    """Games simulated from the rules: how many, the seed, each player's runs, and the
    greedy player's value solved through the engine (exact or an enclosure)."""

    games: int
    seed: int
    optimal: YahtzeeRuns = field(repr=False)
    greedy: YahtzeeRuns = field(repr=False)
    greedy_value: Any = None


@dataclass(frozen=True, eq=False)
class YahtzeeReport(Report):
    """A solved game, the advice for a situation and simulated games, each when asked."""

    rules: YahtzeeRules
    solution: LevelSolution = field(repr=False)
    advice: Advice | None = None
    situation: Situation | None = None
    simulated: Simulated | None = field(default=None, repr=False)
    law: Any = field(default=None, repr=False)
    strategies: dict[str, Any] | None = field(default=None, repr=False)

    @property
    def states(self) -> int:
        """The turn-start states solved."""
        return len(self.solution.states)

    def _build(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "rules": self.rules.describe(),
            "categories": list(self.rules.categories),
            "method": self.solution.method,
            "states": self.states,
            **_fields("value", self.solution.value()),
        }
        if self.advice is not None and self.situation is not None:
            payload["situation"] = _situation_json(self.situation)
            payload["best"] = self.advice.best
            payload["ties"] = list(self.advice.ties)
            payload["options"] = [
                {"option": name, **_fields("value", value)} for name, value in _ranked(self.advice)
            ]
        if self.simulated is not None:
            sim = self.simulated
            payload["simulated"] = {
                "games": sim.games,
                "seed": sim.seed,
                **{
                    name: {
                        "mean": repr(float(runs.score.mean())),
                        "standard_error": repr(float(runs.score.std(ddof=1) / runs.n**0.5)),
                        "standard_deviation": repr(float(runs.score.std(ddof=1))),
                        "upper_bonus_rate": repr(float(runs.bonus.mean())),
                    }
                    for name, runs in (("optimal", sim.optimal), ("greedy", sim.greedy))
                },
            }
            payload["simulated"]["greedy"].update(_fields("value", sim.greedy_value))
        if self.law is not None:
            payload["law"] = _law_json(self.law)
            if self._law_solved_again:
                payload["law"]["solved_again_exactly"] = True
        if self.strategies is not None:
            optimal = self.solution.value()
            payload["strategies"] = [
                {"strategy": name, **_fields("value", v), **_fields("loss", _loss(optimal, v))}
                for name, v in self.strategies.items()
            ]
        return payload

    @property
    def _law_solved_again(self) -> bool:
        """Whether the law is exact in a certified solve (:func:`_score_law`)."""
        return (
            self.solution.method != "exact"
            and self.law is not None
            and not isinstance(self.law, CertifiedLaw)
        )

    def text(self) -> str:
        """The report for people."""
        value = self.solution.value()
        kind = "certified" if isinstance(value, Enclosure) else "exact"
        lines = [
            f"solitaire Yahtzee, {self.rules.describe()} ({self.states:,} turn-start states)",
            f"  optimal expected score  {exact_text(value)}",
        ]
        if self.advice is not None and self.situation is not None:
            where = self.situation
            lines.append(
                f"after roll {where.rolls} showing {' '.join(map(str, where.dice))}, "
                f"{len(where.left)} {'category' if len(where.left) == 1 else 'categories'} left, upper total "
                f"{where.upper}: {self.advice.best}"
            )
            tied = [name for name in self.advice.ties if name != self.advice.best]
            if tied:
                label = "exactly tied" if kind == "exact" else "not ruled out"
                lines.append(f"  {label}: {', '.join(tied)}")
            lines.append("  expected score still to come, best options first:")
            lines += [f"    {name:<24} {exact_text(v)}" for name, v in _ranked(self.advice)[:8]]
        if self.law is not None:
            lines += _law_lines(self.law, again=self._law_solved_again)
        if self.strategies is not None:
            lines.append(f"simple strategies ({kind}): expected score, and what each gives up")
            optimal = self.solution.value()
            lines += [
                f"  {name:<30} {decimal_text(v):>14}  {decimal_text(-_middle(_loss(optimal, v)))}"
                for name, v in self.strategies.items()
            ]
        if self.simulated is not None:
            sim = self.simulated
            lines.append(f"simulated from the rules: {sim.games:,} games (seed {sim.seed})")
            values = {"optimal": self.solution.value(), "greedy": sim.greedy_value}
            for name, runs in (("optimal", sim.optimal), ("greedy", sim.greedy)):
                error = runs.score.std(ddof=1) / runs.n**0.5
                lines.append(
                    f"  {name:<8} mean {runs.score.mean():.3f} +- {error:.3f}, "
                    f"sd {runs.score.std(ddof=1):.2f}, upper bonus {runs.bonus.mean():.1%} "
                    f"(its value: {decimal_text(values[name])})"
                )
        return "\n".join(lines)


def yahtzee_report(
    rules: YahtzeeRules,
    *,
    method: ReportMethod | None = None,
    exact: bool | None = None,
    situation: Situation | None = None,
    simulate: tuple[int, int] | None = None,
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool = False,
    cluster: Any = None,
    law: bool = False,
    strategies: bool = False,
) -> YahtzeeReport:
    """Solve ``rules`` by ``method`` (``"certified"`` by default, or ``"exact"``; on a
    Dask ``cluster`` if given, as ``ep.solve`` takes it; ``exact=True`` is the deprecated
    spelling of ``method="exact"``), advise ``situation``, play ``simulate = (games, seed)``
    games by the optimal and the greedy player, give the ``law`` of the final score
    under optimal play, and value the simple ``strategies``."""
    method = method_of_exact(exact, method) or "certified"
    model = YahtzeeLevels(rules)
    if method == "exact":
        refuse_more_than(
            EXACT_STATES, _states(model), "solving this game exactly",
            how="solve it certified (without --exact), or choose fewer --categories",
        )  # fmt: skip
    with nullcontext() if cluster is None else cluster_client(cluster) as client:

        def solved(levels: YahtzeeLevels) -> LevelSolution:
            found = solve(levels, method, max_states=max_states, progress=progress, cluster=client)
            assert isinstance(found, LevelSolution)
            return found

        solution = solved(model)
        values = (
            {name: solved(s(rules)).value() for name, s in STRATEGIES.items()}
            if strategies
            else None
        )
        greedy = None
        if simulate is not None:
            greedy = values[GREEDY] if values else solved(GreedyLevels(rules)).value()
    advice = None if situation is None else advise(solution, situation)
    simulated = None
    if simulate is not None:
        games, seed = simulate
        simulated = Simulated(
            games,
            seed,
            simulate_games(rules, OptimalPlayer(solution), games, seed, progress=progress),
            simulate_games(rules, GreedyPlayer(rules), games, seed, progress=progress),
            greedy,
        )
    score_law = _score_law(model, solution, progress) if law else None
    return YahtzeeReport(rules, solution, advice, situation, simulated, score_law, values)


def _score_law(model: YahtzeeLevels, solution: LevelSolution, progress: bool) -> Any:
    """The law of the final score under optimal play (:data:`TIE_RULE`): a certified
    law that met choices its values could not decide is solved again exactly when the
    game is small enough (:data:`EXACT_STATES`), so that both modes give one law."""
    found = solution.reward_distribution(progress=progress)
    if isinstance(found, CertifiedLaw) and found.undecided and _states(model) <= EXACT_STATES:
        exact = solve(model, "exact", progress=progress)
        assert isinstance(exact, LevelSolution)
        return exact.reward_distribution(progress=progress)
    return found


def _states(model: YahtzeeLevels) -> int:
    """The turn-start states of every level."""
    return sum(len(model.states(level)) for level in range(model.levels + 1))


def _loss(optimal: Any, value: Any) -> Any:
    """How much less than optimal play a strategy's value is (an enclosure when either is)."""
    if isinstance(optimal, Enclosure):
        return Enclosure(optimal.low - value.high, optimal.high - value.low)
    return optimal - value


def _law_summary(law: Any) -> tuple[Any, Any, Any, dict[int, tuple[int, int]]]:
    """The mean, variance and standard deviation of a law (exact, or enclosures; the
    exact deviation a sympy square root) and its :data:`PERCENTILES` (each as the lowest
    and highest score it may be)."""
    if isinstance(law, CertifiedLaw):
        quantiles = {p: law.quantile(Fraction(p, 100)) for p in PERCENTILES}
        return law.mean(), law.variance(), law.standard_deviation(), quantiles
    import sympy

    variance = law.variance()
    quantiles = {p: (law.quantile(Fraction(p, 100)),) * 2 for p in PERCENTILES}
    return law.mean(), variance, sympy.sqrt(to_sympy(variance)), quantiles


def _law_json(law: Any) -> dict[str, Any]:
    mean, variance, deviation, quantiles = _law_summary(law)
    exact = not isinstance(law, CertifiedLaw)
    return {
        **_fields("mean", mean),
        **_fields("variance", variance),
        **(
            {"standard_deviation_decimal": decimal_string(deviation, 12)}
            if exact
            else _fields("standard_deviation", deviation)
        ),
        "percentiles": {str(p): list(q) for p, q in quantiles.items()},
        "method": "exact" if exact else "certified",
        "tie_rule": TIE_RULE,
        **(
            exact_map_fields("probabilities", dict(sorted(law.items())))
            if exact
            else {
                "undecided_choices": law.undecided,
                "probabilities": law.to_json()["probabilities"],
            }
        ),
    }


def _law_lines(law: Any, again: bool = False) -> list[str]:
    """The law's lines of the text (``again``: a certified game's law solved exactly)."""
    mean, _, deviation, quantiles = _law_summary(law)
    if isinstance(law, CertifiedLaw):
        near = (
            f"; at {law.undecided:,} choices the first within the values' margin of the best, "
            "optimal where those are exact ties and within twice the margin otherwise"
            if law.undecided
            else ""
        )
        head = (
            f"the final score under optimal play (certified; ties to the first keep and "
            f"category{near}; each chance within a relative {bound_text(law.relative_error)}):"
        )
    else:
        how = (
            "solved exactly, as the certified values left some choice undecided"
            if again
            else "exact"
        )
        head = f"the final score under optimal play ({how}; ties to the first keep and category):"
    shown = [
        f"{p}%: {low}" if low == high else f"{p}%: {low}-{high}"
        for p, (low, high) in quantiles.items()
    ]
    spread = exact_text(deviation) if isinstance(deviation, Enclosure) else decimal_text(deviation)
    return [
        head,
        f"  mean {exact_text(mean)}",
        f"  standard deviation {spread}",
        f"  percentiles {'  '.join(shown)}",
    ]


def _ranked(advice: Advice) -> list[tuple[str, Any]]:
    """The options, best first."""
    return sorted(advice.options, key=lambda option: -_middle(option[1]))


def _middle(value: Any) -> Any:
    return value.midpoint() if isinstance(value, Enclosure) else value


#: Places of an enclosure's ends in the JSON's decimal twins (the ends themselves are exact).
BOUND_PLACES = 15


def _fields(key: str, value: Any) -> dict[str, str]:
    """An exact value with its decimal, or an enclosure's ends (``lower``, ``upper``)."""
    if isinstance(value, Enclosure):
        return {
            f"{key}_decimal": value.decimal(),
            f"{key}_lower": str(value.low),
            f"{key}_upper": str(value.high),
            f"{key}_lower_decimal": decimal_string(value.low, BOUND_PLACES),
            f"{key}_upper_decimal": decimal_string(value.high, BOUND_PLACES),
        }
    return exact_fields(key, value)


def _situation_json(situation: Situation) -> dict[str, Any]:
    return {
        "dice": list(situation.dice),
        "rolls": situation.rolls,
        "left": list(situation.left),
        "upper": situation.upper,
        "fifty": situation.fifty,
    }
