"""Scenarios: a rulebook situation, scripted decisions and expectations, checked exactly.

A scenario file names a ruleset, the seed and player count, blocks that arrange the table
(`before_setup`, `situation`), a `script` of choices and checks, and `expect`ations at the end.
A scenario is loaded and compiled once (`load_scenario`), then played under its own seed or any
other (`Scenario.play`): `racecraft check --seeds 1..20` tries an arrangement on other seeds.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
import re
from pathlib import Path
from typing import Any

from ..agents.base import RandomAgent
from ..check.checked import RefKind
from ..check.scenarios import Scenarios
from ..check.symbols import BUILTIN_EVENTS
from ..compile import Hooked, Hooks, compile_hooked
from ..engine.game import Game, reading
from ..engine.vm import Watch
from ..lang import nodes as n
from ..lang import unparse
from ..base.diagnostics import Loc, Report, did_you_mean
from ..base.errors import RuleError
from ..base.files import tidy
from ..lang.parser import parse_block, parse_expr
from ..lang.show import show
from ..lang.types import INT, SEAT, Type, compatible
from ..lang.versions import ENGINE_CHANGES
from .related import as_named
from ..load.ruleset import Ruleset, load_ruleset, read_file
from ..load.structure import check_structure
from ..load.yamlsrc import loc_of


@dataclass
class Outcome:
    path: Path
    name: str
    passed: bool
    report: Report = field(default_factory=Report)
    steps: int = 0
    seed: int | None = None


@dataclass
class _Check:
    """A condition of the scenario: its text, its tree (to say why it is false) and its code."""
    src: str                     # with its position in the file
    node: n.Expr
    fn: Any


@dataclass
class _Item:
    """A script item, compiled."""
    src: Any                     # the ScriptItem
    loc: Loc
    stop: str | None = None      # "step:ID" or "event:NAME": where the game stops for this item
    remember: list = field(default_factory=list)   # [(name, fn, where)]
    expect: _Check | None = None
    seat: Any = None             # fn giving the expected seat, when `expect_seat` is an expression
    seat_type: Type = INT


@dataclass
class Scenario:
    """A scenario file loaded and compiled: played under any seed with `play`."""
    path: Path
    name: str
    sc: Any                      # the ScenarioFile
    comp: Hooked                 # the game compiled (its plan, and more expressions)
    items: list[_Item]
    final: list[_Check]
    warnings: list = field(default_factory=list)
    ruleset: Ruleset | None = None

    @cached_property
    def changes(self) -> list:
        """The changes of behaviour of the engine and of the ruleset's files that may explain a
        failure: (what changed, where said). Worked out when a failure asks (a walk of every rule)."""
        rs = self.ruleset
        if rs is None:
            return []
        return [(c, "Racecraft's CHANGELOG") for c in ENGINE_CHANGES if _holds(rs, c.uses)] + \
            [(c, str(as_named(Path(where)))) for c, where in rs.changes]

    def play(self, seed: int | None = None) -> Outcome:
        return _Run(self, self.sc.seed if seed is None else seed).go()

    def table(self, choices: int) -> tuple[Game | None, Outcome]:
        """The game as its script leaves it after its first `choices` choices, with its own seed
        (`render`): played as `check` plays it, every item up to the next choice, none of its checks
        of the end. The game is None when its setup failed (the outcome says why)."""
        run = _Run(self, self.sc.seed)
        run.cap = choices
        run.go()
        return run.game, run.out


def run_scenario(path: Path | str, seed: int | None = None) -> Outcome:
    """Load and play a scenario file, with its own seed or `seed`."""
    scenario, failed = load_scenario(Path(path))
    return failed if scenario is None else scenario.play(seed)


def run_seeds(path: Path | str, seeds: list[int]) -> list[Outcome]:
    """Load a scenario once and play it under each seed (one outcome when it cannot be loaded)."""
    scenario, failed = load_scenario(Path(path))
    return [failed] if scenario is None else [scenario.play(s) for s in seeds]


def _ruleset(path: Path, sc: Any, report: Report) -> Ruleset | None:
    return load_ruleset(path, sc.variants, sc.modules, report, track=sc.track, params=dict(sc.params) or None)


def load_scenario(path: Path) -> tuple[Scenario | None, Outcome]:
    """The scenario compiled, or None and an outcome that says why not."""
    report = Report()
    out = Outcome(path, path.stem, False, report)
    data = read_file(path, report)
    if data is None:
        return None, out
    sc = check_structure(data, "scenario", str(path), report)
    if sc is None:
        return None, out
    out.name = str(sc.scenario.name)
    rs = _ruleset(tidy(path.parent / sc.ruleset), sc, report)
    if rs is None:
        return None, out
    # the scenario's own rules are parsed here, once, like the game's
    blocks = {key: parse_block(getattr(sc, key), report) if getattr(sc, key) is not None else None
              for key in ("before_setup", "situation")}
    items = [_Item(item, _item_loc(data, i, path)) for i, item in enumerate(sc.script)]
    parsed: list[dict] = []
    for item in items:
        src = item.src
        parsed.append({
            "remember": [(name, parse_expr(code, report)) for name, code in (src.remember or {}).items()],
            "expect": parse_expr(src.expect, report) if src.expect is not None else None,
            "seat": parse_expr(src.expect_seat, report) if isinstance(src.expect_seat, str) else None})
    final_exprs = [parse_expr(code, report) for code in sc.expect]
    if not report.ok:
        return None, out
    hooks = Hooks(blocks["before_setup"], blocks["situation"], sc.round,
                  stops=any(i.src.step is not None or i.src.event is not None for i in items),
                  after_setup=sc.setup == "random")
    comp = compile_hooked(rs, sc.players, report, hooks)
    if comp is None:
        return None, out
    checker: Scenarios = comp.ck.checker   # a checked ruleset keeps its checker for more expressions
    steps = [str(s.id) for ph in comp.rules.phases for s in ph.steps]
    names: dict[str, Type] = {}   # the values remembered so far, by type

    def condition(src: str, node: n.Expr) -> _Check:
        node = checker.expectation(node, names)
        return _Check(src, node, comp.expectation(node) if report.ok else None)

    for item, exprs in zip(items, parsed):
        src = item.src
        item.stop = _stop(src, item.loc, steps, report)
        for (name, node), code in zip(exprs["remember"], (src.remember or {}).values()):
            why = checker.scenario_name(str(name))
            if why is not None:
                report.add("E412", f"`remember` cannot use this name: {why}", loc_of(name, item.loc),
                           "choose another name")
                continue
            node, typ = checker.scenario_value(node, names)
            item.remember.append((str(name), comp.expectation(node) if report.ok else None, loc_of(code)))
            names[str(name)] = typ
        if exprs["expect"] is not None:
            item.expect = condition(src.expect, exprs["expect"])
        if exprs["seat"] is not None:
            node = exprs["seat"]
            node, item.seat_type = checker.scenario_value(node, names)
            if not (compatible(item.seat_type, SEAT) or compatible(item.seat_type, INT)):
                checker.type_error(f"`expect_seat` must be a seat or a seat number, not {item.seat_type}",
                                   node)
            item.seat = comp.expectation(node) if report.ok else None
    final = [condition(code, node) for code, node in zip(sc.expect, final_exprs) if node is not None]
    if not report.ok:
        return None, out
    return Scenario(path, out.name, sc, comp, items, final, list(report.items), rs), out



def _holds(rs, uses: tuple[str, ...]) -> bool:
    """Do the game's rules hold one of `uses`: a built-in called so, or (`emit`) an event emitted
    with values? (An engine change that did not touch them cannot explain a failure.)"""
    if not uses:
        return True
    for rule in rs.rules.rules.values():
        for x in n.walk(rule.tree) if rule.tree is not None else ():
            if (isinstance(x, n.Call) and x.name in uses) or \
                    (isinstance(x, n.Emit) and x.args and "emit" in uses):
                return True
    return False


def _stop(src, where: Loc, steps: list[str], report: Report) -> str | None:
    """Where an item stops the game (`step:` or `event:`), checked against the game's names."""
    if src.step is not None and src.event is not None:
        report.add("E411", "a script item stops at one place: `step` or `event`, not both", where)
        return None
    if src.step is not None:
        if str(src.step) not in steps:
            report.add("E411", f"the game has no step `{src.step}`", loc_of(src.step, where),
                       did_you_mean(str(src.step), steps) or "its steps: " + ", ".join(steps))
            return None
        return f"step:{src.step}"
    if src.event is not None:
        if str(src.event) not in BUILTIN_EVENTS:
            report.add("E411", f"`event:` takes an event the game raises itself, not `{src.event}`",
                       loc_of(src.event, where), did_you_mean(str(src.event), BUILTIN_EVENTS)
                       or "the events: " + ", ".join(BUILTIN_EVENTS))
            return None
        return f"event:{src.event}"
    return None


