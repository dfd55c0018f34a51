"""Loading shares what is shared: each file is parsed once per process, and a variant, a module,
a track or a param patches a copy-on-write view of the loaded files, never the files' data
itself (every game of `validate` is loaded from the same parsed files)."""
from __future__ import annotations

from pathlib import Path

from interpreter.base.diagnostics import Report
from interpreter.load import ruleset as loading
from interpreter.load.yamlsrc import parse_yaml

ROOT = Path(__file__).resolve().parents[1]


def _same(a, b, path="") -> None:
    """The same data, of the same types, at the same file positions."""
    assert type(a) is type(b), path
    assert getattr(a, "loc", None) == getattr(b, "loc", None), path
    if isinstance(a, dict):
        assert list(a) == list(b), path
        assert getattr(a, "key_locs", None) == getattr(b, "key_locs", None), path
        for k in a:
            _same(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{path}[{i}]")
    else:
        assert a == b, path


def test_every_game_of_heat_loads_from_files_parsed_once_and_left_unchanged():
    heat = ROOT / "rulesets" / "heat"
    loading._PARSED.clear()
    loading.forget_loaded()
    base = loading.load_ruleset(heat, report=Report())
    assert base is not None
    parsed = dict(loading._PARSED)
    # every module and variant, with a param; and on every other track the game alone and a
    # variant that patches the track's own data
    combos = [([], [m.stem], None) for m in sorted((heat / "modules").glob("*.yaml"))]
    combos += [([v.stem], [], None) for v in sorted((heat / "variants").glob("*.yaml"))]
    combos += [(variants, [], t) for t in base.other_tracks for variants in ([], ["sprint"])]
    for variants, modules, track in combos:
        r = Report()
        rs = loading.load_ruleset(heat, variants=variants, modules=modules, track=track, report=r,
                                  params={"hand_size": 6} if track is None else None)
        assert rs is not None and r.ok, r.render()
    # the game file and its includes were parsed by the first load only; and however the games
    # patched them, the parsed files hold what a fresh parse of their text holds
    assert all(parsed[key] is loading._PARSED[key] for key in parsed)
    assert len(loading._PARSED) > len(parsed)  # the variants, modules and tracks, once each
    for (name, _digest), (data, text, _said) in loading._PARSED.items():
        _same(data, parse_yaml(text, name, Report()), name)


def test_a_game_loaded_again_is_the_one_loaded_while_its_files_are_the_same(tmp_path):
    import shutil

    from interpreter.base.files import overlaid

    shutil.copytree(ROOT / "rulesets" / "formula5", tmp_path / "rulesets" / "formula5")
    shutil.copytree(ROOT / "tracks" / "formula5", tmp_path / "tracks" / "formula5")
    shutil.copytree(ROOT / "cards" / "formula5", tmp_path / "cards" / "formula5")
    game, tracks = tmp_path / "rulesets" / "formula5", tmp_path / "tracks" / "formula5"
    first = loading.load_ruleset(game, report=Report())
    assert first is not None and loading.load_ruleset(game, report=Report()) is first
    assert loading.load_ruleset(game, params={"hand_size": 10}, report=Report()) is not first
    # a text standing for a file (an upgrade's next step) is read, not the game kept
    text = (game / "game.yaml").read_text(encoding="utf-8")
    with overlaid({game / "game.yaml": text + "\n# an edit\n"}):
        assert loading.load_ruleset(game, report=Report()) is not first
    # a track file that comes is one more that `--track` may name
    shutil.copy(tracks / "monza.yaml", tracks / "imola.yaml")
    again = loading.load_ruleset(game, report=Report())
    assert again is not None and again is not first and "imola" in again.other_tracks
    # a file changed on the disk
    (game / "game.yaml").write_text(text.replace("name: Formula 5", "name: Formula Five"), encoding="utf-8")
    changed = loading.load_ruleset(game, report=Report())
    assert changed is not None and changed is not again and changed.game.game.name == "Formula Five"


def test_a_game_reached_by_another_spelling_of_its_path_names_its_files_so(tmp_path):
    """A game loaded again is the one loaded only when asked for by the same path: its positions
    name its files as they were reached (`heat` and a scenario's `heat/scenarios/..`), so the
    order in which a long-lived process (the editor, a test run) reads them never shows."""
    import shutil

    shutil.copytree(ROOT / "rulesets" / "formula5", tmp_path / "rulesets" / "formula5")
    shutil.copytree(ROOT / "tracks" / "formula5", tmp_path / "tracks" / "formula5")
    shutil.copytree(ROOT / "cards" / "formula5", tmp_path / "cards" / "formula5")
    game = tmp_path / "rulesets" / "formula5"
    (game / "scenarios").mkdir(exist_ok=True)
    around = game / "scenarios" / ".."
    first = loading.load_ruleset(around, report=Report())
    direct = loading.load_ruleset(game, report=Report())
    assert first is not None and direct is not None and direct is not first
    def named(rs) -> set[str]:   # the files the game's rules are placed in
        return {r.tree.loc.file.replace("\\", "/") for r in rs.rules.rules.values() if r.tree is not None}
    assert all("/scenarios/../" not in f for f in named(direct)) and named(direct), named(direct)
    assert all("/scenarios/../" in f for f in named(first)), named(first)
    assert loading.load_ruleset(around, report=Report()) is first
    # ... and compiled apart (the compiled rules place their errors in the files so named)
    from interpreter.compile import compile_ruleset
    assert compile_ruleset(first, 2) is not compile_ruleset(direct, 2)
    assert compile_ruleset(first, 2) is compile_ruleset(loading.load_ruleset(around, report=Report()), 2)


def test_a_variant_patches_its_own_copy_of_the_game():
    heat = ROOT / "rulesets" / "heat"
    sprint = loading.load_ruleset(heat, variants=["sprint"], report=Report())
    base = loading.load_ruleset(heat, report=Report())
    assert sprint is not None and base is not None
    assert sprint.game.boards != base.game.boards
    again = loading.load_ruleset(heat, report=Report())
    assert again is not None and again.game.model_dump() == base.game.model_dump()


def test_a_game_that_fit_its_schema_is_not_checked_against_it_again_but_a_mistake_always_is(
        tmp_path, monkeypatch):
    """The merged game's JSON Schema check is remembered only for data that fit it, by its text:
    loading the same game again skips it, while a file with a mistake, loaded as often as one
    likes, says its mistake each time."""
    import shutil

    from interpreter.load import structure

    folder = tmp_path / "rulesets" / "formula5"
    shutil.copytree(ROOT / "rulesets" / "formula5", folder)
    shutil.copytree(ROOT / "cards" / "formula5", tmp_path / "cards" / "formula5")
    calls = []
    real = structure._validator

    class Counted:
        def __init__(self, validator):
            self.validator = validator

        def iter_errors(self, data):
            calls.append(1)
            return self.validator.iter_errors(data)

    def validator(kind):
        v, schema = real(kind)
        return (Counted(v) if kind == "game" else v), schema
    monkeypatch.setattr(structure, "_validator", validator)
    monkeypatch.setattr(structure, "_FITS", structure.Bounded(512))
    checked = []
    for _ in range(2):
        r = Report()
        assert loading.load_ruleset(folder, report=r) is not None, r.render()
        checked.append(len(calls))
    assert checked[0] > 0 and checked[1] == checked[0]  # the second load checked nothing again
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("\n  players:", "\n  unplayed: 7\n  players:", 1))
    for _ in range(2):
        r = Report()
        assert loading.load_ruleset(folder, report=r) is None
        assert "unplayed" in r.render(), r.render()
        assert len(calls) > checked[-1]  # checked each time
        checked.append(len(calls))
