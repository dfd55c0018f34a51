"""The language server's parts that need no editor (`interpreter/editor/`): a file checked as
`validate` checks it, from texts the editor holds; what is offered where; the outline. The server
itself is driven over stdio in test_lsp.py."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.editor.checking import check_file
from interpreter.editor.completing import complete, in_block, known_at
from interpreter.editor.knowledge import Knowledge, Known, basics, know, shown
from interpreter.editor.outline import outline
from interpreter.editor.positions import span_of, word_at
from interpreter.editor.server import quoted

ROOT = Path(__file__).resolve().parents[1]
F5 = ROOT / "rulesets" / "formula5"


@pytest.fixture(scope="module")
def f5() -> Knowledge:
    out = check_file(F5 / "game.yaml", {})
    assert not [d for d in out.diagnostics if d.severity == "error"] and out.ruleset is not None
    return know(out.ruleset)


def test_a_file_is_checked_from_the_editors_text_not_the_disks():
    game = F5 / "game.yaml"
    text = game.read_text(encoding="utf-8")
    assert "players:" in text
    check_file(game, {})
    broken = text.replace("players:", "players: [", 1)
    out = check_file(game, {game: broken})
    assert out.diagnostics and out.diagnostics[0].code == "E010" and out.diagnostics[0].loc is not None
    line = text[:text.index("players:")].count("\n") + 1
    assert line <= out.diagnostics[0].loc.line <= line + 1   # (where YAML finds the list unclosed)
    again = check_file(game, {})   # the disk's text again: its verdict kept from the first check
    assert not [d for d in again.diagnostics if d.severity == "error"] and again.kept == 1


def test_a_track_and_a_cards_file_are_checked_with_the_games_that_use_them():
    tracks = sorted((ROOT / "tracks" / "formula5").glob("*.yaml"))
    out = check_file(tracks[0], {})
    assert [folder.name for folder, _job in out.games] == ["formula5"] and out.games[0][1].track
    cards = sorted((ROOT / "cards" / "formula5").glob("*.yaml"))
    out = check_file(cards[0], {})
    assert "formula5" in [folder.name for folder, _job in out.games]


def test_other_programs_yaml_gets_nothing_and_a_rulesets_gets_what_validate_says(tmp_path):
    (tmp_path / "ci.yaml").write_text("jobs: {}\n")
    assert check_file(tmp_path / "ci.yaml", {}).diagnostics == []
    inside = tmp_path / "rulesets" / "x" / "notes.yaml"
    inside.parent.mkdir(parents=True)
    inside.write_text("jobs: {}\n")
    assert [d.code for d in check_file(inside, {}).diagnostics] == ["E006"]
    assert check_file(tmp_path / "gone.yaml", {tmp_path / "gone.yaml": "module: [\n"}).diagnostics
    # a variant open in the editor, never saved: checked with its game, as validate would once saved
    new = F5 / "variants" / "not-saved-yet.yaml"
    text = ("language: 2\nvariant: {id: not-saved-yet, name: Not saved yet, description: A try}\npatches:\n"
            "  - extend: phases.race.until\n    around: \"round == hand_sise or base\"\n")
    out = check_file(new, {new: text})
    assert not new.exists() and not out.unsaved
    [d] = [d for d in out.diagnostics if d.severity == "error"]
    assert "hand_sise" in d.message and d.loc.file.endswith("not-saved-yet.yaml") and d.loc.line == 5


def test_completion_knows_where_it_is(f5):
    def offered(text: str, scenario: bool = False) -> set[str]:
        lines = text.split("\n")
        found, (start, end) = complete(f5, lines, len(lines) - 1, len(lines[-1]), scenario)
        assert start <= len(lines[-1]) == end or start <= end
        return {k.name for k in found}
    in_rule = offered('    value: "1 + si')
    assert "size" in in_rule and "if" in in_rule
    card = f5.cards[next(iter(f5.cards))]
    assert card.name in offered('    value: "top(\'') and card.name not in in_rule   # after a quote
    assert offered("  do: |\n    for s in seats:\n      x") == in_rule   # deep in a block
    assert offered("  hand_si") == set()                                 # a key: the schema's
    assert "setup" in offered("  - extend: ") and "functions.NAME" not in offered("  - extend: ")
    assert offered("modules: [", scenario=True) == set(f5.options["modules"])
    assert offered("variants:\n  - ", scenario=True) == set(f5.options["variants"])
    assert offered("params:\n  ", scenario=True) == set(f5.options["params"]) != set()
    attributes = offered("  do: |\n    x = s.nu")
    assert "number" in attributes and "size" not in attributes


def test_a_name_is_found_under_the_cursor_with_its_declaration(f5):
    param = next(k for k in f5.names.values() if k.what == "param")
    line = f"    value: 'x + {param.name}'"
    found = known_at(f5, line, line.index(param.name) + 1)
    assert found is not None and found[0] is param and param.loc is not None and param.loc.line
    assert param.detail.startswith(f"{param.name} = ")
    assert known_at(f5, "    value: 'size(x)'", 6) is None      # `value` is a key, not a name
    assert known_at(basics(), "top(x)", 1)[0].detail == "top(pile) -> card"


def test_values_are_shown_as_yaml_and_places_counted_from_zero():
    assert shown([True, None, "a", 3, {"k": [1]}]) == '[true, none, "a", 3, {k: [1]}]'
    assert span_of(2, 3, ["", "  name(x)"]) == (1, 2, 1, 6)
    assert span_of(0, 0, ["x"]) == (0, 0, 0, 1)
    assert span_of(9, 9, ["x"]) == (8, 0, 8, 0)                 # past the end: nothing to underline
    assert word_at("a functions.x b", 8, dotted=True) == (2, 13)
    assert in_block(["  do: |", "    if x:", "      y"], 2) and not in_block(["a:", "  b: c"], 1)


def test_the_outline_lists_a_files_declarations_and_patches():
    text = "game:\n  id: g\nfunctions:\n  f:\n    value: '1'\nphases:\n  - id: p\n    steps:\n      - id: s\n"
    entries = outline(text, "g.yaml")
    assert [e.name for e in entries] == ["game", "functions", "phases"]
    assert [c.name for c in entries[1].children] == ["f"] and entries[1].children[0].children == []
    phase = entries[2].children[0]
    assert (phase.name, [s.name for s in phase.children], phase.last) == ("p", ["s"], 10)
    patches = outline("patches:\n  - add: functions\n    id: f\n  - extend: setup\n", "m.yaml")
    assert [c.name for c in patches[0].children] == ["add functions f", "extend setup"]
    assert outline("a: [\n", "x.yaml") is None and outline("- 1\n", "x.yaml") is None
    assert Known("x", "param", "x = 1").loc is None


def test_lsp_without_its_extra_says_how_to_install_it(monkeypatch, capsys):
    import sys

    from interpreter.cli import main

    monkeypatch.delitem(sys.modules, "interpreter.editor.server", raising=False)
    monkeypatch.setitem(sys.modules, "pygls", None)   # (as if it were not installed)
    monkeypatch.setitem(sys.modules, "pygls.lsp", None)
    monkeypatch.setitem(sys.modules, "pygls.lsp.server", None)
    assert main(["lsp"]) == 1
    err = capsys.readouterr().err
    assert "needs pygls and lsprotocol" in err and "[editor]" in err and "Traceback" not in err


def test_a_scenario_is_checked_as_check_runs_it_and_knows_its_games_names():
    path = F5 / "scenarios" / "automaton-draws-and-plays.yaml"
    text = path.read_text(encoding="utf-8")
    wrong = text.replace("set_order(grid", "set_ordre(grid", 1)
    out = check_file(path, {path: wrong})
    assert [(d.code, d.loc.line if d.loc else 0) for d in out.diagnostics if d.severity == "error"] == \
        [("E110", wrong[:wrong.index("set_ordre")].count("\n") + 1)]
    assert out.ruleset is not None and "grid" in know(out.ruleset).names


def test_a_declarations_rulebook_quote_is_its_own_comment_and_the_comment_lines_above_it():
    lines = (ROOT / "rulesets" / "heat" / "game.yaml").read_text(encoding="utf-8").split("\n")
    row = next(i for i, line in enumerate(lines) if line.startswith("  hand_size:"))
    assert quoted(lines, row) == '"Возьмите на руку 7 карт"'
    row = next(i for i, line in enumerate(lines) if line.startswith("  spin_stress_by_gear:"))
    said = quoted(lines, row)
    assert said is not None and said.startswith('a spin-out: "Возьмите на руку 1 карту стресса') \
        and said.endswith('если на 3-й или 4-й"')
    row = next(i for i, line in enumerate(lines) if line.startswith("  speed: {of: piece}"))
    assert quoted(lines, row) is None   # a comment that quotes nothing


def test_references_skip_comments_and_texts_a_rule_writes_but_not_a_labels_names():
    from interpreter.editor.server import _words

    def counted(line: str, word: str = "hand_size") -> list[bool]:
        marks = _words(line)
        return [marks[i] for i in range(len(line)) if line.startswith(word, i)]
    assert counted('  value: "size(hand(s)) + hand_size"   # hand_size here') == [True, False]
    assert counted('      say "{car.name} takes hand_size {hand_size}"') == [False, True]
    assert counted('  hand_size: 7   # "hand_size"') == [True, False]
    assert counted("  value: 'if hand_size > 2 then \"hand_size\" else \"none\"'") == [True, False]
