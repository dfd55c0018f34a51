"""Numbers a module may change are params (or properties of what they belong to), and `validate`
warns about a number written in a rule where a param of the same value exists and the number
stands where the rules write the param (W109): in the same slot (what it is combined with,
compared with, given to), or anywhere when no rule reads the param.

The small game of test_modules.py gets params and variants written here; the shipped games must
say no W109 (their numbers are params, or say `# as written`), and the numbers the issue named are
params now: the Garage's draft (`upgrade_picks`, `market_extra`: the championship drafts one round
by setting it, no longer by restating the draft), the weather tokens' amounts, Heat's hand size
read through `hand_limit`.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.check import check
from interpreter.base.diagnostics import Report
from interpreter.load.ruleset import load_ruleset
from test_diagnostics import find
from test_modules import mini_project, variant

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def mini(tmp_path) -> Path:
    return mini_project(tmp_path)


def warnings(folder: Path, *variants: str, modules=()) -> list:
    report = Report()
    rs = load_ruleset(folder, variants=list(variants), modules=list(modules), report=report)
    assert rs is not None, report.render()
    assert check(rs, report) is not None, report.render()
    return [d for d in report.items if d.code == "W109"]


def edit_game(folder: Path, old: str, new: str) -> None:
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    (folder / "game.yaml").write_text(text.replace(old, new), encoding="utf-8")


def test_a_number_that_is_a_params_value_is_a_warning_at_it(mini):
    edit_game(mini, "draw hand_size from deck", "draw 2 from deck")
    [w] = warnings(mini)
    assert w.severity == "warning" and "`2` is the value of param `hand_size`" in w.message
    assert (w.loc.line, w.loc.col) == find(mini / "game.yaml", "2 from deck")
    assert "write `hand_size`" in w.hint and "# as written" in w.hint


def test_a_value_many_params_share_names_a_few_of_them(mini):
    many = "".join(f"  same_{i:02}: 2\n" for i in range(40))
    edit_game(mini, "  hand_size: 2\n", "  hand_size: 2\n" + many)
    edit_game(mini, "draw hand_size from deck", "draw 2 from deck")
    [w] = warnings(mini)
    assert "of param `hand_size`, `same_00`, `same_01` or 38 more:" in w.message, w.message
    assert w.hint.startswith("write one of them;") and len(w.message) < 200


def test_zero_and_one_are_not_said(mini):
    edit_game(mini, "  hand_size: 2\n", "  hand_size: 2\n  one: 1\n  none_at_all: 0\n")
    assert warnings(mini) == []  # the rules write 0 and 1 (`+ [0]`, `+= 1`)


def test_a_line_or_a_rule_that_says_as_written_keeps_its_numbers(mini):
    edit_game(mini, "draw hand_size from deck to hand(s)",
              "draw 2 from deck to hand(s)   # as written: a test")
    assert warnings(mini) == []
    edit_game(mini, 'value: "c.points"', "value: >   # as written: a weight\n      2 * c.points")
    assert warnings(mini) == []
    edit_game(mini, "value: >   # as written: a weight", "value: >")
    assert len(warnings(mini)) == 1


def test_a_rule_that_keeps_its_numbers_keeps_them_when_a_variant_extends_it(mini):
    """An extension of a rule marked `# as written` (the Garage's draft weights, extended by a new
    upgrade symbol) does not make the base's numbers said; the extension's own numbers are (no rule
    reads `hand_size` here: each 2 may be it)."""
    edit_game(mini, "draw hand_size from deck to hand(s)",
              "draw 2 from deck to hand(s)   # as written: a test")
    edit_game(mini, 'value: "c.points"', "value: >   # as written: a weight\n      2 * c.points")
    variant(mini, '  - extend: functions.worth\n    around: "base + 7"\n')
    assert warnings(mini, "v") == []
    path = variant(mini, '  - extend: functions.worth\n    around: "base + 2"\n', "w")
    [w] = warnings(mini, "w")
    assert w.loc.file == str(path)


def test_a_module_sees_the_games_params_and_the_game_does_not_see_a_modules(mini):
    # the variant's own number, where the game's param is 2 (and drawn as the game draws it): said
    # in the variant
    path = variant(mini, "  - extend: procedures.score_card\n    after: |\n"
                         "      draw 2 from deck to hand(s)\n")
    [w] = warnings(mini, "v")
    assert w.loc.file == str(path)
    # a param the variant adds: the game's own 3 (in `best`'s list) is no concern of the game's
    edit_game(mini, "+ [0])", "+ [3])")
    variant(mini, "  - add: params\n    id: bonus\n    item: 3\n", "w")
    assert warnings(mini, "w") == []


def test_a_value_a_variant_gives_a_param_belongs_to_the_variant(mini):
    """`set: params.hand_size to: 5`: the game's own 5 is not said (its file did not write the 5);
    the variant's 5 is."""
    edit_game(mini, "      s.best_seen = b\n",
              "      s.best_seen = b\n          draw 5 from deck to discard\n")
    path = variant(mini, "  - set: params.hand_size\n    to: 5\n"
                         "  - extend: procedures.score_card\n    after: |\n"
                         "      draw 5 from deck to hand(s)\n")
    [w] = warnings(mini, "v")
    assert w.loc.file == str(path)


