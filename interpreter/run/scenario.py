"""Scenarios: a rulebook situation, scripted decisions and expectations, checked exactly.

A scenario file names a ruleset, the seed and player count, a `situation` block that sets
the table after setup, a `script` of choices and checks, and `expect`ations at the end.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from pathlib import Path

from ..agents.base import RandomAgent
from ..load.structure import check_structure
from ..compile import make_compiler
from ..engine.game import Game
from ..lang.diagnostics import Loc, Report
from ..lang.errors import RuleError
from ..lang.parser import parse_block, parse_expr
from ..load.ruleset import load_ruleset, read_file
from ..load.yamlsrc import loc_of


@dataclass
class Outcome:
    path: Path
    name: str
    passed: bool
    report: Report = field(default_factory=Report)
    steps: int = 0


def run_scenario(path: Path | str) -> Outcome:
    path = Path(path)
    report = Report()
    out = Outcome(path, path.stem, False, report)
    data = read_file(path, report)
    if data is None:
        return out
    sc = check_structure(data, "scenario", str(path), report)
    if sc is None:
        return out
    out.name = str(sc.scenario.name)
    rs = load_ruleset(path.parent / sc.ruleset, sc.variants, sc.modules, report, track=sc.track,
                      params=dict(sc.params) or None)
    if rs is None:
        return out
    # the scenario's own rules are parsed here, once, like the game's
    situation = parse_block(sc.situation, report) if sc.situation is not None else None
    script_exprs = [parse_expr(item.expect, report) if item.expect is not None else None
                    for item in sc.script]
    final_exprs = [parse_expr(src, report) for src in sc.expect]
    if not report.ok:
        return out
    comp = make_compiler(rs, sc.players, report, situation=situation)
    if comp is None:
        return out

    def compile_check(expr):
        if expr is None:
            return None
        comp.ck.checker.expectation(expr)
        return comp.expectation(expr) if report.ok else None

    checks = [(item, compile_check(expr)) for item, expr in zip(sc.script, script_exprs)]
    final = [(src, compile_check(expr)) for src, expr in zip(sc.expect, final_exprs)]
    if not report.ok:
        return out
    plan = comp.plan
    pending_error: RuleError | None = None
    game: Any = None  # stays None when setup fails: then `pending_error` says why
    try:
        game = Game(plan, sc.seed, carried=sc.carried)
    except RuleError as e:
        pending_error = e
    for n, (item, check) in enumerate(checks, 1):
        where = _item_loc(data, n - 1, path)
        if item.expect_error is not None:
            if pending_error is None:
                report.add("E403", f"expected the rule error `{item.expect_error}`, but none happened", where)
                return out
            if str(item.expect_error) not in str(pending_error):
                report.add("E403", f"expected the rule error `{item.expect_error}`, got: {pending_error}",
                           where)
                return out
            out.passed = report.ok
            return out
        if pending_error is not None:
            report.add("E404", f"rule error: {pending_error}", where)
            return out
        if check is not None:
            try:
                ok = check(_state(game), {})
            except RuleError as e:
                report.add("E405", f"the expectation failed with a rule error: {_said(e)}",
                           e.loc or loc_of(item.expect, where))
                return out
            if not ok:
                report.add("E401", f"expectation is false: {item.expect}", loc_of(item.expect, where),
                           _context(game))
                return out
        if item.expect_seat is not None:
            d = game.decision()
            if d is None or d.seat + 1 != item.expect_seat:
                report.add("E409", f"seat {item.expect_seat} should decide now, but "
                           + (f"seat {d.seat + 1} does (\"{d.prompt}\")" if d else "no decision is pending"),
                           where)
                return out
        if item.expect_options is not None:
            d = game.decision()
            labels = d.labels() if d else []
            if labels != list(item.expect_options):
                report.add("E402", f"the options offered are {labels}, not {list(item.expect_options)}",
                           where)
                return out
        if item.choose is not None:
            d = game.decision()
            if d is None:
                report.add("E406", f"wanted to choose \"{item.choose}\" but the game asks nothing "
                           f"({'it is over' if game.over else 'no decision is pending'})", where)
                return out
            labels = d.labels()
            if str(item.choose) not in labels:
                report.add("E407", f"\"{item.choose}\" is not an option now", where,
                           f"seat {d.seat + 1} is asked \"{d.prompt}\" with options: " + "; ".join(labels))
                return out
            try:
                game.choose(labels.index(str(item.choose)))
            except RuleError as e:
                pending_error = e
        out.steps += 1
    if pending_error is not None:
        report.add("E404", f"rule error: {pending_error}", Loc(str(path)))
        return out
    if sc.until == "end":
        bots = [RandomAgent(f"{sc.seed}/{s}") for s in range(plan.n_seats)]
        try:
            while not game.over:
                d = game.decision()
                game.choose(bots[d.seat].choose(game, d))
        except RuleError as e:
            report.add("E404", f"rule error while playing on: {e}", Loc(str(path)))
            return out
    for src, check in final:
        try:
            ok = check(_state(game), {})
        except RuleError as e:
            report.add("E405", f"the expectation failed with a rule error: {_said(e)}",
                       e.loc or loc_of(src))
            return out
        if not ok:
            report.add("E401", f"expectation is false: {src}", loc_of(src), _context(game))
            return out
    if sc.winners is not None:
        if not game.over:
            report.add("E408", "expected the game to be over", loc_of(sc.scenario.name), _context(game))
            return out
        got = [s + 1 for s in game.result()["winners"]]
        if sorted(got) != sorted(sc.winners):
            report.add("E408", f"winners are seats {got}, not {list(sc.winners)}", loc_of(sc.scenario.name),
                       _context(game))
            return out
    out.passed = report.ok
    return out


def _said(e: RuleError) -> str:
    """A rule error's message and context, without its position (the diagnostic has it)."""
    ctx = e.context()
    return e.message + (f" ({ctx})" if ctx else "")


def _state(game: Game):
    return game.sub if game.sub is not None else game.st


def _context(game: Game) -> str:
    st = _state(game)
    plan = game.plan
    boards = "; ".join(f"{k.name}: " + (", ".join(f"{p} {w}" for p, w in k.positions(st)) or "no pieces")
                       for k in plan.board_kinds)
    d = game.decision()
    now = f"waiting for seat {d.seat + 1}: {d.prompt}" if d else ("the game is over" if game.over else "")
    return f"now: round {st.g['round']}; {boards}; {now}"


def _item_loc(data, index: int, path: Path):
    try:
        return data["script"][index].loc
    except (KeyError, IndexError, AttributeError, TypeError):
        return Loc(str(path))
