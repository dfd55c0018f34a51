"""Typed rule trees to Python `ast`: expressions, and statements that never wait.

The checker has resolved every name (`node.ref`) and typed every expression (`node.typ`); this
pass only chooses the Python form. Optimisations are decisions on the tree, never on text:
a pile read as a list is its own list when nothing can change it meanwhile, `x in a..b` builds
no list, a built-in with constant arguments is computed here, sums over cards whose item reads
only the card go through a table (`inline.py`).

Limits are part of the code it writes: each loop charges its length to `st.steps` (and each
call of a function or procedure one step), and a number is checked against `MAX_INT` where it
is kept (a variable, an argument, a function's value) when arithmetic computed it.
"""
from __future__ import annotations

import ast
from typing import Any

from ..check.checker import Checked, Local, Ref, RefKind
from ..lang import nodes as n
from ..lang.errors import EndGame, GameTooLong, RuleError
from ..lang.limits import MAX_INT, MAX_LIST, MAX_TEXT
from ..lang.show import words
from ..lang.types import ANY, BOOL, CARD, INT, NONE, PILE, TEXT, Type, is_list, is_map, iterable_elem
from ..library.api import NOT_CONST, Items, Read
from . import pyast as P
from .codegen import Codegen, ident

_OPS = {"+": ast.Add(), "-": ast.Sub(), "*": ast.Mult(), "//": ast.FloorDiv(), "%": ast.Mod()}
_CMP = {"==": ast.Eq(), "!=": ast.NotEq(), "<": ast.Lt(), "<=": ast.LtE(), ">": ast.Gt(), ">=": ast.GtE()}
_GROW = {"+", "-", "*"}


class Fn:
    """How one generated function reads and writes a rule's locals: as Python locals (`fast`)
    or in the machine's `env` dict (code that the machine runs between decisions)."""

    def __init__(self, fast: bool):
        self.fast = fast
        self.comp: dict[int, str] = {}   # id(Local) of a comprehension variable -> its Python name
        self.count = 0
        # statements to run before the statement being lowered (the list a comprehension goes
        # through, and its count of steps), while what is lowered is evaluated unconditionally
        self.hoist: list | None = None
        self.in_iterable = False  # lowering a comprehension's list: Python allows no `:=` there
        self.given: dict[int, ast.expr] = {}  # id(Local) of an inlined function's parameter -> its argument

    def tmp(self, base: str = "t") -> str:
        self.count += 1
        return f"{base}{self.count}"


def local_name(name: str) -> str:
    return ident("v", name) if name.isidentifier() and name.isascii() else f"v_{name.encode().hex()}"


# ---- run-time helpers (named `h_...` in generated code) ----------------------------------------

def _big():
    raise RuleError(f"a number beyond the engine's limit ({MAX_INT})")


def _int(v):
    if v is not None and not -MAX_INT <= v <= MAX_INT:
        _big()
    return v


def _ints(xs):
    for v in xs:
        if type(v) is int and not -MAX_INT <= v <= MAX_INT:
            _big()
    return xs


def _range(a, b):
    if b - a >= MAX_LIST:
        raise RuleError(f"the range {a}..{b} has more than {MAX_LIST} numbers")
    return list(range(a, b + 1))


def _index(xs, i):
    if not 1 <= i <= len(xs):
        raise RuleError(f"index {i} is outside the list (1..{len(xs)}); lists count from 1")
    return xs[i - 1]


def _end_game():
    raise EndGame()


def _hush(st) -> int:
    """Before a `say`'s text is computed: the game's step count, kept aside (the text counts
    its own steps from zero, as a view does)."""
    steps, st.steps = st.steps, 0
    return steps


def _said(st, rule: str, steps: int, text: str) -> None:
    """A `say`: its line into the game's trace (an empty line says nothing), and the game's step
    count as it was."""
    st.steps = steps
    if text:
        st.trace.append(("say", rule, text))


def _pieces_of(at: int, n: int):
    def pieces(st, seat):
        return [i for i, o in enumerate(st.v[at:at + n]) if o == seat]
    return pieces


def _meets_chance(e: n.Expr) -> bool:
    """Can evaluating `e` draw chance (so that the order of its parts matters)?"""
    return any(isinstance(x, n.Call) and isinstance(x.ref, Ref) and x.ref.kind is RefKind.BUILTIN
               and x.ref.extra.chance for x in n.walk(e))


