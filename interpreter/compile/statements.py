"""Statements to Python `ast`, each construct in one place, for code that never waits and for
code that may wait for a decision.

Code that never waits (a function, a procedure or trigger that never reaches a `choose`, an
entry) is ordinary Python. A rule that may wait (the game's flow, a procedure or trigger that
reaches a `choose`, the block of a `simultaneously`) is a *unit*: a resumable function
`fn(st, fr)` run in a frame `[fn, pc, env]` (`engine/vm.py`), in the style of a
generator written out by hand:

- each waiting point (a `choose` that asks, a `simultaneously`, a call of a procedure or trigger
  that waits, a scenario's stop) has a number; waiting there, the function keeps its locals in
  `env`, sets `fr[1]` to the point and returns; called again, it reads them back and runs from
  the point (`pc`), so a game can be copied at any decision (the frame is plain data);
- a statement that holds no waiting point is the same Python as anywhere else; one that holds
  points keeps its Python shape (a loop is a Python loop, a `break` a Python `break`), with tests
  of `pc` that skip what ran before the point: `if not pc:` around what runs only on the way in,
  `lo <= pc <= hi` to enter the part that holds the point;
- the statements between two points are charged their steps together, as they always were
  (`weight`), so that a game stops at its step limit where it always did.

A `choose` is written by `choices.py`, called from here (`s_Choose`) like any construct.
"""
from __future__ import annotations

import ast
import copy
from typing import Any, ClassVar

from ..check.checked import Callee, Ref, RefKind
from ..lang import nodes as n
from ..base.limits import Steps
from ..lang.types import ANY, CARD, INT, NONE, PILE
from ..library.api import NOT_CONST
from . import choices
from . import pyast as P
from .codegen import ident
from .context import Fn, not_pc, pc, resumed, within
from .flownodes import HookCall, Mark, Records, Rounds, RuleBlock, StepIf, Stop, Turns
from .lower import Lowerer

# Where the `return VALUE` of a procedure that waits goes in the caller's frame, for
# `let x = proc(...)` (an engine name: no rule has it; see `vm.RESULT`).
VALUE = "__value"

# One element of a block: (its code, the first and last waiting point it holds; none: hi < lo).
Element = tuple[list[ast.stmt], int, int]


