"""Loops inside each other in a rule as its modules and variants made it.

Each rule text is checked alone when it is read (`lang/parser.py`: loops more than MAX_LOOP_DEPTH
inside each other, E103). An extension puts a rule inside its own loops (`around:` with `proceed`
in a `for`), or a loop inside a rule's (`replace: statements.NAME`, an option added to a named
choice): thirty `around:`s, each one loop, are thirty loops inside each other, though each text
has one. The Python a rule compiles to allows 20 blocks inside each other (the engine's own take
the 4 others), so the rules as extended are counted again, the same way, after the last patch.
"""
from __future__ import annotations

from ..lang import nodes as n
from ..base.diagnostics import Loc, Report
from ..base.limits import MAX_LOOP_DEPTH
from ..lang.nesting import LOOPS_HINT, OPTION_LOOPS_HINT
from .rules import Rules, blocks


def check_extended_loops(rules: Rules, report: Report) -> None:
    """E103 at the first loop of each rule that is inside MAX_LOOP_DEPTH others, counted as the
    parser counts them: `for`, `while`, `simultaneously`, and each `for` of an option (inside the
    loops around its `choose`, around nothing of its block). Without recursion: a rule may be
    deep."""
    for rule, body in blocks(rules):
        found = _too_deep(body)
        if found is not None:
            loc, option = found
            report.add("E103", f"loops nested more than {MAX_LOOP_DEPTH} deep in `{rule}` as its modules "
                       "and variants extend it (an `around:` with `proceed` inside a loop puts the rule "
                       "inside that loop)", loc,
                       (OPTION_LOOPS_HINT if option else LOOPS_HINT)
                       + ", or extend the rule with fewer loops around it")


def _too_deep(body: list[n.Stmt]) -> tuple[Loc | None, bool] | None:
    """(where, whether it is an option's `for`) of the first loop inside MAX_LOOP_DEPTH others."""
    stack = [(s, 0) for s in reversed(body)]
    while stack:
        stmt, loops = stack.pop()
        if isinstance(stmt, (n.For, n.While, n.Simultaneously)):
            loops += 1
            if loops > MAX_LOOP_DEPTH:
                return stmt.loc, False
        elif isinstance(stmt, n.Choose):
            for opt in stmt.options:
                clauses: list[Loc | None] = [opt.loc] if opt.var is not None else []
                clauses += [c.loc or opt.loc for c in opt.inner]
                if loops + len(clauses) > MAX_LOOP_DEPTH:
                    return clauses[MAX_LOOP_DEPTH - loops], True
        for inner in reversed(n.block_children(stmt)):
            stack.extend((s, loops) for s in reversed(inner))
    return None
