"""Racecraft: check. The passes after loading, in order, each given what the one before found:

1. `checker.py`, the typing pass: names, types and arities of every rule (in `statements.py` and
   `expressions.py`, old forms read as new in `oldforms.py`, problems said by `blame.Problems`),
   on the declarations of `symbols.py`; it gives `Checked` (`checked.py`) and the calls it found;
2. `calls.py`, the call graph: no cycle, no chain too deep, and what may wait for a decision;
3. `lint.py`, the numbers that plausibly mean a param (W109);
4. `secret.py`, what the seats' blocks of each `simultaneously` touch (a game that checks);
5. `blame_patches` (`load/patches.py`): a problem a patch caused is said at the patch.

A scenario's rules are checked later, against the checked game (`scenarios.py`).
"""
from __future__ import annotations

from ..base.collect import fewer_collections
from ..base.diagnostics import Report
from ..load.ruleset import Ruleset
from ..load.patches import blame_patches
from .calls import check_calls
from .checked import Checked
from .checker import Checker
from .lint import lint_hidden_facts, lint_numbers
from .scenarios import Scenarios
from .secret import analyse


@fewer_collections()
def check(rs: Ruleset, report: Report) -> Checked | None:
    """Check a loaded ruleset: its typed rules and what the whole program looks like; None when
    anything is wrong. The ruleset is left as it was (checking it again gives the same)."""
    errors, start = report.errors, len(report.items)
    typer = Checker(rs, report)
    checked = typer.run()
    checked.waits = check_calls(typer.graph, checked.rules, checked.handlers, report)
    lint_numbers(rs, checked.symbols, checked.rules, report)
    lint_hidden_facts(rs, checked.rules, report)
    checked.checker = Scenarios(typer.st, typer.problems, checked)
    if report.errors == errors:   # (the analysis reads typed trees: only those of a game that checks)
        checked.secrets = analyse(checked, rs, report)
    blame_patches(report, start, rs.changed)
    return None if report.errors > errors else checked
