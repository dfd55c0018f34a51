"""Games authored for the tests, written as a designer would: a game file (and its cards) in a
project folder, loaded and compiled, or refused with what `validate` would say."""
from __future__ import annotations

from pathlib import Path

from interpreter.compile import compile_ruleset
from interpreter.engine.plan import Plan
from interpreter.base.diagnostics import Report
from interpreter.load.ruleset import load_ruleset


def write_game(tmp_path: Path, name: str, text: str, cards: str | None = None) -> Path:
    """`rulesets/NAME/game.yaml` (and `cards/NAME/cards.yaml`) under tmp_path: the ruleset's folder."""
    folder = tmp_path / "rulesets" / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    if cards is not None:
        (tmp_path / "cards" / name).mkdir(parents=True, exist_ok=True)
        (tmp_path / "cards" / name / "cards.yaml").write_text(cards, encoding="utf-8")
    return folder


def compiled(tmp_path: Path, name: str, text: str, players: int = 1, cards: str | None = None) -> Plan:
    report = Report()
    rs = load_ruleset(write_game(tmp_path, name, text, cards), report=report)
    assert rs is not None, report.render()
    p = compile_ruleset(rs, players, report)
    assert p is not None, report.render()
    return p


def refused(tmp_path: Path, name: str, text: str, players: int = 1) -> str:
    """What is said of a game that cannot be loaded or compiled (it must not be)."""
    report = Report()
    rs = load_ruleset(write_game(tmp_path, name, text), report=report)
    assert rs is None or compile_ruleset(rs, players, report) is None, "the game was not refused"
    assert report.errors, report.render()
    return report.render()
