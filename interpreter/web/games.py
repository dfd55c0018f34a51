"""The lobby's games: every ruleset of the rulesets folders (./rulesets, then the project's), with
what a table may choose for it: players, variants, modules, seasons and tracks, each by its name
and the name its file gives it."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..base.diagnostics import Report
from ..load.ruleset import PROJECT_ROOT, is_name, load_ruleset, read_file


def _natural(text: str) -> list:
    """A sort key that reads the numbers in a name as numbers ("Event 2" before "Event 10")."""
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", text)]


def _mentions_players(game: Path, names: list[str]) -> bool:
    """Does any of these add-ons' files (a module or a variant of `game`) patch `game.players`? (A
    miss costs only the lobby's range of players: the server checks the count when a table is made.)"""
    for name in names:
        for kind in ("modules", "variants"):
            path = game / kind / f"{name}.yaml"
            try:
                if path.is_file() and "game.players" in path.read_text(encoding="utf-8", errors="replace"):
                    return True
            except OSError:
                continue
    return False


def _named(folder: Path, kind: str, game: Path | None = None) -> list[dict]:
    """The variants (or modules, seasons) of a ruleset: [{id, name, description, requires}] from
    their files, sorted by name as a person reads it; with `game`, each add-on's `players` too
    (the game with it alone: a module may let one person play alone)."""
    out = []
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        if not is_name(path.stem):
            continue
        data = read_file(path, Report())
        info = data.get(kind) if isinstance(data, dict) else None
        info = info if isinstance(info, dict) else {}
        requires = [str(r) for r in info.get("requires") or [] if isinstance(info.get("requires"), list)]
        item: dict[str, Any] = {"id": path.stem, "name": str(info.get("name") or path.stem),
                "description": " ".join(str(info.get("description") or "").split()),
                "requires": requires}
        # (loaded only when it or what it requires patches `game.players`: loading every add-on of
        # every game took seconds at the lobby's first answer)
        if game is not None and _mentions_players(game, [path.stem, *item["requires"]]):
            chosen: dict[str, list[str]] = {"variants": [], "modules": []}
            for name in [path.stem, *item["requires"]]:
                module = (game / "modules" / f"{name}.yaml").is_file()
                chosen["modules" if module else "variants"].append(name)
            rs = load_ruleset(game, chosen["variants"], chosen["modules"], Report())
            if rs is not None:
                item["players"] = {"min": rs.game.game.players.min, "max": rs.game.game.players.max}
        out.append(item)
    return sorted(out, key=lambda item: _natural(item["name"]))


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
                        "variants": _named(folder / "variants", "variant", folder),
                        "modules": _named(folder / "modules", "module", folder),
                        "seasons": _named(folder / "seasons", "season"),
                        "tracks": sorted(rs.other_tracks)})
    return out
