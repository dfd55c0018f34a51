"""`racecraft explain`: what the engine understood of a ruleset's rules.

Each rule is printed from its syntax tree (one canonical spelling, with the types the checker
found), or, with `--python`, as the Python the compiler generated for it, headed by the rule's
position. Generated code carries the rule's positions, so a traceback in a debugger shows the
rule's own lines.
"""
from __future__ import annotations

from ..check.checked import Callee
from ..compile import make_compiler
from ..ir.sites import SITES, Form
from ..lang import nodes as n
from ..lang import unparse
from ..base.diagnostics import Report, RulesetError


def _rules(checked) -> list[tuple[str, str, object, str]]:
    """(rule id, heading, position, text) of every rule of a checked game whose site is
    explained, in the order of the site table (`ir/sites.py`)."""
    r = checked.rules
    sym = checked.symbols
    phase_of = {st.id: ph for ph in r.phases for st in ph.steps}
    out = []
    for site in SITES:
        if not site.explain:
            continue
        for rule in r.of(site):
            tree = rule.tree
            params = {**sym.functions, **sym.procedures}.get(rule.name, {})
            phase = phase_of.get(rule.name) if rule.id.startswith("steps.") else None
            trigger = next((t for t in r.triggers if t.id == rule.name), None)
            names = site.match(rule.id) or ()
            heading = site.heading.format(
                name=rule.name, params=", ".join(f"{k}: {t}" for k, t in params.items()),
                type=(checked.function_types.get(rule.name, "any") if site.form is Form.FUNCTION
                      else getattr(tree, "typ", "")),
                waits=" (may wait for a decision)" if Callee.procedure(rule.name) in checked.waits else "",
                phase=phase.id if phase else "", on=trigger.on if trigger else "",
                turn=next((ph.turn for ph in r.phases if ph.id == rule.name), ""),
                kind=names[0] if len(names) > 1 else "")
            text = unparse.block(tree.body, 1) if site.form.block else "    " + unparse.expr(tree) + "\n"
            out.append((rule.id, heading, tree.loc, text + _secrets(checked, tree)))
    return out


def _secrets(checked, tree) -> str:
    """A line for each `simultaneously` of a rule: whether each seat's block is taken into the
    table from the seat's copy at the reveal (played once), or played again there, and why."""
    out = []
    for node in n.walk(tree):
        if isinstance(node, n.Simultaneously):
            found = checked.secrets.get(id(node))
            if found is None:
                continue
            why = found.why + (f" (at {found.loc})" if not found.once and found.loc is not None else "")
            out.append(f"    # the `simultaneously` at {node.loc}: {why}\n")
    return "".join(out)


def _matches(rule: str, name: str | None) -> bool:
    return name is None or rule == name or rule.split(".")[-1] == name or rule.split(".")[0] == name


def explain(loaded, players: int, name: str | None, python: bool) -> str:
    report = Report()
    comp = make_compiler(loaded.ruleset, players, report, python=python)  # errors are diagnostics
    if comp is None:
        raise RulesetError(report)
    plan = comp.plan
    rules = [r for r in _rules(comp.ck) if _matches(r[0], name)]
    if not rules:
        report = Report()
        report.add("E110", f"no rule named `{name}` in {plan.name}", None,
                   "give a rule id (`functions.value_of`, `steps.play`, `setup`) or a name (`value_of`)")
        raise RulesetError(report)
    out = []
    if not python:
        for rule, heading, loc, text in rules:
            out.append(f"# {rule} ({loc})\n{heading}:\n{text}")
        return "\n".join(out)
    wanted = {r[0] for r in rules}
    for g in comp.cg.generated:
        if g.rule in wanted:
            out.append(f"# {g.rule}, from {g.loc}\n{g.python}\n")
    return "\n".join(out)
