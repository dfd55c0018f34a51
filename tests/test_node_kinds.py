"""Every pass over the rule language's trees handles every kind of node it may meet
(`lang/visit.py`): a new form of the language fails here, naming each pass still without a case
for it, rather than as an `AttributeError` while a game runs."""
from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from interpreter.lang import nodes as n
from interpreter.lang.visit import NoCase, Visitor, kinds

ROOT = Path(__file__).resolve().parents[1] / "interpreter"


def passes() -> list[type[Visitor]]:
    """Every visitor of the engine (each module imported, then the subclasses of `Visitor`)."""
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        importlib.import_module(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    out, todo = [], list(Visitor.__subclasses__())
    while todo:
        cls = todo.pop()
        out.append(cls)
        todo += cls.__subclasses__()
    return sorted(set(out), key=lambda c: f"{c.__module__}.{c.__qualname__}")


PASSES = passes()


def test_the_passes_are_the_ones_the_architecture_names():
    names = {_name(c) for c in PASSES}
    assert {"check.statements.Statements", "check.expressions.Expressions", "check.secret._Walk",
            "compile.lower.Lowerer", "compile.statements.Statements",
            "lang.unparse._Text"} <= names, names


def _name(cls: type) -> str:
    return f"{cls.__module__.removeprefix('interpreter.')}.{cls.__name__}"


@pytest.mark.parametrize("cls", PASSES, ids=_name)
def test_every_pass_has_a_case_for_every_kind_it_walks(cls):
    assert cls.walks, f"{cls.__name__} says no family of nodes it walks"
    assert cls.missing() == [], f"{cls.__name__} has no case for: {', '.join(cls.missing())}"
    for name in cls.generic | cls.absent:  # what it names must exist, and not have a case too
        kind = getattr(n, name, None)
        assert isinstance(kind, type), f"{cls.__name__} names `{name}`, which is no kind of node"
        assert not hasattr(cls, ("s_" if issubclass(kind, n.Stmt) else "x_") + name), name


def test_a_new_kind_of_node_is_missing_in_every_pass_until_each_has_a_case(monkeypatch):
    class Teleport(n.Stmt):
        pass
    Teleport.__module__ = n.__name__
    monkeypatch.setattr(n, "Teleport", Teleport, raising=False)
    walking = [c for c in PASSES if n.Stmt in c.walks]
    assert walking and all("Teleport" in c.missing() for c in walking)
    with pytest.raises(NoCase, match="has no case for `Teleport`"):
        walking[0].case(Teleport)


def test_every_kind_is_a_statement_or_an_expression_or_a_part_of_one():
    parts = {n.Node, n.Expr, n.Stmt, n.Block, n.Branch, n.Option, n.CompFor}
    others = [k.__name__ for k in kinds(n.Node) if k not in parts and not issubclass(k, (n.Stmt, n.Expr))]
    assert others == [], f"kinds no pass dispatches on: {others} (add them to a family)"


def test_no_pass_dispatches_by_kind_outside_the_visitor():
    found = []
    for path in ROOT.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"getattr\(self, \"[sx]_\" \+ type\(", text):
            found.append(f"{path.relative_to(ROOT)}:{text[:m.start()].count(chr(10)) + 1}")
    assert not found, "dispatch by kind outside lang/visit.py: " + ", ".join(found)
