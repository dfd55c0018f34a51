"""Racecraft: check. The pass after loading: names, types and calls of every rule (`checker.py`),
then what the seats' blocks of each `simultaneously` touch (`secret.py`)."""
from __future__ import annotations

from ..lang.collect import fewer_collections
from ..lang.diagnostics import Report
from ..load.ruleset import Ruleset
from .blame import blame_patches
from .checker import Checked, Checker
from .secret import analyse


@fewer_collections()
def check(rs: Ruleset, report: Report) -> Checked | None:
    """Check a loaded ruleset: its typed rules and what the whole program looks like; None when
    anything is wrong. The ruleset is left as it was (checking it again gives the same)."""
    errors, start = report.errors, len(report.items)
    checked = Checker(rs, report).run()
    if report.errors == errors:   # (the analysis reads typed trees: only those of a game that checks)
        checked.secrets = analyse(checked, rs, report)
    blame_patches(report, start, rs.changed)
    return None if report.errors > errors else checked