def _place(stop: str) -> str:
    kind, name = stop.split(":", 1)
    return f"step `{name}`" if kind == "step" else f"the triggers of `{name}`"


class _Stopped(Exception):
    """The scenario ends here (its report says why, or it passed)."""


class _Run:
    """One play of a scenario under a seed."""

    def __init__(self, scenario: Scenario, seed: int):
        self.sc = scenario
        self.report = Report(list(scenario.warnings))
        self.out = Outcome(scenario.path, scenario.name, False, self.report, seed=seed)
        self.seed = seed
        self.memory: dict[str, Any] = {}     # what the script remembered, by name
        self.pending: RuleError | None = None  # a rule error not yet reported
        self.after: Loc | None = None          # the script item after which the game played on
        self.game: Any = None                  # stays None when setup fails (`pending` says why)
        self.item: Any = None                  # the script item played now (a ScriptItem)
        self.cap: int | None = None            # stop before the choice after this many (`table`)
        self.chosen = 0

    def go(self) -> Outcome:
        try:
            self._play()
            self.out.passed = self.report.ok
        except _Stopped:
            pass
        return self.out

    def fail(self, code: str, message: str, loc, hint: str | None = None, notes: tuple = ()) -> None:
        # (not the rule a message names at its end, "(in rule `triggers.x`)": no word of the failure)
        said = re.sub(r"\(in rule `[^`]*`\)", "", " ".join([message, hint or "", *notes,
                                                            _text_of(self.item)])).casefold()
        for change, where in self.sc.changes:
            if any(word.casefold() in said for word in change.touches):
                notes = (*notes, f"a change of behaviour may explain it ({change.since}, said in "
                                 f"{where}): {change.said}")
        self.report.add(code, message, loc, hint, notes)
        raise _Stopped

    def _play(self) -> None:
        sc, items = self.sc.sc, self.sc.items
        first = items[0].stop if items else None
        watch = Watch(forced=sc.forced == "ask", stop="setup" if sc.setup == "random" else first)
        try:
            self.game = Game(self.sc.comp.plan, self.seed, carried=sc.carried, watch=watch)
            if sc.setup == "random":    # setup's questions answered by seeded random players
                bots = [RandomAgent(f"{self.seed}/{s}") for s in range(self.game.plan.n_seats)]
                while self.game.stopped != "setup":
                    d = self.game.decision()
                    assert d is not None, "a game stops after its setup before it ends"
                    self.game.choose(bots[d.seat].choose(self.game, d), d.seat)
                self.game.play_on(first)
        except RuleError as e:
            self.pending = e
        for i, item in enumerate(items):
            if self.cap is not None and item.src.choose is not None and self.chosen == self.cap:
                break
            self._item(item, items[i + 1].stop if i + 1 < len(items) else None)
            self.out.steps += 1
        if self.pending is not None:
            self._rule_error(self.pending)
        if self.cap is not None:
            return
        game = self.game
        if sc.until == "end":
            watch.forced, watch.stop = False, None
            if game.st.simul is not None:
                for c in game.st.simul.commits:
                    if c.st is not None:
                        c.st.watch = None
            bots = [RandomAgent(f"{self.seed}/{s}") for s in range(game.plan.n_seats)]
            try:
                if game.stopped:
                    game.play_on()
                while not game.over:
                    d = game.decision()
                    game.choose(bots[d.seat].choose(game, d))
            except RuleError as e:
                self._rule_error(e, "random bots were playing on to the end")
        self.item = None
        for check in self.sc.final:
            self._expect(check, _state(game), Loc(str(self.sc.path)))
        if sc.winners is not None:
            where = loc_of(sc.scenario.name)
            if not game.over:
                self.fail("E408", "expected the game to be over", where, _context(game))
            got = [s + 1 for s in game.result()["winners"]]
            if sorted(got) != sorted(sc.winners):
                self.fail("E408", f"winners are {_seats(got)}, not {_seats(sc.winners)}", where,
                          _context(game))

    def _item(self, item: _Item, next_stop: str | None) -> None:
        src, where, game = item.src, item.loc, self.game
        self.item = src
        # a game stopped after a place stays there for checks of the table; an item about the
        # decision (or a rule error) first lets it play on to the next decision
        asks = src.expect_seat is not None or src.expect_options is not None or src.choose is not None \
            or src.expect_error is not None
        if self.pending is None and item.stop is None and asks and game.stopped:
            self._run(game.play_on)
        if src.expect_error is not None:
            if self.pending is None:
                self.fail("E403", f"expected the rule error `{src.expect_error}`, but none happened", where)
            if str(src.expect_error) not in str(self.pending):
                self.fail("E403", f"expected the rule error `{src.expect_error}`, got: {self.pending}", where)
            self.out.passed = self.report.ok
            raise _Stopped
        if self.pending is not None:
            self._rule_error(self.pending)
        if item.stop is not None and game.stopped != item.stop:
            self.fail("E410", f"the game did not stop after {_place(item.stop)}: " + _instead(game),
                      loc_of(src.step if src.step is not None else src.event, where),
                      "a `choose` must come before it, or the place comes later in the game"
                      if game.decision() is not None and not game.over else None)
        st = game.st if src.real_table else _state(game)
        for name, fn, at in item.remember:
            self.memory[name] = self._value(fn, st, at)
        if item.expect is not None:
            self._expect(item.expect, st, where)
        if asks and game.stopped:   # looked at a place; the rest of the item is about the next decision
            self.after = where
            self._run(game.play_on)
            if self.pending is not None:
                self._rule_error(self.pending)
            st = game.st if src.real_table else _state(game)
        if src.expect_seat is not None:
            self._expect_seat(item, st)
        if src.expect_options is not None:
            self._expect_options(src.expect_options, where)
        self.after = where
        if src.choose is not None:
            self._choose(str(src.choose), where, next_stop)
        elif next_stop is not None and game.stopped:
            self._run(lambda: game.play_on(next_stop))

    def _run(self, action) -> None:
        """Let the game play on; a rule error is reported by the next item (or expected by it)."""
        try:
            action()
        except RuleError as e:
            self.pending = e

    def _rule_error(self, e: RuleError, doing: str | None = None) -> None:
        """E404 at the failing rule's own position (a situation's line, a game rule's)."""
        after = self.after
        if doing is None:
            doing = (f"the game was playing on after the script item at {after}" if after is not None
                     else "the game was setting up, before the first script item")
        self.fail("E404", f"rule error: {_said(e)}", e.loc or after or Loc(str(self.sc.path)),
                  f"{doing} (in rule `{e.rule}`)" if e.rule else doing)

    def _value(self, fn, st, where):
        try:
            return reading(st, lambda: fn(st, self.memory))
        except RuleError as e:
            self.fail("E405", f"the expectation failed with a rule error: {_said(e)}", e.loc or where)

    def _expect(self, check: _Check, st, where) -> None:
        if self._value(check.fn, st, loc_of(check.src, where)):
            return
        notes = reading(st, lambda: _explain(self, check.node, st))
        self.fail("E401", f"expectation is false: {check.src}", loc_of(check.src, where),
                  _context(self.game, st), tuple(notes))

    def _expect_seat(self, item: _Item, st) -> None:
        src, d = item.src, self.game.decision()
        want: Any = src.expect_seat
        if item.seat is not None:
            value = self._value(item.seat, st, loc_of(src.expect_seat, item.loc))
            if value is None:
                self.fail("E409", f"`{src.expect_seat}` gives none, not a seat",
                          loc_of(src.expect_seat, item.loc))
            want = value + 1 if item.seat_type == SEAT else value
        if d is None or d.seat + 1 != want:
            shown = f" (`{src.expect_seat}`)" if item.seat is not None else ""
            self.fail("E409", f"seat {want}{shown} should decide now, but "
                      + (f"seat {d.seat + 1} does (\"{d.prompt}\")" if d else _instead(self.game)),
                      loc_of(src.expect_seat, item.loc) if item.seat is not None else item.loc)

    def _expect_options(self, want, where) -> None:
        d = self.game.decision()
        labels = d.labels() if d else []
        offered = _labels(labels) if labels else "none (" + _instead(self.game) + ")"
        if isinstance(want, list):
            if labels != [str(x) for x in want]:
                self.fail("E402", f"the options offered are {offered}, not {_labels(want)}", where)
            return
        missing = [str(x) for x in want.contains if str(x) not in labels]
        if missing:
            self.fail("E402", f"the options offered lack {_labels(missing)}", where, f"offered: {offered}")
        present = [str(x) for x in want.excludes if str(x) in labels]
        if present:
            self.fail("E402", f"the options offered include {_labels(present)}, which should not be offered",
                      where, f"offered: {offered}")

    def _choose(self, label: str, where, next_stop: str | None) -> None:
        game = self.game
        d = game.decision()
        if d is None:
            self.fail("E406", f"wanted to choose \"{label}\" but the game asks nothing ({_instead(game)})",
                      where)
        labels = d.labels()
        if label not in labels:
            self.fail("E407", f"\"{label}\" is not an option now", where,
                      f"seat {d.seat + 1} is asked \"{d.prompt}\" with options: " + "; ".join(labels))
        game.st.watch.stop = next_stop   # the next item looks right after a place, not at a decision
        self._run(lambda: game.choose(labels.index(label)))
        self.chosen += 1


