"""Rule text to syntax trees (`nodes.py`), with syntax errors placed in the designer's file.

A rule is written inside a YAML string; every position inside that string maps back to the
file through `SrcStr.at` (any other string gets a name of its own). Lark parses; a transformer
turns its tree into our node classes, unescapes strings and parses the `{...}` of templates,
so that nothing after this module ever reads rule text.
"""
from __future__ import annotations

import hashlib
import linecache
import re
from dataclasses import replace
from functools import lru_cache
from typing import Callable, Iterable

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from . import nodes as n
from . import tables, versions
from .nesting import LOOPS_HINT, OPTION_LOOPS_HINT, loops_too_deep, too_deep
from ..base.cache import Bounded
from ..base.diagnostics import Loc, Report, did_you_mean
from ..base.limits import MAX_ELIF, MAX_INT, MAX_LOOP_DEPTH, MAX_NUMBER_DIGITS, MAX_RULE_CHARS


# Passes walk trees recursively: a rule nested deeper than this is refused here with a
# diagnostic instead of overflowing Python's stack later.


@lru_cache(maxsize=1)
def _parser() -> Lark:
    # From the tables written at development time, a module of the package (`tables.py`)
    return tables.parser()


Locate = Callable[[int, int], Loc]


def locator(src: str) -> Locate:
    """Maps a 1-based (line, col) inside a rule's text to its place in the file. A rule that
    comes from no file (a game built in Python) gets a name of its own, and its text is
    registered where tracebacks and debuggers look for source lines."""
    at = getattr(src, "at", None)
    if at is not None:
        return at
    text = str(src)
    name = f"<rule {hashlib.sha1(text.encode('utf-8', 'surrogatepass')).hexdigest()[:12]}>"
    linecache.cache[name] = (len(text), None, text.splitlines(True), name)
    return lambda line, col: Loc(name, line, col)


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


@lru_cache(maxsize=1)
def keywords() -> frozenset[str]:
    """The words of the language: never names."""
    return frozenset(v.strip("`") for v in _keywords().values() if v.strip("`").isalpha())


def _describe(tok: object) -> str:
    if isinstance(tok, Token):
        if tok.type in ("_NL", "$END"):
            return _NAMES[tok.type]
        if tok.type == "_INDENT":
            return "indentation"
        if tok.type == "_DEDENT":
            return "end of block"
        return f"`{tok.value}`"
    return str(tok)


def _expected(names: Iterable[str]) -> str:
    shown = []
    for name in sorted(names):
        if name in _NAMES or name in _keywords():
            shown.append(_NAMES.get(name) or _keywords()[name])
        elif not name.startswith("__"):
            shown.append(name)
    shown = sorted(set(shown))
    if len(shown) > 1 and "`as`" in shown:  # naming a statement is seldom what was meant
        shown.remove("`as`")
    if not shown:
        return ""
    if len(shown) > 6:
        shown = shown[:6] + ["..."]
    return "expected " + ", ".join(shown)


# Lark trees already parsed, by (start, text): `validate` and the scenarios load the same
# files many times. Positions in a Lark tree are relative to its text, so one tree serves every
# place the same text is written; the transformer below gives each use its own nodes.
_TREES: Bounded[tuple[str, str], Tree] = Bounded(4096)


def _lark_tree(text: str, start: str, locate: Locate, report: Report) -> Tree | None:
    cached = _TREES.get((start, text))
    if cached is not None:
        return cached
    if len(text) > MAX_RULE_CHARS:  # refused before it is read: parsing takes time in its length
        report.add("E106", f"this rule is {len(text):,} characters long: a rule has at most "
                   f"{MAX_RULE_CHARS:,}", locate(1, 1),
                   "split it into functions and procedures (each its own rule)")
        return None
    try:
        tree = _parser().parse(text, start=start)
    except UnexpectedInput as e:
        _syntax_error(e, text, locate, report)
        return None
    except tables.BadDedent as e:
        report.add("E101", "syntax error in rule: this line's indentation matches no enclosing block",
                   locate(e.line, e.col), "indent the lines of a block consistently")
        return None
    except Exception as e:  # noqa: BLE001 - lark's indenter may raise plain errors
        report.add("E101", f"syntax error in rule: {e}", locate(1, 1),
                   "indent the lines of a block consistently")
        return None
    deep = too_deep(tree)
    if deep is not None:
        report.add("E103", "rule is nested too deeply", locate(*deep),
                   "split it into smaller parts with `let`, a function or a procedure")
        return None
    loops = loops_too_deep(tree)
    if loops is not None:
        where, what = loops
        if what == "elif":
            report.add("E103", f"an `if` with more than {MAX_ELIF} `elif` branches", locate(*where),
                       "look the value up in a list or a map, or split the branches into functions")
        else:
            report.add("E103", f"loops nested more than {MAX_LOOP_DEPTH} deep", locate(*where),
                       LOOPS_HINT if what == "loop" else OPTION_LOOPS_HINT)
        return None
    _TREES[(start, text)] = tree
    return tree


