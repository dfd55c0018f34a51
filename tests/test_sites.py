"""The table of rule sites (`interpreter/ir/sites.py`) is what every pass goes through: a game
with a rule at every site has each of them parsed, checked, compiled, extended by a module
where the table says so, and printed by `racecraft explain`."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from interpreter.compile import compile_ruleset
from interpreter.ir.sites import EACH, NAMED, SITES, Extend
from interpreter.lang import unparse
from interpreter.base.diagnostics import Report
from interpreter.load.ruleset import load_ruleset
from interpreter.authoring.explain import explain
from interpreter.session.load import Loaded

FIXTURE = Path(__file__).parent / "fixtures" / "everysite"


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "rulesets" / "everysite"
    shutil.copytree(FIXTURE, folder)
    return folder


def _first(data, path: tuple[str, ...], names: tuple[str, ...] = ()):
    """(container, key, names) of the first rule text at `path` in a game file's data, or None."""
    seg, rest = path[0], path[1:]
    if seg in (NAMED, EACH):
        items = list(enumerate(data)) if isinstance(data, list) else list(data.items())
        for key, item in items:
            named = names + ((item["id"] if isinstance(data, list) else key,) if seg == NAMED else ())
            found = (data, key, named) if not rest else _first(item, rest, named)
            if found is not None:
                return found
        return None
    if not isinstance(data, dict) or seg not in data:
        return None
    return (data, seg, names) if not rest else _first(data[seg], rest, names)


def test_the_fixture_has_a_rule_at_every_site():
    rs = load_ruleset(FIXTURE)
    assert {r.site.id for r in rs.rules.rules.values()} == {s.id for s in SITES}


@pytest.mark.parametrize("site", SITES, ids=lambda s: s.id)
def test_every_site_is_checked(tmp_path, site):
    """A name nobody declared, written at this site only, is reported there."""
    folder = _copy(tmp_path)
    data = yaml.safe_load((folder / "game.yaml").read_text())
    container, key, _name = _first(data, site.path)
    container[key] = "let y = nosuchname\n" if site.form.block else "nosuchname"
    (folder / "game.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    report = Report()
    rs = load_ruleset(folder, report=report)
    assert rs is not None, report.render()
    assert compile_ruleset(rs, 2, report) is None
    assert [d.code for d in report.items if "nosuchname" in d.message] == ["E110"], report.render()


def test_every_rule_is_compiled():
    plan = compile_ruleset(load_ruleset(FIXTURE), 2)
    compiled = {g.rule for g in plan.codegen.generated}
    rules = set(load_ruleset(FIXTURE).rules.rules)
    assert rules <= compiled, rules - compiled


def test_every_entry_site_fills_a_field_of_the_plans_entries_and_the_fixture_fills_each():
    """An entry site's rules go into the plan's field `Site.into` names: a field of `Entries` (the
    record of what the engine calls outside the flow), given a function by the fixture's rule."""
    from dataclasses import fields

    from interpreter.engine.plan import Entries
    from interpreter.ir.sites import Form
    names = {f.name for f in fields(Entries)}
    entries = [s for s in SITES if s.form is Form.ENTRY]
    assert entries and all(s.into in names for s in entries), [s.into for s in entries if s.into not in names]
    plan = compile_ruleset(load_ruleset(FIXTURE), 2)
    empty = [s.into for s in entries if not getattr(plan, s.into)]
    assert empty == [], f"the fixture leaves these entries empty: {empty}"


def test_every_site_that_says_so_is_extended_by_a_module(tmp_path):
    folder = _copy(tmp_path)
    data = yaml.safe_load((folder / "game.yaml").read_text())
    patches, expected = [], {}
    for site in SITES:
        if site.extend is Extend.NO:
            continue
        _c, _k, names = _first(data, site.path)
        rule = site.rule_id(names)
        if site.extend is Extend.VALUE:
            patches.append({"extend": rule, "around": "if true then base else base"})
            expected[rule] = "if true then"
        else:
            patches.append({"extend": rule, "before": "let extended_here = 1\n"})
            expected[rule] = "let extended_here = 1"
    (folder / "variants").mkdir()
    variant = {"variant": {"id": "all", "name": "All", "description": "every site"}, "patches": patches}
    (folder / "variants" / "all.yaml").write_text(yaml.safe_dump(variant, sort_keys=False))
    report = Report()
    rs = load_ruleset(folder, variants=["all"], report=report)
    assert rs is not None, report.render()
    for rule, text in expected.items():
        tree = rs.rules.tree(rule)
        shown = unparse.block(tree.body) if hasattr(tree, "body") else unparse.expr(tree)
        assert text in shown, (rule, shown)
    assert compile_ruleset(rs, 2, report) is not None, report.render()
    # every extensible site was extended (view facts, metrics, progress and `also` among them)
    assert {r.split(".")[0] for r in expected} >= {"view", "metrics", "progress", "result", "record"}


def test_every_site_is_explained():
    rs = load_ruleset(FIXTURE)
    out = explain(Loaded(rs, FIXTURE, [], []), 2, None, False)
    for rule in rs.rules.rules:
        assert f"# {rule} (" in out, rule
    python = explain(Loaded(rs, FIXTURE, [], []), 2, None, True)
    for rule in rs.rules.rules:
        assert f"# {rule}, from " in python, rule
