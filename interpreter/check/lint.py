"""Racecraft: check, the lint of numbers (W109). Stage: after the typing pass (`checker.py`),
on a game whose names are resolved. Reads the typed rules, the params (of values other than 0
and 1) and where each is set; its one output is a warning W109 at each number written in a rule
where it plausibly means a param: a module or variant that changes the param would leave the
number as it is.

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

from typing import Any, Callable

from ..lang import nodes as n
from ..base.diagnostics import Loc, Report, source_line
from ..lang.types import INT
from ..load.rules import Rules, blocks
from ..load.ruleset import Ruleset
from ..load.yamlsrc import loc_of
from .checked import Ref, RefKind
from .symbols import Symbols

Slot = tuple

# a line that says its numbers are meant as written (not a param's value): W109 is not said there
AS_WRITTEN = "# as written"


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


def lint_numbers(rs: Ruleset, sym: Symbols, rules: Rules, report: Report) -> None:
    """W109: a number written in a rule that is the value of a param the rule's file can see
    (one of its own, the game file's, or one of a module or variant it requires), where it
    plausibly means the param: the rules write the param in the same slot (`kids`), or
    no rule reads the param. A module that changes the param would leave this number as it
    is; a game's other 2s (`n // 2`, `seat(2)`) are not said. 0 and 1 count and compare more
    than they measure, and are not said; a line ending in `# as written` keeps its numbers,
    and so does a whole rule when the line of its key says so (or, for a rule of one line,
    the line above it)."""
    game_file = getattr(loc_of(rs.game.game.id), "file", None)
    seen: dict[int, list[tuple[str, str | None]]] = {}   # value -> (param, the file it is set in)
    for name, (value, typ) in sym.params.items():
        if typ != INT or value in (0, 1):
            continue
        key = f"params.{name}"
        if key in rs.changed:  # its value is a patch's (None: the command line's)
            at = rs.changed[key]
        else:
            at = loc_of(next((k for k in rs.game.params if str(k) == name), None))
        if at is not None:
            seen.setdefault(value, []).append((name, at.file))
    if not seen:
        return
    sees: dict[str, set[str | None]] = {}

    def visible_from(file: str) -> set[str | None]:
        if file not in sees:
            out, todo = {file, game_file}, [file]
            while todo:
                for needed in rs.needs.get(todo.pop(), []):
                    if needed not in out:
                        out.add(needed)
                        todo.append(needed)
            sees[file] = out
        return sees[file]

    def as_written(loc: Loc) -> bool:
        line = source_line(loc) if loc.line > 0 else None
        return line is not None and AS_WRITTEN in line

    def keeps_all(start: Loc | None) -> bool:
        # a whole rule keeps its numbers when its key's line says so (`value: >  # as written`)
        return start is not None and (as_written(start) or as_written(Loc(start.file, start.line - 1)))

    # A number is said where the rules write a param of its value in the same slot (`kids`:
    # what it is combined with, compared with, given to), or anywhere when no rule reads the param.
    uses: dict[str, set] = {}   # param -> the slots the rules write it in
    found: list[tuple[n.Num, Any]] = []

    def local(x: n.Name) -> bool:
        return isinstance(x.ref, Ref) and x.ref.kind is RefKind.LOCAL

    for rule in rules.rules.values():
        top = ("value", rule.id) if isinstance(rule.tree, n.Expr) else None
        stack = [(rule.tree, keeps_all(rule.tree.loc), top)]
        while stack:
            x, whole, slot = stack.pop()
            file = x.loc.file if x.loc is not None else None
            for child, child_slot in kids(x, slot, rule.id, local):
                # an extension's value holds the base's (`base`): that text keeps its own mark,
                # and the base's mark says nothing of an extension's statements
                if child.loc is not None and child.loc.file != file:
                    stack.append((child, isinstance(child, n.Expr) and keeps_all(child.loc), child_slot))
                else:
                    stack.append((child, whole, child_slot))
            if isinstance(x, n.Name) and isinstance(x.ref, Ref) and x.ref.kind is RefKind.PARAM:
                uses.setdefault(x.id, set()).add(slot)
            elif isinstance(x, n.Num) and x.value in seen and x.loc is not None and not whole:
                found.append((x, slot))
    for x, slot in found:
        assert x.loc is not None
        names = [p for p, f in seen[x.value] if f in visible_from(x.loc.file)
                 and (p not in uses or (slot is not None and slot in uses[p]))]
        if not names or as_written(x.loc):
            continue
        shown = " or ".join(f"`{p}`" for p in names)
        if len(names) > 3:  # a game of many params of one value: a few, and how many more
            shown = ", ".join(f"`{p}`" for p in names[:3]) + f" or {len(names) - 3} more"
        report.warn("W109", f"`{x.value}` is the value of param {shown}: a module or variant "
                    "that changes the param would leave this number as it is", x.loc,
                    f"write {shown if len(names) <= 3 else 'one of them'}; if the number is "
                    f"another thing, end the line with `{AS_WRITTEN}`")


def lint_hidden_facts(rs: Ruleset, rules: Rules, report: Report) -> None:
    """W162: a fact that everybody sees (`show:`, `view:`, not `seen_by: owner`) reads what lies
    in a pile only its owner sees, or nobody, directly or through the functions it calls (not only
    how many cards it holds: `size` of it is said to everybody): every seat is told what it holds.
    W164: the same of a line a rule says (`say`), of what its text reads itself."""
    hidden = {str(k) for k, pile in rs.game.piles.items() if pile.visible in ("owner", "nobody")}
    if not hidden:
        return
    found: dict[str, frozenset[str]] = {}   # function -> the hidden piles it reads

    def reads(tree: n.Node) -> set[str]:
        return _pile_reads(tree, hidden, through)

    def through(name: str) -> frozenset[str]:
        if name not in found:
            found[name] = frozenset()   # (a function that calls itself adds nothing more)
            tree = rules.tree(f"functions.{name}")
            found[name] = frozenset(reads(tree)) if tree is not None else frozenset()
        return found[name]

    # W164: a line said aloud that names what lies in such a pile itself (through a function it
    # may be a rule of the game that tells, as a bid of 0 says its bidder holds no card of that
    # colour: only the text's own reads are said)
    for _rule_id, body in blocks(rules):
        stack: list[n.Node] = list(body)
        while stack:
            x = stack.pop()
            if isinstance(x, n.Say):
                piles = sorted(_pile_reads(x.message, hidden))
                if piles:
                    named = ", ".join(f"`{p}`" for p in piles)
                    report.warn("W164", f"this line is said to every seat and tells what lies in {named}, "
                                "which not everybody may see", x.loc,
                                "say what everybody may know (how many cards: `size(...)`), or move the "
                                "cards where everybody sees them first (`move c to ... face up`)")
            else:
                stack.extend(x.children())
    for rule_id, (_label, _unit, owner_only) in rules.fact_meta.items():
        tree = rules.tree(rule_id)
        if owner_only or tree is None:
            continue
        piles = sorted(reads(tree))
        if piles:
            named = ", ".join(f"`{p}`" for p in piles)
            report.warn("W162", f"`{rule_id}` is shown to every seat but reads what lies in {named}, "
                        "which not everybody may see: every seat is told it", tree.loc,
                        "show it only to its owner (`seen_by: owner`), or show what everybody knows "
                        "(how many cards: `size(...)`)")


def _pile_reads(tree: n.Node, hidden: set[str],
                through: Callable[[str], frozenset[str]] | None = None) -> set[str]:
    """The `hidden` piles a tree reads what lies in (not only their size), itself, and with
    `through` in the functions it calls."""
    out: set[str] = set()
    stack = [tree]
    while stack:
        x = stack.pop()
        if isinstance(x, n.Call) and x.name == "size" and len(x.args) == 1 and _counted(x.args[0]):
            continue
        ref = getattr(x, "ref", None)
        if isinstance(ref, Ref):
            if ref.kind in (RefKind.PILE, RefKind.PILE_OF) and ref.name in hidden:
                out.add(ref.name)
            elif ref.kind is RefKind.FUNCTION and through is not None:
                out |= through(ref.name)
        stack.extend(x.children())
    return out


def _counted(e: n.Expr) -> bool:
    """`size` of it tells only how many cards: a pile, or `cards(pile)`."""
    ref = getattr(e, "ref", None)
    if isinstance(ref, Ref) and ref.kind in (RefKind.PILE, RefKind.PILE_OF):
        return True
    return isinstance(e, n.Call) and e.name == "cards" and len(e.args) == 1 and _counted(e.args[0])
