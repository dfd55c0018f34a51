"""`racecraft validate` reports every kind of bad input as a compiler-style diagnostic.

Each test copies the formula5 ruleset and its cards into a temporary project
(tmp/rulesets/formula5, tmp/cards/formula5), breaks one thing, runs the CLI in-process and
checks stderr: `path:line:col: error[CODE]: message`, the offending line with a caret under
the column, the hint, exit code 1 and no Python traceback. Usage errors exit 2.

Expected lines and columns are computed from the text of the broken file (`find`), never
from the tool's output, so a diagnostic placed one character off fails the test.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from interpreter.cli import main

ROOT = Path(__file__).resolve().parents[1]


# ---- helpers ------------------------------------------------------------------------------

@dataclass
class Diag:
    file: str | None
    line: int | None
    col: int | None
    code: str
    message: str
    source: str | None = None  # the offending line as shown
    caret: int | None = None   # 1-based column of the caret under it
    hint: str | None = None


_HEAD = re.compile(r"^(?:(?P<where>.+?): )?(?P<sev>error|warning)\[(?P<code>E\d+)\]: (?P<msg>.*)$")
_SRC = re.compile(r"^ *(?P<num>\d+) \| (?P<text>.*)$")
_CARET = re.compile(r"^ *\| (?P<pad> *)\^$")


def parse(stderr: str) -> list[Diag]:
    """The diagnostics printed on stderr, in order."""
    out: list[Diag] = []
    for raw in stderr.splitlines():
        head = _HEAD.match(raw)
        if head:
            where = head["where"]
            m = re.fullmatch(r"(.*):(\d+):(\d+)", where or "")
            if m:
                file, line, col = m[1], int(m[2]), int(m[3])
            else:
                file, line, col = where, None, None
            out.append(Diag(file, line, col, head["code"], head["msg"]))
            continue
        if not out:
            continue
        if (src := _SRC.match(raw)) and out[-1].source is None:
            out[-1].source = src["text"]
        elif caret := _CARET.match(raw):
            out[-1].caret = len(caret["pad"]) + 1
        elif raw.startswith("  = hint: "):
            out[-1].hint = raw[len("  = hint: "):]
    return out


def run(capsys, *argv) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out, err


def validate(capsys, path) -> tuple[int, str, str]:
    return run(capsys, "validate", path)


def find(path: Path, needle: str, nth: int = 1, offset: int = 0) -> tuple[int, int]:
    """1-based (line, col) of the `nth` occurrence of `needle` in the file, plus `offset` columns."""
    text = path.read_text(encoding="utf-8")
    at = -1
    for _ in range(nth):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at) + 1
    col = at - (text.rfind("\n", 0, at) + 1) + 1
    return line, col + offset


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} must occur once in {path.name}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def expect_one(capsys, target: Path, file: Path, at: tuple[int, int] | None, code: str,
               *words: str, hint: str | None = None) -> Diag:
    """Validate `target`: exit 1 and exactly one diagnostic, in `file` at `at`, with `code`."""
    rc, out, err = validate(capsys, target)
    assert (rc, out) == (1, ""), err
    diags = parse(err)
    assert len(diags) == 1, err
    d = diags[0]
    assert (d.file, d.code) == (str(file), code), err
    assert err.rstrip().endswith("\n1 error"), err
    if at is None:
        assert d.line is None, err
    else:
        assert (d.line, d.col) == at, err
        # the offending line, with the caret under the column
        lines = file.read_text(encoding="utf-8", errors="replace").splitlines()
        assert d.source == lines[at[0] - 1].replace("\t", " "), err
        assert d.caret == at[1], err
    for w in words:
        assert w in d.message, err
    if hint is not None:
        assert d.hint is not None and hint in d.hint, err
    return d


@pytest.fixture
def project(tmp_path) -> Path:
    shutil.copytree(ROOT / "rulesets" / "formula5", tmp_path / "rulesets" / "formula5")
    shutil.copytree(ROOT / "cards" / "formula5", tmp_path / "cards" / "formula5")
    return tmp_path


def quick(project: Path, keep_variants: bool = True) -> None:
    """Compile for two players only (not 2-5), and maybe drop the variants: a faster `validate`
    for tests about something that does not depend on the player count or the variants."""
    edit(project / "rulesets" / "formula5" / "game.yaml", "players: {min: 2, max: 5}",
         "players: {min: 2, max: 2}")
    if not keep_variants:
        shutil.rmtree(project / "rulesets" / "formula5" / "variants")


@pytest.fixture
def game(project) -> Path:
    return project / "rulesets" / "formula5" / "game.yaml"


@pytest.fixture
def cards(project) -> Path:
    return project / "cards" / "formula5" / "cards.yaml"


@pytest.fixture
def variants(project) -> Path:
    return project / "rulesets" / "formula5" / "variants"


@pytest.fixture
def scenario(project) -> Path:
    return project / "rulesets" / "formula5" / "scenarios" / "empty-hand-sits-out.yaml"


# ---- the helpers themselves ---------------------------------------------------------------

def test_parse_reads_every_part_of_a_diagnostic():
    err = ("/a/b.yaml:12:7: error[E110]: unknown name `x`\n"
           "   |\n12 |       let y = x\n   |       ^\n  = hint: did you mean `y`?\n\n"
           "/a/c.yaml: error[E005]: file is empty\n\n2 errors\n")
    first, second = parse(err)
    assert first == Diag("/a/b.yaml", 12, 7, "E110", "unknown name `x`", "      let y = x", 7,
                         "did you mean `y`?")
    assert second == Diag("/a/c.yaml", None, None, "E005", "file is empty")


# ---- 1. YAML syntax -----------------------------------------------------------------------

def test_yaml_mapping_value_in_plain_text(capsys, game):
    edit(game, "  name: Formula 5\n", "  name: Formula 5: the game\n")
    expect_one(capsys, game, game, find(game, ": the game"), "E010", "YAML syntax error",
               "mapping values are not allowed", hint="must be quoted")


def test_yaml_key_without_colon_points_at_the_key(capsys, game):
    edit(game, "    turn: car\n", "    turn car\n")
    expect_one(capsys, game, game, find(game, "turn car"), "E010", "could not find expected ':'",
               hint="`key: value`")


def test_yaml_unclosed_flow_list(capsys, game):
    edit(game, "  hand_size: 12\n", "  hand_size: [12\n")
    opened = find(game, "[12")
    # noticed at the next key; the hint names where the list was opened
    expect_one(capsys, game, game, find(game, "pit_cards_by_position"), "E010",
               "did not find expected ',' or ']'",
               hint=f"opened at line {opened[0]}, column {opened[1]}")


def test_yaml_unclosed_quote_points_at_the_opening_quote(capsys, game):
    # noticed only at the end of the file; the quote that was never closed is the problem
    game.write_text('game:\n  id: formula5\n  name: "Formula 5\n  players: {min: 2, max: 5}\n')
    expect_one(capsys, game, game, (3, 9), "E010", "a quoted string is not closed",
               hint="end it with the same quote")


def test_yaml_a_control_character_is_said_at_its_line_and_column(capsys, game):
    # (YAML said where only as a position in the text: `position 3530`)
    edit(game, "  name: Formula 5\n", "  name: Formula\x075\n")
    at = find(game, "\x075")
    rc, out, err = validate(capsys, game)
    diags = parse(err)
    assert rc == 1 and len(diags) == 1 and diags[0].code == "E010", err
    assert (diags[0].line, diags[0].col) == at and "the character 0x0007" in diags[0].message, err
    # (the line is shown with the character escaped, the caret under it)
    assert diags[0].source == "  name: Formula\\x075" and diags[0].caret == at[1], err
    assert diags[0].hint is not None and "write it as an escape" in diags[0].hint, err


def test_a_type_error_in_a_params_value_names_where_the_param_is_written(capsys, project, game):
    # the rule that reads it is where the type error is found; the param's line is the other place
    quick(project, keep_variants=False)
    edit(game, "  hand_size: 12\n", "  hand_size: twelve\n")
    rc, _out, err = validate(capsys, game)
    line, col = find(game, "hand_size: twelve")
    assert rc == 1 and "error[E120]" in err, err
    assert f"= note: `hand_size` is the param written here: {game}:{line}:{col}" in err, err


def test_yaml_tab_indentation(capsys, game):
    edit(game, "  hand_size: 12\n", "\thand_size: 12\n")
    expect_one(capsys, game, game, find(game, "\thand_size"), "E010", "YAML syntax error",
               hint="indent with spaces, not tabs")


def test_yaml_a_key_indented_deeper_than_the_one_above_says_so(capsys, game):
    # YAML says "did not find expected key": the hint says which line and how far to indent
    edit(game, "  pit_cards_by_position:", "   pit_cards_by_position:")
    line = find(game, "   pit_cards_by_position")[0]
    expect_one(capsys, game, game, (line, 4), "E010", "did not find expected key",
               hint=f"line {line} is indented more than line {line - 2} above it, which holds its own value: "
                    "indent it 2 spaces, as that line")


def test_yaml_a_key_that_continues_the_value_above_says_how_to_indent_it(capsys, game):
    # read as more words of `12`, then a second `: `: YAML says "mapping values are not allowed"
    edit(game, "  hand_size: 12\n", "  hand_size: 12\n    hand_limit: 7\n")
    line = find(game, "    hand_limit")[0]
    expect_one(capsys, game, game, (line, 15), "E010", "mapping values are not allowed",
               hint=f"line {line} is indented more than line {line - 1} above it, which holds its own value: "
                    "indent it 2 spaces, as that line")


def test_yaml_a_key_indented_between_two_blocks_says_so(capsys, game):
    # YAML says "did not find expected key": the indentations the line could line up with
    edit(game, "  pit_cards_by_position:", " pit_cards_by_position:")
    line = find(game, " pit_cards_by_position")[0]
    expect_one(capsys, game, game, (line, 2), "E010", "did not find expected key",
               hint=f"line {line} is indented 1 space, which lines it up with no key above it (they are "
                    "indented 0, 2)")


def test_yaml_tab_on_its_own_line(capsys, game):
    edit(game, "      - id: automaton_plays\n", "      - id: automaton_plays\n\t\n")
    expect_one(capsys, game, game, find(game, "\t\n"), "E010", "tab", hint="spaces, not tabs")


def test_yaml_duplicate_key(capsys, game):
    edit(game, "    turn: car\n", "    turn: car\n    turn: seat\n")
    expect_one(capsys, game, game, find(game, "turn: seat"), "E015", "duplicate key `turn`")


def test_yaml_merge_key_refused(capsys, game):
    edit(game, "game:\n", "game:\n  <<: {rulebook: x}\n")
    expect_one(capsys, game, game, find(game, "<<"), "E011", "merge keys")


# ---- 2. empty, binary, not UTF-8, too large ---------------------------------------------------

def test_empty_file(capsys, game):
    game.write_text("")
    expect_one(capsys, game, game, None, "E005", "file is empty")


def test_file_of_comments_and_blank_lines_is_empty(capsys, game):
    game.write_text("# nothing yet\n\n   \n")
    expect_one(capsys, game, game, None, "E005", "file is empty")


def test_binary_file(capsys, game):
    game.write_bytes(b"game:\n  id: formula5\x00\x01\x02\n")
    expect_one(capsys, game, game, None, "E003", "binary", hint="UTF-8 YAML")


def test_not_utf8_points_at_the_bad_byte(capsys, game):
    # Latin-1 text: `ó` is one byte there; an `é` before it counts as one column, not two bytes
    game.write_bytes("game:\n  id: formula5\n  name: Formé ".encode() + b"F\xf3rmula 5\n")
    d = expect_one(capsys, game, game, (3, 16), "E004", "not valid UTF-8", "0xf3",
                   hint="save the file as UTF-8")
    assert d.source.startswith("  name: Formé F")


def test_too_large_file(capsys, game):
    game.write_text("game:\n" + "# padding\n" * 250_000)
    expect_one(capsys, game, game, None, "E002", "too large")


# ---- 3. structure: unknown keys, wrong types, values ------------------------------------------

def test_unknown_key_points_at_the_key_with_did_you_mean(capsys, game):
    edit(game, "    steps:\n", "    stpes:\n")
    expect_one(capsys, game, game, find(game, "stpes"), "E021", "unknown key `stpes`",
               hint="did you mean `steps`?")


def test_unknown_key_in_a_flow_mapping(capsys, game):
    edit(game, "players: {min: 2, max: 5}", "players: {min: 2, max: 5, mix: 3}")
    expect_one(capsys, game, game, find(game, "mix"), "E021", "unknown key `mix`", "game.players",
               hint="did you mean `min` or `max`?")


def test_wrong_type_points_at_the_value(capsys, game):
    edit(game, "slots: 5}", "slots: five}")
    expect_one(capsys, game, game, find(game, "five"), "E023", "wrong type", "boards.grid.slots",
               "a whole number")


def test_unknown_enum_value_lists_the_allowed(capsys, game):
    edit(game, "discard: {visible: all}", "discard: {visible: everybody}")
    expect_one(capsys, game, game, find(game, "everybody"), "E024",
               "`everybody` is not allowed for `piles.discard.visible`",
               hint="one of: all, owner, nobody, top")


def test_misspelt_enum_value_did_you_mean(capsys, game):
    edit(game, "discard: {visible: all}", "discard: {visible: owners}")
    expect_one(capsys, game, game, find(game, "owners"), "E024", hint="did you mean `owner`?")


def test_value_below_the_minimum_of_an_optional_number(capsys, game):
    # `rounds: int | None` given 0: the number is of the right type, too small
    edit(game, "    turn: car\n", "    turn: car\n    rounds: 0\n")
    expect_one(capsys, game, game, find(game, "rounds"), "E026", "phases.race.rounds",
               "less than the minimum of 1")


def test_bad_name_in_an_optional_field(capsys, game):
    edit(game, "refill_from: discard}", "refill_from: dis card}")
    expect_one(capsys, game, game, find(game, "dis card"), "E025", "`dis card` is not a valid name",
               hint="names start with a letter")


def test_missing_key_points_at_its_mapping(capsys, game):
    text = game.read_text()
    start = text.index("result:\n")
    rank = text.index("  rank:", start)
    game.write_text(text[:rank] + text[text.index("\n", rank) + 1:])
    expect_one(capsys, game, game, find(game, "result:"), "E022", "missing key `rank` in result")


def test_key_that_is_not_a_name(capsys, game):
    edit(game, "  hand_size: 12\n", "  hand size: 12\n")
    expect_one(capsys, game, game, find(game, "hand size"), "E025",
               "`hand size` is not a valid name for `params`",
               hint="names start with a letter")


def test_misspelt_board_kind(capsys, game):
    edit(game, "grid: {kind: ranking,", "grid: {kind: rankin,")
    expect_one(capsys, game, game, find(game, "rankin,"), "E024",
               "`rankin` is not allowed for `boards.grid.kind`",
               hint="did you mean `ranking`?")


def test_board_without_a_kind(capsys, game):
    edit(game, "grid: {kind: ranking, slots: 5}", "grid: {slots: 5}")
    expect_one(capsys, game, game, find(game, "grid:"), "E022", "missing key `kind` in boards.grid")


def test_players_min_above_max_points_at_players(capsys, game):
    edit(game, "players: {min: 2, max: 5}", "players: {min: 6, max: 5}")
    expect_one(capsys, game, game, find(game, "players:"), "E140", "min 6 is more than max 5")


# ---- 4. DSL syntax, positioned in the YAML file ---------------------------------------------

def test_dsl_syntax_error_in_a_do_block(capsys, game):
    edit(game, "draw 1 from deck to column(slot_of(car)) face up\n",
         "draw 1 from deck to column(slot_of(car)) face sideways\n")
    expect_one(capsys, game, game, find(game, "sideways"), "E101",
               "syntax error in rule: unexpected `sideways`", hint="expected `up` or `down`")


def test_dsl_extra_parenthesis(capsys, game):
    edit(game, "let ahead = at(grid, slot_of(car) - 1)\n", "let ahead = at(grid, slot_of(car) - 1))\n")
    expect_one(capsys, game, game, find(game, "))\n", offset=1), "E101", "unexpected `)`",
               hint="expected end of line")


def test_dsl_block_header_without_colon(capsys, game):
    edit(game, "      if slot_of(car) > 1 and s > 0:\n", "      if slot_of(car) > 1 and s > 0\n")
    line, col = find(game, "s > 0\n", offset=len("s > 0"))
    expect_one(capsys, game, game, (line, col), "E101", "unexpected end of line", hint="ends with `:`")


def test_dsl_a_name_where_no_name_goes_says_where_as_goes(capsys, game):
    edit(game, "      for i in slots(grid):\n", "      for i in slots(grid) as each:\n")
    expect_one(capsys, game, game, find(game, "as each"), "E101", "unexpected `as`",
               hint="names an `option` right after its text")


def test_dsl_an_elif_in_a_value_says_how_to_write_it(capsys, game):
    """A value's `if ... then ... else` has no `elif`: said with the nested form (the hint listed
    `+=` or `-=` among what it expected)."""
    edit(game, "value: 'if car.pitted then 0 else column_speed(slot_of(car))'",
         "value: 'if car.pitted then 0 elif slot_of(car) == 1 then 1 else column_speed(slot_of(car))'")
    expect_one(capsys, game, game, find(game, "elif slot_of"), "E101", "unexpected `elif`",
               hint="write `if a then x else (if b then y else z)`")


def test_a_name_declared_twice_is_said_once_not_at_each_use(capsys, game):
    # a die and a state variable of one name: the second declaration is the mistake, and the rules
    # that use the name (as either) are not told a type error or an unknown name besides
    edit(game, "\nstate:\n", "\ndice:\n  wind: [1, 2, 3]\n\nstate:\n  wind: {type: int}\n")
    edit(game, "setup: |\n", "setup: |\n  wind = roll(wind) + 1\n  say \"{wind - 1}\"\n")
    expect_one(capsys, game, game, find(game, "wind: {type"), "E118", "`wind` names a die already")


def test_dsl_bad_dedent_points_at_the_line(capsys, game):
    edit(game, "          elif s > speed(ahead):", "            elif s > speed(ahead):")
    expect_one(capsys, game, game, find(game, "elif"), "E101", "indentation matches no enclosing block",
               hint="indent the lines of a block consistently")


def test_dsl_unexpected_indent_points_at_the_line(capsys, game):
    edit(game, "      let n = 0\n", "      let n = 0\n         n += 1\n")
    expect_one(capsys, game, game, find(game, "n += 1", nth=1), "E101", "unexpected indentation",
               hint="by the same amount")


def test_dsl_tab_inside_a_block_counts_as_one_column(capsys, game):
    edit(game, "      let n = 0\n", "      let n = 0\n      \tn += 1\n")
    expect_one(capsys, game, game, find(game, "\tn += 1", offset=1), "E101", "unexpected indentation")


def test_dsl_misspelt_keyword(capsys, game):
    edit(game, "'if car.pitted then 0 else column_speed(slot_of(car))'",
         "'if car.pitted then 0 els column_speed(slot_of(car))'")
    expect_one(capsys, game, game, find(game, "els "), "E101", "unexpected `els`",
               hint="did you mean `else`?")


def test_dsl_error_in_single_line_double_quoted_if(capsys, game):
    edit(game, 'if: "car.owner == none"', 'if: "car.owner === none"')
    expect_one(capsys, game, game, find(game, "===", offset=2), "E101", "unexpected `=`")


def test_dsl_single_quote_in_a_rule(capsys, game):
    edit(game, 'if: "car.owner == none"', "if: \"car.owner == 'x'\"")
    expect_one(capsys, game, game, find(game, "'x'"), "E101", "unexpected character `'`",
               hint='double quotes: "like this"')


def test_dsl_a_quoted_text_inside_braces_ends_the_string(capsys, game):
    edit(game, 'changes {cards_word(n)}: speed 0', 'changes {cards_word(n)} {"x"}: speed 0')
    expect_one(capsys, game, game, find(game, 'x"}'), "E101", "unexpected `x`",
               hint='written with \\"')


def test_dsl_a_text_inside_braces_holds_a_template_of_its_own(capsys, project, game):
    """`"{power(\\"{c}\\")}"`: the text given to the call is itself a template (and may hold a `}`)."""
    edit(game, 'changes {cards_word(n)}: speed 0', 'changes {cards_word(size(\\"{n}\\"))}: speed 0')
    expect_one(capsys, game, game, find(game, '\\"{n}'), "E120", "what `size` counts must be a list")
    edit(game, 'changes {cards_word(size(\\"{n}\\"))}: speed 0', 'changes {cards_word(n)}: speed 0')
    scenario = game.parent / "scenarios" / "nested.yaml"
    expect = """'"{piece(\\"{cars[2].name}\\").name} {\\"}\\"}" == "blue }"'"""
    scenario.write_text("scenario: {name: nested, source: a test}\nruleset: ..\nplayers: 2\n"
                        f"expect:\n  - {expect}\n", encoding="utf-8")
    rc, out, err = run(capsys, "check", scenario)
    assert rc == 0 and "1 passed" in out, out + err
    scenario.write_text(scenario.read_text(encoding="utf-8").replace('"blue }"', '"red }"'), encoding="utf-8")
    rc, out, err = run(capsys, "check", scenario)
    assert rc == 1 and "E401" in out + err, out + err


def test_dsl_error_after_escapes_in_a_double_quoted_string(capsys, game):
    edit(game, 'if: "car.owner == none"', r'if: "car.name == \"white\" and car.owner == none or )"')
    expect_one(capsys, game, game, find(game, "or )", offset=3), "E101", "unexpected `)`")


def test_dsl_error_after_doubled_quote_in_a_single_quoted_string(capsys, game):
    edit(game, 'if: "car.owner == none"', "if: 'car.name == \"it''s\" and car.owner == none or )'")
    expect_one(capsys, game, game, find(game, "or )", offset=3), "E101", "unexpected `)`")


@pytest.mark.parametrize("style", ['"', "", ">\n          "])
def test_dsl_error_on_the_second_line_of_a_folded_string(capsys, game, style):
    # a double-quoted or plain string over two lines, or a `>` block: folded into one line
    close = '"' if style == '"' else ""
    edit(game, 'if: "car.owner == none"', f"if: {style}car.owner == none\n          and true or ){close}")
    expect_one(capsys, game, game, find(game, "or )", offset=3), "E101", "unexpected `)`")


def test_dsl_error_in_a_plain_one_line_string(capsys, game):
    edit(game, 'if: "car.owner == none"', "if: car.owner == none or )")
    expect_one(capsys, game, game, find(game, "or )", offset=3), "E101", "unexpected `)`")


def test_dsl_comment_at_the_end_of_an_expression_is_fine(capsys, project, game):
    quick(project, keep_variants=False)
    edit(game, 'until: "all([size(hand(s)) == 0 for s in seats])"',
         'until: "all([size(hand(s)) == 0 for s in seats])  # every hand empty"')
    rc, out, err = validate(capsys, game)
    assert (rc, err) == (0, ""), err
    assert "formula5 (Formula 5): ok" in out


@pytest.mark.parametrize("rule", [
    " and true" * 120,                               # a long chain of `and`
    "[" * 120 + "]" * 120,                           # lists in lists
], ids=["and-chain", "nested-lists"])
def test_dsl_absurd_nesting_is_refused(capsys, game, rule):
    # (deeper rules overflowed Python's stack in the compiler: a RecursionError traceback)
    if rule.startswith(" and"):
        edit(game, 'if: "car.owner == none"', f'if: "car.owner == none{rule}"')
        line, start = find(game, '"car.owner == none and', offset=1)
    else:
        edit(game, "      let n = 0\n", f"      let n = size({rule})\n")
        line, start = find(game, "let n = size(")
    end = start + len(rule)
    rc, out, err = validate(capsys, game)
    assert (rc, out) == (1, "")
    (d,) = parse(err)
    assert (d.file, d.line, d.code) == (str(game), line, "E103"), err
    assert start <= d.col <= end and d.caret == d.col, err
    assert d.message == "rule is nested too deeply"
    assert "split it" in d.hint


def test_dsl_deep_but_reasonable_nesting_is_accepted(capsys, project, game):
    quick(project, keep_variants=False)
    body = "".join("      " + "    " * i + "if true:\n" for i in range(30))
    edit(game, "      let n = 0\n", "      let n = 0\n" + body + "      " + "    " * 30 + "n += 0\n")
    rc, out, err = validate(capsys, game)
    assert (rc, err) == (0, ""), err
    assert "formula5 (Formula 5): ok" in out


# ---- 5. unknown names, attributes, functions, procedures ----------------------------------

def test_unknown_function_did_you_mean(capsys, game):
    edit(game, "      draw n from deck to hand(car.owner)\n", "      draw n from deck to hnad(car.owner)\n")
    expect_one(capsys, game, game, find(game, "hnad"), "E110", "unknown function `hnad`",
               hint="did you mean `hand`?")


def test_a_lane_function_on_a_board_of_another_kind(capsys, game):
    edit(game, 'if: "car.owner == none"', 'if: "car.owner == none and finish_at(grid) > 0"')
    expect_one(capsys, game, game, find(game, "grid) > 0"), "E150",
               "board `grid` is a ranking, not a lane track")


def test_an_unknown_name_in_a_list_moved_is_reported_once(capsys, game):
    edit(game, "                  move c to discard\n", "                  move [c, nothere] to discard\n")
    expect_one(capsys, game, game, find(game, "nothere"), "E110", "unknown name `nothere`")


def test_unknown_function_in_a_quoted_if(capsys, game):
    edit(game, 'if: "car.owner == none"', 'if: "size(hnad(car.owner)) == 0"')
    expect_one(capsys, game, game, find(game, "hnad"), "E110", "unknown function `hnad`",
               hint="did you mean `hand`?")


def test_the_same_rule_text_twice_reports_both_places(capsys, game):
    edit(game, 'if: "car.owner == none"', 'if: "size(hnad(car.owner)) == 0"')
    edit(game, 'if: "car.owner != none and size(hand(car.owner)) > 0"', 'if: "size(hnad(car.owner)) == 0"')
    rc, out, err = validate(capsys, game)
    assert (rc, out) == (1, "")
    diags = parse(err)
    assert [(d.code, d.line, d.col) for d in diags] == [
        ("E110", *find(game, "hnad")), ("E110", *find(game, "hnad", nth=2))], err


def test_unknown_name_did_you_mean(capsys, game):
    edit(game, "draw hand_size - pits", "draw hand_sise - pits")
    expect_one(capsys, game, game, find(game, "hand_sise"), "E110", "unknown name `hand_sise`",
               hint="`hand_size`")


def test_unknown_attribute_did_you_mean(capsys, game):
    edit(game, 'and c.colour == colour])', 'and c.color == colour])')
    # the position is that of the attribute expression, `c.color`
    expect_one(capsys, game, game, find(game, "c.color"), "E110", "a card has no `color`",
               hint="did you mean `colour`?")


def test_unknown_attribute_inside_a_string_template(capsys, game):
    edit(game, 'option "play {c.colour}"', 'option "play {c.colr}"')
    expect_one(capsys, game, game, find(game, "c.colr"), "E110", "a card has no `colr`",
               hint="did you mean `colour`?")


def test_unknown_procedure_did_you_mean(capsys, game):
    edit(game, "              overtake(car)\n          else:",
         "              overtak(car)\n          else:")
    expect_one(capsys, game, game, find(game, "overtak(car)"), "E110", "unknown procedure `overtak`",
               hint="did you mean `overtake`?")


def test_wrong_number_of_arguments(capsys, game):
    edit(game, "              overtake(car)\n          else:",
         "              overtake(car, 1)\n          else:")
    expect_one(capsys, game, game, find(game, "overtake(car, 1)"), "E124",
               "`overtake` takes 1 argument(s), got 2", hint="overtake(car: piece)")


def test_a_word_of_the_language_declared_as_a_name_is_said_once_at_the_declaration(capsys, project, game):
    """A state variable `move`, a function `draw`, parameters `from` and `to`: each is one error
    where it is declared, with a hint to rename it; the uses the parser reads as names say nothing
    more (not "a piece has no state `move`", nor that `steps` takes fewer arguments)."""
    quick(project, keep_variants=False)
    edit(game, "  pitted: {of: piece, type: bool}",
         "  pitted: {of: piece, type: bool}\n  move: {of: piece, type: int}")
    edit(game, "  cards_word:\n", "  draw:\n    params: {}\n    value: '3'\n  steps:\n"
                                 "    params: {from: int, to: int}\n    value: 'to - from'\n  cards_word:\n")
    edit(game, "      car.pitted = true\n",
         "      car.pitted = true\n      car.move = steps(1, 2) + draw()\n"
         "      say \"{car.move} {steps(3, 4)}\"\n")
    rc, out, err = validate(capsys, game)
    diags = parse(err)
    assert rc == 1 and [d.code for d in diags] == ["E119"] * 4, err
    assert [(d.line, d.col) for d in diags] == [find(game, "move: {of"), find(game, "draw:\n"),
                                                 find(game, "from: int"), find(game, "to: int")], err
    assert "`move` is a word of the language: it cannot be the name of a state variable of a piece" \
        in diags[0].message
    assert all(d.hint == "rename it, here and where the rules use it" for d in diags), err


def test_a_word_of_the_language_the_parser_cannot_read_as_a_name_names_its_declaration(capsys, game):
    edit(game, "  pitted: {of: piece, type: bool}",
         "  pitted: {of: piece, type: bool}\n  shuffle: {type: int}")
    edit(game, "      car.pitted = true\n", "      car.pitted = true\n      shuffle += 1\n")
    line, _ = find(game, "shuffle: {type")
    expect_one(capsys, game, game, find(game, "shuffle += 1"), "E101",
               f"`shuffle` is a word of the language (declared at {game}:{line} as a state variable): "
               "rename it",
               hint="rename it where it is declared and where the rules use it")


def test_unknown_parameter_type(capsys, game):
    edit(game, "  lead_colour:\n    params: {slot: int}", "  lead_colour:\n    params: {slot: integer}")
    expect_one(capsys, game, game, find(game, "integer"), "E111", "unknown type `integer`",
               hint="did you mean `int`?")


def test_trigger_on_an_event_nobody_emits(capsys, game):
    edit(game, "    on: round_end", "    on: rund_end")
    expect_one(capsys, game, game, find(game, "rund_end"), "E131", "`rund_end`, which no rule emits",
               hint="`round_end`")


# ---- 6. types ------------------------------------------------------------------------------

def test_type_error_size_of_a_number(capsys, game):
    edit(game, "      let n = 0\n", "      let n = size(3)\n")
    expect_one(capsys, game, game, find(game, "size(3)", offset=5), "E120", "type error",
               "what `size` counts must be a list or a pile, not int")


def test_type_error_text_plus_number(capsys, game):
    edit(game, "      let n = 0\n", '      let n = "a" + 1\n')
    expect_one(capsys, game, game, find(game, '"a" + 1'), "E120", "`+` works on ints, not text and int")


def test_type_error_if_on_a_number(capsys, game):
    edit(game, "      if slot_of(car) > 1 and s > 0:\n", "      if 3:\n")
    expect_one(capsys, game, game, find(game, "if 3:", offset=3), "E120",
               "condition must be true or false (bool), but this is int")


def test_type_error_step_condition(capsys, game):
    edit(game, 'if: "car.owner == none"', 'if: "3"')
    expect_one(capsys, game, game, find(game, '"3"', offset=1), "E120", "a step's `if` must be bool")


def test_state_initial_value_of_the_wrong_type(capsys, game):
    edit(game, "pitted: {of: piece, type: bool}", "pitted: {of: piece, type: bool, initial: 3}")
    expect_one(capsys, game, game, find(game, "pitted:"), "E117", "state `pitted` is bool but starts as 3")


def test_assigning_round_is_refused(capsys, game):
    edit(game, "      let n = 0\n", "      let n = 0\n      round = 2\n")
    expect_one(capsys, game, game, find(game, "round = 2"), "E126", "`round` is counted by the game")


# ---- 7. references to things that do not exist ---------------------------------------------

def test_cards_start_in_a_missing_pile(capsys, project, cards):
    edit(cards, "starts_in: pit_stack}", "starts_in: pitstack}")
    expect_one(capsys, project / "rulesets" / "formula5", cards, find(cards, "pitstack"), "E116",
               "cards `pit_stop` start in `pitstack`, which is not a pile", hint="did you mean `pit_stack`?")


def test_pile_refills_from_a_missing_pile(capsys, game):
    edit(game, "refill_from: discard}", "refill_from: discrad}")
    expect_one(capsys, game, game, find(game, "discrad"), "E113",
               "refills from `discrad`, which is not a pile",
               hint="did you mean `discard`?")


def test_phase_that_never_ends_statically(capsys, game):
    edit(game, '    until: "all([size(hand(s)) == 0 for s in seats])"\n', "")
    expect_one(capsys, game, game, find(game, "- id: race", offset=6), "E138", "phase `race` never ends")


def _bad_variant(variants: Path, patch: str) -> Path:
    path = variants / "bad.yaml"
    path.write_text("variant:\n  id: bad\n  name: Bad\n  description: aims at nothing\n"
                    f"patches:\n{patch}", encoding="utf-8")
    return path


def test_variant_patch_aimed_at_a_missing_step(capsys, project, variants):
    quick(project)
    bad = _bad_variant(variants, "  - update: steps.player_play\n    with:\n      if: \"true\"\n")
    expect_one(capsys, bad, bad, find(bad, "steps.player_play"), "E042",
               "patch aims at step `player_play`, which does not exist", hint="did you mean `player_plays`?")


def test_variant_update_of_a_missing_phase(capsys, project, variants):
    quick(project)
    bad = _bad_variant(variants, "  - update: phases.nosuch\n    with:\n      until: \"true\"\n")
    expect_one(capsys, bad, bad, find(bad, "phases.nosuch"), "E042", "`nosuch`, which does not exist")


def test_variant_patch_aimed_at_a_missing_procedure(capsys, project, variants):
    quick(project)
    path = variants / "fresh-tyres.yaml"
    edit(path, "extend: procedures.pit_stop", "extend: procedures.pit_stp")
    expect_one(capsys, path, path, find(path, "procedures.pit_stp"), "E050",
               "`procedures.pit_stp` names no procedure", hint="did you mean `pit_stop`?")


def test_variant_patch_aimed_at_a_missing_statement_name(capsys, project, variants):
    quick(project)
    path = variants / "chain-overtakes.yaml"
    edit(path, "replace: statements.pass_ahead", "replace: statements.pass_ahed")
    expect_one(capsys, path, path, find(path, "statements.pass_ahed"), "E050",
               "no statement is named `pass_ahed`", hint="did you mean `pass_ahead`?")


def test_variant_with_an_unknown_patch_operation(capsys, variants):
    path = variants / "short-race.yaml"
    edit(path, "  - set: params.hand_size", "  - sett: params.hand_size")
    expect_one(capsys, path, path, find(path, "sett"), "E021", "unknown key `sett`",
               hint="did you mean `set`?")


def test_a_variant_key_written_at_the_top_says_where_it_goes(capsys, variants):
    path = variants / "short-race.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "requires: [pit-lane]\n", encoding="utf-8")
    expect_one(capsys, path, path, find(path, "requires"), "E021", "unknown key `requires`",
               hint="`requires` goes under `variant:`")


def test_variant_patch_without_an_operation(capsys, variants):
    # (this raised StopIteration out of `apply_patches`)
    bad = _bad_variant(variants, "  - to: 8\n")
    expect_one(capsys, bad, bad, find(bad, "to: 8"), "E046", "a patch needs one of `set`, `replace`",
               hint="its own patch")


def test_variant_set_without_a_value(capsys, variants):
    bad = _bad_variant(variants, "  - set: params.hand_size\n")
    expect_one(capsys, bad, bad, find(bad, "params.hand_size"), "E047", "not the new value", hint="`to:`")


def test_variant_that_needs_a_module_the_game_does_not_have(capsys, variants):
    """A variant's `requires:` are applied with it; one that does not exist is named at the line."""
    bad = variants / "needy.yaml"
    bad.write_text("variant: {id: needy, name: N, description: D, requires: [weather]}\n"
                   "patches:\n  - set: params.hand_size\n    to: 8\n", encoding="utf-8")
    expect_one(capsys, bad, bad, find(bad, "weather"), "E040", "no module or variant named `weather`",
               hint="its modules and variants: chain-overtakes, endurance, fresh-tyres, laps, needy, "
                    "pit-lane, short-race")