class Statements(Lowerer):
    """Statements (this class) and expressions (`Lowerer`) to Python `ast`: the lowering, one
    object the compiler's driver (`program.py`) owns and is asked by (`lower.Driver`)."""
    walks: ClassVar[tuple[type, ...]] = (n.Stmt, n.Expr)
    extra = (HookCall, Mark, Records, Rounds, RuleBlock, StepIf, Stop, Turns)   # the flow (flownodes.py)
    absent = frozenset({"Proceed"})   # an extension's `proceed` is the rule's own statements (load/extend.py)

    # ---- blocks ------------------------------------------------------------------------------------

    def flow(self, s: n.Stmt, fx: Fn, wl: int) -> bool:
        """Is `s` a statement of a unit's flow (rather than one of a run of statements charged
        together)? One that may wait, one of the flow's own (`flownodes.py`), a `break` leaving a
        loop that waits (`wl`: such loops around it), a `return` leaving a procedure that waits."""
        if fx.unit is None:
            return False
        an = self.an
        return (an.waits(s) or an.holds_flow(s) or bool(wl and an.escapes(s))
                or (fx.unit.returns and an.has_return(s)))

    def block(self, stmts: list[n.Stmt], fx: Fn, rule: str, wl: int = 0) -> list[ast.stmt]:
        """A list of statements. In a unit: runs of statements charged together (a segment), the
        statements of the flow between them, and the tests of `pc` that resuming needs."""
        if fx.unit is None:
            return [x for s in stmts for x in self.stmt(s, fx, rule, wl)]
        elements: list[Element] = []
        run: list[n.Stmt] = []
        for s in stmts:
            if isinstance(s, n.Pass):
                continue  # nothing to run (an option that does nothing then costs no copy to a bot)
            if self.flow(s, fx, wl):
                if run:
                    elements.append((self.segment(run, fx, rule), 0, -1))
                    run = []
                lo = fx.unit.points + 1
                code = self.stmt(s, fx, rule, wl)
                elements.append((code, lo, fx.unit.points))
            else:
                run.append(s)
        if run:
            elements.append((self.segment(run, fx, rule), 0, -1))
        return self.guarded(elements)

    def segment(self, run: list[n.Stmt], fx: Fn, rule: str) -> list[ast.stmt]:
        """Statements that run one after the other, charged their calls together when they start."""
        body = [x for s in run for x in self.stmt(s, fx, rule, 0)]
        if not body:
            return []
        return self.charge_calls(self.an.weight(*run), run[0].loc) + body

    @staticmethod
    def guarded(elements: list[Element]) -> list[ast.stmt]:
        """Elements in a row, each before the last one that holds a waiting point tested so that
        resuming at a later point skips it (past the last such element, `pc` is 0 again)."""
        last = max((i for i, (_c, lo, hi) in enumerate(elements) if hi >= lo), default=-1)
        out: list[ast.stmt] = []
        plain: list[ast.stmt] = []
        for i, (code, lo, hi) in enumerate(elements):
            if not code:
                continue
            if i >= last:
                if plain:
                    out.append(P.if_(not_pc(), plain))
                    plain = []
                out.extend(code)
            elif hi < lo:
                plain.extend(code)
            else:
                if plain:
                    out.append(P.if_(not_pc(), plain))
                    plain = []
                out.append(P.if_(P.or_(not_pc(), within(lo, hi)), code))
        if plain:
            out.append(P.if_(not_pc(), plain))
        return out

    def stmt(self, s: n.Stmt, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        if s.name_tag is not None and not isinstance(s, n.Choose):  # a choice counts its options
            count = self.counted(f"statements.{s.name_tag}")
            if self.flow(s, fx, wl):  # counted when it starts, not again when resumed at a point in it
                count = [P.if_(not_pc(), count)]
            out.extend(P.place(x, s.loc) for x in count)
        out.extend(P.place(x, s.loc) for x in self.case(type(s))(self, s, fx, rule, wl))
        return out

    def counted(self, name: str) -> list[ast.stmt]:
        """`if st.tally is not None: st.tally.count(NAME)`: the statistics' count of a rule or a
        named statement, one test when nobody counts (engine/tally.py)."""
        tally = P.attr(self.st(), "tally")
        return [ast.If(P.compare(tally, ast.IsNot(), P.const(None)),
                       [P.expr_stmt(P.call(P.attr(tally, "count"), P.const(name)))], [])]

    def traced(self, entry: list[ast.expr]) -> list[ast.stmt]:
        """`if st.trace is not None: st.trace.append(ENTRY)`."""
        trace = P.attr(self.st(), "trace")
        return [ast.If(P.compare(trace, ast.IsNot(), P.const(None)),
                       [P.expr_stmt(P.call(P.attr(trace, "append"), ast.Tuple(entry, P.LOAD)))], [])]

    def where(self, loc: Any) -> ast.expr:
        """A position as the trace gives it (`file:line:col`), a constant of the namespace (the
        code itself says the same wherever the file is)."""
        return self.cg.named(str(loc) if loc else "", "where")

    def value(self, e: n.Expr, fx: Fn, checked: bool = False) -> tuple[list[ast.stmt], ast.expr]:
        """A value the flow computes on its own: (statements first, the value): the calls it makes
        charged, the lists its comprehensions go through computed first."""
        first, (value,) = self.hoisting(fx, e)
        if checked:
            value = self.checked_value(e, value)
        return self.charge_calls(self.an.weight(e), e.loc) + first, value

    # ---- waiting points ---------------------------------------------------------------------------

    def save(self, fx: Fn, k: int) -> ast.stmt:
        """The locals a unit keeps in `env` at point `k` (those live there), as they are."""
        assert fx.unit is not None
        return fx.unit.save(k)

    def wait(self, fx: Fn, k: int, result: bool) -> list[ast.stmt]:
        """Wait at point `k`: locals kept, the point noted in the frame, back to the machine
        (`result`: it stops, for a decision; else it runs the frame on top)."""
        return [self.save(fx, k), P.assign(P.sub_store(P.name("fr"), P.const(1)), P.const(k)),
                ast.Return(P.const(result))]

    def call_point(self, fx: Fn, key: Any, target: ast.expr, names: list[str],
                   args: list[ast.expr], pre: list[ast.stmt], result: str | None) -> list[ast.stmt]:
        """A call of a procedure or trigger that waits (in statement `key`; `target`: the unit
        called): its frame goes on top (with its arguments, and where its `return` goes), and this
        one goes on after it."""
        k = fx.unit.point(key)  # type: ignore[union-attr]
        local = ast.Dict([P.const(x) for x in names], args)
        # run from here (`vm.call_in`): on when it ends, else back to the machine with its answer
        went = fx.tmp("went")
        call = P.call(self.h("call_in"), self.st(), target, local, P.const(result), P.name("fr"))
        go = [self.save(fx, k), P.assign(P.sub_store(P.name("fr"), P.const(1)), P.const(k)),
              P.assign(P.store(went), call),
              P.if_(P.compare(P.name(went), ast.IsNot(), P.const(None)), [ast.Return(P.name(went))])]
        return [P.if_(not_pc(), [*pre, *go], resumed())]

    def waiting_call(self, e: n.Expr | None) -> bool:
        """Is `e` the call of a procedure that waits (its value taken by `let`/`=`)?"""
        return (isinstance(e, n.Call) and isinstance(e.ref, Ref) and e.ref.kind is RefKind.PROCEDURE
                and Callee.procedure(e.name) in self.ck.waits)

    def proc_point(self, s: n.Stmt, call: n.Call, fx: Fn, result: str | None) -> list[ast.stmt]:
        pre: list[ast.stmt] = []
        args: list[ast.expr] = []
        for a in call.args:  # each argument charged and computed as the flow computes a value
            p, v = self.value(a, fx, checked=True)
            t = fx.tmp("a")
            pre += [*p, P.assign(P.store(t), v)]
            args.append(P.name(t))
        target = self.cg.const(self.driver.procedure_fn(call.name), ident("p", call.name))
        return self.call_point(fx, id(s), target, list(self.sym.procedures[call.name]), args, pre, result)

    # ---- statements -------------------------------------------------------------------------------

    def s_Pass(self, s: n.Pass, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        return []

    def s_Break(self, s: n.Break, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        return [ast.Break()]

    def s_End(self, s: n.End, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        return [P.expr_stmt(P.call(self.h("end")))]

    def s_Let(self, s: n.Let, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        if fx.unit is not None and self.waiting_call(s.value):
            return self.took(s, fx, rule)
        first, (value,) = self.hoisting(fx, s.value)
        target = self.var(s.ref, fx, store=True)
        read = self.var(s.ref, fx)
        return [*first, P.assign(target, value), *self.check_stmt(read, s.value, s.loc)]

    def took(self, s: n.Let | n.Assign, fx: Fn, rule: str) -> list[ast.stmt]:
        """`let x = proc(...)` of a procedure that waits: the call (its `return` leaves the value
        in this frame), then the statement with that value."""
        call: n.Call = s.value  # type: ignore[assignment]
        taken = copy.copy(s)
        taken.value = n.Name(call.loc, VALUE, typ=call.typ, ref=Ref(RefKind.MACHINE_VALUE, VALUE))
        return self.proc_point(s, call, fx, VALUE) + self.segment([taken], fx, rule)

    def place_of(self, t: n.Expr, fx: Fn, store: bool) -> ast.expr:
        """A local, a game variable or `x.VAR` as a place to read or write."""
        ref: Ref = t.ref
        if ref.kind is RefKind.LOCAL:
            return self.var(ref.extra, fx, store)
        if ref.kind is RefKind.GLOBAL:
            key = P.const(ref.name)
            return P.sub_store(P.attr(self.st(), "g"), key) if store else P.sub(P.attr(self.st(), "g"), key)
        obj = self.expr(t.obj, fx)  # type: ignore[attr-defined]
        index = P.binop(P.const(self.plan.var_at[ref.name]), ast.Add(), obj)
        return P.sub_store(P.attr(self.st(), "v"), index) if store else P.sub(P.attr(self.st(), "v"), index)

    def item_place(self, t: n.Expr, fx: Fn) -> tuple[list[ast.stmt], ast.expr, Any]:
        """An assignable place as (statements computing where it is, once; an expression reading
        it; a function from a value to statements storing it). An item of a list or map is
        stored by storing a changed copy of its container."""
        ref: Ref = t.ref
        if ref.kind in (RefKind.LIST_ITEM, RefKind.MAP_ITEM):
            pre, load, store = self.item_place(t.obj, fx)  # type: ignore[attr-defined]
            if isinstance(t, n.Attr):
                key: ast.expr = P.const(t.name)
            else:
                k = fx.tmp("k")
                pre = [*pre, P.assign(P.store(k), self.expr(t.index, fx))]  # type: ignore[attr-defined]
                key = P.name(k)
            if ref.kind is RefKind.LIST_ITEM:
                return (pre, P.call(self.h("index"), load, key),
                        lambda v: store(P.call(self.h("put_item"), self.st(), load, key, v)))
            return (pre, P.call(P.attr(load, "get"), key, self.cg.const(ref.extra, "zero")),
                    lambda v: store(P.call(self.h("put_key"), self.st(), load, key, v)))
        if ref.kind in (RefKind.PIECE_VAR, RefKind.SEAT_VAR, RefKind.CARD_VAR):
            o = fx.tmp("o")
            index = P.binop(P.const(self.plan.var_at[ref.name]), ast.Add(), P.name(o))
            vs = P.attr(self.st(), "v")
            return ([P.assign(P.store(o), self.expr(t.obj, fx))], P.sub(vs, index),  # type: ignore[attr-defined]
                    lambda v: [P.assign(P.sub_store(vs, index), v)])
        return [], self.place_of(t, fx, False), lambda v: [P.assign(self.place_of(t, fx, True), v)]

    def s_Assign(self, s: n.Assign, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        if fx.unit is not None and self.waiting_call(s.value):
            return self.took(s, fx, rule)
        first, (value,) = self.hoisting(fx, s.value)
        if s.target.ref.kind in (RefKind.LIST_ITEM, RefKind.MAP_ITEM):  # `xs[i] = v`, `m[k] = v`, `m.key = v`
            pre, _load, store = self.item_place(s.target, fx)
            t = fx.tmp()
            return [*first, *pre, P.assign(P.store(t), value), *self.check_stmt(P.name(t), s.value, s.loc),
                    *store(P.name(t))]
        if isinstance(s.target, n.Name) or not self.an.grows(s.value):
            return [*first, P.assign(self.place_of(s.target, fx, True), value),
                    *self.check_stmt(self.place_of(s.target, fx, False), s.value, s.loc)]
        # `x.VAR = ...`: the place's index is computed once
        t = fx.tmp()
        return [*first, P.assign(P.store(t), value), *self.check_stmt(P.name(t), s.value, s.loc),
                P.assign(self.place_of(s.target, fx, True), P.name(t))]

    def s_AugAssign(self, s: n.AugAssign, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        op = ast.Add() if s.op == "+=" else ast.Sub()
        if s.target.ref.kind in (RefKind.LIST_ITEM, RefKind.MAP_ITEM):
            pre, load, store = self.item_place(s.target, fx)
            t = fx.tmp()
            return [*pre, P.assign(P.store(t), P.binop(load, op, self.expr(s.value, fx))),
                    *self.check_stmt(P.name(t), None, s.loc), *store(P.name(t))]
        target: Any = self.place_of(s.target, fx, True)
        out: list[ast.stmt] = [ast.AugAssign(target, op, self.expr(s.value, fx))]
        small = isinstance(s.value, n.Num) and s.value.value <= 1_000_000
        if not small and s.value.typ in (INT, ANY):  # `x += x` doubles: the result is checked
            out.extend(self.check_stmt(self.place_of(s.target, fx, False), None, s.loc))
        return out

    def s_Do(self, s: n.Do, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        call: n.Call = s.expr  # type: ignore[assignment]
        ref: Ref = call.ref
        if ref.kind is RefKind.PROCEDURE:
            if fx.unit is not None and Callee.procedure(ref.name) in self.ck.waits:
                return self.proc_point(s, call, fx, None)
            args = [self.checked(a, fx) for a in call.args]
            target = self.driver.procedure_fn(ref.name)
            return [P.expr_stmt(P.call(self.cg.const(target, ident("p", ref.name)), self.st(), *args))]
        b = ref.extra
        args = [self.expr(a, fx) for a in call.args]
        heard = [ev for ev in b.events if self.ck.handlers.get(ev)]
        if heard:
            return self.heard(s, b, args, heard, fx)
        run = b.run
        if b.bind is not None:
            consts = [a.value if P.is_const(a) else NOT_CONST for a in args]
            run = b.bind(self.plan, consts) or run
        return [P.expr_stmt(P.call(self.cg.const(run, b.name), self.st(), *args))]

    def heard(self, s: n.Do, b: Any, args: list[ast.expr], events: list[str], fx: Fn) -> list[ast.stmt]:
        """A board's effect in a game with triggers on what it raises (`Builtin.heard`): the effect,
        which says what happened, then each of those events in turn, with the triggers of the ones
        the game waits for (given the event's values), as an `emit` runs them. Each event counts a
        step; in a unit that may wait in a trigger, the list and the place in it are kept."""
        unit = fx.unit
        waits = unit is not None and self.an.waits(s)
        said = P.call(self.cg.const(b.heard, b.name), self.st(), *args)
        it, e = (fx.tmp("it"), fx.tmp("e"))
        count = self.steps_charge(P.call(P.name("len"), P.name(it)), s.loc)

        def values(event: str) -> list[ast.expr]:
            return [P.sub(P.name(e), P.const(j)) for j in range(1, len(self.sym.board_events[event]) + 1)]

        def is_(event: str) -> ast.expr:
            return P.compare(P.sub(P.name(e), P.const(0)), ast.Eq(), P.const(event))
        if not waits:
            chain: list[ast.stmt] = []
            for event in reversed(events):
                body = [x for code, _lo, _hi in self.triggers_of(event, values(event), id(s), fx, False)
                        for x in code]
                chain = [P.if_(is_(event), body, chain)]
            return [P.assign(P.store(it), said), *count, ast.For(P.store(e), P.name(it), chain, [])]
        assert unit is not None
        ix = fx.tmp("ix")
        for x in (it, ix, e):
            unit.keep(f"__{x}", x)
        unit.temps += [f"__{it}", f"__{ix}", f"__{e}"]
        branches = []
        for event in events:
            lo = unit.points + 1
            code = self.guarded(self.triggers_of(event, values(event), id(s), fx, True))
            branches.append((event, code, lo, unit.points))
        del unit.temps[-3:]
        chain = []
        for event, code, lo, hi in reversed(branches):
            test = P.and_(not_pc(), is_(event))
            chain = [P.if_(P.or_(test, within(lo, hi)) if hi >= lo else test, code, chain)]
        length = P.call(P.name("len"), P.name(it))
        start = [*self.charge_calls(self.an.weight(s.expr), s.loc), P.assign(P.store(it), said), *count,
                 P.assign(P.store(ix), P.const(0))]
        head = [P.if_(P.compare(P.name(ix), ast.GtE(), length), [ast.Break()]),
                P.assign(P.store(e), P.sub(P.name(it), P.name(ix))),
                ast.AugAssign(P.store(ix), ast.Add(), P.const(1))]
        return [P.if_(not_pc(), start), ast.While(P.const(True), [P.if_(not_pc(), head), *chain], [])]

    def s_Move(self, s: n.Move, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        dest = self.expr(s.dest, fx)
        face, bottom = P.const(s.face_up), P.const(s.bottom)
        move = P.attr(self.st(), "move")
        if s.what.typ in (CARD, NONE):  # one card (`none` moves nothing)
            d, c = fx.tmp("d"), fx.tmp("c")
            return [P.assign(P.store(d), dest), P.assign(P.store(c), self.expr(s.what, fx)),
                    ast.If(P.compare(P.name(c), ast.IsNot(), P.const(None)),
                           [P.expr_stmt(P.call(move, P.name(c), P.name(d), face, bottom))], [])]
        if s.what.typ == PILE:  # all its cards at once
            return [P.expr_stmt(P.call(P.attr(self.st(), "move_all"), self.expr(s.what, fx),
                                       dest, face, bottom))]
        # several cards one by one; at the bottom the last goes first, so that they keep their order
        d, c = fx.tmp("d"), fx.tmp("c")
        cards = self.items(s.what, fx, copy=True)
        if s.bottom:
            cards = P.sub(cards, ast.Slice(None, None, P.const(-1)))
        return [P.assign(P.store(d), dest),
                ast.For(P.store(c), cards,
                        [P.expr_stmt(P.call(move, P.name(c), P.name(d), face, bottom))], [])]

    def s_Draw(self, s: n.Draw, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        return [P.expr_stmt(P.call(P.attr(self.st(), "draw"), self.expr(s.source, fx), self.expr(s.dest, fx),
                                   self.expr(s.count, fx), P.const(s.face_up)))]

    def s_Shuffle(self, s: n.Shuffle, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        return [P.expr_stmt(P.call(P.attr(self.st(), "shuffle"), self.expr(s.pile, fx)))]

    def s_Emit(self, s: n.Emit, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        """The event's triggers in turn, given its values (computed once for all of them)."""
        waits = fx.unit is not None and self.an.waits(s)
        pre: list[ast.stmt] = []
        args: list[ast.expr] = []
        for a in s.args:
            if waits:  # kept across the triggers that wait
                p, v = self.value(a, fx, checked=True)
                t = fx.kept("ev")
                pre += [*p, P.place(P.assign(P.store(t), v), a.loc)]
            else:
                t = fx.tmp("ev")
                pre.append(P.place(P.assign(P.store(t), self.checked(a, fx)), a.loc))
            args.append(P.name(t))
        elements: list[Element] = [(pre, 0, -1)]
        unit = fx.unit
        if unit is not None and waits:
            unit.temps += [f"__{t.id}" for t in args if isinstance(t, ast.Name)]
        elements += self.triggers_of(s.event, args, id(s), fx, waits)
        if unit is not None and waits and args:
            del unit.temps[-len(args):]
        return self.guarded(elements)

    def triggers_of(self, event: str, args: list[ast.expr], key: Any, fx: Fn, waits: bool) -> list[Element]:
        """The triggers of `event` called in turn with its values (`args`, computed already): a
        trigger that may wait, in a unit that may (`waits`), as a waiting point of statement `key`."""
        out: list[Element] = []
        for tr in self.ck.handlers.get(event, []):
            target = self.driver.trigger_fn(tr)
            if waits and Callee.trigger(tr.id) in self.ck.waits:
                lo = fx.unit.points + 1  # type: ignore[union-attr]
                names = self.ck.trigger_params.get(tr.id, [])
                unit = self.cg.const(target, ident("t", tr.id))
                code = self.call_point(fx, key, unit, names, list(args), [], None)
                out.append((code, lo, lo))
            else:
                call = P.call(self.cg.const(target, ident("t", tr.id)), self.st(), *args)
                out.append(([P.expr_stmt(call)], 0, -1))
        return out

    def s_Return(self, s: n.Return, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        if fx.unit is not None and fx.unit.returns:  # leaves a procedure that waits: its frame
            pre, value = self.value(s.value, fx, checked=True) if s.value is not None else ([], P.const(None))
            return [*pre, P.expr_stmt(P.call(self.h("ret"), self.st(), P.name("env"), value)),
                    ast.Return(P.const(False))]
        return [ast.Return(self.checked(s.value, fx) if s.value is not None else None)]

    def s_Say(self, s: n.Say, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        # computed only when the game is told (`st.trace`), and counting no steps: a game told
        # aloud stops where the same game played in silence does
        trace = P.attr(self.st(), "trace")
        said = P.call(self.h("said"), self.st(), P.const(rule), P.call(self.h("hush"), self.st()),
                      self.expr(s.message, fx))
        return [ast.If(P.compare(trace, ast.IsNot(), P.const(None)), [P.expr_stmt(said)], [])]

    def s_If(self, s: n.If, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        if not self.flow(s, fx, wl):  # only the first test always runs: only it is hoisted
            first, (cond,) = self.hoisting(fx, s.branches[0].cond)
            orelse = self.block(s.orelse, fx, rule, wl) if s.orelse is not None else []
            for k in range(len(s.branches) - 1, -1, -1):
                br = s.branches[k]
                test = cond if k == 0 else self.expr(br.cond, fx)
                node = ast.If(test, self.block(br.body, fx, rule, wl) or [ast.Pass()], orelse)
                orelse = [P.place(node, br.loc)]
            return [*first, *orelse]
        # in a unit: each test charged as the flow computes a value, then the branch taken
        assert fx.unit is not None
        tests: list[tuple[list[ast.stmt], ast.expr]] = []
        bodies: list[tuple[list[ast.stmt], int, int]] = []
        for br in s.branches:
            tests.append(self.value(br.cond, fx))
            lo = fx.unit.points + 1
            bodies.append((self.block(br.body, fx, rule, wl), lo, fx.unit.points))
        if isinstance(s, StepIf):
            self.cg.note(s.rule, s.branches[0].cond.loc, ast.Expr(tests[0][1]))
        if s.orelse is not None:
            lo = fx.unit.points + 1
            bodies.append((self.block(s.orelse, fx, rule, wl), lo, fx.unit.points))
        if all(hi < lo for _b, lo, hi in bodies):  # no waiting point inside: tests and branches in turn
            out: list[ast.stmt] = bodies[-1][0] if s.orelse is not None else []
            for k in range(len(s.branches) - 1, -1, -1):
                pre, cond = tests[k]
                out = [*pre, P.place(P.if_(cond, bodies[k][0], out), s.branches[k].loc)]
            return out
        b = fx.tmp("b")  # the branch taken (not resuming), then the branch entered (or resumed in)
        none = len(s.branches) if s.orelse is not None else -1
        pick: list[ast.stmt] = [P.assign(P.store(b), P.const(none))]
        for k in range(len(s.branches) - 1, -1, -1):
            pre, cond = tests[k]
            pick = [*pre, P.if_(cond, [P.assign(P.store(b), P.const(k))], pick)]
        enter: list[ast.stmt] = []
        for k in range(len(bodies) - 1, -1, -1):
            body, lo, hi = bodies[k]
            test = P.and_(not_pc(), P.compare(P.name(b), ast.Eq(), P.const(k)))
            if hi >= lo:
                test = P.or_(test, within(lo, hi))
            enter = [P.if_(test, body, enter)]
        return [P.if_(not_pc(), pick), *enter]

    def s_For(self, s: n.For, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        if not self.flow(s, fx, wl):
            items = fx.tmp("items")
            out: list[ast.stmt] = [P.assign(P.store(items), self.items(s.source, fx, copy=True))]
            w = 1 + self.an.weight(*s.body)  # each time round: one step and the body's calls
            length = P.call(P.name("len"), P.name(items))
            if self.an.const_len(s.source) is None:  # else counted where the rule starts (`weight`)
                out += self.steps_charge(length if w == 1 else P.binop(length, ast.Mult(), P.const(w)), s.loc)
            body = self.block(s.body, fx, rule, wl) or [ast.Pass()]
            out.append(ast.For(self.var(s.ref, fx, store=True), P.name(items), body, []))
            return out
        # in a unit: its list's calls charged and its length counted once, its body's as it goes
        assert fx.unit is not None
        source = self.items(s.source, fx, copy=True)
        if isinstance(s, Turns):
            self.cg.note(s.rule, s.source.loc, ast.Expr(source))
        pre = self.charge_calls(self.an.weight(s.source), s.source.loc)
        lo = fx.unit.points + 1
        it, ix = fx.tmp("it"), fx.tmp("ix")  # its list and place, kept while it waits inside
        fx.unit.temps += [f"__{it}", f"__{ix}"]
        body = self.block(s.body, fx, rule, wl + 1)
        del fx.unit.temps[-2:]
        if fx.unit.points < lo:
            t = fx.tmp("items")
            length = P.call(P.name("len"), P.name(t))
            return [*pre, P.assign(P.store(t), source), *self.steps_charge(length, s.loc),
                    ast.For(self.var(s.ref, fx, store=True), P.name(t), body or [ast.Pass()], [])]
        fx.unit.keep(f"__{it}", it)
        fx.unit.keep(f"__{ix}", ix)
        length = P.call(P.name("len"), P.name(it))
        start = [*pre, P.assign(P.store(it), source), *self.steps_charge(length, s.loc),
                 P.assign(P.store(ix), P.const(0))]
        head = [P.if_(P.compare(P.name(ix), ast.GtE(), length), [ast.Break()]),
                P.assign(self.var(s.ref, fx, store=True), P.sub(P.name(it), P.name(ix))),
                ast.AugAssign(P.store(ix), ast.Add(), P.const(1))]
        return [P.if_(not_pc(), start), ast.While(P.const(True), [P.if_(not_pc(), head), *body], [])]

    def s_While(self, s: n.While, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        if not self.flow(s, fx, wl):
            w = 1 + self.an.weight(s.cond, *s.body)
            body = self.steps_charge(P.const(w), s.loc, Steps.WHILE) + self.block(s.body, fx, rule, wl)
            return [ast.While(self.expr(s.cond, fx), body, [])]
        # in a unit: each test is a step, and its calls charged, as the flow computes a value
        assert fx.unit is not None
        pre, cond = self.value(s.cond, fx)
        head = [*self.steps_charge(P.const(1), s.loc, Steps.WHILE), *pre,
                P.if_(ast.UnaryOp(ast.Not(), cond), [ast.Break()])]
        lo = fx.unit.points + 1
        body = self.block(s.body, fx, rule, wl + 1)
        if fx.unit.points < lo:
            return [ast.While(P.const(True), head + body, [])]
        return [ast.While(P.const(True), [P.if_(not_pc(), head), *body], [])]

    # ---- decisions ---------------------------------------------------------------------------------

    def s_Choose(self, s: n.Choose, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        """A choice, written by `choices.py` with this lowering (it asks, keeps nothing)."""
        return choices.choose(self, s, fx, rule, wl)

    def secrecy(self, s: n.Simultaneously) -> Any:
        """What the checker found the block touches (`check/secret.py`): whether a seat's block may
        be taken into the table from its copy at the reveal rather than played again."""
        return self.ck.secrets.get(id(s))

    def s_Simultaneously(self, s: n.Simultaneously, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        """Each seat's choices on its own copy of the table, then revealed: the seats (if any)
        wait for their commitments (`Game`), then their blocks run in turn, answered from them."""
        unit = fx.unit
        assert unit is not None, "a `simultaneously` in code that never waits"
        k, after = unit.point(id(s)), unit.point((id(s), 2))
        body = self.driver.simul_fn(s, rule)
        pre = self.charge_calls(self.an.weight(s.seats), s.seats.loc)
        seats = fx.tmp("seats")
        env = P.name("env")
        start = [*pre, P.assign(P.store(seats), P.call(P.name("list"), self.items(s.seats, fx, copy=True))),
                 P.if_(P.name(seats), [self.save(fx, k),
                                     P.assign(P.attr_store(self.st(), "simul"),
                                              P.call(self.h("simul"), self.st(), P.name(seats),
                                                     P.const(s.var), self.cg.const(body, "simultaneously"),
                                                     P.call(P.name("dict"), env),
                                                     self.cg.const(self.secrecy(s), "secrecy"))),
                                     P.assign(P.sub_store(P.name("fr"), P.const(1)), P.const(k)),
                                     ast.Return(P.const(True))])]
        reveal = [P.assign(P.sub_store(P.name("fr"), P.const(1)), P.const(after)),
                  P.expr_stmt(P.call(self.h("reveal"), self.st(), env)), ast.Return(P.const(False))]
        return [P.if_(not_pc(), start, [P.if_(P.compare(pc(), ast.Eq(), P.const(k)), reveal, resumed())])]

    # ---- the flow's own statements (`flownodes.py`) ---------------------------------------------

    def s_RuleBlock(self, s: RuleBlock, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        """A rule's statements: traced and counted as it starts, each with its own rule."""
        saved = fx.rule, fx.decider
        fx.rule, fx.decider = s.rule, s.decider
        try:
            start = self.traced([P.const("rule"), P.const(s.rule), self.where(s.mark)])
            start += self.counted(s.rule)
            lo = fx.unit.points + 1  # type: ignore[union-attr]
            body = self.block(s.body, fx, s.rule, 0)
            self.cg.note(s.rule, s.mark, ast.Module(body, []))
            if fx.unit.points >= lo:  # type: ignore[union-attr]
                return [P.if_(not_pc(), start), *body]
            return start + body
        finally:
            fx.rule, fx.decider = saved

    def s_StepIf(self, s: StepIf, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        return self.s_If(s, fx, rule, wl)

    def s_Turns(self, s: Turns, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        return self.s_For(s, fx, rule, wl)

    def s_Mark(self, s: Mark, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        return self.traced([P.const("phase"), P.const(s.rule), self.where(s.loc)])

    def s_HookCall(self, s: HookCall, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        hooks = P.attr(P.attr(self.st(), "plan"), "hooks")
        return self.call_point(fx, id(s), P.sub(hooks, P.const(s.rule)), [], [], [], None)

    def s_Stop(self, s: Stop, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        k = fx.unit.point(id(s))  # type: ignore[union-attr]
        w = fx.tmp("w")
        watch, name = P.name(w), P.const(s.name)
        asked = P.and_(P.compare(watch, ast.IsNot(), P.const(None)),
                      P.compare(P.attr(watch, "stop"), ast.Eq(), name))
        stop = [P.assign(P.attr_store(watch, "stop"), P.const(None)),
                P.assign(P.attr_store(watch, "stopped"), name), *self.wait(fx, k, True)]
        return [P.if_(not_pc(), [P.assign(P.store(w), P.attr(self.st(), "watch")), P.if_(asked, stop)],
                    resumed())]

    def s_Rounds(self, s: Rounds, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        """`round` from `first`; each round counted (the round limit, the seats' progress for
        statistics, the trace), its body, then whether the phase ends."""
        g = P.attr(self.st(), "g")

        def g_item(key: str, store: bool = False) -> ast.Subscript:
            return P.sub_store(g, P.const(key)) if store else P.sub(g, P.const(key))
        tally = P.attr(self.st(), "tally")
        limit = self.plan.max_rounds
        error = P.call(self.h("round_limit"), P.const(f"the game passed {limit} rounds without ending"),
                       self.cg.const(s.loc, "where"), P.const(s.rule))
        start: list[ast.stmt] = [P.assign(g_item("round", True), P.const(s.first))]
        count = [ast.If(P.compare(tally, ast.IsNot(), P.const(None)),
                        [P.expr_stmt(P.call(P.attr(tally, "sample"), self.st()))], []),
                 ast.AugAssign(g_item("round", True), ast.Add(), P.const(1)),
                 ast.AugAssign(g_item("__rounds", True), ast.Add(), P.const(1)),
                 P.if_(P.compare(g_item("__rounds"), ast.Gt(), P.const(limit)), [ast.Raise(error, None)]),
                 ast.If(P.compare(P.attr(self.st(), "trace"), ast.IsNot(), P.const(None)),
                        [P.expr_stmt(P.call(self.h("trace_round"), self.st(), P.const(s.rule),
                                            self.where(s.loc)))], [])]
        lo = fx.unit.points + 1  # type: ignore[union-attr]
        body = self.block(s.body, fx, rule, wl)
        if s.until is not None:
            pre, until = self.value(s.until, fx)
            self.cg.note(f"{s.rule}.until", s.until.loc, ast.Expr(until))
        else:
            pre, until = [], P.compare(g_item("round"), ast.GtE(), P.const(s.rounds))
        end = [*pre, P.if_(until, [ast.Break()])]
        if fx.unit.points < lo:  # type: ignore[union-attr]
            return [*start, ast.While(P.const(True), [*count, *body, *end], [])]
        return [P.if_(not_pc(), start), ast.While(P.const(True), [P.if_(not_pc(), count), *body, *end], [])]

    def s_Records(self, s: Records, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        """What the game records of each seat (`record:`), when it starts."""
        seat = fx.tmp("s")
        seats = P.call(P.name("range"), P.const(self.plan.n_seats))
        values: list[ast.expr] = [ast.ListComp(P.call(self.cg.const(fn, "record"), self.st(),
                                      ast.Dict([P.const("seat")], [P.name(seat)])),
                               [ast.comprehension(P.store(seat), seats, [], 0)])
                  for fn in s.entries.values()]
        table = ast.Dict([P.const(k) for k in s.entries], values)
        return [P.assign(P.sub_store(P.attr(self.st(), "g"), P.const("__records")), table)]


__all__ = ["Statements", "VALUE"]
