"""Syntax trees back to rule text, in one canonical spelling (`racecraft explain` prints it).

Parsing the text it gives yields the same tree: comments and spacing are gone, parentheses are
written only where precedence needs them.
"""
from __future__ import annotations

from . import nodes as n

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
    if isinstance(e, n.Num):
        return str(e.value)
    if isinstance(e, n.Text):
        return _text(e)
    if isinstance(e, n.Bool):
        return "true" if e.value else "false"
    if isinstance(e, n.NoneLit):
        return "none"
    if isinstance(e, n.Name):
        return e.id
    if isinstance(e, n.Attr):
        return f"{_wrap(e.obj, 10)}.{e.name}"
    if isinstance(e, n.Index):
        return f"{_wrap(e.obj, 10)}[{expr(e.index)}]"
    if isinstance(e, n.Call):
        return f"{e.name}({', '.join(expr(a) for a in e.args)})"
    if isinstance(e, n.ListLit):
        return "[" + ", ".join(expr(i) for i in e.items) + "]"
    if isinstance(e, n.MapLit):
        return "{" + ", ".join(f"{expr(k)}: {expr(v)}" for k, v in zip(e.keys, e.values)) + "}"
    if isinstance(e, n.Comp):
        clauses = [(e.var, e.source, e.cond)] + [(c.var, c.source, c.cond) for c in e.inner]
        text = "".join(f" for {v} in {_wrap(s, 2)}" + (f" if {expr(c)}" if c is not None else "")
                       for v, s, c in clauses)
        return f"[{expr(e.item)}{text}]"
    if isinstance(e, n.IfExpr):
        return f"if {expr(e.cond)} then {expr(e.then)} else {expr(e.orelse)}"
    if isinstance(e, n.Or):
        return f"{_wrap(e.left, 2)} or {_wrap(e.right, 3)}"
    if isinstance(e, n.And):
        return f"{_wrap(e.left, 3)} and {_wrap(e.right, 4)}"
    if isinstance(e, n.Not):
        return f"not {_wrap(e.operand, 4)}"
    if isinstance(e, n.Compare):
        return f"{_wrap(e.left, 6)} {e.op} {_wrap(e.right, 6)}"
    if isinstance(e, n.In):
        return f"{_wrap(e.item, 6)} in {_wrap(e.container, 6)}"
    if isinstance(e, n.Range):
        return f"{_wrap(e.lo, 7)}..{_wrap(e.hi, 7)}"
    if isinstance(e, n.BinOp):
        level = _BIN[e.op]
        return f"{_wrap(e.left, level)} {e.op} {_wrap(e.right, level + 1)}"
    if isinstance(e, n.Neg):
        return f"-{_wrap(e.operand, 9)}"
    raise TypeError(type(e).__name__)  # pragma: no cover - every expression form is above


def block(stmts: list[n.Stmt], indent: int = 0) -> str:
    return "".join(stmt(s, indent) for s in stmts)


def _suite(stmts: list[n.Stmt], indent: int) -> str:
    return block(stmts, indent + 1) if stmts else "    " * (indent + 1) + "pass\n"


def stmt(s: n.Stmt, indent: int = 0) -> str:
    text = _stmt(s, indent)
    if s.name_tag is not None and not isinstance(s, n.Choose):  # `... as NAME`
        text = text[:-1] + f" as {s.name_tag}\n"
    return text


def _stmt(s: n.Stmt, indent: int = 0) -> str:
    pad = "    " * indent
    if isinstance(s, n.Let):
        return f"{pad}let {'visible ' if s.visible else ''}{s.name} = {expr(s.value)}\n"
    if isinstance(s, n.Assign):
        return f"{pad}{expr(s.target)} = {expr(s.value)}\n"
    if isinstance(s, n.AugAssign):
        return f"{pad}{expr(s.target)} {s.op} {expr(s.value)}\n"
    if isinstance(s, n.Do):
        return f"{pad}{expr(s.expr)}\n"
    if isinstance(s, n.Move):
        face = "" if s.face_up else " face down"
        where = " at bottom" if s.bottom else ""
        return f"{pad}move {expr(s.what)} to {expr(s.dest)}{face}{where}\n"
    if isinstance(s, n.Draw):
        face = "" if s.face_up else " face down"
        return f"{pad}draw {expr(s.count)} from {expr(s.source)} to {expr(s.dest)}{face}\n"
    if isinstance(s, n.Shuffle):
        return f"{pad}shuffle {expr(s.pile)}\n"
    if isinstance(s, n.Emit):
        args = f"({', '.join(expr(a) for a in s.args)})" if s.args else ""
        return f"{pad}emit {s.event}{args}\n"
    if isinstance(s, n.End):
        return f"{pad}end game\n"
    if isinstance(s, n.Break):
        return f"{pad}break\n"
    if isinstance(s, n.Pass):
        return f"{pad}pass\n"
    if isinstance(s, n.Proceed):
        return f"{pad}proceed" + ("" if s.args is None else f"({', '.join(expr(a) for a in s.args)})") + "\n"
    if isinstance(s, n.Return):
        return f"{pad}return" + (f" {expr(s.value)}" if s.value is not None else "") + "\n"
    if isinstance(s, n.Say):
        return f"{pad}say {_text(s.message)}\n"
    if isinstance(s, n.If):
        out = []
        for i, br in enumerate(s.branches):
            out.append(f"{pad}{'if' if i == 0 else 'elif'} {expr(br.cond)}:\n" + _suite(br.body, indent))
        if s.orelse is not None:
            out.append(f"{pad}else:\n" + _suite(s.orelse, indent))
        return "".join(out)
    if isinstance(s, n.For):
        return f"{pad}for {s.var} in {expr(s.source)}:\n" + _suite(s.body, indent)
    if isinstance(s, n.While):
        return f"{pad}while {expr(s.cond)}:\n" + _suite(s.body, indent)
    if isinstance(s, n.Choose):
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
            out.append(line + ":\n" + _suite(o.body, indent + 1))
        return "".join(out)
    if isinstance(s, n.Simultaneously):
        return f"{pad}simultaneously for {s.var} in {expr(s.seats)}:\n" + _suite(s.body, indent)
    raise TypeError(type(s).__name__)  # pragma: no cover