def test_variant_patch_with_two_operations(capsys, variants):
    bad = _bad_variant(variants, "  - set: params.hand_size\n    replace: params.hand_size\n    to: 8\n")
    expect_one(capsys, bad, bad, find(bad, "set: params"), "E046", "has `set` and `replace`")


def test_error_in_a_variant_rule_points_into_the_variant(capsys, project, variants):
    quick(project)
    path = variants / "short-race.yaml"
    edit(path, 'if: "round == 6', 'if: "rund == 6')
    expect_one(capsys, path, path, find(path, "rund"), "E110", "unknown name `rund`", hint="`round`")


def test_folder_validation_reaches_a_broken_variant(capsys, project, variants):
    quick(project)
    path = variants / "chain-overtakes.yaml"
    edit(path, "s > speed(at(grid", "s > sped(at(grid")
    expect_one(capsys, project / "rulesets" / "formula5", path, find(path, "sped"), "E110",
               "unknown function `sped`", hint="did you mean `speed` or `sorted`?")


def test_include_of_a_missing_file(capsys, game):
    edit(game, "  - ../../cards/formula5/cards.yaml", "  - ../../cards/formula5/missing.yaml")
    expect_one(capsys, game, game, find(game, "../../cards/formula5/missing.yaml"), "E031", "does not exist")


