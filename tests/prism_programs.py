"""Random PRISM programs for hypothesis (:func:`programs`): one to three modules reading
each other's variables (the last perhaps a renamed copy of the first, whose formula then
reads the copy's variables), synchronising on shared action labels, with guards that
overlap, updates with exact probabilities, state and transition rewards, and deadlocks;
with reachability (F, U; also within a number of steps), its optima, rewards until a
target, within a number of steps (C<=k) or in the long run (S), the long-run share
of time in a label, and reaching a deadlock (PRISM's built-in label) as properties."""

from __future__ import annotations

from hypothesis import strategies as st


@st.composite
def programs(draw: st.DrawFn) -> tuple[str, str, list[str]]:
    """``(model type, PRISM text, properties)``."""
    kind = draw(st.sampled_from(["dtmc", "mdp"]))
    modules = draw(st.integers(1, 3))
    # the last module may be a renamed copy of the first (then a formula over the first
    # module's variables reads the copy's own in the copy)
    copied = modules >= 2 and draw(st.booleans())
    variables: list[tuple[str, int | None]] = []  # name, top (None: a bool)
    owned: list[list[tuple[str, int | None]]] = []
    for m in range(modules):
        if copied and m == modules - 1:
            mine = [(f"{name[0]}{m}", top) for name, top in owned[0]]
        else:
            mine = [(f"x{m}", draw(st.integers(1, 3)))]
            if draw(st.booleans()):
                mine.append((f"b{m}", None))
        owned.append(mine)
        variables.extend(mine)

    def condition() -> str:
        parts = [atom_of(variables, draw) for _ in range(draw(st.integers(1, 2)))]
        return f" {draw(st.sampled_from(['&', '|']))} ".join(parts)

    def assignment(name: str, top: int | None) -> str:
        if top is None:
            return f"({name}'={draw(st.sampled_from(['true', 'false', f'!{name}']))})"
        value = draw(
            st.sampled_from(
                [str(draw(st.integers(0, top))), f"min({top},{name}+1)", f"max(0,{name}-1)"]
            )
        )
        return f"({name}'={value})"

    lines = [kind, f"formula own = {atom_of(owned[0], draw)};"]
    used: set[str] = {""}
    for m, mine in enumerate(owned):
        if copied and m == modules - 1:
            renames = ", ".join(f"{a}={b}" for (a, _), (b, _) in zip(owned[0], mine, strict=True))
            lines.append(f"module m{m} = m0 [{renames}] endmodule")
            continue
        lines.append(f"module m{m}")
        for name, top in mine:
            lines.append(
                f"  {name} : bool init false;" if top is None else f"  {name} : [0..{top}] init 0;"
            )
        for _ in range(draw(st.integers(1, 3))):
            action = draw(st.sampled_from(["", "", "a", "b"]))
            used.add(action)
            weights = [draw(st.integers(1, 4)) for _ in range(draw(st.integers(1, 3)))]
            updates = []
            for w in weights:
                chosen = draw(
                    st.lists(st.sampled_from(mine), min_size=0, max_size=len(mine), unique=True)
                )
                writes = "&".join(assignment(n, t) for n, t in chosen) or "true"
                updates.append(f"{w}/{sum(weights)}:{writes}")
            guard = f"own & ({condition()})" if m == 0 and draw(st.booleans()) else condition()
            lines.append(f"  [{action}] {guard} -> {' + '.join(updates)};")
        lines.append("endmodule")
    lines.append('rewards "r"')
    lines.append(f"  {condition()} : {draw(st.sampled_from(['1', '2', '1/2']))};")
    lines.append(f"  [{draw(st.sampled_from(sorted(used)))}] {condition()} : 3;")
    lines.append("endrewards")
    # Storm's full build keeps labels, not the expressions of a property: name them
    lines.append(f'label "target" = {condition()};')
    lines.append(f'label "left" = {condition()};')
    optima = ["max", "min"] if kind == "mdp" else [""]
    properties = []
    for optimum in optima:
        properties.append(f'P{optimum}=? [F "target"]')
        properties.append(f'P{optimum}=? ["left" U "target"]')
        properties.append(f'R{{"r"}}{optimum}=? [F "target"]')
        properties.append(f'P{optimum}=? [F<=3 "target"]')  # within a number of steps
        properties.append(f'P{optimum}=? ["left" U<2 "target"]')
        properties.append(f'R{{"r"}}{optimum}=? [C<=3]')
        properties.append(f'S{optimum}=? ["target"]')  # the long run
        properties.append(f'R{{"r"}}{optimum}=? [S]')
    properties.append(f'P{optima[0]}=? [F "deadlock"]')  # PRISM's built-in label
    return kind, "\n".join(lines), properties


