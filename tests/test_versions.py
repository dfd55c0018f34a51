"""The language changes under designers' feet: a file says its version (`language: 2`); each form
an older version wrote is read as its new form with a warning that shows it (W107) in a file of
that version (or one that says none), is an error whose hint names the new form (E107) in a file
of the version that replaced it, and `racecraft upgrade FILE` rewrites it in place.

For each old form: the warning at its line, the upgrade (the file's text, comments kept), and the
game it makes being the game the new form makes (the same trees, the same games played).
"""
from __future__ import annotations

import hashlib
import io
import json
import shutil
from pathlib import Path

import pytest

from interpreter.agents.base import RandomAgent
from interpreter.authoring.upgrade import upgrade
from interpreter.check import check
from interpreter.cli import main
from interpreter.compile import compile_checked
from interpreter.engine.game import Game
from interpreter.lang import nodes as n
from interpreter.lang import unparse
from interpreter.base.diagnostics import Report
from interpreter.lang.parser import parse_block
from interpreter.load.ruleset import load_ruleset
from interpreter.session.playing import play
from test_diagnostics import find

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def project(tmp_path) -> Path:
    for part in ("rulesets", "cards", "tracks"):
        shutil.copytree(ROOT / part, tmp_path / part)
    return tmp_path


def loaded(folder: Path, variants=(), modules=()):
    report = Report()
    rs = load_ruleset(folder, variants=list(variants), modules=list(modules), report=report)
    assert rs is not None, report.render()
    checked = check(rs, report)
    assert checked is not None, report.render()
    return rs, checked, report


def old_forms(report: Report, path: Path) -> list[tuple[str, int]]:
    return [(d.code, d.loc.line) for d in report.items
            if d.code in ("W107", "E107") and d.loc.file == str(path)]


def games(rs, checked, players: int, seeds: int = 3) -> list:
    plan = compile_checked(rs, checked, players)
    out = []
    for seed in range(1, seeds + 1):
        game = Game(plan, seed)
        result = play(game, [RandomAgent(f"{seed}/{s}") for s in range(players)])
        out.append((hashlib.sha256(json.dumps(game.answers).encode()).hexdigest(), result["order"]))
    return out


def spelled(tree) -> str:
    """A rule's tree in the engine's one spelling (`racecraft explain`)."""
    return unparse.block(tree.body) if isinstance(tree, n.Block) else unparse.expr(tree)


def same_rules(a, b) -> bool:
    """Two checked games whose rules are the same trees, rule by rule."""
    return a.rules.rules.keys() == b.rules.rules.keys() and all(
        spelled(a.rules.rules[k].tree) == spelled(b.rules.rules[k].tree) for k in a.rules.rules)


