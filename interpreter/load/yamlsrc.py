"""Safe YAML reading that keeps where every value came from.

Strings come back as `SrcStr` (a `str` that knows its file position and how to map a
position inside itself, such as a DSL error, back to the file). Mappings and lists come back
as `SrcMap` / `SrcList` that remember where they start and where each key is.

Only plain data is accepted: YAML tags that would build Python objects are refused, and so
are alias bombs, absurd nesting and huge files; and only regular files are read (not a named
pipe or a device), never more than MAX_BYTES of them.
"""
from __future__ import annotations

import re
from pathlib import Path

from typing import Any, NoReturn

import yaml

from ..base.diagnostics import SOURCES, Loc, Report, RulesetError
from ..base.files import FileRefused, read_limited
from ..base.limits import MAX_INT

MAX_BYTES = 2_000_000
MAX_DEPTH = 48
MAX_NODES = 200_000
MAX_ALIASES = 100
_MAX_INT_CHARS = 70  # enough for MAX_INT in any base YAML writes (0b and 60-odd binary digits)

_PLAIN_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null", "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_CONSTRUCTOR = yaml.constructor.SafeConstructor()


class SrcStr(str):
    """A string from a file; `at(line, col)` maps a 1-based position inside it to the file."""

    loc: Loc
    _block_indent: int | None = None  # literal block scalar: content indent; else None
    # other scalars: (their lines of the file, start line, start col, end line, end col, style),
    # 0-based; quotes, escapes and folded lines make the value differ from the text: `at` maps it
    _span: tuple | None = None
    _placed: list | None | bool = False  # the file position of each character (`_places`), once known

    def at(self, line: int, col: int) -> Loc:
        base = self.loc
        if self._block_indent is not None:
            return Loc(base.file, base.line + line - 1, self._block_indent + col)
        if self._span is not None:
            placed = self._placed
            if placed is False:  # worked out once: a string's positions are asked for often
                placed = self._placed = _places(str(self), self._span)
            found = _map_span(str(self), placed if isinstance(placed, list) else None, line, col)
            if found is not None:
                return Loc(base.file, *found)
        if line == 1:
            return Loc(base.file, base.line, base.col + col - 1)
        return Loc(base.file, base.line + line - 1, col)


def src_str(value: str, loc: Loc, block_indent: int | None = None) -> SrcStr:
    s = SrcStr(value)
    s.loc = loc
    s._block_indent = block_indent
    return s


_ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v",
            "f": "\f", "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\",
            "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029"}
_HEX = {"x": 2, "u": 4, "U": 8}


def _map_span(value: str, places: list | None, line: int, col: int) -> tuple[int, int] | None:
    """The 1-based file position of the value's (line, col), given where each of its characters is
    (`_places`), or None if it cannot be placed."""
    if places is None:
        return None
    rows = value.split("\n")
    if not 0 < line <= len(rows):
        return None
    offset = sum(len(r) + 1 for r in rows[: line - 1]) + col - 1
    if 0 <= offset < len(places):
        return places[offset][0] + 1, places[offset][1] + 1
    if offset == len(places) and places:  # just past the end: after the last character
        return places[-1][0] + 1, places[-1][1] + 2
    return None


def _places(value: str, span: tuple) -> list | None:
    """The 0-based (line, col) in the file of each character of a scalar's value."""
    rows, l0, c0, l1, c1, style = span
    lines = dict(enumerate(rows, l0))  # file line number -> text
    out: list = []  # (char, line, col)
    if style == ">":
        _folded(lines, l0, l1, out)
    else:
        _flow(lines, l0, c0, l1, c1, style, out)
    text = "".join(ch for ch, _, _ in out)
    if not (value.startswith(text) and not value[len(text):].strip("\n")):
        return None  # a form this mapper does not follow: the caller falls back
    places = [(ln, c) for _, ln, c in out]
    while len(places) < len(value):  # a folded block's final line breaks
        places.append((places[-1][0], places[-1][1] + 1) if places else (l0, c0))
    return places


