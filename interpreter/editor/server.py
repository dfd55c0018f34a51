"""`racecraft lsp`: the language server, over standard input and output (pygls, lsprotocol).

A file is checked a moment after the last change (`DEBOUNCE`), in one worker thread (the checks
read the open files' texts in place of the disk's, a setting of the whole process: one check at a
time), while completion, hover and definitions answer at once from what the last check of the
file knew (`knowledge.py`). Nothing a file holds stops the server: a check that fails inside is
said as a diagnostic at the file's top, and the server goes on.
"""
from __future__ import annotations

import asyncio
import logging
import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from lsprotocol import types as t
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace import TextDocument

from ..base.diagnostics import Diagnostic, Loc, source_line
from ..base.files import FileRefused, read_limited
from ..load.yamlsrc import MAX_BYTES
from .checking import Outcome, check_file
from .completing import complete, known_at
from .knowledge import Knowledge, Known, basics, know
from .outline import Entry, outline
from .positions import Span, span_of

DEBOUNCE = 0.3   # seconds after the last change before a file is checked
# the files whose references are looked for a name in, at most (a ruleset's are some forty)
MAX_FILES = 200
_SCENARIO = re.compile(r"^scenario\s*:", re.M)
log = logging.getLogger("racecraft.lsp")

_KIND = {"built-in": t.CompletionItemKind.Function, "function": t.CompletionItemKind.Function,
         "procedure": t.CompletionItemKind.Method, "param": t.CompletionItemKind.Constant,
         "state": t.CompletionItemKind.Variable, "pile": t.CompletionItemKind.Variable,
         "board": t.CompletionItemKind.Module, "die": t.CompletionItemKind.Variable,
         "pieces": t.CompletionItemKind.Class, "card type": t.CompletionItemKind.EnumMember,
         "card property": t.CompletionItemKind.Field, "word": t.CompletionItemKind.Keyword,
         "rule": t.CompletionItemKind.Reference, "section": t.CompletionItemKind.Module}
_SYMBOL = {"section": t.SymbolKind.Namespace, "functions": t.SymbolKind.Function,
           "procedures": t.SymbolKind.Method, "triggers": t.SymbolKind.Event, "phases": t.SymbolKind.Class,
           "steps": t.SymbolKind.Method, "state": t.SymbolKind.Variable, "params": t.SymbolKind.Constant,
           "piles": t.SymbolKind.Array, "cards": t.SymbolKind.Object, "patch": t.SymbolKind.Operator}


class Server(LanguageServer):
    """The server and what it keeps of each open file: its pending check, what its last check
    knew of the game's names, the files of its game, its last outline."""

    def __init__(self) -> None:
        super().__init__("racecraft", "1")
        self.pending: dict[str, asyncio.Task] = {}
        self.known: dict[str, Knowledge] = {}
        self.files: dict[str, list[str]] = {}
        self.outlines: dict[str, list[Entry]] = {}
        self.basics = basics()
        self.worker = ThreadPoolExecutor(1, thread_name_prefix="racecraft-check")

    def texts(self) -> dict[Path, str]:
        """The open files' texts, by path (a text the editor holds with lone surrogates: with
        those replaced, as a file of it would be written)."""
        out = {}
        for uri, doc in list(self.workspace.text_documents.items()):
            path = _path(uri)
            if path is not None:
                out[path] = doc.source.encode("utf-8", "replace").decode("utf-8")
        return out

    def say(self, text: str) -> None:
        self.window_log_message(t.LogMessageParams(type=t.MessageType.Log, message=text))


def _path(uri: str) -> Path | None:
    """The file of a `file:` URI (None for an unsaved buffer's `untitled:` and the like)."""
    try:
        fs = to_fs_path(uri)
    except Exception:  # noqa: BLE001 - a URI the editor made: not a file then
        return None
    return Path(fs) if fs and uri.startswith("file:") else None


