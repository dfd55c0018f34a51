"""`racecraft upgrade FILE`: a designer's file rewritten to the current language version.

The file is read as `validate` reads it (its game loaded with it, its rules checked); every old
form found in it (`lang/versions.py`) comes with the text edits that write its new form, placed
where the loader found it. The edits are made to the file's own text, each only where the text
there is what the edit expects, so comments, spacing and layout stay as they are: nothing is
dumped again. Old forms inside others are rewritten in rounds, each round's text checked before
the next. The file's `language:` line is set to the current version (added at the top when it
has none) once nothing is left: an old form that is not mechanical (a rule reading what another
rule does not show) is listed, to be done by hand, and the file keeps its language meanwhile. A
file whose game has errors is not upgraded: they are said.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..base.diagnostics import Diagnostic, Loc, Report
from ..base.files import overlaid
from ..check import check
from ..ir.models import kind_of
from ..lang import versions
from ..load.ruleset import load_ruleset, read_file
from ..load.yamlsrc import read_text
from .scenario import load_scenario

_WORDS = re.compile(r'"\{([^{}"]+)\}"')   # a template that is one value, said in words: `"{c}"`
_LANGUAGE_LINE = re.compile(r"^language:[ \t]*[^\n#]*?(?P<tail>[ \t]*(#[^\n]*)?)$", re.M)


@dataclass
class Upgrade:
    path: Path
    before: str = ""
    after: str = ""
    done: list[Diagnostic] = field(default_factory=list)     # old forms rewritten
    by_hand: list[Diagnostic] = field(default_factory=list)  # old forms left to the designer
    report: Report = field(default_factory=Report)         # what kept the file from being read

    @property
    def changed(self) -> bool:
        return self.after != self.before

    def diff(self) -> str:
        return "".join(difflib.unified_diff(self.before.splitlines(True), self.after.splitlines(True),
                                            f"{self.path} (as it is)", f"{self.path} (language "
                                            f"{versions.CURRENT})"))


# Rounds of rewriting: an old form inside another (`swap car with at(grid, car.slot - 1)`) shows
# its new form only once the outer one is rewritten, so the file is read again after each round.
ROUNDS = 8


def upgrade(path: Path) -> Upgrade:
    """What `racecraft upgrade` makes of the file (nothing is written here). Each round's text is
    read and checked as the file would be (`overlaid`) before the next; a round that would leave
    errors is not taken. The language line is set to the current version only when no old form is
    left to do by hand (else the file would fail where it now warns)."""

    out = Upgrade(path)
    said = _read(path, out.report)
    # a file with other errors is not read whole (a rule that does not check may hold old forms
    # not found yet): it is not upgraded, lest `language: 2` make them errors
    out.report.items.extend(d for d in said if d.severity == "error" and d.code != "E107")
    if not out.report.ok:
        return out
    before = read_text(path, out.report)  # read as the loader read it (a regular file, UTF-8)
    if before is None:
        return out
    out.before = text = before
    name = str(path)
    for _ in range(ROUNDS):
        done, after = _rewritten(said, text, name)
        if not done:
            break
        checked = Report()
        with overlaid({path: after}):
            again = _read(path, checked)
        if any(d.severity == "error" and d.code != "E107" for d in [*again, *checked.items]):
            break   # (its old forms stay in `said`: to do by hand)
        out.done += done
        text, said = after, again
    out.done = _once(out.done)
    out.by_hand = _once(_left(said, text, name))
    out.after = text if out.by_hand else _language_line(text)
    return out


def _mine(said: list[Diagnostic], name: str, codes: tuple[str, ...]) -> list[Diagnostic]:
    return [d for d in said if d.code in codes and d.loc is not None and d.loc.file == name]


def _rewritten(said: list[Diagnostic], text: str, name: str) -> tuple[list[Diagnostic], str]:
    """The old forms of the file (`said` of `text`) that edits rewrite, and the text with them."""
    edits: dict[tuple, tuple[Loc, str, str]] = {}
    fixable = [d for d in _mine(said, name, ("W107", "E107"))
               if d.fix and all(f[0].file == name for f in d.fix)]
    for d in fixable:
        for f in d.fix:
            edits[(f[0].line, f[0].col, f[1], f[2])] = f
    after, failed = _edited(text, list(edits.values()))
    return [d for d in fixable if not any(f in failed for f in d.fix)], after


def _left(said: list[Diagnostic], text: str, name: str) -> list[Diagnostic]:
    """What the file (`said` of `text`) still holds that no edit rewrites: old forms without one (or
    whose edit does not fit the text), and what the loader says must be done by hand."""
    done, _after = _rewritten(said, text, name)
    return [d for d in _mine(said, name, ("W107", "E107", "W141", "E149")) if d not in done]


def _once(items: list[Diagnostic]) -> list[Diagnostic]:
    """Each said once, in the order they are written in the file."""
    seen, out = set(), []
    for d in sorted(items, key=lambda d: (d.loc.line, d.loc.col) if d.loc is not None else (0, 0)):
        key = (d.code, d.loc, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def _read(path: Path, report: Report) -> list[Diagnostic]:
    """The file read as `validate` reads it: its game loaded with it and checked (a scenario's
    rules checked with its game); what was said of it, errors and warnings."""

    said = Report()
    data = read_file(path, said)
    if data is None:
        return said.items
    kind = kind_of(data) if isinstance(data, dict) else None
    if kind is None:  # not a designer's file: nothing to upgrade, and no `language:` to add
        report.add("E006", "cannot tell what kind of file this is", getattr(data, "loc", Loc(str(path))),
                   "`upgrade` rewrites a file that starts with one of `game:`, `variant:`, `module:`, "
                   "`cards:`, `track:`, `scenario:`, `season:`")
    elif kind in ("game", "variant", "module"):
        folder = path.resolve().parent if kind == "game" else path.resolve().parent.parent
        if not (folder / "game.yaml").is_file():  # its rules cannot be checked: old forms would hide
            report.add("E001", f"a {kind} is upgraded in its ruleset, with its game: there is no game.yaml "
                               f"{'beside it' if kind == 'game' else 'two folders up'}", Loc(str(path)),
                       f"put it in a ruleset's {kind}s/ folder, then upgrade it there")
        else:
            rs = load_ruleset(path.parent if kind == "game" else path.parent.parent, report=said,
                              variants=[path.stem] if kind == "variant" else [],
                              modules=[path.stem] if kind == "module" else [])
            if rs is not None:
                check(rs, said)
    elif kind == "scenario":

        _scenario, outcome = load_scenario(path)
        said.extend(outcome.report)
    return said.items


def _edited(text: str, edits: list[tuple[Loc, str, str]]) -> tuple[str, list]:
    """`text` with each edit (where, the text there, the new text) made, last first so that the
    places of the others hold; an edit whose text is not there is not made (returned)."""
    lines = text.split("\n")
    failed = []
    for edit in sorted(edits, key=lambda e: (e[0].line, e[0].col), reverse=True):
        loc, old, new = edit
        if not 0 < loc.line <= len(lines):
            failed.append(edit)
            continue
        line = lines[loc.line - 1]
        at = loc.col - 1
        if at > len(line) or line[at:at + len(old)] != old:
            failed.append(edit)
            continue
        end = at + len(old)
        inner = _WORDS.fullmatch(new)
        if inner and line[at - 1:at] == "{" and line[end:end + 1] == "}":
            # words in a template's `{...}` (`{c.label}` now `"{c}"`): `{c}`, not `{"{c}"}`
            at, end, new = at - 1, end + 1, "{" + inner[1] + "}"
        elif '"' in new and line[:at].count('"') % 2:
            # a quoted text inside quotes (a template, a YAML string) would end them: by hand
            failed.append(edit)
            continue
        lines[loc.line - 1] = line[:at] + new + line[end:]
    return "\n".join(lines), failed


def _language_line(text: str) -> str:
    """The text with its top-level `language:` the current version (a line of its own added before
    the first line that is not a comment, when it has none)."""
    line = f"language: {versions.CURRENT}"
    if _LANGUAGE_LINE.search(text):
        return _LANGUAGE_LINE.sub(lambda m: line + m["tail"], text, count=1)
    rows = text.split("\n")
    at = 0
    while at < len(rows) and (not rows[at].strip() or rows[at].lstrip().startswith("#")):
        at += 1
    # after the comments at the top of the file (a schema line, the file's notes), and their blank line
    rows.insert(at, line)
    return "\n".join(rows)


__all__ = ["Upgrade", "upgrade"]
