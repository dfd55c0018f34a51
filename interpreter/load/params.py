"""Racecraft: load, params given. Stage: after the patches, before the game's form is checked. A
game's params given values from outside its files: by the track raced (once the game, or the
add-on that declares one, has it), by a season and on the command line (`--param NAME=VALUE`);
each is a `set` patch, said where it was given."""
from __future__ import annotations

from typing import Any

from ..base.diagnostics import Loc, Report, did_you_mean
from .names import is_name, shown
from .patches import apply_patches, prepare
from .yamlsrc import SrcMap, loc_of


def set_params(data: Any, params: dict, report: Report, changed: dict[str, Loc | None]) -> Any:
    """The merged game with each named param set to its value (a YAML value: `3`, `true`, `[1, 2]`).
    A name from a file (a season's `params:`) keeps its position there: a misspelt one is said at
    its line; one from the command line (`--param NAME=VALUE`) is said as such."""
    have = data.get("params") if isinstance(data.get("params"), dict) else {}
    for name, value in params.items():
        where = loc_of(name)
        if not is_name(name) or name not in have:
            hint = did_you_mean(str(name), list(have)) or \
                (f"its params: {', '.join(map(str, have))}" if have else "this game has no params")
            if where is None:
                report.add("E042", f"`--param {shown(name)}=...` (on the command line): the game has no "
                           f"param `{shown(name)}`", None, hint)
            else:
                report.add("E042", f"the game has no param `{shown(name)}`", where, hint)
            continue
        patch = SrcMap()
        patch["set"], patch["to"] = f"params.{name}", value
        data = apply_patches(data, prepare([patch], report), report)
        changed[f"params.{name}"] = where
    return data


def track_params(data: Any, pending: dict, report: Report, changed: dict[str, Loc | None]) -> Any:
    """The game with each param of `pending` (a track's) that it has set, and taken out of
    `pending`: a track's param takes its value once the game declares it (in its own file, or in
    the module or variant that adds it), and later patches may change it further."""
    have = data.get("params") if isinstance(data.get("params"), dict) else {}
    ready = {k: v for k, v in pending.items() if k in have}
    for name in ready:
        del pending[name]
    return set_params(data, ready, report, changed) if ready else data