def _lines(doc: TextDocument) -> list[str]:
    return doc.source.split("\n")


def _range(doc_lines: list[str], codec: Any, span: Span) -> t.Range:
    """A range counted in characters, in the code units the editor and the server agreed on."""
    r = t.Range(t.Position(span[0], span[1]), t.Position(span[2], span[3]))
    return codec.range_to_client_units(doc_lines, r)


# ---- checking -----------------------------------------------------------------------------------

def schedule(ls: Server, uri: str, delay: float, others: bool = False) -> None:
    """Check the file `delay` seconds from now (a change before then starts the wait again); with
    `others`, then each other open file (an edit of a game changes what its modules say)."""
    old = ls.pending.pop(uri, None)
    if old is not None:
        old.cancel()
    ls.pending[uri] = asyncio.get_running_loop().create_task(_check_later(ls, uri, delay, others))


def _work(path: Path, texts: dict[Path, str]) -> tuple[Outcome, Knowledge | None]:
    outcome = check_file(path, texts)
    try:
        return outcome, know(outcome.ruleset) if outcome.ruleset is not None else None
    except Exception:  # noqa: BLE001 - a bug of ours: the names stay as the last check knew them
        log.exception("reading the names of %s", path)
        return outcome, None


async def _check_later(ls: Server, uri: str, delay: float, others: bool) -> None:
    await asyncio.sleep(delay)
    path = _path(uri)
    if path is None or uri not in ls.workspace.text_documents:
        return
    doc = ls.workspace.get_text_document(uri)
    version = doc.version
    try:
        outcome, knowledge = await asyncio.get_running_loop().run_in_executor(
            ls.worker, _work, path, ls.texts())
    except Exception as e:  # noqa: BLE001 - a bug of ours: said, and the server goes on
        log.exception("checking %s", path)
        outcome, knowledge = Outcome([Diagnostic("E000", f"racecraft could not check this file: "
                                                 f"{type(e).__name__}: {e} (a bug in Racecraft, not in "
                                                 "your file)")]), None
    if ls.pending.get(uri) is not asyncio.current_task():
        return   # (changed meanwhile: the next check says what is wrong)
    ls.pending.pop(uri, None)
    if uri not in ls.workspace.text_documents or ls.workspace.get_text_document(uri).version != version:
        return
    if knowledge is not None:
        ls.known[uri] = knowledge
        assert outcome.ruleset is not None
        ls.files[uri] = [f for f, _digest in outcome.ruleset.files]
    ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(
        uri=uri, version=version, diagnostics=diagnostics(ls, doc, path, outcome)))
    games = len(outcome.games)
    ls.say(f"racecraft: checked {path.name} in {outcome.seconds * 1000:.0f} ms"
           + (f" ({games} game{'s' if games != 1 else ''}, {outcome.kept} unchanged)" if games else "")
           + f": {len(outcome.diagnostics)} diagnostic{'s' if len(outcome.diagnostics) != 1 else ''}"
           + ("; only its form (no text of it here nor on the disk for its game to read)"
              if outcome.unsaved else ""))
    if others:
        for other in list(ls.workspace.text_documents):
            if other != uri and other not in ls.pending and other.endswith((".yaml", ".yml")):
                schedule(ls, other, 0.0)


