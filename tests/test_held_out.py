"""Extensions a designer writes as content only, in a copy of a shipped ruleset: each needed an
extension point or a fix of the engine, and is written here the way docs/authoring.md says.
Each runs a scenario in the copy (the scenario's checks fail when the extension has no effect)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.authoring.scenario import run_scenario

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def heat(tmp_path) -> Path:
    for part in ("rulesets/heat", "cards/heat", "tracks/heat"):
        shutil.copytree(ROOT / part, tmp_path / part)
    return tmp_path / "rulesets" / "heat"


def passes(scenario: Path) -> None:
    out = run_scenario(scenario)
    assert out.passed, out.report.render()


def test_a_legend_that_drives_further_on_a_straight(heat):
    """One legend's reach on a straight, through the Legends module's `legend_reach`: the yellow
    legend drives 11 + 1, the others as in the rulebook's example."""
    (heat / "variants" / "yellow-flyer.yaml").write_text(
        "language: 2\n"
        "variant: {id: yellow-flyer, name: Yellow flyer, description: a test, requires: [legends]}\n"
        "patches:\n"
        "  - extend: functions.legend_reach\n"
        "    around: 'if c.name == \"yellow\" then base + 1 else base'\n", encoding="utf-8")
    text = (heat / "scenarios" / "legends-worked-example.yaml").read_text(encoding="utf-8")
    for old, new in (("modules: [legends]", "variants: [yellow-flyer]"),
                     ("""progress(piece("yellow")) == 44""", """progress(piece("yellow")) == 45""")):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    (heat / "scenarios" / "yellow-flyer.yaml").write_text(text, encoding="utf-8")
    passes(heat / "scenarios" / "yellow-flyer.yaml")


def test_a_bet_line_pays_as_many_places_as_its_payouts_list(tmp_path):
    """Downforce's bets read the places from `bet_payouts`: a variant that gives line 1 a fourth
    place pays it, with no rule restated (before, `x.place > 3` was written in `bet_pay`)."""
    for part in ("rulesets/downforce", "cards/downforce", "tracks/downforce"):
        shutil.copytree(ROOT / part, tmp_path / part)
    folder = tmp_path / "rulesets" / "downforce"
    (folder / "variants" / "fourth.yaml").write_text(
        "language: 2\nvariant: {id: fourth, name: Fourth, description: a test}\npatches:\n"
        "  - set: params.bet_payouts\n    to: [[10, 7, 4, 2], [6, 4, 2], [3, 2, 1]]\n", encoding="utf-8")
    (folder / "scenarios" / "fourth.yaml").write_text(
        "scenario: {name: a fourth place, source: a test}\nruleset: ..\nvariants: [fourth]\nplayers: 3\n"
        "situation: |\n  piece(\"yellow\").place = 4\n  piece(\"red\").place = 1\n"
        "expect:\n  - 'bet_pay(1, piece(\"yellow\")) == 2 and bet_pay(2, piece(\"yellow\")) == 0'\n"
        "  - 'bet_pay(1, piece(\"red\")) == 10'\n", encoding="utf-8")
    passes(folder / "scenarios" / "fourth.yaml")
