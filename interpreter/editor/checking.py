"""What `validate` says of a file, as the editor holds it: the games the file belongs to (a module
with its game, a track with the games that race it, a cards file with those that include it)
loaded, checked and compiled by validate's own `check_game`, with the editor's unsaved texts read
in place of the files (`base.files.overlaid`). Only the smoke games are not played: they take
seconds, and `validate` plays them.

Each game's verdict is kept with the digests of the files it read: a game none of whose texts
changed is not checked again, and the loader keeps each file parsed by its digest, so an edit
re-reads only the file edited.
"""
from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..authoring import verdicts
from ..authoring.related import includers, racers
from ..authoring.validate import Job, check_game, validate_path
from ..base.cache import Bounded
from ..base.diagnostics import Diagnostic, Loc, Report
from ..base.files import overlaid, present
from ..ir.models import kind_of
from ..load.ruleset import Ruleset, load_ruleset, read_file
from ..load.structure import check_structure
from ..load.yamlsrc import read_bytes

# the games a cards file is checked with, at most (a file every game of a project includes)
MAX_GAMES = 4

# kinds of file checked as the games they belong to; the others (scenarios, seasons, a file of no
# kind) are what `validate FILE` checks of them, none of which plays smoke games
_IN_GAMES = ("game", "module", "variant", "track", "cards")


@dataclass
class Outcome:
    """What checking a file found: its diagnostics (anywhere: the base game's file too), the
    games it was checked with, a ruleset for what the editor knows of names (None: none loads),
    and how long it took."""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    games: list[tuple[Path, Job]] = field(default_factory=list)
    ruleset: Ruleset | None = None
    seconds: float = 0.0
    kept: int = 0   # games whose verdict was kept (none of their texts changed)
    unsaved: bool = False   # a file not on the disk yet: only its form was checked


# each game's verdict by (folder, job), with the files (and digests) it read
_VERDICTS: Bounded[tuple[str, Job], dict] = Bounded(64)


def check_file(path: Path, texts: dict[Path, str]) -> Outcome:
    """Everything `validate` checks of the file `path` but its smoke games, reading `texts` (the
    editor's open files) in place of what is on the disk."""
    start = time.perf_counter()
    out = Outcome()
    with overlaid(texts):
        report = Report()
        data = read_file(path, report)
        kind = kind_of(data) if isinstance(data, dict) else None
        if data is None:
            out.diagnostics = report.items
        elif kind is None and not _in_a_project(path):
            pass   # another program's YAML (the editor runs the server for every YAML file)
        elif kind in _IN_GAMES and not present(path):
            # (a text the editor did not give: only its form can be checked)
            check_structure(data, str(kind), str(path), report)
            out.diagnostics, out.unsaved = report.items, True
        elif kind in _IN_GAMES:
            out.games = games_of(path, data, kind, report)
            out.diagnostics = _unique(report.items + _in_games(out))
            out.ruleset = _loaded(*out.games[0]) if out.games else None
        else:
            out.diagnostics = validate_path(path, jobs=1, cache=False).report.items
            out.ruleset = _scenario_game(path, data) if kind == "scenario" else \
                _loaded(_two_up(path), Job()) if kind == "season" else None
    out.seconds = time.perf_counter() - start
    return out


def games_of(path: Path, data: Any, kind: str, report: Report) -> list[tuple[Path, Job]]:
    """The games `validate` checks a file of this kind with (each at its most players only, on
    one track): its own for a game, module or variant; those that race a track, or include a cards
    file (the first MAX_GAMES). A file that is not well formed is said and in no game."""
    if kind == "game":
        return [(path.parent, Job(counts="most"))]
    if check_structure(data, kind, str(path), report) is None:
        return []
    if kind in ("module", "variant"):
        folder = _two_up(path)
        if not (folder / "game.yaml").is_file():
            return []
        names = (path.stem,)
        return [(folder, Job(variants=names, counts="most") if kind == "variant"
                 else Job(modules=names, counts="most"))]
    if kind == "track":
        return [(folder, Job(track=path.stem, counts="most")) for folder in racers(path)][:MAX_GAMES]
    return [(folder, Job(tuple((asked or {}).get("variants", [])), tuple((asked or {}).get("modules", [])),
                         counts="most"))
            for folder, asked in includers(path)][:MAX_GAMES]


def _in_a_project(path: Path) -> bool:
    """Is the file where a Racecraft project keeps its files (a ruleset, cards/, tracks/)?"""
    here = Path(os.path.abspath(path))
    return any(f.name in ("rulesets", "cards", "tracks") or (f / "game.yaml").is_file() for f in here.parents)


def _two_up(path: Path) -> Path:
    return path.resolve().parent.parent


def _in_games(out: Outcome) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    for folder, job in out.games:
        key = (str(folder.resolve()), job)
        verdict = _VERDICTS.get(key)
        if verdict is not None and _same_texts(verdict["files"]):
            out.kept += 1
        else:
            verdict = check_game(folder, None, job, 0)   # (no smoke game: 0 games at one count)
            if verdict["files"] is not None:
                _VERDICTS[key] = verdict
        found += verdicts.diagnostics(verdict["items"])
    return found


def _same_texts(files: list | None) -> bool:
    """Does each file a verdict read hold the text it did (an open file's: the editor's)?"""
    if files is None:
        return False
    for name, digest in files:
        raw = read_bytes(Path(name), Report())
        if raw is None or hashlib.sha256(raw).hexdigest() != digest:
            return False
    return True


def _unique(items: list[Diagnostic]) -> list[Diagnostic]:
    """Each diagnostic once (two games that read one file say its mistake twice)."""
    seen: set[tuple[str, str, Loc | None]] = set()
    out = []
    for d in items:
        key = (d.code, d.message, d.loc)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def _loaded(folder: Path, job: Job) -> Ruleset | None:
    """The game of a job as the loader made it (kept by the loader: no second load), even with
    patches that could not be made."""
    return load_ruleset(folder, variants=job.variants, modules=job.modules, track=job.track, partial=True)


def _scenario_game(path: Path, data: dict) -> Ruleset | None:
    """The game a scenario plays: its `ruleset:` folder with its variants, modules and track."""
    where = data.get("ruleset")
    if not isinstance(where, str):
        return None
    folder = path.parent / where
    if not (folder / "game.yaml").is_file():
        return None

    def names(key: str) -> tuple[str, ...]:
        value = data.get(key)
        return tuple(str(x) for x in value) if isinstance(value, list) else ()
    track = data.get("track")
    return _loaded(folder, Job(names("variants"), names("modules"), str(track) if track else None))