def _syntax_error(e: UnexpectedInput, text: str, locate: Locate, report: Report) -> None:
    line, col = max(e.line or 1, 1), max(e.column or 1, 1)
    hint = None
    if isinstance(e, UnexpectedCharacters):
        pos = e.pos_in_stream or 0
        ch = text[pos] if pos < len(text) else "?"
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
            words = [_keywords()[k].strip("`") for k in e.expected if k in _keywords()]
            hint = did_you_mean(e.token.value, [w for w in words if w.isalpha()]) or hint
        before = (e.token_history or [None])[-1]
        text_before = before.value if before is not None and before.type == "STRING" else ""
        if text_before.count("{") > text_before.count("}"):
            # `"{f(x, "a")}"`: the text inside the braces ended the string
            hint = 'a text inside `{...}` is written with \\": `"{f(x, \\"a\\")}"`'
        if e.token.type == "$END" or (e.token.type == "_NL" and e.token.line is None):
            line, col = _end_position(text)
        if e.token.type in ("_INDENT", "_DEDENT"):
            # they borrow the position of the line break before them: point at the line's text
            line, col = e.token.end_line or line, e.token.end_column or col
            hint = "indent the lines of a block by the same amount"
        elif e.token.type == "_NL" and "COLON" in e.expected:
            hint = "a block header (`if`, `for`, `option`, ...) ends with `:`"
        elif e.token.value == "elif" and " then " in _line_before(text, e.token):
            hint = ("a value's `if ... then ... else ...` has no `elif`: write "
                    "`if a then x else (if b then y else z)`")
        elif e.token.value == "as":
            hint = ('`as NAME` names an `option` right after its text (`option "keep {c}" as keep for c '
                    'in cards(hand(s)):`), a `choose` before its `:` and a statement at its end; a `for`, '
                    '`if` or `while` takes no name')
    else:  # pragma: no cover - lark has no other kinds
        msg = "syntax error"
    report.add("E101", f"syntax error in rule: {msg}", locate(line, col), hint)


def _line_before(text: str, token: Token) -> str:
    """The text of the token's line before it."""
    lines = text.split("\n")
    line = lines[token.line - 1] if token.line and token.line <= len(lines) else ""
    return line[:max((token.column or 1) - 1, 0)]


_STRING_RE = re.compile(r'"([^"\\\n]|\\.)*"')
_WORD_BEFORE = re.compile(r"(?<![A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*)[ \t(\[]*$")
_WORD_AT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def words_as_names(report: Report, start: int, words: dict[str, str]) -> None:
    """Say the syntax errors since item `start` of `report` that a word of the language the game
    declares as a name caused (`move = 2` for a state variable `move`: the parser reads `move` as
    the statement): the word, where it is declared, and that it must be renamed; not an
    unexpected `=`. `words`: each such word, with where and as what it is declared. The word is
    the one the parser stopped at, or the last before it on its line (but for spaces and an
    opening bracket: `draw()`)."""
    if not words:
        return
    from ..base.diagnostics import source_line

    for i in range(start, len(report.items)):
        d = report.items[i]
        if d.code != "E101" or d.loc is None or not d.loc.line:
            continue
        line = source_line(d.loc)
        if line is None:
            continue
        line = _STRING_RE.sub(lambda m: " " * len(m.group()), line)  # no word inside a text
        col = d.loc.col - 1
        before, at = _WORD_BEFORE.search(line[:col]), _WORD_AT.match(line, col)
        if before is not None and before[1] in words:
            word, col = before[1], before.start(1)
        elif at is not None and at.group() in words:
            word = at.group()
        else:
            continue
        report.items[i] = replace(
            d, message=f"syntax error in rule: `{word}` is a word of the language ({words[word]}): rename it",
            loc=Loc(d.loc.file, d.loc.line, col + 1),
            hint="a word of the language is never a name: rename it where it is declared and where the rules "
                 "use it")


