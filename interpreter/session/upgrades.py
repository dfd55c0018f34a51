"""Games recorded before `racecraft upgrade` rewrote a file still replay.

A record names its rules by a digest of their files' bytes, and an upgrade changes the bytes
without changing what the rules mean (each old form is read as its new form). So `upgrade` keeps
the text it replaced, in the user's data folder (`upgrades/`, under the new text's sha256); a
record whose digest is not that of the files now is the same game when the digest of the files
as they were before their upgrades is the record's. A record from someone who never upgraded
replays as before; one from before someone else's upgrade does not (they can send the old file).
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from ..base.files import CannotWrite, FileRefused, read_limited, write_atomic
from ..load.ruleset import DIGEST_CHARS, feed_digest
from .journal import data_folder

# at most this many upgrades of one file are followed back, and this many bytes read of a text kept
GENERATIONS = 8
MAX_KEPT = 4_000_000


def _kept(sha: str) -> Path:
    return data_folder() / "upgrades" / sha


def remember(before: str, after: str) -> None:
    """`upgrade` replaced the text `before` by `after`: kept under the new text's digest. Raises
    CannotWrite when the data folder cannot be written."""
    new = hashlib.sha256(after.encode("utf-8")).hexdigest()
    folder = _kept(new).parent
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as e:
        raise CannotWrite(f"cannot make {folder}: {e.strerror or e}") from None
    write_atomic(_kept(new), before.encode("utf-8"))


def _before(raw: bytes) -> bytes | None:
    """The text a file's bytes replaced when it was upgraded, if this machine upgraded it."""
    try:
        return read_limited(_kept(hashlib.sha256(raw).hexdigest()), MAX_KEPT)
    except FileRefused:
        return None


def recorded_before_upgrade(rs, digest: str) -> bool:
    """Whether `digest` (a record's) is that of the ruleset's files as they were before their
    upgrades on this machine: going back one upgrade of every upgraded file at a time."""
    texts: list[tuple[str, bytes]] = []
    for name, path in rs.digest_parts:
        try:
            texts.append((name, read_limited(Path(path), MAX_KEPT)))
        except FileRefused:
            return False
    for _ in range(GENERATIONS):
        earlier = [(name, _before(raw)) for name, raw in texts]
        if all(old is None for _name, old in earlier):
            return False
        texts = [(name, old if old is not None else raw) for (name, old), (_n, raw) in zip(earlier, texts)]
        h = hashlib.sha256()
        for name, raw in texts:
            feed_digest(h, name, raw)
        if h.hexdigest()[:DIGEST_CHARS] == digest:
            return True
    return False
