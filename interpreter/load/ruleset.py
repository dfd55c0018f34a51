"""Find, read and merge a ruleset: the game file, its includes, then modules and variants.

A module or variant is a list of patches aimed at stable ids (`steps.play`,
`params.hand_size`); the merged game keeps each value's file position, so later errors point
at whichever file a rule came from.
"""
from __future__ import annotations

import copy
import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from ..ir.models import CardsFile, GameFile, TrackFile, kind_of
from ..lang.diagnostics import Loc, Report, did_you_mean
from .rules import Rules, parse_rules
from .structure import check_structure, loc_at
from .yamlsrc import SrcMap, loc_of, parse_yaml, read_text

PROJECT_ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Ruleset:
    """A merged game, ready to compile."""

    game: GameFile
    folder: Path
    cards: list = field(default_factory=list)  # CardType models, from every included cards file
    applied: list[str] = field(default_factory=list)  # "variant:NAME" / "module:NAME"
    digest: str = ""  # hash of every file read: a game record names the rules it was played by
    rules: Rules = field(default_factory=Rules)  # every rule text, parsed once
    checked: object = None  # the checker's result, once checked (check/checker.py)


def find_ruleset(name: str) -> Path | None:
    """A ruleset folder by path, or by name under ./rulesets or the project's rulesets."""
    p = Path(name)
    if p.exists():
        return p
    for base in (Path("rulesets"), PROJECT_ROOT / "rulesets"):
        if (base / name).is_dir():
            return base / name
    return None


def read_file(path: Path, report: Report):
    text = read_text(path, report)
    if text is None:
        return None
    return parse_yaml(text, str(path), report)


def _root_of(folder: Path) -> Path:
    """What a ruleset may read: its project (the folder holding `rulesets/`), else itself."""
    folder = folder.resolve()
    for parent in [folder, *folder.parents]:
        if parent.name == "rulesets":
            return parent.parent
    return folder


def _inside(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root)
        return True
    except ValueError:
        return False


class _Loader:
    def __init__(self, folder: Path, report: Report):
        self.folder = folder
        self.root = _root_of(folder)
        self.report = report
        self.hash = hashlib.sha256()
        self.cards: list = []
        self.boards: dict = {}
        self.seen_includes: set[Path] = set()

    def read(self, path: Path):
        data = read_file(path, self.report)
        if data is not None:
            rel = path.resolve().relative_to(self.root) if _inside(path, self.root) else path.name
            self.hash.update(str(rel).encode())
            self.hash.update(path.read_bytes())
        return data

    def includes(self, base: Path, entries, origin) -> None:
        for entry in entries:
            target = (base.parent / entry)
            if not _inside(target, self.root):
                self.report.add("E030", f"include `{entry}` is outside the ruleset's project folder",
                                loc_of(entry, loc_of(origin)),
                                f"included files must be inside {self.root}")
                continue
            if not target.is_file():
                self.report.add("E031", f"included file `{entry}` does not exist",
                                loc_of(entry, loc_of(origin)))
                continue
            target = target.resolve()
            if target in self.seen_includes:
                continue
            self.seen_includes.add(target)
            data = self.read(target)
            if data is None:
                continue
            kind = kind_of(data) if isinstance(data, dict) else None
            if kind == "cards":
                model = check_structure(data, "cards", str(target), self.report)
                if isinstance(model, CardsFile):
                    self.cards.extend(model.cards)
            elif kind == "track":
                model = check_structure(data, "track", str(target), self.report)
                if isinstance(model, TrackFile):
                    for name, board in model.boards.items():
                        self.boards[name] = (board, data["boards"].key_locs.get(name))
            else:
                self.report.add("E032", f"`{entry}` is not a cards or track file",
                                loc_of(entry, loc_of(origin)),
                                "an included file starts with `cards:` or `track:`")


