"""Core built-ins written as Python's own operations, chosen on the tree (`lower.py` calls
these before the generic call of a built-in's `run`; `None` means "no special form").

- `size(pile)` is `len(st.piles[p])`; `top(p)` asks the state (a bot's belief may reorder an
  unseen pile first); `sum`/`any`/`all`/`abs` are Python's;
- `min`/`max` of a list written out take its items as arguments (it is never empty);
- `sum`/`size` of a comprehension over cards whose item and filter read only the card go
  through a table made here, one entry per card: no comprehension runs while playing.
"""
from __future__ import annotations

import ast
from typing import Callable, Protocol

from ..engine.plan import Plan
from ..lang import nodes as n
from ..lang.types import CARD, PILE, listof
from . import pyast as P
from .analysis import reads_only_card
from .codegen import Codegen
from .context import Fn


class Lowerer(Protocol):
    """What a special form asks of the lowering that calls it (`lower.Lowerer`)."""
    plan: Plan
    cg: Codegen

    def st(self) -> ast.Name: ...

    def expr(self, e: n.Expr, fx: Fn) -> ast.expr: ...

    def items(self, e: n.Expr, fx: Fn, copy: bool) -> ast.expr: ...

    def pile(self, pile: ast.expr, e: n.Expr) -> ast.expr: ...


# A special form of a built-in: the Python of a call, or None for the generic call.
Special = Callable[[Lowerer, n.Call, Fn], "ast.expr | None"]


def _reduce(python: str, count: bool) -> Special:
    """`size` (len) or `sum` of a list; of a comprehension over cards, through a table."""
    def build(lo: Lowerer, e: n.Call, fx: Fn) -> ast.expr | None:
        arg = e.args[0]
        if isinstance(arg, n.Comp):
            table = _card_sum(lo, arg, fx, count=count)
            if table is not None:
                return table
        if count and arg.typ == PILE:   # how many cards a pile holds: told to everybody
            return P.call(P.name("len"), P.sub(P.attr(lo.st(), "piles"), lo.expr(arg, fx)))
        return P.call(P.name(python), lo.items(arg, fx, copy=False))
    return build


def _end(index: int) -> Special:
    def build(lo: Lowerer, e: n.Call, fx: Fn) -> ast.expr | None:
        return P.call(P.attr(lo.st(), "end"), lo.expr(e.args[0], fx), P.const(index))
    return build


def _cards(lo: Lowerer, e: n.Call, fx: Fn) -> ast.expr | None:
    return P.sub(lo.pile(lo.expr(e.args[0], fx), e.args[0]), ast.Slice(None, None, None))


def _extreme(name: str) -> Special:
    def build(lo: Lowerer, e: n.Call, fx: Fn) -> ast.expr | None:
        arg = e.args[0]
        if isinstance(arg, n.ListLit) and arg.items:
            items = [lo.expr(i, fx) for i in arg.items]
            return items[0] if len(items) == 1 else P.call(P.name(name), *items)
        return None
    return build


def _python(name: str) -> Special:
    def build(lo: Lowerer, e: n.Call, fx: Fn) -> ast.expr | None:
        arg = e.args[0]
        value = lo.expr(arg, fx) if name == "abs" else lo.items(arg, fx, copy=False)
        return P.call(P.name(name), value)
    return build


def _card_sum(lo: Lowerer, comp: n.Comp, fx: Fn, count: bool) -> ast.expr | None:
    """`sum(map(TABLE.__getitem__, cards))` for a comprehension over cards whose item (for a
    sum) and filter read nothing but the card; None when the table cannot be made."""
    if iterable_elem_is_card(comp) is False or comp.inner:
        return None
    card = comp.ref
    if not (reads_only_card(comp.item, card) or count):
        return None
    if comp.cond is not None and not reads_only_card(comp.cond, card):
        return None
    plan = lo.plan
    inner = Fn(fast=True)
    var = "card"
    inner.comp[id(card)] = var
    value = P.const(1) if count else lo.expr(comp.item, inner)
    test = lo.expr(comp.cond, inner) if comp.cond is not None else P.const(True)
    body = ast.IfExp(test, value, P.const(0))
    module = ast.Expression(P.lambda_([var], body))
    ast.fix_missing_locations(module)
    try:
        fn = eval(compile(module, "<card table>", "eval"), lo.cg.ns)  # noqa: S307 - our own ast
        table = [fn(c) for c in range(len(plan.card_start))]
    except Exception:  # noqa: BLE001 - some card lacks the value: keep the comprehension
        return None
    if not all(type(x) is int for x in table):
        return None
    source = lo.items(comp.source, fx, copy=False)
    getter = P.attr(lo.cg.const(table, "card_table"), "__getitem__")
    return P.call(P.name("sum"), P.call(P.name("map"), getter, source))


def iterable_elem_is_card(comp: n.Comp) -> bool:
    t = comp.source.typ
    return t == PILE or t == listof(CARD)


INLINE: dict[str, Special] = {
    "size": _reduce("len", count=True), "sum": _reduce("sum", count=False),
    "top": _end(-1), "bottom": _end(0), "cards": _cards,
    "min": _extreme("min"), "max": _extreme("max"), "any": _python("any"), "all": _python("all"),
    "abs": _python("abs"),
}

__all__ = ["INLINE"]
