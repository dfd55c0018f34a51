"""One dispatch for every pass that walks the rule language's trees by kind of node.

A pass (the checker's statements and expressions, the secret analysis, the lowering of
statements and expressions, the text `explain` prints) is a `Visitor`: a node of kind `K` goes
to the pass's method `s_K` for a statement, `x_K` for an expression, found once per pass and
kind (`case`). A pass says which families of kinds it walks (`walks`), the kinds of its own it
adds (`extra`: the compiler's flow statements), the kinds it leaves to its `generic_case` on
purpose (`generic`) and those an earlier pass removes, which it never meets (`absent`). Any
other kind without a method is a loud error that names the pass and the kind, and
`tests/test_node_kinds.py` fails before that can happen: every pass has a case for every kind
of the families it walks (`missing`). A new form of the language is a new kind in `nodes.py`;
that test lists each pass that does not handle it yet.
"""
from __future__ import annotations

from typing import Any, Callable, ClassVar

from . import nodes as n


class NoCase(Exception):
    """A pass met a kind of node it has no case for: a mistake in the engine, not in a ruleset."""


def prefix(kind: type) -> str:
    """The prefix of the methods for this kind: `s_` for statements, `x_` for expressions."""
    return "s_" if issubclass(kind, n.Stmt) else "x_"


class Visitor:
    """A pass over trees: a case per node kind (`case`), a loud `NoCase` for a kind it lacks, and
    the kinds it leaves to `generic`; tests/test_node_kinds.py checks every pass covers every kind."""
    walks: ClassVar[tuple[type, ...]] = ()          # n.Stmt, n.Expr: the families of kinds it walks
    extra: ClassVar[tuple[type, ...]] = ()          # kinds of its own (outside nodes.py) it walks too
    generic: ClassVar[frozenset[str]] = frozenset()  # kinds it leaves to `generic` on purpose
    absent: ClassVar[frozenset[str]] = frozenset()   # kinds an earlier pass removes (never met here)
    _cases: ClassVar[dict[type, Callable[..., Any]]] = {}

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        cls._cases = {}

    @classmethod
    def case(cls, kind: type) -> Callable[..., Any]:
        """The method (unbound) for nodes of `kind`: call it with the pass, the node and the
        pass's own arguments."""
        fn = cls._cases.get(kind)
        if fn is None:
            fn = getattr(cls, prefix(kind) + kind.__name__, None)
            if fn is None and kind.__name__ in cls.generic:
                fn = cls.generic_case
            if fn is None and kind.__name__ in cls.absent:
                raise NoCase(f"{cls.__name__} met `{kind.__name__}` nodes, which a pass before it removes")
            if fn is None:
                raise NoCase(f"{cls.__name__} has no case for `{kind.__name__}` nodes")
            cls._cases[kind] = fn
        return fn

    def generic_case(self, node: n.Node, *args: Any) -> Any:
        """What the pass does with the kinds it names in `generic`."""
        raise NoCase(f"{type(self).__name__} names `{type(node).__name__}` as generic "
                     "but has no generic case")

    @classmethod
    def missing(cls) -> list[str]:
        """The kinds of the families it walks that it has no case for (`tests/test_node_kinds.py`)."""
        out = []
        for kind in [*kinds(*cls.walks), *cls.extra]:
            if getattr(cls, prefix(kind) + kind.__name__, None) is None \
                    and kind.__name__ not in cls.generic | cls.absent:
                out.append(kind.__name__)
        return out


def kinds(*families: type) -> list[type]:
    """Every kind of node of these families that `nodes.py` defines (their subclasses there)."""
    out = []
    for value in vars(n).values():
        if isinstance(value, type) and value.__module__ == n.__name__ and value not in families \
                and any(issubclass(value, f) for f in families):
            out.append(value)
    return out