def load_ruleset(path: str | Path, variants=(), modules=(), report: Report | None = None,
                 track: str | None = None) -> Ruleset | None:
    """`track`: the name of a track file in `tracks/<game id>/`; its boards replace the game's
    boards of the same names (a ruleset names its default track in `include:`)."""
    report = report if report is not None else Report()
    path = Path(path)
    game_path = path / "game.yaml" if path.is_dir() else path
    folder = game_path.parent
    if not game_path.is_file():
        report.add("E001", f"no game file at {game_path}", Loc(str(game_path)),
                   "a ruleset folder holds game.yaml")
        return None
    ld = _Loader(folder, report)
    data = ld.read(game_path)
    if data is None:
        return None
    if check_structure(data, "game", str(game_path), report) is None:
        return None
    ld.includes(game_path, data.get("include", []), data)
    applied = []
    for kind, names in (("module", modules), ("variant", variants)):
        for name in names:
            patch_path = folder / f"{kind}s" / f"{name}.yaml"
            if not patch_path.is_file():
                have = sorted(p.stem for p in (folder / f"{kind}s").glob("*.yaml"))
                report.add("E040", f"no {kind} named `{name}` in {folder / (kind + 's')}",
                           loc_of(name, Loc(str(patch_path))), did_you_mean(name, have) or
                           (f"available: {', '.join(have)}" if have else f"this ruleset has no {kind}s"))
                continue
            pdata = ld.read(patch_path)
            if pdata is None:
                continue
            model = check_structure(pdata, kind, str(patch_path), report)
            if model is None:
                continue
            for needed in pdata[kind].get("requires", []):
                if f"module:{needed}" not in applied:
                    report.add("E048", f"{kind} `{name}` needs module `{needed}`", loc_of(needed),
                               f"apply it first: --module {needed}")
            ld.includes(patch_path, pdata.get("include", []), pdata)
            data = apply_patches(data, pdata["patches"], report)
            applied.append(f"{kind}:{name}")
    # Boards from track files join the game's own.
    if ld.boards:
        boards = data.setdefault("boards", SrcMap())
        for name, (board, _loc) in ld.boards.items():
            boards.setdefault(name, board.model_dump())
    if track is not None:
        _replace_track(ld, data, str(track), report)
    if not report.ok:
        return None
    game = check_structure(data, "game", str(game_path), report)
    if game is None:
        return None
    players = game.game.players
    if players.min > players.max:
        report.add("E140", f"players: min {players.min} is more than max {players.max}",
                   loc_at(data, ["game", "players"], key=True))
        return None
    rules = parse_rules(game, report)
    if not report.ok:
        return None
    return Ruleset(game=game, folder=folder, cards=ld.cards, applied=applied,
                   digest=ld.hash.hexdigest()[:16], rules=rules)


def _replace_track(ld: _Loader, data, track: str, report: Report) -> None:
    """Swap in the boards of `tracks/<game id>/<track>.yaml` for the game's boards of those names."""
    game_id = str((data.get("game") or {}).get("id", ""))
    folder = ld.root / "tracks" / game_id
    have = sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []
    path = folder / f"{track}.yaml"
    if "/" in track or "\\" in track or track.startswith(".") or not path.is_file():
        report.add("E033", f"no track `{track}` for {game_id}: tracks are the files in {folder}", None,
                   did_you_mean(track, have) or (f"tracks: {', '.join(have)}" if have else
                                                  f"put track files in {folder}"))
        return
    tdata = ld.read(path)
    if tdata is None:
        return
    model = check_structure(tdata, "track", str(path), report)
    if not isinstance(model, TrackFile):
        return
    boards = data.setdefault("boards", SrcMap())
    for name, board in model.boards.items():
        if name not in boards:
            report.add("E034", f"track `{track}` has board `{name}`, which the game does not have",
                       getattr(tdata["boards"], "key_locs", {}).get(name) or Loc(str(path)),
                       did_you_mean(name, list(boards)) or
                       "a track file replaces boards of the same name; the game names them under "
                       "`boards:` or includes a track file")
            continue
        boards[name] = board.model_dump()


# ---- patches ----------------------------------------------------------------------------

_LISTS = ("phases", "triggers")
_MAPPINGS = ("params", "pieces", "boards", "piles", "state", "functions", "procedures", "record", "show")
_OPS = ("set", "replace", "update", "remove", "add")


def _find(data, target: str, report: Report):
    """Resolve `collection.id[.key...]` to (container, key); None with a diagnostic if missing."""
    parts = str(target).split(".")
    head = parts[0]
    if head == "steps":
        if len(parts) < 2:
            report.add("E041", "a step patch names the step: `steps.ID`", loc_of(target))
            return None
        for phase in data.get("phases", []):
            for i, step in enumerate(phase.get("steps", [])):
                if step.get("id") == parts[1]:
                    return _descend(phase["steps"], i, parts[2:], target, report)
        ids = [s.get("id") for p in data.get("phases", []) for s in p.get("steps", [])]
        report.add("E042", f"patch aims at step `{parts[1]}`, which does not exist", loc_of(target),
                   did_you_mean(parts[1], ids))
        return None
    if head not in data:
        report.add("E042", f"patch aims at `{head}`, which the game does not have", loc_of(target),
                   did_you_mean(head, list(data)))
        return None
    if len(parts) == 1:
        return _descend(data, head, [], target, report)
    coll = data[head]
    if isinstance(coll, list):
        for i, item in enumerate(coll):
            if isinstance(item, dict) and item.get("id") == parts[1]:
                return _descend(coll, i, parts[2:], target, report)
        ids = [item.get("id") for item in coll if isinstance(item, dict)]
        report.add("E042", f"patch aims at {head} `{parts[1]}`, which does not exist", loc_of(target),
                   did_you_mean(parts[1], ids))
        return None
    return _descend(data, head, parts[1:], target, report)


