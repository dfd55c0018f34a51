"""Expressions of the rule language to Python functions `f(st, env)`, with static types.

Each expression is type-checked and translated to the text of one Python expression, then
turned into a function once, at compile time. Only the translator writes that text: names in a
rule become table lookups or `env["name"]`, literals go through `repr`, so nothing a designer
writes is ever run as Python. A type error is reported at the expression's position and the
translation goes on with type `any`, so one run lists every problem.
"""
from __future__ import annotations

import re

from lark import Token, Tree

from ..lang.diagnostics import did_you_mean
from ..lang.parser import parse_expr
from ..load.yamlsrc import src_str
from .show import show
from .state import RuleError
from .types import (ANY, BOARD, BOOL, CARD, INT, NONE, PIECE, PILE, SEAT, TEXT, compatible, elem,
                    is_list, iterable_elem, join, listof)

# The only Python names generated code may use besides its own constants.
SAFE_BUILTINS = {"len": len, "sum": sum, "any": any, "all": all, "list": list, "range": range,
                 "abs": abs, "enumerate": enumerate, "min": min, "max": max, "map": map}

# Words of a generated text that read no state: string literals, the translator's constants
# (`_k12`) and these (see `ExprCompiler._card_table`).
_WORDS = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|[A-Za-z_]\w*")
_CONST = re.compile(r"_k\d+")
_PURE = {"if", "else", "and", "or", "not", "in", "is", "None", "True", "False"}


class Scope:
    """Names visible to a rule: locals with their types, and what `break` may leave."""

    def __init__(self, names=None, rule: str = "", loops: int = 0, decider=None, code_loops: int = 0,
                 py=None):
        self.names: dict[str, str] = dict(names or {})
        self.rule = rule
        self.loops = loops            # enclosing loops (`break` is allowed inside one)
        self.code_loops = code_loops  # ... of which compiled as machine code
        self.decider = decider        # default `by` of a choose: fn giving the turn's seat
        self.py: dict[str, str] = dict(py or {})  # locals held in Python variables (comprehensions)

    def child(self, **kw) -> "Scope":
        s = Scope(self.names, self.rule, self.loops, self.decider, self.code_loops, self.py)
        for k, v in kw.items():
            setattr(s, k, v)
        return s


def _const(v):
    return lambda st, env: v


def _unescape(text: str) -> str:
    return text[1:-1].replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\")


NIL = ("None", ANY)  # what an expression with an error translates to


