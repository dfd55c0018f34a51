"""The lobby's games: every ruleset of the rulesets folders (./rulesets, then the project's), with
what a table may choose for it: players, variants, modules, seasons and tracks, each by its name
and the name its file gives it."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, NamedTuple

from ..base.diagnostics import Report, RulesetError
from ..agents.kinds import bot, on_file
from ..load.ruleset import PROJECT_ROOT, find_ruleset, is_name, load_ruleset, read_file
from ..session.load import load


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
        info = _header(path, kind)
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


class Chosen(NamedTuple):
    """What a table is made of, as far as loading its game goes."""
    game: str
    variants: list[str]
    modules: list[str]
    track: str | None


def first_problem(e: RulesetError, setup: Chosen | None = None) -> str:
    """Why a table cannot be set up, in players' words: add-ons that each load alone but not
    together are said to clash, by the names their files give them; otherwise the first error."""
    items = [d for d in getattr(e.report, "items", []) if d.severity == "error"]
    if not items:
        return "the game cannot be loaded"
    if setup is None:
        return items[0].message
    chosen = [("variants", n) for n in setup.variants] + [("modules", n) for n in setup.modules]
    where = items[0].loc.file if items[0].loc is not None else ""
    guilty = [(k, n) for k, n in chosen if Path(where).parent.name == k and Path(where).stem == n]
    others = [(k, n) for k, n in chosen if (k, n) not in guilty]
    if guilty and others and _loads_alone(setup, guilty[0]):
        names = [_add_on_name(setup.game, k, n) for k, n in others]
        return (f"{_add_on_name(setup.game, *guilty[0])} cannot be played together with "
                f"{' and '.join(names)}: they change the same rules. Choose one of them.")
    return items[0].message


def _loads_alone(setup: Chosen, add_on: tuple[str, str]) -> bool:
    kind, name = add_on
    try:
        load(setup.game, [name] if kind == "variants" else [], [name] if kind == "modules" else [],
             setup.track)
    except RulesetError:
        return False
    return True


def _add_on_name(game: str, kind: str, name: str) -> str:
    """A module's or variant's name as its file gives it (`Novice`), else its id."""
    folder = find_ruleset(game)
    info = _header(folder / kind / f"{name}.yaml", kind[:-1]) if folder is not None else {}
    return f"«{info.get('name') or name}»"


def _header(path: Path, kind: str) -> dict:
    """What a variant's, module's or season's file says of itself (`variant:`), or nothing."""
    data = read_file(path, Report())
    info = data.get(kind) if isinstance(data, dict) else None
    return info if isinstance(info, dict) else {}


# what a web table's seat may be (a learned bot's file is the server's: no seat names one)
WEB_SEATS = "human, open (a person who joins), random, greedy or mcts[:BUDGET[:ROLLOUT[:TREES]]]"


def seat_problem(kind: str) -> str | None:
    """What is wrong with a web table's seat that is no person (`human`), or None."""
    if on_file(kind):   # a file on the server, named by whoever opens a table: never read
        return (f"`{kind}`: a learned bot plays from a file on the machine that trained it, at the "
                f"terminal and in simulations; a web table's seat is {WEB_SEATS}")
    try:
        bot(kind)   # (its budget within what a bot may take at a table: `agents/kinds.py`)
    except ValueError as e:
        if str(e).startswith("unknown bot"):   # (the bots listed would name the learned ones)
            return f"unknown seat `{kind}`: a web table's seat is {WEB_SEATS}"
        return f"{e}; a web table's seat is {WEB_SEATS}"
    return None
