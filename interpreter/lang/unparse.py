"""Syntax trees back to rule text, in one canonical spelling (`racecraft explain` prints it).

Parsing the text it gives yields the same tree: comments and spacing are gone, parentheses are
written only where precedence needs them.
"""
from __future__ import annotations

from typing import ClassVar

from . import nodes as n
from .visit import Visitor

# binding strength, loosest first (as in grammar.lark)
_LEVEL = {n.IfExpr: 1, n.Or: 2, n.And: 3, n.Not: 4, n.Compare: 5, n.In: 5, n.Range: 6}
_BIN = {"+": 7, "-": 7, "*": 8, "//": 8, "%": 8}


def _level(e: n.Expr) -> int:
    if isinstance(e, n.BinOp):
        return _BIN[e.op]
    if isinstance(e, n.Neg):
        return 9
    return _LEVEL.get(type(e), 10)


def _text(t: n.Text) -> str:
    out = []
    for p in t.parts:
        if isinstance(p, str):
            out.append(p.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t"))
        else:
            # the expression is read back after the string is unescaped: escape it as well
            out.append("{" + expr(p).replace("\\", "\\\\").replace('"', '\\"') + "}")
    return '"' + "".join(out) + '"'


def _wrap(e: n.Expr, at_least: int) -> str:
    s = expr(e)
    return f"({s})" if _level(e) < at_least else s


def expr(e: n.Expr) -> str:
    return _TEXT.case(type(e))(_TEXT, e)


def block(stmts: list[n.Stmt], indent: int = 0) -> str:
    return "".join(stmt(s, indent) for s in stmts)


def _suite(stmts: list[n.Stmt], indent: int) -> str:
    return block(stmts, indent + 1) if stmts else "    " * (indent + 1) + "pass\n"


def stmt(s: n.Stmt, indent: int = 0) -> str:
    text = _TEXT.case(type(s))(_TEXT, s, "    " * indent, indent)
    if s.name_tag is not None and not isinstance(s, n.Choose):  # `... as NAME`
        text = text[:-1] + f" as {s.name_tag}\n"
    return text


def _face(face_up: bool) -> str:
    return "" if face_up else " face down"


class _Text(Visitor):
    """Each kind of node as text: an expression (`x_`), a statement at its indent (`s_`)."""
    walks: ClassVar[tuple[type, ...]] = (n.Stmt, n.Expr)

    def x_Num(self, e: n.Num) -> str:
        return str(e.value)

    def x_Text(self, e: n.Text) -> str:
        return _text(e)

    def x_Bool(self, e: n.Bool) -> str:
        return "true" if e.value else "false"

    def x_NoneLit(self, e: n.NoneLit) -> str:
        return "none"

    def x_Name(self, e: n.Name) -> str:
        return e.id

    def x_Attr(self, e: n.Attr) -> str:
        return f"{_wrap(e.obj, 10)}.{e.name}"

    def x_Index(self, e: n.Index) -> str:
        return f"{_wrap(e.obj, 10)}[{expr(e.index)}]"

    def x_Call(self, e: n.Call) -> str:
        return f"{e.name}({', '.join(expr(a) for a in e.args)})"

    def x_ListLit(self, e: n.ListLit) -> str:
        return "[" + ", ".join(expr(i) for i in e.items) + "]"

    def x_MapLit(self, e: n.MapLit) -> str:
        return "{" + ", ".join(f"{expr(k)}: {expr(v)}" for k, v in zip(e.keys, e.values)) + "}"

    def x_Comp(self, e: n.Comp) -> str:
        clauses = [(e.var, e.source, e.cond)] + [(c.var, c.source, c.cond) for c in e.inner]
        text = "".join(f" for {v} in {_wrap(s, 2)}" + (f" if {expr(c)}" if c is not None else "")
                       for v, s, c in clauses)
        return f"[{expr(e.item)}{text}]"

    def x_IfExpr(self, e: n.IfExpr) -> str:
        return f"if {expr(e.cond)} then {expr(e.then)} else {expr(e.orelse)}"

    def x_Or(self, e: n.Or) -> str:
        return f"{_wrap(e.left, 2)} or {_wrap(e.right, 3)}"

    def x_And(self, e: n.And) -> str:
        return f"{_wrap(e.left, 3)} and {_wrap(e.right, 4)}"

    def x_Not(self, e: n.Not) -> str:
        return f"not {_wrap(e.operand, 4)}"

    def x_Compare(self, e: n.Compare) -> str:
        return f"{_wrap(e.left, 6)} {e.op} {_wrap(e.right, 6)}"

    def x_In(self, e: n.In) -> str:
        return f"{_wrap(e.item, 6)} in {_wrap(e.container, 6)}"

    def x_Range(self, e: n.Range) -> str:
        return f"{_wrap(e.lo, 7)}..{_wrap(e.hi, 7)}"

    def x_BinOp(self, e: n.BinOp) -> str:
        level = _BIN[e.op]
        return f"{_wrap(e.left, level)} {e.op} {_wrap(e.right, level + 1)}"

    def x_Neg(self, e: n.Neg) -> str:
        return f"-{_wrap(e.operand, 9)}"

    def s_Let(self, s: n.Let, pad: str, indent: int) -> str:
        return f"{pad}let {'visible ' if s.visible else ''}{s.name} = {expr(s.value)}\n"

    def s_Assign(self, s: n.Assign, pad: str, indent: int) -> str:
        return f"{pad}{expr(s.target)} = {expr(s.value)}\n"

    def s_AugAssign(self, s: n.AugAssign, pad: str, indent: int) -> str:
        return f"{pad}{expr(s.target)} {s.op} {expr(s.value)}\n"

    def s_Do(self, s: n.Do, pad: str, indent: int) -> str:
        return f"{pad}{expr(s.expr)}\n"

    def s_Move(self, s: n.Move, pad: str, indent: int) -> str:
        where = " at bottom" if s.bottom else ""
        return f"{pad}move {expr(s.what)} to {expr(s.dest)}{_face(s.face_up)}{where}\n"

    def s_Draw(self, s: n.Draw, pad: str, indent: int) -> str:
        return f"{pad}draw {expr(s.count)} from {expr(s.source)} to {expr(s.dest)}{_face(s.face_up)}\n"

    def s_Shuffle(self, s: n.Shuffle, pad: str, indent: int) -> str:
        return f"{pad}shuffle {expr(s.pile)}\n"

    def s_Emit(self, s: n.Emit, pad: str, indent: int) -> str:
        args = f"({', '.join(expr(a) for a in s.args)})" if s.args else ""
        return f"{pad}emit {s.event}{args}\n"

    def s_End(self, s: n.End, pad: str, indent: int) -> str:
        return f"{pad}end game\n"

    def s_Break(self, s: n.Break, pad: str, indent: int) -> str:
        return f"{pad}break\n"

    def s_Pass(self, s: n.Pass, pad: str, indent: int) -> str:
        return f"{pad}pass\n"

    def s_Proceed(self, s: n.Proceed, pad: str, indent: int) -> str:
        return f"{pad}proceed" + ("" if s.args is None else f"({', '.join(expr(a) for a in s.args)})") + "\n"

    def s_Return(self, s: n.Return, pad: str, indent: int) -> str:
        return f"{pad}return" + (f" {expr(s.value)}" if s.value is not None else "") + "\n"

    def s_Say(self, s: n.Say, pad: str, indent: int) -> str:
        return f"{pad}say {_text(s.message)}\n"

    def s_If(self, s: n.If, pad: str, indent: int) -> str:
        out = []
        for i, br in enumerate(s.branches):
            out.append(f"{pad}{'if' if i == 0 else 'elif'} {expr(br.cond)}:\n" + _suite(br.body, indent))
        if s.orelse is not None:
            out.append(f"{pad}else:\n" + _suite(s.orelse, indent))
        return "".join(out)

    def s_For(self, s: n.For, pad: str, indent: int) -> str:
        return f"{pad}for {s.var} in {expr(s.source)}:\n" + _suite(s.body, indent)

    def s_While(self, s: n.While, pad: str, indent: int) -> str:
        return f"{pad}while {expr(s.cond)}:\n" + _suite(s.body, indent)

    def s_Choose(self, s: n.Choose, pad: str, indent: int) -> str:
        head = "choose"
        if s.prompt is not None:
            head += " " + _text(s.prompt)
        if s.by is not None:
            head += f" by {expr(s.by)}"
        if s.name_tag is not None:
            head += f" as {s.name_tag}"
        out = [f"{pad}{head}:\n"]
        for o in s.options:
            line = f"{pad}    option {_text(o.label)}"
            if o.name_tag is not None:
                line += f" as {o.name_tag}"
            if o.var is not None and o.source is not None:
                line += f" for {o.var} in {_wrap(o.source, 2)}"
            for c in o.inner:
                line += f" for {c.var} in {_wrap(c.source, 2)}"
            if o.cond is not None:
                line += f" if {expr(o.cond)}"
            if o.board is not None and o.place is not None:
                line += f" at {_wrap(o.board, 2)}, {_wrap(o.place, 2)}"
            out.append(line + ":\n" + _suite(o.body, indent + 1))
        return "".join(out)

    def s_Simultaneously(self, s: n.Simultaneously, pad: str, indent: int) -> str:
        return f"{pad}simultaneously for {s.var} in {expr(s.seats)}:\n" + _suite(s.body, indent)


_TEXT = _Text()
