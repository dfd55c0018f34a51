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

import hashlib
from typing import Any, Sequence
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..ir.models import CardsFile, CardType, Change, GameFile, TrackFile, kind_of
from ..base.cache import Bounded
from ..base.files import present, tidy
from ..base.diagnostics import SOURCES, Diagnostic, Loc, Report, did_you_mean
from ..lang import versions
from ..base.collect import fewer_collections
from ..lang.parser import words_as_names
from .extend import apply_rule_patches
from .nesting import check_extended_loops
from .order import Clashes, modules_first
from .oldforms import read_in_version
from .names import is_name, shown
from .params import set_params, track_params
from .patches import apply_patches, blame_patches, is_rule_patch, left_out, prepare, shallow
from .rules import Rules, declared_words, parse_rules
from .structure import check_structure, loc_at
from .yamlsrc import SrcMap, decode_text, loc_of, parse_yaml, read_bytes, read_text

PROJECT_ROOT = Path(__file__).resolve().parents[2]

# The name of a variant, module, track or game where a path will be made of it.
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
    # the tracks of `tracks/<game id>/` that `--track` may name and the game does not include
    other_tracks: list[str] = field(default_factory=list)
    files: list[tuple[str, str]] = field(default_factory=list)  # (path, sha256) of every file read
    # each file's name as the digest takes it, in the digest's order (`session/upgrades.py` works the
    # digest out again with a file as it was before `racecraft upgrade`)
    digest_parts: list[tuple[str, str]] = field(default_factory=list)  # (name, path)
    # each declaration a module, variant, season or `--param` changed (`params.hand_size`), and where
    # that patch is written (None: `--param` on the command line): a problem the base rules have
    # with it is said at the patch (`check/blame.py`)
    changed: dict[str, Loc | None] = field(default_factory=dict)
    # each module's or variant's file -> the files of the modules and variants it requires
    needs: dict[str, list[str]] = field(default_factory=dict)
    # the params given when it was loaded (`--param`, a season's), as text: with its files, all a
    # compiled game is made from (`compile.compile_ruleset` keeps games compiled by the two)
    given: str = ""
    track_folder: Path | None = None   # where `--track` finds the game's tracks (`other_tracks`)
    whole: bool = True  # False: a patch that could not be made was left out (`load_ruleset(partial=)`)
    # the changes of behaviour its files declare (`changes:`), with the file of each: a scenario that
    # fails where one matters is told of it
    changes: list[tuple[Change, str]] = field(default_factory=list)
    # the names an `add` patch left out would have declared: a rule using one is not a second mistake
    left_out: frozenset[str] = frozenset()


# Each file read in this process, parsed once, by (its name in diagnostics, the digest of its bytes):
# a ruleset's games (each variant, module and track) are made of the same files. The parsed data
# is shared and never changed: patches copy what they change (`patches.Owned`).
_PARSED: dict[tuple[str, str], tuple[Any, str, list]] = {}
_MAX_PARSED = 128  # files: a ruleset with its variants, modules, cards and tracks is some forty
_STRUCTURES: dict[tuple[str, str, int], tuple[object, object]] = {}  # (kind, name, id) -> (data, model)


# A ruleset's digest, what a game record names its rules by: each file read, in the order the game
# is made of them, as its name in the ruleset and its bytes (`session/upgrades.py` works it out again).
DIGEST_CHARS = 16


def feed_digest(h: Any, name: str, raw: bytes) -> None:
    """One file read, into the ruleset's digest `h` (a sha256)."""
    h.update(name.encode())
    h.update(raw)