def test_include_of_a_file_that_is_not_cards(capsys, game):
    edit(game, "  - ../../cards/formula5/cards.yaml", "  - variants/short-race.yaml")
    expect_one(capsys, game, game, find(game, "variants/short-race.yaml"), "E032",
               "is not a cards or track file", hint="`cards:` or `track:`")


# ---- 8. playouts: games that never end, rules that fail while playing ----------------------

def test_game_that_never_ends(capsys, project, game):
    quick(project, keep_variants=False)
    edit(game, 'until: "all([size(hand(s)) == 0 for s in seats])"', 'until: "false"')
    edit(game, "max_rounds: 100", "max_rounds: 20")  # the same error, found sooner
    d = expect_one(capsys, game, game, find(game, "- id: race", offset=6), "E201",
                   "the game does not end", "20 rounds", "seed 1", hint="`until`")
    assert "random playout" in d.message


def test_loop_that_never_ends(capsys, project, game):
    quick(project, keep_variants=False)
    # "stop discarding" no longer leaves the pit stop's loop: it never ends
    edit(game, '              option "stop discarding" as stop:\n                  break\n',
         '              option "stop discarding" as stop:\n                  pass\n')
    edit(game, "max_rounds: 100", "max_rounds: 100\n  max_steps: 20000")
    expect_one(capsys, game, game, find(game, "while true:"), "E201", "the game does not end",
               "`while` loop", hint="loops that wait for a condition")


