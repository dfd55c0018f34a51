"""Find, read and merge a ruleset: the game file, its includes, then modules and variants.

A module or variant is a list of patches aimed at stable ids (`steps.play`,
`params.hand_size`); the merged game keeps each value's file position, so later errors point
at whichever file a rule came from.

What a ruleset may read, since a ruleset may come from a stranger: the files of its own folder
(`game.yaml`, `variants/`, `modules/`, and what they include), and, when it sits in a project's
`rulesets/` folder, the cards and track files of that project's `cards/` and `tracks/` folders.
Every path is resolved (links followed) and checked against those folders before it is read,
and variants, modules and tracks are asked for by name (`NAME_RE`), never by path.
"""
from __future__ import annotations

import copy
import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..ir.models import CardsFile, GameFile, TrackFile, kind_of
from ..lang.diagnostics import Loc, Report, did_you_mean
from .rules import Rules, parse_rules
from .structure import check_structure, loc_at
from .yamlsrc import SrcMap, decode_text, loc_of, parse_yaml, read_bytes, read_text

PROJECT_ROOT = Path(__file__).resolve().parents[2]

# The name of a variant, module, track or game where a path will be made of it.
NAME_RE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")
_NAME_CHARS = "letters, digits, `_` and `-` (not starting with `-`)"
_ALLOWED = ("a ruleset reads only the files in its own folder, and cards and track files in its "
            "project's cards/ and tracks/ folders")


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


def is_name(name) -> bool:
    """Whether `name` may name a variant, module, track or game: `NAME_RE`, never a path."""
    return isinstance(name, str) and NAME_RE.fullmatch(name) is not None


def shown(name, width: int = 60) -> str:
    """A name as a diagnostic quotes it: control characters (a NUL, a line break) escaped and a
    long one cut short."""
    text = name if isinstance(name, str) else repr(name)
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= width else text[: width - 3] + "..."


def find_ruleset(name: str) -> Path | None:
    """A ruleset folder by path, or by name under ./rulesets or the project's rulesets."""
    p = Path(name)
    if p.exists():
        return p
    return find_game(name)


def find_game(name: str) -> Path | None:
    """A ruleset folder by its name only (`NAME_RE`), under ./rulesets or the project's rulesets:
    for a name that comes from a file (a game record), never a path."""
    if not is_name(name):
        return None
    for base in (Path("rulesets"), PROJECT_ROOT / "rulesets"):
        if (base / name).is_dir():
            return base / name
    return None


def read_file(path: Path, report: Report):
    """Read and parse a designer's file named directly (on the command line, or found in a
    folder of scenarios). A file in a ruleset, or in a project's cards/ or tracks/, that is a
    link to a file outside the folders that ruleset may read is refused unread (E035)."""
    areas = _areas_around(path)
    if areas is not None:
        real = _resolved(path)
        if real is None or not any(_within(real, a) for a in areas):
            report.add("E035", f"`{shown(path.name)}` is a link to a file outside the folders its "
                       "ruleset may read; it is not read", Loc(str(path)), _ALLOWED)
            return None
    text = read_text(path, report)
    if text is None:
        return None
    return parse_yaml(text, str(path), report)


def _areas_around(path: Path) -> list[Path] | None:
    """Where a file may be read from, by where it is (its path as written, links not followed):
    in a ruleset (a folder of a `rulesets/` folder, or one holding game.yaml), that ruleset's
    folder and its project's cards/ and tracks/; in a project's cards/ or tracks/, those two;
    None for a file in neither."""
    try:
        here = Path(os.path.abspath(path))
        for folder in here.parents:
            if folder.parent.name == "rulesets" or (folder / "game.yaml").is_file():
                ruleset = _resolved(folder)
                if ruleset is None:
                    return []
                project = project_of(ruleset)
                return [ruleset, *((project / "cards", project / "tracks") if project else ())]
            if folder.name in ("cards", "tracks") and (folder.parent / "rulesets").is_dir():
                project = _resolved(folder.parent)
                return [project / "cards", project / "tracks"] if project else []
    except (OSError, ValueError):
        return []
    return None


def _resolved(path: Path) -> Path | None:
    """`path` made absolute with every link followed; None when it cannot be (a NUL in it, a
    loop of links)."""
    try:
        return path.resolve()
    except (OSError, ValueError, RuntimeError):
        return None


def project_of(folder: Path) -> Path | None:
    """The project of a ruleset folder (resolved): the folder holding the `rulesets/` folder it
    is in, or None when it is not in a `rulesets/` folder."""
    return folder.parent.parent if folder.parent.name == "rulesets" else None


def _within(path: Path, area: Path) -> bool:
    return path == area or area in path.parents