def _parsed(raw: bytes, digest: str, name: str, report: Report) -> Any:
    """A file's bytes as data with positions (`parse_yaml`), read in its language version
    (`oldforms.py`), once per process: what reading it said is said again to each report."""
    hit = _PARSED.get((name, digest))
    if hit is not None:
        SOURCES[name] = hit[1]  # the snippets show this text
        data, said = hit[0], hit[2]
        versions.note(name, data.get("language") if isinstance(data, dict) else None)
        for d in said:
            if d not in report.items:
                report.items.append(d)
        return data
    text = decode_text(raw, name, report)
    data = None if text is None else parse_yaml(text, name, report)
    if data is not None:
        assert text is not None
        mine = Report()
        data = read_in_version(data, name, mine)
        report.items.extend(mine.items)
        if len(_PARSED) >= _MAX_PARSED:
            _PARSED.clear()
            _STRUCTURES.clear()
        _PARSED[(name, digest)] = (data, text, mine.items)
    return data


def find_ruleset(name: str) -> Path | None:
    """A ruleset folder by path, or by name (`find_game`)."""
    p = Path(name)
    if p.exists():
        return p
    return find_game(name)


def find_game(name: str) -> Path | None:
    """A ruleset folder by its name only (`NAME_RE`): under ./rulesets, the current folder when its
    game.yaml is that game's, or under the project's rulesets; for a name that comes from a file (a
    game record), never a path."""
    if not is_name(name):
        return None
    if (Path("rulesets") / name).is_dir():
        return Path("rulesets") / name
    # the folder one stands in, when it is that game's (a designer's game, played as `play .`)
    here = Path("game.yaml")
    if here.is_file():
        data = read_file(here, Report())
        game = data.get("game") if isinstance(data, dict) else None
        if isinstance(game, dict) and str(game.get("id")) == name:
            return Path(".")
    if (PROJECT_ROOT / "rulesets" / name).is_dir():
        return PROJECT_ROOT / "rulesets" / name
    return None