def test_a_read_rule_whose_loops_run_too_long_is_said_at_it_with_its_own_hint(capsys, project, game):
    # `evaluate:` is read at every greedy decision: the hint speaks of it, not of a phase's `until`
    quick(project, keep_variants=False)
    edit(game, 'evaluate: "0 - 10 * min(', 'evaluate: "sum([i for i in 1..100000]) + 0 * size([j for j in '
         '1..100000 for k in 1..100]) - 10 * min(')
    edit(game, "max_rounds: 100", "max_rounds: 100\n  max_steps: 200000")
    rc, _out, err = validate(capsys, game)
    (d,) = [d for d in parse(err) if d.code == "E201"]
    assert rc == 1 and d.hint is not None and "`evaluate` is read as the game goes" in d.hint, err


def test_rule_that_fails_while_playing(capsys, project, game):
    quick(project, keep_variants=False)
    edit(game, "pit_cards_by_position[slot_of(c)]", "pit_cards_by_position[slot_of(c) + 1]")
    expect_one(capsys, game, game, find(game, "pit_cards_by_position[slot_of(c) + 1]"), "E202",
               "a rule failed while playing in `procedures.deal_hands`", "index 6 is outside the list",
               "seed 1")


# ---- 9. YAML that would build objects, alias bombs, absurd nesting ---------------------------

