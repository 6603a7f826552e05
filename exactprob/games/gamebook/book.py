r"""A gamebook file format (TOML): a book written as data, checked, and solved exactly.

A book file has a ``[book]`` table (metadata and the hero) and one ``[section.ID]`` table per
section. A small complete example (a toll bridge, a coin toss and a fight)::

    [book]
    title = "The Toll Bridge"
    start = 1                 # the first section
    endurance = 10            # the hero's starting (and maximum) endurance
    combat_skill = 12
    items = ["stick"]         # starting items (optional)
    gold = 2                  # starting gold (optional, default 0)
    disciplines = ["Luck"]    # fixed for the whole book (optional)
    combat_bonus = { stick = 1 }   # +combat skill while holding an item / having a discipline
    max_gold = 50             # gold is capped here (optional, default 50)
    # crt = "my_crt.toml"     # a combat results table, relative to this file (optional)

    [section.1]
    text = "A troll guards the bridge."
    [[section.1.choices]]
    text = "Pay the toll"
    if_gold_at_least = 2
    goto = 2
    [[section.1.choices]]
    text = "Toss a coin to decide"
    random = [{ p = "1/2", goto = 2 }, { p = "1/2", goto = 4 }]
    [[section.1.choices]]
    text = "Fight the troll"
    combat = { enemy = "Troll", combat_skill = 13, endurance = 8, win = 3, evade_after = 2, evade = 4 }

    [section.2]
    gold = -2                 # effects apply on arrival
    [[section.2.choices]]
    text = "Cross"
    goto = 3

    [section.3]
    win = true

    [section.4]
    text = "You fall into the river."
    death = true

Rules (the semantics :class:`Book` gives the solver):

* **Sections** are named by their TOML keys (``[section.12]`` is section ``"12"``); a
  ``goto`` may be written as a number or a string. A section is either ``win = true``,
  ``death = true`` (both with at most a ``text``), or has ``choices`` and optional
  *effects*: ``endurance`` (added, the result kept in :math:`[0, E_{\max}]` where
  :math:`E_{\max}` is the starting endurance), ``gain`` / ``lose`` (lists of items; losing an
  item not held does nothing), ``gold`` (added, kept in :math:`[0, G_{\max}]`).
* **Arrival**: effects apply when the hero arrives (also at the start section), in that
  order: endurance, gain, lose, gold. The state is the hero *after* arrival,
  :class:`Hero` ``(section, endurance, items, gold)``.
* **Choices** (``[[section.N.choices]]``, counted from 1 in error messages) have a ``text``
  and exactly one of ``goto = ID``; ``random = [{p = "3/10", goto = ID}, ...]`` (exact
  probabilities written as strings ``"p/q"`` or decimals, each in :math:`(0, 1]`, summing
  to exactly 1); ``combat = {enemy, combat_skill, endurance, immune, win, evade_after,
  evade}``, or for several enemies fought one after another ``combat = {enemies = [{enemy,
  combat_skill, endurance, immune}, ...], win, evade_after, evade}``. Optional conditions,
  all of which must hold for the choice to be offered: ``if_item``, ``if_not_item``,
  ``if_discipline``, ``if_gold_at_least``.
* **Combat** (:mod:`.combat`): against each enemy the ratio is :math:`r = CS_{\text{hero}}
  + \sum \text{bonuses} - CS_{\text{enemy}}`, a bonus counting when its item is held or its
  discipline known, except disciplines listed in that enemy's ``immune``. The hero keeps
  the endurance left from one enemy to the next; beating the last goes to ``win`` with the
  endurance left; losing is death. Without evasion the whole fight is one distribution
  (:func:`~exactprob.games.gamebook.combat.fight_sequence`). With ``evade_after = k`` and
  ``evade = ID`` the fight is played round by round as states of the book,
  :class:`Hero` with an :class:`OngoingFight`: before every round from round :math:`k + 1` on
  (counted over all the enemies; from the start when :math:`k = 0`) the hero chooses
  between "fight on" and "evade to section ID": one more round where only his own
  losses count (:func:`~exactprob.games.gamebook.combat.evasion_round`), then ``evade`` if he
  is alive. The solver finds the best moment to evade.
* **Scores**: 1 at a win section, 0 at a death section, at endurance 0, and at a *dead end*
  (a section none of whose choices is offered). Known states are collapsed to
  ``Hero(section, 0, frozenset(), 0)`` so that equal endings regroup.
* **Sizes**: endurances (the hero's and every enemy's) are at most
  :data:`MAX_ENDURANCE`, so that a fight's exact distribution stays small.

:func:`load_book` checks everything and raises :class:`BookError` naming the file, the
section and the field: unknown keys, unknown sections, missing fields, bad numbers,
probabilities that do not sum to exactly 1, no win section, or a win section that cannot be
reached from the start on the section graph (conditions ignored).

>>> import pathlib, tempfile
>>> text = '''
... [book]
... title = "Coin"
... start = 1
... endurance = 3
... combat_skill = 10
... [section.1]
... [[section.1.choices]]
... text = "toss"
... random = [{p = "1/3", goto = 2}, {p = "2/3", goto = 3}]
... [section.2]
... win = true
... [section.3]
... death = true
... '''
>>> with tempfile.TemporaryDirectory() as folder:
...     path = pathlib.Path(folder, "coin.toml")
...     _ = path.write_text(text)
...     book = load_book(path)
>>> from exactprob.games.gamebook import solve_choices
>>> solve_choices(book.choices, book.score, book.initial).score
Fraction(1, 3)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, TypeAlias

from ...engine import Dist
from ...errors import BookError, ModelError
from ...util.numbers import parse_fraction
from .combat import (
    LOST,
    CombatResultsTable,
    evasion_round,
    example_crt,
    fight_round,
    fight_sequence,
    load_crt,
)
from .toml_file import read_toml

__all__ = [
    "MAX_ENDURANCE",
    "Book",
    "BookError",
    "Branch",
    "Choice",
    "Combat",
    "Condition",
    "Enemy",
    "Hero",
    "OngoingFight",
    "Section",
    "example_book",
    "load_book",
    "parse_book",
]

_DEFAULT_MAX_GOLD = 50
#: The largest endurance a book may give the hero or an enemy (books use a few dozen); a
#: fight's distribution has up to hero x enemy states and exact numbers that grow with them.
MAX_ENDURANCE = 1_000


@dataclass(frozen=True)
class OngoingFight:
    """Where a fight played round by round stands (a combat the hero may evade): the
    combat's position among its section's choices (from 0), the enemy fought (from 0), his
    endurance left, and the rounds fought, counted up to the combat's ``evade_after`` (all
    that matters: evasion is allowed from then on)."""

    choice: int
    enemy: int
    enemy_endurance: int
    rounds: int


@dataclass(frozen=True)
class Hero:
    """A state of the book: the section the hero has just arrived at (effects applied),
    his endurance, his items and his gold, and the fight he is in, if any."""

    section: str
    endurance: int
    items: frozenset[str] = frozenset()
    gold: int = 0
    fight: OngoingFight | None = None

    def __str__(self) -> str:
        items = ", ".join(sorted(self.items)) or "no items"
        where = f"section {self.section} with endurance {self.endurance}, {self.gold} gold, {items}"
        if self.fight is None:
            return where
        return f"{where}, fighting enemy {self.fight.enemy + 1} " + _fight_text(self.fight)


def _fight_text(fight: OngoingFight) -> str:
    """The enemy's endurance and the rounds fought, in words."""
    return f"(endurance {fight.enemy_endurance}) after {fight.rounds} rounds"


