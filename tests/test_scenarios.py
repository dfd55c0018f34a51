"""Every scenario under rulesets/*/scenarios runs as a test: the rulebook's worked examples."""
from pathlib import Path

import pytest

from interpreter.run.scenario import run_scenario

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted(ROOT.glob("rulesets/*/scenarios/*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parts[-3]}/{p.stem}")
def test_scenario(path):
    out = run_scenario(path)
    assert out.passed, out.report.render()


def test_every_ruleset_has_scenarios():
    for game in (ROOT / "rulesets").iterdir():
        if (game / "game.yaml").is_file():
            assert list((game / "scenarios").glob("*.yaml")), f"{game.name} has no scenarios"


def test_every_ruling_is_pinned_by_a_scenario():
    rulings = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    import re

    ids = re.findall(r"^### ([A-Z0-9]+-\d+):", rulings, re.M)
    assert ids
    for rid in ids:
        section = rulings.split(f"### {rid}:")[1].split("\n### ")[0].split("\n## ")[0]
        named = [n.rsplit("/", 1)[-1] for n in re.findall(r"`([a-z0-9/_-]+\.yaml)`", section)]
        assert named, f"ruling {rid} names no scenario"
        for name in named:
            assert any(p.name == name for p in SCENARIOS), f"{rid}: {name} does not exist"