def _end_position(text: str) -> tuple[int, int]:
    lines = text.rstrip("\n").split("\n")
    return len(lines), len(lines[-1]) + 1


# ---- strings ---------------------------------------------------------------------------------

_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"'}


class _Bad(Exception):
    """A problem inside a token, reported at an offset of its text."""

    def __init__(self, code: str, message: str, offset: int, hint: str | None = None):
        super().__init__(message)
        self.code, self.message, self.offset, self.hint = code, message, offset, hint


def unescape(raw: str, base: int = 0) -> str:
    """The text of a string's inside (between its quotes), escapes read left to right."""
    out = []
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch == "\\":
            e = raw[i + 1] if i + 1 < len(raw) else ""
            if e not in _ESCAPES:
                raise _Bad("E104", f"`\\{e}` is not an escape", base + i,
                           'escapes are \\" (a quote), \\\\ (a backslash), '
                           '\\n (a line break) and \\t (a tab)')
            out.append(_ESCAPES[e])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


# ---- Lark tree to nodes --------------------------------------------------------------------

class _Build:
    """Builds nodes from a Lark tree, placing each with `locate`."""

    def __init__(self, locate: Locate, report: Report):
        self.locate = locate
        self.report = report
        self.ok = True

    def at(self, item: Tree | Token) -> Loc:
        if isinstance(item, Token):
            return self.locate(item.line or 1, item.column or 1)
        meta = item.meta
        if getattr(meta, "empty", True):
            return self.locate(1, 1)
        return self.locate(meta.line, meta.column)

    def bad(self, code: str, message: str, loc: Loc, hint: str | None = None) -> None:
        self.report.add(code, message, loc, hint)
        self.ok = False

    # statements

    def block(self, tree: Tree) -> n.Block:
        return n.Block(self.at(tree), [self.stmt(c) for c in tree.children if isinstance(c, Tree)])

    def suite(self, tree: Tree) -> list[n.Stmt]:
        return [self.stmt(c) for c in tree.children if isinstance(c, Tree)]

    def stmt(self, t: Tree) -> n.Stmt:
        return getattr(self, "s_" + t.data)(t, self.at(t))

    def s_let_stmt(self, t: Tree, loc: Loc) -> n.Stmt:
        visible, name, value = t.children
        return n.Let(loc, str(name), self.expr(value), visible=visible is not None)

    def s_assign_stmt(self, t: Tree, loc: Loc) -> n.Stmt:
        target, value = t.children
        return n.Assign(loc, self.expr(target), self.expr(value))

    def s_aug_stmt(self, t: Tree, loc: Loc) -> n.Stmt:
        target, op, value = t.children
        return n.AugAssign(loc, self.expr(target), str(op), self.expr(value))

    def s_expr_stmt(self, t: Tree, loc: Loc) -> n.Stmt:
        return n.Do(loc, self.expr(t.children[0]))

    def s_move_stmt(self, t: Tree, loc: Loc) -> n.Stmt:
        what, dest, facing, where = t.children
        return n.Move(loc, self.expr(what), self.expr(dest),
                      facing is None or str(facing.children[0]) == "up",
                      where is not None and str(where.children[0]) == "bottom")

    def s_draw_stmt(self, t: Tree, loc: Loc) -> n.Stmt:
        count, source, dest, facing = t.children
        return n.Draw(loc, self.expr(count), self.expr(source), self.expr(dest),
                      facing is None or str(facing.children[0]) == "up")

    def s_shuffle_stmt(self, t: Tree, loc: Loc) -> n.Stmt:
        return n.Shuffle(loc, self.expr(t.children[0]))

    def s_emit_stmt(self, t: Tree, loc: Loc) -> n.Stmt:
        event, args = t.children
        values = [self.expr(a) for a in args.children if a is not None] if args is not None else []
        return n.Emit(loc, str(event), values)

    def s_return_stmt(self, t: Tree, loc: Loc) -> n.Stmt:
        value = t.children[0]
        return n.Return(loc, self.expr(value) if value is not None else None)

    def s_proceed_stmt(self, t: Tree, loc: Loc) -> n.Stmt:
        args = t.children[0]
        if args is None:
            return n.Proceed(loc)
        return n.Proceed(loc, [self.expr(a) for a in args.children if a is not None])

    def s_labelled(self, t: Tree, loc: Loc) -> n.Stmt:
        stmt_t, label = t.children
        stmt = self.stmt(stmt_t)
        stmt.name_tag = str(label.children[0])
        return stmt

    def s_end_stmt(self, t: Tree, loc: Loc) -> n.Stmt:
        return n.End(loc)

    def s_break_stmt(self, t: Tree, loc: Loc) -> n.Stmt:
        return n.Break(loc)

    def s_pass_stmt(self, t: Tree, loc: Loc) -> n.Stmt:
        return n.Pass(loc)

    def s_say_stmt(self, t: Tree, loc: Loc) -> n.Stmt:
        return n.Say(loc, self.text(t.children[0]))

    def s_if_stmt(self, t: Tree, loc: Loc) -> n.Stmt:
        cond, body, *rest = t.children
        branches = [n.Branch(loc, self.expr(cond), self.suite(body))]
        orelse, else_loc = None, None
        for r in rest:
            if r is None:
                continue
            if r.data == "elif_clause":
                branches.append(n.Branch(self.at(r), self.expr(r.children[0]), self.suite(r.children[1])))
            else:
                orelse, else_loc = self.suite(r.children[0]), self.at(r)
        return n.If(loc, branches, orelse, else_loc)

    def s_for_stmt(self, t: Tree, loc: Loc) -> n.Stmt:
        var, source, body = t.children
        return n.For(loc, str(var), self.expr(source), self.suite(body))

    def s_while_stmt(self, t: Tree, loc: Loc) -> n.Stmt:
        cond, body = t.children
        return n.While(loc, self.expr(cond), self.suite(body))

    def s_choose_stmt(self, t: Tree, loc: Loc) -> n.Stmt:
        prompt, by, label, *options = t.children
        choose = n.Choose(loc, self.text(prompt) if prompt is not None else None,
                          self.expr(by.children[0]) if by is not None else None,
                          [self.option(o) for o in options])
        choose.name_tag = str(label.children[0]) if label is not None else None
        return choose

    def option(self, t: Tree) -> n.Option:
        label, name, *fors, if_t, at_t, body = t.children
        var = source = None
        if fors:
            var, source = str(fors[0].children[0]), self.expr(fors[0].children[1])
        inner = [n.CompFor(self.at(f), str(f.children[0]), self.expr(f.children[1]), None) for f in fors[1:]]
        cond = self.expr(if_t.children[0]) if if_t is not None else None
        board = place = None
        if at_t is not None:   # `at BOARD, PLACE`
            board, place = self.expr(at_t.children[0]), self.expr(at_t.children[1])
        option = n.Option(self.at(t), self.text(label), var, source, cond, self.suite(body), inner=inner,
                          board=board, place=place)
        option.name_tag = str(name.children[0]) if name is not None else None
        return option

    def s_simul_stmt(self, t: Tree, loc: Loc) -> n.Stmt:
        var, seats, body = t.children
        return n.Simultaneously(loc, str(var), self.expr(seats), self.suite(body))

    # expressions

    def expr(self, t: Tree) -> n.Expr:
        if isinstance(t, Token):  # pragma: no cover - every expression is a tree
            raise TypeError(t)
        return getattr(self, "x_" + t.data)(t, self.at(t))

    def x_number(self, t: Tree, loc: Loc) -> n.Expr:
        digits = str(t.children[0])
        if len(digits) > MAX_NUMBER_DIGITS or int(digits) > MAX_INT:
            self.bad("E105", "this number is too large", loc, f"numbers in rules are at most {MAX_INT}")
            return n.Num(loc, 0)
        return n.Num(loc, int(digits))

    def x_string(self, t: Tree, loc: Loc) -> n.Expr:
        return self.text(t.children[0])

    def x_true(self, t: Tree, loc: Loc) -> n.Expr:
        return n.Bool(loc, True)

    def x_false(self, t: Tree, loc: Loc) -> n.Expr:
        return n.Bool(loc, False)

    def x_none(self, t: Tree, loc: Loc) -> n.Expr:
        return n.NoneLit(loc)

    def x_var(self, t: Tree, loc: Loc) -> n.Expr:
        return n.Name(loc, str(t.children[0]))

    def x_attr(self, t: Tree, loc: Loc) -> n.Expr:
        obj, name = t.children
        return n.Attr(loc, self.expr(obj), str(name))

    def x_index(self, t: Tree, loc: Loc) -> n.Expr:
        obj, index = t.children
        return n.Index(loc, self.expr(obj), self.expr(index))

    def x_call(self, t: Tree, loc: Loc) -> n.Expr:
        name, *args = t.children
        return n.Call(loc, str(name), [self.expr(a) for a in args if a is not None])

    def x_list(self, t: Tree, loc: Loc) -> n.Expr:
        return n.ListLit(loc, [self.expr(c) for c in t.children if c is not None])

    def x_map_lit(self, t: Tree, loc: Loc) -> n.Expr:
        items = [c for c in t.children if c is not None]
        keys = [self.expr(i.children[0]) for i in items]
        return n.MapLit(loc, keys, [self.expr(i.children[1]) for i in items])

    def x_comprehension(self, t: Tree, loc: Loc) -> n.Expr:
        item, first, *more = t.children
        var, source, cond = first.children
        inner = []
        for clause in more:
            v, s, c = clause.children
            clause_cond = self.expr(c) if c is not None else None
            inner.append(n.CompFor(self.at(clause), str(v), self.expr(s), clause_cond))
        return n.Comp(loc, self.expr(item), str(var), self.expr(source),
                      self.expr(cond) if cond is not None else None, var_loc=self.at(var), inner=inner)

    def x_if_expr(self, t: Tree, loc: Loc) -> n.Expr:
        cond, then, orelse = t.children
        return n.IfExpr(loc, self.expr(cond), self.expr(then), self.expr(orelse))

    def x_or_(self, t: Tree, loc: Loc) -> n.Expr:
        return n.Or(loc, self.expr(t.children[0]), self.expr(t.children[1]))

    def x_and_(self, t: Tree, loc: Loc) -> n.Expr:
        return n.And(loc, self.expr(t.children[0]), self.expr(t.children[1]))

    def x_not_(self, t: Tree, loc: Loc) -> n.Expr:
        return n.Not(loc, self.expr(t.children[0]))

    def x_compare(self, t: Tree, loc: Loc) -> n.Expr:
        left, op, right = t.children
        return n.Compare(loc, str(op), self.expr(left), self.expr(right))

    def x_contains(self, t: Tree, loc: Loc) -> n.Expr:
        return n.In(loc, self.expr(t.children[0]), self.expr(t.children[1]))

    def x_range(self, t: Tree, loc: Loc) -> n.Expr:
        return n.Range(loc, self.expr(t.children[0]), self.expr(t.children[1]))

    def x_binop(self, t: Tree, loc: Loc) -> n.Expr:
        left, op, right = t.children
        return n.BinOp(loc, str(op), self.expr(left), self.expr(right))

    def x_neg(self, t: Tree, loc: Loc) -> n.Expr:
        return n.Neg(loc, self.expr(t.children[0]))

    # strings and templates

    def text(self, tok: Tree | Token) -> n.Text:
        """A string token; `{expr}` inside it is parsed here, placed in the file."""
        assert isinstance(tok, Token)  # a string's token
        loc = self.at(tok)
        raw = str(tok)[1:-1]
        line = tok.line or 1
        col = (tok.column or 1) + 1  # the first character inside the quotes
        parts: list = []
        i = 0
        try:
            while i < len(raw):
                j = raw.find("{", i)
                if j < 0:
                    parts.append(unescape(raw[i:], i))
                    break
                end = _closing(raw, j)
                if end < 0:
                    self.bad("E102", "`{` without a closing `}` in a string", loc)
                    return n.Text(loc, [unescape(raw, 0)] if self.ok else [""])
                if j > i:
                    parts.append(unescape(raw[i:j], i))
                inner = unescape(raw[j + 1:end], j + 1)
                start = self.locate(line, col + j + 1)
                expr = _parse_inner(inner, start, self.report, _offsets(raw[j + 1:end]))
                if expr is None:
                    self.ok = False
                    expr = n.NoneLit(start)
                parts.append(expr)
                i = end + 1
        except _Bad as e:
            self.bad(e.code, e.message, self.locate(line, col + e.offset), e.hint)
            return n.Text(loc, [""])
        return n.Text(loc, [p for p in parts if p != ""] or [""])


