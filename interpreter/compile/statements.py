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

An option of a choice whose block is only plain statements (no decision, no step of the flow)
is a function of its own, `fn(st, env)`, which the unit calls when the option is taken and a bot
calls alone to see what the option does (`vm.preview`): it is written once, and a bot's look at
an option costs one call.
"""
from __future__ import annotations

import ast
import copy
from typing import Any, Callable

from ..check.checker import Ref, RefKind
from ..engine.plan import Alternative, ChooseSpec, Effects
from ..engine.vm import TAKEN
from ..lang import nodes as n
from ..lang import unparse
from ..lang.limits import MAX_LIST, Steps
from ..load.rules import TriggerDef
from ..lang.types import ANY, BOOL, CARD, INT, NONE, PIECE, PILE, SEAT, TEXT, Type, iterable_elem
from ..library.api import NOT_CONST
from . import pyast as P
from .analysis import meets_chance, reads_only_card
from .chains import exclusive
from .codegen import ident
from .context import Fn, local_name
from .flownodes import Mark, Records, Rounds, RuleBlock, StepIf, Stop, Turns
from .lower import Lowerer

# Where the `return VALUE` of a procedure that waits goes in the caller's frame, for
# `let x = proc(...)` (an engine name: no rule has it; see `vm.RESULT`).
VALUE = "__value"

# One element of a block: (its code, the first and last waiting point it holds; none: hi < lo).
Element = tuple[list[ast.stmt], int, int]


def _pc() -> ast.Name:
    return P.name("pc")


def _not_pc() -> ast.expr:
    return ast.UnaryOp(ast.Not(), _pc())


def _within(lo: int, hi: int) -> ast.expr:
    """`lo <= pc <= hi` (`pc == lo` for one point)."""
    if lo == hi:
        return P.compare(_pc(), ast.Eq(), P.const(lo))
    return ast.Compare(P.const(lo), [ast.LtE(), ast.LtE()], [_pc(), P.const(hi)])


def _either(a: ast.expr, b: ast.expr) -> ast.expr:
    return ast.BoolOp(ast.Or(), [a, b])


def _both(a: ast.expr, b: ast.expr) -> ast.expr:
    return ast.BoolOp(ast.And(), [a, b])


def _if(test: ast.expr, body: list[ast.stmt], orelse: list[ast.stmt] | None = None) -> ast.If:
    return ast.If(test, body or [ast.Pass()], orelse or [])


def _words_of(label: n.Expr) -> str:
    """How statistics name an option without a name: its label, each `{...}` in it as `…`
    (`shift to … for 1`; what it took is counted on its own row)."""
    if isinstance(label, n.Text):
        return "".join(p if isinstance(p, str) else "…" for p in label.parts)
    return unparse.expr(label)


def _counted_type(source: n.Expr | None) -> Type | None:
    """The type of what an option ranges over, when statistics count the option by its value."""
    t = iterable_elem(source.typ) if source is not None else None
    return t if t in (CARD, PIECE, SEAT, INT, TEXT, BOOL) else None


class Statements(Lowerer):
    """Statements (this class) and expressions (`Lowerer`) to Python `ast`. The compiler
    (`program.py`) provides the rules other rules call: `procedure_fn`, `trigger_fn`,
    `value_fn` and `simul_fn`."""

    def trigger_fn(self, tr: TriggerDef) -> Callable[..., Any]:  # pragma: no cover - program.py
        raise NotImplementedError

    def value_fn(self, expr: n.Expr, rule: str) -> Callable[..., Any]:  # pragma: no cover - program.py
        raise NotImplementedError

    def simul_fn(self, s: n.Simultaneously, rule: str) -> Callable[..., Any]:  # pragma: no cover
        raise NotImplementedError

    def block_fn(self, stmts: list[n.Stmt], rule: str) -> tuple[Callable[..., Any] | None, list[str]]:
        raise NotImplementedError  # pragma: no cover - program.py

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
                    out.append(_if(_not_pc(), plain))
                    plain = []
                out.extend(code)
            elif hi < lo:
                plain.extend(code)
            else:
                if plain:
                    out.append(_if(_not_pc(), plain))
                    plain = []
                out.append(_if(_either(_not_pc(), _within(lo, hi)), code))
        if plain:
            out.append(_if(_not_pc(), plain))
        return out

    def stmt(self, s: n.Stmt, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        if s.name_tag is not None and not isinstance(s, n.Choose):  # a choice counts its options
            count = self.counted(f"statements.{s.name_tag}")
            if self.flow(s, fx, wl):  # counted when it starts, not again when resumed at a point in it
                count = [_if(_not_pc(), count)]
            out.extend(P.place(x, s.loc) for x in count)
        out.extend(P.place(x, s.loc) for x in getattr(self, "s_" + type(s).__name__)(s, fx, rule, wl))
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

    def resumed(self) -> list[ast.stmt]:
        return [P.assign(P.store("pc"), P.const(0))]

    def call_point(self, fx: Fn, key: Any, target: Callable[..., Any], hint: str, names: list[str],
                   args: list[ast.expr], pre: list[ast.stmt], result: str | None) -> list[ast.stmt]:
        """A call of a procedure or trigger that waits (in statement `key`): its frame goes on
        top (with its arguments, and where its `return` goes), and this one goes on after it."""
        k = fx.unit.point(key)  # type: ignore[union-attr]
        local = ast.Dict([P.const(x) for x in names], args)
        # run from here (`vm.call_in`): on when it ends, else back to the machine with its answer
        went = fx.tmp("went")
        call = P.call(self.h("call_in"), self.st(), self.cg.const(target, hint), local, P.const(result),
                      P.name("fr"))
        go = [self.save(fx, k), P.assign(P.sub_store(P.name("fr"), P.const(1)), P.const(k)),
              P.assign(P.store(went), call),
              _if(P.compare(P.name(went), ast.IsNot(), P.const(None)), [ast.Return(P.name(went))])]
        return [_if(_not_pc(), [*pre, *go], self.resumed())]

    def waiting_call(self, e: n.Expr | None) -> bool:
        """Is `e` the call of a procedure that waits (its value taken by `let`/`=`)?"""
        return (isinstance(e, n.Call) and isinstance(e.ref, Ref) and e.ref.kind is RefKind.PROCEDURE
                and f"proc:{e.name}" in self.ck.waits)

    def proc_point(self, s: n.Stmt, call: n.Call, fx: Fn, result: str | None) -> list[ast.stmt]:
        pre: list[ast.stmt] = []
        args: list[ast.expr] = []
        for a in call.args:  # each argument charged and computed as the flow computes a value
            p, v = self.value(a, fx, checked=True)
            t = fx.tmp("a")
            pre += [*p, P.assign(P.store(t), v)]
            args.append(P.name(t))
        return self.call_point(fx, id(s), self.procedure_fn(call.name), ident("p", call.name),
                               list(self.sym.procedures[call.name]), args, pre, result)

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
            if fx.unit is not None and f"proc:{ref.name}" in self.ck.waits:
                return self.proc_point(s, call, fx, None)
            args = [self.checked(a, fx) for a in call.args]
            target = self.procedure_fn(ref.name)
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
                chain = [_if(is_(event), body, chain)]
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
            test = _both(_not_pc(), is_(event))
            chain = [_if(_either(test, _within(lo, hi)) if hi >= lo else test, code, chain)]
        length = P.call(P.name("len"), P.name(it))
        start = [*self.charge_calls(self.an.weight(s.expr), s.loc), P.assign(P.store(it), said), *count,
                 P.assign(P.store(ix), P.const(0))]
        head = [_if(P.compare(P.name(ix), ast.GtE(), length), [ast.Break()]),
                P.assign(P.store(e), P.sub(P.name(it), P.name(ix))),
                ast.AugAssign(P.store(ix), ast.Add(), P.const(1))]
        return [_if(_not_pc(), start), ast.While(P.const(True), [_if(_not_pc(), head), *chain], [])]

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
            target = self.trigger_fn(tr)
            if waits and f"trig:{tr.id}" in self.ck.waits:
                lo = fx.unit.points + 1  # type: ignore[union-attr]
                names = self.ck.trigger_params.get(tr.id, [])
                code = self.call_point(fx, key, target, ident("t", tr.id), names, list(args), [], None)
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
                out = [*pre, P.place(_if(cond, bodies[k][0], out), s.branches[k].loc)]
            return out
        b = fx.tmp("b")  # the branch taken (not resuming), then the branch entered (or resumed in)
        none = len(s.branches) if s.orelse is not None else -1
        pick: list[ast.stmt] = [P.assign(P.store(b), P.const(none))]
        for k in range(len(s.branches) - 1, -1, -1):
            pre, cond = tests[k]
            pick = [*pre, _if(cond, [P.assign(P.store(b), P.const(k))], pick)]
        enter: list[ast.stmt] = []
        for k in range(len(bodies) - 1, -1, -1):
            body, lo, hi = bodies[k]
            test = _both(_not_pc(), P.compare(P.name(b), ast.Eq(), P.const(k)))
            if hi >= lo:
                test = _either(test, _within(lo, hi))
            enter = [_if(test, body, enter)]
        return [_if(_not_pc(), pick), *enter]

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
        head = [_if(P.compare(P.name(ix), ast.GtE(), length), [ast.Break()]),
                P.assign(self.var(s.ref, fx, store=True), P.sub(P.name(it), P.name(ix))),
                ast.AugAssign(P.store(ix), ast.Add(), P.const(1))]
        return [_if(_not_pc(), start), ast.While(P.const(True), [_if(_not_pc(), head), *body], [])]

    def s_While(self, s: n.While, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        if not self.flow(s, fx, wl):
            w = 1 + self.an.weight(s.cond, *s.body)
            body = self.steps_charge(P.const(w), s.loc, Steps.WHILE) + self.block(s.body, fx, rule, wl)
            return [ast.While(self.expr(s.cond, fx), body, [])]
        # in a unit: each test is a step, and its calls charged, as the flow computes a value
        assert fx.unit is not None
        pre, cond = self.value(s.cond, fx)
        head = [*self.steps_charge(P.const(1), s.loc, Steps.WHILE), *pre,
                _if(ast.UnaryOp(ast.Not(), cond), [ast.Break()])]
        lo = fx.unit.points + 1
        body = self.block(s.body, fx, rule, wl + 1)
        if fx.unit.points < lo:
            return [ast.While(P.const(True), head + body, [])]
        return [ast.While(P.const(True), [_if(_not_pc(), head), *body], [])]

    # ---- choices ----------------------------------------------------------------------------------

    def seat_fn(self, s: n.Choose, fx: Fn, rule: str) -> Callable[..., Any]:
        """Who makes the choice: its `by`, else who the block says (the turn's seat or the owner of
        the turn's piece; the seat of a `simultaneously`)."""
        if s.by is not None:
            return self.value_fn(s.by, rule)
        return self.value_fn(fx.decider if fx.decider is not None else n.NoneLit(s.loc), rule)

    def effects(self, body: list[n.Stmt], fx: Fn, wl: int) -> tuple[Effects, int]:
        """What a bot's look at an option plays (`vm.preview`), and up to which statement: its
        own statements when they are all plain ones (up to a `break` leaving the loop that
        waits), nothing when there are none, else the game up to the next decision."""
        some = False
        for i, s in enumerate(body):
            if isinstance(s, n.Pass):
                continue
            if self.flow(s, fx, wl):
                if isinstance(s, n.Break):
                    return (Effects.RUN if some else Effects.NONE), i
                return Effects.PLAY, len(body)
            some = True
        return (Effects.RUN if some else Effects.NONE), len(body)

    def s_Choose(self, s: n.Choose, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        unit = fx.unit
        assert unit is not None, "a choice in code that never waits"
        k = unit.point(id(s))
        prompt = s.prompt if s.prompt is not None else n.Text(s.loc, ["Choose"])
        spec = ChooseSpec(self.value_fn(prompt, rule), self.seat_fn(s, fx, rule), [], s.loc, rule)
        choice = f"choices.{s.name_tag}" if s.name_tag is not None else rule  # its name in statistics
        # The legal options, listed here: each option's list computed once per decision (a list
        # written alike for two options once, unless computing it draws chance), its `if`
        # tested with the value in a Python variable.
        opts = fx.tmp("opts")
        listing: list[ast.stmt] = [P.assign(P.store(opts), ast.List([], P.LOAD))]
        add = P.attr(P.name(opts), "append")
        lists: list[tuple[n.Expr, str]] = []
        for i, opt in enumerate(s.options):
            if opt.var is not None and opt.source is not None:
                items = next((t for src, t in lists if src is opt.source or
                              (n.same(src, opt.source) and not meets_chance(src))), None)
                if items is None:
                    items = fx.tmp("items")
                    lists.append((opt.source, items))
                    listing.append(P.place(P.assign(P.store(items), self.items(opt.source, fx, copy=False)),
                                           opt.source.loc))
                var = fx.tmp("o_")
                fx.comp[id(opt.ref)] = var
                if opt.inner:
                    listing += self.option_loops(opt, i, var, items, opts, fx)
                else:
                    w = self.an.weight(opt.cond)  # the `if` is tested for each item: its calls each time
                    if w:
                        length = P.call(P.name("len"), P.name(items))
                        each = P.binop(length, ast.Mult(), P.const(w))
                        listing += self.steps_charge(each, opt.loc, Steps.CALLS)
                    cond = self.expr(opt.cond, fx) if opt.cond is not None else None
                    del fx.comp[id(opt.ref)]  # in the option's block, its variable is a local of the rule
                    entry = P.expr_stmt(P.call(add, ast.Tuple([P.const(i), P.name(var)], P.LOAD)))
                    each_item: list[ast.stmt] = [entry]
                    if cond is not None:
                        each_item = [P.place(ast.If(cond, [entry], []), opt.loc)]
                    listing.append(P.place(ast.For(P.store(var), P.name(items), each_item, []), opt.loc))
            else:
                entry = P.expr_stmt(P.call(add, ast.Tuple([P.const(i), P.const(None)], P.LOAD)))
                if opt.cond is not None:
                    listing.append(P.place(ast.If(self.expr(opt.cond, fx), [entry], []), opt.loc))
                else:
                    listing.append(P.place(entry, opt.loc))
            names = opt.var if not opt.inner else (str(opt.var), *(c.var for c in opt.inner))
            # a label that reads only the option's value (a card's fixed properties) and
            # constants reads the same for the same value: kept once read (`ChooseSpec.label`)
            fixed = not opt.inner and reads_only_card(opt.label, opt.ref if opt.var is not None else None)
            spec.alts.append(Alternative(self.value_fn(opt.label, rule), names,
                                         key=f"{choice} > {opt.name_tag or _words_of(opt.label)}",
                                         of=None if opt.inner else _counted_type(opt.source),
                                         labels={} if fixed else None))
        once = [o.source for o in s.options if o.source is not None]
        once += [o.cond for o in s.options if o.source is None and o.cond is not None]
        listing = self.charge_calls(self.an.weight(*once), s.loc) + listing
        # asked (or taken at once: a single option, a commitment revealed), then the option taken
        taken, alt, pick = fx.tmp("taken"), fx.tmp("alt"), fx.tmp("pick")
        spec_c = self.cg.const(spec, "choice")
        env = P.name("env")
        asks = [P.assign(P.sub_store(P.name("fr"), P.const(1)), P.const(k)), ast.Return(P.const(True))]
        decide = [*listing, self.save(fx, k),
                  P.assign(P.store(pick), P.call(self.h("decide"), self.st(), spec_c, P.name(opts), env,
                                                 P.name("fr"), P.const(k))),
                  _if(P.compare(P.name(pick), ast.Lt(), P.const(0)), asks),
                  P.assign(P.store(taken), P.call(self.h("take"), self.st(), spec_c, P.name(opts), env,
                                                  P.name(pick)))]
        resume = [*self.resumed(), P.assign(P.store(taken), P.sub(env, P.const(TAKEN)))]
        branches: list[tuple[list[ast.stmt], int, int]] = []
        for i, opt in enumerate(s.options):
            alt_i = spec.alts[i]
            alt_i.effects, cut = self.effects(opt.body, fx, wl)
            lo = unit.points + 1
            if alt_i.effects is Effects.RUN:  # its own function, which a bot may play alone
                alt_i.run, changed = self.block_fn(opt.body[:cut], rule)
            if alt_i.run is not None:  # called with the locals kept (and its value), read back after
                env_ = P.name("env")
                body = [P.expr_stmt(P.call(self.cg.const(alt_i.run, "option"), self.st(), env_)),
                        *(P.assign(P.store(local_name(x)), P.sub(env_, P.const(x))) for x in changed),
                        *self.block(opt.body[cut:], fx, rule, wl)]
                for x in changed:
                    unit.keep(x, local_name(x))
            else:
                if alt_i.effects is Effects.RUN:
                    alt_i.effects = Effects.NONE  # its statements come to nothing
                body = self.block(opt.body, fx, rule, wl)
            hi = unit.points
            if opt.var is not None:
                value = P.sub(P.name(taken), P.const(1))
                bind: ast.stmt = P.assign(self.var(opt.ref, fx, store=True), value)
                if opt.inner:  # several `for`s: the option's value is a tuple of theirs
                    targets = [self.var(r, fx, store=True) for r in (opt.ref, *(c.ref for c in opt.inner))]
                    bind = P.assign(ast.Tuple(targets, ast.Store()), value)
                body = [_if(_not_pc(), [bind]) if hi >= lo else bind, *body]
            branches.append((body, lo, hi))
        inner = any(hi >= lo for _b, lo, hi in branches)
        out: list[ast.stmt] = [_if(_not_pc(), decide, [_if(P.compare(_pc(), ast.Eq(), P.const(k)), resume)]
                                   if inner else resume)]
        which: ast.stmt = P.assign(P.store(alt), P.sub(P.name(taken), P.const(0)))
        out.append(_if(_not_pc(), [which]) if inner else which)
        enter: list[ast.If] = []
        for i, (body, lo, hi) in enumerate(branches):
            taken_i: ast.expr = P.compare(P.name(alt), ast.Eq(), P.const(i))
            if inner:
                taken_i = _both(_not_pc(), taken_i)
            if hi >= lo:
                taken_i = _either(taken_i, _within(lo, hi))
            enter.append(P.place(_if(taken_i, body), s.options[i].loc))
        return out + exclusive(enter)  # the option taken, or the one resumed in: one at most

    def option_loops(self, opt: n.Option, i: int, var: str, items: str, opts: str,
                     fx: Fn) -> list[ast.stmt]:
        """The options of `option ... for a in xs for b in ys [if COND]`: a loop inside a loop,
        each option's value the tuple of its variables. Each inner list is computed, and counted
        with what its items cost (one step and the calls of the `if`), each time round the loop
        outside it; the outer list, with the calls that computing the inner lists makes. More than
        `MAX_LIST` options in all is a rule error, checked as the product grows."""
        add = P.attr(P.name(opts), "append")
        names = [var]
        for clause in opt.inner:
            names.append(fx.tmp("o_"))
            fx.comp[id(clause.ref)] = names[-1]
        entry = P.expr_stmt(P.call(add, ast.Tuple([P.const(i), ast.Tuple([P.name(x) for x in names], P.LOAD)],
                                                  P.LOAD)))
        body: list[ast.stmt] = [entry]
        if opt.cond is not None:
            body = [P.place(ast.If(self.expr(opt.cond, fx), [entry], []), opt.loc)]
        w = 1 + self.an.weight(opt.cond)
        for k in range(len(opt.inner) - 1, -1, -1):
            clause = opt.inner[k]
            t = fx.tmp("items")
            length = P.call(P.name("len"), P.name(t))
            charge = self.steps_charge(length if w == 1 else P.binop(length, ast.Mult(), P.const(w)),
                                       clause.loc, Steps.CALLS)
            inner = self.items(clause.source, fx, copy=False)
            body = [P.place(P.assign(P.store(t), inner), clause.source.loc), *charge,
                    P.place(ast.For(P.store(names[k + 1]), P.name(t), body, []), clause.loc)]
            if k == len(opt.inner) - 1:  # a product of lists: checked as it grows, by one list at most
                many = P.compare(P.call(P.name("len"), P.name(opts)), ast.Gt(), P.const(MAX_LIST))
                body.append(P.place(ast.If(many, [ast.Raise(P.call(self.h("options")), None)], []), opt.loc))
            w = 1 + self.an.weight(clause.source)
        for clause in opt.inner:
            del fx.comp[id(clause.ref)]  # in the option's block, its variables are locals of the rule
        del fx.comp[id(opt.ref)]
        length = P.call(P.name("len"), P.name(items))
        charge = self.steps_charge(P.binop(length, ast.Mult(), P.const(w)), opt.loc, Steps.CALLS)
        return [*charge, P.place(ast.For(P.store(var), P.name(items), body, []), opt.loc)]

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
        body = self.simul_fn(s, rule)
        pre = self.charge_calls(self.an.weight(s.seats), s.seats.loc)
        seats = fx.tmp("seats")
        env = P.name("env")
        start = [*pre, P.assign(P.store(seats), P.call(P.name("list"), self.items(s.seats, fx, copy=True))),
                 _if(P.name(seats), [self.save(fx, k),
                                     P.assign(P.attr_store(self.st(), "simul"),
                                              P.call(self.h("simul"), self.st(), P.name(seats),
                                                     P.const(s.var), self.cg.const(body, "simultaneously"),
                                                     P.call(P.name("dict"), env),
                                                     self.cg.const(self.secrecy(s), "secrecy"))),
                                     P.assign(P.sub_store(P.name("fr"), P.const(1)), P.const(k)),
                                     ast.Return(P.const(True))])]
        reveal = [P.assign(P.sub_store(P.name("fr"), P.const(1)), P.const(after)),
                  P.expr_stmt(P.call(self.h("reveal"), self.st(), env)), ast.Return(P.const(False))]
        return [_if(_not_pc(), start, [_if(P.compare(_pc(), ast.Eq(), P.const(k)), reveal, self.resumed())])]

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
                return [_if(_not_pc(), start), *body]
            return start + body
        finally:
            fx.rule, fx.decider = saved

    def s_StepIf(self, s: StepIf, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        return self.s_If(s, fx, rule, wl)

    def s_Turns(self, s: Turns, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        return self.s_For(s, fx, rule, wl)

    def s_Mark(self, s: Mark, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        return self.traced([P.const("phase"), P.const(s.rule), self.where(s.loc)])

    def s_Stop(self, s: Stop, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
        k = fx.unit.point(id(s))  # type: ignore[union-attr]
        w = fx.tmp("w")
        watch, name = P.name(w), P.const(s.name)
        asked = _both(P.compare(watch, ast.IsNot(), P.const(None)),
                      P.compare(P.attr(watch, "stop"), ast.Eq(), name))
        stop = [P.assign(P.attr_store(watch, "stop"), P.const(None)),
                P.assign(P.attr_store(watch, "stopped"), name), *self.wait(fx, k, True)]
        return [_if(_not_pc(), [P.assign(P.store(w), P.attr(self.st(), "watch")), _if(asked, stop)],
                    self.resumed())]

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
                 _if(P.compare(g_item("__rounds"), ast.Gt(), P.const(limit)), [ast.Raise(error, None)]),
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
        end = [*pre, _if(until, [ast.Break()])]
        if fx.unit.points < lo:  # type: ignore[union-attr]
            return [*start, ast.While(P.const(True), [*count, *body, *end], [])]
        return [_if(_not_pc(), start), ast.While(P.const(True), [_if(_not_pc(), count), *body, *end], [])]

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
