"""Typed rule trees to Python `ast`: expressions (statements are in `statements.py`).

The checker has resolved every name (`node.ref`) and typed every expression (`node.typ`); the
analysis (`analysis.py`) has worked out what is known when compiling; this pass only chooses
the Python form. Optimisations are decisions on the tree, never on text: a pile read as a list
is its own list when nothing can change it meanwhile, `x in a..b` builds no list, a built-in
with constant arguments is computed here, sums over cards whose item reads only the card go
through a table (`inline.py`).

Limits are part of the code it writes: each loop charges its length to `st.steps` (and each
call of a function or procedure one step), and a number is checked against `MAX_INT` where it
is kept (a variable, an argument, a function's value) when arithmetic computed it.
"""
from __future__ import annotations

import ast
from functools import partial
from typing import Any, Callable, ClassVar, Protocol

from ..check.checked import Checked, Local, Ref, RefKind
from ..engine import helpers
from ..engine.plan import Plan
from ..base.diagnostics import Loc
from ..lang import nodes as n
from ..lang.visit import Visitor
from ..load.rules import TriggerDef
from ..base.errors import RuleError
from ..base.limits import MAX_INT, Steps
from ..lang.show import words
from ..lang.types import ANY, HELD, INT, PILE, TEXT, Per, Type, is_list, is_map
from ..library.api import NOT_CONST, Items, Read
from ..ir.models import Visibility
from ..ir.sites import FUNCTION
from . import pyast as P
from .analysis import Analysis, _Static
from .codegen import Codegen, ident
from .context import Fn, local_name
from .inline import INLINE

_OPS = {"+": ast.Add(), "-": ast.Sub(), "*": ast.Mult(), "//": ast.FloorDiv(), "%": ast.Mod()}
_CMP = {"==": ast.Eq(), "!=": ast.NotEq(), "<": ast.Lt(), "<=": ast.LtE(), ">": ast.Gt(), ">=": ast.GtE()}
# a value not computed yet, in generated code (no rule's value is this object)
UNSET = object()


class Driver(Protocol):
    """What the lowering asks of the compiler's driver (`program.Compiler`), which knows the
    whole game: the function of a rule that other rules call (written once, when first asked
    for), and the entries a statement needs of its own (a choice's labels, a secret block)."""

    def procedure_fn(self, name: str) -> Callable[..., Any]: ...

    def trigger_fn(self, tr: TriggerDef) -> Callable[..., Any]: ...

    def simul_fn(self, s: n.Simultaneously, rule: str) -> Callable[..., Any]: ...

    def value_fn(self, expr: n.Expr, rule: str) -> Callable[..., Any]: ...

    def block_fn(self, stmts: list[n.Stmt], rule: str) -> tuple[Callable[..., Any] | None, list[str]]: ...


