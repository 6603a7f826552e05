"""The gamebook file format: every validation error (file, section, field), a tiny book
derived by hand (with a tiny CRT), and the example book against an oracle written here
from the format's rules (transitions state by state, plain recursion on an acyclic variant,
and the Bellman optimality certificate on the full book with its loops)."""

from __future__ import annotations

import os
import tomllib
from collections import deque
from fractions import Fraction as F
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from exactprob.engine.choice_tree import SolutionNode, reachable_nodes
from exactprob.engine.exact.policies import evaluate
from exactprob.engine.exact.solving import solve_model
from exactprob.errors import ModelError
from exactprob.games.gamebook import fight, solve_choices, toml_file
from exactprob.games.gamebook.book import BookError, Hero, OngoingFight, load_book
from exactprob.games.gamebook.combat import COLUMN_LABELS

EXAMPLE = Path(__file__).parent.parent / "examples" / "books" / "the_salt_mine.toml"

# ======================================================================================
# Validation errors
# ======================================================================================

VALID = """
[book]
title = "Tiny"
start = 1
endurance = 5
combat_skill = 10
[section.1]
text = "start"
[[section.1.choices]]
text = "toss"
random = [{ p = "1/2", goto = 2 }, { p = "1/2", goto = 3 }]
[[section.1.choices]]
text = "fight"
combat = { enemy = "Rat", combat_skill = 8, endurance = 3, win = 2 }
[section.2]
win = true
[section.3]
death = true
"""