@dataclass(frozen=True)
class Condition:
    """The conditions of a choice; ``None`` fields are not checked."""

    item: str | None = None
    not_item: str | None = None
    discipline: str | None = None
    gold_at_least: int | None = None

    def holds(self, hero: Hero, disciplines: frozenset[str]) -> bool:
        """True when every condition given holds for ``hero``."""
        return (
            (self.item is None or self.item in hero.items)
            and (self.not_item is None or self.not_item not in hero.items)
            and (self.discipline is None or self.discipline in disciplines)
            and (self.gold_at_least is None or hero.gold >= self.gold_at_least)
        )


@dataclass(frozen=True)
class Branch:
    """A random branch: go to ``goto`` with exact probability ``p``."""

    p: Fraction
    goto: str


@dataclass(frozen=True)
class Enemy:
    """An enemy: his name, combat skill and endurance, and the disciplines whose combat
    bonus does not count against him."""

    name: str
    combat_skill: int
    endurance: int
    immune: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Combat:
    """A fight against ``enemies`` one after another: won -> ``win`` with the endurance
    left; lost -> death; with ``evade_after`` the hero may evade to ``evade`` once that
    many rounds have been fought."""

    enemies: tuple[Enemy, ...]
    win: str
    evade_after: int | None = None
    evade: str | None = None