def read_file(path: Path, report: Report) -> Any:
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
    data = parse_yaml(text, str(path), report)
    return None if data is None else read_in_version(data, str(path), report)


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
        self.cards: dict = {}    # card id -> its entry (raw data, with positions), in order
        self.boards: dict = {}   # board name -> its declaration (raw data), from track files
        self.track_params: dict = {}  # param name (with its position) -> value, from track files
        self.needs: dict[str, list[str]] = {}  # a module's or variant's file -> the files it requires
        self.seen_includes: set[Path] = set()
        self.files: list[tuple[str, str]] = []  # (path, sha256) of each file read
        self.digest_parts: list[tuple[str, str]] = []  # (its name in the digest, path) of each

    def tracks(self) -> Path:
        """Where the track files are: the project's tracks/ (a ruleset outside a project: its own)."""
        return self.root / "tracks"

    def read(self, path: Path, areas: list[Path], what: str, name: str | None = None,
             later: list | None = None) -> Any:
        """Read and parse `path` (`name` in diagnostics), if it resolves into one of `areas`; a
        file that is a link to somewhere else is refused unread (E035). With `later`, the file
        joins the digest when `account(later)` is called (the digest is of the files in the order
        the game is made of them)."""
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
        if raw is None:
            return None
        digest = hashlib.sha256(raw).hexdigest()
        data = _parsed(raw, digest, name, self.report)
        if data is not None:
            rel = real.relative_to(self.root) if _within(real, self.root) else real.name
            if later is not None:
                later.append((rel, raw, real, digest))
            else:
                self.account([(rel, raw, real, digest)])
        return data

    def account(self, read: list) -> None:
        """Files read (`read(..., later=...)`) join the digest and the list of files."""
        for rel, raw, real, digest in read:
            feed_digest(self.hash, str(rel), raw)
            self.files.append((str(real), digest))
            self.digest_parts.append((str(rel), str(real)))

    def structure(self, data: Any, kind: str, name: str) -> Any:
        """`check_structure` of a file as read (the same file read again is checked once)."""
        entry = _STRUCTURES.get((kind, name, id(data)))
        if entry is not None and entry[0] is data:
            return entry[1]
        model = check_structure(data, kind, name, self.report)
        if model is not None:  # (kept with its data: the id stays that data's)
            _STRUCTURES[(kind, name, id(data))] = (data, model)
        return model

    def include_areas(self) -> list[Path]:
        return [self.folder, *self.shared]

    def _outside(self, entry: Any, where: Any) -> None:
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

    def add_card(self, entry: Any) -> None:
        """A card type of a cards file, by id, as the game's `cards:` holds it (without `id`)."""
        ident = entry["id"]
        if ident in self.cards:
            self.report.add("E114", f"card type `{ident}` is defined twice", loc_of(ident))
            return
        spec = SrcMap((k, v) for k, v in entry.items() if k != "id")
        spec.loc = getattr(entry, "loc", None)  # type: ignore[assignment]
        spec.key_locs = dict(getattr(entry, "key_locs", {}))
        self.cards[ident] = spec

    def includes(self, base: Path, entries: Any, origin: Any) -> None:
        for entry in entries:
            where = loc_of(entry, loc_of(origin))
            target = _resolved(base.parent / str(entry))
            if target is None or not any(_within(target, a) for a in self.include_areas()):
                self._outside(entry, where)
                continue
            if not present(target):  # there but not a regular file: reading it says so
                self.report.add("E031", f"included file `{shown(entry)}` does not exist", where)
                continue
            if target in self.seen_includes:
                continue
            self.seen_includes.add(target)
            # said as the game's own path is, joined with the include (relative where it is)
            said_as = str(tidy(base.parent / str(entry)))
            data = self.read(target, self.include_areas(), f"include `{shown(entry)}`", said_as)
            if data is None:
                continue
            kind = kind_of(data) if isinstance(data, dict) else None
            if kind == "cards":
                model = self.structure(data, "cards", said_as)
                if isinstance(model, CardsFile):
                    for entry in data["cards"]:
                        self.add_card(entry)
            elif kind == "track":
                model = self.structure(data, "track", said_as)
                if isinstance(model, TrackFile):
                    for name in model.boards:
                        self.boards[name] = data["boards"][name]
                    self.track_params.update(data.get("params") or {})
                    if model.track.requires:
                        self.report.add("E036", f"track `{model.track.id}` requires modules or variants, "
                                        "and is included as a game's own track", where,
                                        "a track that needs a module or variant is raced with "
                                        "`--track`, which applies what it requires")
            else:
                self.report.add("E032", f"`{entry}` is not a cards or track file",
                                loc_of(entry, loc_of(origin)),
                                "an included file starts with `cards:` or `track:`")


# The games loaded in this process, by what was asked (the folder, variants, modules, track and
# params), each with what loading it said and the track files its folder held: one is used again
# only while every file it was read from has the bytes it had and no track file came or went (a
# scenario after another of the same game, the commands a season or a test suite runs).
_LOADED: Bounded[tuple, tuple[Ruleset, list[Diagnostic], tuple]] = Bounded(32)


def load_ruleset(path: str | Path, variants: Sequence[str] = (), modules: Sequence[str] = (),
                 report: Report | None = None,
                 track: str | None = None, params: dict | None = None,
                 partial: bool = False) -> Ruleset | None:
    """`track`: the name of a track file in `tracks/<game id>/`; its boards replace the game's
    boards of the same names (a ruleset names its default track in `include:`). `params`: values
    given to the merged game's params (`--param NAME=VALUE`), after every module and variant.
    None when anything is wrong, unless `partial`: then a game whose only mistakes are patches
    that could not be made is returned without them (with its errors in `report`), so that the
    checker can say the mistakes of the rest in the same run."""
    report = report if report is not None else Report()
    # the path as given too: a game's positions name its files as they were reached (a scenario's
    # `../game.yaml`), so a game read by another spelling of its path is not the same
    key = (str(path), str(Path(path).resolve()), tuple(map(str, variants)), tuple(map(str, modules)), track,
           repr(sorted((str(k), repr(v)) for k, v in params.items())) if params else "")
    kept = _LOADED.get(key)
    if kept is not None and _unchanged(kept[0]) and _track_files(kept[0]) == kept[2]:
        report.items.extend(kept[1])
        rs: Ruleset | None = kept[0]
    else:
        start = len(report.items)
        rs = _load(Path(path), variants, modules, report, track, params)
        if rs is not None:
            _LOADED[key] = (rs, report.items[start:], _track_files(rs))
    return rs if rs is not None and (rs.whole or partial) else None