def _text_of(item: Any) -> str:
    """What a script item says (its labels, conditions and places), to find the changes of
    behaviour it may meet."""
    if item is None:
        return ""
    return " ".join(str(v) for v in item.model_dump(exclude_none=True).values())


def _instead(game: Game) -> str:
    """What the game is doing instead of what a script item wanted."""
    d = game.decision()
    if d is not None:
        return f"seat {d.seat + 1} is asked \"{d.prompt}\" first"
    if game.over:
        return "the game is over"
    if game.stopped:
        return f"the game stopped after {_place(game.stopped)}"
    return "no decision is pending"


def _explain(run: _Run, node: n.Expr, st) -> list[str]:
    """Why a condition is false, pytest-style: each term of an `and` up to the first false one,
    each term of an `or`, and the value of each side of a comparison (but written-out constants)."""
    comp, plan, memory = run.sc.comp, run.sc.comp.plan, run.memory

    def value(e: n.Expr):
        return comp.expectation(e)(st, memory)

    def sides(e: n.Expr) -> list[str]:
        if isinstance(e, n.Not):
            return sides(e.operand) or [f"`{unparse.expr(e.operand)}` is true"]
        if isinstance(e, n.Compare):
            parts = [e.left, e.right]
        elif isinstance(e, n.In):
            parts = [e.item, e.container]
        else:
            return []
        return [f"`{unparse.expr(x)}` is {show(plan, x.typ, value(x))}" for x in parts if not _constant(x)]

    def terms(e: n.Expr, kind) -> list[n.Expr]:
        return terms(e.left, kind) + terms(e.right, kind) if isinstance(e, kind) else [e]

    try:
        if isinstance(node, n.And):
            out = []
            for t in terms(node, n.And):
                if value(t):
                    out.append(f"`{unparse.expr(t)}` is true")
                else:
                    out.append(f"`{unparse.expr(t)}` is false" + _joined(sides(t)))
                    break
            return out
        if isinstance(node, n.Or):
            return [f"`{unparse.expr(t)}` is false" + _joined(sides(t)) for t in terms(node, n.Or)]
        return sides(node)
    except RuleError:
        return []   # a part that fails on its own (the condition did not reach it): nothing to add


