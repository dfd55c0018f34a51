"""DSL text to syntax trees, with syntax errors positioned in the designer's file.

A rule is written inside a YAML string; `parse_block` and `parse_expr` map every position
inside that string back to the file through `SrcStr.at`.
"""
from __future__ import annotations

import copy
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter

from .diagnostics import Loc, Report, did_you_mean

_GRAMMAR = Path(__file__).with_name("grammar.lark")

# The compiler walks rule trees recursively: a rule nested deeper than this is refused here
# with a diagnostic instead of overflowing Python's stack later.
MAX_RULE_DEPTH = 100


class _Indent(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4

    def handle_NL(self, token):
        if "\n" not in token:  # a comment that ends the text: no line break, no indentation
            if self.paren_level == 0:
                yield token
            return
        try:
            yield from super().handle_NL(token)
        except DedentError:
            raise _BadDedent(token.end_line, token.end_column) from None


class _BadDedent(Exception):
    """A line dedents to an indentation that no enclosing block has; at its first character."""

    def __init__(self, line: int, col: int):
        super().__init__(line, col)
        self.line, self.col = line, col


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(_GRAMMAR.read_text(encoding="utf-8"), parser="lalr", postlex=_Indent(),
                start=["start_block", "start_expr"], propagate_positions=True,
                # Building the parser tables takes half a second: lark keeps them in a temporary
                # file named after the grammar's hash, so each run after the first starts fast.
                maybe_placeholders=True, cache=True)


def _locate(src, line: int, col: int) -> Loc:
    at = getattr(src, "at", None)
    if at is not None:
        return at(line, col)
    return Loc("<text>", line, col)


_NAMES = {
    "_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "end of block",
    "NAME": "a name", "NUMBER": "a number", "STRING": "a quoted string", "COLON": "`:`",
    "LPAR": "`(`", "RPAR": "`)`", "LSQB": "`[`", "RSQB": "`]`", "COMMA": "`,`", "EQUAL": "`=`",
    "DOT": "`.`", "$END": "end of text", "FACE": "`up` or `down`", "END": "`top` or `bottom`",
    "AUGOP": "`+=` or `-=`", "COMP_OP": "a comparison", "ADD_OP": "`+` or `-`",
    "MUL_OP": "`*`, `//` or `%`",
}


@lru_cache(maxsize=1)
def _keywords() -> dict[str, str]:
    """Terminals that are fixed text (`let`, `-`, and lark's anonymous ones like `face`)."""
    return {t.name: f"`{t.pattern.value}`" for t in _parser().terminals if t.pattern.type == "str"}


def _describe(tok) -> str:
    if isinstance(tok, Token):
        if tok.type in ("_NL", "$END"):
            return _NAMES[tok.type]
        if tok.type == "_INDENT":
            return "indentation"
        if tok.type == "_DEDENT":
            return "end of block"
        return f"`{tok.value}`"
    return str(tok)


def _expected(names) -> str:
    shown = []
    for n in sorted(names):
        if n in _NAMES or n in _keywords():
            shown.append(_NAMES.get(n) or _keywords()[n])
        elif not n.startswith("__"):
            shown.append(n)
    shown = sorted(set(shown))
    if not shown:
        return ""
    if len(shown) > 6:
        shown = shown[:6] + ["..."]
    return "expected " + ", ".join(shown)


# Trees of rules already parsed, by (start, text): `validate` compiles a ruleset once per player
# count and variant, and parsing is most of that work. Callers get copies (positions in a tree
# are relative to its text, so a copy serves any file the same text is in).
_TREES: dict[tuple[str, str], Tree] = {}
_MAX_TREES = 4096


def _parse(src: str, start: str, report: Report) -> Tree | None:
    text = str(src)
    if start == "start_block" and not text.endswith("\n"):
        text += "\n"
    cached = _TREES.get((start, text))
    if cached is not None:
        return copy.deepcopy(cached)
    try:
        tree = _parser().parse(text, start=start)
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
            if e.token.type == "NAME":  # a misspelt keyword: `els`, `whil`
                words = [_keywords()[n].strip("`") for n in e.expected if n in _keywords()]
                hint = did_you_mean(e.token.value, [w for w in words if w.isalpha()]) or hint
            if e.token.type == "$END" or (e.token.type == "_NL" and e.token.line is None):
                line, col = _end_position(text)
            if e.token.type in ("_INDENT", "_DEDENT"):
                # they borrow the position of the line break before them: point at the line's text
                line, col = e.token.end_line or line, e.token.end_column or col
                hint = "indent the lines of a block by the same amount"
            elif e.token.type == "_NL" and "COLON" in e.expected:
                hint = "a block header (`if`, `for`, `option`, ...) ends with `:`"
        else:  # pragma: no cover - lark has no other kinds
            msg = "syntax error"
        report.add("E101", f"syntax error in rule: {msg}", _locate(src, line, col), hint)
        return None
    except _BadDedent as e:
        report.add("E101", "syntax error in rule: this line's indentation matches no enclosing block",
                   _locate(src, e.line, e.col), "indent the lines of a block consistently")
        return None
    except Exception as e:  # a safety net: lark's indenter may raise plain errors
        report.add("E101", f"syntax error in rule: {e}", _locate(src, 1, 1),
                   "indent the lines of a block consistently")
        return None
    deep = _too_deep(tree)
    if deep is not None:
        report.add("E103", "rule is nested too deeply", _locate(src, *deep),
                   "split it into smaller parts with `let`, a function or a procedure")
        return None
    if len(_TREES) >= _MAX_TREES:
        _TREES.clear()
    _TREES[(start, text)] = copy.deepcopy(tree)
    return tree


def _too_deep(tree: Tree) -> tuple[int, int] | None:
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


def _end_position(text: str) -> tuple[int, int]:
    lines = text.rstrip("\n").split("\n")
    return len(lines), len(lines[-1]) + 1


def parse_block(src: str, report: Report) -> Tree | None:
    return _parse(src, "start_block", report)


def parse_expr(src: str, report: Report) -> Tree | None:
    tree = _parse(src, "start_expr", report)
    return tree.children[0] if tree is not None else None
