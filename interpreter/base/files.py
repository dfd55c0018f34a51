"""Files a person names: read with their kind and size checked first, written so that nothing is lost.

Reading (`read_limited`): a file's kind and size are checked before it is opened, so a named pipe
(which would hang), a device (`/dev/zero`, which never ends) or a huge file is refused unread.

Writing (`write_atomic`, `atomic`): every file a command writes (a game record, a season's save,
an export, a chart, a picture, a schema) goes to a temporary file in the same folder, is flushed to
the disk and then renamed over the target, so the target is either the old file or the new one,
never half of one; a failure (a full disk) leaves the old file as it was and says which file it
was. A target that exists and is not a regular file (a folder, a named pipe, a device, a link to
one) is refused: `--save /dev/null` must not replace the system's `/dev/null`.

Appending (`Journal`): a game record gets a line per decision as it is taken, flushed at once, so
that a killed process keeps every decision taken before it.

Here, not in a later package, because the diagnostics read files too (a snippet of the line) and
every stage writes them (schemas, records, exports, pictures).
"""
from __future__ import annotations

import os
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator

# how much of a file's content an error message may show
EXCERPT = 80


class FileRefused(Exception):
    """A file `read_limited` will not read: `kind` is "os" (it cannot be read), "kind" (not a
    regular file) or "size" (over the limit); the message says why, without the file's name."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind, self.message = kind, message


class CannotWrite(Exception):
    """A file a command cannot write: the message names it and says why (a person's message)."""


def excerpt(text: str, width: int = EXCERPT) -> str:
    """At most `width` characters of a file's content for an error message (its first line)."""
    line = text.split("\n", 1)[0]
    return line if len(line) <= width else line[: width - 3] + "..."


def not_regular(mode: int) -> str:
    """Why a file of this mode is not one to read or replace."""
    if stat.S_ISDIR(mode):
        return "it is a folder, not a file"
    if stat.S_ISFIFO(mode):
        return "it is a named pipe (FIFO), not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "it is a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "it is a socket, not a regular file"
    return "it is not a regular file"


_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
               | getattr(os, "O_BINARY", 0))


# Texts read in place of files while a pass reads them (`overlaid`), by the file's real path.
_OVERLAY: dict[str, bytes] = {}


@contextmanager
def overlaid(texts: dict[Path, str]) -> Iterator[None]:
    """Inside, reading one of these files gives the text here, not what is on the disk: a file
    checked as it would be after an edit that is not written (an upgrade's next step)."""
    before = dict(_OVERLAY)
    _OVERLAY.update({os.path.realpath(p): t.encode("utf-8") for p, t in texts.items()})
    try:
        yield
    finally:
        _OVERLAY.clear()
        _OVERLAY.update(before)


def tidy(path: Path) -> Path:
    """`path` as a person would write it, without `..` (`rulesets/g/scenarios/../game.yaml` is
    `rulesets/g/game.yaml`), where that names the same file (not through a link); else as given."""
    short = Path(os.path.normpath(path))
    try:
        return short if short.resolve() == path.resolve() else path
    except (OSError, RuntimeError, ValueError):
        return path


def present(path: Path) -> bool:
    """Whether there is a file to read at `path`: one on the disk, or a text standing for it
    (`overlaid`: a file an editor holds that was never saved)."""
    return bool(_OVERLAY) and os.path.realpath(path) in _OVERLAY or path.exists()


