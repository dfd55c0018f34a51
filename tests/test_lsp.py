"""`racecraft lsp` driven as an editor drives it: the real server over standard input and output
(pytest-lsp), one server for the whole module. Heat's weather module is edited in the editor only
(the files on the disk are never written): a misspelt name is said at its line, completion offers
the game's params and built-ins, hover shows a built-in's signature, definition jumps from the
module to the base game's declaration, and a broken file leaves the server answering."""
from __future__ import annotations

import asyncio
import re
import sys
import time
from pathlib import Path

import pytest

pytest_lsp = pytest.importorskip("pytest_lsp")
from lsprotocol import types as t  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
HEAT = ROOT / "rulesets" / "heat"
WEATHER = HEAT / "modules" / "weather.yaml"
TEXT = WEATHER.read_text(encoding="utf-8")
SERVER = "import sys; from interpreter.cli import main; sys.exit(main(['lsp']))"
# a check of a module on a warm server takes a tenth of a second (the log says how long); a test
# waits at most this long for it, however slow the machine
WAIT = 20.0

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=[sys.executable, "-c", SERVER]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(t.InitializeParams(capabilities=t.ClientCapabilities(),
                                                           root_uri=ROOT.as_uri()))
    # the module is open in the editor for every test (as the disk has it); a test that edits it
    # puts it back
    uri = _open(lsp_client, WEATHER, TEXT)
    assert not [d for d in await _diagnostics(lsp_client, uri) if d.severity == t.DiagnosticSeverity.Error]
    yield
    await lsp_client.shutdown_session()


def _line_of(text: str, needle: str) -> tuple[int, int]:
    """(line, character) from 0 of the first `needle` in `text`."""
    before = text[:text.index(needle)]
    return before.count("\n"), len(before) - (before.rfind("\n") + 1)


async def _diagnostics(client: LanguageClient, uri: str, when=lambda ds: True) -> list:
    """The diagnostics the server published last for `uri`, once `when` accepts them (the client
    keeps the last ones of each file: none is missed between two waits)."""
    async def wait():
        while True:
            found = client.diagnostics.get(uri)
            if found is not None and when(found):
                return found
            await asyncio.sleep(0.02)
    return await asyncio.wait_for(wait(), WAIT)


def _open(client: LanguageClient, path: Path, text: str, version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(uri, "yaml", version, text)))
    return uri


def _change(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        t.VersionedTextDocumentIdentifier(uri=uri, version=version),
        [t.TextDocumentContentChangeWholeDocument(text=text)]))


async def test_a_misspelt_name_in_a_module_is_said_at_its_line_as_it_changes(client: LanguageClient):
    uri = WEATHER.as_uri()
    wrong = TEXT.replace('value: "top(weather)"', 'value: "tpo(weather)"', 1)
    line, col = _line_of(wrong, "tpo(weather)")
    start = time.perf_counter()
    _change(client, uri, wrong, 2)
    found = await _diagnostics(client, uri, lambda ds: any(d.code == "E110" for d in ds))
    waited = time.perf_counter() - start
    d = next(d for d in found if d.code == "E110")
    assert "unknown function `tpo`" in d.message and "did you mean `top`" in d.message
    assert (d.range.start.line, d.range.start.character, d.range.end.character) == (line, col, col + 3)
    checked = [m.message for m in client.log_messages if "checked weather.yaml" in m.message]
    print(f"\ndiagnostic {waited * 1000:.0f} ms after the change (debounce included); server: {checked[-1]}")
    assert re.search(r"checked weather\.yaml in \d+ ms \(1 game", checked[-1])
    _change(client, uri, TEXT, 3)   # put right: the error goes
    await _diagnostics(client, uri, lambda ds: not any(d.code == "E110" for d in ds))


async def test_a_patch_that_breaks_the_base_game_is_said_at_the_patch(client: LanguageClient):
    uri = WEATHER.as_uri()
    wrong = TEXT.replace("patches:\n", 'patches:\n  - set: params.hand_size\n    to: "seven"\n', 1)
    _change(client, uri, wrong, 4)
    found = await _diagnostics(client, uri, lambda ds: any(d.code == "E120" for d in ds))
    d = next(d for d in found if d.code == "E120")
    assert d.range.start.line == _line_of(wrong, "set: params.hand_size")[0]
    assert d.related_information and d.related_information[0].location.uri == (HEAT / "game.yaml").as_uri()
    # a param's value, as the module sets it, and where
    line, col = _line_of(wrong, "hand_size")
    got = await client.text_document_hover_async(t.HoverParams(t.TextDocumentIdentifier(uri),
                                                               t.Position(line, col + 1)))
    assert got is not None and 'hand_size = "seven"' in got.contents.value
    assert "changed at `weather.yaml:" in got.contents.value
    _change(client, uri, TEXT, 5)
    await _diagnostics(client, uri, lambda ds: not any(d.code == "E120" for d in ds))