def _flow(lines: dict[int, str], l0: int, c0: int, l1: int, c1: int, style: str | None,
          out: list[tuple[str, int, int]]) -> None:
    """Plain and quoted scalars: escapes, and line breaks folded to a space (or kept if blank)."""
    q = 1 if style in ("'", '"') else 0
    blanks, joined = 0, False
    for ln in range(l0, l1 + 1):
        text = lines.get(ln, "")
        a = c0 + q if ln == l0 else 0
        b = c1 - q if ln == l1 else len(text)
        seg = text[a:b]
        if ln > l0:
            stripped = seg.lstrip(" \t")
            a, seg = a + len(seg) - len(stripped), stripped
        if ln < l1:
            seg = seg.rstrip(" \t")
        if ln > l0:
            if not seg and ln < l1:
                blanks += 1
                continue
            if not joined:
                fold = "\n" * blanks or " "
                out.extend((ch, ln, a) for ch in fold)
            blanks, joined = 0, False
        i = 0
        while i < len(seg):
            ch = seg[i]
            if style == "'" and seg.startswith("''", i):
                out.append(("'", ln, a + i))
                i += 2
            elif style == '"' and ch == "\\":
                if i + 1 == len(seg):  # an escaped line break joins the lines
                    joined = True
                    break
                e = seg[i + 1]
                if e in _HEX:
                    n = _HEX[e]
                    try:
                        out.append((chr(int(seg[i + 2:i + 2 + n], 16)), ln, a + i))
                    except ValueError:
                        return
                    i += 2 + n
                elif e in _ESCAPES:
                    out.append((_ESCAPES[e], ln, a + i))
                    i += 2
                else:
                    return
            else:
                out.append((ch, ln, a + i))
                i += 1


def _folded(lines: dict[int, str], l0: int, l1: int, out: list[tuple[str, int, int]]) -> None:
    """A `>` block: lines at the block's indent join with a space; more-indented ones keep breaks."""
    rows = [ln for ln in range(l0 + 1, l1 + 1) if ln in lines]
    indent = next((len(lines[ln]) - len(lines[ln].lstrip(" ")) for ln in rows if lines[ln].strip()), 0)
    prev, blanks = None, 0
    for ln in rows:
        text = lines[ln]
        if not text.strip():
            blanks += 1
            continue
        if len(text) - len(text.lstrip(" ")) < indent:
            break
        more = text[indent:indent + 1] in (" ", "\t")
        if prev is None:
            fold = "\n" * blanks
        else:
            fold = ("\n" * blanks or " ") if prev == "normal" and not more else "\n" * (blanks + 1)
        out.extend((ch, ln, indent) for ch in fold)
        out.extend((ch, ln, indent + i) for i, ch in enumerate(text[indent:]))
        prev, blanks = ("more" if more else "normal"), 0


def loc_of(value: Any, default: Loc | None = None) -> Loc | None:
    return getattr(value, "loc", default)


class SrcMap(dict):
    loc: Loc
    key_locs: dict


class SrcList(list):
    loc: Loc


def read_bytes(path: Path, report: Report, name: str | None = None) -> bytes | None:
    """A designer's file's bytes (see `read_limited`); None with E001 or E002 when refused.
    `name` is how diagnostics call the file (default: `path`)."""
    name = str(path) if name is None else name
    try:
        return read_limited(path, MAX_BYTES)
    except FileRefused as e:
        if e.kind == "size":
            report.add("E002", e.message, Loc(name))
        elif e.kind == "kind":
            report.add("E001", e.message, Loc(name),
                       "rulesets, cards, tracks, variants and scenarios are UTF-8 YAML files")
        else:
            report.add("E001", e.message, Loc(name))
        return None


def read_text(path: Path, report: Report) -> str | None:
    """Read a designer's file as UTF-8 text, refusing binary, empty and oversized files, and
    anything that is not a regular file."""
    raw = read_bytes(path, report)
    return None if raw is None else decode_text(raw, str(path), report)


