"""What `validate` found for each game it checked, kept between runs in the user's cache folder.

A verdict (the diagnostics, the games played and their rounds) is kept under a key made of what
was asked (the ruleset folder, the variants, modules and track, the player counts, the number of
games, the params) and the digest of the engine's own source, beside the path and the SHA-256
of every file the game read. It is used again only while each of those files has the same
digest, so an edited variant, card or track file is checked again, and nothing else is.

The folder is `$XDG_CACHE_HOME/racecraft/validate` (or `~/.cache/racecraft/validate`). A verdict
is plain JSON, written to a temporary file and renamed (a reader never sees half a file), and
read back only when every field has the type it must have: a file changed by hand can at most
make `validate` print other words (through the same escaping as anything else), never run
anything. Nothing here is pickled.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import tempfile
from pathlib import Path

from ..base.diagnostics import Diagnostic, Loc

FORMAT = 2
MAX_BYTES = 1_000_000        # a verdict file larger than this is not read
KEEP = 4000                  # verdict files kept; past this the oldest go
_CODE = re.compile(r"[EW][0-9]{3}")


def folder() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "racecraft" / "validate"


_ENGINE: list[str] = []


LIBRARIES = ("lark", "pydantic", "jsonschema", "PyYAML")


def engine() -> str:
    """The digest of the engine's source (every .py and grammar file of the package), of the
    Python running it and of the versions of the libraries it reads files with: a verdict of
    another engine is never used."""
    if not _ENGINE:
        from importlib import metadata

        root = Path(__file__).resolve().parents[1]
        h = hashlib.sha256(sys.version.encode())
        for name in LIBRARIES:
            try:
                h.update(f"{name} {metadata.version(name)}\0".encode())
            except metadata.PackageNotFoundError:
                h.update(f"{name} ?\0".encode())
        for path in sorted(root.rglob("*")):
            if path.suffix in (".py", ".lark") and path.is_file():
                h.update(str(path.relative_to(root)).encode() + b"\0")
                h.update(path.read_bytes())
        _ENGINE.append(h.hexdigest())
    return _ENGINE[0]


def key(*asked) -> str:
    """The key of a verdict: what was asked (plain data) and the engine."""
    text = json.dumps([FORMAT, engine(), *asked], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


class Files:
    """The digests of files as they are now, each file read once per run."""

    def __init__(self):
        self.digests: dict[str, str | None] = {}

    def digest(self, path: str) -> str | None:
        if path not in self.digests:
            try:
                self.digests[path] = hashlib.sha256(Path(path).read_bytes()).hexdigest()
            except (OSError, ValueError):
                self.digests[path] = None
        return self.digests[path]


def lookup(k: str, files: Files) -> dict | None:
    """The verdict kept under `k`, if every file it read is unchanged; else None."""
    path = folder() / f"{k}.json"
    try:
        if path.stat().st_size > MAX_BYTES:
            return None
        entry = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not _entry_ok(entry, k):
        return None
    if any(files.digest(p) != d for p, d in entry["files"]):
        return None
    return entry["verdict"]


def store(k: str, verdict: dict) -> None:
    """Keep a verdict (one whose game was loaded: it lists the files it read); quietly nothing
    when the cache folder cannot be written."""
    entry = {"format": FORMAT, "key": k, "files": verdict["files"], "verdict": verdict}
    if not _entry_ok(entry, k):
        return
    where = folder()
    try:
        where.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(dir=where, prefix=".new-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(entry, f)
            os.replace(tmp, where / f"{k}.json")
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass


def prune() -> None:
    """At most `KEEP` verdicts: the oldest go first."""
    try:
        kept = sorted(folder().glob("*.json"), key=lambda p: p.stat().st_mtime)
        for path in kept[:max(0, len(kept) - KEEP)]:
            path.unlink()
    except OSError:
        pass


# ---- a verdict as plain data -------------------------------------------------------------------

def diagnostics_data(items: list[Diagnostic]) -> list[dict]:
    return [{"code": d.code, "message": d.message, "severity": d.severity, "hint": d.hint,
             "notes": list(d.notes), "loc": _loc(d.loc),
             "also": None if d.also is None else [d.also[0], _loc(d.also[1])]}
            for d in items]


def _loc(loc: Loc | None) -> list | None:
    return None if loc is None else [loc.file, loc.line, loc.col]


def diagnostics(data: list[dict]) -> list[Diagnostic]:
    return [Diagnostic(d["code"], d["message"], None if d["loc"] is None else Loc(*d["loc"]), d["hint"],
                       d["severity"], tuple(d["notes"]),
                       None if d.get("also") is None else (d["also"][0], Loc(*d["also"][1])))
            for d in data]


def _entry_ok(entry, k: str) -> bool:
    """Whether a kept entry has exactly the form `store` writes (anything else is not used)."""
    try:
        v = entry["verdict"]
        return (entry["format"] == FORMAT and entry["key"] == k and _files_ok(entry["files"])
                and v["files"] == entry["files"] and _ints(v["rounds"]) and _ints(v["counts"])
                and isinstance(v["applied"], list) and all(isinstance(a, str) for a in v["applied"])
                and _int(v["ended"]) and v["cacheable"] is True
                and isinstance(v["items"], list) and all(_item_ok(d) for d in v["items"]))
    except (KeyError, TypeError):
        return False


def _files_ok(files) -> bool:
    return isinstance(files, list) and all(
        isinstance(f, list) and len(f) == 2 and all(isinstance(x, str) for x in f) for f in files)


def _int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 2**31


def _ints(xs) -> bool:
    return isinstance(xs, list) and all(_int(x) for x in xs)


def _loc_ok(loc) -> bool:
    return loc is None or (isinstance(loc, list) and len(loc) == 3 and isinstance(loc[0], str)
                           and _int(loc[1]) and _int(loc[2]))


def _item_ok(d) -> bool:
    also = d["also"]
    return (isinstance(d, dict) and set(d) == {"code", "message", "severity", "hint", "notes", "loc", "also"}
            and isinstance(d["code"], str) and _CODE.fullmatch(d["code"]) is not None
            and isinstance(d["message"], str) and d["severity"] in ("error", "warning")
            and (d["hint"] is None or isinstance(d["hint"], str))
            and isinstance(d["notes"], list) and all(isinstance(n, str) for n in d["notes"])
            and _loc_ok(d["loc"])
            and (also is None or (isinstance(also, list) and len(also) == 2 and isinstance(also[0], str)
                                  and also[1] is not None and _loc_ok(also[1]))))
