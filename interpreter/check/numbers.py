"""Where a number stands in the rules, to tell whether it plausibly means a param (W109).

A `2` written where a param of value 2 is meant leaves the rule as it is when a module changes the
param; but most 2s of a game are not its params (`n // 2`, `seat(2)`, `size(xs) >= 2`). A number
is taken to mean a param when the rules write the param in the same place: the *slot* of a value
is what it is combined with or given to, read from its parent (and, through a list, a `-` or the
branches of `if ... then ... else`, from theirs):

- `A + x`, `A - x`, `A * x`, ... (`x += ...` as `x + ...`): the operator, the side for those where
  it matters, and what `A` is;
- `A == x`, `A < x`, ...: what it is compared with; `x in A`: what it is looked for in;
- `f(..., x, ...)`, `emit e(x)`, `proceed(x)`: the call and the argument's place;
- `A[x]`: what is indexed; `let v = x`, `v = x`: the variable; `draw x from P`: the pile;
- a function's value, a procedure's `return x`: the rule.

"What `A` is" is its head: a name, an attribute (`.level`, whosever), a call's name (`progress()`),
so that `progress(p) + 2` and `progress(q) + reach` stand in one slot. A local's name is its rule's
own: `n == 2` in one function and `n == reach` in another are not one slot.
"""
from __future__ import annotations

from typing import Callable

from ..lang import nodes as n

Slot = tuple


def head(e: n.Node, rule: str, local: Callable[[n.Name], bool]) -> str:
    """What an expression is, coarsely: `p.level` and `s.level` are both `.level`; `local`: whether a
    name is a local of the rule `rule`."""
    if isinstance(e, n.Name):
        return f"{rule}:{e.id}" if local(e) else e.id
    if isinstance(e, n.Attr):
        return "." + e.name
    if isinstance(e, n.Call):
        return e.name + "()"
    if isinstance(e, n.Index):
        return head(e.obj, rule, local) + "[]"
    if isinstance(e, n.Num):
        return "#"
    if isinstance(e, n.BinOp):
        return f"{head(e.left, rule, local)} {e.op} {head(e.right, rule, local)}"
    if isinstance(e, n.Neg):
        return "-" + head(e.operand, rule, local)
    return type(e).__name__


_SIDED = ("-", "//", "%")  # `x - 2` is not `2 - x`


def kids(x: n.Node, slot: Slot | None, rule: str,
         local: Callable[[n.Name], bool]) -> list[tuple[n.Node, Slot | None]]:
    """The nodes directly inside `x` (of the rule `rule`), each with its slot; `slot`: that of `x`
    itself; `local`: whether a name is a local of the rule."""
    def h(e: n.Node) -> str:
        return head(e, rule, local)

    def op(operator: str, other: n.Node, left: bool) -> Slot:
        return ("op", operator, ("l" if left else "r") if operator in _SIDED else "", h(other))

    if isinstance(x, n.BinOp):
        return [(x.left, op(x.op, x.right, True)), (x.right, op(x.op, x.left, False))]
    if isinstance(x, n.Compare):
        return [(x.left, ("cmp", h(x.right))), (x.right, ("cmp", h(x.left)))]
    if isinstance(x, n.In):
        return [(x.item, ("in", h(x.container))), (x.container, None)]
    if isinstance(x, n.Range):
        return [(x.lo, ("range", "lo", h(x.hi))), (x.hi, ("range", "hi", h(x.lo)))]
    if isinstance(x, n.Neg):
        return [(x.operand, slot)]
    if isinstance(x, n.ListLit):
        return [(item, ("item", slot)) for item in x.items]
    if isinstance(x, n.IfExpr):
        return [(x.cond, None), (x.then, slot), (x.orelse, slot)]
    if isinstance(x, n.Call):
        return [(a, ("arg", x.name, i)) for i, a in enumerate(x.args)]
    if isinstance(x, n.Emit):
        return [(a, ("arg", "emit " + x.event, i)) for i, a in enumerate(x.args)]
    if isinstance(x, n.Proceed):
        return [(a, ("arg", "proceed", i)) for i, a in enumerate(x.args or [])]
    if isinstance(x, n.Index):
        return [(x.obj, None), (x.index, ("index", h(x.obj)))]
    if isinstance(x, n.MapLit):
        return [(k, None) for k in x.keys] + [(v, ("map", h(k))) for k, v in zip(x.keys, x.values)]
    if isinstance(x, n.Let):
        return [(x.value, ("set", f"{rule}:{x.name}"))]
    if isinstance(x, n.Assign):
        return [(x.target, None), (x.value, ("set", h(x.target)))]
    if isinstance(x, n.AugAssign):
        return [(x.target, None), (x.value, op(x.op[0], x.target, False))]
    if isinstance(x, n.Draw):
        return [(x.count, ("draw", h(x.source))), (x.source, None), (x.dest, None)]
    if isinstance(x, n.Return):
        return [(x.value, ("value", rule))] if x.value is not None else []
    return [(c, None) for c in x.children()]