def forget_loaded() -> None:
    """Load every game from its files again from now on (a test that changes the loader)."""
    _LOADED.clear()


def _unchanged(rs: Ruleset) -> bool:
    """Does each file the game was read from hold the bytes it did (read as the loader reads it:
    a text `overlaid` stands for its file)?"""
    for file, digest in rs.files:
        raw = read_bytes(Path(file), Report())
        if raw is None or hashlib.sha256(raw).hexdigest() != digest:
            return False
    return True


def _track_files(rs: Ruleset) -> tuple[str, ...]:
    folder = rs.track_folder
    if folder is None or not folder.is_dir():
        return ()
    return tuple(sorted(p.name for p in folder.glob("*.yaml")))


@fewer_collections()
def _load(path: Path, variants: Sequence[str], modules: Sequence[str], report: Report,
          track: str | None, params: dict | None) -> Ruleset | None:
    game_path = path / "game.yaml" if path.is_dir() else path
    folder = game_path.parent
    at_start = report.errors
    if game_path.name != "game.yaml" or not present(game_path):
        report.add("E001", f"no game file at {game_path}", Loc(str(game_path)),
                   "a ruleset folder holds game.yaml")
        return None
    ld = _Loader(folder, report)
    data = ld.read(game_path, [ld.folder], "the game file")
    if data is None:
        return None
    if ld.structure(data, "game", str(game_path)) is None:
        return None
    # The track raced (`--track NAME`): what it requires comes first among the patch files
    track_read: list = []
    raced = _track_file(ld, data, str(track), report, track_read) if track is not None else None
    # The patch files, in order: what the track requires, modules, then variants (each after
    # what it requires).
    files: list[tuple[str, str, Path, dict]] = []
    applied: list[str] = []
    if raced is not None:
        for needed in raced[2].track.requires:
            kind = _required_kind(folder, needed, report)
            if kind is None:
                continue
            _add_patch_file(ld, folder, kind, needed, files, applied, report, [f"track {track}"])
    first = len(files)   # (what the track requires stays first)
    for kind, names in (("module", modules), ("variant", variants)):
        for name in names:
            _add_patch_file(ld, folder, kind, name, files, applied, report, [])
    files[first:] = modules_first(ld.needs, files[first:])
    # 1. what the game includes may itself be patched (`add: include`, `remove: include`)
    ill_formed = report.errors
    prepared = [prepare(pdata["patches"], report) for _kind, _name, _path, pdata in files]
    ill_formed = report.errors - ill_formed  # (left out, as a patch that cannot be made is)
    for patches in prepared:
        data = apply_patches(data, patches, report, only=lambda p, op, a: a.head == "include")
    # 2. the included cards and tracks (the game's, then each patch file's) join the game
    ld.includes(game_path, data.get("include", []), data)
    for _kind, _name, patch_path, pdata in files:
        ld.includes(patch_path, pdata.get("include", []), pdata)
    data = shallow(data)  # the loaded file is shared (`_parsed`): what changes below is copied first
    _merge(ld, data, report)
    # 3. `--track NAME` swaps in the boards of a track file
    pending = dict(ld.track_params)  # a track's params: set as soon as the game has them
    ld.account(track_read)
    if raced is not None:
        _replace_track(ld, data, raced, report)
        pending.update(raced[1].get("params") or {})
    changed: dict[str, Loc | None] = {}
    tracks = str(ld.tracks()) + os.sep
    info = data.get("game")
    game_id = str(info.get("id", "")) if isinstance(info, dict) else ""
    # raced on its own boards, a game with track files is raced (and validated) on theirs too: a
    # board's value a patch sets again may differ there
    boards_vary = raced is None and is_name(game_id) and any((ld.tracks() / game_id).glob("*.yaml"))

    def in_tracks(loc: Loc | None, target: str = "") -> bool:
        return (loc is not None and str(loc.file).startswith(tracks)) or \
            (boards_vary and str(target).startswith("boards."))
    data = track_params(data, pending, report, changed)
    # 4. every other patch, on the merged game: its rules, cards and boards alike (a mistake before
    # them leaves the game unread; a patch that cannot be made is left out, and the rest checked)
    read_whole = report.errors - ill_formed == at_start
    clashes = Clashes(ld.needs, files)
    for i, patches in enumerate(prepared):
        data = apply_patches(data, patches, report, changed=changed, from_track=in_tracks,
                             only=lambda p, op, a: a.head != "include" and op != "change" and
                             not is_rule_patch(p, op, a))
        data = track_params(data, pending, report, changed)  # those the patches just declared
        clashes.clash(i, patches, report)
    for patches in prepared:  # every `change:` last: the same numbers in any order (`order.py`)
        data = apply_patches(data, patches, report, changed=changed, from_track=in_tracks,
                             only=lambda p, op, a: op == "change" and a.head != "include")
    have = data.get("params") if isinstance(data.get("params"), dict) else {}
    for name in pending:
        report.add("E042", f"the track sets param `{shown(name)}`, which the game does not have",
                   loc_of(name), did_you_mean(str(name), list(have)) or
                   "a track sets params of its game, or of a module or variant it `requires:`")
    # ... and the params given when the game is started
    if params:
        data = set_params(data, params, report, changed)
    # A patch that failed is left out, and the game is read on without it: every mistake of the
    # patch files is said in one run (the patches of rules too), not one at a time.
    formed = len(report.items)
    game = check_structure(data, "game", str(game_path), report)
    blame_patches(report, formed, changed)  # a value a patch gave in a form the game cannot have
    if game is None:
        return None
    players = game.game.players
    if players.min > players.max:
        report.add("E140", f"players: min {players.min} is more than max {players.max}",
                   loc_at(data, ["game", "players"], key=True))
        return None
    mark, first = report.errors, len(report.items)
    rules = parse_rules(game, report)
    # 5. patches inside the rules' text: `extend`, options of named choices, named statements (not
    # when a rule could not be read: an extension of it would only say it is missing)
    if report.errors > mark:
        # (the checker, which says such a declaration is wrong, does not run when a rule cannot be read)
        words_as_names(report, first, declared_words(game))
        return None
    rule_patches = [[x for x in patches if is_rule_patch(*x)] for patches in prepared]
    for each in rule_patches:
        apply_rule_patches(rules, each, report)
    if report.errors == mark and any(rule_patches):  # each text alone was counted as it was read
        check_extended_loops(rules, report)
    # a patch of rules that cannot be made is left out, as one of data is: the rest is checked
    # (`whole` is false: the game is not played)
    if not read_whole:
        return None
    cards = [CardType.model_construct(id=ident, **dict(spec)) for ident, spec in game.cards.items()]
    track_folder = ld.tracks() / str(game.game.id)
    others = []
    if is_name(game.game.id) and track_folder.is_dir():
        others = sorted(p.stem for p in track_folder.glob("*.yaml")
                        if is_name(p.stem) and _resolved(p) not in ld.seen_includes)
    changes = [(c, str(game_path)) for c in game.changes] + [
        (Change.model_validate(c), str(patch_path)) for _k, _n, patch_path, pdata in files
        for c in pdata.get("changes") or []]
    return Ruleset(game=game, folder=folder, cards=cards, applied=applied, left_out=left_out(game, prepared),
                   changes=changes, whole=report.errors == at_start,
                   digest=ld.hash.hexdigest()[:DIGEST_CHARS], rules=rules, other_tracks=others,
                   files=ld.files, digest_parts=ld.digest_parts, changed=changed, needs=ld.needs,
                   given=repr(sorted((str(k), repr(v)) for k, v in params.items())) if params else "",
                   track_folder=track_folder)


