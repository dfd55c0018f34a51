"""Racecraft: check, the typing of expressions. Stage: the typing pass (`checker.py`), for every
expression of a rule, in the statements' scope (`statements.py`). Reads the game's names
(`symbols.py`) and what the pass found so far (the types of the functions and procedures it
typed before); its one output is the expression annotated: each name, attribute and call
resolved (`node.ref`), each node typed (`node.typ`).

Each problem is said where it is (`blame.Problems`), and the expression goes on with type `any`,
so that one run lists every problem. A name the game does not have may be an old form of it
(`oldforms.py`); each call of a rule is noted for the call graph (`calls.py`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

from ..boards import KINDS
from ..lang import nodes as n
from ..lang.visit import Visitor
from ..base.diagnostics import Report
from ..lang.types import (ANY, BOARD, BOOL, CARD, DIE, HELD, INT, KEY_TYPES, NONE, PIECE, PILE, SEAT, TEXT,
                          ListType, Per, Type, compatible, elem, is_list, is_map, iterable_elem, join, listof,
                          map_types, mapof, zero)
from ..library.api import Bound, Builtin, Items, OfKind, PlainBound
from .blame import Problems
from .calls import CallGraph
from .checked import Callee, Checked, Local, Ref, RefKind
from .oldforms import OldForms
from .symbols import Symbols


@dataclass
class Scope:
    """The names a block of statements sees (its rule's locals), and what the block is in."""
    names: dict[str, Local]
    rule: str
    loops: int = 0            # enclosing loops: `break` is allowed inside one
    decider: Ref | None = None  # who chooses by default in a step: Ref(RefKind.TURN_SEAT/"turn_owner", turn)
    in_simul: bool = False
    procedure: str | None = None  # the procedure these statements belong to (`return`)
    own: set[str] = field(default_factory=set)  # the names bound in this block itself

    def __post_init__(self) -> None:
        self.own = set(self.names)  # a rule's own names (its parameters) are of its outermost block

    def child(self, **kw: Any) -> "Scope":
        s = Scope(dict(self.names), self.rule, self.loops, self.decider, self.in_simul, self.procedure)
        s.own = set()
        for k, v in kw.items():
            setattr(s, k, v)
        return s

    def bind(self, name: str, typ: Type) -> Local:
        local = Local(name, typ)
        self.names[name] = local
        self.own.add(name)
        return local


class Expressions(Visitor):
    """Types expressions: `expr` gives an expression its type and resolves its names, with
    the checks of each kind of node (`x_NAME`), of calls' arguments and of built-ins' signatures."""
    walks: ClassVar[tuple[type, ...]] = (n.Expr,)

    def __init__(self, sym: Symbols, out: Checked, problems: Problems, graph: CallGraph, old: OldForms):
        self.sym = sym
        self.out = out   # the types of the functions and procedures typed so far
        self.problems = problems
        self.error, self.type_error, self.suggest = problems.error, problems.type_error, problems.suggest
        self.unknown = problems.unknown
        self.graph = graph
        self.old = old
        self._value_call: n.Expr | None = None  # the one place a procedure may give its value now

    def expr(self, e: n.Expr, sc: Scope) -> Type:
        e.typ = self.case(type(e))(self, e, sc)
        return e.typ

    def want(self, e: n.Expr, sc: Scope, want: Type, what: str, loose: bool = False) -> Type:
        t = self.expr(e, sc)
        if not compatible(t, want):
            shown = "true or false (bool)" if want == BOOL and not loose else want
            self.type_error(f"{what} must be {shown}, " + (f"but this is {t}" if loose or want == BOOL
                                                           else f"not {t}"), e)
        return t

    def want_bool(self, e: n.Expr, sc: Scope, what: str) -> None:
        self.want(e, sc, BOOL, what)

    def iterate(self, e: n.Expr, sc: Scope, message: str) -> Type:
        t = self.expr(e, sc)
        et = iterable_elem(t)
        if et is None:
            self.type_error(message.format(t), e)
            return ANY
        return et

    def value_of_statement(self, e: n.Expr, sc: Scope) -> Type:
        """The value of `let x = ...`, `x = ...` or `return ...`: where a procedure may give one."""
        self._value_call = e
        try:
            return self.expr(e, sc)
        finally:
            self._value_call = None

    def peek(self, e: n.Expr, sc: Scope) -> Type:
        """The type of `e` with no problem reported (they are, where `e` is checked for real)."""
        saved, self.problems.report = self.problems.report, Report()
        try:
            return self.expr(e, sc)
        finally:
            self.problems.report = saved

    def hidden(self, e: n.Name, local: Local) -> None:
        """An extension reads a local of the rule it extends that the rule does not declare
        visible: a warning in a file of language 1, where it was allowed; an error from 2."""
        loc = e.loc
        if not local.hidden_from or loc is None or not any(
                f == loc.file and a <= loc.line <= b for f, a, b in local.hidden_from):
            return
        message = f"`{e.id}` is a local of the rule this extends, which does not declare it visible"
        hint = (f"declare it in the rule: `let visible {e.id} = ...`; or compute it here, or ask the "
                "rule's author to show it")
        self.problems.refused_from_2("E149", "W141", message, e, hint)

    def x_Num(self, e: n.Num, sc: Scope) -> Type:
        return INT

    def x_Text(self, e: n.Text, sc: Scope) -> Type:
        for p in e.parts:
            if isinstance(p, n.Expr):
                self.expr(p, sc)
        return TEXT

    def x_Bool(self, e: n.Bool, sc: Scope) -> Type:
        return BOOL

    def x_NoneLit(self, e: n.NoneLit, sc: Scope) -> Type:
        return NONE

    def x_Name(self, e: n.Name, sc: Scope) -> Type:
        name, sym = e.id, self.sym
        if name in sc.names:
            e.ref = Ref(RefKind.LOCAL, name, sc.names[name])
            self.hidden(e, sc.names[name])
            return sc.names[name].typ
        if name in sym.clashed:
            return ANY   # declared twice (E118): which one a use means is not known
        if name in sym.params:
            value, typ = sym.params[name]
            e.ref = Ref(RefKind.PARAM, name, value)
            return typ
        if name == "round":
            e.ref = Ref(RefKind.GLOBAL, "round")
            return INT
        if name in sym.globals:
            e.ref = Ref(RefKind.GLOBAL, name)
            return sym.globals[name]
        if name in sym.piles:
            owner = sym.piles[name]
            if owner is None:
                return ANY  # a pile of an unknown owner: reported where it is declared
            if owner.per is not Per.GAME:
                self.error("E121", f"pile `{name}` is one per {owner}: say whose, as `{name}(...)`", e)
                return ANY
            e.ref = Ref(RefKind.PILE, name)
            return PILE
        if name in sym.dice:
            if sym.dice[name] is not None:
                family = sym.die_names.get(name, [])
                # (`d6: {faces: [...]}` is a family of one die named `faces`: a die is its list)
                hint = (f"the family has one die, `{family[0]}`; a single die is the list of its "
                        f"faces: `{name}: [1, 2, 3, 4, 5, 6]`" if len(family) == 1 else None)
                self.error("E121", f"`{name}` is a family of dice: say which, as `{name}(...)`", e, hint)
                return ANY
            e.ref = Ref(RefKind.DIE, name)
            return DIE
        if name in sym.boards:
            e.ref = Ref(RefKind.BOARD, name)
            return BOARD
        if name in sym.pieces:
            e.ref = Ref(RefKind.PIECES, name)
            return listof(PIECE)
        if name == "seats":
            e.ref = Ref(RefKind.SEATS)
            return listof(SEAT)
        if name in sym.functions or name in sym.procedures:   # a rule's name without its call
            what = "function" if name in sym.functions else "procedure"
            params = (sym.functions if name in sym.functions else sym.procedures)[name]
            self.error("E110", f"`{name}` is a {what}: call it", e,
                       f"`{name}({', '.join(params)})`" if params else f"`{name}()`")
            return ANY
        self.unknown(name, f"unknown name `{name}`", e,
                   self.suggest(name, list(sc.names) + sym.global_names()))
        return ANY

    def x_Attr(self, e: n.Attr, sc: Scope) -> Type:
        typ = self.expr(e.obj, sc)
        sym, name = self.sym, e.name
        if typ == CARD:
            if name == "type":
                e.ref = Ref(RefKind.CARD_TYPE)
                return TEXT
            if name == "face_up":
                e.ref = Ref(RefKind.CARD_FACE_UP)
                return BOOL
            if name == "pile":
                e.ref = Ref(RefKind.CARD_PILE)
                return PILE
            if name in sym.card_props:
                e.ref = Ref(RefKind.CARD_PROP, name)
                return sym.card_props[name]
            if name in sym.card_vars:
                e.ref = Ref(RefKind.CARD_VAR, name)
                return sym.card_vars[name]
            form = self.old.attrs.get(("card", name))
            if form is not None and self.old.rewrite(e, form, {"card": e.obj}):
                return self.expr(e, sc)
            have = ["type", "face_up", "pile", *sym.card_props, *sym.card_vars]
        elif typ == PIECE:
            if name == "name":
                e.ref = Ref(RefKind.PIECE_NAME)
                return TEXT
            if name in sym.piece_vars:
                e.ref = Ref(RefKind.PIECE_VAR, name)
                return sym.piece_vars[name]
            form = self.old.attrs.get(("piece", name))
            if form is not None and self.old.rewrite(e, form, {"piece": e.obj}):
                return self.expr(e, sc)
            have = ["name", *sym.piece_vars]
        elif typ == SEAT:
            if name == "number":
                e.ref = Ref(RefKind.SEAT_NUMBER)
                return INT
            if name == "pieces":
                e.ref = Ref(RefKind.SEAT_PIECES)
                return listof(PIECE)
            if name in sym.seat_vars:
                e.ref = Ref(RefKind.SEAT_VAR, name)
                return sym.seat_vars[name]
            form = self.old.attrs.get(("seat", name))
            if form is not None and self.old.rewrite(e, form, {"seat": e.obj}):
                return self.expr(e, sc)
            have = ["number", "pieces", *sym.seat_vars]
        elif is_map(typ) and compatible(map_types(typ)[0], TEXT):
            value_t = map_types(typ)[1]
            e.ref = Ref(RefKind.MAP_GET, name, zero(value_t))  # `m.key` reads `m["key"]`
            return value_t
        elif typ == ANY:
            return ANY  # an earlier error (reported where it is) or an empty list
        else:
            self.error("E120", f"type error: a {typ} has no `.{name}`", e)
            return ANY
        self.unknown(name, f"a {typ} has no `{name}`", e, self.suggest(name, have))
        return ANY

    def x_Index(self, e: n.Index, sc: Scope) -> Type:
        typ = self.expr(e.obj, sc)
        ityp = self.expr(e.index, sc)
        if is_map(typ):
            key_t, value_t = map_types(typ)
            if not compatible(ityp, key_t):
                return self.type_error(f"the keys of this map are {key_t}, not {ityp}", e.index)
            e.ref = Ref(RefKind.MAP_GET, "", zero(value_t))  # an absent key reads as 0, false or none
            return value_t
        if not compatible(ityp, INT):
            return self.type_error(f"a list index must be int, not {ityp}", e.index)
        if not (is_list(typ) or typ == ANY):
            return self.type_error(f"only lists and maps can be indexed, not {typ}", e.obj)
        return elem(typ)

    def x_ListLit(self, e: n.ListLit, sc: Scope) -> Type:
        typ: Type = NONE
        for item in e.items:
            it = self.expr(item, sc)
            if not compatible(typ, it):
                return self.type_error(f"a list mixes {typ} and {it}", item)
            typ = join(typ, it)
        return listof(ANY if typ == NONE else typ)

    def x_MapLit(self, e: n.MapLit, sc: Scope) -> Type:
        key_t: Type = NONE
        value_t: Type = NONE
        for k, v in zip(e.keys, e.values):
            kt, vt = self.expr(k, sc), self.expr(v, sc)
            if not compatible(key_t, kt):
                return self.type_error(f"a map mixes keys of {key_t} and {kt}", k)
            if not compatible(value_t, vt):
                return self.type_error(f"a map mixes values of {value_t} and {vt}", v)
            key_t, value_t = join(key_t, kt), join(value_t, vt)
        if key_t not in (NONE, ANY, *KEY_TYPES):
            return self.type_error(f"a map's keys are int, text, seat, piece or card, not {key_t}", e)
        return mapof(ANY if key_t == NONE else key_t, ANY if value_t == NONE else value_t)

    def x_Comp(self, e: n.Comp, sc: Scope) -> Type:
        src_t = self.expr(e.source, sc)
        et = iterable_elem(src_t)
        if et is None:
            return self.type_error(f"cannot go through a {src_t}", e.source)
        inner = sc.child()
        e.ref = inner.bind(e.var, et)
        if e.cond is not None:
            self.want_bool(e.cond, inner, "a filter")
        for clause in e.inner:  # `for b in ...` inside `for a in ...`: b sees a
            ct = self.expr(clause.source, inner)
            cet = iterable_elem(ct)
            if cet is None:
                self.type_error(f"cannot go through a {ct}", clause.source)
                cet = ANY
            clause.ref = inner.bind(clause.var, cet)
            if clause.cond is not None:
                self.want_bool(clause.cond, inner, "a filter")
        body_t = self.expr(e.item, inner)
        return listof(body_t)

    def x_IfExpr(self, e: n.IfExpr, sc: Scope) -> Type:
        self.want_bool(e.cond, sc, "condition")
        a = self.expr(e.then, sc)
        b = self.expr(e.orelse, sc)
        if not compatible(a, b):
            return self.type_error(f"the two branches give {a} and {b}", e)
        # an empty `[]` or `{}` is a list or map of what the other branch holds (`if c then [] else
        # cards(hand(s))` is a list of cards: read as a list of anything, its cards lost their
        # properties)
        if blank(e.then):
            return b
        if blank(e.orelse):
            return a
        return join(a, b)

    def _logic(self, e: n.And | n.Or, sc: Scope, word: str) -> Type:
        for side in (e.left, e.right):
            t = self.expr(side, sc)
            if not compatible(t, BOOL):
                self.type_error(f"`{word}` needs true or false on both sides, but this is {t}", side)
        return BOOL

    def x_And(self, e: n.And, sc: Scope) -> Type:
        return self._logic(e, sc, "and")

    def x_Or(self, e: n.Or, sc: Scope) -> Type:
        return self._logic(e, sc, "or")

    def x_Not(self, e: n.Not, sc: Scope) -> Type:
        t = self.expr(e.operand, sc)
        if not compatible(t, BOOL):
            self.type_error(f"`not` needs true or false, but this is {t}", e.operand)
        return BOOL

    def x_Compare(self, e: n.Compare, sc: Scope) -> Type:
        a = self.expr(e.left, sc)
        b = self.expr(e.right, sc)
        if e.op in ("==", "!="):
            if not compatible(a, b):
                return self.type_error(f"cannot compare {a} with {b}", e)
            self.card_type_named(e.left, [e.right])
            self.card_type_named(e.right, [e.left])
        elif not (compatible(a, INT) and compatible(b, INT)):
            return self.type_error(f"`{e.op}` compares numbers, not {a} and {b}", e)
        return BOOL

    def x_In(self, e: n.In, sc: Scope) -> Type:
        a = self.expr(e.item, sc)
        b = self.expr(e.container, sc)
        et = iterable_elem(b)
        if et is None:
            return self.type_error(f"`in` looks inside a list or pile, not {b}", e.container)
        if not compatible(a, et):
            return self.type_error(f"a {a} is never in a list of {et}", e)
        if isinstance(e.container, n.ListLit):
            self.card_type_named(e.item, e.container.items)
        return BOOL

    def card_type_named(self, typed: n.Expr, texts: list) -> None:
        """W110: a card's `type` compared with a text that names no card type of the game (a
        misspelt `"bidn"` is never equal, and nothing else would say so); W163: the same of a
        card property that is a text (`c.kind == "sprnt"`)."""
        ref = getattr(typed, "ref", None)
        if not (isinstance(typed, n.Attr) and isinstance(ref, Ref)):
            return
        if ref.kind is RefKind.CARD_PROP and ref.name in self.sym.card_prop_texts:
            prop = ref.name
            self._never_equal(texts, self.sym.card_prop_texts[prop], "W163", "its values",
                              lambda name: f"no card has `{prop}` \"{name}\": a card's `{prop}` is never "
                                           "that")
        elif ref.kind is RefKind.CARD_TYPE:
            self._never_equal(texts, self.sym.card_types, "W110", "its card types",
                              lambda name: f"no card type of the game is called `{name}`: a card's `type` is "
                                           "never that")

    def _never_equal(self, texts: list, values: list[str], code: str, listed: str,
                     said: Callable[[str], str]) -> None:
        """Each text written in `texts` that is none of `values`, warned about (`code`)."""
        for t in texts:
            name = t.constant if isinstance(t, n.Text) else None
            if name is not None and name not in values:
                some = ", ".join(values[:12]) + (" ..." if len(values) > 12 else "")
                hint = self.suggest(name, values) or f"{listed}: {some}"
                self.problems.report.warn(code, said(name), t.loc, hint)

    def x_Range(self, e: n.Range, sc: Scope) -> Type:
        a = self.expr(e.lo, sc)
        b = self.expr(e.hi, sc)
        if not (compatible(a, INT) and compatible(b, INT)):
            return self.type_error("a range `a..b` needs two ints", e)
        return listof(INT)

    def x_BinOp(self, e: n.BinOp, sc: Scope) -> Type:
        a = self.expr(e.left, sc)
        b = self.expr(e.right, sc)
        if e.op == "+" and a == b == TEXT:
            return TEXT
        if e.op == "+" and is_list(a) and is_list(b):
            if not compatible(a, b):
                return self.type_error(f"cannot join {a} and {b}", e)
            # `[] + cards(...)`, `a + [c]` while `a` is still the `[]` it was first given: a list
            # of what the other side holds
            if blank(e.left):
                return b
            if blank(e.right):
                return a
            return join(a, b)
        if not (compatible(a, INT) and compatible(b, INT)):
            return self.type_error(f"`{e.op}` works on ints, not {a} and {b}", e)
        return INT

    def x_Neg(self, e: n.Neg, sc: Scope) -> Type:
        a = self.expr(e.operand, sc)
        if not compatible(a, INT):
            return self.type_error(f"`-` works on ints, not {a}", e)
        return INT

    def x_Call(self, e: n.Call, sc: Scope) -> Type:
        name, sym = e.name, self.sym
        b = sym.builtins.get(name)
        if b is not None:
            if b.effect:
                self.error("E128", f"`{name}(...)` does things and has no value", e,
                           "call it as a statement on its own line")
                return ANY
            return self.builtin_call(e, b, sc)
        if name in sym.piles:
            return self.pile_of(e, sc)
        if name in sym.dice:
            return self.die_of(e, sc)
        if name in sym.functions:
            params = sym.functions[name]
            self.args(e, name, params, sc)
            e.ref = Ref(RefKind.FUNCTION, name)
            self.graph.note(Callee.function(name), e.loc)
            return self.out.function_types.get(name, ANY)
        if name in sym.procedures:
            if name in self.out.procedure_types:  # it gives a value with `return`
                if e is not self._value_call:
                    self.error("E144", f"procedure `{name}` does things: its value goes only to "
                                       "`let x = ...`, `x = ...` or `return ...`", e,
                               "give it its own line: `let v = ...`")
                self._value_call = None
                self.args(e, name, sym.procedures[name], sc)
                e.ref = Ref(RefKind.PROCEDURE, name)
                self.graph.note(Callee.procedure(name), e.loc)
                return self.out.procedure_types[name]
            for a in e.args:
                self.expr(a, sc)
            self.error("E123", f"`{name}` is a procedure (it does things); it has no value", e,
                       "call it as a statement on its own line, or give its value with `return`")
            return ANY
        form = self.old.calls.get(name)
        call = form.call if form is not None else None
        if form is not None and call is not None and len(call[1]) == len(e.args) and \
                self.old.rewrite(e, form, dict(zip(call[1], e.args))):
            return self.expr(e, sc)
        for a in e.args:
            self.expr(a, sc)
        if name == "proceed":  # in a value: an extension of one reads the rule's value as `base`
            self.error("E143", "`proceed` runs an extended rule's statements and gives no value", e,
                       "in an `around:` of a value (a function, `until`, `if` ...), `base` is the "
                       "rule's value: `around: \"base and ...\"`")
            return ANY
        self.unknown(name, f"unknown function `{name}`", e, self.suggest(name, sym.global_names()))
        return ANY

    def args(self, e: n.Call, name: str, params: dict, sc: Scope) -> None:
        if len(e.args) == len(params) and self.old.old_args(e, params, lambda a: self.peek(a, sc)):
            self.old.renamed(e, lambda: self.args(e, name, params, sc))
            return
        if len(e.args) != len(params):
            for a in e.args:
                self.expr(a, sc)
            self.error("E124", f"`{name}` takes {len(params)} argument(s), got {len(e.args)}", e,
                       f"{name}({', '.join(f'{k}: {v}' for k, v in params.items())})")
            return
        for (pname, ptype), a in zip(params.items(), e.args):
            t = self.expr(a, sc)
            if not compatible(t, ptype):
                self.type_error(f"argument `{pname}` of `{name}` must be {ptype}, not {t}", a)

    def die_of(self, e: n.Call, sc: Scope) -> Type:
        """`level(3)`: a die of a family, by its number or name."""
        name = e.name
        key = self.sym.dice[name]
        if key is None:
            for a in e.args:
                self.expr(a, sc)
            self.error("E122", f"`{name}` is a single die: write `{name}` without parentheses", e)
            return ANY
        if len(e.args) != 1:
            for a in e.args:
                self.expr(a, sc)
            self.error("E122", f"`{name}(...)` takes one argument: which die of the family", e)
            return ANY
        t = self.expr(e.args[0], sc)
        if not compatible(t, key):
            self.type_error(f"the dice of `{name}` are named by {'numbers' if key == INT else 'names'}, "
                            f"not by {t}", e.args[0])
        e.ref = Ref(RefKind.DIE_OF, name, key)
        return DIE

    def pile_of(self, e: n.Call, sc: Scope) -> Type:
        """`hand(s)`, `column(3)`: the pile of a seat, a piece or a board's place."""
        name = e.name
        owner = self.sym.piles[name]
        if owner is None:   # reported where it is declared
            for a in e.args:
                self.expr(a, sc)
            return ANY
        if owner.per is Per.GAME:
            self.error("E122", f"`{name}` is a single pile: write `{name}` without parentheses", e)
            return ANY
        if len(e.args) != 1:
            self.error("E122", f"`{name}(...)` takes one argument", e)
            return ANY
        typ = self.expr(e.args[0], sc)
        if owner.per in HELD:
            whose = SEAT if owner.per is Per.SEAT else PIECE
            if not compatible(typ, whose):
                if self.old.old_args(e, {"of": whose}, lambda a: self.peek(a, sc)):
                    return self.old.renamed(e, lambda: self.expr(e, sc))
                return self.type_error(f"`{name}` is one per {owner}; this is a {typ}", e.args[0], of=e)
        elif not compatible(typ, INT):
            return self.type_error(f"`{name}` is one per place of `{owner}`: "
                                   f"give a place number, not a {typ}",
                                   e.args[0], of=e)
        e.ref = Ref(RefKind.PILE_OF, name, owner)
        return PILE

    def builtin_call(self, e: n.Call, b: Builtin, sc: Scope) -> Type:
        """Arity and argument types from the built-in's signature, with `T` bound by its uses."""
        e.ref = Ref(RefKind.BUILTIN, b.name, b)
        required = sum(not p.optional for p in b.params)
        if not required <= len(e.args) <= len(b.params):
            for a in e.args:
                self.expr(a, sc)
            count = str(required) if required == len(b.params) else f"{required} to {len(b.params)}"
            self.error("E124", f"`{b.name}` takes {count} argument(s), got {len(e.args)}", e, b.call_form)
            return _bind(b.returns, ANY)
        report = self.problems.report   # (a peek's, while one lasts: its errors are counted there)
        errors = report.errors
        bound: Type = ANY
        for p, a in zip(b.params, e.args):
            t = self.expr(a, sc)
            want = p.type
            if isinstance(want, Items):
                et = iterable_elem(t)
                if et is None:
                    self.type_error(f"{p.what} must be a list or a pile, not {t}", a)
                    continue
                if want.elem is not None and not compatible(et, want.elem):
                    self.type_error(f"{p.what} must be a list of {want.elem}, not of {et}", a)
                bound = et
            elif isinstance(want, Bound):
                if isinstance(want, PlainBound) and t not in (INT, TEXT, BOOL, ANY):
                    self.type_error(f"{p.what} must be a number, a text or true/false, not {t}", a)
                bound = t
            elif isinstance(want, OfKind):  # a board of this kind
                if not compatible(t, BOARD):
                    self.type_error(f"{p.what} must be a board, not {t}", a)
                elif isinstance(a, n.Name) and isinstance(a.ref, Ref) and a.ref.kind is RefKind.BOARD \
                        and self.sym.boards[a.ref.name] != want.kind:
                    actual = KINDS[self.sym.boards[a.ref.name]].noun
                    self.error("E150", f"board `{a.ref.name}` is {actual}, not {KINDS[want.kind].noun}", a)
            elif not compatible(t, want):
                self.type_error(f"{p.what} must be {want}, not {t}", a)
        if b.kind is not None and b.kind not in self.sym.boards.values() and report.errors == errors:
            self.error("E150", f"`{b.name}` needs {KINDS[b.kind].noun} (a board of kind {b.kind}), "
                       "and this game has none", e)
        for event in b.events:  # the triggers of what it raises run after it
            self.graph.note(Callee.event(event), e.loc)
        return _bind(b.returns, bound)


def _bind(returns: Type | None, bound: Type) -> Type:
    """A built-in's value type, `T` being `bound`."""
    if returns is None:
        return ANY
    if isinstance(returns, Bound):
        return bound
    if isinstance(returns, ListType) and isinstance(returns.elem, Bound):
        return listof(bound)
    return returns



def empty_literal(e: n.Expr) -> bool:
    """`[]` or `{}` as written."""
    return (isinstance(e, n.ListLit) and not e.items) or (isinstance(e, n.MapLit) and not e.keys)


def blank(e: n.Expr) -> bool:
    """`[]` or `{}` as written, or a local first given one and nothing else yet (`Local.open`)."""
    if empty_literal(e):
        return True
    ref = getattr(e, "ref", None)
    return isinstance(e, n.Name) and isinstance(ref, Ref) and ref.kind == RefKind.LOCAL and ref.extra.open
