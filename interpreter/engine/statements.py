"""Blocks of statements that never wait for a decision, translated to one Python function each.

Assignments, `if`, `for`, `while`, `break`, procedure calls, `move` and `draw` become Python
statements; the other effects (place, swap, board effects, ...) become calls of their closures. As for expressions, only this
translator writes the text. An error is placed at the statement that raised it: the function's
line numbers map back to the rules' positions, read from the traceback only when it fails.
"""
from __future__ import annotations

from lark import Tree

from ..lang.diagnostics import did_you_mean
from .state import PYTHON_ERRORS, GameTooLong, RuleError, describe_error
from .types import ANY, CARD, INT, PIECE, PILE, SEAT, compatible, elem, is_list, iterable_elem

# Words of the language: never names (the grammar's keywords).
KEYWORDS = {"let", "move", "to", "face", "up", "down", "at", "top", "bottom", "draw", "from", "shuffle",
            "place", "on", "swap", "with", "emit", "end", "game", "break", "pass", "say", "if", "elif",
            "else", "for", "in", "while", "choose", "by", "option", "simultaneously", "then", "or",
            "and", "not", "true", "false", "none"}

_HEAD = 2  # lines of the generated function before the first statement: `def` and `try`


def _locate(tb, filename: str, locs: dict):
    """The rule position of the deepest line of this block in a traceback."""
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return locs.get(line)


