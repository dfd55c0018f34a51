"""What a variant or a track needs: `requires:` names variants as well as modules; a track that
requires some is raced with them and checked only with them; its params set the game's; `validate`
says which combination failed, once.

The small game of test_modules.py gets variants and track files written here; the shipped example
is Formula 5's track `monza` (requires the variant `laps`) and variant `endurance` (requires the
variants `laps` and `fresh-tyres`).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.authoring.validate import validate_path
from interpreter.base.diagnostics import Report
from interpreter.load.ruleset import load_ruleset
from test_diagnostics import find
from test_modules import MINI, mini_project, variant

ROOT = Path(__file__).resolve().parents[1]

TRACK = """\
track: {{id: {id}, name: T, source: authored for a test{requires}}}
boards:
  board: {{kind: ranking, slots: 2}}
{params}"""


@pytest.fixture
def mini(tmp_path) -> Path:
    board = "boards:\n  board: {kind: ranking, slots: 2}\nresult:"
    folder = mini_project(tmp_path, MINI.replace("result:", board))
    (tmp_path / "tracks" / "mini").mkdir(parents=True)
    return folder


def track(folder: Path, name: str, requires: str = "", params: str = "") -> Path:
    path = folder.parent.parent / "tracks" / "mini" / f"{name}.yaml"
    path.write_text(TRACK.format(id=name, requires=f", requires: [{requires}]" if requires else "",
                                 params=params), encoding="utf-8")
    return path


def with_header(path: Path, header: str) -> None:
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("description: a test}", f"description: a test, {header}}}"),
                    encoding="utf-8")


def load(folder: Path, variants=(), track_name: str | None = None):
    report = Report()
    rs = load_ruleset(folder, variants=list(variants), report=report, track=track_name)
    return rs, report


def test_a_variant_requires_a_variant_and_it_is_applied_first(mini):
    variant(mini, "  - add: params\n    id: laps\n    item: 2\n", "laps")
    variant(mini, "  - change: params.laps\n    by: 1\n", "longer")
    with_header(mini / "variants" / "longer.yaml", "requires: [laps]")
    rs, report = load(mini, ["longer"])
    assert rs is not None, report.render()
    assert rs.applied == ["variant:laps", "variant:longer"]
    assert rs.game.params["laps"] == 3


def test_variants_that_require_each_other_are_one_error(mini):
    variant(mini, "  - set: params.hand_size\n    to: 1\n", "a")
    variant(mini, "  - set: params.hand_size\n    to: 3\n", "b")
    with_header(mini / "variants" / "a.yaml", "requires: [b]")
    with_header(mini / "variants" / "b.yaml", "requires: [a]")
    rs, report = load(mini, ["a"])
    assert rs is None and [d.code for d in report.items] == ["E048"], report.render()
    assert "variant `b` and variant `a` require each other" in report.items[0].message


def test_a_variant_that_requires_itself_says_so(mini):
    path = variant(mini, "  - set: params.hand_size\n    to: 1\n", "a")
    with_header(path, "requires: [a]")
    rs, report = load(mini, ["a"])
    [d] = report.items
    assert rs is None and d.code == "E048" and d.message == "variant `a` requires itself"
    assert (d.loc.line, d.loc.col) == find(path, "a]")


def test_a_missing_requirement_names_a_few_of_many_variants(mini):
    for i in range(30):
        variant(mini, "  - set: params.hand_size\n    to: 1\n", f"v{i:02}")
    with_header(mini / "variants" / "v00.yaml", "requires: [zzzzzz]")
    [d] = load(mini, ["v00"])[1].items
    assert d.code == "E040" and d.hint.endswith("v11 and 18 more"), d.hint


def test_a_track_brings_what_it_requires_and_sets_its_params_once_declared(mini):
    variant(mini, "  - add: params\n    id: laps\n    item: 2\n", "laps")
    track(mini, "long", "laps", "params:\n  laps: 5\n  hand_size: 1\n")
    rs, report = load(mini, track_name="long")
    assert rs is not None, report.render()
    assert rs.applied == ["variant:laps"]
    # `hand_size` is the game's own; `laps` is set once the variant the track requires declares it
    assert (rs.game.params["hand_size"], rs.game.params["laps"]) == (1, 5)


def test_a_variant_after_the_track_changes_what_the_track_set(mini):
    variant(mini, "  - add: params\n    id: laps\n    item: 2\n", "laps")
    variant(mini, "  - change: params.laps\n    by: 1\n", "longer")
    with_header(mini / "variants" / "longer.yaml", "requires: [laps]")
    track(mini, "long", "laps", "params:\n  laps: 5\n")
    rs, report = load(mini, ["longer"], "long")
    assert rs is not None, report.render()
    assert rs.game.params["laps"] == 6


def test_a_misspelt_param_of_a_track_is_said_at_its_line(mini):
    path = track(mini, "t", params="params:\n  hand_sise: 1\n")
    rs, report = load(mini, track_name="t")
    assert rs is None
    [d] = report.items
    assert d.code == "E042" and "the track sets param `hand_sise`" in d.message
    assert (d.loc.file, d.loc.line) == (str(path), find(path, "hand_sise")[0])
    assert d.hint == "did you mean `hand_size`?"


def test_a_track_the_game_includes_cannot_require_variants(mini):
    track(mini, "own", "laps")
    text = (mini / "game.yaml").read_text(encoding="utf-8")
    own = "  - ../../cards/mini/cards.yaml\n  - ../../tracks/mini/own.yaml"
    (mini / "game.yaml").write_text(text.replace("  - ../../cards/mini/cards.yaml", own), encoding="utf-8")
    rs, report = load(mini)
    assert rs is None and [d.code for d in report.items] == ["E036"], report.render()


def test_validate_checks_a_track_only_with_what_it_requires_and_names_the_combination_once(mini):
    """The issue's case: a track with its own laps, a param only one variant declares. Every game
    on that track is made with that variant (the base game too), and a failure there is said once,
    naming the games with what they were made of."""
    variant(mini, "  - add: params\n    id: laps\n    item: 2\n", "laps")
    variant(mini, "  - set: params.hand_size\n    to: 1\n", "short")
    track(mini, "long", "laps", "params:\n  laps: 5\n")
    v = validate_path(mini, play=1)
    assert v.report.ok, v.report.render()
    assert any("tracks: its own, long (with variant laps)" in line for line in v.summary), v.summary
    # a rule that fails on that track only
    variant(mini, "  - add: triggers\n    item: {id: x, on: round_end, do: 'let k = 1 // (5 - laps)'}\n",
            "bad")
    with_header(mini / "variants" / "bad.yaml", "requires: [laps]")
    report = validate_path(mini, play=1, cache=False).report
    errors = [d for d in report.items if d.severity == "error"]
    assert [d.code for d in errors] == ["E202"], report.render()
    assert errors[0].notes == ("found in variant bad (with variant laps) on track long",)


@pytest.mark.parametrize("scenario", ["variant-laps", "variant-endurance-on-monza", "track-monza"])
def test_the_shipped_track_and_variants_that_require_others(scenario):
    from interpreter.authoring.scenario import run_scenario

    out = run_scenario(ROOT / "rulesets" / "formula5" / "scenarios" / f"{scenario}.yaml")
    assert out.passed, out.report.render()


def _heat(variants: list[str]):
    report = Report()
    rs = load_ruleset(ROOT / "rulesets" / "heat", variants=variants, report=report)
    return rs, report


@pytest.mark.parametrize("order", [["team", "legends-pro"], ["legends-pro", "team"]])
def test_a_module_a_variant_requires_is_applied_with_the_modules(order):
    """`legends-pro` requires the Legends module (1-6 players); `team` makes a game of 2 or 3: the
    module is applied before both variants, so `team`'s count holds listed either way (listed
    first, the module came after it and let 4 players in, who broke the setup)."""
    rs, report = _heat(order)
    assert rs is not None, report.render()
    players = rs.game.game.players
    assert (players.min, players.max) == (2, 3)


@pytest.mark.parametrize("order", [["sprint", "event-5"], ["event-5", "sprint"]])
def test_a_change_applies_after_every_set_in_either_order(order):
    """`sprint` sets a race of one lap, event 5 makes it one lap longer: two laps whichever is
    listed first (listed first, the event's lap was undone by the sprint's `set`)."""
    rs, report = _heat(order)
    assert rs is not None, report.render()
    assert rs.game.boards["track"].laps == 2


def test_two_add_ons_that_set_one_value_differently_are_not_played_together():
    """Two event cards (one is raced at a time): each sets the sponsors dealt at the start, and
    neither requires the other, so the order would decide: E055 at the second one's patch."""
    path = ROOT / "rulesets" / "heat" / "variants" / "event-2.yaml"
    rs, report = _heat(["event-1", "event-2"])
    assert rs is None
    found = [d for d in report.items if d.code == "E055"]
    assert found and found[0].loc.file == str(path)
    assert found[0].loc.line == find(path, "params.sponsors_at_start")[0]
    assert found[0].message == ("variant `event-2` sets `params.sponsors_at_start` to 1, variant `event-1` "
                                "to 2: played together, the order they are listed in would decide")
