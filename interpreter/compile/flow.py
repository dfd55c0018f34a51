"""The compiler: a checked game to a `Plan`, for a number of seats.

Code that never waits for a decision becomes Python functions (`lower.py`). A statement that
may wait (a `choose`, a `simultaneously`, or a call or `emit` that reaches one; the checker
found them) becomes machine code: instructions whose position is part of the game state, so a
game can stop at any decision and be copied there. The phases, rounds, turns, steps and
triggers are lowered into the same code, so the phase machine is just the main program.

Every function the machine, a view, a bot or a scenario calls is an entry with one error
boundary (`engine/boundary.py`): whatever fails inside becomes a rule error at the failing
sub-expression's `file:line:col`.
"""
from __future__ import annotations

import ast
import copy
from dataclasses import dataclass

from ..check.checker import Checked, Ref, RefKind, may_wait
from ..check.symbols import BUILTIN_EVENTS
from ..engine.plan import (CALL, CHOOSE, EXEC, FOR_INIT, FOR_NEXT, HALT, JMP, JMPF, RET, SIMUL, STOP, TRACE,
                           Alternative, ChooseSpec, Plan)
from ..lang import nodes as n
from ..lang import unparse
from ..lang.errors import GameTooLong, RoundLimit
from ..ir.sites import BY_ID, SITES, Form
from ..lang.types import BOOL, CARD, INT, PIECE, PILE, SEAT, TEXT, Type, elem, iterable_elem
from . import pyast as P
from .codegen import Codegen, ident
from .layout import layout
from .lower import Fn, Lowerer, local_name


class _Emitter:
    def __init__(self):
        self.code: list = []
        self.breaks: list[list[int]] = []

    def emit(self, *ins) -> int:
        self.code.append(ins)
        return len(self.code) - 1

    def here(self) -> int:
        return len(self.code)

    def set(self, at: int, *ins) -> None:
        self.code[at] = ins


def _effects(code: list, pc: int) -> list | None:
    """The functions a block starting at `pc` runs before it jumps away, if it is nothing else."""
    fns = []
    while code[pc][0] in (EXEC, TRACE):
        if code[pc][0] == EXEC:
            fns.append(code[pc][2])
        pc += 1
    return fns if code[pc][0] == JMP else None


VALUE = "__value"  # where a procedure that waits leaves the value it gives (an engine name)


def _has_return(stmt: n.Stmt) -> bool:
    return any(isinstance(x, n.Return) for x in n.walk(stmt))


def _procedure_call(e: n.Expr) -> bool:
    return isinstance(e, n.Call) and isinstance(e.ref, Ref) and e.ref.kind is RefKind.PROCEDURE


def _escapes(stmt: n.Stmt) -> bool:
    """Does a `break` inside `stmt` leave it (rather than an inner loop of it)?"""
    if isinstance(stmt, n.Break):
        return True
    if isinstance(stmt, (n.For, n.While)):
        return False
    return any(_escapes(s) for b in n.block_children(stmt) for s in b)


def _bound_in(stmts: list[n.Stmt]) -> set[int]:
    """The locals (by identity) that statements bind themselves."""
    out: set[int] = set()
    for s in stmts:
        for node in n.walk(s):
            if isinstance(node, (n.Let, n.For, n.Comp, n.CompFor, n.Option, n.Simultaneously)) \
                    and node.ref is not None:
                out.add(id(node.ref))
    return out


@dataclass
class Hooks:
    """What a scenario adds to the game it compiles: blocks run before and after the game's
    `setup`, the number of the first round its first phase of rounds plays, and `STOP`
    instructions after each step and after the triggers of each of the game's own events (a
    scenario may stop the machine there)."""
    before_setup: n.Block | None = None
    situation: n.Block | None = None
    first_round: int = 1
    stops: bool = False