def _literal(e: n.Expr) -> bool:
    """A number written in the rule (its size is known)."""
    return isinstance(e, n.Num) or (isinstance(e, n.Neg) and isinstance(e.operand, n.Num))


class Lowerer:
    def __init__(self, checked: Checked, plan, cg: Codegen):
        self.ck = checked
        self.sym = checked.symbols
        self.plan = plan
        self.cg = cg
        self.limit = plan.max_steps
        self.functions: dict[str, str] = {}     # user function -> its name in the namespace
        self._pile_at: dict[str, ast.expr] = {}
        self._show: dict[Type, ast.expr] = {}
        limit = self.limit

        def each(st, xs):
            st.steps += len(xs)
            if st.steps > limit:
                raise GameTooLong(f"the rules went round their loops more than {limit} times "
                                  "(`limits.max_steps`)")
            return xs

        def each_weighing(st, xs, w):
            st.steps += len(xs) * w
            if st.steps > limit:
                raise GameTooLong(f"the rules made more than {limit} steps (loops and calls) "
                                  "(`limits.max_steps`)")
            return xs
        self.h_each = cg.helper("each", each)
        self.h_each_w = cg.helper("each_w", each_weighing)

        # Lists, texts and maps are values: `+` and storing an item copy them. A copy of n items
        # costs n/16 steps, so a loop that grows one stops at the step limit in linear time.
        def copying(st, n):
            st.steps += n >> 4
            if st.steps > limit:
                raise GameTooLong(f"the rules made more than {limit} steps (loops, calls and copies of "
                                  "long lists, texts and maps) (`limits.max_steps`)")

        def join_list(st, a, b):
            if len(a) + len(b) > MAX_LIST:
                raise RuleError(f"a list of more than {MAX_LIST} items")
            copying(st, len(a) + len(b))
            return a + b

        def join_text(st, a, b):
            if len(a) + len(b) > MAX_TEXT:
                raise RuleError(f"a text of more than {MAX_TEXT} characters")
            copying(st, len(a) + len(b))
            return a + b

        def template(st, parts):
            n = sum(map(len, parts))
            if n > MAX_TEXT:
                raise RuleError(f"a text of more than {MAX_TEXT} characters")
            copying(st, n)
            return "".join(parts)

        def put_item(st, xs, i, v):
            """A copy of list `xs` with its `i`-th item (from 1) replaced."""
            if not 1 <= i <= len(xs):
                raise RuleError(f"index {i} is outside the list (1..{len(xs)}); lists count from 1")
            copying(st, len(xs))
            xs = list(xs)
            xs[i - 1] = v
            return xs

        def put_key(st, m, k, v):
            """A copy of map `m` with key `k` set to `v`."""
            if k not in m and len(m) >= MAX_LIST:
                raise RuleError(f"a map of more than {MAX_LIST} keys")
            copying(st, len(m))
            m = dict(m)
            m[k] = v
            return m
        self._weights: dict[str, int] = {}
        self._inline: dict = {}
        for hname, fn in (("big", _big), ("int", _int), ("ints", _ints), ("range", _range),
                          ("join_list", join_list), ("join_text", join_text), ("index", _index),
                          ("put_item", put_item), ("put_key", put_key), ("template", template),
                          ("end", _end_game), ("too_long", GameTooLong), ("hush", _hush), ("said", _said)):
            cg.helper(hname, fn)
        from .inline import INLINE
        self.inline = INLINE

    # ---- helpers -------------------------------------------------------------------------------

    def h(self, name: str) -> ast.expr:
        return P.name("h_" + name)

    def st(self) -> ast.Name:
        return P.name("st")

    def steps_charge(self, amount: ast.expr, loc, message: str | None = None) -> list[ast.stmt]:
        """`st.steps += amount`, and a rule error past the limit."""
        msg = message or (f"the rules went round their loops more than {self.limit} times "
                          "(`limits.max_steps`)")
        stmts = [ast.AugAssign(P.attr_store(self.st(), "steps"), ast.Add(), amount),
                 ast.If(P.compare(P.attr(self.st(), "steps"), ast.Gt(), P.const(self.limit)),
                        [ast.Raise(P.call(self.h("too_long"), P.const(msg)), None)], [])]
        return [P.place(s, loc) for s in stmts]

    def var(self, local: Local, fx: Fn, store: bool = False) -> ast.expr:
        given = fx.given.get(id(local))
        if given is not None and not store:
            return given  # the argument of an inlined function, used once
        py = fx.comp.get(id(local))
        if py is not None:
            return P.store(py) if store else P.name(py)
        if fx.fast:
            return P.store(local_name(local.name)) if store else P.name(local_name(local.name))
        key = P.const(local.name)
        return P.sub_store(P.name("env"), key) if store else P.sub(P.name("env"), key)

    def shower(self, typ: Type) -> ast.expr:
        """A function that shows a value of this type to a person."""
        found = self._show.get(typ)
        if found is None:
            plan = self.plan
            if typ == INT:
                fn = _show_int
            elif typ == TEXT:
                fn = _show_text
            else:
                def fn(v, typ=typ):
                    return words(plan, typ, v)
            found = self._show[typ] = self.cg.const(fn, f"show_{typ}")
        return found

    # ---- expressions ---------------------------------------------------------------------------

    def expr(self, e: n.Expr, fx: Fn) -> ast.expr:
        out = getattr(self, "x_" + type(e).__name__)(e, fx)
        return P.place(out, e.loc)

    def x_Num(self, e, fx):
        return P.const(e.value)

    def x_Bool(self, e, fx):
        return P.const(e.value)

    def x_NoneLit(self, e, fx):
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
        if kind in (RefKind.PIECE_VAR, RefKind.SEAT_VAR):
            return P.sub(P.attr(self.st(), "v"), P.binop(P.const(p.var_at[ref.name]), ast.Add(), obj))
        if kind is RefKind.SEAT_NUMBER:
            return P.binop(obj, ast.Add(), P.const(1))
        if kind is RefKind.SEAT_PIECES:
            fn = _pieces_of(p.var_at["owner"], p.n_pieces)
            return P.call(self.cg.const(fn, "pieces_of"), self.st(), obj)
        if kind is RefKind.MAP_GET:  # `m.key`
            return P.call(P.attr(obj, "get"), P.const(ref.name), self.cg.const(ref.extra, "zero"))
        raise AssertionError(kind)  # pragma: no cover

    def x_Index(self, e: n.Index, fx: Fn) -> ast.expr:
        i = e.index
        if isinstance(e.ref, Ref) and e.ref.kind is RefKind.MAP_GET:  # an absent key reads as its zero
            zero = self.cg.const(e.ref.extra, "zero")
            return P.call(P.attr(self.expr(e.obj, fx), "get"), self.expr(i, fx), zero)
        length = self.static_len(e.obj)
        if length is not None and length >= self.plan.n_seats and isinstance(i, n.Attr) \
                and isinstance(i.ref, Ref) and i.ref.kind is RefKind.SEAT_NUMBER:
            # `xs[s.number]` with as many items as seats: always in range (a seat is 0..n-1)
            return P.sub(self.items(e.obj, fx, copy=False), self.expr(i.obj, fx))
        return P.call(self.h("index"), self.items(e.obj, fx, copy=False), self.expr(i, fx))

    def static_len(self, e: n.Expr) -> int | None:
        """The length of a list known when compiling (a kind of pieces, a param), or None."""
        if isinstance(e, n.Name) and isinstance(e.ref, Ref):
            if e.ref.kind is RefKind.PIECES:
                return len(self.plan.kind_pieces[e.ref.name])
            if e.ref.kind is RefKind.PARAM and isinstance(e.ref.extra, list):
                return len(e.ref.extra)
            if e.ref.kind is RefKind.SEATS:
                return self.plan.n_seats
        if isinstance(e, n.ListLit):
            return len(e.items)
        return None

    def x_ListLit(self, e: n.ListLit, fx: Fn) -> ast.expr:
        return ast.List([self.expr(i, fx) for i in e.items], P.LOAD)

    def x_MapLit(self, e: n.MapLit, fx: Fn) -> ast.expr:
        return ast.Dict([self.expr(k, fx) for k in e.keys], [self.expr(v, fx) for v in e.values])

    def items(self, e: n.Expr, fx: Fn, copy: bool) -> ast.expr:
        """A list or a pile as a list: a pile's own list when only read meanwhile (`copy` false),
        else a copy of it (the caller may move its cards)."""
        if isinstance(e, n.Call) and isinstance(e.ref, Ref) and e.ref.name == "cards" and not copy:
            pile = self.expr(e.args[0], fx)
            return P.place(P.sub(P.attr(self.st(), "piles"), pile), e.loc)
        value = self.expr(e, fx)
        if e.typ == PILE:
            lst = P.sub(P.attr(self.st(), "piles"), value)
            if copy:
                lst = P.sub(lst, ast.Slice(None, None, None))
            return P.place(lst, e.loc)
        return value

    # ---- steps: calls counted by the size of the call tree a rule starts ----------------------

    def fn_weight(self, name: str) -> int:
        """How many calls one call of function `name` makes, itself included, outside loops
        (a loop charges its own calls each time round): known when compiling, since functions
        never call themselves."""
        w = self._weights.get(name)
        if w is None:
            w = self._weights[name] = 1 + self.weight(self.ck.rules.tree(f"functions.{name}"))
        return w

    def weight(self, *nodes) -> int:
        """The steps these nodes take that are known when compiling: the calls of functions
        they make outside their loops, each counted with its own call tree, and each loop over
        a list whose length is known (one step each time round, and its body's). Other loops
        count themselves while playing; procedures and triggers count their own steps."""
        total = 0
        stack = [x for x in nodes if x is not None]
        while stack:
            x = stack.pop()
            if isinstance(x, n.Call) and isinstance(x.ref, Ref) and x.ref.kind is RefKind.FUNCTION:
                total += self.fn_weight(x.ref.name)
            if isinstance(x, (n.Comp, n.For)):
                stack.append(x.source)  # once
                length = self.const_len(x.source) if not (isinstance(x, n.Comp) and x.inner) else None
                if length is not None:  # the loop's steps are known: counted here
                    body = (x.item, x.cond) if isinstance(x, n.Comp) else x.body
                    total += length * (1 + self.weight(*body))
            elif not isinstance(x, n.While):
                stack.extend(x.children())
        return total

    def const_len(self, e: n.Expr) -> int | None:
        """The length of a list known when compiling, or None: a kind of pieces, the seats, a
        param, a list written out, a built-in computed when compiling (`slots(grid)`)."""
        length = self.static_len(e)
        if length is not None or not (isinstance(e, n.Call) and isinstance(e.ref, Ref)
                                       and e.ref.kind is RefKind.BUILTIN):
            return length
        b = e.ref.extra
        if not b.pure:
            return None
        value = self.expr(e, Fn(fast=True))  # a pure built-in of constants is folded
        if isinstance(value, ast.Name) and isinstance(self.cg.ns.get(value.id), list):
            return len(self.cg.ns[value.id])
        if isinstance(value, ast.Constant) and isinstance(value.value, (list, tuple)):
            return len(value.value)
        return None

    def charge_calls(self, weight: int, loc) -> list[ast.stmt]:
        """What a rule that starts call trees of this size charges when it runs."""
        if weight <= 0:
            return []
        return self.steps_charge(P.const(weight), loc, self.calls_message())

    def calls_message(self) -> str:
        return (f"the rules made more than {self.limit} steps (loops and calls) without ending "
                "(`limits.max_steps`)")

    def x_Comp(self, e: n.Comp, fx: Fn) -> ast.expr:
        # each time round: one step and the calls of what runs each time (with loops inside, the
        # item is counted by the innermost loop)
        w = 1 + (self.weight(e.cond, *(c.source for c in e.inner)) if e.inner
                 else self.weight(e.item, e.cond))
        saved_iter, fx.in_iterable = fx.in_iterable, fx.hoist is None
        try:
            items = self.items(e.source, fx, copy=False)
        finally:
            fx.in_iterable = saved_iter
        source: ast.expr
        if self.const_len(e.source) is not None and not e.inner:
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
        saved, fx.hoist = fx.hoist, None  # the item and the filter run each time round
        saved_iter = fx.in_iterable
        try:
            fx.in_iterable = False
            conds = [self.expr(e.cond, fx)] if e.cond is not None else []
            gens = [ast.comprehension(P.store(py), P.place(source, e.source.loc), conds, 0)]
            for clause in e.inner:  # a loop inside: its list is counted each time it starts
                w_in = 1 + self.weight(e.item, *(c.cond for c in e.inner))
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
        return ast.ListComp(item, gens)

    def x_IfExpr(self, e: n.IfExpr, fx: Fn) -> ast.expr:
        cond = self.expr(e.cond, fx)
        return ast.IfExp(cond, self.maybe(e.then, fx), self.maybe(e.orelse, fx))

    def x_And(self, e, fx):
        left = self.expr(e.left, fx)
        return ast.BoolOp(ast.And(), [left, self.maybe(e.right, fx)])

    def x_Or(self, e, fx):
        left = self.expr(e.left, fx)
        return ast.BoolOp(ast.Or(), [left, self.maybe(e.right, fx)])

    def maybe(self, e: n.Expr, fx: Fn) -> ast.expr:
        """An expression evaluated only sometimes: nothing in it is hoisted before the statement."""
        saved, fx.hoist = fx.hoist, None
        try:
            return self.expr(e, fx)
        finally:
            fx.hoist = saved

    def hoisting(self, fx: Fn, *exprs: n.Expr | None):
        """Lower statement parts evaluated unconditionally, in order: (statements to run first,
        their Python forms). A comprehension among them has its list computed and its steps
        counted by those first statements, without a call. Not when a part meets chance: the
        order of draws would change."""
        parts = [e for e in exprs if e is not None]
        if any(_meets_chance(e) for e in parts):
            return [], [self.expr(e, fx) if e is not None else None for e in exprs]
        saved, fx.hoist = fx.hoist, []
        try:
            lowered = [self.expr(e, fx) if e is not None else None for e in exprs]
            return fx.hoist, lowered
        finally:
            fx.hoist = saved

    def x_Not(self, e, fx):
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
            params = self.inlinable(ref.name, e)
            if params is not None and not _meets_chance(e):  # a small function written into the caller
                saved = fx.given
                fx.given = {**saved, **{id(local): arg for local, arg in zip(params, args)}}
                try:
                    return self.expr(self.ck.rules.tree(f"functions.{ref.name}"), fx)
                finally:
                    fx.given = saved
            return P.call(P.name(self.functions[ref.name]), self.st(), *args)
        if ref.kind is RefKind.PILE_OF:
            return self.pile_of(e, fx)
        if ref.kind is RefKind.PROCEDURE:  # one that never waits, giving its value (`return`)
            args = [self.checked(a, fx) for a in e.args]
            return P.call(self.cg.const(self.procedure_fn(ref.name), ident("p", ref.name)), self.st(), *args)
        raise AssertionError(ref.kind)  # pragma: no cover

    def inlinable(self, name: str, call: n.Call) -> list | None:
        """The parameters (locals, in order) of function `name` when a call of it can be written
        into the caller: its body is a few nodes that call no function, read each parameter at
        most once, and need no check of its value; and it is in the caller's file (the
        positions of the code written in are the body's). None otherwise."""
        found = self._inline.get(name, False)
        if found is False:
            found = None
            body = self.ck.rules.tree(f"functions.{name}")
            nodes = list(n.walk(body))
            params = list(self.sym.functions[name])
            uses: dict[str, list] = {p: [] for p in params}
            for x in nodes:
                if isinstance(x, n.Name) and isinstance(x.ref, Ref) and x.ref.kind is RefKind.LOCAL \
                        and x.ref.extra.name in uses:
                    uses[x.ref.extra.name].append(x.ref.extra)
            simple = all(isinstance(x, (n.Name, n.Num, n.Bool, n.NoneLit, n.Attr, n.Index, n.BinOp,
                                        n.Compare, n.Not, n.And, n.Or, n.IfExpr, n.Neg)) for x in nodes)
            if simple and len(nodes) <= 12 and all(len(u) <= 1 for u in uses.values()) \
                    and not self.grows(body, chain=True):
                # a parameter not read still gets its argument evaluated: not inlined then
                if all(len(u) == 1 for u in uses.values()):
                    found = [uses[p][0] for p in params]
                    self.cg.inlined([x.loc for x in nodes], f"functions.{name}")
            self._inline[name] = found
        if found is not None and self.ck.rules.tree(f"functions.{name}").loc.file != call.loc.file:
            return None
        return found

    def pile_of(self, e: n.Call, fx: Fn) -> ast.expr:
        """`hand(s)`: the pile of a seat or piece; `column(3)`: of a board's place (checked)."""
        p = self.plan
        name, scope = e.ref.name, e.ref.extra
        base = p.pile_base[name]
        arg = self.expr(e.args[0], fx)
        if scope in ("seat", "piece"):
            if P.is_const(arg) and isinstance(arg.value, int):
                return P.const(base + arg.value)
            # a seat or piece is always in range (typed); `none` fails here
            return P.binop(P.const(base), ast.Add(), arg)
        fn = self._pile_at.get(name)
        if fn is None:
            places = p.board_kinds[p.board_names.index(scope)].places

            def pile_at(v, base=base, places=places, name=name, scope=scope):
                if v is None or not 1 <= v <= places:
                    raise RuleError(f"`{name}({v})`: `{scope}` has places 1..{places}")
                return base + v - 1
            fn = self._pile_at[name] = self.cg.const(pile_at, "pile_" + name)
        return P.call(fn, arg)

    def builtin(self, e: n.Call, fx: Fn) -> ast.expr:
        b = e.ref.extra
        special = self.inline.get(b.name)
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

    def grows(self, e: n.Expr, chain: bool = False) -> bool:
        """Can arithmetic have made this number (or a number in this list) large, so that it is
        checked where it is kept?

        Where a value is stored (a variable), a loop can apply any arithmetic to it again and
        again: any `+`, `-` or `*` counts. Where it only passes on (an argument, a function's
        value, an item of a list being built: `chain`), it can pass through at most as many
        calls as the game has rules (they never call themselves), so only a product of two
        numbers that are not written in the rule can explode; the rest is checked when stored."""
        if is_map(e.typ):
            return isinstance(e, n.MapLit) and any(self.grows(v, chain) for v in e.values)
        if is_list(e.typ):
            if isinstance(e, n.ListLit):
                return any(self.grows(i, chain) for i in e.items)
            if isinstance(e, n.Comp):
                return self.grows(e.item, chain)
            if isinstance(e, n.BinOp):
                return self.grows(e.left, chain) or self.grows(e.right, chain)
            if isinstance(e, n.IfExpr):
                return self.grows(e.then, chain) or self.grows(e.orelse, chain)
            return False
        if e.typ not in (INT, ANY):
            return False
        if isinstance(e, n.BinOp):
            if chain:
                return e.op == "*" and not (_literal(e.left) or _literal(e.right))
            return e.op in _GROW
        if isinstance(e, n.Neg):
            return not chain
        if isinstance(e, n.IfExpr):
            return self.grows(e.then, chain) or self.grows(e.orelse, chain)
        if isinstance(e, n.Call) and isinstance(e.ref, Ref) and e.ref.kind is RefKind.BUILTIN:
            return e.ref.name == "sum" and not chain
        return False

    def checked(self, e: n.Expr, fx: Fn) -> ast.expr:
        """The value of `e` passed on (an argument, an item), checked against MAX_INT when a
        product may have made it explode (see `grows`)."""
        value = self.expr(e, fx)
        if P.is_const(value) or not self.grows(e, chain=True):
            return value
        if e.typ in (INT, ANY):
            return P.place(P.call(self.h("int"), value), e.loc)
        if is_list(e.typ):
            return P.place(P.call(self.h("ints"), value), e.loc)
        return value

    def check_stmt(self, target: ast.expr, e: n.Expr | None, loc, chain: bool = False) -> list[ast.stmt]:
        """After `target = e`: a statement checking the number kept, when it may have grown."""
        if e is not None and not self.grows(e, chain):
            return []
        if e is not None and is_list(e.typ):
            return [P.place(P.expr_stmt(P.call(self.h("ints"), target)), loc)]
        if e is not None and is_map(e.typ):
            values = P.call(P.attr(target, "values"))
            return [P.place(P.expr_stmt(P.call(self.h("ints"), values)), loc)]
        test = ast.UnaryOp(ast.Not(), ast.Compare(P.const(-MAX_INT), [ast.LtE(), ast.LtE()],
                                                  [target, P.const(MAX_INT)]))
        return [P.place(ast.If(test, [P.expr_stmt(P.call(self.h("big")))], []), loc)]

    # ---- statements that never wait --------------------------------------------------------------

    def stmts(self, body: list[n.Stmt], fx: Fn, rule: str, loops: int = 0) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for s in body:
            if s.name_tag is not None and not isinstance(s, n.Choose):  # a choice counts its options
                out.extend(P.place(x, s.loc) for x in self.counted(f"statements.{s.name_tag}"))
            out.extend(P.place(x, s.loc) for x in getattr(self, "s_" + type(s).__name__)(s, fx, rule, loops))
        return out

    def counted(self, name: str) -> list[ast.stmt]:
        """`if st.tally is not None: st.tally.count(NAME)`: the statistics' count of a rule or a
        named statement, one test when nobody counts (engine/tally.py)."""
        tally = P.attr(self.st(), "tally")
        return [ast.If(P.compare(tally, ast.IsNot(), P.const(None)),
                       [P.expr_stmt(P.call(P.attr(tally, "count"), P.const(name)))], [])]

    def s_Pass(self, s, fx, rule, loops):
        return []

    def s_Break(self, s, fx, rule, loops):
        return [ast.Break()]

    def s_End(self, s, fx, rule, loops):
        return [P.expr_stmt(P.call(self.h("end")))]

    def s_Let(self, s: n.Let, fx: Fn, rule, loops):
        first, (value,) = self.hoisting(fx, s.value)
        target = self.var(s.ref, fx, store=True)
        read = self.var(s.ref, fx)
        return [*first, P.assign(target, value), *self.check_stmt(read, s.value, s.loc)]

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
        if ref.kind in (RefKind.PIECE_VAR, RefKind.SEAT_VAR):
            o = fx.tmp("o")
            index = P.binop(P.const(self.plan.var_at[ref.name]), ast.Add(), P.name(o))
            vs = P.attr(self.st(), "v")
            return ([P.assign(P.store(o), self.expr(t.obj, fx))], P.sub(vs, index),  # type: ignore[attr-defined]
                    lambda v: [P.assign(P.sub_store(vs, index), v)])
        return [], self.place_of(t, fx, False), lambda v: [P.assign(self.place_of(t, fx, True), v)]

    def s_Assign(self, s: n.Assign, fx: Fn, rule, loops):
        first, (value,) = self.hoisting(fx, s.value)
        if s.target.ref.kind in (RefKind.LIST_ITEM, RefKind.MAP_ITEM):  # `xs[i] = v`, `m[k] = v`, `m.key = v`
            pre, _load, store = self.item_place(s.target, fx)
            t = fx.tmp()
            return [*first, *pre, P.assign(P.store(t), value), *self.check_stmt(P.name(t), s.value, s.loc),
                    *store(P.name(t))]
        if isinstance(s.target, n.Name) or not self.grows(s.value):
            return [*first, P.assign(self.place_of(s.target, fx, True), value),
                    *self.check_stmt(self.place_of(s.target, fx, False), s.value, s.loc)]
        # `x.VAR = ...`: the place's index is computed once
        t = fx.tmp()
        return [*first, P.assign(P.store(t), value), *self.check_stmt(P.name(t), s.value, s.loc),
                P.assign(self.place_of(s.target, fx, True), P.name(t))]

    def s_AugAssign(self, s: n.AugAssign, fx: Fn, rule, loops):
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

    def s_Do(self, s: n.Do, fx: Fn, rule, loops):
        call: n.Call = s.expr  # type: ignore[assignment]
        ref: Ref = call.ref
        if ref.kind is RefKind.PROCEDURE:
            args = [self.checked(a, fx) for a in call.args]
            target = self.procedure_fn(ref.name)
            return [P.expr_stmt(P.call(self.cg.const(target, ident("p", ref.name)), self.st(), *args))]
        b = ref.extra
        args = [self.expr(a, fx) for a in call.args]
        run = b.run
        if b.bind is not None:
            consts = [a.value if P.is_const(a) else NOT_CONST for a in args]
            run = b.bind(self.plan, consts) or run
        return [P.expr_stmt(P.call(self.cg.const(run, b.name), self.st(), *args))]

    def s_Move(self, s: n.Move, fx: Fn, rule, loops):
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

    def s_Draw(self, s: n.Draw, fx: Fn, rule, loops):
        return [P.expr_stmt(P.call(P.attr(self.st(), "draw"), self.expr(s.source, fx), self.expr(s.dest, fx),
                                   self.expr(s.count, fx), P.const(s.face_up)))]

    def s_Shuffle(self, s: n.Shuffle, fx: Fn, rule, loops):
        return [P.expr_stmt(P.call(P.attr(self.st(), "shuffle"), self.expr(s.pile, fx)))]

    def s_Emit(self, s: n.Emit, fx: Fn, rule, loops):
        out: list[ast.stmt] = []
        args: list[ast.expr] = []
        for a in s.args:  # the event's values, computed once for all its triggers
            t = fx.tmp("ev")
            out.append(P.place(P.assign(P.store(t), self.checked(a, fx)), a.loc))
            args.append(P.name(t))
        for tr in self.ck.handlers.get(s.event, []):
            fn = self.trigger_fn(tr)
            out.append(P.expr_stmt(P.call(self.cg.const(fn, ident("t", tr.id)), self.st(), *args)))
        return out

    def s_Return(self, s: n.Return, fx: Fn, rule, loops):
        return [ast.Return(self.checked(s.value, fx) if s.value is not None else None)]

    def procedure_fn(self, name: str):  # pragma: no cover - the compiler (flow.py) provides it
        raise NotImplementedError

    def trigger_fn(self, tr):  # pragma: no cover - the compiler (flow.py) provides it
        raise NotImplementedError

    def s_Say(self, s: n.Say, fx: Fn, rule, loops):
        # computed only when the game is told (`st.trace`), and counting no steps: a game told
        # aloud stops where the same game played in silence does
        trace = P.attr(self.st(), "trace")
        said = P.call(self.h("said"), self.st(), P.const(rule), P.call(self.h("hush"), self.st()),
                      self.expr(s.message, fx))
        return [ast.If(P.compare(trace, ast.IsNot(), P.const(None)), [P.expr_stmt(said)], [])]

    def s_If(self, s: n.If, fx: Fn, rule, loops):
        first, (cond,) = self.hoisting(fx, s.branches[0].cond)  # only the first test always runs
        orelse = self.stmts(s.orelse, fx, rule, loops) if s.orelse is not None else []
        for k in range(len(s.branches) - 1, -1, -1):
            br = s.branches[k]
            test = cond if k == 0 else self.expr(br.cond, fx)
            node = ast.If(test, self.stmts(br.body, fx, rule, loops) or [ast.Pass()], orelse)
            orelse = [P.place(node, br.loc)]
        return [*first, *orelse]

    def s_For(self, s: n.For, fx: Fn, rule, loops):
        items = fx.tmp("items")
        out: list[ast.stmt] = [P.assign(P.store(items), self.items(s.source, fx, copy=True))]
        w = 1 + self.weight(*s.body)  # each time round: one step and the body's calls
        length = P.call(P.name("len"), P.name(items))
        if self.const_len(s.source) is None:  # else counted where the rule starts (`weight`)
            out += self.steps_charge(length if w == 1 else P.binop(length, ast.Mult(), P.const(w)), s.loc)
        body = self.stmts(s.body, fx, rule, loops + 1) or [ast.Pass()]
        out.append(ast.For(self.var(s.ref, fx, store=True), P.name(items), body, []))
        return out

    def s_While(self, s: n.While, fx: Fn, rule, loops):
        message = f"a `while` loop ran past the step limit ({self.limit})"
        w = 1 + self.weight(s.cond, *s.body)
        body = self.steps_charge(P.const(w), s.loc, message) + self.stmts(s.body, fx, rule, loops + 1)
        return [ast.While(self.expr(s.cond, fx), body, [])]

    def s_Choose(self, s, fx, rule, loops):  # pragma: no cover - the flow compiles these
        raise AssertionError("a choice in code that never waits")

    s_Simultaneously = s_Choose