def test_python_object_tag_is_refused_and_not_run(capsys, game, tmp_path):
    sentinel = tmp_path / "pwned"
    game.write_text(f"game: !!python/object/apply:os.system ['touch {sentinel}']\n")
    expect_one(capsys, game, game, (1, 7), "E011", "YAML tag", "python/object/apply:os.system",
               "is not allowed", hint="only plain data")
    assert not sentinel.exists()


def test_python_name_tag_is_refused(capsys, game):
    edit(game, "  name: Formula 5\n", "  name: !!python/name:os.system\n")
    expect_one(capsys, game, game, find(game, "!!python"), "E011", "python/name:os.system")


def test_timestamp_is_refused(capsys, game):
    edit(game, "  name: Formula 5\n", "  name: 2001-12-14\n")
    expect_one(capsys, game, game, find(game, "2001"), "E011", "timestamp")


def test_alias_bomb_is_refused(capsys, game):
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    game.write_text("\n".join(lines) + "\ngame: *i\n")
    # the first list whose aliases go past the limit (its node starts at its anchor)
    expect_one(capsys, game, game, find(game, "&b"), "E013", "too many YAML aliases", hint="alias uses")


def test_thousand_nested_lists_are_refused(capsys, game):
    game.write_text("game: " + "[" * 1000 + "]" * 1000 + "\n")
    # the list 49 levels deep (root mapping at 0) is one too many
    expect_one(capsys, game, game, (1, 7 + 48), "E012", "nesting is too deep", hint="at most 48 levels")


