"""Extensions that call the rule they extend with new values (`proceed(...)`) and read the values
it shows (`let visible NAME = ...`).

The small game of test_modules.py is extended by variants written here; what each extension does
is read from the game played (scores, what is said). The shipped examples: Heat's variant
`big-radiator` (`proceed(s, ...)` around `cool_down`) and the championship's and event 1's
`extend: steps.corners`, which read the `s` the base step shows (scenarios `variant-big-radiator*`,
`championship-*`, `event-1-*`).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.base.diagnostics import Report
from interpreter.load.ruleset import load_ruleset
from test_diagnostics import find
from test_modules import MINI, game, mini_project, play_first, refused, said, variant


@pytest.fixture
def mini(tmp_path) -> Path:
    return mini_project(tmp_path)


def scores(g) -> list[int]:
    return [g.view(None)["seats"][s]["score"] for s in range(2)]


def diagnostics(folder: Path, *variants: str) -> Report:
    from interpreter.check import check

    report = Report()
    rs = load_ruleset(folder, variants=list(variants), report=report)
    if rs is not None:
        check(rs, report)
    return report


# ---- proceed(...) -------------------------------------------------------------------------------

def test_proceed_with_values_runs_the_rule_with_them(mini):
    """`score_card(s, c)` run for the other seat: the card scores for seat 2 when seat 1 plays it."""
    variant(mini, "  - extend: procedures.score_card\n    around: |\n"
                  "      proceed(seat(3 - s.number), c)\n")
    g = game(mini, "v")
    play_first(g, "play")
    assert scores(g)[0] == 0 and scores(g)[1] > 0


def test_proceed_with_values_leaves_the_extensions_own_names_as_they_were(mini):
    """After `proceed(other, c)`, the extension's `s` is still its own seat."""
    variant(mini, "  - extend: procedures.score_card\n    around: |\n"
                  "      proceed(seat(3 - s.number), c)\n      say \"{s} gave it away\"\n")
    g = game(mini, "v")
    play_first(g, "play")
    assert said(g)[-1] == "seat 1 gave it away"


def test_proceed_twice_with_other_values(mini):
    variant(mini, "  - extend: procedures.score_card\n    around: |\n"
                  "      proceed(s, c)\n      proceed(seat(3 - s.number), c)\n")
    g = game(mini, "v")
    play_first(g, "play")
    assert scores(g)[0] == scores(g)[1] > 0


def test_proceed_of_a_trigger_gives_its_event_new_values(mini):
    variant(mini, "  - extend: triggers.count\n    around: |\n      proceed(s, k * 100)\n")
    g = game(mini, "v")
    play_first(g, "play")
    assert g.st.g["tally"]["seat 1"] in (100, 300)


@pytest.mark.parametrize("text, needle", [
    ("proceed(s)", "the rule 1 value, and it takes 2 (s, c)"),
    ("proceed(s, c, c)", "the rule 3 values, and it takes 2 (s, c)"),
])
def test_proceed_gives_as_many_values_as_the_rule_takes(mini, text, needle):
    path = variant(mini, f"  - extend: procedures.score_card\n    around: |\n      {text}\n")
    report = refused(mini, "v")
    [d] = report.items
    assert d.code == "E052" and needle in d.message and d.hint == "proceed(s, c)"
    assert (d.loc.file, d.loc.line) == (str(path), find(path, "proceed(")[0])


def test_a_step_takes_no_values(mini):
    variant(mini, "  - extend: steps.play\n    around: |\n      proceed(s)\n")
    [d] = refused(mini, "v").items
    assert d.code == "E052" and "this rule takes none" in d.message


def test_a_value_of_the_wrong_type_is_a_type_error_at_it(mini):
    path = variant(mini, "  - extend: procedures.score_card\n    around: |\n      proceed(3, c)\n")
    [d] = [d for d in diagnostics(mini, "v").items if d.severity == "error"]
    assert d.code == "E120" and "`proceed` gives `s` an int, and it is a seat" in d.message
    assert (d.loc.line, d.loc.col) == find(path, "3, c")


# ---- let visible ------------------------------------------------------------------------------------

READS_B = "  - extend: steps.look\n    after: |\n      s.score = b\n"


def test_an_extension_reads_what_the_rule_declares_visible(mini):
    shown = MINI.replace("let b = best(s)", "let visible b = best(s)")
    (mini / "game.yaml").write_text(shown, encoding="utf-8")
    variant(mini, READS_B)
    report = diagnostics(mini, "v")
    assert report.items == []
    g = game(mini, "v")
    seat1 = g.view(None)["seats"][0]
    assert seat1["score"] == seat1["best_seen"] > 0  # the extension read the base's `b`


def test_reading_a_local_the_rule_does_not_show_is_a_warning_in_language_1(mini):
    path = variant(mini, READS_B)
    [d] = diagnostics(mini, "v").items
    assert (d.severity, d.code) == ("warning", "W141")
    assert "`b` is a local of the rule this extends" in d.message
    assert (d.loc.line, d.loc.col) == find(path, "b\n")
    assert d.hint.startswith("declare it in the rule: `let visible b = ...`")


