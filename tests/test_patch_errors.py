"""An error a patch causes is said at the patch: its own file and line first, the base line second;
every mistake of a patch file in one run; a misspelt param of a season or `--param` placed.

The small game of test_modules.py is patched by variants written here; each test reads the
diagnostics (where, what second place, how many) as `validate` prints them.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.authoring.validate import validate_path
from interpreter.base.diagnostics import Report
from interpreter.load.ruleset import load_ruleset
from test_diagnostics import find
from test_modules import mini_project, refused, variant


@pytest.fixture
def mini(tmp_path) -> Path:
    return mini_project(tmp_path)


SEASON_CARRY = """\
  - add: carry
    id: seat
    item: [score]
"""


def at(d, path: Path, needle: str) -> None:
    line, col = find(path, needle)
    assert d.loc is not None and (d.loc.file, d.loc.line, d.loc.col) == (str(path), line, col), d.render()


def test_a_wrong_type_set_by_a_variant_is_said_at_the_patch_then_where_the_base_reads_it(mini):
    path = variant(mini, '  - set: params.hand_size\n    to: "two"\n')
    report = refused(mini, "v")
    [d] = [d for d in report.items if d.severity == "error"]
    assert d.code == "E120"
    at(d, path, "params.hand_size")
    what, base = d.also
    assert "params.hand_size" in what and "this patch changes" in what
    line, col = find(mini / "game.yaml", "hand_size from deck")
    assert (base.file, base.line, base.col) == (str(mini / "game.yaml"), line, col)
    text = d.render()
    assert text.index("v.yaml") < text.index("game.yaml")  # the patch first, the base second


def test_a_patch_that_breaks_several_base_rules_is_one_error_that_counts_the_others(mini):
    path = variant(mini, "  - update: state.score\n    with: {type: text}\n")
    report = refused(mini, "v")
    [d] = [d for d in report.items if d.severity == "error"]
    at(d, path, "state.score")
    assert d.also is not None and d.also[1].file == str(mini / "game.yaml")
    # `s.score += ...` and the result's `seat.score` read it: the first is shown, the other counted
    assert "and 1 more place" in d.notes


def test_a_value_a_variant_gives_a_param_is_said_at_the_patch_not_at_the_param(mini):
    path = variant(mini, "  - set: params.hand_size\n    to: 1.5\n")
    report = refused(mini, "v")
    d = next(d for d in report.items if d.code == "E117")
    at(d, path, "params.hand_size")
    line, _ = find(mini / "game.yaml", "hand_size: 2")
    assert d.also is not None and d.also[1].line == line


def test_a_problem_in_the_patch_files_own_rule_stays_there(mini):
    """A patch's own rule text is the patch's: its problem is placed in it, not moved."""
    path = variant(mini, "  - set: params.hand_size\n    to: 3\n"
                         "  - extend: procedures.score_card\n    after: 's.score += \"x\"'\n")
    report = refused(mini, "v")
    [d] = [d for d in report.items if d.severity == "error"]
    assert d.loc.file == str(path) and d.also is None and d.loc.line == find(path, "s.score +=")[0]


def test_every_mistake_of_a_patch_file_is_said_in_one_run(mini):
    path = variant(mini, "  - set: params.hand_sise\n    to: 3\n"
                         "  - add: steps.mian\n    item: {id: x, do: pass}\n"
                         "  - extend: procedures.scor_card\n    after: pass\n"
                         "  - remove: choices.play.pas\n")
    report = Report()
    assert load_ruleset(mini, variants=["v"], report=report) is None
    codes = [(d.code, d.loc.line) for d in report.items if d.severity == "error"]
    assert codes == [("E042", find(path, "params.hand_sise")[0]), ("E042", find(path, "steps.mian")[0]),
                     ("E050", find(path, "procedures.scor_card")[0]),
                     ("E042", find(path, "choices.play.pas")[0])], report.render()
    assert all(d.hint and "did you mean" in d.hint for d in report.items)


def test_a_patch_that_cannot_be_made_and_a_type_error_of_the_rest_are_said_in_one_validate(mini):
    """A patch that cannot be made is left out and the rest of the game checked: the type error of
    the variant's own rule is said in the same run (no fix, run, and meet the next)."""
    path = variant(mini, "  - set: params.hand_sise\n    to: 3\n"
                         "  - extend: procedures.score_card\n    after: 's.score += \"x\"'\n")
    errors = [d for d in validate_path(path, cache=False).report.items if d.severity == "error"]
    assert [(d.code, d.loc.file, d.loc.line) for d in errors] == [
        ("E042", str(path), find(path, "params.hand_sise")[0]),
        ("E120", str(path), find(path, "s.score +=")[0])]
    # a load that is not asked for the rest still refuses the game at once
    report = Report()
    assert load_ruleset(mini, variants=["v"], report=report) is None and report.errors == 1
    assert load_ruleset(mini, variants=["v"], report=Report(), partial=True) is not None


