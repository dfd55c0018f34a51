"""Expressions of the rule language to closures `f(st, env)`, with static types.

`ExprCompiler.expr(tree, scope)` returns `(fn, type)`; a type error is reported at the
expression's position and compilation goes on with type `any`, so one run lists every problem.
"""
from __future__ import annotations

import operator

from lark import Token, Tree

from ..lang.diagnostics import did_you_mean
from ..lang.parser import parse_expr
from ..load.yamlsrc import src_str
from .show import show
from .state import RuleError
from .types import (ANY, BOOL, INT, NONE, PILE, TEXT, compatible, elem, is_list, iterable_elem,
                    join, listof)


class Scope:
    """Names visible to a rule: locals with their types, and what `break` may leave."""

    def __init__(self, names=None, rule: str = "", loops: int = 0, decider=None, code_loops: int = 0):
        self.names: dict[str, str] = dict(names or {})
        self.rule = rule
        self.loops = loops            # enclosing loops (`break` is allowed inside one)
        self.code_loops = code_loops  # ... of which compiled as machine code
        self.decider = decider        # default `by` of a choose: fn giving the turn's seat

    def child(self, **kw) -> "Scope":
        s = Scope(self.names, self.rule, self.loops, self.decider, self.code_loops)
        for k, v in kw.items():
            setattr(s, k, v)
        return s


def _const(v):
    return lambda st, env: v


_CMP = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
        ">": operator.gt, ">=": operator.ge}


def _unescape(text: str) -> str:
    return text[1:-1].replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\")