def test_deeply_nested_mappings_are_refused(capsys, game):
    game.write_text("game: " + "{a: " * 60 + "1" + "}" * 60 + "\n")
    expect_one(capsys, game, game, (1, 7 + 48 * 4), "E012", "nesting is too deep")


def test_absurd_nesting_does_not_crash_the_process(tmp_path):
    # 50,000 levels crashed libyaml's recursive composer (a segfault, exit -11): run it apart
    path = tmp_path / "deep.yaml"
    path.write_text("game: " + "[" * 50_000 + "]" * 50_000 + "\n")
    code = "import sys; from interpreter.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.run([sys.executable, "-c", code, "validate", str(path)],
                          capture_output=True, text=True, timeout=60, cwd=ROOT, check=False)
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    (d,) = parse(proc.stderr)
    assert (d.file, d.line, d.col, d.code) == (str(path), 1, 55, "E012")


# ---- 10. what validate accepts ---------------------------------------------------------------

def test_validate_a_ruleset_folder(capsys, project):
    rc, out, err = validate(capsys, project / "rulesets" / "formula5")
    assert (rc, err) == (0, "")
    assert "formula5 (Formula 5): ok" in out
    assert "variant chain-overtakes: ok" in out and "variant short-race: ok" in out


def test_validate_a_ruleset_by_name_as_play_takes_it(capsys):
    from interpreter.cli import main
    assert main(["validate", "tilerace"]) == 0
    out = capsys.readouterr().out
    assert "tilerace" in out and "variant quick: ok" in out


def test_validate_the_game_file(capsys, project, game):
    quick(project)
    rc, out, err = validate(capsys, game)
    assert (rc, err) == (0, "")
    assert out.startswith("formula5 (Formula 5): ok")


def test_validate_a_variant_file(capsys, project, variants):
    quick(project)
    rc, out, err = validate(capsys, variants / "short-race.yaml")
    assert (rc, err) == (0, "")
    assert out.strip().startswith("variant short-race: ok")
    assert "chain-overtakes" not in out


def test_validate_a_cards_file(capsys, cards):
    rc, out, err = validate(capsys, cards)
    assert (rc, err) == (0, "")
    assert f"{cards}: 6 card types, 76 cards" in out


def test_a_cards_file_validated_alone_is_checked_with_the_games_that_include_it(capsys, project, cards):
    """A property every race card has wrong is said once, with how many card types have it; so is a
    pile they all start in, and a property of two types; and `validate` of the cards file alone
    finds them, as the game that includes it would."""
    quick(project, keep_variants=False)
    for colour in ("red", "blue", "green", "yellow", "purple"):
        edit(cards, f"props: {{kind: race, colour: {colour}}}, starts_in: deck}}",
             f"props: {{kind: race, colour: {3 if colour in ('green', 'yellow') else colour}, face: 1.5}}, "
             "starts_in: dek}")
    rc, out, err = validate(capsys, cards)
    diags = parse(err)
    assert (rc, [d.code for d in diags]) == (1, ["E115", "E119", "E117", "E116"]), err
    assert all(d.file == str(cards) for d in diags), err
    colour, face, value, pile = diags
    assert colour.message == "card property `colour` is text on 3 card types and int on `green` and `yellow`"
    assert face.message == "`face` is a word of the language: it cannot be the name of a card property " \
                           "(on 5 card types)" and (face.line, face.col) == find(cards, "face: 1.5")
    assert value.message.endswith("holds 1.5: rules count in whole numbers (and on 4 other card types)")
    assert pile.message == "5 card types (`red`, `blue`, `green`, ...) start in `dek`, which is not a pile"
    assert (pile.line, pile.col) == find(cards, "dek")


def test_a_cards_file_no_game_includes_is_checked_for_its_form_only(capsys, project, cards):
    spare = cards.parent / "spare.yaml"
    spare.write_text(cards.read_text(encoding="utf-8").replace("starts_in: deck", "starts_in: dek"),
                     encoding="utf-8")
    rc, out, err = validate(capsys, spare)
    assert (rc, err) == (0, "")
    assert out.strip() == f"{spare}: 6 card types, 76 cards (no game of its project includes it: only its " \
                          "form is checked)"


def test_validate_a_broken_cards_file(capsys, cards):
    edit(cards, "name: \"pit stop\", count: 6,", "name: \"pit stop\", cuont: 6,")
    expect_one(capsys, cards, cards, find(cards, "cuont"), "E021", "unknown key `cuont` in cards.pit_stop",
               hint="did you mean `count`?")


def test_a_problem_of_an_included_file_is_said_at_the_path_the_game_was_given_by(capsys, cards, project,
                                                                                 monkeypatch):
    """The game named relative to the current folder: its cards file's problem is said relative
    too (`cards/formula5/cards.yaml`), as the game's own would be, not at its absolute path."""
    edit(cards, "name: \"pit stop\", count: 6,", "name: \"pit stop\", cuont: 6,")
    monkeypatch.chdir(project)
    rc, _out, err = validate(capsys, "rulesets/formula5")
    assert rc == 1 and parse(err)[0].file == "cards/formula5/cards.yaml", err


def test_validate_a_scenario_file(capsys, scenario):
    rc, out, err = validate(capsys, scenario)
    assert (rc, err) == (0, "")
    assert "passes (5 scripted steps)" in out


def test_validate_a_scenario_with_a_wrong_type(capsys, scenario):
    edit(scenario, "players: 2\n", "players: two\n")
    expect_one(capsys, scenario, scenario, find(scenario, "two"), "E023", "`players`", "a whole number")


def test_validate_a_scenario_with_an_unknown_function(capsys, scenario):
    edit(scenario, "size(hand(seat(1))) == 0'", "size(hnd(seat(1))) == 0'")
    expect_one(capsys, scenario, scenario, find(scenario, "hnd("), "E110", "unknown function `hnd`",
               hint="did you mean `hand`?")


def test_validate_a_scenario_whose_expectation_fails(capsys, scenario):
    edit(scenario, "  - expect: 'round == 2 and size(hand(seat(1))) == 0'", "  - expect: 'round == 3'")
    expect_one(capsys, scenario, scenario, find(scenario, "round == 3"), "E401",
               "expectation is false: round == 3", hint="now: round 2")


def test_validate_a_scenario_naming_a_missing_variant(capsys, scenario):
    edit(scenario, "players: 2\n", "players: 2\nvariants: [short-rac]\n")
    expect_one(capsys, scenario, scenario, find(scenario, "short-rac"), "E040",
               "no variant named `short-rac`",
               hint="did you mean `short-race`?")


def test_validate_a_file_of_unknown_kind(capsys, tmp_path):
    path = tmp_path / "notes.yaml"
    path.write_text("title: my notes\nitems: [1, 2]\n")
    expect_one(capsys, path, path, (1, 1), "E006", "cannot tell what kind of file this is",
               hint="(this one has: title, items)")


def test_validate_a_list_file(capsys, tmp_path):
    path = tmp_path / "list.yaml"
    path.write_text("- game\n- cards\n")
    expect_one(capsys, path, path, (1, 1), "E006", hint="(this one is a list)")


def test_validate_a_path_that_does_not_exist(capsys, tmp_path):
    path = tmp_path / "nope.yaml"
    expect_one(capsys, path, path, None, "E001", f"no such file or folder: {path}")


def test_validate_a_folder_without_a_game(capsys, project):
    folder = project / "rulesets"
    expect_one(capsys, folder, folder, None, "E001", "holds no game.yaml",
               hint="a ruleset folder holds game.yaml")


# ---- 11. usage errors exit 2 -----------------------------------------------------------------

def test_no_command(capsys):
    with pytest.raises(SystemExit) as exc:
        main([])
    assert exc.value.code == 2
    assert "required: COMMAND" in capsys.readouterr().err


def test_validate_without_a_path(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["validate"])
    assert exc.value.code == 2
    assert "required: path" in capsys.readouterr().err


