"""The parser starts from LALR tables written at development time (`interpreter/lang/tables.py`):
they must be those of grammar.lark as it is, and parse every rule exactly as a parser built from
the grammar in the process does."""
from __future__ import annotations

from pathlib import Path

import pytest
from lark.exceptions import UnexpectedInput

from interpreter.lang import grammar_tables, tables
from interpreter.base.diagnostics import Report
from interpreter.lang.parser import _parser
from interpreter.load.yamlsrc import parse_yaml

ROOT = Path(__file__).resolve().parents[1]


def test_the_tables_are_those_of_the_grammar():
    grammar = tables.GRAMMAR.read_text(encoding="utf-8")
    assert grammar_tables.GRAMMAR_SHA256 == tables.digest(grammar), \
        "grammar.lark changed: write the parser's tables again with `python -m interpreter.lang.tables`"


def test_the_parser_in_use_is_read_from_the_tables_not_built():
    assert _parser().source_path == "<deserialized>"
    assert tables.built().source_path != "<deserialized>"


def _texts():
    """Every text of every shipped ruleset's files (rules, labels, names: anything)."""
    out: set[str] = set()

    def walk(x):
        if isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
        elif isinstance(x, str):
            out.add(str(x))

    for path in sorted((ROOT / "rulesets").rglob("*.yaml")):
        walk(parse_yaml(path.read_text(encoding="utf-8"), str(path), Report()))
    return sorted(out)


def _parsed(parser, text: str, start: str):
    try:
        return parser.parse(text + "\n" if start == "start_block" else text, start=start)
    except UnexpectedInput as e:  # the same error, at the same place, expecting the same
        return type(e).__name__, e.line, e.column, sorted(getattr(e, "expected", None) or [])
    except Exception as e:  # noqa: BLE001 - the indenter's own errors
        return type(e).__name__, str(e)


@pytest.mark.parametrize("start", ["start_block", "start_expr"])
def test_the_tables_parse_every_shipped_text_as_the_grammar_does(start):
    texts = _texts()
    assert len(texts) > 1000
    read, built = _parser(), tables.built()
    differ = [t for t in texts if _parsed(read, t, start) != _parsed(built, t, start)]
    assert differ == []
