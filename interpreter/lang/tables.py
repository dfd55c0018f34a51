"""The parser of the rule language: Lark's LALR tables for `grammar.lark`, made at development time.

Building the tables from the grammar takes a good part of a second, at every start of every
command. So they are made once, written as plain data into `grammar_tables.py` (a module of the
package, committed beside the grammar: one text of JSON, read with `json.loads`; no pickle,
nothing read from outside the package), and a command starts by reading them (a few ms).
After a change to `grammar.lark`, write them again:

    python -m interpreter.lang.tables

Until then the tables no longer match the grammar (the module keeps the grammar's digest), and
the parser is built from the grammar in the process, as before: slower to start, never wrong.
`tests/test_parser_tables.py` fails until they are written again.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Iterator

from lark import Lark, Token
from lark.indenter import DedentError, Indenter

GRAMMAR = Path(__file__).with_name("grammar.lark")
TABLES = Path(__file__).with_name("grammar_tables.py")
# how the parser is made, whether from the grammar or from the tables
OPTIONS = dict(parser="lalr", start=["start_block", "start_expr", "start_option"],
               propagate_positions=True, maybe_placeholders=True)


class Indent(Indenter):
    """Lines and indentation as tokens: blocks are indented, as in Python."""

    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4

    def handle_NL(self, token: Token) -> Iterator[Token]:
        if "\n" not in token:  # a comment that ends the text: no line break, no indentation
            if self.paren_level == 0:
                yield token
            return
        try:
            yield from super().handle_NL(token)
        except DedentError:
            raise BadDedent(token.end_line or 1, token.end_column or 1) from None


class BadDedent(Exception):
    """A line dedents to an indentation that no enclosing block has; at its first character."""

    def __init__(self, line: int, col: int):
        super().__init__(line, col)
        self.line, self.col = line, col


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def built() -> Lark:
    """The parser made from the grammar, in this process."""
    return Lark(GRAMMAR.read_text(encoding="utf-8"), postlex=Indent(), **OPTIONS)


def parser() -> Lark:
    """The parser, from the tables when they were made from the grammar as it is now."""
    try:
        from . import grammar_tables as t
    except ImportError:  # not written yet
        return built()
    if t.GRAMMAR_SHA256 != digest(GRAMMAR.read_text(encoding="utf-8")):
        return built()
    try:
        data, memo = json.loads(t.TABLES, object_hook=_decoded)
        return Lark._load_from_dict(data, memo, postlex=Indent())
    except Exception:  # noqa: BLE001 - tables another version of Lark cannot read: build them here
        return built()


# Lark's serialized tables hold what JSON has not: mappings with whole numbers as keys, and tuples.
def _encoded(x: Any) -> Any:
    if isinstance(x, dict):
        if all(isinstance(k, str) for k in x):
            return {k: _encoded(v) for k, v in x.items()}
        return {"__int_keys__": [[int(k), _encoded(v)] for k, v in x.items()]}
    if isinstance(x, tuple):
        return {"__tuple__": [_encoded(v) for v in x]}
    if isinstance(x, list):
        return [_encoded(v) for v in x]
    if x is None or isinstance(x, (str, int, float, bool)):
        return x
    raise TypeError(f"not plain data: {type(x).__name__}")


def _decoded(d: dict) -> Any:
    if len(d) == 1 and "__int_keys__" in d:
        return {k: v for k, v in d["__int_keys__"]}
    if len(d) == 1 and "__tuple__" in d:
        return tuple(d["__tuple__"])
    return d


def source() -> str:
    """The text of `grammar_tables.py` for the grammar as it is now."""
    from lark import __version__
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    data, memo = built().memo_serialize([TerminalDef, Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k != "postlex"}  # given when read
    text = json.dumps([_encoded(data), _encoded(memo)], separators=(",", ":"), sort_keys=True)
    chunks = "\n".join(f"    {text[i:i + 96]!r}" for i in range(0, len(text), 96))
    return (f'"""Lark {__version__}\'s LALR tables for grammar.lark (`tables.py`), written by\n'
            '`python -m interpreter.lang.tables`: do not edit."""\n'
            f"GRAMMAR_SHA256 = {digest(GRAMMAR.read_text(encoding='utf-8'))!r}\n"
            f"TABLES = (\n{chunks}\n)\n")


def main() -> None:
    TABLES.write_text(source(), encoding="utf-8")
    print(f"wrote {TABLES}")


if __name__ == "__main__":
    main()