class StatementGen:
    """Mixed into the compiler: needs gen/gen_cond (expressions), stmt (effect closures), k, ns."""

    def block_simple(self, stmts, sc):
        lines: list[str] = []
        locs: dict = {}
        self._stmts(stmts, sc, lines, locs, 2)
        if not lines:
            return lambda st, env: None
        self._blocks = getattr(self, "_blocks", 0) + 1
        filename = f"<block {self._blocks}>"
        for name, obj in (("_RuleError", RuleError), ("_PYERR", PYTHON_ERRORS),
                          ("_describe", describe_error), ("_locate", _locate), ("_TooLong", GameTooLong)):
            self.ns.setdefault(name, obj)
        where = f"_locate(_e.__traceback__, {filename!r}, {self.k(locs)})"
        text = "\n".join(["def block(st, env):", "    try:", *lines,
                          "    except _RuleError as _e:",
                          f"        if _e.loc is None: _e.loc = {where}",
                          "        raise",
                          "    except _PYERR as _e:",
                          f"        raise _RuleError(_describe(_e), {where}) from _e"])
        local: dict = {}
        exec(compile(text, filename, "exec"), self.ns, local)  # noqa: S102 - generated
        return local["block"]

    def _line(self, lines, locs, ind: int, text: str, loc) -> None:
        lines.append("    " * ind + text)
        locs[len(lines) + _HEAD] = loc

    def _stmts(self, stmts, sc, lines, locs, ind: int) -> None:
        for t in stmts:
            method = getattr(self, "g_" + t.data, None)
            if method is not None:
                method(t, sc, lines, locs, ind)
                continue
            fn = self.stmt(t, sc)  # an effect: its closure
            if fn is not None:
                self._line(lines, locs, ind, f"{self.k(fn)}(st, env)", self.loc(t))

    def _body(self, stmts, sc, lines, locs, ind: int, loc) -> None:
        before = len(lines)
        self._stmts(stmts, sc, lines, locs, ind)
        if len(lines) == before:
            self._line(lines, locs, ind, "pass", loc)

    # ---- statements -------------------------------------------------------------------------

    def g_move_stmt(self, t, sc, lines, locs, ind):
        what_t, dest_t, facing, where = t.children
        src, typ = self.gen(what_t, sc)
        dest = self.want_src(dest_t, sc, PILE, "the destination of `move`")
        face = facing is None or str(facing.children[0]) == "up"
        bottom = where is not None and str(where.children[0]) == "bottom"
        d, c = self.fresh("dest"), self.fresh("card")
        loc = self.loc(t)
        if typ == CARD:  # one card (`none` moves nothing)
            self._line(lines, locs, ind, f"{d} = {dest}; {c} = {src}", loc)
            self._line(lines, locs, ind, f"if {c} is not None: st.move({c}, {d}, {face}, {bottom})", loc)
            return
        if typ == PILE:  # all its cards at once
            self._line(lines, locs, ind, f"st.move_all({src}, {dest}, {face}, {bottom})", loc)
            return
        if not (typ == ANY or (is_list(typ) and compatible(elem(typ), CARD))):
            self.type_error(f"what `move` moves must be a card, a list of cards or a pile, not {typ}", what_t)
            return
        # At the bottom, the last card goes first so that the cards keep their order.
        self._line(lines, locs, ind, f"{d} = {dest}", loc)
        self._line(lines, locs, ind, f"for {c} in ({src}){'[::-1]' if bottom else ''}:", loc)
        self._line(lines, locs, ind + 1, f"st.move({c}, {d}, {face}, {bottom})", loc)

    def g_draw_stmt(self, t, sc, lines, locs, ind):
        n_t, src_t, dest_t, facing = t.children
        n = self.want_src(n_t, sc, INT, "how many cards `draw` takes")
        src = self.want_src(src_t, sc, PILE, "the pile `draw` takes from")
        dest = self.want_src(dest_t, sc, PILE, "the destination of `draw`")
        face = facing is None or str(facing.children[0]) == "up"
        self._line(lines, locs, ind, f"st.draw({src}, {dest}, {n}, {face})", self.loc(t))

    def g_let_stmt(self, t, sc, lines, locs, ind):
        name = str(t.children[0])
        src, typ = self.gen(t.children[1], sc)
        if name in KEYWORDS:
            self.error("E125", f"`{name}` is a word of the rule language, not a name", t, "choose another name")
        elif name in self.params or name in self.plan.global_init or name in self.functions:
            self.error("E125", f"`let {name}` hides the game's `{name}`", t, "choose another name")
        sc.names[name] = typ
        self._line(lines, locs, ind, f"env[{name!r}] = {src}", self.loc(t))

    def target(self, t, sc):
        """(Python text to assign to, type) of a local, a game state variable or `x.state`."""
        if t.data == "var":
            name = str(t.children[0])
            if name in sc.names:
                return self.local(name, sc), sc.names[name]
            if name in self.params:
                self.error("E126", f"`{name}` is a parameter of the game: it cannot change during play", t,
                           "declare a game state variable under `state:` for a value that changes")
                return None, ANY
            if name in self.plan.global_init and not name.startswith("__"):
                if name == "round":
                    self.error("E126", "`round` is counted by the game and cannot be set", t)
                return f"st.g[{name!r}]", self.var_decl.get(("game", name), INT)
            self.error("E110", f"unknown name `{name}`", t,
                       did_you_mean(name, list(sc.names) + list(self.plan.global_init)) or
                       "declare it under `state:`, or introduce a local with `let`")
            return None, ANY
        if t.data == "attr":
            obj, obj_t = self.gen(t.children[0], sc)
            attr = str(t.children[1])
            scope = {PIECE: "piece", SEAT: "seat"}.get(obj_t)
            if scope is None:
                self.type_error(f"only state of a seat or piece can be set, not of a {obj_t}", t)
                return None, ANY
            inits = self.plan.piece_init if scope == "piece" else self.plan.seat_init
            if attr not in inits:
                self.error("E110", f"a {obj_t} has no state `{attr}`", t,
                           did_you_mean(attr, inits) or f"declare it under `state:` with `of: {scope}`")
                return None, ANY
            return f"st.v[{self.plan.var_at[attr]} + {obj}]", self.plan.var_types[(scope, attr)]
        self.error("E127", "only a name or `x.state` can be assigned", t)
        return None, ANY

    def g_assign_stmt(self, t, sc, lines, locs, ind):
        lhs, typ = self.target(t.children[0], sc)
        src, vt = self.gen(t.children[1], sc)
        if lhs is None:
            return
        if not compatible(typ, vt):
            self.type_error(f"cannot store a {vt} in a {typ}", t)
        self._line(lines, locs, ind, f"{lhs} = {src}", self.loc(t))

    def g_aug_stmt(self, t, sc, lines, locs, ind):
        target, op, value = t.children
        lhs, typ = self.target(target, sc)
        if lhs is None:  # reported by target
            return
        src, vt = self.gen(value, sc)
        if not (compatible(typ, INT) and compatible(vt, INT)):
            self.type_error(f"`{op}` works on ints, not {typ} and {vt}", t)
        self._line(lines, locs, ind, f"{lhs} {op} {src}", self.loc(t))

    def g_expr_stmt(self, t, sc, lines, locs, ind):
        call = t.children[0]
        name = str(call.children[0]) if isinstance(call, Tree) and call.data == "call" else None
        if name not in self.procedures:
            fn = self.stmt(t, sc)  # an effect, or an error reported there
            if fn is not None:
                self._line(lines, locs, ind, f"{self.k(fn)}(st, env)", self.loc(t))
            return
        params, _ = self.procedures[name]
        args = self.args_for(name, params, [a for a in call.children[1:] if a is not None], call, sc)
        local = "{" + ", ".join(f"{k!r}: {a}" for k, a in zip(params, args)) + "}"
        self._line(lines, locs, ind, f"{self.k(self.proc_fns)}[{name!r}](st, {local})", self.loc(t))

    def g_pass_stmt(self, t, sc, lines, locs, ind):
        self._line(lines, locs, ind, "pass", self.loc(t))

    def g_break_stmt(self, t, sc, lines, locs, ind):
        if not sc.loops:
            self.error("E130", "`break` outside a loop", t)
            self._line(lines, locs, ind, "pass", self.loc(t))
            return
        self._line(lines, locs, ind, "break", self.loc(t))

    def g_if_stmt(self, t, sc, lines, locs, ind):
        cond_t, body_t, *rest = t.children
        loc = self.loc(t)
        self._line(lines, locs, ind, f"if {self.gen_cond(cond_t, sc)}:", loc)
        self._body(body_t.children, sc.child(), lines, locs, ind + 1, loc)
        for r in rest:
            if r is None:
                continue
            if r.data == "elif_clause":
                self._line(lines, locs, ind, f"elif {self.gen_cond(r.children[0], sc)}:", self.loc(r))
                self._body(r.children[1].children, sc.child(), lines, locs, ind + 1, self.loc(r))
            else:
                self._line(lines, locs, ind, "else:", self.loc(r))
                self._body(r.children[0].children, sc.child(), lines, locs, ind + 1, self.loc(r))

    def g_for_stmt(self, t, sc, lines, locs, ind):
        var_tok, src_t, body_t = t.children
        src, typ = self.gen(src_t, sc)
        et = iterable_elem(typ)
        if et is None:
            self.type_error(f"`for` goes through a list or a pile, not a {typ}", src_t)
            et, src = ANY, "[]"
        if typ == PILE:
            src = f"st.piles[{src}][:]"  # a copy: the loop may move the pile's cards
        var = str(var_tok)
        py = self.fresh(var)
        inner = sc.child(loops=sc.loops + 1)
        inner.names[var] = et
        loc = self.loc(t)
        self._line(lines, locs, ind, f"for {py} in {src}:", loc)
        self._line(lines, locs, ind + 1, f"env[{var!r}] = {py}", loc)
        self._body(body_t.children, inner, lines, locs, ind + 1, loc)

    def g_while_stmt(self, t, sc, lines, locs, ind):
        cond_t, body_t = t.children
        loc = self.loc(t)
        limit = self.g.limits.max_steps
        message = f"a `while` loop ran past the step limit ({limit})"
        self._line(lines, locs, ind, f"while {self.gen_cond(cond_t, sc)}:", loc)
        self._line(lines, locs, ind + 1, "st.steps += 1", loc)
        self._line(lines, locs, ind + 1, f"if st.steps > {limit}: raise _TooLong({message!r}, {self.k(loc)})", loc)
        self._body(body_t.children, sc.child(loops=sc.loops + 1), lines, locs, ind + 1, loc)