def _required_kind(folder: Path, name: Any, report: Report) -> str | None:
    """What a name in `requires:` is: the ruleset's module or its variant of that name; None (said)
    when it has neither, or both (modules and variants are one namespace: which one a name
    meant would otherwise depend on which folder is looked in first)."""
    kinds = [kind for kind in ("module", "variant")
             if is_name(name) and present(folder / f"{kind}s" / f"{name}.yaml")]
    if len(kinds) == 2:
        report.add("E054", f"`{shown(name)}` is both a module and a variant of this ruleset: which one is "
                           "required cannot be told", loc_of(name),
                   f"rename one of {folder / 'modules' / (str(name) + '.yaml')} and "
                   f"{folder / 'variants' / (str(name) + '.yaml')} (its `id:` with it)")
        return None
    if not kinds:
        _no_such_requirement(folder, name, report)
        return None
    return kinds[0]


def _some(names: list[str], most: int = 12) -> str:
    """Names for a hint: a folder of a hundred files lists a few, and counts the rest."""
    more = len(names) - most
    return ", ".join(names[:most]) + (f" and {more} more" if more > 0 else "")


def _no_such_requirement(folder: Path, name: Any, report: Report) -> None:
    have = sorted(p.stem for kind in ("modules", "variants") for p in (folder / kind).glob("*.yaml"))
    report.add("E040", f"no module or variant named `{shown(name)}` in {folder}", loc_of(name),
               did_you_mean(str(name), have) or
               (f"its modules and variants: {_some(have)}" if have else
                "this ruleset has no modules or variants"))