def test_validate_with_two_paths(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["validate", "a.yaml", "b.yaml"])
    assert exc.value.code == 2
    assert "unrecognized arguments: b.yaml" in capsys.readouterr().err


def test_simulate_zero_games(capsys):
    rc, out, err = run(capsys, "simulate", "formula5", "--games", "0")
    assert (rc, out) == (2, "")
    assert err.strip() == "racecraft simulate: error: --games must be at least 1"


def test_simulate_games_not_a_number(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "formula5", "--games", "many"])
    assert exc.value.code == 2
    assert "argument --games: a whole number, not many" in capsys.readouterr().err


def test_play_with_an_unknown_seat_kind(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    rc, out, err = run(capsys, "play", "formula5", "--seats", "human,robot")
    assert rc == 2 and "seat 1" not in out  # refused before any game starts
    assert "racecraft play: error: unknown seat kind `robot`" in err


# ---- 12. includes stay inside the project ----------------------------------------------------

@pytest.mark.parametrize("entry", ["../../../../etc/passwd", "/etc/passwd", "../../../outside.yaml"])
def test_include_outside_the_project_is_refused(capsys, game, entry):
    edit(game, "  - ../../cards/formula5/cards.yaml", f"  - {entry}")
    expect_one(capsys, game, game, find(game, entry), "E030",
               f"include `{entry}` is outside the ruleset's project folder", hint="must be inside")


def test_include_through_a_symlink_out_of_the_project_is_refused(capsys, project, game, tmp_path_factory):
    outside = tmp_path_factory.mktemp("elsewhere") / "cards.yaml"
    shutil.copy(ROOT / "cards" / "formula5" / "cards.yaml", outside)
    link = project / "cards" / "formula5" / "linked.yaml"
    try:
        os.symlink(outside, link)
    except OSError:
        pytest.skip("no symlinks here")
    edit(game, "  - ../../cards/formula5/cards.yaml", "  - ../../cards/formula5/linked.yaml")
    expect_one(capsys, game, game, find(game, "../../cards/formula5/linked.yaml"), "E030", "outside")


# ---- found by this suite and fixed in the engine ----------------------------------------------

def test_pile_of_an_unknown_board(capsys, game):
    edit(game, "column: {of: grid, visible: all}", "column: {of: gird, visible: all}")
    expect_one(capsys, game, game, find(game, "gird"), "E112", "pile `column` belongs to `gird`",
               hint="did you mean `grid`?")


def test_unknown_name_in_an_augmented_assignment_is_reported_once(capsys, game):
    edit(game, "      let n = 0\n", "")
    rc, out, err = validate(capsys, game)
    assert (rc, out) == (1, "")
    diags = parse(err)
    assert {(d.code, d.message) for d in diags} == {("E110", "unknown name `n`")}, err
    assert [(d.line, d.col) for d in diags] == [
        find(game, "({n}", offset=2), find(game, "n += 1"), find(game, "draw n", offset=5),
        find(game, "cards_word(n)", offset=11)], err


def test_a_track_file_validated_alone_is_checked_with_its_game(capsys, tmp_path):
    """A track's params and places mean something only to its game: `validate tracks/heat/X.yaml`
    checks the track raced by Heat (its own default track too), and says a misspelt param at the
    track's line."""
    for part in ("rulesets/heat", "cards/heat", "tracks/heat"):
        shutil.copytree(ROOT / part, tmp_path / part)
    track = tmp_path / "tracks" / "heat" / "italy.yaml"
    edit(track, "boards:\n", "params: {hand_sise: 5}\nboards:\n")
    rc, out, err = validate(capsys, track)
    (d,) = parse(err)
    assert (rc, d.code, d.file, (d.line, d.col)) == (1, "E042", str(track), find(track, "hand_sise"))
    assert "did you mean `hand_size`" in err
    rc, out, err = validate(capsys, tmp_path / "tracks" / "heat" / "usa.yaml")   # the game's own
    assert (rc, err) == (0, "") and "raced by its game" in out and "games ended" in out
    # a track of a game the project does not have: its form alone
    other = tmp_path / "tracks" / "nogame" / "x.yaml"
    other.parent.mkdir()
    shutil.copy(tmp_path / "tracks" / "heat" / "usa.yaml", other)
    rc, out, err = validate(capsys, other)
    assert rc == 0 and "no ruleset of its project is the game `nogame`: only its form is checked" in out


def test_a_track_that_requires_a_module_is_not_combined_with_every_add_on(capsys, tmp_path):
    """`validate` races each add-on on each track, but a track that requires a module is raced only
    as the game with what it requires: an add-on with it is a combination no file declares."""
    for part in ("rulesets/heat", "cards/heat", "tracks/heat"):
        shutil.copytree(ROOT / part, tmp_path / part)
    wet = tmp_path / "tracks" / "heat" / "wet.yaml"
    shutil.copy(tmp_path / "tracks" / "heat" / "france.yaml", wet)
    edit(wet, "  id: france\n", "  id: wet\n  requires: [weather]\n")
    rc, out, err = validate(capsys, tmp_path / "rulesets" / "heat" / "variants" / "sprint.yaml")
    assert (rc, err) == (0, "")
    assert "variant sprint: ok" in out and "5 tracks" in out and "6 tracks" not in out
    rc, out, err = validate(capsys, wet)   # the track itself: raced with the module it requires
    assert (rc, err) == (0, "") and "games ended" in out


# ---- every mistake of a variant's patches in one run --------------------------------------------

def _named() -> str:
    """conftest's small race with a param and its choice and options named (`pace`: `steady`,
    `sprint`)."""
    from conftest import stepping_game

    race = stepping_game("named", "Named", (2, 2))
    return race.replace("state:\n", "params:\n  reach: 3\nstate:\n").replace(
        """choose "step" by s:
              option "one":
                  s.score += 1
              option "two":
                  s.score += 2""", """choose "How far?" by s as pace:
              option "steady" as steady:
                  s.score += 1
              option "sprint" as sprint:
                  s.score += reach - 1""")


def _named_game(tmp_path: Path, patches: str) -> Path:
    folder = tmp_path / "rulesets" / "named"
    (folder / "variants").mkdir(parents=True)
    (folder / "game.yaml").write_text(_named(), encoding="utf-8")
    (folder / "variants" / "v.yaml").write_text(
        "variant: {id: v, name: V, description: authored for a test}\npatches:\n" + patches, encoding="utf-8")
    return folder / "variants" / "v.yaml"


def test_a_type_error_is_said_beside_a_patch_of_rules_that_aims_at_nothing(capsys, tmp_path):
    """A patch of rules that cannot be made is left out and the rest is checked, as for a patch of
    data: the param given a text is said in the same run (it was said only once the other was
    mended)."""
    path = _named_game(tmp_path, "  - extend: functions.energy\n    around: \"base + 1\"\n"
                                 "  - set: params.reach\n    to: \"three\"\n")
    rc, _out, err = validate(capsys, path)
    codes = [(d.code, d.line) for d in parse(err)]
    assert rc == 1 and codes == [("E050", 3), ("E120", 5)], err


def test_an_option_a_choice_has_not_is_said_with_the_names_it_has(capsys, tmp_path):
    path = _named_game(tmp_path, "  - remove: choices.pace.attack\n")
    d = expect_one(capsys, path, path, find(path, "choices.pace.attack"), "E042",
                   "choice `pace` has no option named `attack`")
    assert d.hint == "its options are named `steady`, `sprint`"


def test_a_list_item_picked_by_a_key_is_said_with_the_keys_of_those_there():
    """Items with neither `id` nor `name` (a track's segments) are said by the key asked for, not
    as `None`s."""
    from interpreter.base.diagnostics import Report
    from interpreter.load.patches import _pick

    report = Report()
    assert _pick([{"rows": 3}, {"rows": 5}, {"rows": 5}], {"rows": "99"}, "boards.track.segments",
                 "boards.track.segments[rows=99]", report) is None
    (d,) = report.items
    assert d.hint == "there: [rows=3], [rows=5]", d.hint


def test_a_game_a_variant_keeps_from_ending_is_said_at_the_variants_patch(capsys, project, variants):
    """E201 (the smoke game does not end) where a variant changed the phase: at the patch, with the
    phase as the place the game has it (it was said at the game's phase alone)."""
    quick(project)
    path = variants / "forever.yaml"
    path.write_text("variant: {id: forever, name: Forever, description: authored for a test}\n"
                    "patches:\n  - set: phases.race.until\n    to: \"false\"\n", encoding="utf-8")
    rc, _out, err = validate(capsys, path)
    (d,) = [d for d in parse(err) if d.code == "E201"]
    assert rc == 1 and (d.file, d.line) == (str(path), 3), err
    assert "where the game has `phases.race`, which this patch changes" in err


def test_a_card_type_compared_with_a_text_no_type_has_is_warned(capsys, tmp_path):
    """W110: `c.type == "gme"` is never true (a misspelt type), and nothing else would say so; a
    type the game has, and a text compared with anything else, are not warned about."""
    folder = tmp_path / "rulesets" / "types"
    folder.mkdir(parents=True)
    from conftest import stepping_game

    # the small race of conftest, with cards, and a step that compares their types with texts
    text = stepping_game("types", "Types", (2, 2)).replace("state:\n", """\
cards:
  gem: {count: 2, starts_in: row}
  token: {count: 2, starts_in: row}
piles:
  row: {visible: all}
state:
  word: {type: text}
""")
    body = text[text.index('          choose "step"'):text.index("    rounds: 3")]
    text = text.replace(body, """\
          s.score += size([c for c in row if c.type == "gme"]) + size([c for c in row if c.type == "gem"])
          s.score += size([c for c in row if c.type in ["token", "tokn"]])
          if word == "gme":
              pass
""")
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    lines = text.splitlines()
    at = [str(i + 1) for i, line in enumerate(lines) if '"gme"]' in line or '"tokn"]' in line]
    rc, _out, err = validate(capsys, folder)
    warned = re.findall(r"game\.yaml:(\d+):\d+: warning\[W110\]: no card type of the game is called `(\w+)`",
                        err)
    assert rc == 0 and warned == [(at[0], "gme"), (at[1], "tokn")], err
    assert err.count("hint: did you mean `gem`?") == 1 and err.count("hint: did you mean `token`?") == 1


def test_a_card_property_compared_with_a_text_no_card_has_is_warned(capsys, tmp_path):
    """W163: `c.kind == "sprnt"` is never true where every card's `kind` is another text; a text
    some card has is not warned about."""
    folder = tmp_path / "rulesets" / "kinds"
    folder.mkdir(parents=True)
    from conftest import stepping_game

    text = stepping_game("kinds", "Kinds", (2, 2)).replace("state:\n", """\
cards:
  sprint: {count: 2, starts_in: row, props: {kind: sprint, value: 2}}
  draft: {count: 2, starts_in: row, props: {kind: draft, value: 3}}
piles:
  row: {visible: all}
state:
""")
    body = text[text.index('          choose "step"'):text.index("    rounds: 3")]
    text = text.replace(body, """\
          s.score += size([c for c in row if c.kind == "sprnt"]) + size([c for c in row if c.kind == "draft"])
          s.score += size([c for c in row if c.kind in ["sprint", "drafft"]])
""")
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    lines = text.splitlines()
    at = [str(i + 1) for i, line in enumerate(lines) if '"sprnt"]' in line or '"drafft"]' in line]
    rc, _out, err = validate(capsys, folder)
    warned = re.findall(r'game\.yaml:(\d+):\d+: warning\[W163\]: no card has `kind` "(\w+)"', err)
    assert rc == 0 and warned == [(at[0], "sprnt"), (at[1], "drafft")], err
    assert err.count("hint: did you mean `sprint`?") == 1 and err.count("hint: did you mean `draft`?") == 1


def test_a_card_type_a_scenario_arranges_that_the_game_has_not_is_said_with_the_nearest(capsys, project):
    path = project / "rulesets" / "formula5" / "scenarios" / "misspelt.yaml"
    path.write_text("scenario: {name: misspelt, source: a test}\nruleset: ..\nplayers: 2\nseed: 1\n"
                    "situation: |\n  set_pile(hand(seat(1)), [\"rde\"])\n", encoding="utf-8")
    rc, out, err = run(capsys, "check", path)
    said = out + err
    assert rc == 1 and "error[E404]: rule error: no card type `rde` (did you mean `red`?)" in said, said


def test_a_scenarios_ruleset_is_named_without_dotdot(tmp_path, monkeypatch):
    """`ruleset: ..` of `rulesets/g/scenarios/s.yaml` names `rulesets/g` in what is said of the game
    (it said `rulesets/g/scenarios/../game.yaml`); through a link, the path stays as written."""
    from interpreter.base.files import tidy

    (tmp_path / "rulesets" / "g" / "scenarios").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    assert tidy(Path("rulesets/g/scenarios/..")) == Path("rulesets/g")
    (tmp_path / "elsewhere" / "deep").mkdir(parents=True)
    (tmp_path / "rulesets" / "link").symlink_to(tmp_path / "elsewhere" / "deep")
    assert tidy(Path("rulesets/link/..")) == Path("rulesets/link/..")


def _refused_game(tmp_path, capsys, text: str) -> str:
    """What `validate` says of a small game written to a folder of its own (it must refuse it)."""
    from interpreter.cli import main

    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    assert main(["validate", str(folder)]) == 1
    return capsys.readouterr().err


def test_a_function_named_without_its_call_is_told_to_be_called(tmp_path, capsys):
    """`order: "riders"` where `riders` is a function of no params: E110 says to call it,
    `riders()` (it said "unknown name `riders`", did you mean `riders`)."""
    err = _refused_game(tmp_path, capsys,
        'game: {id: t, name: "T", players: {min: 2, max: 2}}\nstate:\n  score: {of: seat}\n'
        'functions:\n  riders:\n    value: "seats"\n  best:\n    params: {s: seat}\n    value: "s.score"\n'
        'phases:\n  - id: main\n    order: "riders"\n    turn: s\n    steps:\n      - id: go\n'
        '        do: "s.score += 1"\n    rounds: 2\nresult:\n  rank: "best"\n')
    assert "game.yaml:12:13: error[E110]: `riders` is a function: call it" in err
    assert "hint: `riders()`" in err
    assert "game.yaml:19:10: error[E110]: `best` is a function: call it" in err and "hint: `best(s)`" in err
    assert "did you mean" not in err


def test_a_piece_name_with_a_space_is_told_what_a_piece_name_is(tmp_path, capsys):
    """A piece's name is a name (the rules read it): the hint says so (it said a piece's `name:` may
    say anything, which pieces do not have)."""
    err = _refused_game(tmp_path, capsys,
        'game: {id: t, name: "T", players: {min: 2, max: 2}}\n'
        'pieces:\n  riders: {count: 2, names: [red sprinter, blue]}\nstate:\n  score: {of: seat}\n'
        'phases:\n  - id: main\n    order: "seats"\n    turn: s\n    steps:\n      - id: go\n'
        '        do: "s.score += 1"\n    rounds: 2\nresult:\n  rank: "seat.score"\n')
    assert "game.yaml:3:30: error[E025]: `red sprinter` is not a valid name" in err
    assert "a piece's name is how the rules name it" in err and "`name:` may say anything" not in err


def test_validate_counts_the_cards_of_each_kind_of_piece_apart():
    """Sprinters' and rouleurs' decks of their own, and cards every piece gets: each kind's count
    is its own plus the shared ones (validate added the two kinds' decks together as "for each
    piece")."""
    from types import SimpleNamespace as Card

    from interpreter.authoring.validate import _cards

    cards = [Card(id="s2", count=15, per_seat=False, per_piece="sprinters"),
             Card(id="r3", count=15, per_seat=False, per_piece="rouleurs"),
             Card(id="tired", count=40, per_seat=False, per_piece=True)]
    assert _cards(cards) == \
        "3 kinds, 55 for each of the sprinters, 55 for each of the rouleurs (s2, r3, tired)"
    assert _cards(cards[2:]) == "1 kind, 40 for each piece (tired)"


def test_a_map_type_unquoted_in_a_flow_mapping_is_told_to_be_quoted(tmp_path, capsys):
    """`tips: {of: seat, type: map[text, int]}`: YAML reads the type's comma as the end of the
    item; E010's hint says to quote the type (it said to add a comma and a closing bracket)."""
    err = _refused_game(tmp_path, capsys, 'game: {id: t, name: "T", players: {min: 2, max: 2}}\nstate:\n'
                        '  tips: {of: seat, type: map[text, int]}\n')
    assert "game.yaml:3:" in err and "error[E010]" in err
    assert 'is quoted: `type: "map[text, int]"`' in err and "closing bracket" not in err
