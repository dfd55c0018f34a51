"""A game loaded for a command: by name or path, with variants, modules, a track and params; then
compiled for a number of players."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..compile import compile_ruleset
from ..base.diagnostics import Loc, Report, RulesetError
from ..load.ruleset import Ruleset, find_game, find_ruleset, load_ruleset, shown


@dataclass
class Loaded:
    """A game loaded by name or folder with its variants, modules, track and params, compiled for
    a number of players on demand (`plan`)."""
    ruleset: Ruleset
    path: Path
    variants: list[str]
    modules: list[str]
    track: str | None = None
    params: dict | None = None

    def plan(self, players: int, python: bool = False):
        """Compiled for `players`; `python`: keeping each rule's Python (`explain --python`)."""
        report = Report()
        plan = compile_ruleset(self.ruleset, players, report, python=python)
        if plan is None:
            raise RulesetError(report)
        return plan


def load(name: str, variants=(), modules=(), track: str | None = None, params: dict | None = None) -> Loaded:
    path = find_ruleset(name)
    if path is None:
        report = Report()
        known = sorted(p.name for base in (Path.cwd() / "rulesets",) if base.is_dir() for p in base.iterdir())
        report.add("E001", f"no ruleset `{name}`", None,
                   f"give a ruleset folder, or one of: {', '.join(known)}" if known else
                   "give the path of a ruleset folder")
        raise RulesetError(report)
    return load_from(path, variants, modules, track, params)


def load_from(path: Path, variants=(), modules=(), track: str | None = None,
              params: dict | None = None) -> Loaded:
    """Load the ruleset at `path` (a folder or its game.yaml) with variants, modules, a track and
    values for its params."""
    report = Report()
    rs = load_ruleset(path, variants=variants, modules=modules, report=report, track=track, params=params)
    if rs is None:
        raise RulesetError(report)
    return Loaded(rs, path, list(variants), list(modules), track, dict(params) if params else None)


def load_recorded(head: dict, record: Path, ruleset: str | None = None,
                  how: str = " with --ruleset PATH") -> Loaded:
    """The ruleset a game record was played by: `ruleset` when the person replaying gives one
    (a folder or a name, as `play` takes it), else the game the record names, found by name in
    ./rulesets or the project's rulesets (`how`: how the command is given a ruleset, said when the
    game is not found: ` with --ruleset PATH`). A record's own `ruleset` (a folder, in older
    records) is never used: a record from someone else must not choose what is read."""
    variants, modules, track = head.get("variants", []), head.get("modules", []), head.get("track")
    params = head.get("params") if isinstance(head.get("params"), dict) else None
    if ruleset is not None:
        return load(ruleset, variants, modules, track, params)
    path = find_game(head["game"])
    if path is None:
        report = Report()
        report.add("E001", f"no ruleset of the game `{shown(head['game'])}` here", Loc(str(record), 1, 1),
                   "a record's game is found by its name in ./rulesets or the project's rulesets; "
                   f"give the ruleset it was played by{how}")
        raise RulesetError(report)
    return load_from(path, variants, modules, track, params)