class _Static:
    """What a pure built-in sees when computed while compiling: the plan, no table."""

    def __init__(self, plan):
        self.plan = plan


def _show_int(v):
    if v is None:
        return "none"
    if not -MAX_INT <= v <= MAX_INT:
        _big()
    return str(v)


def _show_text(v):
    return "none" if v is None else v


def reads_only_card(e: n.Expr, card: Local) -> bool:
    """Does `e` read nothing but the card `card`'s fixed properties and constants?"""
    for node in n.walk(e):
        if isinstance(node, n.Name):
            ref = node.ref
            if not (isinstance(ref, Ref) and (ref.kind is RefKind.PARAM or
                                              (ref.kind is RefKind.LOCAL and ref.extra is card))):
                return False
        elif isinstance(node, n.Attr):
            if not (isinstance(node.ref, Ref) and node.ref.kind in (RefKind.CARD_PROP, RefKind.CARD_TYPE)):
                return False
        elif not isinstance(node, (n.Num, n.Text, n.Bool, n.NoneLit, n.Compare, n.BinOp, n.IfExpr,
                                   n.And, n.Or, n.Not, n.Neg, n.In, n.ListLit)):
            return False
    return True


__all__ = ["Lowerer", "Fn", "local_name", "reads_only_card", "BOOL", "iterable_elem"]