def _closing(raw: str, at: int) -> int:
    """The index of the `}` that closes the `{` at `at` of a string's raw inside, or -1. A text in
    the expression (written `\\"...\\"`) may hold braces of its own, a template of its own
    (`"{power(\\"{c}\\")}"`), and the expression a map (`{a: 1}`): those are passed over."""
    depth, inside, i = 0, False, at
    while i < len(raw):
        ch = raw[i]
        if ch == "\\":
            if raw[i + 1:i + 2] == '"':
                inside = not inside
            i += 2
            continue
        if not inside:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    return i
        i += 1
    return -1


def _offsets(raw: str) -> list[int]:
    """Where each character of `raw` unescaped is in `raw` (`\\"` is one character, two written),
    and where `raw` ends."""
    out, i = [], 0
    while i < len(raw):
        out.append(i)
        i += 2 if raw[i] == "\\" else 1
    return [*out, len(raw)]


def _parse_inner(text: str, start: Loc, report: Report, offsets: list[int]) -> n.Expr | None:
    """The expression inside `{...}` of a template, placed from its first character; `offsets`:
    where each of its characters is written (an escaped quote takes two columns)."""
    def locate(line: int, col: int) -> Loc:
        if line == 1:
            k = col - 1
            at = offsets[k] if k < len(offsets) else offsets[-1] + k - (len(offsets) - 1)
            return Loc(start.file, start.line, start.col + at)
        return Loc(start.file, start.line + line - 1, col)
    tree = _lark_tree(text, "start_expr", locate, report)
    if tree is None:
        return None
    b = _Build(locate, report)
    expr = b.expr(tree.children[0])
    return expr if b.ok else None


