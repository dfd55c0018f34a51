"""The games a designer's file belongs to, for `validate` to check it with them: the rulesets that
include a cards file, the ruleset whose game races a track file, and the modules and variants a
track, a module or a variant `requires:`. Read from the files as they are (a file that cannot be
read here is said where `validate` loads it)."""
from __future__ import annotations

import os
from pathlib import Path

from ..base.diagnostics import Report
from ..load.ruleset import project_of, read_file


def requiring(folder: Path, game_id: str, tracks: list[str]) -> dict[str, set[str]]:
    """Those of `tracks` (of the game's folder in the project's tracks/) whose file `requires:`
    modules or variants, with what they require."""

    out = {}
    root = project_of(folder.resolve()) or folder   # (where the loader finds them)
    for name in tracks:
        needs = requires_of(root / "tracks" / game_id / f"{name}.yaml", "track")
        if needs:
            out[name] = needs
    return out


def required_by(folder: Path, name: str) -> set[str]:
    """What the ruleset's module or variant `name` says it `requires:`."""
    return set().union(*(requires_of(folder / f"{kind}s" / f"{name}.yaml", kind)
                         for kind in ("module", "variant")))


def requires_of(path: Path, kind: str) -> set[str]:
    """The `requires:` of a track, module or variant file (none when it cannot be read: said where
    the file is loaded)."""

    data = read_file(path, Report()) if path.is_file() else None
    info = data.get(kind) if isinstance(data, dict) else None
    needs = info.get("requires") if isinstance(info, dict) else None
    return {str(x) for x in needs} if isinstance(needs, list) else set()


def racers(path: Path) -> list[Path]:
    """The rulesets of the project of the track file `path` (`tracks/<game id>/NAME.yaml`) whose
    game is that id."""

    here = Path(os.path.abspath(path))
    project = next((f for f in here.parents if (f / "rulesets").is_dir()), None)
    if project is None or here.parent.parent.name != "tracks":
        return []
    out = []
    for folder in sorted(p for p in (project / "rulesets").iterdir() if (p / "game.yaml").is_file()):
        data = read_file(folder / "game.yaml", Report())
        game = data.get("game") if isinstance(data, dict) else None
        if isinstance(game, dict) and str(game.get("id")) == here.parent.name:
            out.append(as_named(folder))
    return out


def includers(path: Path) -> list[tuple[Path, dict | None]]:
    """The games of its project that include the cards file `path` (its ruleset, for a file in a
    ruleset's folder): (the ruleset folder, None) when the game file includes it, else (the folder,
    {"modules": [m]}) or {"variants": [x]} for each module or variant that does (its `include:` or
    an `add: include` patch). The folders are named as the person named the file."""

    real = path.resolve()
    here = Path(os.path.abspath(path))
    folders: list[Path] = []
    for folder in here.parents:
        if folder.parent.name == "rulesets" or (folder / "game.yaml").is_file():
            folders = [folder]
            break
        if (folder / "rulesets").is_dir():
            folders = sorted(p for p in (folder / "rulesets").iterdir() if (p / "game.yaml").is_file())
            break

    def includes(file: Path, folder: Path) -> bool:
        data = read_file(file, Report())  # (a file that cannot be read says so when it is validated)
        if not isinstance(data, dict):
            return False
        listed, patches = data.get("include"), data.get("patches")
        entries = [(file.parent, e) for e in (listed if isinstance(listed, list) else [])]
        # (an included file is added to the game's list: it is read from the game's folder)
        entries += [(folder, p.get("item")) for p in (patches if isinstance(patches, list) else [])
                    if isinstance(p, dict) and p.get("add") == "include"]
        return any(isinstance(e, str) and _same(base / e, real) for base, e in entries)

    out: list[tuple[Path, dict | None]] = []
    for folder in folders:
        named = as_named(folder)
        if includes(folder / "game.yaml", folder):
            out.append((named, None))
            continue
        for kind in ("modules", "variants"):
            out += [(named, {kind: [p.stem]}) for p in sorted((folder / kind).glob("*.yaml"))
                    if includes(p, folder)]
    return out


def _same(path: Path, real: Path) -> bool:
    try:
        return path.resolve() == real
    except (OSError, ValueError, RuntimeError):
        return False


def as_named(folder: Path) -> Path:
    """A folder named relative to the current folder when it is inside it (as a person names it)."""
    try:
        return folder.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return folder