Move: TypeAlias = tuple[Branch, ...] | Combat


@dataclass(frozen=True)
class Choice:
    """A choice: its text, its move (random branches, a single one for ``goto``, or a
    combat) and its condition."""

    text: str
    move: Move
    condition: Condition = Condition()

    def targets(self) -> tuple[str, ...]:
        """The sections this choice can lead to (death aside)."""
        if isinstance(self.move, Combat):
            evade = () if self.move.evade is None else (self.move.evade,)
            return (self.move.win, *evade)
        return tuple(branch.goto for branch in self.move)


@dataclass(frozen=True)
class Section:
    """A checked section: ``win``/``death`` or effects and choices."""

    name: str
    text: str = ""
    win: bool = False
    death: bool = False
    endurance: int = 0
    gain: frozenset[str] = frozenset()
    lose: frozenset[str] = frozenset()
    gold: int = 0
    choices: tuple[Choice, ...] = ()


@dataclass(frozen=True)
class Book:
    """A checked book. ``initial``, :meth:`choices` and :meth:`score` are what
    :func:`exactprob.games.gamebook.solve_choices` takes."""

    title: str
    start: str
    endurance: int
    combat_skill: int
    items: frozenset[str]
    gold: int
    disciplines: frozenset[str]
    combat_bonus: Mapping[str, int]
    max_gold: int
    crt: CombatResultsTable
    sections: Mapping[str, Section]
    source: str = field(default="<book>", compare=False)

    @property
    def initial(self) -> Hero:
        """The hero arriving at the start section."""
        return self.arrive(Hero(self.start, self.endurance, self.items, self.gold), self.start)

    def arrive(self, hero: Hero, name: str) -> Hero:
        """The state after arriving at section ``name`` from ``hero``: effects applied; a
        win, a death, endurance 0 or a dead end collapse to ``Hero(section, 0)``."""
        section = self.sections[name]
        endurance = min(max(hero.endurance + section.endurance, 0), self.endurance)
        if section.win or section.death or endurance == 0:
            return Hero(name, 0)
        items = (hero.items | section.gain) - section.lose
        gold = min(max(hero.gold + section.gold, 0), self.max_gold)
        arrived = Hero(name, endurance, items, gold)
        return arrived if self.offered(arrived) else Hero(name, 0)

    def largest_fight(self) -> tuple[int, str]:
        r"""The most states one evadable combat can hold as the hero enters it, and where it
        is: the hero's endurance (at most the book's), each enemy's endurance and the
        rounds counted up to ``evade_after``; 0 for a book whose fights cannot be evaded
        (their outcomes are exact distributions, not states with choices). The Salt
        Mine's golem, fought with endurance 16, 14 endurance and evasion after 2 rounds:
        :math:`16 \cdot 14 \cdot 3 = 672`."""
        largest = (0, "")
        for section in self.sections.values():
            for choice in section.choices:
                combat = choice.move
                if isinstance(combat, Combat) and combat.evade_after is not None:
                    enemies = sum(enemy.endurance for enemy in combat.enemies)
                    states = self.endurance * enemies * (combat.evade_after + 1)
                    names = ", ".join(enemy.name for enemy in combat.enemies)
                    largest = max(largest, (states, f"section {section.name} ({names})"))
        return largest

    def offered(self, hero: Hero) -> tuple[Choice, ...]:
        """The choices of ``hero``'s section whose conditions hold."""
        return tuple(
            c
            for c in self.sections[hero.section].choices
            if c.condition.holds(hero, self.disciplines)
        )

    def score(self, hero: Hero) -> int | None:
        """1 at a win section; 0 at a death section, at endurance 0 or at a dead end; None
        while the adventure goes on (in a fight, too)."""
        if hero.fight is not None:
            return None
        section = self.sections[hero.section]
        if section.win:
            return 1
        if section.death or hero.endurance == 0 or not self.offered(hero):
            return 0
        return None

    def ratio(self, hero: Hero, enemy: Enemy) -> int:
        """The combat ratio: the hero's skill plus the bonuses that count, minus the enemy's."""
        bonus = sum(
            value
            for name, value in self.combat_bonus.items()
            if name in hero.items or (name in self.disciplines and name not in enemy.immune)
        )
        return self.combat_skill + bonus - enemy.combat_skill

    def choices(self, hero: Hero) -> list[tuple[str, Dist[Hero]]]:
        """The offered choices of ``hero`` as ``(text, distribution of next states)``. A
        combat without evasion is one distribution; a combat with evasion is played round
        by round (its first step enters the fight), so that when to evade is chosen."""
        if hero.fight is not None:
            return self._fight_choices(hero, hero.fight)
        listed = []
        for position, choice in enumerate(self.sections[hero.section].choices):
            if not choice.condition.holds(hero, self.disciplines):
                continue
            move = choice.move
            if not isinstance(move, Combat):
                outcomes = Dist((self.arrive(hero, b.goto), b.p) for b in move)
            elif move.evade is None:
                outcomes = self._fight_to_the_end(hero, move)
            else:
                start = OngoingFight(position, 0, move.enemies[0].endurance, 0)
                outcomes = Dist({replace(hero, fight=start): 1})
            listed.append((choice.text, outcomes))
        return listed

    def describe(self, hero: Hero) -> str:
        """``hero`` in words, the enemy named in a fight."""
        if hero.fight is None:
            return str(hero)
        enemy = self._combat(hero, hero.fight).enemies[hero.fight.enemy]
        return f"{replace(hero, fight=None)}, fighting {enemy.name} {_fight_text(hero.fight)}"

    def _combat(self, hero: Hero, fight: OngoingFight) -> Combat:
        combat = self.sections[hero.section].choices[fight.choice].move
        assert isinstance(combat, Combat)
        return combat

    def _fight_to_the_end(self, hero: Hero, combat: Combat) -> Dist[Hero]:
        """Every enemy in turn, no evasion: ``("won", h)`` arrives at ``win``."""
        enemies = tuple((enemy.endurance, self.ratio(hero, enemy)) for enemy in combat.enemies)
        dead = Hero(hero.section, 0)
        return _fight_sequence(self.crt, hero.endurance, enemies).map(
            lambda outcome: dead if outcome == LOST else self._won(hero, combat, outcome[1])
        )

    def _won(self, hero: Hero, combat: Combat, endurance: int) -> Hero:
        return self.arrive(replace(hero, endurance=endurance, fight=None), combat.win)

    def _fight_choices(self, hero: Hero, fight: OngoingFight) -> list[tuple[str, Dist[Hero]]]:
        """In a fight: play a round, or (once ``evade_after`` rounds are fought) evade:
        one round where only the hero's losses count, then ``evade`` if he is alive."""
        combat = self._combat(hero, fight)
        assert combat.evade_after is not None and combat.evade is not None
        evade, rounds = combat.evade, min(fight.rounds + 1, combat.evade_after)
        ratio = self.ratio(hero, combat.enemies[fight.enemy])
        dead = Hero(hero.section, 0)

        def after_round(endurances: tuple[int, int]) -> Hero:
            h, e = endurances
            if h == 0:
                return dead
            if e > 0:
                return replace(
                    hero, endurance=h, fight=OngoingFight(fight.choice, fight.enemy, e, rounds)
                )
            if fight.enemy + 1 == len(combat.enemies):
                return self._won(hero, combat, h)
            following = combat.enemies[fight.enemy + 1].endurance
            return replace(hero, endurance=h, fight=OngoingFight(fight.choice, fight.enemy + 1,
                                                          following, rounds))  # fmt: skip

        def after_evading(h: int) -> Hero:
            return self.arrive(replace(hero, endurance=h, fight=None), evade) if h > 0 else dead

        played = _fight_round(self.crt, hero.endurance, fight.enemy_endurance, ratio)
        listed = [("fight on", played.map(after_round))]
        if fight.rounds >= combat.evade_after:
            escape = _evasion_round(self.crt, hero.endurance, ratio).map(after_evading)
            listed.append((f"evade to section {evade}", escape))
        return listed