async def test_completion_offers_the_games_params_and_built_ins(client: LanguageClient):
    uri = WEATHER.as_uri()
    line, col = _line_of(TEXT, 'top(weather)"')
    got = await client.text_document_completion_async(t.CompletionParams(
        t.TextDocumentIdentifier(uri), t.Position(line, col + 2)))
    items = {i.label: i for i in (got.items if isinstance(got, t.CompletionList) else got or [])}
    assert items["top"].detail == "top(pile) -> card"
    assert items["hand_size"].detail == "hand_size = 7"                      # the base game's param
    assert items["the_weather"].kind == t.CompletionItemKind.Function        # the module's function
    assert "deck" in items and "if" in items                                 # a pile, a word
    # after a dot: what a piece, a seat or a card has
    line, col = _line_of(TEXT, "the_weather().setup'")
    got = await client.text_document_completion_async(t.CompletionParams(
        t.TextDocumentIdentifier(uri), t.Position(line, col + len("the_weather()."))))
    labels = {i.label for i in (got.items if isinstance(got, t.CompletionList) else got or [])}
    assert "setup" in labels and "owner" in labels and "top" not in labels
    # a patch's target
    line, col = _line_of(TEXT, "extend: ")
    got = await client.text_document_completion_async(t.CompletionParams(
        t.TextDocumentIdentifier(uri), t.Position(line, col + len("extend: "))))
    labels = {i.label for i in (got.items if isinstance(got, t.CompletionList) else got or [])}
    assert {"setup", "functions.slip_bonuses", "choices.react"} <= labels


async def test_hover_shows_a_built_ins_signature_and_a_piles_declaration(client: LanguageClient):
    uri = WEATHER.as_uri()
    line, col = _line_of(TEXT, 'top(weather)"')
    got = await client.text_document_hover_async(t.HoverParams(t.TextDocumentIdentifier(uri),
                                                               t.Position(line, col + 1)))
    assert got is not None and "top(pile) -> card" in got.contents.value
    assert "the top card" in got.contents.value
    line, col = _line_of(TEXT, "engine(car)")
    got = await client.text_document_hover_async(t.HoverParams(t.TextDocumentIdentifier(uri),
                                                               t.Position(line, col + 1)))
    assert got is not None and "pile engine, of piece" in got.contents.value
    assert "declared at `../game.yaml:" in got.contents.value
    # a name whose declaration quotes the rulebook: the quote with it
    line, col = _line_of(TEXT, "discard(car)")
    got = await client.text_document_hover_async(t.HoverParams(t.TextDocumentIdentifier(uri),
                                                               t.Position(line, col + 1)))
    assert got is not None and 'rulebook: "все видят лишь верхние карты стопок"' in got.contents.value


async def test_definition_jumps_from_the_module_to_the_base_games_declaration(client: LanguageClient):
    uri = WEATHER.as_uri()
    line, col = _line_of(TEXT, "engine(car)")
    got = await client.text_document_definition_async(t.DefinitionParams(t.TextDocumentIdentifier(uri),
                                                                         t.Position(line, col + 2)))
    game = (HEAT / "game.yaml").read_text(encoding="utf-8")
    assert isinstance(got, t.Location) and got.uri == (HEAT / "game.yaml").as_uri()
    assert (got.range.start.line, got.range.start.character) == _line_of(game, "engine: {of: piece")
    # and a patch's target to the rule it extends
    line, col = _line_of(TEXT, "extend: functions.slip_bonuses")
    got = await client.text_document_definition_async(t.DefinitionParams(
        t.TextDocumentIdentifier(uri), t.Position(line, col + len("extend: functions.s"))))
    assert isinstance(got, t.Location) and got.range.start.line == _line_of(game, "  slip_bonuses:")[0]
    refs = await client.text_document_references_async(t.ReferenceParams(
        context=t.ReferenceContext(include_declaration=True), text_document=t.TextDocumentIdentifier(uri),
        position=t.Position(line, col + len("extend: functions.s"))))
    assert {r.uri for r in refs} >= {uri, (HEAT / "game.yaml").as_uri()}


async def test_the_outline_lists_sections_and_patches(client: LanguageClient):
    got = await client.text_document_document_symbol_async(t.DocumentSymbolParams(
        t.TextDocumentIdentifier(WEATHER.as_uri())))
    sections = {s.name: s for s in got}
    assert {"module", "include", "patches"} <= set(sections)
    assert "add functions the_weather" in [c.name for c in sections["patches"].children]
    got = await client.text_document_document_symbol_async(t.DocumentSymbolParams(
        t.TextDocumentIdentifier((HEAT / "game.yaml").as_uri())))   # (not open: read from its URI)


async def test_a_broken_file_is_said_and_the_server_answers_on(client: LanguageClient, tmp_path):
    half = tmp_path / "half.yaml"   # outside any ruleset, half typed
    uri = _open(client, half, "module:\n  id: x\npatches:\n  - add: [\n")
    found = await _diagnostics(client, uri)
    assert found and "YAML" in found[0].message
    bad = tmp_path / "bytes.yaml"   # not UTF-8 on the disk, open in the editor as it decoded them
    bad.write_bytes(b"game:\n  id: \xff\xfe\n")
    uri = _open(client, bad, "game:\n  id: \ufffd\ufffd\n")
    assert await _diagnostics(client, uri)
    got = await client.text_document_hover_async(t.HoverParams(t.TextDocumentIdentifier(uri),
                                                               t.Position(0, 1)))
    assert got is None
    got = await client.text_document_completion_async(t.CompletionParams(
        t.TextDocumentIdentifier(uri), t.Position(5, 40)))   # past the end
    assert got is not None