def decode_text(raw: bytes, name: str, report: Report) -> str | None:
    """A file's bytes as UTF-8 text (and kept in SOURCES for snippets); None with a diagnostic
    when binary, not UTF-8 or empty."""
    if b"\x00" in raw:
        report.add("E003", "file is binary, not YAML text", Loc(name),
                   "rulesets, cards, tracks, variants and scenarios are UTF-8 YAML files")
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        before = raw[raw.rfind(b"\n", 0, e.start) + 1: e.start].decode("utf-8", "replace")
        SOURCES[name] = raw.decode("utf-8", "replace")  # the snippet shows the line
        report.add("E004", f"file is not valid UTF-8 (byte 0x{raw[e.start]:02x})",
                   Loc(name, line, len(before) + 1), "save the file as UTF-8")
        return None
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        report.add("E005", "file is empty", Loc(name), "a ruleset file holds a YAML mapping")
        return None
    SOURCES[name] = text
    return text


def parse_yaml(text: str, name: str, report: Report) -> Any:
    """YAML text to plain data with positions; None (and a diagnostic) when it cannot."""
    try:
        deep = _too_deep(text)
        if deep is not None:
            report.add("E012", "YAML nesting is too deep", Loc(name, deep.line + 1, deep.column + 1),
                       f"files may nest at most {MAX_DEPTH} levels")
            return None
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        problem = e.problem or e.context or "malformed YAML"
        hint = _yaml_hint(problem, text, mark)
        start = e.context_mark
        if start is not None and e.context in ("while scanning a simple key",
                                               "while scanning a quoted scalar"):
            mark = start  # the key without `:` or the string never closed, not where that was noticed
            if "quoted" in e.context:
                problem, hint = "a quoted string is not closed", "end it with the same quote it starts with"
        elif start is not None and e.context and e.context.startswith("while parsing a flow"):
            what = "list" if "sequence" in e.context else "mapping"
            hint = (f"the {what} opened at line {start.line + 1}, column {start.column + 1} "
                    "needs a `,` between items and a closing bracket")
            lines = text.split("\n")
            line = lines[mark.line] if mark is not None and mark.line < len(lines) else ""
            if re.search(r"\bmap\[[^\]\"']*,", line):   # `{of: seat, type: map[text, int]}`: its comma
                hint = ("a type with a comma inside a `{...}` is quoted: `type: \"map[text, int]\"` (the "
                        "comma ends the item)")
        loc = Loc(name, mark.line + 1, mark.column + 1) if mark else Loc(name)
        report.add("E010", f"YAML syntax error: {problem}", loc, hint)
        return None
    except yaml.reader.ReaderError as e:   # a character YAML refuses: said at its line and column
        before = text[:e.position]
        line, col = before.count("\n") + 1, e.position - (before.rfind("\n") + 1) + 1
        report.add("E010", f"YAML syntax error: the character {e.character:#06x} cannot stand in a file",
                   Loc(name, line, col),
                   "delete it, or write it as an escape inside a \"double-quoted\" string (a tab as `\\t`)")
        return None
    except yaml.YAMLError as e:
        report.add("E010", f"YAML syntax error: {e}", Loc(name))
        return None
    except RecursionError:
        report.add("E012", "YAML nesting is too deep", Loc(name),
                   f"files may nest at most {MAX_DEPTH} levels")
        return None
    if node is None:
        report.add("E005", "file is empty", Loc(name))
        return None
    conv = _Converter(name, text.splitlines())
    try:
        return conv.convert(node, 0)
    except RulesetError as e:
        report.extend(e.report)
        return None


