"""The compiler: a checked game to a `Plan`, for a number of seats.

After the analysis (`analysis.py`), every rule is lowered once (`statements.py`, `lower.py`):
functions, procedures and triggers that never wait as Python functions, those that may wait as
resumable functions (units); the game's flow (setup, phases, rounds, turns, steps, built-in
events) is built as statements of its own (`flownodes.py`) and lowered like any rule into the
main unit; the entries the engine reads (the result, facts, metrics, the bots' evaluation) come
from the table of rule sites (`ir/sites.py`).

Every function the machine, a view, a bot or a scenario calls is an entry with one error
boundary (`engine/boundary.py`): whatever fails inside becomes a rule error at the failing
sub-expression's `file:line:col`.
"""
from __future__ import annotations

import ast
from copy import copy
from dataclasses import dataclass
from typing import Any, Callable

from ..check.checked import Callee, Checked, Local, Ref, RefKind
from ..check.symbols import BUILTIN_EVENTS
from ..engine import helpers, secret, vm
from ..library.core import die_of
from ..engine.plan import Plan
from ..ir.sites import FUNCTION, Form, PHASE, PROCEDURE, SITES, STEP, TRIGGER
from ..lang import nodes as n
from ..base.errors import RoundLimit
from ..lang.types import BOOL, INT, PIECE, SEAT, Per, elem
from ..base.diagnostics import Loc
from ..base.collect import fewer_collections
from ..load.rules import PhaseDef, TriggerDef
from ..load.ruleset import Ruleset
from . import pyast as P
from .analysis import PLAIN, analyse
from .chains import by_value
from .codegen import Codegen, ident
from .context import Fn, Unit, local_name
from .flownodes import HookCall, Mark, Records, Rounds, RuleBlock, StepIf, Stop, Turns
from .layout import layout
from .statements import Statements


@dataclass
class Hooks:
    """What a scenario adds to the game it compiles: blocks run before and after the game's
    `setup`, the number of the first round its first phase of rounds plays, and stops after each
    step and after the triggers of each of the game's own events (a scenario may stop the
    machine there)."""
    before_setup: n.Block | None = None
    situation: n.Block | None = None
    first_round: int = 1
    stops: bool = False
    after_setup: bool = False    # a stop "setup" right after the game's setup (its questions answered)