class Compiler(Lowerer):
    def __init__(self, rs, checked: Checked, n_seats: int):
        plan = layout(rs, checked, n_seats)
        super().__init__(checked, plan, Codegen())
        self.rs = rs
        self.rules = checked.rules
        self._procs: dict[str, object] = {}
        self._trigs: dict[str, object] = {}
        self._returns = False  # compiling a procedure that waits: its `return`s are machine code
        self.hooks = Hooks()
        plan.codegen = self.cg

    # ---- the whole game ----------------------------------------------------------------------

    def build(self, hooks: Hooks | None = None) -> Plan:
        p = self.plan
        self.hooks = hooks = hooks or Hooks()
        for name in self.rules.functions:
            self.functions[name] = self.cg.fresh(ident("f", name))
        for rule in self.rules.of(BY_ID["functions.NAME"]):
            self.function(rule.name, rule.tree)
        for rule in self.rules.of(BY_ID["procedures.NAME"]):
            self.procedure_fn(rule.name)
        for tr in self.rules.triggers:
            self.trigger_fn(tr)
        em = _Emitter()
        if hooks.before_setup is not None:
            self.rule_block(hooks.before_setup, "before_setup", em)
        if self.rules.tree("setup") is not None:
            self.rule_block(self.rules.tree("setup"), "setup", em)
        if hooks.situation is not None:
            self.rule_block(hooks.situation, "situation", em)
        if self.rules.of(BY_ID["record.NAME"]):
            self._records(em)
        self.emit_code("game_start", em, (None, "game"))
        for ph in self.rules.phases:
            self._phase(ph, em)
        em.emit(HALT, (None, "game"))
        p.main = em.code
        self._result()
        return p

    # ---- units ---------------------------------------------------------------------------------

    def function(self, name: str, body: n.Expr) -> None:
        """`def f_NAME(st, params...)`: its value, checked when a product may explode it. Its
        calls are counted by whoever starts the call tree (`Lowerer.weight`)."""
        params = self.sym.functions[name]
        fx = Fn(fast=True)
        rule = f"functions.{name}"
        out: list[ast.stmt] = []
        first, (value,) = self.hoisting(fx, body)
        out += first
        if self.grows(body, chain=True):
            t = fx.tmp()
            out += [P.assign(P.store(t), value),
                    *self.check_stmt(P.name(t), body, body.loc, chain=True), ast.Return(P.name(t))]
        else:
            out.append(ast.Return(value))
        fn = P.function(self.functions[name], ["st", *(local_name(k) for k in params)], out)
        self.cg.define(fn, rule, body.loc, entry=False, publish=True)

    def procedure_fn(self, name: str):
        """A procedure: a Python function of (st, args...) when it never waits, else machine
        code (a list of instructions, run in a frame of its own)."""
        if name in self._procs:
            return self._procs[name]
        pd: n.Block = self.rules.tree(f"procedures.{name}")
        params = self.sym.procedures[name]
        rule = f"procedures.{name}"
        if f"proc:{name}" in self.ck.waits:
            code: list = []
            self._procs[name] = code  # filled in below (a call to itself is refused by the checker)
            em = _Emitter()
            saved, self._returns = self._returns, True  # a `return` leaves this machine procedure
            try:
                self.block_code(pd.body, rule, em, loops=0, machine_loops=0)
            finally:
                self._returns = saved
            em.emit(RET, (pd.loc, rule), None)
            code.extend(em.code)
            return code
        fx = Fn(fast=True)
        body = self.charge_calls(1 + self.weight(*pd.body), pd.loc)
        body += self.stmts(pd.body, fx, rule)
        fn = P.function(self.cg.fresh(ident("p", name)), ["st", *(local_name(k) for k in params)], body)
        made = self.cg.define(fn, rule, pd.loc, entry=True)
        self._procs[name] = made
        return made

    def trigger_fn(self, tr):
        """A trigger that never waits: fn(st) that tests its `if`, traces and runs its block."""
        if tr.id in self._trigs:
            return self._trigs[tr.id]
        rule = f"triggers.{tr.id}"
        cond, body = self.rules.tree(f"triggers.{tr.id}.if"), self.rules.tree(rule)
        params = list(self.ck.event_params.get(tr.on, {})) if tr.id in self.ck.trigger_ok else []
        if f"trig:{tr.id}" in self.ck.waits:
            code: list = []
            self._trigs[tr.id] = code
            em = _Emitter()
            jf = None
            if cond is not None:  # tested in the trigger's own frame, where its parameters are
                jf = em.emit(JMPF, (cond.loc, rule), self.value_fn(cond, rule + ".if"), None)
            em.emit(TRACE, (tr.loc, rule), "rule")
            if body is not None:
                self.block_code(body.body, rule, em, loops=0, machine_loops=0)
            end = em.emit(RET, (tr.loc, rule), None)
            if jf is not None:
                em.set(jf, *em.code[jf][:3], end)
            code.extend(em.code)
            return code
        fx = Fn(fast=True)
        trace = P.attr(self.st(), "trace")
        entry = ast.Tuple([P.const("rule"), P.const(rule), P.const(str(tr.loc) if tr.loc else "")], P.LOAD)
        out: list[ast.stmt] = [ast.If(P.compare(trace, ast.IsNot(), P.const(None)),
                                      [P.expr_stmt(P.call(P.attr(trace, "append"), entry))], []),
                               *self.counted(rule)]
        out += self.stmts(body.body, fx, rule) if body is not None else []
        if cond is not None:
            test = self.expr(cond, fx)
            self.cg.note(rule + ".if", cond.loc, test)
            out = [P.place(ast.If(test, out, []), cond.loc)]
        out = self.charge_calls(1 + self.weight(cond, *(body.body if body else [])), tr.loc) + out
        fn = P.function(self.cg.fresh(ident("t", tr.id)), ["st", *(local_name(k) for k in params)], out)
        made = self.cg.define(fn, rule, tr.loc, entry=True)
        self._trigs[tr.id] = made
        return made

    def value_fn(self, expr: n.Expr, rule: str, comps: dict | None = None):
        """An entry computing an expression: fn(st, env), locals read from `env`."""
        fx = Fn(fast=False)
        if comps:
            fx.comp.update(comps)
        first, (value,) = self.hoisting(fx, expr)
        body = self.charge_calls(self.weight(expr), expr.loc) + first + [ast.Return(value)]
        fn = P.function(self.cg.fresh(ident("e", rule)), ["st", "env"], body)
        return self.cg.define(fn, rule, expr.loc, entry=True)

    def block_fn(self, stmts: list[n.Stmt], rule: str, loops: int = 0):
        """An entry running statements that never wait: fn(st, env). The rule's locals are Python
        locals inside; those from outside are read from `env` first, and those the rest of the
        rule may read are written back to it at the end."""
        fx = Fn(fast=True)
        body = self.stmts(stmts, fx, rule, loops)
        if not body:
            return None
        body = self.charge_calls(self.weight(*stmts), stmts[0].loc) + body
        own = _bound_in(stmts)
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
                elif isinstance(node, (n.Assign, n.AugAssign)) and isinstance(node.target, n.Name):
                    changed.add(node.target.id)
        back = {k: None for k in outer if k in changed}
        for s in stmts:
            if isinstance(s, n.Let):
                back[s.name] = None
        load: list[ast.stmt] = [P.assign(P.store(local_name(k)), P.sub(P.name("env"), P.const(k)))
                                for k in outer]
        save: list[ast.stmt] = [P.assign(P.sub_store(P.name("env"), P.const(k)), P.name(local_name(k)))
                                for k in back]
        fn = P.function(self.cg.fresh(ident("b", rule)), ["st", "env"], load + body + save)
        return self.cg.define(fn, rule, stmts[0].loc, entry=True)

    # ---- machine code ----------------------------------------------------------------------------

    def rule_block(self, block: n.Block, rule: str, em: _Emitter, decider=None) -> None:
        self.plan.rules[rule] = block.loc
        em.emit(TRACE, (block.loc, rule), "rule")
        self.block_code(block.body, rule, em, loops=0, machine_loops=0, decider=decider)

    def may_wait(self, s: n.Stmt) -> bool:
        return may_wait([s], self.ck.waits)

    def block_code(self, stmts, rule: str, em: _Emitter, loops: int, machine_loops: int, decider=None):
        run: list = []  # consecutive statements that never wait run as one instruction

        def flush():
            if run:
                fn = self.block_fn(list(run), rule, loops)
                if fn is not None:
                    em.emit(EXEC, (run[0].loc, rule), fn)
                run.clear()
        for s in stmts:
            if isinstance(s, n.Pass):
                continue  # nothing to run (an option that does nothing then costs no copy to a bot)
            if self.may_wait(s) or (machine_loops and _escapes(s)) or (self._returns and _has_return(s)):
                flush()
                if s.name_tag is not None and not isinstance(s, n.Choose):
                    # counted for statistics: an instruction that is no effect of an option's own
                    em.emit(TRACE, (s.loc, f"statements.{s.name_tag}"), "count")
                self.stmt_code(s, rule, em, loops, machine_loops, decider)
            else:
                run.append(s)
        flush()

    def stmt_code(self, s: n.Stmt, rule: str, em: _Emitter, loops: int, machine_loops: int, decider):
        w = (s.loc, rule)
        if isinstance(s, n.If):
            ends = []
            for br in s.branches:
                jf = em.emit(JMPF, w, None, None)
                self.block_code(br.body, rule, em, loops, machine_loops, decider)
                ends.append(em.emit(JMP, w, None))
                em.set(jf, JMPF, (br.loc, rule), self.value_fn(br.cond, rule), em.here())
            if s.orelse is not None:
                self.block_code(s.orelse, rule, em, loops, machine_loops, decider)
            for j in ends:
                em.set(j, JMP, w, em.here())
        elif isinstance(s, n.For):
            items = self.items_fn(s.source, rule)
            slot = f"__it{em.here()}"
            em.emit(FOR_INIT, w, slot, items)
            top = em.emit(FOR_NEXT, w, s.var, slot, None)
            em.breaks.append([])
            self.block_code(s.body, rule, em, loops + 1, machine_loops + 1, decider)
            em.emit(JMP, w, top)
            end = em.here()
            em.set(top, FOR_NEXT, w, s.var, slot, end)
            for j in em.breaks.pop():
                em.set(j, JMP, w, end)
        elif isinstance(s, n.While):
            cond = self.value_fn(s.cond, rule)
            limit = self.limit
            message = f"a `while` loop ran past the step limit ({limit})"

            def guarded(st, env):
                st.steps += 1
                if st.steps > limit:
                    raise GameTooLong(message)
                return cond(st, env)
            top = em.emit(JMPF, w, guarded, None)
            em.breaks.append([])
            self.block_code(s.body, rule, em, loops + 1, machine_loops + 1, decider)
            em.emit(JMP, w, top)
            end = em.here()
            em.set(top, JMPF, w, guarded, end)
            for j in em.breaks.pop():
                em.set(j, JMP, w, end)
        elif isinstance(s, n.Break):
            em.breaks[-1].append(em.emit(JMP, w, None))
        elif isinstance(s, n.Choose):
            self.choose_code(s, rule, em, loops, machine_loops, decider)
        elif isinstance(s, n.Simultaneously):
            items = self.items_fn(s.seats, rule)
            body = _Emitter()
            self.block_code(s.body, rule, body, 0, 0, decider=("simul", s.var))
            body.emit(RET, w, None)
            em.emit(SIMUL, w, s.var, items, body.code)
        elif isinstance(s, n.Do):
            call: n.Call = s.expr  # type: ignore[assignment]
            args = [self.value_fn(a, rule) for a in call.args]
            em.emit(CALL, w, self.procedure_fn(call.name), list(self.sym.procedures[call.name]), args)
        elif isinstance(s, n.Emit):
            self.emit_code(s.event, em, w, [self.value_fn(a, rule) for a in s.args])
        elif isinstance(s, n.Return):
            em.emit(RET, w, self.value_fn(s.value, rule) if s.value is not None else None)
        elif isinstance(s, (n.Let, n.Assign)) and _procedure_call(s.value):
            # `let x = proc(...)` of a procedure that waits: its `return` sets the value, then the
            # statement runs with it
            call: n.Call = s.value  # type: ignore[no-redef]
            args = [self.value_fn(a, rule) for a in call.args]
            em.emit(CALL, w, self.procedure_fn(call.name), list(self.sym.procedures[call.name]), args, VALUE)
            taken = copy.copy(s)
            taken.value = n.Name(call.loc, VALUE, typ=call.typ, ref=Ref(RefKind.MACHINE_VALUE))
            fn = self.block_fn([taken], rule, loops)
            if fn is not None:
                em.emit(EXEC, w, fn)
        else:  # pragma: no cover - other statements never wait
            fn = self.block_fn([s], rule, loops)
            if fn is not None:
                em.emit(EXEC, w, fn)

    def items_fn(self, source: n.Expr, rule: str):
        """fn(st, env) -> the list a machine-level loop goes through (a pile: a copy)."""
        fx = Fn(fast=False)
        value = self.items(source, fx, copy=True) if source.typ == PILE else self.expr(source, fx)
        body = self.charge_calls(self.weight(source), source.loc) + [ast.Return(value)]
        fn = P.function(self.cg.fresh(ident("e", rule)), ["st", "env"], body)
        return self.cg.define(fn, rule, source.loc, entry=True)

    def emit_code(self, event: str, em: _Emitter, w, args: list | None = None) -> None:
        """The triggers of `event` run in turn, each given the event's values (`args`: functions
        of the emitting frame)."""
        args = args or []
        names = list(self.ck.event_params.get(event, {}))
        for tr in self.ck.handlers.get(event, []):
            rule = f"triggers.{tr.id}"
            target = self.trigger_fn(tr)
            if callable(target):
                em.emit(EXEC, (tr.loc, rule), _run_trigger(target, args))
            else:
                em.emit(CALL, w, target, names, args)
        if self.hooks.stops and event in BUILTIN_EVENTS:
            em.emit(STOP, w, f"event:{event}")

    def decider_fn(self, s: n.Choose, rule: str, decider):
        if s.by is not None:
            return self.value_fn(s.by, rule)
        if decider is None:  # pragma: no cover - the checker requires `by`
            return lambda st, env: None
        kind, var = decider
        if kind == "turn_owner":
            owner = self.plan.var_at["owner"]
            return lambda st, env: st.v[owner + env[var]]
        return lambda st, env: env[var]

    def choose_code(self, s: n.Choose, rule: str, em: _Emitter, loops, machine_loops, decider):
        prompt = self.value_fn(s.prompt, rule) if s.prompt is not None else _const("Choose")
        seat = self.decider_fn(s, rule, decider)
        alts: list[Alternative] = []
        spec = ChooseSpec(prompt, seat, alts, s.loc, rule)
        choice = f"choices.{s.name_tag}" if s.name_tag is not None else rule  # its name in statistics
        jumps = []
        em.emit(CHOOSE, (s.loc, rule), spec)
        # The legal options are listed by one generated function: each option's list is
        # computed once per decision, its `if` tested with the value in a Python variable.
        fx = Fn(fast=False)
        body: list[ast.stmt] = [P.assign(P.store("out"), ast.List([], P.LOAD)),
                                P.assign(P.store("add"), P.attr(P.name("out"), "append"))]
        lists: dict[str, str] = {}  # the same list written for two options is computed once
        for i, opt in enumerate(s.options):
            if opt.var is not None and opt.source is not None:
                key = unparse.expr(opt.source)
                items = lists.get(key)
                if items is None:
                    items = lists[key] = fx.tmp("items")
                    body.append(P.place(P.assign(P.store(items), self.items(opt.source, fx, copy=False)),
                                        opt.source.loc))
                var = fx.tmp("o_")
                fx.comp[id(opt.ref)] = var
                w = self.weight(opt.cond)  # the `if` is tested for each item: its calls each time
                if w:
                    length = P.call(P.name("len"), P.name(items))
                    body += self.steps_charge(P.binop(length, ast.Mult(), P.const(w)), opt.loc,
                                              self.calls_message())
                test = self.expr(opt.cond, fx) if opt.cond is not None else None
                add = P.expr_stmt(P.call(P.name("add"), ast.Tuple([P.const(i), P.name(var)], P.LOAD)))
                inner = [P.place(ast.If(test, [add], []), opt.loc)] if test is not None else [add]
                body.append(P.place(ast.For(P.store(var), P.name(items), inner, []), opt.loc))
            else:
                add = P.expr_stmt(P.call(P.name("add"), ast.Tuple([P.const(i), P.const(None)], P.LOAD)))
                if opt.cond is not None:
                    body.append(P.place(ast.If(self.expr(opt.cond, fx), [add], []), opt.loc))
                else:
                    body.append(P.place(add, opt.loc))
            alt = Alternative(self.value_fn(opt.label, rule), opt.var, em.here(),
                              key=f"{choice} > {opt.name_tag or unparse.expr(opt.label)}",
                              of=_counted_type(opt.source))
            alts.append(alt)
            self.block_code(opt.body, rule, em, loops, machine_loops, decider)
            jumps.append(em.emit(JMP, (s.loc, rule), None))
            alt.effects = _effects(em.code, alt.target)
        for j in jumps:
            em.set(j, JMP, (s.loc, rule), em.here())
        body.append(ast.Return(P.name("out")))
        once = [o.source for o in s.options if o.source is not None]
        once += [o.cond for o in s.options if o.source is None and o.cond is not None]
        body = self.charge_calls(self.weight(*once), s.loc) + body
        fn = P.function(self.cg.fresh(ident("options", rule)), ["st", "env"], body)
        spec.list_options = self.cg.define(fn, rule, s.loc, entry=True)

    # ---- the flow: phases, rounds, turns -------------------------------------------------------

    def _records(self, em: _Emitter) -> None:
        fns = {rule.name: self.value_fn(rule.tree, rule.id) for rule in self.rules.of(BY_ID["record.NAME"])}
        self.plan.records = fns
        n_seats = self.plan.n_seats

        def record(st, env):
            st.g["__records"] = {k: [f(st, {"seat": s}) for s in range(n_seats)] for k, f in fns.items()}
        em.emit(EXEC, (None, "record"), record)

    def _phase(self, ph, em: _Emitter) -> None:
        w = (ph.loc, f"phases.{ph.id}")
        em.emit(TRACE, w, "phase")
        self.emit_code("phase_start", em, w)
        do = self.rules.tree(f"phases.{ph.id}")
        if do is not None:
            self.rule_block(do, f"phases.{ph.id}", em)
        else:
            self._rounds(ph, em, w)
        self.emit_code("phase_end", em, w)

    def _rounds(self, ph, em: _Emitter, w) -> None:
        p = self.plan
        order_expr = self.rules.tree(f"phases.{ph.id}.order")
        order = self.value_fn(order_expr, f"phases.{ph.id}.order")
        turn_t = elem(order_expr.typ)
        turn = ph.turn
        max_rounds = p.max_rounds
        loc, rule = ph.loc, f"phases.{ph.id}"
        kinds = p.board_kinds

        def next_round(st, env):
            if st.tally is not None:
                st.tally.sample(st)  # the seats' progress after the round before
            st.g["round"] += 1
            st.g["__rounds"] += 1
            if st.g["__rounds"] > max_rounds:
                raise RoundLimit(f"the game passed {max_rounds} rounds without ending", loc, rule)
            if st.trace is not None:
                st.trace.append(("round", rule, str(loc) if loc else "", st.g["round"],
                                 {k.name: k.positions(st) for k in kinds}))

        # the first phase of rounds starts at the round a scenario asked for (`Hooks`)
        first, self.hooks.first_round = self.hooks.first_round - 1, 1
        em.emit(EXEC, w, lambda st, env: st.g.__setitem__("round", first))
        top = em.emit(EXEC, w, next_round)
        self.emit_code("round_start", em, w)
        slot = f"__order{top}"
        em.emit(FOR_INIT, w, slot, order)
        nxt = em.emit(FOR_NEXT, w, turn, slot, None)
        self.emit_code("turn_start", em, w)
        decider = None
        if turn_t == SEAT:
            decider = ("turn_seat", turn)
        elif turn_t == PIECE:
            decider = ("turn_owner", turn)
        for step in ph.steps:
            srule = f"steps.{step.id}"
            jf = None
            cond, body = self.rules.tree(srule + ".if"), self.rules.tree(srule)
            if cond is not None:
                jf = em.emit(JMPF, (cond.loc, srule), None, None)
            if body is not None:
                self.rule_block(body, srule, em, decider)
            if self.hooks.stops:
                em.emit(STOP, (step.loc, srule), f"step:{step.id}")
            if jf is not None:
                em.set(jf, JMPF, (cond.loc, srule), self.value_fn(cond, srule + ".if"), em.here())
        self.emit_code("turn_end", em, w)
        em.emit(JMP, w, nxt)
        em.set(nxt, FOR_NEXT, w, turn, slot, em.here())
        self.emit_code("round_end", em, w)
        until_expr = self.rules.tree(f"phases.{ph.id}.until")
        if until_expr is not None:
            until = self.value_fn(until_expr, f"phases.{ph.id}.until")
        else:
            rounds = ph.rounds

            def until(st, env):
                return st.g["round"] >= rounds
        em.emit(JMPF, w, until, top)

    def _result(self) -> None:
        """The entries the engine reads outside the rules: every rule of an entry site (`Site.into`)."""
        r, p = self.rules, self.plan
        for site in SITES:
            if site.form is not Form.ENTRY:
                continue
            for rule in r.of(site):
                fn = self.value_fn(rule.tree, rule.id)
                p.rules[rule.id] = rule.tree.loc
                if site.keyed:
                    getattr(p, site.into)[rule.name] = fn
                    p.fact_types[rule.id] = rule.tree.typ
                else:
                    setattr(p, site.into, fn)
        p.fact_meta = dict(r.fact_meta)
        p.view = None if r.view is None else dict(r.view)
        p.colours = dict(r.colours)
        p.descending = r.descending

    def expectation(self, expr: n.Expr, rule: str = "scenario"):
        """A scenario's condition, compiled after the game (its own entry)."""
        return self.value_fn(expr, rule)


def _const(v):
    return lambda st, env: v


def _counted_type(source: n.Expr | None) -> Type | None:
    """The type of what an option ranges over, when statistics count the option by its value."""
    t = iterable_elem(source.typ) if source is not None else None
    return t if t in (CARD, PIECE, SEAT, INT, TEXT, BOOL) else None


def _run_trigger(fn, args):
    if not args:
        return lambda st, env: fn(st)
    return lambda st, env: fn(st, *[a(st, env) for a in args])


def compile_checked(rs, checked: Checked, n_seats: int, hooks: Hooks | None = None) -> Plan:
    return Compiler(rs, checked, n_seats).build(hooks)


__all__ = ["Compiler", "Hooks", "compile_checked", "Plan"]