def _patch_file(ld: _Loader, folder: Path, kind: str, name: Any, applied: list[str],
                report: Report) -> Any:
    """(kind, name, path, data) of a module or variant, read and checked; None (reported)."""
    if not is_name(name):
        report.add("E040", f"`{shown(name)}` is not a {kind} name", loc_of(name),
                   f"a {kind} is named by its file in {kind}s/ without `.yaml`: {_NAME_CHARS}")
        return None
    patch_path = folder / f"{kind}s" / f"{name}.yaml"
    if not present(patch_path):
        have = sorted(p.stem for p in (folder / f"{kind}s").glob("*.yaml"))
        report.add("E040", f"no {kind} named `{name}` in {folder / (kind + 's')}",
                   loc_of(name, Loc(str(patch_path))), did_you_mean(name, have) or
                   (f"available: {_some(have)}" if have else f"this ruleset has no {kind}s"))
        return None
    pdata = ld.read(patch_path, [ld.folder], f"{kind} `{name}`")
    if pdata is None:
        return None
    if ld.structure(pdata, kind, str(patch_path)) is None:
        return None
    return kind, str(name), patch_path, pdata


def _add_patch_file(ld: _Loader, folder: Path, kind: str, name: Any, files: list, applied: list[str],
                    report: Report, needed_by: list[str]) -> None:
    """A module or variant joins `files`, after the modules and variants it `requires:` that are
    not applied yet (applied for it, in the order it lists them); a cycle of requirements is E048."""
    if f"{kind}:{name}" in applied:
        return
    found = _patch_file(ld, folder, kind, name, applied, report)
    if found is None:
        return
    for needed in found[3][kind].get("requires", []):
        other = _required_kind(folder, needed, report)
        if other is None:
            return
        if f"{other}:{needed}" in applied:
            continue
        if (other, str(needed)) == (kind, str(name)):
            report.add("E048", f"{kind} `{name}` requires itself", loc_of(needed),
                       f"a {kind} is applied with what it requires: take `{needed}` out of its `requires:`")
            return
        if f"{other} {needed}" in needed_by:
            report.add("E048", f"{kind} `{name}` and {other} `{needed}` require each other",
                       loc_of(needed), f"a {kind} cannot need what needs it")
            return
        _add_patch_file(ld, folder, other, needed, files, applied, report, [*needed_by, f"{kind} {name}"])
        ld.needs.setdefault(str(found[2]), []).append(str(folder / f"{other}s" / f"{needed}.yaml"))
    files.append(found)
    applied.append(f"{kind}:{name}")