def test_run_upgrade(project, capsys, monkeypatch):
    """`racecraft upgrade` on a variant written in language 1: `--check` says what would change and
    exits 1, `--diff` prints it, and without them the file is rewritten (comments kept), after
    which `--check` is content."""
    monkeypatch.chdir(project)
    path = Path("rulesets/formula5/variants/old.yaml")
    path.write_text(OLD_PIT_LANE, encoding="utf-8")
    assert main(["upgrade", str(path), "--check"]) == 1
    assert "would be rewritten in language 2 (3 old forms)" in capsys.readouterr().out
    assert main(["upgrade", str(path), "--diff"]) == 0
    assert "+        swap(car, behind)      # behind it now" in capsys.readouterr().out
    assert path.read_text(encoding="utf-8") == OLD_PIT_LANE      # --check and --diff write nothing
    assert main(["upgrade", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == NEW_PIT_LANE
    capsys.readouterr()
    assert main(["upgrade", str(path), "--check"]) == 0
    assert "language 2 already" in capsys.readouterr().out


@pytest.mark.parametrize("name, content, words", [
    ("text.yaml", "just a line\n", "cannot tell what kind of file this is"),
    ("list.yaml", "- 1\n- 2\n", "cannot tell what kind of file this is"),
    ("empty.yaml", "", "file is empty"),
    ("binary.yaml", b"\x00\xff\x10", "binary"),
    ("folder.yaml", None, "it is a folder"),
    ("pipe.yaml", "fifo", "named pipe"),
])
def test_upgrade_leaves_a_file_that_is_not_a_designers_alone(tmp_path, capsys, name, content, words):
    """Not a game's file (a line of text, a list, a pipe that would block a read): said once,
    with no Python error text, and not written (a `language: 2` line was added to any text)."""
    import os

    path = tmp_path / name
    if content is None:
        path.mkdir()
    elif content == "fifo":
        os.mkfifo(path)
    elif isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    assert main(["upgrade", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("error[") == 1 and words in err and "Errno" not in err, err
    if isinstance(content, str) and content != "fifo":
        assert path.read_text(encoding="utf-8") == content


def test_upgrade_of_a_variant_outside_a_ruleset_is_refused_not_half_done(project, capsys):
    """Without its game its rules are not checked, so an old form in them is not found: adding
    `language: 2` alone would have turned it into an error."""
    path = project / "old.yaml"
    path.write_text(OLD_PIT_LANE, encoding="utf-8")
    assert main(["upgrade", str(path)]) == 1
    assert "no game.yaml two folders up" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == OLD_PIT_LANE


# ---- statements: `swap A with B`, `place A on B` ---------------------------------------------------

OLD_PIT_LANE = """\
# yaml-language-server: $schema=../../../schemas/variant.schema.json
# the pit lane as written last month (this comment stays)
variant:
  id: old
  name: Pit lane
  description: Leaving the pits costs a place.
patches:
  - add: steps.race
    after: player_plays
    item:
      id: leave_pit_lane
      if: "car.pitted and car.slot < size(slots(grid))"   # the car in the pits
      do: |
        let behind = at(grid, car.slot + 1)
        swap car with behind      # behind it now
        say "{car.name} leaves the pit lane behind {behind.name}"
"""
_NOTE = "# the pit lane as written last month (this comment stays)\n"
NEW_PIT_LANE = OLD_PIT_LANE.replace(_NOTE, _NOTE + "language: 2\n") \
    .replace("car.slot", "slot_of(car)").replace("swap car with behind", "swap(car, behind)")


def test_old_statements_and_slot_are_read_as_the_new_forms_with_warnings(project):
    folder = project / "rulesets" / "formula5"
    path = folder / "variants" / "old.yaml"
    path.write_text(OLD_PIT_LANE, encoding="utf-8")
    rs, checked, report = loaded(folder, ["old"])
    assert sorted(old_forms(report, path)) == [("W107", 12), ("W107", 14), ("W107", 15)]
    d = next(d for d in report.items if d.loc.line == 15)
    assert d.message == "`swap car with behind`: since language 2 it is written `swap(car, behind)`"
    assert (d.loc.line, d.loc.col) == find(path, "swap car")
    assert "racecraft upgrade" in d.hint
    # the game is the shipped pit lane's (written in the new forms)
    new_rs, new_checked, _ = loaded(folder, ["pit-lane"])
    rule = "steps.leave_pit_lane"
    assert spelled(checked.rules.rules[rule].tree) == spelled(new_checked.rules.rules[rule].tree)
    assert games(rs, checked, 4) == games(new_rs, new_checked, 4)


def test_the_upgrade_writes_the_new_forms_in_place(project):
    path = project / "rulesets" / "formula5" / "variants" / "old.yaml"
    path.write_text(OLD_PIT_LANE, encoding="utf-8")
    u = upgrade(path)
    assert u.after == NEW_PIT_LANE and len(u.done) == 3 and u.by_hand == []


def test_old_forms_inside_old_forms_are_upgraded_in_one_run(project, capsys, monkeypatch):
    """`swap car with at(grid, car.slot + 1)`: the inner form shows its edit only once the outer is
    rewritten; one run rewrites both, each round checked, and the file plays the same games."""
    monkeypatch.chdir(project)
    folder = Path("rulesets/formula5")
    path = folder / "variants" / "old.yaml"
    nested = OLD_PIT_LANE.replace("        let behind = at(grid, car.slot + 1)\n", "") \
        .replace("swap car with behind", "swap car with at(grid, car.slot + 1)") \
        .replace("{behind.name}", "the car behind")
    path.write_text(nested, encoding="utf-8")
    rs, checked, _ = loaded(folder, ["old"])
    assert main(["upgrade", str(path)]) == 0
    assert "rewritten in language 2" in capsys.readouterr().out
    after = path.read_text(encoding="utf-8")
    assert "swap(car, at(grid, slot_of(car) + 1))" in after and "language: 2" in after
    new_rs, new_checked, report = loaded(folder, ["old"])
    assert old_forms(report, path) == [] and report.ok
    assert games(rs, checked, 3) == games(new_rs, new_checked, 3)


def test_a_file_with_forms_left_by_hand_keeps_its_language_and_is_written_before_it_is_said(
        project, capsys, monkeypatch):
    """What can be rewritten is; the rest is listed and the file keeps its language (where the old
    forms still work, with warnings); the file is written before anything is printed, so an output
    closed early (`| head`) never leaves "rewritten" said of a file unwritten."""
    monkeypatch.chdir(project)
    path = Path("rulesets/heat/variants/old.yaml")
    counted = '      say "{car.name} has {size(hand(car.owner))} cards"\n'   # an old call: mechanical
    path.write_text(OLD_LABEL + counted, encoding="utf-8")
    assert main(["upgrade", str(path), "--check"]) == 1
    capsys.readouterr()

    class Closed(io.StringIO):
        def write(self, text):
            raise BrokenPipeError

    with monkeypatch.context() as m:
        m.setattr("sys.stdout", Closed())
        main(["upgrade", str(path)])   # (the command's net takes the closed output)
    after = path.read_text(encoding="utf-8")
    assert after == OLD_LABEL + counted.replace("hand(car.owner)", "hand(car_of(car.owner))")
    _rs, _checked, report = loaded(Path("rulesets/heat"), ["old"])
    assert old_forms(report, path) == [("W107", 5)]
    # again: nothing more is mechanical; `--check` still says there is work left
    assert main(["upgrade", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{path}: nothing rewritten" in out and f"to do by hand: {path}:5:31: `c.label`" in out
    assert main(["upgrade", str(path), "--check"]) == 1


def test_an_old_form_in_a_file_of_language_2_is_an_error_naming_the_new_form(project):
    folder = project / "rulesets" / "formula5"
    path = folder / "variants" / "old.yaml"
    path.write_text(OLD_PIT_LANE.replace("variant:\n", "language: 2\nvariant:\n", 1), encoding="utf-8")
    report = Report()
    assert load_ruleset(folder, variants=["old"], report=report) is None
    [d] = report.items
    assert d.code == "E107" and d.hint == "write `swap(car, behind)`"


def test_the_upgraded_file_is_valid_and_the_same_game(project):
    """What `upgrade` wrote is read without an old form, and is the game the old file made."""
    folder = project / "rulesets" / "formula5"
    path = folder / "variants" / "old.yaml"
    path.write_text(OLD_PIT_LANE, encoding="utf-8")
    rs, checked, _ = loaded(folder, ["old"])
    path.write_text(upgrade(path).after, encoding="utf-8")
    new_rs, new_checked, report = loaded(folder, ["old"])
    assert old_forms(report, path) == [] and report.ok
    assert same_rules(checked, new_checked)
    assert games(rs, checked, 3) == games(new_rs, new_checked, 3)


OLD_SETUP = """\
variant: {id: old, name: Old setup, description: the setup as written last month}
patches:
  - set: setup
    to: |
      for s in seats:
          cars[s.number].owner = s
      for c in shuffled(cars):
          place c on grid   # the grid fills from the front
      shuffle deck
      deal_hands()
      turn_up_columns()
"""


def test_place_on_is_the_call(project):
    folder = project / "rulesets" / "formula5"
    path = folder / "variants" / "old.yaml"
    path.write_text(OLD_SETUP, encoding="utf-8")
    rs, checked, report = loaded(folder, ["old"])
    [d] = [d for d in report.items if d.code == "W107"]
    assert (d.loc.line, d.loc.col) == find(path, "place c on grid")
    assert d.message == "`place c on grid`: since language 2 it is written `place(c, grid)`"
    base_rs, base_checked, _ = loaded(folder)     # the shipped setup writes `place(c, grid)`
    assert spelled(checked.rules.rules["setup"].tree) == spelled(base_checked.rules.rules["setup"].tree)
    assert games(rs, checked, 4) == games(base_rs, base_checked, 4)
    after = upgrade(path).after
    assert after == "language: 2\n" + OLD_SETUP.replace("place c on grid", "place(c, grid)")
    path.write_text(after, encoding="utf-8")
    _rs, again, report = loaded(folder, ["old"])
    assert old_forms(report, path) == [] and same_rules(again, checked)


def test_an_old_statement_from_no_file_is_of_the_current_version():
    report = Report()
    old = parse_block("place c on grid\n", report)
    new = parse_block("place(c, grid)\n", Report())
    assert old is not None and new is not None and n.same(old.body, new.body)
    assert [d.code for d in report.items] == ["E107"]


# ---- attributes the game renamed: Heat's seat `finished` and `place`, now the car's ---------------

OLD_HEAT = """\
variant: {id: old, name: Old, description: written before cars finished}
patches:
  - extend: steps.replenish
    after: |
      if car.owner.finished and car.owner.place == 1:
          say "{car.name} won"
"""


def test_a_renamed_attribute_is_read_as_its_new_form(project):
    folder = project / "rulesets" / "heat"
    path = folder / "variants" / "old.yaml"
    path.write_text(OLD_HEAT, encoding="utf-8")
    rs, checked, report = loaded(folder, ["old"])
    assert old_forms(report, path) == [("W107", 5), ("W107", 5)]
    assert {d.message for d in report.items if d.code == "W107"} == {
        "`car.owner.finished`: since language 2 it is written `car_of(car.owner).finished`",
        "`car.owner.place`: since language 2 it is written `car_of(car.owner).place`"}
    new_path = folder / "variants" / "new.yaml"
    new_path.write_text(OLD_HEAT.replace("id: old", "id: new").replace("car.owner.finished",
                        "car_of(car.owner).finished").replace("car.owner.place", "car_of(car.owner).place"),
                        encoding="utf-8")
    _new_rs, new_checked, new_report = loaded(folder, ["new"])
    assert old_forms(new_report, new_path) == []
    assert same_rules(checked, new_checked)
    written = new_path.read_text(encoding="utf-8").replace("id: new", "id: old")
    assert upgrade(path).after == "language: 2\n" + written


# ---- the cell board: `rect` and `cell_rect` are the tag `curve` -------------------------------------

def test_a_cells_rect_and_cell_rect_are_the_tag_curve(project):
    track = project / "tracks" / "downforce" / "lakeshore-bay.yaml"
    text = track.read_text(encoding="utf-8")
    old_track = "\n".join(line if line.lstrip().startswith("#") else
                          line.replace("tags: [curve]", "rect: false") for line in text.split("\n")).replace(
        "{id: a1, front: 60, lane: 1,", "{id: a1, front: 60, lane: 1, rect: true,", 1)
    track.write_text(old_track, encoding="utf-8")
    game = project / "rulesets" / "downforce" / "game.yaml"
    new_rule = 'rect_only = rect_only and not cell_tagged(track(), car, "curve")'
    game.write_text(game.read_text(encoding="utf-8").replace("language: 2\n", "").replace(
        new_rule, "rect_only = rect_only and cell_rect(track(), car)"), encoding="utf-8")  # as last month
    folder = project / "rulesets" / "downforce"
    rs, checked, report = loaded(folder)
    assert len(old_forms(report, track)) == old_track.count("rect: false") + 1
    [d] = [d for d in report.items if d.code == "W107" and d.loc.file == str(game)]
    assert d.message.endswith('since language 2 it is written `not cell_tagged(track(), car, "curve")`')
    # the upgrade gives back the track and the rule as they are shipped (and the version line)
    assert upgrade(track).after.replace("language: 2\n", "") == text
    assert upgrade(game).after == (ROOT / "rulesets" / "downforce" / "game.yaml").read_text(encoding="utf-8")
    new_rs, new_checked, _ = loaded(ROOT / "rulesets" / "downforce")
    assert same_rules(checked, new_checked)
    assert games(rs, checked, 4) == games(new_rs, new_checked, 4)


# ---- a card's name: `props.label` ----------------------------------------------------------------------

EXTRA = """\
# my cards (a comment that stays)
source: authored for a test
cards:
  - {id: nitro_kit, count: 1, starts_in: deck, per_piece: true, props: {speed: 5, label: "Nitro kit"}}
  - id: slick_tyres
    count: 1
    per_piece: true
    starts_in: deck
    props: {speed: 2, label: "Slick tyres"}
"""


def test_a_cards_label_is_its_name(project):
    cards = project / "cards" / "heat" / "extra.yaml"
    cards.write_text(EXTRA, encoding="utf-8")
    folder = project / "rulesets" / "heat"
    (folder / "variants" / "extra.yaml").write_text(
        "variant: {id: extra, name: Extra, description: a test}\ninclude: [../../../cards/heat/extra.yaml]\n"
        "patches:\n  - set: params.hand_size\n    to: 8\n", encoding="utf-8")
    rs, checked, report = loaded(folder, ["extra"])
    assert old_forms(report, cards) == [("W107", 4), ("W107", 9)]
    names = {c.id: c.name for c in rs.cards}
    assert names["nitro_kit"] == "Nitro kit" and names["slick_tyres"] == "Slick tyres"  # what players read
    after = upgrade(cards).after
    note = "# my cards (a comment that stays)\n"
    assert after == EXTRA.replace(note, note + "language: 2\n") \
        .replace("{id: nitro_kit, count", '{id: nitro_kit, name: "Nitro kit", count') \
        .replace("  - id: slick_tyres\n", '  - id: slick_tyres\n    name: "Slick tyres"\n')
    cards.write_text(after, encoding="utf-8")
    new_rs, new_checked, new_report = loaded(folder, ["extra"])
    assert old_forms(new_report, cards) == [] and same_rules(checked, new_checked)
    assert {c.id: c.name for c in new_rs.cards} == names


def test_a_label_without_a_name_in_language_2_is_an_error(project):
    cards = project / "cards" / "heat" / "extra.yaml"
    cards.write_text("language: 2\n" + EXTRA, encoding="utf-8")
    report = Report()
    from interpreter.load.ruleset import read_file

    read_file(cards, report)
    assert [d.code for d in report.items] == ["E107", "E107"]
    assert report.items[0].hint == 'write `name: "Nitro kit"`'


# ---- versions ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("said, hint", [(3, "a newer Racecraft reads it"),
                                        (0, "says `language: 2`"),
                                        (-1, "says `language: 2`"),
                                        (99999999999999999999, "a newer Racecraft reads it")])
def test_a_version_this_engine_does_not_read_is_an_error(project, said, hint):
    path = project / "rulesets" / "formula5" / "variants" / "pit-lane.yaml"
    text = path.read_text(encoding="utf-8").replace("language: 2\n", "")
    path.write_text(f"language: {said}\n" + text, encoding="utf-8")
    report = Report()
    load_ruleset(project / "rulesets" / "formula5", variants=["pit-lane"], report=report)
    [d] = report.items
    assert d.code == "E027" and d.loc.file == str(path) and d.loc.line == 1 and hint in d.hint


@pytest.mark.parametrize("said", ['"two"', '"2"', "[2]", "{v: 2}", "true"])
def test_a_version_that_is_not_a_number_is_one_type_error(project, said):
    """Not a version this engine does not read (`language: "2"` was said as "`language: 2`: this
    engine reads 1 to 2", next to the type error): one error, the type's, at the value."""
    path = project / "rulesets" / "formula5" / "variants" / "pit-lane.yaml"
    text = path.read_text(encoding="utf-8").replace("language: 2\n", "")
    path.write_text(f"language: {said}\n" + text, encoding="utf-8")
    report = Report()
    load_ruleset(project / "rulesets" / "formula5", variants=["pit-lane"], report=report)
    [d] = report.items
    assert d.code == "E023" and "`language`: expected a whole number" in d.message
    assert (d.loc.file, d.loc.line) == (str(path), 1)


def test_an_empty_list_that_needs_items_says_so_in_words(project):
    path = project / "rulesets" / "formula5" / "variants" / "pit-lane.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text[:text.index("patches:")] + "patches: []\n", encoding="utf-8")
    report = Report()
    load_ruleset(project / "rulesets" / "formula5", variants=["pit-lane"], report=report)
    [d] = report.items
    assert d.message == "`patches` is empty: it needs at least 1 item"


def test_the_shipped_games_say_the_current_version():
    for path in [*ROOT.glob("rulesets/*/game.yaml"), *ROOT.glob("rulesets/*/modules/*.yaml"),
                 *ROOT.glob("rulesets/*/variants/*.yaml")]:
        assert "\nlanguage: 2\n" in "\n" + path.read_text(encoding="utf-8"), path


def test_a_file_with_other_errors_is_not_upgraded(project, capsys, monkeypatch):
    """A rule that does not check may hold old forms not found yet: the errors come first, and the
    file is left as it is (a `language: 2` would make what was not found errors)."""
    monkeypatch.chdir(project)
    path = Path("rulesets/formula5/variants/old.yaml")
    broken = OLD_PIT_LANE.replace("car.pitted", "car.piited")
    path.write_text(broken, encoding="utf-8")
    assert main(["upgrade", str(path)]) == 1
    shown = capsys.readouterr()
    assert "error[E110]: a piece has no `piited`" in shown.err + shown.out
    assert f"{path}: not upgraded: the errors above come first" in shown.err
    assert path.read_text(encoding="utf-8") == broken


# ---- a card's words: Heat's `c.label` (its cards had a `label` property), now the card's name -------

OLD_LABEL = """\
variant: {id: old, name: Old, description: written when Heat's cards had labels}
patches:
  - extend: steps.replenish
    after: |
      say "{car.name} holds {[c.label for c in hand(car)]}"   # what it holds
"""


def _said(rs, checked, players: int = 2) -> list[str]:
    game = Game(compile_checked(rs, checked, players), 1, trace=True)
    play(game, [RandomAgent(f"1/{s}") for s in range(players)])
    return [e[2] for e in game.st.trace if e[0] == "say"]


def test_a_cards_label_in_a_rule_is_the_words_of_its_name(project):
    folder = project / "rulesets" / "heat"
    path = folder / "variants" / "old.yaml"
    path.write_text(OLD_LABEL, encoding="utf-8")
    rs, checked, report = loaded(folder, ["old"])
    [d] = [d for d in report.items if d.code == "W107"]
    assert (d.loc.line, d.loc.col) == find(path, "c.label")
    assert d.message == '`c.label`: since language 2 it is written `"{c}"`'
    words = _said(rs, checked)
    assert any(" holds " in w for w in words)
    # the new form, a text, cannot be written inside the template's quotes: by hand, and the file
    # keeps its language meanwhile (in language 2 the old form would be an error)
    u = upgrade(path)
    assert u.after == OLD_LABEL and not u.changed and [x.loc.line for x in u.by_hand] == [5]
    by_hand = "language: 2\n" + u.after.replace("[c.label for c in hand(car)]", "cards(hand(car))")
    path.write_text(by_hand, encoding="utf-8")
    new_rs, new_checked, new_report = loaded(folder, ["old"])
    assert old_forms(new_report, path) == [] and _said(new_rs, new_checked) == words


def test_a_cards_label_said_alone_is_upgraded_to_its_words(project):
    folder = project / "rulesets" / "heat"
    path = folder / "variants" / "old.yaml"
    old = OLD_LABEL.replace("{[c.label for c in hand(car)]}", "{top(hand(car)).label}")
    path.write_text(old, encoding="utf-8")
    rs, checked, _ = loaded(folder, ["old"])
    after = upgrade(path).after     # `{x.label}` in a template: the words of the card, `{x}`
    assert after == "language: 2\n" + old.replace("{top(hand(car)).label}", "{top(hand(car))}")
    path.write_text(after, encoding="utf-8")
    new_rs, new_checked, new_report = loaded(folder, ["old"])
    assert old_forms(new_report, path) == [] and _said(new_rs, new_checked) == _said(rs, checked)


def test_a_game_recorded_before_an_upgrade_still_replays_and_resumes(project, capsys, monkeypatch):
    """An upgrade changes the files' bytes, so the rules' digest, not what they mean: the text it
    replaced is kept in the user's data folder, and a record of the old text replays and resumes;
    a file changed by hand after that is a change of the rules again."""
    monkeypatch.chdir(project)
    monkeypatch.setenv("XDG_DATA_HOME", str(project / "data"))
    path = Path("rulesets/formula5/variants/old.yaml")
    path.write_text(OLD_PIT_LANE, encoding="utf-8")
    whole, half = project / "whole.jsonl", project / "half.jsonl"
    assert main(["play", "formula5", "--variant", "old", "--seats", "random,random,random", "--seed", "4",
                 "--log", str(whole)]) == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("a\nb\n"))
    assert main(["play", "formula5", "--variant", "old", "--seats", "human,random", "--seed", "4",
                 "--log", str(half)]) == 1
    assert main(["upgrade", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == NEW_PIT_LANE
    capsys.readouterr()
    assert main(["replay", str(whole)]) == 0
    said = capsys.readouterr()
    assert "replayed exactly" in said.out and "upgraded (racecraft upgrade) since" in said.err
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{'abcdefghi'[i % 9]}\n" for i in range(400))))
    assert main(["play", "--resume", str(half)]) == 0
    capsys.readouterr()
    # a change by hand: the rules changed
    path.write_text(NEW_PIT_LANE.replace("Leaving the pits", "Leaving the pit lane"), encoding="utf-8")
    assert main(["replay", str(whole)]) == 1
    assert "E304" in capsys.readouterr().err