def test_a_number_where_the_rules_never_write_the_param_is_not_said(mini):
    """A game whose param is 2 writes 2 for other things (halves, the second seat, a pair): those
    2s stand where no rule writes the param, and are not said."""
    edit_game(mini, "          s.best_seen = b\n",
              "          s.best_seen = b\n"
              "          s.score += size(hand(s)) // 2\n"
              "          if s.number == 2 and size(hand(s)) in 1..2:\n"
              "              marks = [marks[2], marks[1]]\n"
              "          let pair = [c for c in hand(s)][1] == top(deck)\n")
    assert warnings(mini) == []


@pytest.mark.parametrize("param_use, number_use", [
    ("let x = size(hand(s)) < hand_size", "let y = size(hand(s)) >= 2"),   # compared with the same thing
    ("let x = s.score + hand_size", "s.score += 2"),                      # added to the same thing
    ("", "draw 2 from deck to discard"),              # drawn from the pile the setup draws `hand_size` from
])
def test_a_number_where_the_rules_write_the_param_is_said(mini, param_use, number_use):
    edit_game(mini, "          s.best_seen = b\n",
              f"          s.best_seen = b\n          {param_use or 'pass'}\n          {number_use}\n")
    [w] = warnings(mini)
    assert (w.loc.line, w.loc.col) == find(mini / "game.yaml", number_use, offset=number_use.index("2"))
    assert "`2` is the value of param `hand_size`" in w.message


def shipped_games() -> list[tuple[str, tuple, tuple]]:
    out = []
    for folder in sorted(p for p in (ROOT / "rulesets").iterdir() if (p / "game.yaml").is_file()):
        out.append((folder.name, (), ()))
        out += [(folder.name, (), (p.stem,)) for p in sorted((folder / "modules").glob("*.yaml"))]
        out += [(folder.name, (p.stem,), ()) for p in sorted((folder / "variants").glob("*.yaml"))]
    return out


def test_no_shipped_game_writes_a_params_value_as_a_number():
    said = []
    for game, variants, modules in shipped_games():
        said += [f"{game} {variants} {modules}: {d.loc}: {d.message}"
                 for d in warnings(ROOT / "rulesets" / game, *variants, modules=modules)]
    assert said == []


def test_the_championship_drafts_one_round_of_the_garages_draft():
    report = Report()
    rs = load_ruleset(ROOT / "rulesets" / "heat", modules=["championship"], report=report)
    assert rs is not None and rs.game.params["upgrade_picks"] == 1 and rs.game.params["market_extra"] == 3
    # the championship's draft is the Garage's, its leftover cards handled by the named statement
    text = (ROOT / "rulesets" / "heat" / "modules" / "championship.yaml").read_text(encoding="utf-8")
    assert "procedures.draft_rounds.do" not in text and "replace: statements.market_left" in text


def test_the_weather_tokens_numbers_are_their_properties():
    report = Report()
    rs = load_ruleset(ROOT / "rulesets" / "heat", modules=["weather"], report=report)
    assert rs is not None
    props = {c.id: dict(c.props) for c in rs.cards}
    assert props["weather_storm"]["setup_amount"] == 1 and props["weather_storm"]["sector_amount"] == 2
    assert props["road_limit_minus"]["amount"] == -1 and props["road_slipstream"]["amount"] == 1
    # no rule of the module writes the amounts
    text = (ROOT / "rulesets" / "heat" / "modules" / "weather.yaml").read_text(encoding="utf-8")
    assert "plus_1" not in text and "minus_1" not in text and "heat_to_deck_3" not in text