class Compiler:
    """The compiler's driver: lays out the state (`layout.py`), compiles every rule of a checked
    game into Python functions (its functions, procedures, triggers and entries once, `build_rules`;
    the game's flow, `build_flow`, or a scenario's, `hooked`) and gives the `Plan` a game runs.
    The lowering (`self.low`) writes each rule's code; it asks this driver for the functions of
    the rules it calls (`lower.Driver`), and nothing else."""
    def __init__(self, rs: Ruleset, checked: Checked, n_seats: int, python: bool = False):
        """`python`: keep the Python of each rule for `explain --python` (`Codegen.keep_python`)."""
        plan = layout(rs, checked, n_seats)
        self.cg = cg = Codegen(keep_python=python)
        self.ck, self.sym, self.plan = checked, checked.symbols, plan
        self.an = analyse(checked, plan)
        self.low = Statements(checked, plan, cg, self.an, driver=self)
        self.rs = rs
        self.rules = checked.rules
        self._procs: dict[str, Callable[..., Any]] = {}
        # the flow compiled, by what of a scenario it is made from (`build_flow`): its unit and the
        # rules' positions it adds to the plan
        self._flows: dict[tuple, tuple[Any, dict]] = {}
        self._trigs: dict[str, Callable[..., Any]] = {}
        self.hooks = Hooks()
        plan.codegen = cg
        # the move rules the board kinds follow instead of their own (the effects that move are
        # specialised for them while the rules are written: `Builtin.bind`)
        plan.move_rules = frozenset(r.id for r in checked.rules.rules.values() if r.id.startswith("moves."))
        for name, fn in vm.HELPERS.items():
            cg.helper(name, fn)
        cg.helper("die_of", die_of)
        cg.helper("simul", secret.simul)
        cg.helper("reveal", secret.reveal)
        cg.helper("round_limit", RoundLimit)
        cg.helper("trace_round", helpers.trace_round_of(plan.board_kinds))
        for name, locs in self.an.inline_locs.items():
            cg.inlined(locs, FUNCTION.rule(name))
        for each in self.rules.rules.values():
            cg.attribute(each.id, each.tree)

    # ---- the whole game ----------------------------------------------------------------------

    @fewer_collections()
    def build(self, hooks: Hooks | None = None) -> Plan:
        self.build_rules()
        return self.build_flow(hooks)

    def build_rules(self) -> None:
        """Everything but the game's flow: functions, procedures, triggers and entries."""
        for rule in self.rules.of_id("functions.NAME"):
            self.low.functions[rule.name] = self.cg.fresh(ident("f", rule.name))
        for rule in self.rules.of_id("functions.NAME"):
            self.function(rule.name, rule.tree)
        self._readings()
        for rule in self.rules.of_id("procedures.NAME"):
            self.procedure_fn(rule.name)
        for tr in self.rules.triggers:
            self.trigger_fn(tr)
        self._entries()

    def _readings(self) -> None:
        """The functions of one seat or one piece that give a number or yes/no: what a learned
        bot may read of a table (`agents/features.py`)."""
        for rule in self.rules.of_id("functions.NAME"):
            params = list(self.sym.functions[rule.name].values())
            if len(params) == 1 and params[0] in (SEAT, PIECE) \
                    and self.ck.function_types.get(rule.name) in (INT, BOOL):
                fn = self.cg.ns[self.low.functions[rule.name]]
                self.plan.readings[rule.name] = (Per.SEAT if params[0] == SEAT else Per.PIECE, fn)

    def build_flow(self, hooks: Hooks | None = None) -> Plan:
        """The game's flow (`main`), with what a scenario adds: compiled once for each way a
        scenario shapes it (which blocks it has, its first round, its stops); a scenario's blocks
        are units of their own the flow calls (`HookCall`)."""
        p = self.plan
        self.hooks = hooks = hooks or Hooks()
        self._hook_fns(hooks)
        shape = (hooks.before_setup is not None, hooks.situation is not None, hooks.first_round,
                 hooks.stops, hooks.after_setup)
        kept = self._flows.get(shape)
        if kept is None:
            before = set(p.rules)
            where = self.rules.phases[0].loc if self.rules.phases else None
            main = self._main()
            low = self.low
            halt = P.expr_stmt(P.call(low.h("halt"), low.st()))
            p.main = self.unit_fn("game", where, main, lambda fx: [*low.block(main, fx, "game"), halt,
                                                                   ast.Return(P.const(True))], [])
            kept = self._flows[shape] = (p.main, {k: v for k, v in p.rules.items() if k not in before})
        else:
            p.main = kept[0]
            p.rules.update(kept[1])
        return p

    def _hook_fns(self, hooks: Hooks) -> None:
        """A scenario's blocks, each a unit of its own that the flow calls (`HookCall`)."""
        p = self.plan
        p.hooks = {}
        for block, rule in ((hooks.before_setup, "before_setup"), (hooks.situation, "situation")):
            if block is not None:
                self.cg.attribute(rule, block)
                p.rules[rule] = block.loc
                p.hooks[rule] = self._hook_fn(rule, block)

    def _hook_fn(self, rule: str, block: n.Block) -> Callable[..., Any]:
        stmts: list[n.Stmt] = [RuleBlock(block.loc, rule, block.body, block.loc)]

        def build(fx: Fn) -> list[ast.stmt]:
            return self.low.block(stmts, fx, rule) + self.end()
        return self.unit_fn(rule, block.loc, stmts, build, [], returns=True)

    @fewer_collections()
    def hooked(self, hooks: Hooks) -> Plan:
        """A plan of its own with a scenario's flow, sharing every other rule compiled already
        (`build_rules`): scenarios of one game compile the game once."""
        base = self.plan
        self.plan = self.low.plan = copy(base)
        self.plan.rules = dict(base.rules)
        try:
            return self.build_flow(hooks)
        finally:
            self.plan = self.low.plan = base

    def _main(self) -> list[n.Stmt]:
        """The game's flow as statements: the setup, then each phase: its block, or its rounds of
        turns in which each step's block runs (if its `if` holds), with the built-in events."""
        hooks, rules = self.hooks, self.rules
        main: list[n.Stmt] = []
        for block, rule in ((hooks.before_setup, "before_setup"), (rules.tree("setup"), "setup"),
                            (hooks.situation, "situation")):
            if block is not None and rule != "setup":
                main.append(HookCall(None, rule))   # (written nowhere: the flow is every scenario's)
            elif block is not None:
                self.plan.rules[rule] = block.loc
                main.append(RuleBlock(block.loc, rule, block.body, block.loc))
            if rule == "setup" and hooks.after_setup:
                main.append(Stop(None, "setup"))
        records = rules.of_id("record.NAME")
        if records:
            main.append(Records(None, {r.name: self.value_fn(r.tree, r.id) for r in records}))
        main += self.event("game_start", None)
        first = hooks.first_round - 1  # the first phase of rounds starts where a scenario asked
        for ph in rules.phases:
            rule = PHASE.rule(ph.id)
            main.append(Mark(ph.loc, rule))
            main += self.event("phase_start", ph.loc)
            do = rules.tree(rule)
            if do is not None:
                self.plan.rules[rule] = do.loc
                main.append(RuleBlock(do.loc, rule, do.body, do.loc))
            else:
                main.append(self._rounds(ph, first))
                first = 0
            main += self.event("phase_end", ph.loc)
        return main

    def _rounds(self, ph: PhaseDef, first: int) -> Rounds:
        rules, rule = self.rules, PHASE.rule(ph.id)
        order = rules.tree(f"{rule}.order")
        turn_t = elem(order.typ)
        turn = Local(ph.turn, turn_t)
        decider: n.Expr | None = None  # who chooses in a step when its `choose` says no `by`
        if turn_t == SEAT:
            decider = n.Name(order.loc, ph.turn, typ=SEAT, ref=Ref(RefKind.LOCAL, ph.turn, turn))
        elif turn_t == PIECE:
            piece = n.Name(order.loc, ph.turn, typ=PIECE, ref=Ref(RefKind.LOCAL, ph.turn, turn))
            decider = n.Attr(order.loc, piece, "owner", typ=SEAT, ref=Ref(RefKind.PIECE_VAR, "owner"))
        steps: list[n.Stmt] = []
        for step in ph.steps:
            srule = STEP.rule(step.id)
            cond, body = rules.tree(f"{srule}.if"), rules.tree(srule)
            run: list[n.Stmt] = []
            if body is not None:
                self.plan.rules[srule] = body.loc
                run.append(RuleBlock(body.loc, srule, body.body, body.loc, decider))
            if self.hooks.stops:
                run.append(Stop(step.loc, f"step:{step.id}"))
            if cond is not None:
                steps.append(StepIf(cond.loc, [n.Branch(cond.loc, cond, run)], rule=f"{srule}.if"))
            else:
                steps += run
        turns = Turns(ph.loc, ph.turn, order, [*self.event("turn_start", ph.loc), *steps,
                                               *self.event("turn_end", ph.loc)],
                      ref=turn, rule=f"{rule}.order")
        body = [*self.event("round_start", ph.loc), turns, *self.event("round_end", ph.loc)]
        return Rounds(ph.loc, rule, first, body, rules.tree(f"{rule}.until"), ph.rounds)

    def event(self, name: str, loc: Loc | None) -> list[n.Stmt]:
        """A built-in event: its triggers, then where a scenario may stop after them."""
        out: list[n.Stmt] = [n.Emit(loc, name, [])]
        if self.hooks.stops and name in BUILTIN_EVENTS:
            out.append(Stop(loc, f"event:{name}"))   # (a place a scenario may stop at)
        return out

    # ---- units and functions -----------------------------------------------------------------

    def unit_fn(self, rule: str, loc: Loc | None, stmts: list[n.Stmt], build: Callable[[Fn], list[ast.stmt]],
                inputs: list[str] | None, returns: bool = False, decider: n.Expr | None = None,
                hint: str = "") -> Callable[..., Any]:
        """A resumable function `fn(st, fr)` (see `statements.py`) of these statements, its
        body as `build` writes it. Its locals are read from the frame's `env` first: when it
        resumes, those it kept there at that point (the others `none`); when it starts, its
        `inputs` (a procedure's parameters), the others `none` (None: any of them may be there)."""
        unit = Unit(self.an.liveness(stmts, decider), returns)
        fx = Fn(fast=True, unit=unit, rule=rule)
        fx.decider = decider
        body = build(fx)
        unit.finish()
        env = P.name("env")
        kept = sorted(unit.locals.items())
        start: list[ast.stmt] = [P.assign(P.store("env"), P.sub(P.name("fr"), P.const(2))),
                                 P.assign(P.store("pc"), P.sub(P.name("fr"), P.const(1)))]
        resumed: list[ast.stmt] = [ast.Assign([P.store(py) for _k, py in kept], P.const(None))]
        fresh: list[ast.stmt]
        at: list[tuple[int, list[ast.stmt]]] = []
        for k in sorted(unit.kept):  # read back what that point kept
            loads: list[ast.stmt] = [P.assign(P.store(unit.locals[x]), P.sub(env, P.const(x)))
                                     for x in sorted(unit.kept[k])]
            if loads:
                at.append((k, loads))
        resumed += by_value("pc", at)  # not one `elif` per point: a unit may have thousands
        if inputs is None:
            fresh = [P.assign(P.store(py), P.call(P.attr(env, "get"), P.const(key))) for key, py in kept]
        else:
            given = [(key, py) for key, py in kept if key in inputs]
            others = [py for key, py in kept if key not in inputs]
            fresh = [P.assign(P.store(py), P.sub(env, P.const(key))) for key, py in given]
            if others:
                fresh.append(ast.Assign([P.store(py) for py in others], P.const(None)))
        if kept:
            start.append(ast.If(P.name("pc"), resumed, fresh or [ast.Pass()]))
        fn = P.function(self.cg.fresh(ident("u", hint or rule)), ["st", "fr"], start + body)
        return self.cg.define(fn, rule, loc, entry=True, unit=True)

    def end(self) -> list[ast.stmt]:
        """The end of a procedure's, trigger's or block's frame."""
        return [P.expr_stmt(P.call(self.low.h("ret"), self.low.st(), P.name("env"), P.const(None))),
                ast.Return(P.const(False))]

    def function(self, name: str, body: n.Expr) -> None:
        """`def f_NAME(st, params...)`: its value, checked when a product may explode it. Its
        calls are counted by whoever starts the call tree (`Analysis.weight`)."""
        params = self.sym.functions[name]
        fx = Fn(fast=True, rule=FUNCTION.rule(name))
        args = [local_name(k) for k in params]
        memo = self._memoized(name, body)
        out: list[ast.stmt] = []
        m = key = ""
        if memo:
            m, key = fx.tmp("memo"), fx.tmp("key")
            # while the table is only looked at (`st.memo` a dict): a value computed once, kept
            # under the function's Python name and its arguments
            key_of = ast.Tuple([P.const(self.low.functions[name]), *map(P.name, args)], P.LOAD)
            out += [P.assign(P.store(m), P.attr(P.name("st"), "memo")),
                    P.if_(P.compare(P.name(m), ast.IsNot(), P.const(None)),
                          [P.assign(P.store(key), key_of),
                           P.if_(P.compare(P.name(key), ast.In(), P.name(m)),
                                 [ast.Return(P.sub(P.name(m), P.name(key)))])])]
        first, (value,) = self.low.hoisting(fx, body)
        out += first
        grows = self.an.grows(body, chain=True)
        if grows or memo:
            t = fx.tmp()
            out += [P.assign(P.store(t), value)]
            if grows:
                out += self.low.check_stmt(P.name(t), body, body.loc, chain=True)
            if memo:
                out.append(P.if_(P.compare(P.name(m), ast.IsNot(), P.const(None)),
                                 [P.assign(P.sub_store(P.name(m), P.name(key)), P.name(t))]))
            out.append(ast.Return(P.name(t)))
        else:
            out.append(ast.Return(value))
        fn = P.function(self.low.functions[name], ["st", *args], out)
        self.cg.define(fn, FUNCTION.rule(name), body.loc, entry=False, publish=True)

    def _memoized(self, name: str, body: n.Expr) -> bool:
        """Whether function `name` keeps its values while a table is only looked at (`st.memo`:
        a view, a label, a bot's evaluation): a function some rule may ask again of the same
        values (`Analysis.again`), that loops or calls others (keeping a cheap one's values costs
        more than computing them again), of plain values, giving a plain value (a list given
        back could be changed)."""
        if name not in self.an.again or self.an.fn_draws(name) \
                or self.ck.function_types.get(name) not in PLAIN:
            return False
        if not all(t in PLAIN for t in self.sym.functions[name].values()):
            return False
        return self.an.fn_weight(name) > 2 or any(isinstance(x, n.Comp) for x in n.walk(body))

    def procedure_fn(self, name: str) -> Callable[..., Any]:
        """A procedure: a Python function of (st, args...) when it never waits, else a unit."""
        if name in self._procs:
            return self._procs[name]
        pd: n.Block = self.rules.tree(PROCEDURE.rule(name))
        params = self.sym.procedures[name]
        rule = PROCEDURE.rule(name)
        if Callee.procedure(name) in self.ck.waits:
            def build(fx: Fn) -> list[ast.stmt]:
                return self.low.block(pd.body, fx, rule) + self.end()
            made = self.unit_fn(rule, pd.loc, pd.body, build, list(params), returns=True)
        else:
            fx = Fn(fast=True, rule=rule)
            body = self.low.charge_calls(1 + self.an.weight(*pd.body), pd.loc)
            body += self.low.block(pd.body, fx, rule)
            fn = P.function(self.cg.fresh(ident("p", name)), ["st", *(local_name(k) for k in params)], body)
            made = self.cg.define(fn, rule, pd.loc, entry=True)
        self._procs[name] = made
        return made

    def trigger_fn(self, tr: TriggerDef) -> Callable[..., Any]:
        """A trigger: fn(st, args...) that tests its `if`, traces and runs its block when it
        never waits, else a unit doing the same in its own frame (where its parameters are)."""
        if tr.id in self._trigs:
            return self._trigs[tr.id]
        rule = TRIGGER.rule(tr.id)
        cond, body = self.rules.tree(f"{rule}.if"), self.rules.tree(rule)
        stmts = body.body if body is not None else []
        params = self.ck.trigger_params.get(tr.id, [])
        mark = [P.const("rule"), P.const(rule), self.low.where(tr.loc)]
        if Callee.trigger(tr.id) in self.ck.waits:
            def build(fx: Fn) -> list[ast.stmt]:
                head: list[ast.stmt] = []
                if cond is not None:
                    pre, test = self.low.value(cond, fx)
                    self.cg.note(f"{rule}.if", cond.loc, ast.Expr(test))
                    head = [*pre, ast.If(ast.UnaryOp(ast.Not(), test), self.end(), [])]
                head += self.low.traced(mark) + self.low.counted(rule)
                code = self.low.block(stmts, fx, rule)
                return self.low.guarded([(head, 0, -1), (code, 1, fx.unit.points)]) + self.end()  # type: ignore[union-attr]
            made = self.unit_fn(rule, tr.loc, stmts, build, params)
        else:
            fx = Fn(fast=True, rule=rule)
            out = self.low.traced(mark) + self.low.counted(rule) + self.low.block(stmts, fx, rule)
            if cond is not None:
                test = self.low.expr(cond, fx)
                self.cg.note(f"{rule}.if", cond.loc, ast.Expr(test))
                out = [P.place(ast.If(test, out, []), cond.loc)]
            out = self.low.charge_calls(1 + self.an.weight(cond, *stmts), tr.loc) + out
            fn = P.function(self.cg.fresh(ident("t", tr.id)), ["st", *(local_name(k) for k in params)], out)
            made = self.cg.define(fn, rule, tr.loc, entry=True)
        self._trigs[tr.id] = made
        return made

    def simul_fn(self, s: n.Simultaneously, rule: str) -> Callable[..., Any]:
        """The block of a `simultaneously`: a unit run in a frame of its own for each seat (on
        the seat's copy of the table, then at the reveal), where the seat chooses."""
        decider = n.Name(s.loc, s.var, typ=SEAT, ref=Ref(RefKind.LOCAL, s.var, s.ref))
        def build(fx: Fn) -> list[ast.stmt]:
            return self.low.block(s.body, fx, rule) + self.end()
        return self.unit_fn(rule, s.loc, s.body, build, None, decider=decider, hint=f"{rule}_simultaneously")

    def block_fn(self, stmts: list[n.Stmt], rule: str) -> tuple[Callable[..., Any] | None, list[str]]:
        """An entry running statements that never wait, fn(st, env), and the locals it writes back
        to `env`: the rule's locals are Python locals inside, those from outside read from `env`
        first, those it sets written back at its end. None when the statements come to nothing."""
        fx = Fn(fast=True, rule=rule)
        body = self.low.block(stmts, fx, rule)
        if not body:
            return None, []
        body = self.low.charge_calls(self.an.weight(*stmts), stmts[0].loc) + body
        binders = (n.Let, n.For, n.Comp, n.CompFor, n.Option, n.Simultaneously)
        own = {id(x.ref) for s in stmts for x in n.walk(s)  # the locals they bind themselves
               if isinstance(x, binders) and x.ref is not None}
        outer: dict[str, None] = {}     # locals of the rule from before these statements
        changed: set[str] = set()       # ... and those these statements change
        for s in stmts:
            for node in n.walk(s):
                ref = getattr(node, "ref", None)
                if isinstance(ref, Ref) and ref.kind is RefKind.LOCAL and id(ref.extra) not in own:
                    outer[ref.extra.name] = None
                if isinstance(node, (n.Let, n.For)) and node.rebinds:
                    name = node.name if isinstance(node, n.Let) else node.var
                    outer[name] = None
                    changed.add(name)
                elif isinstance(node, (n.Assign, n.AugAssign)):
                    # `xs = ...`, and `xs[i] = ...` (an item given a value makes the local a new list)
                    root = node.target
                    while isinstance(root, n.Index):
                        root = root.obj
                    if isinstance(root, n.Name):
                        changed.add(root.id)
        back = {k: None for k in outer if k in changed}
        back.update((s.name, None) for s in stmts if isinstance(s, n.Let))
        env = P.name("env")
        load: list[ast.stmt] = [P.assign(P.store(local_name(k)), P.sub(env, P.const(k))) for k in outer]
        save: list[ast.stmt] = [P.assign(P.sub_store(env, P.const(k)), P.name(local_name(k))) for k in back]
        fn = P.function(self.cg.fresh(ident("b", rule)), ["st", "env"], load + body + save)
        return self.cg.define(fn, rule, stmts[0].loc, entry=True), list(back)

    def value_fn(self, expr: n.Expr, rule: str) -> Callable[..., Any]:
        """An entry computing an expression: fn(st, env), locals read from `env`."""
        fx = Fn(fast=False, rule=rule)
        first, (value,) = self.low.hoisting(fx, expr)
        body = self.low.charge_calls(self.an.weight(expr), expr.loc) + first + [ast.Return(value)]
        fn = P.function(self.cg.fresh(ident("e", rule)), ["st", "env"], body)
        return self.cg.define(fn, rule, expr.loc, entry=True)

    # ---- what the engine reads ------------------------------------------------------------------

    def _entries(self) -> None:
        """The entries the engine reads outside the rules: every rule of an entry site (`Site.into`)."""
        r, p = self.rules, self.plan
        for site in SITES:
            if site.form is not Form.ENTRY:
                continue
            for rule in r.of(site):
                fn = self.value_fn(rule.tree, rule.id)
                p.rules[rule.id] = rule.tree.loc
                if site.keyed:
                    table = getattr(p, site.into)
                    for outer in (site.match(rule.id) or ())[:-1]:  # (`view.lines`: by kind, then name)
                        table = table.setdefault(outer, {})
                    table[rule.name] = fn
                    p.fact_types[rule.id] = rule.tree.typ
                else:
                    setattr(p, site.into, fn)
        p.fact_meta = dict(r.fact_meta)
        p.view = None if r.view is None else dict(r.view)
        p.colours = dict(r.colours)
        p.descending = r.descending

    def expectation(self, expr: n.Expr, rule: str = "scenario") -> Callable[..., Any]:
        """A scenario's condition, compiled after the game (its own entry)."""
        return self.value_fn(expr, rule)


def compile_checked(rs: Ruleset, checked: Checked, n_seats: int, hooks: Hooks | None = None,
                    python: bool = False) -> Plan:
    """Compile a game checked already (`check.check`) for `n_seats` (in the game's range)."""
    return Compiler(rs, checked, n_seats, python).build(hooks)


__all__ = ["Compiler", "Hooks", "compile_checked", "Plan"]
