"""Small builders of Python `ast` nodes, and positions taken from the rules.

Every node the compiler makes carries the position of the rule's sub-expression it comes from:
a failing instruction then points into the ruleset file (see `engine/boundary.py`).
"""
from __future__ import annotations

import ast
from typing import Any, TypeGuard

from ..base.diagnostics import Loc

LOAD, STORE = ast.Load(), ast.Store()


def name(ident: str) -> ast.Name:
    return ast.Name(ident, LOAD)


def store(ident: str) -> ast.Name:
    return ast.Name(ident, STORE)


def const(value: Any) -> ast.Constant:
    return ast.Constant(value)


def attr(obj: ast.expr, field: str) -> ast.Attribute:
    return ast.Attribute(obj, field, LOAD)


def attr_store(obj: ast.expr, field: str) -> ast.Attribute:
    return ast.Attribute(obj, field, STORE)


def sub(obj: ast.expr, index: ast.expr) -> ast.Subscript:
    return ast.Subscript(obj, index, LOAD)


def sub_store(obj: ast.expr, index: ast.expr) -> ast.Subscript:
    return ast.Subscript(obj, index, STORE)


def call(func: ast.expr, *args: ast.expr) -> ast.Call:
    return ast.Call(func, list(args), [])


def binop(left: ast.expr, op: ast.operator, right: ast.expr) -> ast.BinOp:
    return ast.BinOp(left, op, right)


def compare(left: ast.expr, op: ast.cmpop, right: ast.expr) -> ast.Compare:
    return ast.Compare(left, [op], [right])


def assign(target: ast.expr, value: ast.expr) -> ast.Assign:
    return ast.Assign([target], value)


def expr_stmt(value: ast.expr) -> ast.Expr:
    return ast.Expr(value)


def if_(test: ast.expr, body: list[ast.stmt], orelse: list[ast.stmt] | None = None) -> ast.If:
    return ast.If(test, body or [ast.Pass()], orelse or [])


def or_(a: ast.expr, b: ast.expr) -> ast.BoolOp:
    return ast.BoolOp(ast.Or(), [a, b])


def and_(a: ast.expr, b: ast.expr) -> ast.BoolOp:
    return ast.BoolOp(ast.And(), [a, b])


def is_const(node: ast.expr) -> TypeGuard[ast.Constant]:
    return isinstance(node, ast.Constant)


def args(*names: str) -> ast.arguments:
    return ast.arguments(posonlyargs=[], args=[ast.arg(a) for a in names], vararg=None, kwonlyargs=[],
                         kw_defaults=[], kwarg=None, defaults=[])


def function(fname: str, params: list[str], body: list[ast.stmt]) -> ast.FunctionDef:
    return ast.FunctionDef(fname, args(*params), body or [ast.Pass()], [], None)


def lambda_(params: list[str], body: ast.expr) -> ast.Lambda:
    return ast.Lambda(args(*params), body)


def place(node: Any, loc: Loc | None) -> Any:
    """Give `node` and the nodes under it without a position the rule's position `loc`. A node
    found with a position was placed with everything under it (by a construct inside this one):
    the walk goes no deeper there. A node added under it later, still without one, takes the
    nearest position above it when its function is compiled (`Codegen._locate`)."""
    if loc is None or not loc.line:
        return node
    line, col, file = loc.line, max((loc.col or 1) - 1, 0), loc.file
    stack: list[Any] = [node]
    pop, push = stack.pop, stack.append
    while stack:
        x = pop()
        placed, fields, _ = SHAPES.get(x.__class__) or shape(x.__class__)
        if placed:
            if getattr(x, "lineno", None) is not None:
                continue
            x.lineno, x.col_offset = line, col
            x.end_lineno, x.end_col_offset = line, col + 1
            x.rc_file = file  # the file of the line (`Codegen.define` numbers other files' own)
        for c in reversed(kids(x, fields)):
            push(c)
    return node


# each kind of Python node: whether it has a position, its fields, and whether a walk visits it (a
# leaf such as `Load()` holds nothing to place; a value that is no node, a constant's, is not one)
SHAPES: dict[type, tuple[bool, tuple[str, ...], bool]] = {}


def shape(cls: Any) -> tuple[bool, tuple[str, ...], bool]:
    node = issubclass(cls, ast.AST)
    found = SHAPES[cls] = (node and "lineno" in cls._attributes, cls._fields if node else (),
                           node and bool(cls._fields or cls._attributes))
    return found


def kids(x: Any, fields: tuple[str, ...]) -> list[Any]:
    """The nodes directly inside `x` that a walk visits, in order (`fields`: its kind's)."""
    out: list[Any] = []
    for name in fields:
        v = getattr(x, name, None)
        if v.__class__ is list:
            out += v
        elif v is not None:
            out.append(v)
    return [c for c in out if (SHAPES.get(c.__class__) or shape(c.__class__))[2]]