# Language 1 wrote two effects as statements, `swap A with B` and `place A on B`; they are calls
# since language 2 (`swap(A, B)`, `place(A, B)`, a board kind's built-ins). An old one is read as
# the call, written in the same columns (its first space becomes `(`, ` with ` a comma and spaces,
# a `)` closes it), so that every position in it stays where it is in the file.
_OLD_STATEMENT = re.compile(
    r"^(?P<indent>[ \t]*)(?P<word>swap|place)(?P<gap>[ \t]+)(?!\()(?P<a>[^#\n]*?)"
    r"(?P<sep>[ \t]+(?:with|on)[ \t]+)(?P<b>[^#\n]*?)(?P<tail>[ \t]*(?:#[^\n]*)?)$", re.M)
_OLD_SEPARATOR = {"swap": "with", "place": "on"}
OLD_STATEMENTS_SINCE = 2


def _old_statements(text: str, locate: Locate, file: str | None, report: Report) -> str:
    """The text with each old `swap A with B` and `place A on B` written as a call, each said."""
    def rewrite(m: re.Match) -> str:
        if m["sep"].strip() != _OLD_SEPARATOR[m["word"]] or not m["a"] or not m["b"]:
            return m.group(0)
        old = text[m.start("word"):m.end("b")]
        new = f"{m['word']}({m['a']}, {m['b']})"
        line = text.count("\n", 0, m.start("word")) + 1
        at = locate(line, len(m["indent"]) + 1)
        report.old_form(versions.of(file), OLD_STATEMENTS_SINCE, f"`{old}`", at, new, ((at, old, new),))
        return (m["indent"] + m["word"] + "(" + m["gap"][1:] + m["a"] + "," + " " * (len(m["sep"]) - 1)
                + m["b"] + ")" + m["tail"])
    return _OLD_STATEMENT.sub(rewrite, text) if ("swap" in text or "place" in text) else text


