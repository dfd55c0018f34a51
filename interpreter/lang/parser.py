"""DSL text to syntax trees, with syntax errors positioned in the designer's file.

A rule is written inside a YAML string; `parse_block` and `parse_expr` map every position
inside that string back to the file through `SrcStr.at`.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import Indenter

from .diagnostics import Loc, Report

_GRAMMAR = Path(__file__).with_name("grammar.lark")


class _Indent(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(_GRAMMAR.read_text(encoding="utf-8"), parser="lalr", postlex=_Indent(),
                start=["start_block", "start_expr"], propagate_positions=True,
                maybe_placeholders=True)


def _locate(src, line: int, col: int) -> Loc:
    at = getattr(src, "at", None)
    if at is not None:
        return at(line, col)
    return Loc("<text>", line, col)


_NAMES = {
    "_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "end of block",
    "NAME": "a name", "NUMBER": "a number", "STRING": "a quoted string", "COLON": "`:`",
    "LPAR": "`(`", "RPAR": "`)`", "LSQB": "`[`", "RSQB": "`]`", "COMMA": "`,`", "EQUAL": "`=`",
    "DOT": "`.`", "$END": "end of text",
}


def _describe(tok) -> str:
    if isinstance(tok, Token):
        if tok.type in ("_NL", "$END"):
            return _NAMES[tok.type]
        if tok.type in ("_INDENT", "_DEDENT"):
            return "a change of indentation"
        return f"`{tok.value}`"
    return str(tok)


def _expected(names) -> str:
    shown = []
    for n in sorted(names):
        if n.startswith("__ANON"):
            continue
        shown.append(_NAMES.get(n, f"`{n.lower()}`" if n.isupper() and len(n) < 12 else n))
    shown = sorted(set(shown))
    if not shown:
        return ""
    if len(shown) > 6:
        shown = shown[:6] + ["..."]
    return "expected " + ", ".join(shown)


def _parse(src: str, start: str, report: Report) -> Tree | None:
    text = str(src)
    if start == "start_block" and not text.endswith("\n"):
        text += "\n"
    try:
        return _parser().parse(text, start=start)
    except UnexpectedInput as e:
        line, col = max(e.line, 1), max(e.column, 1)
        hint = None
        if isinstance(e, UnexpectedCharacters):
            ch = text[e.pos_in_stream] if e.pos_in_stream < len(text) else "?"
            msg = f"unexpected character `{ch}`"
            if ch == "'":
                hint = 'strings use double quotes: "like this"'
            elif ch == "=":
                hint = "compare with `==`; assign with `=` only at the start of a statement"
        elif isinstance(e, UnexpectedEOF):
            msg = "the rule ends too early"
            hint = _expected(e.expected) or None
        elif isinstance(e, UnexpectedToken):
            msg = f"unexpected {_describe(e.token)}"
            hint = _expected(e.expected) or None
            if e.token.type == "$END" or (e.token.type == "_NL" and e.token.line is None):
                line, col = _end_position(text)
            if e.token.type in ("_INDENT", "_DEDENT"):
                hint = "indent the lines of a block by the same amount"
            elif e.token.type == "_NL" and "COLON" in e.expected:
                hint = "a block header (`if`, `for`, `option`, ...) ends with `:`"
        else:  # pragma: no cover - lark has no other kinds
            msg = "syntax error"
        report.add("E101", f"syntax error in rule: {msg}", _locate(src, line, col), hint)
        return None
    except Exception as e:  # the indenter raises plain errors on bad dedents
        report.add("E101", f"syntax error in rule: {e}", _locate(src, 1, 1),
                   "indent the lines of a block consistently")
        return None


def _end_position(text: str) -> tuple[int, int]:
    lines = text.rstrip("\n").split("\n")
    return len(lines), len(lines[-1]) + 1


def parse_block(src: str, report: Report) -> Tree | None:
    return _parse(src, "start_block", report)


def parse_expr(src: str, report: Report) -> Tree | None:
    tree = _parse(src, "start_expr", report)
    return tree.children[0] if tree is not None else None