def write(tmp_path: Path, text: str, name: str = "broken.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_the_valid_base_book_loads(tmp_path):
    book = load_book(write(tmp_path, VALID))
    assert book.title == "Tiny" and book.initial == Hero("1", 5, frozenset(), 0)


BROKEN = [
    # (replace this, with this, fragments the message must hold)
    (
        "goto = 2 }, { p",
        "goto = 9 }, { p",
        ["section 1", "choices[1].random[1].goto", "unknown section 9"],
    ),
    ("start = 1\n", "", ["[book] start", "missing"]),
    ("start = 1\n", "start = 7\n", ["[book] start", "unknown section"]),
    ('p = "1/2", goto = 3', 'p = "1/3", goto = 3', ["section 1", "choices[1].random", "5/6"]),
    ('p = "1/2", goto = 3', 'p = "one half", goto = 3', ["section 1", "choices[1].random[2].p"]),
    ('p = "1/2", goto = 3', "p = 0.5, goto = 3", ["section 1", "choices[1].random[2].p"]),
    ('p = "1/2", goto = 3', 'p = "0", goto = 3', ["section 1", "choices[1].random[2].p", "> 0"]),
    ("endurance = 5", "endurance = -5", ["[book] endurance", ">= 1"]),
    ("endurance = 5", "endurance = 1001", ["[book] endurance", "<= 1,000"]),
    ("combat_skill = 10\n", "combat_skill = 10\ncombat_bonus = { a = 'x' }\n", ["combat_bonus.a"]),
    ("[section.3]\ndeath = true", "[section.3]\nchoices = [7]", ["section 3, choices[1]: must be"]),
    ("endurance = 3, win", "endurance = 10000, win", ["choices[2].combat.endurance", "<= 1,000"]),
    ("endurance = 3, win", "endurance = -3, win", ["section 1", "choices[2].combat.endurance"]),
    ('text = "start"', 'txet = "start"', ["section 1", "txet", "unknown key"]),
    ('text = "toss"', 'text = "toss"\nif_iten = "x"', ["section 1", "choices[1].if_iten"]),
    ('title = "Tiny"', 'titel = "Tiny"', ["[book] titel", "unknown key"]),
    ('enemy = "Rat"', 'enemy = "Rat", skill = 3', ["section 1", "choices[2].combat.skill"]),
    ("[section.2]\nwin", "[section.2]\nwinn", ["section 2", "winn", "unknown key"]),
    ("win = 2 }", "win = 2, evade_after = 1 }", ["section 1", "choices[2].combat.evade"]),
    ('text = "fight"', 'text = "fight"\ngoto = 3', ["section 1", "choices[2].goto", "exactly one"]),
    ("[section.3]\ndeath = true", "[section.3]\ntext = 'x'", ["section 3", "choices", "missing"]),
    ("[section.3]\ndeath", "[section.3]\nwin = true\ndeath", ["section 3", "death", "both"]),
    ("[section.2]\nwin = true", "[section.2]\ndeath = true", ["section", "no section has win"]),
    (
        'text = "toss"',
        'text = "toss"\nif_gold_at_least = -1',
        ["section 1", "choices[1].if_gold_at_least", ">= 0"],
    ),
    (
        'enemy = "Rat"',
        'enemies = [{ enemy = "Rat", combat_skill = 8, endurance = 3 }], enemy = "Rat"',
        ["section 1", "choices[2].combat.combat_skill", "not both"],
    ),
    (
        'enemy = "Rat", combat_skill = 8, endurance = 3,',
        "enemies = [],",
        ["section 1", "choices[2].combat.enemies", "non-empty"],
    ),
    (
        'enemy = "Rat", combat_skill = 8, endurance = 3,',
        (
            'enemies = [{ enemy = "Rat", combat_skill = 8, endurance = 3 }, '
            '{ enemy = "Bat", combat_skill = 8, endurance = 0 }],'
        ),
        ["section 1", "choices[2].combat.enemies[2].endurance", ">= 1"],
    ),
    (
        'enemy = "Rat", combat_skill = 8, endurance = 3,',
        'enemies = [{ enemy = "Rat", combat_skill = 8, endurance = 3, win = 2 }],',
        ["section 1", "choices[2].combat.enemies[1].win", "unknown key"],
    ),
]


@pytest.mark.parametrize("old, new, fragments", BROKEN)
def test_every_mistake_names_file_section_and_field(tmp_path, old, new, fragments):
    assert old in VALID
    path = write(tmp_path, VALID.replace(old, new, 1))
    with pytest.raises(BookError) as caught:
        load_book(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: ")
    for fragment in fragments:
        assert fragment in message, (fragment, message)


def test_a_win_section_unreachable_from_the_start_is_refused(tmp_path):
    # section 4 wins but nothing leads there (section 2 is now a death)
    text = VALID.replace("[section.2]\nwin", "[section.2]\ndeath") + "[section.4]\nwin = true\n"
    path = write(tmp_path, text)
    with pytest.raises(BookError, match=r"broken\.toml: section 4, win: unreachable"):
        load_book(path)


def test_invalid_toml_a_missing_file_and_a_bad_crt_name_the_file(tmp_path):
    with pytest.raises(BookError, match="broken.toml: not valid TOML"):
        load_book(write(tmp_path, VALID + "[section.9\n"))
    with pytest.raises(BookError, match="nowhere.toml: cannot read"):
        load_book(tmp_path / "nowhere.toml")
    write(tmp_path, 'name = "bad"\ncolumn = []\n', "crt.toml")
    text = VALID.replace("combat_skill = 10", 'combat_skill = 10\ncrt = "crt.toml"')
    with pytest.raises(BookError, match=r"broken\.toml: \[book\] crt: .*crt\.toml: 'column'"):
        load_book(write(tmp_path, text))


def test_book_errors_are_model_errors():
    assert issubclass(BookError, ModelError)


# ======================================================================================
# A tiny book derived by hand, with a tiny CRT
# ======================================================================================

# The tiny CRT: in every column, random numbers 0-4 cost the enemy 1 point, 5-9 the hero 1.
COIN_CRT = "\n".join(
    f'[[column]]\nratio = "{label}"\nresults = [{", ".join(["[1, 0]"] * 5 + ["[0, 1]"] * 5)}]'
    for label in COLUMN_LABELS
)

TINY = """
[book]
start = "hall"
endurance = 2
combat_skill = 10
gold = 4
crt = "coin.toml"
[section.hall]
[[section.hall.choices]]
text = "bribe"
if_gold_at_least = 5
goto = "gate"
[[section.hall.choices]]
text = "fight"
combat = { enemy = "Imp", combat_skill = 30, endurance = 1, win = "stair" }
[[section.hall.choices]]
text = "toss"
random = [{ p = "2/5", goto = "gate" }, { p = "3/5", goto = "pit" }]
[section.stair]
endurance = -1
[[section.stair.choices]]
text = "climb"
random = [{ p = "2/3", goto = "gate" }, { p = "1/3", goto = "pit" }]
[section.gate]
win = true
[section.pit]
death = true
"""


def test_tiny_book_by_hand(tmp_path):
    """Hand derivation. The bribe needs 5 gold (the hero has 4): not offered.
    Fight (each round a fair coin: enemy -1 or hero -1; the ratio does not matter here):
    won with endurance 2 if the first round hits the imp (1/2), won with 1 if the hero is
    hit once then hits (1/4), lost (1/4). The stair costs 1 endurance on arrival, so a win
    with 1 point left dies there; with 2 it climbs with 1 and reaches the gate with 2/3.
    Fight = 1/2 * 2/3 = 1/3 < toss = 2/5, so the answer is 2/5, by tossing."""
    (tmp_path / "coin.toml").write_text(COIN_CRT)
    book = load_book(write(tmp_path, TINY, "tiny.toml"))
    start = book.initial
    listed = dict(book.choices(start))
    assert list(listed) == ["fight", "toss"]
    assert dict(listed["fight"].items()) == {
        Hero("stair", 1, frozenset(), 4): F(1, 2),
        Hero("stair", 0): F(1, 4),
        Hero("hall", 0): F(1, 4),
    }
    tree = solve_choices(book.choices, book.score, start)
    assert (tree.description, tree.score) == ("toss", F(2, 5))
    assert book.score(Hero("gate", 0)) == 1 and book.score(Hero("stair", 0)) == 0


EVADE = """
[book]
start = "hall"
endurance = 2
combat_skill = 10
crt = "coin.toml"
[section.hall]
[[section.hall.choices]]
text = "fight"
combat = { enemy = "Imp", combat_skill = 10, endurance = 2, win = "gate", evade_after = 1, evade = "door" }
[section.door]
[[section.door.choices]]
text = "run"
random = [{ p = "3/5", goto = "gate" }, { p = "2/5", goto = "pit" }]
[section.gate]
win = true
[section.pit]
death = true
"""


def test_when_to_evade_is_chosen_round_by_round_by_hand(tmp_path):
    """Hand derivation with the coin CRT (each round: the imp loses 1 or the hero loses 1,
    1/2 each; evading costs the hero 1 with probability 1/2, then the door wins with 3/5).
    Fighting to the end from (hero, imp) endurances: W(1,1) = 1/2, W(2,1) = 3/4,
    W(1,2) = 1/4, W(2,2) = 1/2. Evading from hero endurance 2 gives 3/5, from 1 gives
    3/10. Evasion is allowed after the first round, which is fought: from (2,1) fight on
    (3/4 > 3/5), from (1,2) evade (3/10 > 1/4), so the value is (3/4 + 3/10)/2 = 21/40,
    more than fighting to the end (1/2) or evading at the first chance ((3/5 + 3/10)/2 =
    9/20)."""
    (tmp_path / "coin.toml").write_text(COIN_CRT)
    book = load_book(write(tmp_path, EVADE, "evade.toml"))
    tree = solve_choices(book.choices, book.score, book.initial)
    assert tree.score == F(21, 40)
    decisions = {
        (node.state.endurance, node.state.fight.enemy_endurance): node.ties
        for node in reachable_nodes(tree)
        if isinstance(node, SolutionNode) and node.state.fight and node.state.fight.rounds
    }
    assert decisions == {
        (2, 1): ("fight on",),
        (1, 1): ("fight on",),  # reached from (2, 1): 1/2 > 3/10
        (1, 2): ("evade to section door",),
    }
    hero = Hero("hall", 1, fight=OngoingFight(0, 0, 2, 1))
    assert book.describe(hero) == (
        "section hall with endurance 1, 0 gold, no items, fighting Imp (endurance 2) after 1 rounds"
    )
    assert str(hero).endswith("fighting enemy 1 (endurance 2) after 1 rounds")


def always_evade(book):
    """The policy "evade at the first chance" (the last choice offered in a fight)."""
    return lambda hero: len(book.choices(hero)) - 1 if hero.fight else 0


@pytest.mark.parametrize(
    "hero, enemy, ratio, rounds", [(9, 8, 0, 2), (12, 10, -4, 0), (6, 9, 5, 3)]
)
def test_evading_at_the_first_chance_is_combat_fight_with_evade_after(
    tmp_path, hero, enemy, ratio, rounds
):
    """The round-by-round fight under the policy "evade as soon as allowed" has the value
    combat.fight(..., evade_after=k) gives (forward propagation, tested on its own): P(won)
    + 3/5 P(evaded); the optimum is at least that and at least fighting to the end."""
    text = (
        EVADE.replace('crt = "coin.toml"\n', "")
        .replace("endurance = 2\n", f"endurance = {hero}\n")
        .replace("combat_skill = 10, endurance = 2", f"combat_skill = {10 - ratio}, endurance = {enemy}")
        .replace("evade_after = 1", f"evade_after = {rounds}")
    )  # fmt: skip
    book = load_book(write(tmp_path, text, "evade.toml"))
    worth = {"won": F(1), "evaded": F(3, 5), "lost": F(0)}
    fought = fight(book.crt, hero, enemy, ratio, evade_after=rounds)
    first_chance = sum(p * worth[outcome[0]] for outcome, p in fought.items())
    assert evaluate(Model(book), always_evade(book)).value() == first_chance
    to_the_end = sum(p for outcome, p in fight(book.crt, hero, enemy, ratio).items()
                     if outcome[0] == "won")  # fmt: skip
    optimum = solve_choices(book.choices, book.score, book.initial).score
    assert optimum >= max(first_chance, to_the_end) and 0 < optimum < 1


def test_endurance_gold_caps_and_dead_ends(tmp_path):
    """Arrival effects are clamped: endurance to [0, start], gold to [0, max_gold]; a
    section whose every choice fails its condition is a dead end scored 0."""
    text = VALID.replace("[section.2]\nwin", "[section.4]\nendurance = 9\ngold = -9\n"
                         "[[section.4.choices]]\ntext = 'x'\nif_item = 'key'\ngoto = 2\n"
                         "[section.2]\nwin")  # fmt: skip
    book = load_book(write(tmp_path, text, "caps.toml"))
    hero = book.arrive(Hero("1", 2, frozenset({"key"}), 3), "4")
    assert hero == Hero("4", 5, frozenset({"key"}), 0)  # 2 + 9 kept at 5, 3 - 9 kept at 0
    assert book.score(hero) is None and book.score(book.arrive(hero, "2")) == 1
    # without the key nothing is offered: a dead end, collapsed like every ending
    assert book.offered(Hero("4", 5)) == () and book.score(Hero("4", 5)) == 0
    assert book.arrive(Hero("1", 2, frozenset(), 3), "4") == Hero("4", 0)


# ======================================================================================
# The example book against an oracle written from the format's rules
# ======================================================================================


class Oracle:
    """The format's semantics straight from the parsed TOML (no exactprob.games.gamebook.book):
    states are (section, endurance, items, gold, fight) tuples, fight None or (choice
    position, enemy position, enemy endurance, rounds fought up to evade_after). Fights
    without evasion compose combat.fight (tested on its own against enumeration); fights
    with evasion are played here round by round from the table's cells."""

    def __init__(self, data: dict) -> None:
        self.book = data["book"]
        self.sections = {str(k): v for k, v in data["section"].items()}
        self.max_e = self.book["endurance"]

    def ending(self, name):
        return (name, 0, frozenset(), 0, None)

    def arrive(self, state, target):
        target = str(target)
        sec = self.sections[target]
        if sec.get("win") or sec.get("death"):
            return self.ending(target)
        e = min(self.max_e, max(0, state[1] + sec.get("endurance", 0)))
        if e == 0:
            return self.ending(target)
        items = (state[2] | set(sec.get("gain", []))) - set(sec.get("lose", []))
        gold = min(self.book.get("max_gold", 50), max(0, state[3] + sec.get("gold", 0)))
        arrived = (target, e, frozenset(items), gold, None)
        return arrived if self.offered(arrived) else self.ending(target)  # a dead end

    def offered(self, state):
        out = []
        for position, c in enumerate(self.sections[state[0]].get("choices", [])):
            if "if_item" in c and c["if_item"] not in state[2]:
                continue
            if "if_not_item" in c and c["if_not_item"] in state[2]:
                continue
            if "if_discipline" in c and c["if_discipline"] not in self.book["disciplines"]:
                continue
            if "if_gold_at_least" in c and state[3] < c["if_gold_at_least"]:
                continue
            out.append((position, c))
        return out

    def score(self, state):
        if state[4] is not None:
            return None
        sec = self.sections[state[0]]
        if sec.get("win"):
            return F(1)
        if sec.get("death") or state[1] == 0 or not self.offered(state):
            return F(0)
        return None

    def enemies(self, combat):
        return combat.get("enemies", [combat])

    def ratio(self, state, enemy):
        bonus = sum(
            v
            for k, v in self.book.get("combat_bonus", {}).items()
            if k in state[2] or (k in self.book["disciplines"] and k not in enemy.get("immune", []))
        )  # fmt: skip
        return self.book["combat_skill"] + bonus - enemy["combat_skill"]

    def with_endurance(self, state, e, goal):
        return self.arrive((state[0], e, state[2], state[3], None), goal)

    def choices(self, state, crt):
        if state[4] is not None:
            return self.fight_choices(state, crt)
        listed = []
        for position, c in self.offered(state):
            out: dict = {}
            if "goto" in c:
                out[self.arrive(state, c["goto"])] = F(1)
            elif "random" in c:
                for b in c["random"]:
                    t = self.arrive(state, b["goto"])
                    out[t] = out.get(t, 0) + F(b["p"])
            elif "evade" in c["combat"]:
                first = self.enemies(c["combat"])[0]["endurance"]
                out[state[:4] + ((position, 0, first, 0),)] = F(1)
            else:
                alive = {state[1]: F(1)}
                for enemy in self.enemies(c["combat"]):
                    after: dict = {}
                    for e, p in alive.items():
                        if e == 0:  # lost to an earlier enemy
                            after[0] = after.get(0, 0) + p
                            continue
                        for result, q in fight(crt, e, enemy["endurance"],
                                               self.ratio(state, enemy)).items():  # fmt: skip
                            key = 0 if result == ("lost",) else result[1]
                            after[key] = after.get(key, 0) + p * q
                    alive = after
                for e, p in alive.items():
                    t = self.ending(state[0]) if e == 0 else self.with_endurance(
                        state, e, c["combat"]["win"])  # fmt: skip
                    out[t] = out.get(t, 0) + p
            listed.append((c["text"], out))
        return listed

    def fight_choices(self, state, crt):
        position, which, enemy_e, rounds = state[4]
        combat = self.sections[state[0]]["choices"][position]["combat"]
        enemies = self.enemies(combat)
        cells = crt.cells(self.ratio(state, enemies[which]))
        rounds = min(rounds + 1, combat["evade_after"])
        fight_on: dict = {}
        for enemy_loss, hero_loss in cells:
            h = 0 if hero_loss == "K" else max(0, state[1] - hero_loss)
            e = 0 if enemy_loss == "K" else max(0, enemy_e - enemy_loss)
            if h == 0:
                t = self.ending(state[0])
            elif e > 0:
                t = (state[0], h, state[2], state[3], (position, which, e, rounds))
            elif which + 1 < len(enemies):
                following = (position, which + 1, enemies[which + 1]["endurance"], rounds)
                t = (state[0], h, state[2], state[3], following)
            else:
                t = self.with_endurance(state, h, combat["win"])
            fight_on[t] = fight_on.get(t, 0) + F(1, 10)
        listed = [("fight on", fight_on)]
        if state[4][3] >= combat["evade_after"]:
            evade: dict = {}
            for _, hero_loss in cells:
                h = 0 if hero_loss == "K" else max(0, state[1] - hero_loss)
                t = self.ending(state[0]) if h == 0 else self.with_endurance(
                    state, h, combat["evade"])  # fmt: skip
                evade[t] = evade.get(t, 0) + F(1, 10)
            listed.append((f"evade to section {combat['evade']}", evade))
        return listed


def as_tuple(hero: Hero):
    fight = hero.fight
    if fight is not None:
        fight = (fight.choice, fight.enemy, fight.enemy_endurance, fight.rounds)
    return (hero.section, hero.endurance, hero.items, hero.gold, fight)


def as_hero(state) -> Hero:
    return Hero(*state[:4], None if state[4] is None else OngoingFight(*state[4]))


def example_oracle(text: str | None = None):
    data = tomllib.loads(text if text is not None else EXAMPLE.read_text())
    return Oracle(data)


def assert_transitions_match(book, oracle) -> int:
    """The book's choices equal the oracle's in every reachable state; returns the count."""
    seen, queue = {as_tuple(book.initial)}, deque([book.initial])
    while queue:
        hero = queue.popleft()
        state = as_tuple(hero)
        assert book.score(hero) == oracle.score(state)
        if oracle.score(state) is not None:
            continue
        mine = [(text, {as_tuple(h): p for h, p in d.items()}) for text, d in book.choices(hero)]
        assert mine == oracle.choices(state, book.crt)
        for _, dist in book.choices(hero):
            for nxt in dist:
                if as_tuple(nxt) not in seen:
                    seen.add(as_tuple(nxt))
                    queue.append(nxt)
    return len(seen)


def test_example_book_transitions_equal_the_oracle_in_every_reachable_state():
    book = load_book(EXAMPLE)
    assert as_tuple(book.initial) == ("1", 16, frozenset({"pick"}), 4, None)
    assert 200 < assert_transitions_match(book, example_oracle()) < 20_000


KEEPER = 'enemy = "Keeper", combat_skill = 14, immune = ["Mind Strike"], endurance = 10,'
TWO_KEEPERS = (
    'enemies = [{ enemy = "Keeper", combat_skill = 14, immune = ["Mind Strike"], endurance = 6 },'
    ' { enemy = "Ward", combat_skill = 9, endurance = 5 }],'
)


def test_two_enemies_with_evasion_match_the_oracle(tmp_path):
    """Evasion counted over both enemies, the keeper's immunity only against him."""
    text = EXAMPLE.read_text().replace(KEEPER, TWO_KEEPERS)
    book = load_book(write(tmp_path, text, "two_keepers.toml"))
    assert 200 < assert_transitions_match(book, example_oracle(text)) < 40_000


def without(text: str, lines: list[str]) -> str:
    for line in lines:
        assert text.count(line) == 1, line
        text = text.replace(line, "")
    return text


# The loops of the example: the corridor (6 -> 5, 8 -> 6 back away, the spring 6 -> 9 -> 6)
# and the evasion loop 21 -> 23 -> 21. Cutting them leaves an acyclic book.
ACYCLIC_CUTS = [
    '[[section.6.choices]]\ntext = "Walk back west"\ngoto = 5\n',
    '[[section.8.choices]]\ntext = "Back away to the gallery"\ngoto = 6\n',
    '[[section.6.choices]]\ntext = "Follow the trickle of water"\ngoto = 9\n',
]


def test_acyclic_variant_equals_plain_recursion(tmp_path):
    text = without(EXAMPLE.read_text(), ACYCLIC_CUTS).replace(
        '{ p = "3/5", goto = 21 }', '{ p = "3/5", goto = 29 }'
    )
    book = load_book(write(tmp_path, text, "acyclic.toml"))
    oracle = example_oracle(text)

    @cache
    def value(state):
        known = oracle.score(state)
        if known is not None:
            return known
        return max(
            sum(p * value(t) for t, p in dist.items())
            for _, dist in oracle.choices(state, book.crt)
        )

    expected = value(as_tuple(book.initial))
    assert 0 < expected < 1
    assert solve_choices(book.choices, book.score, book.initial).score == expected


class Model:
    """The book as an engine model, to get the value of every reachable state."""

    def __init__(self, book):
        self.book, self.initial = book, book.initial

    def outcome(self, s):
        return self.book.score(s)

    def actions(self, s):
        return range(len(self.book.choices(s)))

    def transition(self, s, a):
        return self.book.choices(s)[a][1]


def test_example_book_value_is_certified_optimal_with_its_loops():
    """With the loops, the oracle certifies the solver's values V: (1) Bellman optimality
    V(s) = max_c sum_t P_c(t) V(t) exactly at every reachable state, with the oracle's
    transitions; (2) the chosen policy is proper (from every state it reaches a known
    state), so V is that policy's value (the unique solution of its equations) and a
    fixed point of the Bellman operator; the optimum is its least fixed point and at least
    any policy's value, hence V is the optimum."""
    book = load_book(EXAMPLE)
    oracle = example_oracle()
    solution = solve_model(Model(book))
    value = {as_tuple(s): solution.value(s) for s in solution.states}
    chosen: dict = {}
    for state, v in value.items():
        if oracle.score(state) is not None:
            assert v == oracle.score(state)
            continue
        listed = oracle.choices(state, book.crt)
        totals = [sum(p * value[t] for t, p in dist.items()) for _, dist in listed]
        assert v == max(totals)
        chosen[state] = set(listed[solution.policy(as_hero(state))][1])
        assert totals[solution.policy(as_hero(state))] == v
    # properness: backwards search from the known states over the policy's edges
    parents: dict = {}
    for s, targets in chosen.items():
        for t in targets:
            parents.setdefault(t, set()).add(s)
    done = {s for s in value if s not in chosen}
    queue = deque(done)
    while queue:
        for s in parents.get(queue.popleft(), ()):
            if s not in done:
                done.add(s)
                queue.append(s)
    assert done == set(value)
    tree = solve_choices(book.choices, book.score, book.initial)
    assert tree.score == value[as_tuple(book.initial)]
    assert 0 < tree.score < 1
    # the book really loops: some state is its own grandchild (the corridor 5 -> 6 -> 5)
    successors = {s: {t for _, d in oracle.choices(s, book.crt) for t in d} for s in chosen}
    assert any(s in successors.get(t, ()) for s in chosen for t in successors[s])


def test_example_book_uses_every_feature():
    data = tomllib.loads(EXAMPLE.read_text())
    sections = data["section"]
    assert 20 <= len(sections) <= 40
    choices = [c for s in sections.values() for c in s.get("choices", [])]
    combats = [c["combat"] for c in choices if "combat" in c]
    assert any("evade" in c for c in combats) and any("evade" not in c for c in combats)
    assert any(len(c.get("enemies", [])) > 1 for c in combats)
    assert any("immune" in c for c in combats) and any("random" in c for c in choices)
    for key in ("if_item", "if_not_item", "if_discipline", "if_gold_at_least"):
        assert any(key in c for c in choices), key
    assert any("gain" in s for s in sections.values())
    assert any("gold" in s for s in sections.values())
    assert sum(bool(s.get("win")) for s in sections.values()) == 1
    assert any(s.get("death") for s in sections.values())
    assert "crt" not in data["book"]  # the shipped example table


@pytest.mark.parametrize(
    "make, fragment",
    [
        (lambda d: _write(d / "deep.toml", "a = " + "[" * 5000 + "]" * 5000), "nested too deeply"),
        (lambda d: Path("/dev/zero"), "not a regular file"),
        (lambda d: _fifo(d / "book.toml"), "not a regular file"),
        (lambda d: d, "not a regular file"),
        (lambda d: _write(d / "big.toml", "#" * 30_000), "larger than"),
    ],
    ids=["nested", "device", "fifo", "directory", "too large"],
)
def test_a_book_that_is_not_a_small_regular_toml_file_is_refused_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make: Any, fragment: str
) -> None:
    """Reading never hangs (a pipe), never fills memory (/dev/zero) and never overflows
    the stack (deep nesting): one BookError naming the file."""
    monkeypatch.setattr(toml_file, "MAX_TOML_BYTES", 20_000)
    path = make(tmp_path)
    with pytest.raises(BookError, match=fragment) as caught:
        load_book(path)
    assert str(path) in str(caught.value)


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path