def _merge(ld: _Loader, data: Any, report: Report) -> None:
    """The included cards join the game's own `cards:`; the boards of included track files join
    its `boards:` (the game's own declaration of a board wins)."""
    if ld.cards:
        cards = data["cards"] = shallow(data.get("cards", SrcMap()))
        for ident, spec in ld.cards.items():
            if ident in cards:
                report.add("E114", f"card type `{ident}` is defined twice", loc_of(ident))
                continue
            cards[ident] = spec
    if ld.boards:
        boards = data["boards"] = shallow(data.get("boards", SrcMap()))
        for name, board in ld.boards.items():
            boards.setdefault(name, board)


def _track_file(ld: _Loader, data: Any, track: str, report: Report,
                later: list) -> tuple[Path, Any, TrackFile] | None:
    """(its path, its data, its model) of `tracks/<game id>/<track>.yaml`, read (`later`: see
    `_Loader.read`); None (reported)."""
    info = data.get("game")
    game_id = info.get("id", "") if isinstance(info, dict) else ""
    folder = ld.tracks() / str(game_id)
    if not is_name(track):
        report.add("E033", f"`{shown(track)}` is not a track name", loc_of(track),
                   f"a track is named by its file in {folder} without `.yaml`: {_NAME_CHARS}")
        return None
    if not is_name(game_id):  # a patch made the game's id something that is not a name
        report.add("E033", f"no track `{track}`: the game's id `{shown(game_id)}` is not a name",
                   loc_of(track))
        return None
    have = sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []
    path = folder / f"{track}.yaml"
    if not present(path):  # there but not a regular file: reading it says so
        # (the message names no folder: a web table's player reads it, the server's paths are not theirs)
        report.add("E033", f"no track `{track}` for {game_id}: "
                   + (f"its tracks are {', '.join(have)}" if have else "it has no track files"),
                   loc_of(track), did_you_mean(track, have) or f"a track is a file in {folder}")
        return None
    tdata = ld.read(path, [ld.tracks()], f"track `{track}`", later=later)
    if tdata is None:
        return None
    model = ld.structure(tdata, "track", str(path))
    if not isinstance(model, TrackFile):
        return None
    return path, tdata, model


def _replace_track(ld: _Loader, data: Any, raced: tuple[Path, Any, TrackFile], report: Report) -> None:
    """Swap in the boards of the track file raced for the game's boards of those names."""
    path, tdata, model = raced
    boards = data["boards"] = shallow(data.get("boards", SrcMap()))
    for name in model.boards:
        if name not in boards:
            report.add("E034", f"track `{model.track.id}` has board `{name}`, which the game does not have",
                       getattr(tdata["boards"], "key_locs", {}).get(name) or Loc(str(path)),
                       did_you_mean(name, list(boards)) or
                       "a track file replaces boards of the same name; the game names them under "
                       "`boards:` or includes a track file")
            continue
        boards[name] = tdata["boards"][name]


__all__ = ["Ruleset", "load_ruleset", "find_ruleset", "find_game", "is_name", "read_file",
           "apply_patches", "loc_at"]