def _descend(container, key, rest, target, report):
    for part in rest:
        node = container[key]
        if not isinstance(node, dict) or part not in node:
            have = list(node) if isinstance(node, dict) else []
            report.add("E042", f"patch aims at `{target}`, but `{part}` does not exist there",
                       loc_of(target), did_you_mean(part, have))
            return None
        container, key = node, part
    return container, key


def apply_patches(data, patches, report: Report):
    data = copy.copy(data)
    for k in list(data):
        data[k] = copy.deepcopy(data[k])  # patches never change the loaded base
    for patch in patches:
        ops = [o for o in _OPS if patch.get(o) is not None]
        if len(ops) != 1:
            if ops:
                msg = "a patch does one thing; this one has " + " and ".join(f"`{o}`" for o in ops)
            else:
                msg = "a patch needs one of " + ", ".join(f"`{o}`" for o in _OPS)
            report.add("E046", msg, loc_of(patch), "write each change as its own patch")
            continue
        op = ops[0]
        target = patch[op]
        if op == "add":
            _add(data, patch, target, report)
            continue
        found = _find(data, target, report)
        if found is None:
            continue
        container, key = found
        if op in ("set", "replace", "update") and ("to" if op == "set" else "with") not in patch:
            word = "to" if op == "set" else "with"
            report.add("E047", f"`{op}: {target}` says what, but not the new value", loc_of(target),
                       f"give it with `{word}:`")
            continue
        if op == "set":
            container[key] = patch.get("to")
        elif op == "replace":
            new = patch.get("with")
            if isinstance(container[key], dict) and isinstance(new, dict) and "id" in container[key]:
                new = _with_id(new, container[key]["id"])
            container[key] = new
        elif op == "update":
            new = patch.get("with")
            if not isinstance(container[key], dict) or not isinstance(new, dict):
                report.add("E043", "`update` merges a mapping into a mapping", loc_of(target),
                           "use `set` or `replace` for other values")
                continue
            merged = copy.copy(container[key])
            merged.update(new)
            container[key] = merged
        elif op == "remove":
            del container[key]
    return data


def _with_id(m: dict, ident) -> SrcMap:
    """A replacing item keeps the replaced item's id (and its own file positions)."""
    out = SrcMap(m)
    out.loc = getattr(m, "loc", None)  # type: ignore[assignment]
    out.key_locs = dict(getattr(m, "key_locs", {}))
    out.setdefault("id", ident)
    return out


def _add(data, patch, target, report: Report):
    parts = str(target).split(".")
    item = patch.get("item")
    if parts[0] == "steps":
        if len(parts) != 2:
            report.add("E041", "add a step with `add: steps.PHASE`", loc_of(target))
            return
        phases = [p for p in data.get("phases", []) if p.get("id") == parts[1]]
        if not phases:
            report.add("E042", f"patch aims at phase `{parts[1]}`, which does not exist", loc_of(target),
                       did_you_mean(parts[1], [p.get("id") for p in data.get("phases", [])]))
            return
        _insert(phases[0].setdefault("steps", []), item, patch, target, report)
        return
    if parts[0] in _LISTS and len(parts) == 1:
        _insert(data.setdefault(parts[0], []), item, patch, target, report)
        return
    if parts[0] in _MAPPINGS and len(parts) == 1 and parts[0] not in data:
        data[parts[0]] = {}  # the game has none yet: the module or variant brings the first
    found = _find(data, target, report)
    if found is None:
        return
    container, key = found
    coll = container[key]
    ident = patch.get("id")
    if not isinstance(coll, dict) or ident is None:
        report.add("E044", f"add to `{target}` needs `id:` and `item:`", loc_of(target))
        return
    if ident in coll:
        report.add("E045", f"`{target}.{ident}` already exists", loc_of(ident),
                   "use `replace` or `update` to change it")
        return
    coll[ident] = item


def _insert(items: list, item, patch, target, report: Report):
    if not isinstance(item, dict) or "id" not in item:
        report.add("E044", f"an item added to `{target}` needs an `id`", loc_of(target))
        return
    anchor = patch.get("after") or patch.get("before")
    if any(i.get("id") == item["id"] for i in items):
        report.add("E045", f"`{item['id']}` already exists in `{target}`", loc_of(item["id"]),
                   "use `replace` or `update` to change it")
        return
    if anchor is None:
        items.append(item)
        return
    for i, existing in enumerate(items):
        if existing.get("id") == anchor:
            items.insert(i + 1 if patch.get("after") else i, item)
            return
    report.add("E042", f"patch places the item next to `{anchor}`, which does not exist in `{target}`",
               loc_of(anchor), did_you_mean(anchor, [i.get("id") for i in items]))


__all__ = ["Ruleset", "load_ruleset", "find_ruleset", "read_file", "apply_patches", "loc_at"]