class ExprCompiler:
    """Needs from its owner: plan, report, src (the SrcStr being compiled) and the symbol tables."""

    # ---- positions and errors -------------------------------------------------------------

    def loc(self, node):
        if isinstance(node, Token):
            line, col = node.line, node.column
        else:
            meta = node.meta
            if getattr(meta, "empty", True):
                return self.src.at(1, 1) if hasattr(self.src, "at") else None
            line, col = meta.line, meta.column
        at = getattr(self.src, "at", None)
        return at(line, col) if at else None

    def error(self, code: str, msg: str, node, hint: str | None = None) -> None:
        self.report.add(code, msg, self.loc(node), hint)

    def type_error(self, msg: str, node, hint: str | None = None):
        self.error("E120", f"type error: {msg}", node, hint)
        return _const(None), ANY

    # ---- entry points ---------------------------------------------------------------------

    def compile_expr_text(self, text, scope: Scope, want: str | None = None, what: str = "value"):
        old = self.src
        self.src = text
        try:
            tree = parse_expr(text, self.report)
            if tree is None:
                return _const(None), ANY
            fn, t = self.expr(tree, scope)
            if want and not compatible(t, want):
                self.type_error(f"{what} must be {want}, but this is {t}", tree)
            return fn, t
        finally:
            self.src = old

    def cond(self, tree, scope: Scope, what: str = "condition"):
        fn, t = self.expr(tree, scope)
        if not compatible(t, BOOL):
            self.type_error(f"{what} must be true or false (bool), but this is {t}", tree)
        return fn

    # ---- expressions ----------------------------------------------------------------------

    def expr(self, t, scope: Scope):
        kind = t.data if isinstance(t, Tree) else None
        method = getattr(self, "x_" + str(kind), None)
        if method is None:  # pragma: no cover - the grammar has no other expression forms
            return self.type_error(f"unsupported expression `{kind}`", t)
        return method(t, scope)

    def x_number(self, t, sc):
        return _const(int(t.children[0])), INT

    def x_string(self, t, sc):
        return self.template(t.children[0], sc), TEXT

    def x_true(self, t, sc):
        return _const(True), BOOL

    def x_false(self, t, sc):
        return _const(False), BOOL

    def x_none(self, t, sc):
        return _const(None), NONE

    def x_var(self, t, sc):
        name = str(t.children[0])
        if name in sc.names:
            typ = sc.names[name]
            return (lambda st, env: env[name]), typ
        found = self.global_name(name, t)
        if found is not None:
            return found
        self.error("E110", f"unknown name `{name}`", t,
                   did_you_mean(name, list(sc.names) + self.known_names()))
        return _const(None), ANY

    def x_attr(self, t, sc):
        obj_t, name_tok = t.children
        name = str(name_tok)
        fn, typ = self.expr(obj_t, sc)
        getter = self.attribute(typ, name, t)
        if getter is None:
            return _const(None), ANY
        get, rtyp = getter
        if isinstance(obj_t, Tree) and obj_t.data == "var" and str(obj_t.children[0]) in sc.names:
            # The hot case (`c.colour` in a filter): one closure instead of two. A none value
            # fails as a TypeError, which the machine reports at the statement.
            var = str(obj_t.children[0])
            table = getattr(get, "table", None)
            if table is not None:
                return (lambda st, env: table[env[var]]), rtyp
            return (lambda st, env: get(st, env[var])), rtyp
        loc = self.loc(t)

        def attr(st, env):
            v = fn(st, env)
            if v is None:
                raise RuleError(f"`.{name}` of none: the value before the dot is none", loc)
            return get(st, v)
        return attr, rtyp

    def x_index(self, t, sc):
        obj_t, idx_t = t.children
        fn, typ = self.expr(obj_t, sc)
        ifn, ityp = self.expr(idx_t, sc)
        if not compatible(ityp, INT):
            return self.type_error(f"a list index must be int, not {ityp}", idx_t)
        if not (is_list(typ) or typ == ANY):
            return self.type_error(f"only lists can be indexed, not {typ}", obj_t)
        loc = self.loc(t)

        def index(st, env):
            lst = fn(st, env)
            i = ifn(st, env)
            if not 1 <= i <= len(lst):
                raise RuleError(f"index {i} is outside the list (1..{len(lst)}); lists count from 1", loc)
            return lst[i - 1]
        return index, elem(typ)

    def x_list(self, t, sc):
        items = [self.expr(c, sc) for c in t.children if c is not None]
        typ = NONE
        for c, (_f, it) in zip(t.children, items):
            if not compatible(typ, it):
                return self.type_error(f"a list mixes {typ} and {it}", c)
            typ = join(typ, it)
        fns = [f for f, _ in items]
        return (lambda st, env: [f(st, env) for f in fns]), listof(ANY if typ == NONE else typ)

    def x_comprehension(self, t, sc):
        body_t, var_tok, src_t, cond_t = t.children
        src_fn, src_typ = self.expr(src_t, sc)
        et = iterable_elem(src_typ)
        if et is None:
            return self.type_error(f"cannot go through a {src_typ}", src_t)
        src_fn = self.as_items(src_fn, src_typ)
        var = str(var_tok)
        inner = sc.child(names={**sc.names, var: et})
        body, bt = self.expr(body_t, inner)
        if cond_t is not None:
            cond = self.cond(cond_t, inner, "a filter")

            def comp(st, env):
                env = dict(env)
                out = []
                for v in src_fn(st, env):
                    env[var] = v
                    if cond(st, env):
                        out.append(body(st, env))
                return out
        else:
            def comp(st, env):
                env = dict(env)
                out = []
                for v in src_fn(st, env):
                    env[var] = v
                    out.append(body(st, env))
                return out
        return comp, listof(bt)

    def x_if_expr(self, t, sc):
        c_t, a_t, b_t = t.children
        c = self.cond(c_t, sc)
        a, at = self.expr(a_t, sc)
        b, bt = self.expr(b_t, sc)
        if not compatible(at, bt):
            return self.type_error(f"the two branches give {at} and {bt}", t)
        return (lambda st, env: a(st, env) if c(st, env) else b(st, env)), join(at, bt)

    def x_or_(self, t, sc):
        a = self.cond(t.children[0], sc, "`or` needs bool values;")
        b = self.cond(t.children[1], sc, "`or` needs bool values;")
        return (lambda st, env: a(st, env) or b(st, env)), BOOL

    def x_and_(self, t, sc):
        a = self.cond(t.children[0], sc, "`and` needs bool values;")
        b = self.cond(t.children[1], sc, "`and` needs bool values;")
        return (lambda st, env: a(st, env) and b(st, env)), BOOL

    def x_not_(self, t, sc):
        a = self.cond(t.children[0], sc, "`not` needs a bool value;")
        return (lambda st, env: not a(st, env)), BOOL

    def x_compare(self, t, sc):
        a_t, op_tok, b_t = t.children
        a, at = self.expr(a_t, sc)
        b, bt = self.expr(b_t, sc)
        op = str(op_tok)
        if op in ("==", "!="):
            if not compatible(at, bt):
                return self.type_error(f"cannot compare {at} with {bt}", t)
        elif not (compatible(at, INT) and compatible(bt, INT)):
            return self.type_error(f"`{op}` compares numbers, not {at} and {bt}", t)
        f = _CMP[op]
        if op in ("==", "!=") and isinstance(b_t, Tree) and b_t.data in ("string", "number", "none", "true", "false") \
                and "{" not in str(b_t.children[0] if b_t.children else ""):
            k = b(None, None)
            if isinstance(a_t, Tree) and a_t.data == "attr" and isinstance(a_t.children[0], Tree) \
                    and a_t.children[0].data == "var" and str(a_t.children[0].children[0]) in sc.names:
                getter = self.attribute(sc.names[str(a_t.children[0].children[0])],
                                        str(a_t.children[1]), a_t)
                table = getattr(getter[0], "table", None) if getter else None
                if table is not None:  # `c.kind == "race"` in a filter: a single closure
                    var = str(a_t.children[0].children[0])
                    if op == "==":
                        return (lambda st, env: table[env[var]] == k), BOOL
                    return (lambda st, env: table[env[var]] != k), BOOL
            if op == "==":
                return (lambda st, env: a(st, env) == k), BOOL
            return (lambda st, env: a(st, env) != k), BOOL
        if op in ("<", "<=", ">", ">="):
            loc = self.loc(t)

            def cmp(st, env):
                x = a(st, env)
                y = b(st, env)
                if x is None or y is None:
                    raise RuleError(f"cannot order none with `{op}`", loc)
                return f(x, y)
            return cmp, BOOL
        return (lambda st, env: f(a(st, env), b(st, env))), BOOL

    def x_contains(self, t, sc):
        a, at = self.expr(t.children[0], sc)
        b, bt = self.expr(t.children[1], sc)
        et = iterable_elem(bt)
        if et is None:
            return self.type_error(f"`in` looks inside a list or pile, not {bt}", t.children[1])
        if not compatible(at, et):
            return self.type_error(f"a {at} is never in a list of {et}", t)
        if bt == PILE:
            return (lambda st, env: a(st, env) in st.piles[b(st, env)]), BOOL
        return (lambda st, env: a(st, env) in b(st, env)), BOOL

    def x_range(self, t, sc):
        a, at = self.expr(t.children[0], sc)
        b, bt = self.expr(t.children[1], sc)
        if not (compatible(at, INT) and compatible(bt, INT)):
            return self.type_error("a range `a..b` needs two ints", t)
        return (lambda st, env: list(range(a(st, env), b(st, env) + 1))), listof(INT)

    def x_binop(self, t, sc):
        a_t, op_tok, b_t = t.children
        a, at = self.expr(a_t, sc)
        b, bt = self.expr(b_t, sc)
        op = str(op_tok)
        if op == "+" and at == bt == TEXT:
            return (lambda st, env: a(st, env) + b(st, env)), TEXT
        if op == "+" and is_list(at) and is_list(bt):
            if not compatible(at, bt):
                return self.type_error(f"cannot join {at} and {bt}", t)
            return (lambda st, env: a(st, env) + b(st, env)), join(at, bt)
        if not (compatible(at, INT) and compatible(bt, INT)):
            return self.type_error(f"`{op}` works on ints, not {at} and {bt}", t)
        if op == "+":
            return (lambda st, env: a(st, env) + b(st, env)), INT
        if op == "-":
            return (lambda st, env: a(st, env) - b(st, env)), INT
        if op == "*":
            return (lambda st, env: a(st, env) * b(st, env)), INT
        loc = self.loc(t)
        pyop = operator.floordiv if op == "//" else operator.mod

        def div(st, env):
            y = b(st, env)
            if y == 0:
                raise RuleError(f"`{op}` by zero", loc)
            return pyop(a(st, env), y)
        return div, INT

    def x_neg(self, t, sc):
        a, at = self.expr(t.children[0], sc)
        if not compatible(at, INT):
            return self.type_error(f"`-` works on ints, not {at}", t)
        return (lambda st, env: -a(st, env)), INT

    def x_call(self, t, sc):
        name_tok, *args = t.children
        args = [a for a in args if a is not None]
        name = str(name_tok)
        return self.call(name, args, t, sc)

    # ---- helpers used by statements too ----------------------------------------------------

    def as_items(self, fn, typ):
        """A pile used as a list gives a copy of its cards (safe to change the pile meanwhile)."""
        if typ == PILE:
            return lambda st, env: st.piles[fn(st, env)][:]
        return fn

    def template(self, tok, sc: Scope):
        """A quoted string; `{expr}` inside it is replaced by the value, shown for a person."""
        raw = _unescape(str(tok))
        if "{" not in raw:
            return _const(raw)
        parts = []
        i = 0
        plan = self.plan
        base_line, base_col = tok.line, tok.column + 1
        while i < len(raw):
            j = raw.find("{", i)
            if j < 0:
                parts.append(_const(raw[i:]))
                break
            k = raw.find("}", j)
            if k < 0:
                self.error("E102", "`{` without a closing `}` in a string", tok)
                return _const(raw)
            if j > i:
                parts.append(_const(raw[i:j]))
            inner_loc = self.src.at(base_line, base_col + j + 1) if hasattr(self.src, "at") else None
            inner = src_str(raw[j + 1:k], inner_loc) if inner_loc else raw[j + 1:k]
            fn, typ = self.compile_expr_text(inner, sc)
            parts.append(lambda st, env, fn=fn, typ=typ: show(plan, typ, fn(st, env)))
            i = k + 1
        return lambda st, env: "".join(p(st, env) for p in parts)

    def want(self, tree, scope: Scope, want: str, what: str):
        """Compile an expression that must have type `want` (reported otherwise)."""
        fn, typ = self.expr(tree, scope)
        if not compatible(typ, want):
            self.type_error(f"{what} must be {want}, not {typ}", tree)
        return fn


__all__ = ["ExprCompiler", "Scope"]
