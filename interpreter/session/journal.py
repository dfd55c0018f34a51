"""Where `racecraft play` keeps a game no `--log` names: the user's data folder
(`$XDG_DATA_HOME/racecraft/games`, else `~/.local/share/racecraft/games`), one record a game, so
that a game stopped by Ctrl-C, a closed terminal or a crash can be taken up again with
`--resume`. A record is never written over: a second game of the same game and seed gets a
name of its own."""
from __future__ import annotations

import os
from pathlib import Path


def data_folder() -> Path:
    """`$XDG_DATA_HOME/racecraft`, else `~/.local/share/racecraft` (the web table's store is there too)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "racecraft"


def journal(game_id: str, seed: int) -> Path:
    """A new record's path for a game of `game_id` dealt from `seed` (its folder made, private to
    the user: a record shows every hand). Raises OSError when the folder cannot be made."""
    folder = data_folder() / "games"
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    stem = f"{game_id}-seed{seed}"
    path, k = folder / f"{stem}.jsonl", 1
    while path.exists():
        k += 1
        path = folder / f"{stem}-{k}.jsonl"
    return path


def shown(path: Path) -> str:
    """A path as a person retypes it: under their home folder with `~`."""
    home = str(Path.home())
    text = str(path)
    return "~" + text[len(home):] if home not in ("", "/") and text.startswith(home + os.sep) else text