def read_limited(path: Path, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes, or `FileRefused` (`overlaid`: the
    text standing for the file, if one does).

    Its kind and size are checked (`os.stat`) before it is opened, so a named pipe, a device
    (`/dev/zero`) or a huge file is never read; it is opened without blocking and checked again
    (it may have been replaced meanwhile), and at most `limit + 1` bytes are read (it may have
    grown)."""
    if _OVERLAY:
        text = _OVERLAY.get(os.path.realpath(path))
        if text is not None:
            if len(text) > limit:
                raise FileRefused("size", f"file is too large ({len(text)} bytes, limit {limit})")
            return text
    try:
        st = os.stat(path)
    except OSError as e:
        raise FileRefused("os", f"cannot read file: {e.strerror or e}") from None
    except ValueError:  # a NUL in the name
        raise FileRefused("os", "cannot read file: its name holds a NUL character") from None
    if not stat.S_ISREG(st.st_mode):
        raise FileRefused("kind", f"cannot read file: {not_regular(st.st_mode)}")
    if st.st_size > limit:
        raise FileRefused("size", f"file is too large ({st.st_size} bytes, limit {limit})")
    try:
        fd = os.open(path, _OPEN_FLAGS)
        with open(fd, "rb", closefd=True) as f:
            st = os.fstat(f.fileno())
            if not stat.S_ISREG(st.st_mode):
                raise FileRefused("kind", f"cannot read file: {not_regular(st.st_mode)}")
            raw = f.read(limit + 1)
    except OSError as e:
        raise FileRefused("os", f"cannot read file: {e.strerror or e}") from None
    if len(raw) > limit:
        raise FileRefused("size", f"file is too large (more than {limit} bytes, limit {limit})")
    return raw


# ---- writing --------------------------------------------------------------------------------------

def target_problem(path: Path) -> str | None:
    """Why `path` cannot be written (None: it can): its folder is missing or closed to us, or it
    exists and is not a regular file (followed through links)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except (OSError, ValueError) as e:
        return str(getattr(e, "strerror", None) or e)
    if st is not None and not stat.S_ISREG(st.st_mode):
        why = not_regular(st.st_mode)
        return f"{why}; give a new file's name" if stat.S_ISDIR(st.st_mode) else \
            f"{why}: only a regular file is replaced"
    folder = _real(path).parent
    if not folder.is_dir():
        return f"the folder {folder} does not exist"
    if not os.access(folder, os.W_OK | os.X_OK):
        return "cannot write there (permission denied)"
    return None


def _real(path: Path) -> Path:
    """Where writing `path` lands: the file a link points to (written in its own folder), else it."""
    return Path(os.path.realpath(path)) if os.path.islink(path) else path


def _mode(path: Path) -> int:
    """The permissions the written file gets: the replaced file's, else the usual ones (umask)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask


def _fail(path: Path, e: OSError) -> CannotWrite:
    return CannotWrite(f"cannot write {path}: {e.strerror or e}")


@contextmanager
def atomic(path: Path, binary: bool = False, newline: str | None = None) -> Iterator[IO]:
    """A file to write `path` through: a temporary file beside it, renamed over it when the block
    ends without an error (after it reached the disk); removed, with `path` untouched, otherwise.
    Raises `CannotWrite` naming `path`."""
    problem = target_problem(path)
    if problem is not None:
        raise CannotWrite(f"cannot write {path}: {problem}")
    real = _real(path)
    mode = _mode(real)
    try:
        tmp = _temp_beside(real)
    except OSError as e:
        raise _fail(path, e) from None
    done = False
    try:
        f: IO
        with (open(tmp, "wb") if binary else open(tmp, "w", encoding="utf-8", newline=newline)) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        problem = target_problem(path)  # replaced meanwhile by something that is not a file?
        if problem is not None:
            raise CannotWrite(f"cannot write {path}: {problem}")
        os.replace(tmp, real)
        done = True
        _sync_folder(real.parent)
    except OSError as e:
        raise _fail(path, e) from None
    finally:
        if not done:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def write_atomic(path: Path, data: str | bytes) -> None:
    """`path` holds `data`, or (on any failure, a `CannotWrite`) what it held before."""
    with atomic(path, binary=isinstance(data, bytes)) as f:
        f.write(data)


def _temp_beside(path: Path) -> Path:
    """A new file in `path`'s folder, only ours (O_EXCL), named after it."""
    import secrets

    for _ in range(100):
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.part")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        except FileExistsError:
            continue
        os.close(fd)
        return tmp
    raise FileExistsError(f"no free temporary name beside {path}")


def _sync_folder(folder: Path) -> None:
    """The rename itself on the disk (where the system lets a folder be synced)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    _synced_close(fd)


def _synced_close(fd: int) -> None:
    """On the disk (where the system lets it be synced), then closed."""
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class Journal:
    """A file written a line at a time, each line on the disk's way at once (one `write` to the
    system, nothing kept in the process): a process killed between two lines leaves every line
    written before it. Opened on a file `write_atomic` made (its first lines), then appended to,
    never truncated. After a failed write it writes nothing more (a line cut short stays the last)."""

    def __init__(self, path: Path):
        self.path = path
        try:
            flags = os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOCTTY", 0)
            self._fd: int | None = os.open(_real(path), flags)
        except OSError as e:
            raise _fail(path, e) from None

    def line(self, text: str) -> None:
        """Append one line (`text` holds no line break)."""
        if self._fd is None:
            raise CannotWrite(f"cannot write {self.path}: a write to it failed before")
        data = (text + "\n").encode("utf-8")
        try:
            while data:
                data = data[os.write(self._fd, data):]
        except OSError as e:
            self.close()
            raise _fail(self.path, e) from None

    def close(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        _synced_close(fd)