def parse_block(src: str, report: Report) -> n.Block | None:
    """A block of statements, or None (with the problems in `report`)."""
    text = str(src)
    if not text.endswith("\n"):
        text += "\n"
    locate = locator(src)
    text = _old_statements(text, locate, getattr(getattr(src, "loc", None), "file", None), report)
    tree = _lark_tree(text, "start_block", locate, report)
    if tree is None:
        return None
    b = _Build(locate, report)
    block = b.block(tree)
    return block if b.ok else None


def parse_option(src: str, report: Report) -> n.Option | None:
    """One option of a choice (`option "LABEL" ...:` and its block), as a module adds one."""
    text = str(src)
    if not text.endswith("\n"):
        text += "\n"
    locate = locator(src)
    text = _old_statements(text, locate, getattr(getattr(src, "loc", None), "file", None), report)
    tree = _lark_tree(text, "start_option", locate, report)
    if tree is None:
        return None
    b = _Build(locate, report)
    option = b.option(tree.children[0])
    return option if b.ok else None


def parse_expr(src: str, report: Report) -> n.Expr | None:
    """One expression, or None (with the problems in `report`)."""
    locate = locator(src)
    tree = _lark_tree(str(src), "start_expr", locate, report)
    if tree is None:
        return None
    b = _Build(locate, report)
    expr = b.expr(tree.children[0])
    return expr if b.ok else None