class _Loader:
    """Reads a ruleset's files, each checked against the folders the ruleset may read, and
    hashes what it read (the digest)."""

    def __init__(self, folder: Path, report: Report):
        self.folder = _resolved(folder) or folder.absolute()  # the ruleset's own folder
        self.project = project_of(self.folder)
        self.root = self.project or self.folder  # file names in the digest are relative to it
        # the project's shared folders, not resolved: a link there leaving the project is refused
        self.shared = [self.project / "cards", self.project / "tracks"] if self.project else []
        self.report = report
        self.hash = hashlib.sha256()
        self.cards: list = []
        self.boards: dict = {}
        self.seen_includes: set[Path] = set()

    def tracks(self) -> Path:
        """Where the track files are: the project's tracks/ (a ruleset outside a project: its own)."""
        return self.root / "tracks"

    def read(self, path: Path, areas: list[Path], what: str, name: str | None = None):
        """Read and parse `path` (`name` in diagnostics), if it resolves into one of `areas`; a
        file that is a link to somewhere else is refused unread (E035)."""
        name = str(path) if name is None else name
        real = _resolved(path)
        if real is None or not any(_within(real, a) for a in areas):
            where = "the ruleset's folder" if areas == [self.folder] else (
                "the project's tracks/ folder" if areas == [self.tracks()] else
                "the folders a ruleset may read")
            said = (f"{what} is a link to a file outside {where}; it is not read" if real is not None
                    else f"{what} cannot be followed to a file (a loop of links?); it is not read")
            self.report.add("E035", said, Loc(name), _ALLOWED)
            return None
        raw = read_bytes(real, self.report, name)
        text = None if raw is None else decode_text(raw, name, self.report)
        data = None if text is None else parse_yaml(text, name, self.report)
        if data is not None:
            assert raw is not None
            rel = real.relative_to(self.root) if _within(real, self.root) else real.name
            self.hash.update(str(rel).encode())
            self.hash.update(raw)
        return data

    def include_areas(self) -> list[Path]:
        return [self.folder, *self.shared]

    def _outside(self, entry, where) -> None:
        if self.project is not None:
            self.report.add("E030", f"include `{shown(entry)}` is outside the ruleset's project folders "
                            "that it may read: its own folder, cards/ and tracks/", where,
                            f"included files must be inside the ruleset's folder ({self.folder}), "
                            f"or the project's cards/ or tracks/ folder ({self.project})")
        else:
            self.report.add("E030", f"include `{shown(entry)}` is outside the ruleset's folder", where,
                            f"included files must be inside the ruleset's folder ({self.folder}); "
                            "a ruleset in a project's rulesets/ folder may also include the "
                            "project's cards/ and tracks/")

    def includes(self, base: Path, entries, origin) -> None:
        for entry in entries:
            where = loc_of(entry, loc_of(origin))
            target = _resolved(base.parent / str(entry))
            if target is None or not any(_within(target, a) for a in self.include_areas()):
                self._outside(entry, where)
                continue
            if not target.exists():  # there but not a regular file: reading it says so
                self.report.add("E031", f"included file `{shown(entry)}` does not exist", where)
                continue
            if target in self.seen_includes:
                continue
            self.seen_includes.add(target)
            data = self.read(target, self.include_areas(), f"include `{shown(entry)}`")
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
    if game_path.name != "game.yaml" or not game_path.exists():
        report.add("E001", f"no game file at {game_path}", Loc(str(game_path)),
                   "a ruleset folder holds game.yaml")
        return None
    ld = _Loader(folder, report)
    data = ld.read(game_path, [ld.folder], "the game file")
    if data is None:
        return None
    if check_structure(data, "game", str(game_path), report) is None:
        return None
    ld.includes(game_path, data.get("include", []), data)
    applied = []
    for kind, names in (("module", modules), ("variant", variants)):
        for name in names:
            if not is_name(name):
                report.add("E040", f"`{shown(name)}` is not a {kind} name", loc_of(name),
                           f"a {kind} is named by its file in {kind}s/ without `.yaml`: {_NAME_CHARS}")
                continue
            patch_path = folder / f"{kind}s" / f"{name}.yaml"
            if not patch_path.exists():
                have = sorted(p.stem for p in (folder / f"{kind}s").glob("*.yaml"))
                report.add("E040", f"no {kind} named `{name}` in {folder / (kind + 's')}",
                           loc_of(name, Loc(str(patch_path))), did_you_mean(name, have) or
                           (f"available: {', '.join(have)}" if have else f"this ruleset has no {kind}s"))
                continue
            pdata = ld.read(patch_path, [ld.folder], f"{kind} `{name}`")
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
    info = data.get("game")
    game_id = info.get("id", "") if isinstance(info, dict) else ""
    folder = ld.tracks() / str(game_id)
    if not is_name(track):
        report.add("E033", f"`{shown(track)}` is not a track name", loc_of(track),
                   f"a track is named by its file in {folder} without `.yaml`: {_NAME_CHARS}")
        return
    if not is_name(game_id):  # a patch made the game's id something that is not a name
        report.add("E033", f"no track `{track}`: the game's id `{shown(game_id)}` is not a name",
                   loc_of(track))
        return
    have = sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []
    path = folder / f"{track}.yaml"
    if not path.exists():  # there but not a regular file: reading it says so
        report.add("E033", f"no track `{track}` for {game_id}: tracks are the files in {folder}",
                   loc_of(track), did_you_mean(track, have) or (f"tracks: {', '.join(have)}" if have else
                                                                 f"put track files in {folder}"))
        return
    tdata = ld.read(path, [ld.tracks()], f"track `{track}`")
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


__all__ = ["Ruleset", "load_ruleset", "find_ruleset", "find_game", "is_name", "read_file",
           "apply_patches", "loc_at"]