def test_reading_a_local_the_rule_does_not_show_is_an_error_from_language_2(mini):
    path = variant(mini, READS_B)
    path.write_text("language: 2\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    [d] = diagnostics(mini, "v").items
    assert d.severity == "error" and d.code == "E149"


def test_an_extension_of_one_statement_is_inside_the_rule_and_reads_its_locals(mini):
    named = MINI.replace("s.best_seen = b", "s.best_seen = b as seen")
    (mini / "game.yaml").write_text(named, encoding="utf-8")
    variant(mini, "  - extend: statements.seen\n    after: |\n      s.score = b\n")
    assert diagnostics(mini, "v").items == []


def test_the_base_rule_reads_its_own_locals_around_an_extension(mini):
    """The rule's own statements, wrapped by an extension, read its locals as before."""
    variant(mini, "  - extend: steps.look\n    around: |\n      say \"looking\"\n      proceed\n")
    assert diagnostics(mini, "v").items == []



def language_2(path: Path) -> Path:
    """The file, saying it is written in language 2."""
    path.write_text("language: 2\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    return path

# ---- whose turn it is -------------------------------------------------------------------------

@pytest.mark.parametrize("text, needle", [
    ("let s = seat(1)", "let s"),
    ("s = seat(1)", "s = seat"),
    ("for s in seats:\n          pass", "for s"),
    ('choose "x":\n          option "{s}" for s in seats:\n              pass', 'option "'),
])
def test_a_step_cannot_change_whose_turn_it_is(mini, text, needle):
    """The steps of a turn run one after another with the one turn's name: an extension (or the
    step itself) that gave `s` another value would have changed whose turn it is for the steps
    after it, silently. It is refused where it is written."""
    path = language_2(variant(mini, f"  - extend: steps.look\n    after: |\n      {text}\n"))
    [d] = [d for d in diagnostics(mini, "v").items if d.severity == "error"]
    assert d.code == "E126" and "`s` is whose turn it is" in d.message
    assert (d.loc.file, d.loc.line) == (str(path), find(path, needle)[0])


def test_a_step_changing_whose_turn_it_is_is_a_warning_in_language_1(mini):
    """A file that says no version ran so before (wrongly): it still runs, with a warning."""
    path = variant(mini, "  - extend: steps.look\n    after: |\n      let s = seat(1)\n")
    [d] = diagnostics(mini, "v").items
    assert (d.code, d.severity) == ("W142", "warning") and "an error from language 2" in d.message
    assert (d.loc.file, d.loc.line) == (str(path), find(path, "let s")[0])


def test_proceed_written_as_a_value_is_said_at_it(mini):
    """`let x = proceed(s, c)` has a `proceed`, in the wrong place: said at it, not as if the
    extension had none."""
    path = variant(mini, "  - extend: procedures.score_card\n    around: |\n      let x = proceed(s, c)\n")
    [d] = refused(mini, "v").items
    assert d.code == "E052" and "gives no value" in d.message
    assert (d.loc.line, d.loc.col) == find(path, "proceed(s, c)")


def test_proceed_in_an_extension_of_a_value_points_to_base(mini):
    path = variant(mini, "  - update: phases.main\n    with: {rounds: null, until: \"round == 2\"}\n"
                         "  - extend: phases.main.until\n    around: \"proceed()\"\n")
    [d] = [d for d in diagnostics(mini, "v").items if d.severity == "error"]
    assert d.code == "E143" and "`base`" in d.hint
    assert (d.loc.line, d.loc.col) == find(path, "proceed()")


@pytest.mark.parametrize("inner, needle", [
    ("for x in [1, 2]:\n          pass", "for x"),
    ('choose "x":\n          option "{x}" for x in [1, 2]:\n              pass', 'option "'),
    ("if true:\n          let x = 1", "let x = 1"),
])
def test_a_block_that_gives_an_outer_local_another_type_is_refused(mini, inner, needle):
    """A loop's, an option's or an inner `let`'s name is the local of the block around it: after
    the block that local holds what the block gave it, so another type was read as the first
    (`x + "z"` on an int: a rule error that blamed a `none`)."""
    path = language_2(variant(mini, "  - extend: steps.look\n    after: |\n"
                                    f"      let x = \"abc\"\n      {inner}\n      let y = x + \"z\"\n"))
    [d] = [d for d in diagnostics(mini, "v").items if d.severity == "error"]
    assert d.code == "E120" and "`x` is a text here, and this gives it an int" in d.message
    assert (d.loc.line, d.loc.col) == find(path, needle)


def test_a_block_giving_an_outer_local_another_type_is_a_warning_in_language_1(mini):
    path = variant(mini, "  - extend: steps.look\n    after: |\n"
                         "      let x = \"abc\"\n      for x in [1, 2]:\n          pass\n")
    [d] = [d for d in diagnostics(mini, "v").items if d.code != "W109"]
    assert (d.code, d.severity) == ("W143", "warning") and "an error from language 2" in d.message
    assert (d.loc.line, d.loc.col) == find(path, "for x")


def test_a_block_may_give_an_outer_local_a_value_of_its_type(mini):
    variant(mini, "  - extend: steps.look\n    after: |\n      let x = 0\n      for x in [1, 2]:\n"
                  "          pass\n      if true:\n          let x = 3\n      s.score = x\n")
    assert [d for d in diagnostics(mini, "v").items if d.severity == "error"] == []
    g = game(mini, "v")
    assert g.view(None)["seats"][0]["score"] == 3