def _too_deep(text: str) -> Any:
    """The start of the first list or mapping nested deeper than MAX_DEPTH, or None.

    Checked on the event stream (which libyaml produces without recursion) before composing:
    libyaml's composer recurses in C and would crash the process on absurd nesting.
    """
    depth = 0
    last = None
    try:
        for event in yaml.parse(text, Loader=_Loader):
            if isinstance(event, yaml.CollectionStartEvent):
                if depth > MAX_DEPTH:
                    return event.start_mark
                depth += 1
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
            last = event.end_mark
    except yaml.MarkedYAMLError as e:
        # Newer libyaml refuses deep flow nesting itself, while scanning ahead of the events:
        # count the brackets on from the last event it gave.
        if "nesting depth" not in str(e.problem):
            raise
        return _bracket_mark(text, last, depth) or e.problem_mark
    return None


class _Mark:
    def __init__(self, line: int, column: int):
        self.line, self.column = line, column


def _bracket_mark(text: str, start: Any, depth: int) -> _Mark | None:
    """Where flow brackets (`[`, `{`) first nest deeper than MAX_DEPTH, outside quotes,
    counting from `start` (a mark, or None for the beginning) at nesting `depth`."""
    quote = None
    first_line = start.line if start else 0
    for line_no, line in enumerate(text.split("\n")[first_line:], first_line):
        skip = start.column if start and line_no == start.line else 0
        for col, ch in enumerate(line):
            if col < skip:
                continue
            if quote:
                if ch == quote:
                    quote = None
            elif ch in "'\"":
                quote = ch
            elif ch in "[{":
                if depth > MAX_DEPTH:
                    return _Mark(line_no, col)
                depth += 1
            elif ch in "]}":
                depth -= 1
    return None


def _yaml_hint(problem: str, text: str = "", mark: Any = None) -> str | None:
    lines = text.splitlines()
    at = lines[mark.line][mark.column:mark.column + 1] if mark and mark.line < len(lines) else ""
    if "tab" in problem or at == "\t":
        return "indent with spaces, not tabs"
    if mark is not None and mark.line < len(lines) and any(
            words in problem for words in ("mapping values are not allowed", "expected key",
                                           "expected <block end>", "could not find expected ':'")):
        hint = _indent_hint(lines, mark.line)
        if hint is not None:
            return hint
    if "mapping values are not allowed" in problem:
        return "a value containing ': ' must be quoted, or written as a block with `|`"
    if "could not find expected ':'" in problem:
        return "every line of a mapping needs `key: value`"
    return None


def _indent_hint(lines: list[str], row: int) -> str | None:
    """When a line's indentation fits no block above it (the usual cause of YAML's words "mapping
    values are not allowed", "did not find expected key"): what to indent it as."""
    def indent(line: str) -> int:
        return len(line) - len(line.lstrip(" "))

    def content(line: str) -> bool:
        return bool(line.strip()) and not line.lstrip().startswith("#")

    line = lines[row]
    above = [(r, lines[r]) for r in range(row - 1, -1, -1) if content(lines[r])]
    if not content(line) or not above:
        return None
    here, (prow, prev) = indent(line), above[0]
    opens = prev.rstrip().endswith((":", "|", ">", "|-", ">-")) or prev.lstrip().startswith("- ")
    if here > indent(prev) and not opens:
        return (f"line {row + 1} is indented more than line {prow + 1} above it, which holds its own value: "
                f"indent it {_spaces(indent(prev))}, as that line, if it is a key beside it")
    # the indentations of the blocks this line may close back to: those of the lines above, each
    # taken only while it is shallower than every line after it
    levels: list[int] = []
    for _r, text in above:
        width = indent(text)
        if not levels or width < min(levels):
            levels.append(width)
    if here < indent(prev) and here not in levels:
        shown = ", ".join(str(w) for w in sorted(levels))
        return (f"line {row + 1} is indented {_spaces(here)}, which lines it up with no key above it "
                f"(they are indented {shown}): indent it as the keys it belongs with")
    return None


def _spaces(n: int) -> str:
    return "1 space" if n == 1 else f"{n} spaces"