def test_a_name_an_add_patch_left_out_would_declare_is_not_a_second_mistake(mini):
    """The rules that use what a failed `add` would have declared are not each an unknown name:
    the one mistake is the patch."""
    path = variant(mini, "  - add: paramz\n    id: bonus\n    item: 2\n"
                         "  - extend: procedures.score_card\n    after: 's.score += bonus'\n"
                         "  - extend: procedures.score_card\n    after: 's.score += bonsu'\n")
    errors = [d for d in validate_path(path, cache=False).report.items if d.severity == "error"]
    assert [(d.code, d.loc.line) for d in errors] == [("E042", find(path, "paramz")[0]),
                                                     ("E110", find(path, "bonsu")[0])]
    assert "bonsu" in errors[1].message


def test_a_pile_whose_owner_a_patch_changed_is_said_at_the_patch(mini):
    """`hand` made one per piece: the rules that say `hand(s)` of a seat are wrong because of the
    patch, which is where it is said (the base's first use second, the others counted)."""
    path = variant(mini, "  - set: piles.hand.of\n    to: piece\n")
    [d] = [d for d in refused(mini, "v").items if d.severity == "error"]
    assert d.code == "E120" and "one per piece" in d.message
    at(d, path, "piles.hand.of")
    assert d.also is not None and d.also[1].file == str(mini / "game.yaml") and "and 2 more places" in d.notes


def test_a_value_a_patch_gave_in_a_form_the_game_cannot_have_is_said_at_the_patch(mini):
    """The merged game's form is checked after the patches: a wrong value a patch put in is said
    at the patch, with the base's declaration second."""
    path = variant(mini, "  - update: piles.hand\n    with: {of: 3}\n")
    [d] = [d for d in refused(mini, "v").items if d.severity == "error"]
    assert d.code == "E023" and "piles.hand.of" in d.message
    at(d, path, "piles.hand")
    assert d.also is not None and d.also[1].line == find(mini / "game.yaml", "hand: {of")[0]


def test_a_misspelt_param_of_a_season_is_said_at_its_line_in_every_game(mini):
    variant(mini, SEASON_CARRY, "carried")
    seasons = mini / "seasons"
    seasons.mkdir()
    season = seasons / "s.yaml"
    season.write_text("season: {name: S, description: two games}\n"
                      "variants: [carried]\n"
                      "params: {hand_sise: 3}\n"
                      "races:\n  - {}\n  - {params: {hand_siz: 1}}\n"
                      "standings: {by: [score]}\n", encoding="utf-8")
    report = validate_path(season).report
    errors = [d for d in report.items if d.severity == "error"]
    assert [(d.code, d.loc.line) for d in errors] == [("E042", 3), ("E042", 6)], report.render()
    assert all(d.hint == "did you mean `hand_size`?" for d in errors)
    at(errors[0], season, "hand_sise")
    at(errors[1], season, "hand_siz:")


def test_a_misspelt_param_on_the_command_line_says_so(mini):
    report = Report()
    assert load_ruleset(mini, report=report, params={"hand_sise": 3}) is None
    [d] = report.items
    assert d.code == "E042" and d.loc is None and "on the command line" in d.message
    assert d.hint == "did you mean `hand_size`?"


def test_a_wrong_type_given_on_the_command_line_says_so_and_where_the_game_reads_it(mini):
    from interpreter.check import check

    report = Report()
    rs = load_ruleset(mini, report=report, params={"hand_size": "many"})
    assert rs is not None and check(rs, report) is None
    [d] = report.items
    assert d.loc is None and d.message.startswith("`--param hand_size=...` (on the command line): type error")
    assert d.also is not None and d.also[1].file == str(mini / "game.yaml")