def diagnostics(ls: Server, doc: TextDocument, path: Path, outcome: Outcome) -> list[t.Diagnostic]:
    """The diagnostics of a check as the editor shows them in this file: those in it at their place;
    those elsewhere (the base game, an included file) on its first line, saying where they are."""
    mine = os.path.realpath(path)
    lines = _lines(doc)
    out = []
    for d in outcome.diagnostics:
        here = d.loc is not None and bool(d.loc.file) and os.path.realpath(d.loc.file) == mine
        message = d.message
        related = []
        if here:
            assert d.loc is not None
            span = span_of(d.loc.line, d.loc.col, lines)
        else:
            span = (0, 0, 0, len(lines[0]) if lines else 0)
            if d.loc is not None and d.loc.file:
                message = f"{_named(d.loc, path)}: {message}"
                related.append(t.DiagnosticRelatedInformation(_location(ls, d.loc), "here"))
        if d.also is not None:
            related.append(t.DiagnosticRelatedInformation(_location(ls, d.also[1]), d.also[0]))
        message += "".join(f"\nnote: {note}" for note in d.notes) + (f"\nhint: {d.hint}" if d.hint else "")
        out.append(t.Diagnostic(
            range=_range(lines, doc.position_codec, span), message=message, code=d.code, source="racecraft",
            severity=t.DiagnosticSeverity.Warning if d.severity == "warning" else t.DiagnosticSeverity.Error,
            related_information=related or None))
    return out


def _named(loc: Loc, beside: Path) -> str:
    """A place in another file, named from the folder of the file shown (`../game.yaml:46:15`)."""
    try:
        name = os.path.relpath(loc.file, beside.parent)
    except ValueError:   # (another drive)
        name = loc.file
    return f"{name}:{loc.line}:{loc.col}" if loc.line else name


def _location(ls: Server, loc: Loc) -> t.Location:
    """A place of any file, for the editor (its line read to count its characters)."""
    real = os.path.realpath(loc.file)
    uri = from_fs_path(real) or loc.file
    doc = ls.workspace.text_documents.get(uri)
    if doc is not None:
        lines, codec = _lines(doc), doc.position_codec
    else:
        line = source_line(loc) if loc.line else None
        lines, codec = [""] * max(loc.line - 1, 0) + [line or ""], ls.workspace.position_codec
    return t.Location(uri=uri, range=_range(lines, codec, span_of(loc.line, loc.col, lines)))


# ---- what the editor asks -------------------------------------------------------------------

def _at(ls: Server, uri: str, position: t.Position) -> tuple[TextDocument, list[str], int, int]:
    """The document, its lines, and the position as a line and a character index."""
    doc = ls.workspace.get_text_document(uri)
    lines = _lines(doc)
    pos = doc.position_codec.position_from_client_units(lines, t.Position(position.line, position.character))
    return doc, lines, pos.line, pos.character


def _knowledge(ls: Server, uri: str) -> Knowledge:
    return ls.known.get(uri) or ls.basics


def completion(ls: Server, params: t.CompletionParams) -> t.CompletionList:
    uri = params.text_document.uri
    doc, lines, row, i = _at(ls, uri, params.position)
    found, (start, end) = complete(_knowledge(ls, uri), lines, row, i, bool(_SCENARIO.search(doc.source)))
    where = _range(lines, doc.position_codec, (row, start, row, end))
    items = [t.CompletionItem(label=k.name, kind=_KIND.get(k.what, t.CompletionItemKind.Text),
                              detail=k.detail,
                              label_details=t.CompletionItemLabelDetails(description=k.what),
                              documentation=_markdown(_doc(k)) if k.doc else None,
                              text_edit=t.TextEdit(where, k.name))
             for k in found]
    return t.CompletionList(is_incomplete=False, items=items)


def _markdown(text: str) -> t.MarkupContent:
    return t.MarkupContent(t.MarkupKind.Markdown, text)


def _doc(k: Known) -> str:
    """A name's longer text as paragraphs (a line each)."""
    return k.doc.replace("\n", "\n\n")