class _Converter:
    def __init__(self, name: str, lines: list[str]):
        self.name = name
        self.lines = lines
        self.nodes = 0
        self.aliases: dict[int, int] = {}
        self.seen: set[int] = set()

    def fail(self, code: str, msg: str, mark: Any, hint: str | None = None) -> NoReturn:
        r = Report()
        r.add(code, msg, self.loc(mark), hint)
        raise RulesetError(r)

    def loc(self, mark: Any) -> Loc:
        return Loc(self.name, mark.line + 1, mark.column + 1)

    def convert(self, node: yaml.Node, depth: int) -> Any:
        if depth > MAX_DEPTH:
            self.fail("E012", "YAML nesting is too deep", node.start_mark,
                      f"files may nest at most {MAX_DEPTH} levels")
        self.nodes += 1
        if self.nodes > MAX_NODES:
            self.fail("E013", "YAML expands to too many values (an alias bomb?)", node.start_mark,
                      f"a file may hold at most {MAX_NODES} values")
        if id(node) in self.seen:
            # The same node reached twice: an alias. A few are fine; many are a bomb.
            n = self.aliases.get(id(node), 0) + 1
            self.aliases[id(node)] = n
            if sum(self.aliases.values()) > MAX_ALIASES:
                self.fail("E013", "too many YAML aliases", node.start_mark,
                          f"at most {MAX_ALIASES} alias uses are allowed")
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
            self.seen.add(id(node))
        if node.tag not in _PLAIN_TAGS:
            self.fail("E011", f"YAML tag `{node.tag}` is not allowed", node.start_mark,
                      "only plain data (text, numbers, true/false, lists, mappings) is accepted")
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node)
        if isinstance(node, yaml.SequenceNode):
            items = SrcList(self.convert(v, depth + 1) for v in node.value)
            items.loc = self.loc(node.start_mark)
            return items
        out = SrcMap()
        out.loc = self.loc(node.start_mark)
        out.key_locs = {}
        for knode, vnode in node.value:
            if knode.tag == "tag:yaml.org,2002:merge":
                self.fail("E011", "YAML merge keys (`<<`) are not supported", knode.start_mark,
                          "write the keys out, or use a module or variant patch")
            if isinstance(knode, yaml.ScalarNode) and knode.tag in _PLAIN_TAGS:
                # Keys are names: `on`, `yes`, `1` stay text (YAML 1.1 would make them bool/int).
                key = src_str(knode.value, self.loc(knode.start_mark))
            else:
                key = self.convert(knode, depth + 1)
            if isinstance(key, (list, dict)):
                self.fail("E014", "a mapping key must be a plain value", knode.start_mark)
            if key in out:
                self.fail("E015", f"duplicate key `{key}`", knode.start_mark,
                          "each key may appear once in a mapping")
            out.key_locs[key] = self.loc(knode.start_mark)
            out[key] = self.convert(vnode, depth + 1)
        return out

    def scalar(self, node: yaml.ScalarNode) -> Any:
        tag = node.tag
        text = node.value
        mark = node.start_mark
        if tag == "tag:yaml.org,2002:str":
            if node.style == "|":
                return src_str(text, Loc(self.name, mark.line + 2, 1), self._indent(mark.line + 1))
            col = mark.column + 1 + (1 if node.style in ("'", '"') else 0)
            s = src_str(text, Loc(self.name, mark.line + 1, col))
            if node.style is not None or node.end_mark.line != mark.line:
                end = node.end_mark
                s._span = (self.lines[mark.line:end.line + 1], mark.line, mark.column, end.line,
                           end.column, node.style)
            return s
        if tag == "tag:yaml.org,2002:int" and len(text.replace("_", "")) > _MAX_INT_CHARS:
            self.fail("E026", f"the number is too large ({len(text)} characters)", mark,
                      f"numbers are at most {MAX_INT}")
        return _CONSTRUCTOR.yaml_constructors[tag](_CONSTRUCTOR, node)

    def _indent(self, line0: int) -> int:
        for line in self.lines[line0:]:
            if line.strip():
                return len(line) - len(line.lstrip(" "))
        return 0