_fight_sequence = cache(fight_sequence)
_fight_round = cache(fight_round)
_evasion_round = cache(evasion_round)


# -- loading and checking -------------------------------------------------------------------
def example_book() -> Book:
    """*The Salt Mine*, the original example book shipped with exactprob
    (``data/the_salt_mine.toml``; ``examples/books/`` links to it).

    >>> example_book().sections["1"].text.startswith("Dusk at the gate")
    True
    """
    resource = resources.files("exactprob.games.gamebook").joinpath("data", "the_salt_mine.toml")
    with resources.as_file(resource) as path:
        return load_book(path)


def load_book(path: str | Path) -> Book:
    """Read and check a book file (the format is this module's docstring); the CRT named
    by ``crt`` is read relative to the book, else the shipped example table is used."""
    path = Path(path)
    return parse_book(read_toml(path, "the book", BookError), str(path), path.parent)


_BOOK_KEYS = {
    "title", "start", "endurance", "combat_skill", "items", "gold", "disciplines",
    "combat_bonus", "max_gold", "crt",
}  # fmt: skip
_SECTION_KEYS = {"text", "win", "death", "endurance", "gain", "lose", "gold", "choices"}
_CHOICE_KEYS = {"text", "goto", "random", "combat", *(f"if_{c}" for c in
                ("item", "not_item", "discipline", "gold_at_least"))}  # fmt: skip
