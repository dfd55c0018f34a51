"""The lobby's games: every ruleset of the rulesets folders (./rulesets, then the project's), with
what a table may choose for it: players, variants, modules, seasons and tracks, each by its name
and the name its file gives it."""
from __future__ import annotations

from pathlib import Path

from ..base.diagnostics import Report
from ..load.ruleset import PROJECT_ROOT, is_name, load_ruleset, read_file


def _named(folder: Path, kind: str) -> list[dict]:
    """The variants (or modules) of a ruleset: [{id, name, description}] from their files."""
    out = []
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        if not is_name(path.stem):
            continue
        data = read_file(path, Report())
        info = data.get(kind) if isinstance(data, dict) else None
        info = info if isinstance(info, dict) else {}
        out.append({"id": path.stem, "name": str(info.get("name") or path.stem),
                    "description": " ".join(str(info.get("description") or "").split())})
    return out


def catalogue() -> list[dict]:
    """Every game a table can be created for: [{id, name, players: {min, max}, variants, modules,
    seasons, tracks, description}]; a ruleset that does not load is left out."""
    seen: set[str] = set()
    out = []
    for base in (Path("rulesets"), PROJECT_ROOT / "rulesets"):
        if not base.is_dir():
            continue
        for folder in sorted(base.iterdir()):
            if folder.name in seen or not is_name(folder.name) or not (folder / "game.yaml").is_file():
                continue
            rs = load_ruleset(folder, report=Report())
            if rs is None:
                continue
            seen.add(folder.name)
            info = rs.game.game
            out.append({"id": folder.name, "name": str(info.name),
                        "description": " ".join(str(info.description or "").split()),
                        "players": {"min": info.players.min, "max": info.players.max},
                        "variants": _named(folder / "variants", "variant"),
                        "modules": _named(folder / "modules", "module"),
                        "seasons": _named(folder / "seasons", "season"),
                        "tracks": sorted(rs.other_tracks)})
    return out