class ExprCompiler:
    """Needs from its owner: plan, report, src (the text being compiled), ns (constants),
    and the symbol tables used by `global_name`, `attribute` and `call`."""

    # ---- positions and errors -------------------------------------------------------------

    def loc(self, node):
        at = getattr(self.src, "at", None)
        if node is None or at is None:
            return None
        if isinstance(node, Token):
            return at(node.line, node.column)
        meta = node.meta
        if getattr(meta, "empty", True):
            return at(1, 1)
        return at(meta.line, meta.column)

    def error(self, code: str, msg: str, node, hint: str | None = None) -> None:
        self.report.add(code, msg, self.loc(node), hint)

    def type_error(self, msg: str, node, hint: str | None = None):
        self.error("E120", "type error: " + msg.replace(" a int", " an int").replace(" a any", " any value"), node, hint)
        return NIL

    # ---- constants and functions ------------------------------------------------------------

    def k(self, obj) -> str:
        """A Python name for a constant the generated code refers to."""
        key = id(obj)
        name = self._k_names.get(key)
        if name is None:
            name = f"_k{len(self._k_names)}"
            self._k_names[key] = name
            self._k_keep.append(obj)
            self.ns[name] = obj
        return name

    def fresh(self, base: str) -> str:
        self._fresh += 1
        return f"_v{self._fresh}_{base}"

    def function(self, src: str):
        code = compile(f"lambda st, env: {src}", "<rule>", "eval")
        return eval(code, self.ns)  # noqa: S307 - text produced by this translator only

    def expr(self, t, scope: Scope):
        """Type-check and translate: (function, type)."""
        src, typ = self.gen(t, scope)
        return self.function(src), typ

    def want(self, tree, scope: Scope, want: str, what: str):
        """A function for an expression that must have type `want` (reported otherwise)."""
        return self.function(self.want_src(tree, scope, want, what))

    def want_src(self, tree, scope: Scope, want: str, what: str) -> str:
        src, typ = self.gen(tree, scope)
        if not compatible(typ, want):
            self.type_error(f"{what} must be {want}, not {typ}", tree)
        return src

    def cond(self, tree, scope: Scope, what: str = "condition"):
        return self.function(self.gen_cond(tree, scope, what))

    def gen_cond(self, tree, scope: Scope, what: str = "condition") -> str:
        src, t = self.gen(tree, scope)
        if not compatible(t, BOOL):
            self.type_error(f"{what} must be true or false (bool), but this is {t}", tree)
        return src

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

    # ---- translation --------------------------------------------------------------------------

    def gen(self, t, scope: Scope):
        kind = t.data if isinstance(t, Tree) else None
        method = getattr(self, "x_" + str(kind), None)
        if method is None:  # pragma: no cover - the grammar has no other expression forms
            return self.type_error(f"unsupported expression `{kind}`", t)
        return method(t, scope)

    def x_number(self, t, sc):
        return repr(int(t.children[0])), INT

    def x_string(self, t, sc):
        raw = _unescape(str(t.children[0]))
        if "{" not in raw:
            return repr(raw), TEXT
        return f"{self.k(self.template(t.children[0], sc))}(st, env)", TEXT

    def x_true(self, t, sc):
        return "True", BOOL

    def x_false(self, t, sc):
        return "False", BOOL

    def x_none(self, t, sc):
        return "None", NONE

    def local(self, name: str, sc: Scope) -> str:
        return sc.py.get(name) or f"env[{name!r}]"

    def x_var(self, t, sc):
        name = str(t.children[0])
        if name in sc.names:
            return self.local(name, sc), sc.names[name]
        found = self.global_name(name, t)
        if found is not None:
            return found
        self.error("E110", f"unknown name `{name}`", t,
                   did_you_mean(name, list(sc.names) + self.known_names()))
        return NIL

    def x_attr(self, t, sc):
        obj_t, name_tok = t.children
        obj, typ = self.gen(obj_t, sc)
        found = self.attribute(typ, str(name_tok), t)
        if found is None:
            return NIL
        template, rtyp = found
        return template.format(o=obj), rtyp

    def x_index(self, t, sc):
        obj_t, idx_t = t.children
        lst, typ = self.gen(obj_t, sc)
        i, ityp = self.gen(idx_t, sc)
        if not compatible(ityp, INT):
            return self.type_error(f"a list index must be int, not {ityp}", idx_t)
        if not (is_list(typ) or typ == ANY):
            return self.type_error(f"only lists can be indexed, not {typ}", obj_t)
        loc = self.loc(t)

        def index(lst, i):
            if not 1 <= i <= len(lst):
                raise RuleError(f"index {i} is outside the list (1..{len(lst)}); lists count from 1", loc)
            return lst[i - 1]
        if lst.endswith("[:]"):
            lst = lst[:-3]  # a copy made to be safe from changes: not needed to read one item
        return f"{self.k(index)}({lst}, {i})", elem(typ)

    def x_list(self, t, sc):
        items = [(c, self.gen(c, sc)) for c in t.children if c is not None]
        typ = NONE
        for c, (_s, it) in items:
            if not compatible(typ, it):
                return self.type_error(f"a list mixes {typ} and {it}", c)
            typ = join(typ, it)
        return "[" + ", ".join(s for _c, (s, _t) in items) + "]", listof(ANY if typ == NONE else typ)

    def x_comprehension(self, t, sc):
        text, typ, _reduced = self.comprehension(t, sc)
        return text, typ

    def comprehension(self, t, sc, reduce: str | None = None):
        """(text, type, reduced). With `reduce` ("sum" or "count"), a list of cards whose item and
        filter read nothing but the card's own fixed properties is summed or counted at once
        through a table made here, by card (then `reduced` is true and text is that number)."""
        body_t, var_tok, src_t, cond_t = t.children
        src, src_typ = self.gen(src_t, sc)
        et = iterable_elem(src_typ)
        if et is None:
            return *self.type_error(f"cannot go through a {src_typ}", src_t), False
        if src_typ == PILE:
            src = f"st.piles[{src}]"
        var = str(var_tok)
        py = self.fresh(var)
        inner = sc.child(names={**sc.names, var: et}, py={**sc.py, var: py})
        body, bt = self.gen(body_t, inner)
        cond = self.gen_cond(cond_t, inner, "a filter") if cond_t is not None else "True"
        if reduce is not None and et == CARD:
            table = self._card_table(py, body if reduce == "sum" else "1", cond)
            if table is not None:
                return f"sum(map({self.k(table)}.__getitem__, {src}))", INT, True
        tail = f" if {cond}" if cond_t is not None else ""
        return f"[{body} for {py} in {src}{tail}]", listof(bt), False

    def _card_table(self, py: str, value: str, cond: str):
        """[value if cond else 0 for every card], when both read only the card `py` and
        constants (no state, no local); None otherwise."""
        for text in (value, cond):
            for word in _WORDS.findall(text):
                if not (word[0] in "'\"" or word == py or word in _PURE or _CONST.fullmatch(word)):
                    return None
        try:
            fn = eval(f"lambda {py}: ({value}) if ({cond}) else 0", self.ns)  # noqa: S307 - our text
            table = [fn(card) for card in range(len(self.plan.card_start))]
        except Exception:  # noqa: BLE001 - some card has no such value: keep the comprehension
            return None
        return table if all(type(x) is int for x in table) else None

    def x_if_expr(self, t, sc):
        c_t, a_t, b_t = t.children
        c = self.gen_cond(c_t, sc)
        a, at = self.gen(a_t, sc)
        b, bt = self.gen(b_t, sc)
        if not compatible(at, bt):
            return self.type_error(f"the two branches give {at} and {bt}", t)
        return f"({a} if {c} else {b})", join(at, bt)

    def x_or_(self, t, sc):
        a = self.gen_cond(t.children[0], sc, "`or` needs bool values;")
        b = self.gen_cond(t.children[1], sc, "`or` needs bool values;")
        return f"({a} or {b})", BOOL

    def x_and_(self, t, sc):
        a = self.gen_cond(t.children[0], sc, "`and` needs bool values;")
        b = self.gen_cond(t.children[1], sc, "`and` needs bool values;")
        return f"({a} and {b})", BOOL

    def x_not_(self, t, sc):
        return f"(not {self.gen_cond(t.children[0], sc, '`not` needs a bool value;')})", BOOL

    def x_compare(self, t, sc):
        a_t, op_tok, b_t = t.children
        a, at = self.gen(a_t, sc)
        b, bt = self.gen(b_t, sc)
        op = str(op_tok)
        if op in ("==", "!="):
            if not compatible(at, bt):
                return self.type_error(f"cannot compare {at} with {bt}", t)
        elif not (compatible(at, INT) and compatible(bt, INT)):
            return self.type_error(f"`{op}` compares numbers, not {at} and {bt}", t)
        return f"({a} {op} {b})", BOOL

    def x_contains(self, t, sc):
        a, at = self.gen(t.children[0], sc)
        b, bt = self.gen(t.children[1], sc)
        et = iterable_elem(bt)
        if et is None:
            return self.type_error(f"`in` looks inside a list or pile, not {bt}", t.children[1])
        if not compatible(at, et):
            return self.type_error(f"a {at} is never in a list of {et}", t)
        if bt == PILE:
            return f"({a} in st.piles[{b}])", BOOL
        if b.startswith("list(range("):  # `x in a..b`: no list is built
            return f"({a} in {b[len('list('):-1]})", BOOL
        return f"({a} in {b})", BOOL

    def x_range(self, t, sc):
        a, at = self.gen(t.children[0], sc)
        b, bt = self.gen(t.children[1], sc)
        if not (compatible(at, INT) and compatible(bt, INT)):
            return self.type_error("a range `a..b` needs two ints", t)
        return f"list(range({a}, {b} + 1))", listof(INT)

    def x_binop(self, t, sc):
        a_t, op_tok, b_t = t.children
        a, at = self.gen(a_t, sc)
        b, bt = self.gen(b_t, sc)
        op = str(op_tok)
        if op == "+" and at == bt == TEXT:
            return f"({a} + {b})", TEXT
        if op == "+" and is_list(at) and is_list(bt):
            if not compatible(at, bt):
                return self.type_error(f"cannot join {at} and {bt}", t)
            return f"({a} + {b})", join(at, bt)
        if not (compatible(at, INT) and compatible(bt, INT)):
            return self.type_error(f"`{op}` works on ints, not {at} and {bt}", t)
        return f"({a} {op} {b})", INT

    def x_neg(self, t, sc):
        a, at = self.gen(t.children[0], sc)
        if not compatible(at, INT):
            return self.type_error(f"`-` works on ints, not {at}", t)
        return f"(-{a})", INT

    def x_call(self, t, sc):
        name_tok, *args = t.children
        return self.call(str(name_tok), [a for a in args if a is not None], t, sc)

    # ---- names, attributes, calls --------------------------------------------------------------

    def known_names(self) -> list[str]:
        from .builtins import BUILTINS

        p = self.plan
        return (list(self.params) + [k for k in p.global_init if not k.startswith("__")]
                + list(p.pile_base) + p.board_names + list(p.kind_pieces) + ["seats"]
                + list(self.functions) + list(self.procedures) + list(BUILTINS))

    def global_name(self, name: str, node):
        p = self.plan
        if name in self.params:
            value, typ = self.params[name]
            return self.k(value), typ
        if name in p.global_init and not name.startswith("__"):
            return f"st.g[{name!r}]", self.var_decl.get(("game", name), INT)
        if name in p.pile_base:
            if self.g.piles[name].of != "game":
                self.error("E121", f"pile `{name}` is one per {self.g.piles[name].of}: say whose, as `{name}(...)`", node)
                return NIL
            return repr(p.pile_base[name]), PILE
        if name in p.board_names:
            return repr(p.board_names.index(name)), BOARD
        if name in p.kind_pieces:
            return f"{self.k(p.kind_pieces[name])}[:]", listof(PIECE)
        if name == "seats":
            return f"list(range({p.n_seats}))", listof(SEAT)
        return None

    def attribute(self, typ: str, name: str, node):
        """(template with `{o}` for the object, type) of `x.name` for x of type typ."""
        p = self.plan
        if typ == CARD:
            if name == "type":
                return f"{self.k(p.card_types)}[{self.k(p.card_type)}[{{o}}]]", TEXT
            if name == "face_up":
                return "st.up[{o}]", BOOL
            if name == "pile":
                return "st.where[{o}]", PILE
            if name in self.card_prop_types:
                return f"{self.k(p.card_props[name])}[{{o}}]", self.card_prop_types[name]
            have = ["type", "face_up", "pile", *self.card_prop_types]
        elif typ == PIECE:
            if name == "slot":
                return "st.pslot[{o}]", INT
            if name == "name":
                return f"{self.k(p.piece_names)}[{{o}}]", TEXT
            if name in p.piece_init:
                return f"st.v[{p.var_at[name]} + {{o}}]", p.var_types[("piece", name)]
            have = ["slot", "name", *p.piece_init]
        elif typ == SEAT:
            if name == "number":
                return "({o} + 1)", INT
            if name == "pieces":
                return (f"[_i for _i, _o in enumerate(st.v[{p.var_at['owner']}:{p.var_at['owner'] + p.n_pieces}]) "
                        "if _o == {o}]", listof(PIECE))
            if name in p.seat_init:
                return f"st.v[{p.var_at[name]} + {{o}}]", p.var_types[("seat", name)]
            have = ["number", "pieces", *p.seat_init]
        elif typ == ANY:
            # Only an earlier error (reported where it is) or an empty list gives `any` here.
            return None
        else:
            self.error("E120", f"type error: a {typ} has no `.{name}`", node)
            return None
        self.error("E110", f"a {typ} has no `{name}`", node, did_you_mean(name, have))
        return None

    def call(self, name: str, args, node, sc: Scope):
        from .builtins import BUILTINS

        p = self.plan
        if name in BUILTINS:
            return BUILTINS[name](self, args, node, sc)
        if name in p.pile_base:
            return self.pile_of(name, args, node, sc)
        if name in self.functions:
            params, _src = self.functions[name]
            arg_srcs = self.args_for(name, params, args, node, sc)
            # a user function is a Python function of the plan: `_uf_NAME(st, args...)`
            return f"_uf_{name}(st{''.join(', ' + a for a in arg_srcs)})", self.func_types.get(name, ANY)
        if name in self.procedures:
            self.error("E123", f"`{name}` is a procedure (it does things); it has no value", node,
                       "call it as a statement on its own line")
            return NIL
        self.error("E110", f"unknown function `{name}`", node, did_you_mean(name, self.known_names()))
        return NIL

    def pile_of(self, name: str, args, node, sc: Scope):
        """`hand(s)`, `column(3)`: the pile of a seat, a piece or a board's slot."""
        p = self.plan
        scope = self.g.piles[name].of
        if scope == "game":
            self.error("E122", f"`{name}` is a single pile: write `{name}` without parentheses", node)
            return NIL
        if len(args) != 1:
            self.error("E122", f"`{name}(...)` takes one argument", node)
            return NIL
        arg, typ = self.gen(args[0], sc)
        base = p.pile_base[name]
        if scope in ("seat", "piece"):
            if not compatible(typ, scope):
                return self.type_error(f"`{name}` is one per {scope}; this is a {typ}", args[0])
            # A seat or piece is always in range (typed); `none` fails at the statement.
            return f"({base} + {arg})", PILE
        if scope not in p.board_names:  # a pile of an unknown owner: reported where declared
            return NIL
        if not compatible(typ, INT):
            return self.type_error(f"`{name}` is one per slot of `{scope}`: give a slot number, not a {typ}", args[0])
        # One checking function per pile name, so that the same pile written twice in a choice
        # is the same text (its list is then computed once).
        pile_at = self._pile_at.get(name)
        if pile_at is None:
            n = p.board_kinds[p.board_names.index(scope)].places

            def pile_at(v):
                if v is None or not 1 <= v <= n:
                    raise RuleError(f"`{name}({v})`: `{scope}` has places 1..{n}")
                return base + v - 1
            self._pile_at[name] = pile_at
        return f"{self.k(pile_at)}({arg})", PILE

    def args_for(self, name, params: dict, args, node, sc) -> list[str]:
        """Translated arguments of a user function or procedure, checked against its params."""
        if len(args) != len(params):
            self.error("E124", f"`{name}` takes {len(params)} argument(s), got {len(args)}", node,
                       f"{name}({', '.join(f'{k}: {v}' for k, v in params.items())})")
            return ["None"] * len(params)
        out = []
        for (pname, ptype), a in zip(params.items(), args):
            src, t = self.gen(a, sc)
            if not compatible(t, ptype):
                self.type_error(f"argument `{pname}` of `{name}` must be {ptype}, not {t}", a)
            out.append(src)
        return out

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
            end = raw.find("}", j)
            if end < 0:
                self.error("E102", "`{` without a closing `}` in a string", tok)
                return _const(raw)
            if j > i:
                parts.append(_const(raw[i:j]))
            inner_loc = self.src.at(base_line, base_col + j + 1) if hasattr(self.src, "at") else None
            inner = src_str(raw[j + 1:end], inner_loc) if inner_loc else raw[j + 1:end]
            fn, typ = self.compile_expr_text(inner, sc)
            parts.append(lambda st, env, fn=fn, typ=typ: show(plan, typ, fn(st, env)))
            i = end + 1
        return lambda st, env: "".join(p(st, env) for p in parts)


__all__ = ["ExprCompiler", "Scope", "SAFE_BUILTINS", "NIL"]
