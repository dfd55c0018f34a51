"""How deep a parsed rule nests: deeper than the engine follows (`MAX_RULE_DEPTH` nodes), or loops
and `elif`s deeper than the Python a rule compiles to allows (E103, said by the parser; a rule as
its modules and variants extend it is counted alike by `load/nesting.py`)."""
from __future__ import annotations

from lark import Tree

from ..base.limits import MAX_ELIF, MAX_LOOP_DEPTH

MAX_RULE_DEPTH = 100


def too_deep(tree: Tree) -> tuple[int, int] | None:
    """The position of the first node nested deeper than MAX_RULE_DEPTH, or None (no recursion)."""
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_RULE_DEPTH:
            meta = node.meta
            if getattr(meta, "empty", True):
                return 1, 1
            return meta.line, meta.column
        stack.extend((c, depth + 1) for c in node.children if isinstance(c, Tree))
    return None


_LOOPS = {"for_stmt", "while_stmt", "simul_stmt"}


LOOPS_HINT = "move the inner loops into a procedure"
OPTION_LOOPS_HINT = ("each `for` of an option is a loop inside the ones before it, and inside the loops "
                     "around the `choose`: give the option one list to range over, or move the loops around "
                     "the `choose` into a procedure")


def loops_too_deep(tree: Tree) -> tuple[tuple[int, int], str] | None:
    """(the position, what: "loop", "option" or "elif") of the first loop inside MAX_LOOP_DEPTH
    others, or of the `elif` past MAX_ELIF of an `if`; None. Each loop is a block of the Python it
    compiles to, which allows 20 inside each other (a rule's own `try`, the game's rounds and
    turns, a `move`'s loop take the others); each `elif` is an `if` inside the one before. The
    `for`s of an option are loops inside each other (the options are listed so), inside the loops
    around the `choose` but around nothing of the option's block. `load/nesting.py` counts alike
    in a rule as its modules and variants extend it."""
    def at(node: Tree) -> tuple[int, int]:
        meta = node.meta
        return (1, 1) if getattr(meta, "empty", True) else (meta.line, meta.column)

    stack = [(tree, 0)]
    while stack:
        node, loops = stack.pop()
        if node.data in _LOOPS:
            loops += 1
            if loops > MAX_LOOP_DEPTH:
                return at(node), "loop"
        elif node.data == "option":
            clauses = [c for c in node.children if isinstance(c, Tree) and c.data == "option_for"]
            if loops + len(clauses) > MAX_LOOP_DEPTH:
                return at(clauses[MAX_LOOP_DEPTH - loops]), "option"
        elif node.data == "if_stmt":
            elifs = [c for c in node.children if isinstance(c, Tree) and c.data == "elif_clause"]
            if len(elifs) > MAX_ELIF:
                return at(elifs[MAX_ELIF]), "elif"
        stack.extend((c, loops) for c in node.children if isinstance(c, Tree))
    return None