_ENEMY_KEYS = {"enemy", "combat_skill", "endurance", "immune"}
_COMBAT_KEYS = {*_ENEMY_KEYS, "enemies", "win", "evade_after", "evade"}


class _Checker:
    """Typed reads of a parsed TOML document, every error prefixed with ``where``."""

    def __init__(self, where: str) -> None:
        self.where = where

    def fail(self, field_name: str, message: str) -> BookError:
        """The error for ``field_name`` (empty: the whole entry ``where`` names)."""
        place = f"{self.where}{field_name}" if field_name else self.where.rstrip(" ,.")
        return BookError(f"{place}: {message}")

    def table(self, value: Any, name: str, allowed: set[str]) -> Mapping[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(name, f"must be a table, got {value!r}")
        unknown = sorted(set(value) - allowed)
        if unknown:
            prefix = f"{name}." if name else ""
            raise self.fail(
                prefix + unknown[0], f"unknown key (allowed: {', '.join(sorted(allowed))})"
            )
        return value

    def whole(
        self,
        data: Mapping[str, Any],
        name: str,
        low: int | None,
        default: Any = ...,
        high: int | None = None,
    ) -> Any:
        value = data.get(name, default)
        if value is ...:
            raise self.fail(name, "missing (a whole number)")
        if value is None or value is default:
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(name, f"must be a whole number, got {value!r}")
        if low is not None and value < low:
            raise self.fail(name, f"must be >= {low}, got {value}")
        if high is not None and value > high:
            raise self.fail(name, f"must be <= {high:,}, got {value}")
        return value

    def text(self, data: Mapping[str, Any], name: str, default: Any = ...) -> Any:
        value = data.get(name, default)
        if value is ...:
            raise self.fail(name, "missing (a string)")
        if value is not default and not isinstance(value, str):
            raise self.fail(name, f"must be a string, got {value!r}")
        return value

    def names(self, data: Mapping[str, Any], name: str) -> frozenset[str]:
        value = data.get(name, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(name, f"must be a list of strings, got {value!r}")
        return frozenset(value)

    def flag(self, data: Mapping[str, Any], name: str) -> bool:
        value = data.get(name, False)
        if not isinstance(value, bool):
            raise self.fail(name, f"must be true or false, got {value!r}")
        return value

    def section_id(self, data: Mapping[str, Any], name: str, sections: Mapping[str, Any]) -> str:
        value = data.get(name)
        if value is None:
            raise self.fail(name, "missing (a section)")
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise self.fail(name, f"must be a section number or name, got {value!r}")
        if str(value) not in sections:
            raise self.fail(name, f"unknown section {value!r}")
        return str(value)


def parse_book(data: Mapping[str, Any], source: str = "<book>", folder: Path | None = None) -> Book:
    """Check a parsed book document (``source`` names it in errors; ``folder`` is where a
    ``crt`` path is resolved, default the current directory)."""
    top = _Checker(f"{source}: ")
    top.table(data, "", {"book", "section"})
    meta = _Checker(f"{source}: [book] ")
    if "book" not in data:
        raise top.fail("book", "missing (the [book] table)")
    book = meta.table(data["book"], "", _BOOK_KEYS)
    raw_sections = data.get("section")
    if not isinstance(raw_sections, dict) or not raw_sections:
        raise top.fail("section", "missing (at least one [section.ID] table)")
    bonus = book.get("combat_bonus", {})
    if not isinstance(bonus, dict):
        raise meta.fail("combat_bonus", f"must be a table of name = bonus, got {bonus!r}")
    bonuses = _Checker(f"{source}: [book] combat_bonus.")
    for name in bonus:
        bonuses.whole(bonus, name, None)
    sections = {
        str(name): _parse_section(str(name), raw, source, raw_sections)
        for name, raw in raw_sections.items()
    }
    parsed = Book(
        title=meta.text(book, "title", ""),
        start=meta.section_id(book, "start", raw_sections),
        endurance=meta.whole(book, "endurance", 1, high=MAX_ENDURANCE),
        combat_skill=meta.whole(book, "combat_skill", None),
        items=meta.names(book, "items"),
        gold=meta.whole(book, "gold", 0, 0),
        disciplines=meta.names(book, "disciplines"),
        combat_bonus=dict(bonus),
        max_gold=meta.whole(book, "max_gold", 0, _DEFAULT_MAX_GOLD),
        crt=_crt(meta, book, folder),
        sections=sections,
        source=source,
    )
    if parsed.gold > parsed.max_gold:
        raise meta.fail("gold", f"must be <= max_gold ({parsed.max_gold}), got {parsed.gold}")
    _check_wins(parsed, top)
    return parsed


def _crt(meta: _Checker, book: Mapping[str, Any], folder: Path | None) -> CombatResultsTable:
    """The table named by ``crt`` (relative to ``folder``), else the shipped example."""
    path = meta.text(book, "crt", None)
    if path is None:
        return example_crt()
    try:
        return load_crt((folder or Path()) / path)
    except ModelError as error:
        raise meta.fail("crt", str(error)) from None


def _parse_section(name: str, raw: Any, source: str, sections: Mapping[str, Any]) -> Section:
    check = _Checker(f"{source}: section {name}, ")
    data = check.table(raw, "", _SECTION_KEYS)
    win, death = check.flag(data, "win"), check.flag(data, "death")
    text = check.text(data, "text", "")
    if win or death:
        if win and death:
            raise check.fail("death", "a section cannot be both win and death")
        extra = sorted(set(data) - {"text", "win", "death"})
        if extra:
            raise check.fail(extra[0], "a win or death section has only a text")
        return Section(name, text, win=win, death=death)
    raw_choices = data.get("choices")
    if not isinstance(raw_choices, list) or not raw_choices:
        raise check.fail(
            "choices", "missing: a section needs choices, or win = true, or death = true"
        )
    choices = tuple(
        _parse_choice(choice, _Checker(f"{check.where}choices[{i}]."), sections)
        for i, choice in enumerate(raw_choices, 1)
    )
    return Section(
        name,
        text,
        endurance=check.whole(data, "endurance", None, 0),
        gain=check.names(data, "gain"),
        lose=check.names(data, "lose"),
        gold=check.whole(data, "gold", None, 0),
        choices=choices,
    )


def _parse_choice(raw: Any, check: _Checker, sections: Mapping[str, Any]) -> Choice:
    data = check.table(raw, "", _CHOICE_KEYS)
    moves = [key for key in ("goto", "random", "combat") if key in data]
    if len(moves) != 1:
        raise check.fail(
            "goto", f"exactly one of goto, random, combat is needed, got {moves or 'none'}"
        )
    move: Move
    if moves == ["goto"]:
        move = (Branch(Fraction(1), check.section_id(data, "goto", sections)),)
    elif moves == ["random"]:
        move = _parse_random(data["random"], check, sections)
    else:
        move = _parse_combat(data["combat"], check, sections)
    condition = Condition(
        item=check.text(data, "if_item", None),
        not_item=check.text(data, "if_not_item", None),
        discipline=check.text(data, "if_discipline", None),
        gold_at_least=check.whole(data, "if_gold_at_least", 0, None),
    )
    return Choice(check.text(data, "text"), move, condition)


def _parse_random(raw: Any, check: _Checker, sections: Mapping[str, Any]) -> tuple[Branch, ...]:
    if not isinstance(raw, list) or not raw:
        raise check.fail("random", f"must be a list of {{p, goto}} tables, got {raw!r}")
    branches = []
    for i, item in enumerate(raw, 1):
        name = f"random[{i}]"
        branch = _Checker(f"{check.where}{name}.")
        data = branch.table(item, "", {"p", "goto"})
        text = data.get("p")
        if not isinstance(text, str):
            raise branch.fail("p", f'must be an exact probability in quotes ("3/10"), got {text!r}')
        try:
            p = parse_fraction("a probability", text, 0, 1, BookError)
        except BookError as error:
            raise branch.fail("p", str(error)) from None
        if p == 0:
            raise branch.fail("p", "must be > 0 (leave the branch out instead)")
        branches.append(Branch(p, branch.section_id(data, "goto", sections)))
    total = sum(b.p for b in branches)
    if total != 1:
        raise check.fail("random", f"probabilities sum to {total}, not exactly 1")
    return tuple(branches)


def _parse_combat(raw: Any, check: _Checker, sections: Mapping[str, Any]) -> Combat:
    fight_check = _Checker(f"{check.where}combat.")
    data = fight_check.table(raw, "", _COMBAT_KEYS)
    evade_after = fight_check.whole(data, "evade_after", 0, None)
    if (evade_after is None) != ("evade" not in data):
        raise fight_check.fail("evade", "evade_after and evade go together")
    return Combat(
        enemies=_parse_enemies(data, fight_check),
        win=fight_check.section_id(data, "win", sections),
        evade_after=evade_after,
        evade=None if evade_after is None else fight_check.section_id(data, "evade", sections),
    )


def _parse_enemies(data: Mapping[str, Any], check: _Checker) -> tuple[Enemy, ...]:
    """One enemy written inline in the combat table, or ``enemies = [{...}, ...]`` fought
    one after another."""
    if "enemies" not in data:
        return (_parse_enemy(data, check),)
    inline = sorted(_ENEMY_KEYS & set(data))
    if inline:
        raise check.fail(inline[0], "give the enemy inline or in enemies, not both")
    raw = data["enemies"]
    if not isinstance(raw, list) or not raw:
        raise check.fail("enemies", f"must be a non-empty list of enemy tables, got {raw!r}")
    enemies = []
    for i, item in enumerate(raw, 1):
        enemy = _Checker(f"{check.where}enemies[{i}].")
        enemies.append(_parse_enemy(enemy.table(item, "", _ENEMY_KEYS), enemy))
    return tuple(enemies)


def _parse_enemy(data: Mapping[str, Any], check: _Checker) -> Enemy:
    return Enemy(
        name=check.text(data, "enemy"),
        combat_skill=check.whole(data, "combat_skill", None),
        endurance=check.whole(data, "endurance", 1, high=MAX_ENDURANCE),
        immune=check.names(data, "immune"),
    )


def _check_wins(book: Book, top: _Checker) -> None:
    """At least one win section, and every win section reachable from the start on the
    section graph (conditions ignored)."""
    wins = [name for name, section in book.sections.items() if section.win]
    if not wins:
        raise top.fail("section", "no section has win = true")
    seen = {book.start}
    stack = [book.start]
    while stack:
        for choice in book.sections[stack.pop()].choices:
            for target in choice.targets():
                if target not in seen:
                    seen.add(target)
                    stack.append(target)
    for name in wins:
        if name not in seen:
            raise BookError(
                f"{top.where}section {name}, win: unreachable from the start section {book.start}"
            )