def hover(ls: Server, params: t.HoverParams) -> t.Hover | None:
    uri = params.text_document.uri
    doc, lines, row, i = _at(ls, uri, params.position)
    found = known_at(_knowledge(ls, uri), lines[row] if row < len(lines) else "", i)
    if found is None:   # a declaration's key: the rulebook's words its comments quote
        said = quoted(lines, row) if row < len(lines) and _KEY.match(lines[row]) else None
        if said is None:
            return None
        return t.Hover(contents=_markdown(f"rulebook: {said}"))
    k, (start, end) = found
    text = f"```\n{k.detail}\n```\n{k.what}"
    if k.doc:
        text += "\n\n" + _doc(k)
    path = _path(uri)
    if k.loc is not None and k.loc.line and path is not None:
        text += f"\n\ndeclared at `{_named(k.loc, path)}`"
        said = quoted(_read_open(ls, k.loc.file).split("\n"), k.loc.line - 1)
        if said is not None:
            text += f"\n\nrulebook: {said}"
    if k.changed is not None and path is not None:
        text += f", changed at `{_named(k.changed, path)}`"
    return t.Hover(contents=t.MarkupContent(t.MarkupKind.Markdown, text),
                   range=_range(lines, doc.position_codec, (row, start, row, end)))


# a line that declares something: `name:`, `- id: name` (a YAML key, not a rule's text)
_KEY = re.compile(r"^\s*(?:-\s+)?[A-Za-z_][\w-]*\s*:")
# a comment's words quoted from a rulebook: "...", «...» or “...”
_QUOTE = re.compile(r'"[^"]{3,}"|«[^»]{3,}»|“[^”]{3,}”')


def quoted(lines: list[str], row: int) -> str | None:
    """What the comments of the declaration on line `row` (0-based) quote from the rulebook: its
    own comment and the comment lines right above it (the files cite the rulebook so); None when
    they quote nothing."""
    own = lines[row].split("#", 1)[1] if "#" in lines[row] else ""
    above: list[str] = []
    r = row - 1
    while r >= 0 and lines[r].lstrip().startswith("#"):
        above.insert(0, lines[r].lstrip()[1:].strip())
        r -= 1
    text = " ".join([*above, own.strip()]).strip()
    return text if _QUOTE.search(text) else None


def _read_open(ls: Server, file: str) -> str:
    """A file as the editor has it (an open, unsaved text), else as the disk has it."""
    for path, text in ls.texts().items():
        if str(path) == file:
            return text
    return _read(file)


def definition(ls: Server, params: t.DefinitionParams) -> t.Location | None:
    uri = params.text_document.uri
    _doc_, lines, row, i = _at(ls, uri, params.position)
    found = known_at(_knowledge(ls, uri), lines[row] if row < len(lines) else "", i)
    if found is None or found[0].loc is None or not found[0].loc.line:
        return None
    return _location(ls, found[0].loc)


def references(ls: Server, params: t.ReferenceParams) -> list[t.Location]:
    """Each place the name is written in the files of the game (its declaration with them)."""
    uri = params.text_document.uri
    _doc_, lines, row, i = _at(ls, uri, params.position)
    found = known_at(_knowledge(ls, uri), lines[row] if row < len(lines) else "", i)
    if found is None:
        return []
    word = found[0].name.split(".")[-1]
    pattern = re.compile(rf"(?<![\w]){re.escape(word)}(?!\w)")
    out = []
    texts = ls.texts()
    for file in ls.files.get(uri, [])[:MAX_FILES]:
        text = texts.get(Path(file))
        if text is None:
            text = _read(file)
        for n, line in enumerate(text.split("\n"), 1):
            words = _words(line)
            for m in pattern.finditer(line):
                if words[m.start()]:
                    out.append(_location(ls, Loc(file, n, m.start() + 1)))
    return out


def _words(line: str) -> list[bool]:
    """For each character of a line: whether it is written as a name could be, not in a comment
    (`#` to the end of the line, in YAML and in rules) nor in a text a rule writes (`"..."`, a
    name in a label's `{...}` counted)."""
    out = [True] * (len(line) + 1)
    quote, braces = "", 0
    for k, ch in enumerate(line):
        if quote:
            if ch == "{":
                braces += 1
            elif ch == "}" and braces:
                braces -= 1
            elif ch == quote and not braces:
                quote = ""
            out[k] = braces > 0
        elif ch == "#":
            out[k:] = [False] * (len(line) + 1 - k)
            break
        elif ch == '"' and _in_rule(line, k):
            quote, out[k] = ch, False
    return out