class Lowerer(Visitor):
    """Expressions to Python `ast` (the statements are `statements.Statements`, a subclass). It
    asks the compiler's driver only what `Driver` declares."""
    walks: ClassVar[tuple[type, ...]] = (n.Expr,)

    def __init__(self, checked: Checked, plan: Plan, cg: Codegen, an: Analysis, driver: Driver):
        self.driver = driver
        self.ck = checked
        self.sym = checked.symbols
        self.plan = plan
        self.cg = cg
        self.an = an
        self.limit = plan.max_steps
        self.functions: dict[str, str] = {}     # user function -> its name in the namespace
        self._pile_at: dict[str, ast.expr] = {}
        self._show: dict[Type, ast.expr] = {}
        for hname, fn in helpers.limited(self.limit).items():
            cg.helper(hname, fn)
        self.h_each, self.h_each_w = P.name("h_each"), P.name("h_each_w")
        for why in Steps:  # the reasons a step limit is passed, as constants of generated code
            cg.ns[f"k_steps_{why.name.lower()}"] = why

    # ---- helpers -------------------------------------------------------------------------------

    def h(self, name: str) -> ast.expr:
        return P.name("h_" + name)

    def st(self) -> ast.Name:
        return P.name("st")

    def steps_charge(self, amount: ast.expr, loc: Loc | None, why: Steps = Steps.LOOPS) -> list[ast.stmt]:
        """`st.steps += amount`, and a rule error past the limit: the one spelling of the step
        limit's check in generated code (the engine's own checks raise `too_many` too)."""
        why_name = P.name(f"k_steps_{why.name.lower()}")
        stmts = [ast.AugAssign(P.attr_store(self.st(), "steps"), ast.Add(), amount),
                 ast.If(P.compare(P.attr(self.st(), "steps"), ast.Gt(), P.const(self.limit)),
                        [ast.Raise(P.call(self.h("too_many"), why_name, P.const(self.limit)), None)], [])]
        return [P.place(s, loc) for s in stmts]

    def var(self, local: Local, fx: Fn, store: bool = False) -> ast.expr:
        given = fx.given.get(id(local))
        if given is not None and not store:
            return given  # the argument of an inlined function, used once
        py = fx.comp.get(id(local))
        if py is not None:
            return P.store(py) if store else P.name(py)
        if fx.fast:
            python = local_name(local.name)
            if fx.unit is not None:
                fx.unit.keep(local.name, python)
                fx.unit.types[local.name] = local.typ
            return P.store(python) if store else P.name(python)
        key = P.const(local.name)
        return P.sub_store(P.name("env"), key) if store else P.sub(P.name("env"), key)

    def shower(self, typ: Type) -> ast.expr:
        """A function that shows a value of this type to a person."""
        found = self._show.get(typ)
        if found is None:
            plan = self.plan
            fn: Callable[[Any], str]
            if typ == INT:
                fn = helpers.show_int
            elif typ == TEXT:
                fn = helpers.show_text
            else:
                fn = partial(words, plan, typ)
            found = self._show[typ] = self.cg.const(fn, f"show_{typ}")
        return found

    # ---- expressions ---------------------------------------------------------------------------

    def expr(self, e: n.Expr, fx: Fn) -> ast.expr:
        if fx.lazy and id(e) in fx.lazy:
            # computed the first time round, kept for the others: (h if h is not UNSET else (h := e))
            held = fx.lazy.pop(id(e))
            value = self.expr(e, fx)
            unset = self.cg.const(UNSET, "unset")
            return P.place(ast.IfExp(P.compare(P.name(held), ast.IsNot(), unset), P.name(held),
                                     ast.NamedExpr(P.store(held), value)), e.loc)
        out = self.case(type(e))(self, e, fx)
        return P.place(out, e.loc)

    def x_Num(self, e: n.Num, fx: Fn) -> ast.expr:
        return P.const(e.value)

    def x_Bool(self, e: n.Bool, fx: Fn) -> ast.expr:
        return P.const(e.value)

    def x_NoneLit(self, e: n.NoneLit, fx: Fn) -> ast.expr:
        return P.const(None)

    def x_Text(self, e: n.Text, fx: Fn) -> ast.expr:
        if e.constant is not None:
            return P.const(e.constant)
        values: list[ast.expr] = []
        for part in e.parts:
            if isinstance(part, str):
                values.append(P.const(part))
            else:
                values.append(P.place(P.call(self.shower(part.typ), self.expr(part, fx)), part.loc))
        if len(values) == 1:
            return values[0]
        # one call for any number of parts (and any text in them), its length checked
        return P.call(self.h("template"), self.st(), ast.Tuple(values, P.LOAD))

    def x_Name(self, e: n.Name, fx: Fn) -> ast.expr:
        ref: Ref = e.ref
        kind = ref.kind
        p = self.plan
        if kind is RefKind.LOCAL:
            return self.var(ref.extra, fx)
        if kind is RefKind.PARAM:
            return self.cg.const(ref.extra, ref.name)
        if kind is RefKind.GLOBAL:
            return P.sub(P.attr(self.st(), "g"), P.const(ref.name))
        if kind is RefKind.PILE:
            return P.const(p.pile_base[ref.name])
        if kind is RefKind.DIE:
            return P.const(p.die_base[ref.name])
        if kind is RefKind.BOARD:
            return P.const(p.board_names.index(ref.name))
        if kind is RefKind.PIECES:
            return self.cg.const(p.kind_pieces[ref.name], ref.name)
        if kind is RefKind.SEATS:
            return self.cg.const(list(range(p.n_seats)), "seats")
        if kind is RefKind.MACHINE_VALUE:  # what a procedure that waits gave (compile/flow.py)
            return P.sub(P.name("env"), P.const(ref.name or e.id))
        raise AssertionError(kind)  # pragma: no cover - the checker resolves every name

    def x_Attr(self, e: n.Attr, fx: Fn) -> ast.expr:
        ref: Ref = e.ref
        if ref is None:
            return P.const(None)  # pragma: no cover - an `any` object: only after an error
        obj = self.expr(e.obj, fx)
        p = self.plan
        kind = ref.kind
        if kind is RefKind.CARD_TYPE:
            return P.sub(self.cg.const(p.card_type_names, "card_type"), obj)
        if kind is RefKind.CARD_FACE_UP:
            return P.sub(P.attr(self.st(), "up"), obj)
        if kind is RefKind.CARD_PILE:
            return P.sub(P.attr(self.st(), "where"), obj)
        if kind is RefKind.CARD_PROP:
            return P.sub(self.cg.const(p.card_props[ref.name], "prop_" + ref.name), obj)
        if kind is RefKind.PIECE_NAME:
            return P.sub(self.cg.const(p.piece_names, "piece_names"), obj)
        if kind in (RefKind.PIECE_VAR, RefKind.SEAT_VAR, RefKind.CARD_VAR):
            at = P.const(p.var_at[ref.name])
            per = Per.SEAT if kind is RefKind.SEAT_VAR else Per.PIECE
            if kind is not RefKind.CARD_VAR and p.var_visible.get((per, ref.name)) is Visibility.OWNER:
                # only its owner sees it: a preview that reads another seat's says nothing
                if kind is RefKind.SEAT_VAR:
                    return P.call(self.h("peek_seat"), self.st(), at, obj)
                return P.call(self.h("peek_piece"), self.st(), at, P.const(p.var_at["owner"]), obj)
            return P.sub(P.attr(self.st(), "v"), P.binop(at, ast.Add(), obj))
        if kind is RefKind.SEAT_NUMBER:
            return P.binop(obj, ast.Add(), P.const(1))
        if kind is RefKind.SEAT_PIECES:
            fn = helpers.pieces_of(p.var_at["owner"], p.n_pieces)
            return P.call(self.cg.const(fn, "pieces_of"), self.st(), obj)
        if kind is RefKind.MAP_GET:  # `m.key`
            return P.call(P.attr(obj, "get"), P.const(ref.name), self.cg.const(ref.extra, "zero"))
        raise AssertionError(kind)  # pragma: no cover

    def x_Index(self, e: n.Index, fx: Fn) -> ast.expr:
        i = e.index
        if isinstance(e.ref, Ref) and e.ref.kind is RefKind.MAP_GET:  # an absent key reads as its zero
            zero = self.cg.const(e.ref.extra, "zero")
            return P.call(P.attr(self.expr(e.obj, fx), "get"), self.expr(i, fx), zero)
        length = self.an.static_len(e.obj)
        if length is not None and length >= self.plan.n_seats and isinstance(i, n.Attr) \
                and isinstance(i.ref, Ref) and i.ref.kind is RefKind.SEAT_NUMBER:
            # `xs[s.number]` with as many items as seats: always in range (a seat is 0..n-1)
            return P.sub(self.items(e.obj, fx, copy=False), self.expr(i.obj, fx))
        return P.call(self.h("index"), self.items(e.obj, fx, copy=False), self.expr(i, fx))

    def x_ListLit(self, e: n.ListLit, fx: Fn) -> ast.expr:
        return ast.List([self.expr(i, fx) for i in e.items], P.LOAD)

    def x_MapLit(self, e: n.MapLit, fx: Fn) -> ast.expr:
        return ast.Dict([self.expr(k, fx) for k in e.keys], [self.expr(v, fx) for v in e.values])

    def pile(self, pile: ast.expr, e: n.Expr) -> ast.expr:
        """The list of pile `e` (`pile`, its Python), to read: in a game with piles only their owner
        sees, one that may hide cards is asked of the state (a bot's copy deals what its seat cannot
        see before it is read: `State.seen`)."""
        if self.plan.owned_piles and not self._open(e):
            return P.call(P.attr(self.st(), "seen"), pile)
        return P.sub(P.attr(self.st(), "piles"), pile)

    def _open(self, e: n.Expr) -> bool:
        """Whether `e` names a pile declared to be seen by everybody (whole or its top)."""
        ref = getattr(e, "ref", None)
        if isinstance(ref, Ref) and ref.kind in (RefKind.PILE, RefKind.PILE_OF):
            return self.plan.pile_visible[self.plan.pile_base[ref.name]] not in (Visibility.OWNER,
                                                                                  Visibility.NOBODY)
        return False

    def items(self, e: n.Expr, fx: Fn, copy: bool) -> ast.expr:
        """A list or a pile as a list: a pile's own list when only read meanwhile (`copy` false),
        else a copy of it (the caller may move its cards)."""
        if isinstance(e, n.Call) and isinstance(e.ref, Ref) and e.ref.name == "cards" and not copy:
            pile = self.expr(e.args[0], fx)
            return P.place(self.pile(pile, e.args[0]), e.loc)
        value = self.expr(e, fx)
        if e.typ == PILE:
            lst = self.pile(value, e)
            if copy:
                lst = P.sub(lst, ast.Slice(None, None, None))
            return P.place(lst, e.loc)
        return value

    def charge_calls(self, weight: int, loc: Loc | None) -> list[ast.stmt]:
        """What a rule that starts call trees of this size charges when it runs."""
        if weight <= 0:
            return []
        return self.steps_charge(P.const(weight), loc, Steps.CALLS)

    def x_Comp(self, e: n.Comp, fx: Fn) -> ast.expr:
        # each time round: one step and the calls of what runs each time (with loops inside, the
        # item is counted by the innermost loop)
        w = 1 + (self.an.weight(e.cond, *(c.source for c in e.inner)) if e.inner
                 else self.an.weight(e.item, e.cond))
        saved_iter, fx.in_iterable = fx.in_iterable, fx.hoist is None
        try:
            items = self.items(e.source, fx, copy=False)
        finally:
            fx.in_iterable = saved_iter
        source: ast.expr
        if self.an.const_len(e.source) is not None and not e.inner:
            source = items  # counted where the rule starts (`weight`)
        elif fx.hoist is not None:  # computed before the statement, its steps counted there
            t = fx.tmp("items")
            fx.hoist.append(P.place(P.assign(P.store(t), items), e.source.loc))
            length = P.call(P.name("len"), P.name(t))
            fx.hoist.extend(self.steps_charge(length if w == 1 else P.binop(length, ast.Mult(), P.const(w)),
                                              e.source.loc))
            source = P.name(t)
        elif w == 1:
            source = P.call(self.h_each, self.st(), items)
        else:
            source = P.call(self.h_each_w, self.st(), items, P.const(w))
        py = fx.tmp("c_")
        fx.comp[id(e.ref)] = py
        # what is the same each time round is computed once, when first needed (never before: it
        # may fail, or not be needed at all); Python allows no `:=` in a comprehension's list
        held = [] if fx.in_iterable else [(id(x), fx.tmp("same")) for x in self.an.invariants(e)]
        fx.lazy.update(held)
        saved, fx.hoist = fx.hoist, None  # the item and the filter run each time round
        saved_iter = fx.in_iterable
        try:
            fx.in_iterable = False
            conds = [self.expr(e.cond, fx)] if e.cond is not None else []
            gens = [ast.comprehension(P.store(py), P.place(source, e.source.loc), conds, 0)]
            for clause in e.inner:  # a loop inside: its list is counted each time it starts
                w_in = 1 + self.an.weight(e.item, *(c.cond for c in e.inner))
                fx.in_iterable = True
                inner_items = self.items(clause.source, fx, copy=False)
                fx.in_iterable = False
                inner_source = P.call(self.h_each_w, self.st(), inner_items, P.const(w_in))
                var = fx.tmp("c_")
                fx.comp[id(clause.ref)] = var
                inner_conds = [self.expr(clause.cond, fx)] if clause.cond is not None else []
                gens.append(ast.comprehension(P.store(var), P.place(inner_source, clause.source.loc),
                                              inner_conds, 0))
            item = self.checked(e.item, fx)
        finally:
            fx.hoist, fx.in_iterable = saved, saved_iter
            for key, _name in held:
                fx.lazy.pop(key, None)
        comp = ast.ListComp(item, gens)
        if not held:
            return comp
        unset = self.cg.const(UNSET, "unset")
        return P.sub(ast.Tuple([*(ast.NamedExpr(P.store(name), unset) for _key, name in held), comp], P.LOAD),
                     P.const(-1))

    def x_IfExpr(self, e: n.IfExpr, fx: Fn) -> ast.expr:
        cond = self.expr(e.cond, fx)
        return ast.IfExp(cond, self.maybe(e.then, fx), self.maybe(e.orelse, fx))

    def x_And(self, e: n.And, fx: Fn) -> ast.expr:
        left = self.expr(e.left, fx)
        return ast.BoolOp(ast.And(), [left, self.maybe(e.right, fx)])

    def x_Or(self, e: n.Or, fx: Fn) -> ast.expr:
        left = self.expr(e.left, fx)
        return ast.BoolOp(ast.Or(), [left, self.maybe(e.right, fx)])

    def maybe(self, e: n.Expr, fx: Fn) -> ast.expr:
        """An expression evaluated only sometimes: nothing in it is hoisted before the statement."""
        saved, fx.hoist = fx.hoist, None
        try:
            return self.expr(e, fx)
        finally:
            fx.hoist = saved

    def hoisting(self, fx: Fn, *exprs: n.Expr | None) -> tuple[list[ast.stmt], list[Any]]:
        """Lower statement parts evaluated unconditionally, in order: (statements to run first,
        their Python forms). A comprehension among them has its list computed and its steps
        counted by those first statements, without a call. Not when a part meets chance: the
        order of draws would change."""
        parts = [e for e in exprs if e is not None]
        if any(self.an.meets_chance(e) for e in parts):
            return [], [self.expr(e, fx) if e is not None else None for e in exprs]
        saved, fx.hoist = fx.hoist, []
        try:
            lowered = [self.expr(e, fx) if e is not None else None for e in exprs]
            return fx.hoist, lowered
        finally:
            fx.hoist = saved

    def x_Not(self, e: n.Not, fx: Fn) -> ast.expr:
        return ast.UnaryOp(ast.Not(), self.expr(e.operand, fx))

    def x_Compare(self, e: n.Compare, fx: Fn) -> ast.expr:
        return P.compare(self.expr(e.left, fx), _CMP[e.op], self.expr(e.right, fx))

    def x_In(self, e: n.In, fx: Fn) -> ast.expr:
        item = self.expr(e.item, fx)
        c = e.container
        if isinstance(c, n.Range):  # `x in a..b`: no list is built
            hi = P.binop(self.expr(c.hi, fx), ast.Add(), P.const(1))
            container: ast.expr = P.call(P.name("range"), self.expr(c.lo, fx), hi)
        else:
            container = self.items(c, fx, copy=False)
        return P.compare(item, ast.In(), container)

    def x_Range(self, e: n.Range, fx: Fn) -> ast.expr:
        return P.call(self.h("range"), self.expr(e.lo, fx), self.expr(e.hi, fx))

    def x_BinOp(self, e: n.BinOp, fx: Fn) -> ast.expr:
        a, b = self.expr(e.left, fx), self.expr(e.right, fx)
        if e.op == "+" and e.typ == TEXT:
            return P.call(self.h("join_text"), self.st(), a, b)
        if e.op == "+" and is_list(e.typ):
            return P.call(self.h("join_list"), self.st(), a, b)
        if P.is_const(a) and P.is_const(b) and isinstance(a.value, int) and isinstance(b.value, int) \
                and e.op in ("+", "-", "*"):
            value = {"+": a.value + b.value, "-": a.value - b.value, "*": a.value * b.value}[e.op]
            if -MAX_INT <= value <= MAX_INT:
                return P.const(value)
        return P.binop(a, _OPS[e.op], b)

    def x_Neg(self, e: n.Neg, fx: Fn) -> ast.expr:
        a = self.expr(e.operand, fx)
        if P.is_const(a) and isinstance(a.value, int):
            return P.const(-a.value)
        return ast.UnaryOp(ast.USub(), a)

    def x_Call(self, e: n.Call, fx: Fn) -> ast.expr:
        ref: Ref = e.ref
        if ref.kind is RefKind.BUILTIN:
            return self.builtin(e, fx)
        if ref.kind is RefKind.FUNCTION:
            args = [self.checked(a, fx) for a in e.args]
            params = self.an.inlinable(ref.name, e)
            if params is not None and not self.an.meets_chance(e):  # a small function written into the caller
                if fx.unit is not None:  # among a unit's rules, an error in it names the one calling
                    self.cg.called_from(self.an.inline_locs[ref.name], fx.rule)
                saved = fx.given
                fx.given = {**saved, **{id(local): arg for local, arg in zip(params, args)}}
                try:
                    return self.expr(self.ck.rules.tree(FUNCTION.rule(ref.name)), fx)
                finally:
                    fx.given = saved
            return P.call(P.name(self.functions[ref.name]), self.st(), *args)
        if ref.kind is RefKind.PILE_OF:
            return self.pile_of(e, fx)
        if ref.kind is RefKind.DIE_OF:   # a family's die by its key (a key it has not: a rule error)
            family = self.plan.die_family[ref.name]
            return P.call(self.h("die_of"), self.cg.const(family, ident("dice", ref.name)),
                          self.expr(e.args[0], fx), P.const(ref.name))
        if ref.kind is RefKind.PROCEDURE:  # one that never waits, giving its value (`return`)
            args = [self.checked(a, fx) for a in e.args]
            fn = self.cg.const(self.driver.procedure_fn(ref.name), ident("p", ref.name))
            return P.call(fn, self.st(), *args)
        raise AssertionError(ref.kind)  # pragma: no cover

    def pile_of(self, e: n.Call, fx: Fn) -> ast.expr:
        """`hand(s)`: the pile of a seat or piece; `column(3)`: of a board's place (checked)."""
        p = self.plan
        name, owner = e.ref.name, e.ref.extra
        base = p.pile_base[name]
        arg = self.expr(e.args[0], fx)
        if owner.per in HELD:
            if P.is_const(arg) and isinstance(arg.value, int):
                return P.const(base + arg.value)
            # a seat or piece is always in range (typed); `none` fails here
            return P.binop(P.const(base), ast.Add(), arg)
        fn = self._pile_at.get(name)
        if fn is None:
            places = p.board_kinds[p.board_names.index(owner.board)].places
            pile = helpers.pile_at(name, owner.board, base, places)
            fn = self._pile_at[name] = self.cg.const(pile, "pile_" + name)
        return P.call(fn, arg)

    def builtin(self, e: n.Call, fx: Fn) -> ast.expr:
        b = e.ref.extra
        special = INLINE.get(b.name)
        if special is not None:
            out = special(self, e, fx)
            if out is not None:
                return out
        args = []
        for p, a in zip(b.params, e.args):
            args.append(self.items(a, fx, copy=False) if isinstance(p.type, Items) else self.expr(a, fx))
        consts = [a.value if P.is_const(a) else NOT_CONST for a in args]
        if b.pure and all(c is not NOT_CONST for c in consts):
            try:
                value = b.run(_Static(self.plan), *consts)
            except RuleError:
                value = NOT_CONST  # fails when played: leave it to the game, at its position
            if value is not NOT_CONST and (value is None or isinstance(value, (bool, int, str))):
                return P.const(value)
            if isinstance(value, list) and all(isinstance(v, (bool, int, str)) for v in value):
                return self.cg.const(value, b.name)
        run = b.run
        if b.typed is not None:
            run = b.typed([a.typ for a in e.args]) or run
        if b.bind is not None:
            bound = b.bind(self.plan, consts)
            if isinstance(bound, Read):
                data = P.sub(P.sub(P.attr(self.st(), "bd"), P.const(bound.board)), P.const(bound.field))
                if bound.absent is NotImplemented:
                    return P.sub(data, args[0])
                if not fx.in_iterable:
                    # (t if (t := st.bd[b][f][p]) != absent else run(st, p)): no call when present
                    arg, again = args[0], args[0]
                    if not isinstance(arg, (ast.Name, ast.Constant)):  # computed once
                        held = fx.tmp()
                        arg, again = ast.NamedExpr(P.store(held), arg), P.name(held)
                    t = fx.tmp()
                    read = ast.NamedExpr(P.store(t), P.sub(data, arg))
                    test = P.compare(read, ast.IsNot() if bound.absent is None else ast.NotEq(),
                                     P.const(bound.absent))
                    return ast.IfExp(test, P.name(t), P.call(self.cg.const(b.run, b.name), self.st(), again))
            if bound is not None:
                run = bound
        return P.call(self.cg.const(run, b.name), self.st(), *args)

    # ---- numbers kept: checked against the limit -------------------------------------------------

    def checked(self, e: n.Expr, fx: Fn) -> ast.expr:
        """The value of `e` passed on (an argument, an item), checked against MAX_INT when a
        product may have made it explode (see `Analysis.grows`)."""
        return self.checked_value(e, self.expr(e, fx))

    def checked_value(self, e: n.Expr, value: ast.expr) -> ast.expr:
        """`value`, the Python of `e`, checked as `checked` says."""
        if P.is_const(value) or not self.an.grows(e, chain=True):
            return value
        if e.typ in (INT, ANY):
            return P.place(P.call(self.h("int"), value), e.loc)
        if is_list(e.typ):
            return P.place(P.call(self.h("ints"), value), e.loc)
        return value

    def check_stmt(self, target: ast.expr, e: n.Expr | None, loc: Loc | None,
                   chain: bool = False) -> list[ast.stmt]:
        """After `target = e`: a statement checking the number kept, when it may have grown."""
        if e is not None and not self.an.grows(e, chain):
            return []
        if e is not None and is_list(e.typ):
            return [P.place(P.expr_stmt(P.call(self.h("ints"), target)), loc)]
        if e is not None and is_map(e.typ):
            values = P.call(P.attr(target, "values"))
            return [P.place(P.expr_stmt(P.call(self.h("ints"), values)), loc)]
        test = ast.UnaryOp(ast.Not(), ast.Compare(P.const(-MAX_INT), [ast.LtE(), ast.LtE()],
                                                  [target, P.const(MAX_INT)]))
        return [P.place(ast.If(test, [P.expr_stmt(P.call(self.h("big")))], []), loc)]

__all__ = ["Lowerer"]