def atom_of(variables: list[tuple[str, int | None]], draw: st.DrawFn) -> str:
    """A comparison of one of ``variables`` with a value in its range."""
    name, top = draw(st.sampled_from(variables))
    if top is None:
        return name if draw(st.booleans()) else f"!{name}"
    return f"{name}{draw(st.sampled_from(['=', '<', '>=', '!=']))}{draw(st.integers(0, top))}"


#: A chain with one parametric move, at x=1: a question that stops at x=1 meets only
#: rational numbers.
ONE_PARAMETRIC_MOVE = (
    "dtmc const double p; module m x : [0..3] init 0;"
    " [] x=0 -> 1/2:(x'=1) + 1/3:(x'=2) + 1/6:(x'=0);"
    " [] x=1 -> p:(x'=3) + (1-p):(x'=0); [] x=2 -> 1/3:(x'=3) + 2/3:(x'=2);"
    " [] x=3 -> true; endmodule"
)


@st.composite
def reward_bounded_programs(draw: st.DrawFn) -> list[tuple[str, str, str, str]]:
    """Reward-bounded reachability in random programs (:func:`programs`): for each
    property, the program and property checked here and the program and property Storm
    checks for it: ``F`` and ``U`` bounded on the reward ``"r"`` above or below,
    strictly or not, by a whole or a half-way number (the rewards are 1/2, 1, 2 and 3),
    never ``< 0``, which no path meets but Storm counts as met on a start in the target.

    Storm's reward-bounded until is not the until's meaning where the start lies
    outside its left side (``x!=0 U^{rew{"r"}<=7} x=3`` is 1 from ``x=0``), and a lower
    bound is met there only if the target is absorbing (in a chain that stays on the
    target with probability 2/3 a step, gathering 1 a step, ``F^{rew{"r"}>=2}`` is 2/3
    for Storm, where staying two steps has probability 4/9). So Storm checks ``F`` in the
    program :func:`cut` at the until's left side, where a path that leaves it stays put
    and gathers nothing (the until's meaning), and a lower bound is checked on both
    sides in the program cut at the target, where the target is absorbing. A program
    with a renamed module copy, whose guards the renaming would change, is not cut: it
    gets upper bounds on ``F``. An interval of steps, ``F[a,b]``, Storm checks as it
    is (not ``U[a,b]``: ``a U[1,1] b`` is 1 for Storm from a start on ``b`` outside
    ``a``)."""
    kind, text, _ = draw(programs())
    copied = " = m0 [" in text
    target, left = _label(text, "target"), _label(text, "left")
    checks = []
    for optimum in ["max", "min"] if kind == "mdp" else [""]:
        for until in (False, not copied):
            relation = draw(st.sampled_from(["<=", "<"] if copied else ["<=", "<", ">=", ">"]))
            limit = draw(st.sampled_from(["1", "2.5", "4", "7"] + ["0"] * (relation != "<")))
            reach = f'P{optimum}=? [F^{{rew{{"r"}}{relation}{limit}}} "target"]'
            ours = reach.replace("[F", '["left" U') if until else reach
            lower = relation.startswith(">")
            checked = cut(text, f"!({target})") if lower else text
            if until:
                kept = f"({left}) & !({target})" if lower else left
                checks.append((checked, ours, cut(text, kept), reach))
            else:
                checks.append((checked, ours, checked, reach))
        # an interval of steps on F, which Storm reads as the definition does
        low = draw(st.integers(0, 3))
        steps = f'P{optimum}=? [F[{low},{low + draw(st.integers(0, 2))}] "target"]'
        checks.append((text, steps, text, steps))
    return checks


def _label(text: str, name: str) -> str:
    """The condition of the label ``name`` in a program of :func:`programs`."""
    line = next(line for line in text.splitlines() if line.startswith(f'label "{name}"'))
    return line.split("=", 1)[1].rstrip(";").strip()


def cut(text: str, condition: str) -> str:
    """The program of :func:`programs`' ``text`` with every command and the state
    reward guarded by ``condition``: a state outside it has no move (PRISM's self-loop,
    which earns no reward)."""
    lines, rewards = [], False
    for line in text.splitlines():
        rewards = rewards or line.startswith("rewards")
        if line.startswith("  [") and "->" in line:
            action, rest = line.split("]", 1)
            guard, updates = rest.split("->", 1)
            line = f"{action}] ({condition}) & ({guard.strip()}) ->{updates}"
        elif rewards and line.startswith("  ") and not line.startswith("  ["):
            guard, value = line.strip().split(" : ", 1)
            line = f"  ({condition}) & ({guard}) : {value}"
        lines.append(line)
    return "\n".join(lines)