def _in_rule(line: str, k: int) -> bool:
    """Whether a `"` opens a rule's text rather than a YAML string holding a whole rule
    (`value: "size(hand(s))"`): the first `"` after a key's colon is YAML's."""
    before = line[:k].rstrip()
    return not before.endswith(":") and not before.endswith("- ")


def _read(file: str) -> str:
    """A file of the game as the disk has it ("" when it cannot be read: its check says why)."""
    try:
        return read_limited(Path(file), MAX_BYTES).decode("utf-8", "replace")
    except FileRefused:
        return ""


def symbols(ls: Server, params: t.DocumentSymbolParams) -> list[t.DocumentSymbol]:
    uri = params.text_document.uri
    doc = ls.workspace.get_text_document(uri)
    entries = outline(doc.source, uri)
    if entries is None:   # half typed: the last outline that could be read
        entries = ls.outlines.get(uri, [])
    ls.outlines[uri] = entries
    lines = _lines(doc)
    return [_symbol(e, lines, doc) for e in entries]


def _symbol(e: Entry, lines: list[str], doc: TextDocument) -> t.DocumentSymbol:
    last = min(e.last, len(lines))
    whole = (e.line - 1, 0, last - 1, len(lines[last - 1]) if 0 < last <= len(lines) else 0)
    name = span_of(e.line, e.col, lines)
    return t.DocumentSymbol(name=e.name, kind=_SYMBOL.get(e.what, t.SymbolKind.Field),
                            range=_range(lines, doc.position_codec, whole),
                            selection_range=_range(lines, doc.position_codec, name),
                            children=[_symbol(c, lines, doc) for c in e.children])


# ---- the server ---------------------------------------------------------------------------------

def _safe(fn: Any, empty: Any) -> Any:
    """The handler, answering `empty` when it fails (said in the log): a file never stops the server."""
    def handler(ls: Server, params: Any) -> Any:
        try:
            return fn(ls, params)
        except Exception:  # noqa: BLE001 - a bug of ours: logged, and the editor gets no answer
            log.exception("%s", fn.__name__)
            return empty
    handler.__name__ = fn.__name__
    return handler


def make_server() -> Server:
    ls = Server()

    @ls.feature(t.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: Server, params: t.DidOpenTextDocumentParams) -> None:
        schedule(ls, params.text_document.uri, 0.0)

    @ls.feature(t.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: Server, params: t.DidChangeTextDocumentParams) -> None:
        schedule(ls, params.text_document.uri, DEBOUNCE, others=True)

    @ls.feature(t.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: Server, params: t.DidSaveTextDocumentParams) -> None:
        schedule(ls, params.text_document.uri, 0.0, others=True)

    @ls.feature(t.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: Server, params: t.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        task = ls.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        for kept in (ls.known, ls.files, ls.outlines):
            kept.pop(uri, None)
        ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    ls.feature(t.TEXT_DOCUMENT_COMPLETION, t.CompletionOptions(trigger_characters=[".", '"', "'"]))(
        _safe(completion, None))
    ls.feature(t.TEXT_DOCUMENT_HOVER)(_safe(hover, None))
    ls.feature(t.TEXT_DOCUMENT_DEFINITION)(_safe(definition, None))
    ls.feature(t.TEXT_DOCUMENT_REFERENCES)(_safe(references, []))
    ls.feature(t.TEXT_DOCUMENT_DOCUMENT_SYMBOL)(_safe(symbols, []))
    return ls


def serve() -> int:
    """Serve one editor over standard input and output until it says to stop. Standard output is
    the protocol's: anything else that would print there goes to standard error."""
    stdin: Any = sys.stdin.buffer
    stdout: Any = (sys.__stdout__ or sys.stdout).buffer
    sys.stdout = sys.stderr
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    make_server().start_io(stdin, stdout)
    return 0