def _joined(parts: list[str]) -> str:
    return ": " + ", ".join(parts) if parts else ""


def _constant(e: n.Expr) -> bool:
    """Is this written out in the condition (a number, a text, `piece("white")`), so that its value
    says nothing new?"""
    if isinstance(e, (n.Num, n.Bool, n.NoneLit)):
        return True
    if isinstance(e, n.Text):
        return e.constant is not None
    if isinstance(e, n.Neg):
        return _constant(e.operand)
    if isinstance(e, n.ListLit):
        return all(_constant(x) for x in e.items)
    if isinstance(e, n.Call) and getattr(e.ref, "kind", None) is RefKind.BUILTIN:
        return bool(getattr(e.ref.extra, "pure", False)) and all(_constant(a) for a in e.args)
    return False


def _labels(labels) -> str:
    return "; ".join(f"\"{x}\"" for x in labels) if labels else "none"


def _seats(numbers) -> str:
    return ("seats " if len(numbers) != 1 else "seat ") + (", ".join(str(x) for x in numbers) or "none")


def _said(e: RuleError) -> str:
    """A rule error's message and context, without its position (the diagnostic has it)."""
    ctx = e.context()
    return e.message + (f" ({ctx})" if ctx else "")


def _state(game: Game):
    """The table the seat deciding now plays on: during a simultaneous commitment, its own copy."""
    d = game.decision()
    return d._st if d is not None else game.st


def _context(game: Game, st=None) -> str:
    st = st if st is not None else _state(game)
    plan = game.plan
    boards: list[str] = []
    placed: set[str] = set()
    for k in plan.board_kinds:
        where = k.positions(st)
        placed.update(p for p, _w in where)
        boards.append(f"{k.name}: " + (", ".join(f"{p} {w}" for p, w in where) or "no pieces"))
    off = [p for p in plan.piece_names if p not in placed]
    if boards and off:
        boards.append("on no board: " + ", ".join(off))
    d = game.decision()
    now = f"waiting for seat {d.seat + 1}: {d.prompt}" if d else _instead(game)
    return "; ".join([f"now: round {st.g['round']}", *boards, now])


def _item_loc(data, index: int, path: Path):
    try:
        return data["script"][index].loc
    except (KeyError, IndexError, AttributeError, TypeError):
        return Loc(str(path))
