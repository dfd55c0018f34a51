"""`racecraft explain`: what the engine understood of a ruleset's rules.

Each rule is printed from its syntax tree (one canonical spelling, with the types the checker
found), or, with `--python`, as the Python the compiler generated for it, headed by the rule's
position. Generated code carries the rule's positions, so a traceback in a debugger shows the
rule's own lines.
"""
from __future__ import annotations

from ..lang import unparse
from ..lang.diagnostics import Report, RulesetError


def _rules(rs) -> list[tuple[str, str, object, str]]:
    """(rule id, heading, tree or None, text) of every rule of a ruleset."""
    r = rs.rules
    sym = rs.checked.symbols
    types = rs.checked.function_types
    out = []
    for name, fd in r.functions.items():
        params = ", ".join(f"{k}: {t}" for k, t in sym.functions.get(name, {}).items())
        out.append((f"functions.{name}", f"function {name}({params}) -> {types.get(name, 'any')}", fd.loc,
                    "    " + unparse.expr(fd.body) + "\n"))
    for name, pd in r.procedures.items():
        params = ", ".join(f"{k}: {t}" for k, t in sym.procedures.get(name, {}).items())
        waits = " (may wait for a decision)" if f"proc:{name}" in rs.checked.waits else ""
        out.append((f"procedures.{name}", f"procedure {name}({params}){waits}", pd.loc,
                    unparse.block(pd.body.body, 1)))
    if r.setup is not None:
        out.append(("setup", "setup", r.setup.loc, unparse.block(r.setup.body, 1)))
    for ph in r.phases:
        if ph.do is not None:
            out.append((f"phases.{ph.id}", f"phase {ph.id}", ph.loc, unparse.block(ph.do.body, 1)))
        if ph.order is not None:
            out.append((f"phases.{ph.id}.order", f"phase {ph.id}: order ({ph.order.typ}), turn `{ph.turn}`",
                        ph.order.loc, "    " + unparse.expr(ph.order) + "\n"))
        for st in ph.steps:
            text = f"    if {unparse.expr(st.cond)}:\n" if st.cond is not None else ""
            body = unparse.block(st.body.body, 2 if st.cond is not None else 1) if st.body is not None else ""
            out.append((f"steps.{st.id}", f"step {st.id} (phase {ph.id})", st.loc, text + body))
        if ph.until is not None:
            out.append((f"phases.{ph.id}.until", f"phase {ph.id}: until", ph.until.loc,
                        "    " + unparse.expr(ph.until) + "\n"))
    for tr in r.triggers:
        cond = f" if {unparse.expr(tr.cond)}" if tr.cond is not None else ""
        body = unparse.block(tr.body.body, 1) if tr.body is not None else ""
        out.append((f"triggers.{tr.id}", f"trigger {tr.id}: on {tr.on}{cond}", tr.loc, body))
    for what, expr in (("rank", r.rank), ("tie", r.tie)):
        if expr is not None:
            out.append(("result", f"result: {what}", expr.loc, "    " + unparse.expr(expr) + "\n"))
    for name, expr in r.records.items():
        out.append((f"record.{name}", f"record {name} ({expr.typ})", expr.loc,
                    "    " + unparse.expr(expr) + "\n"))
    for name, expr in r.show.items():
        out.append((f"show.{name}", f"show {name} ({expr.typ})", expr.loc,
                    "    " + unparse.expr(expr) + "\n"))
    if r.evaluate is not None:
        out.append(("evaluate", "evaluate", r.evaluate.loc, "    " + unparse.expr(r.evaluate) + "\n"))
    return out


def _matches(rule: str, name: str | None) -> bool:
    return name is None or rule == name or rule.split(".")[-1] == name or rule.split(".")[0] == name


def explain(loaded, players: int, name: str | None, python: bool) -> str:
    rs = loaded.ruleset
    plan = loaded.plan(players)  # checks and compiles: errors are diagnostics
    rules = [r for r in _rules(rs) if _matches(r[0], name)]
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
    for g in plan.codegen.generated:
        if g.rule in wanted:
            out.append(f"# {g.rule}, from {g.loc}\n{g.python}\n")
    return "\n".join(out)
