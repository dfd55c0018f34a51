"""Patches that change rules inside their text, applied to the parsed rules (never to text).

A module extends a base rule without copying it:

- `extend: procedures.NAME` (or `steps.ID`, `triggers.ID`, `statements.NAME`) with `before:`
  or `after:` statements, run before or after the rule's own; or `around:` statements, where
  each `proceed` runs the rule's own;
- `extend: functions.NAME` with `around:` an expression where `base` is the function's own
  value (`base + 1`);
- `add: choices.NAME` with `option:` the text of one option (`before:`/`after:` another
  option's name to place it), `replace: choices.NAME.OPTION` with `option:`, and
  `remove: choices.NAME.OPTION`, for a `choose ... as NAME:` of the base;
- `replace: statements.NAME` with `do:` statements, and `remove: statements.NAME`, for a
  statement written `... as NAME` in the base.

Extensions apply in the order of the patch files (modules, then variants) and of their patches:
a second `around:` wraps the first.
"""
from __future__ import annotations

import copy
from typing import Any

from ..lang import nodes as n
from ..lang.diagnostics import Report, did_you_mean
from ..lang.parser import parse_block, parse_expr, parse_option
from .rules import Rules
from .yamlsrc import loc_of

_EXTENDABLE = ("procedures", "steps", "triggers", "functions", "statements")


def apply_rule_patches(rules: Rules, patches: list[tuple], report: Report) -> None:
    """Apply the patches (from `patches.prepare`) that change rule text."""
    for patch, op, address in patches:
        target = patch[op]
        if op == "extend":
            _extend(rules, patch, address.steps, target, report)
        elif address.head == "choices":
            _choices(rules, patch, op, address.steps, target, report)
        elif address.head == "statements":
            _statements(rules, patch, op, address.steps, target, report)


# ---- finding the parts of the rules ------------------------------------------------------------

def _blocks(rules: Rules):
    """Every block of statements of the game, as (owner id, list of statements)."""
    for name, p in rules.procedures.items():
        yield f"procedures.{name}", p.body.body
    if rules.setup is not None:
        yield "setup", rules.setup.body
    for ph in rules.phases:
        if ph.do is not None:
            yield f"phases.{ph.id}", ph.do.body
        for st in ph.steps:
            if st.body is not None:
                yield f"steps.{st.id}", st.body.body
    for tr in rules.triggers:
        if tr.body is not None:
            yield f"triggers.{tr.id}", tr.body.body


def _statement_lists(stmts: list[n.Stmt]):
    """This list and every list of statements inside it."""
    yield stmts
    for s in stmts:
        for inner in n.block_children(s):
            yield from _statement_lists(inner)


def _named(rules: Rules, kind: type[Any], name: str) -> list[tuple[list, int]]:
    """(the list holding it, its index) of each statement of this kind named `name`."""
    out = []
    for _owner, block in _blocks(rules):
        for stmts in _statement_lists(block):
            for i, s in enumerate(stmts):
                if isinstance(s, kind) and s.name_tag == name:
                    out.append((stmts, i))
    return out


def _names(rules: Rules, kind: type[Any]) -> list[str]:
    return sorted({s.name_tag for _o, block in _blocks(rules) for stmts in _statement_lists(block)
                   for s in stmts if isinstance(s, kind) and s.name_tag})


def _one(rules: Rules, kind: type, name: str, what: str, target, report: Report):
    found = _named(rules, kind, name)
    if len(found) == 1:
        return found[0]
    if not found:
        report.add("E050", f"no {what} is named `{name}`", loc_of(target),
                   did_you_mean(name, _names(rules, kind)) or
                   f"name one in the base rules with `as {name}`")
    else:
        report.add("E051", f"{len(found)} {what}s are named `{name}`: a name must say which", loc_of(target))
    return None


def _block_of(rules: Rules, head: str, name: str, target, report: Report):
    """The list of statements of a procedure, step or trigger (to change in place)."""
    if head == "procedures" and name in rules.procedures:
        return rules.procedures[name].body.body
    if head == "steps":
        for ph in rules.phases:
            for st in ph.steps:
                if st.id == name and st.body is not None:
                    return st.body.body
    if head == "triggers":
        for tr in rules.triggers:
            if tr.id == name and tr.body is not None:
                return tr.body.body
    if head == "procedures":
        have = list(rules.procedures)
    elif head == "steps":
        have = [st.id for ph in rules.phases for st in ph.steps]
    else:
        have = [t.id for t in rules.triggers]
    report.add("E050", f"`{target}` names no {head[:-1]} of the game", loc_of(target),
               did_you_mean(name, have))
    return None


# ---- extend ---------------------------------------------------------------------------------------

def _extend(rules: Rules, patch, steps: list, target, report: Report) -> None:
    if len(steps) != 2 or steps[0] not in _EXTENDABLE or not isinstance(steps[1], str):
        report.add("E050", f"`extend: {target}`: a procedure, step, trigger, function or named statement "
                           "can be extended", loc_of(target),
                   "`extend: procedures.NAME`, `steps.ID`, `triggers.ID`, `functions.NAME` "
                   "or `statements.NAME`")
        return
    head, name = steps
    given = [k for k in ("before", "after", "around") if patch.get(k) is not None]
    if len(given) != 1:
        report.add("E052", f"`extend: {target}` takes one of `before:`, `after:` or `around:`",
                   loc_of(target))
        return
    how = given[0]
    if head == "functions":
        _extend_function(rules, patch, name, how, target, report)
        return
    text = patch[how]
    block = parse_block(text, report)
    if block is None:
        return
    if head == "statements":
        found = _one(rules, n.Stmt, name, "statement", target, report)
        if found is None:
            return
        stmts, i = found
        own = [stmts[i]]
        stmts[i:i + 1] = _combined(own, block.body, how, text, report)
        return
    body = _block_of(rules, head, name, target, report)
    if body is None:
        return
    body[:] = _combined(list(body), block.body, how, text, report)


def _combined(own: list[n.Stmt], new: list[n.Stmt], how: str, text, report: Report) -> list[n.Stmt]:
    if how == "before":
        return new + own
    if how == "after":
        return own + new
    # around: each `proceed` is where the rule's own statements run
    proceeds = [s for stmts in _statement_lists(new) for s in stmts if isinstance(s, n.Proceed)]
    if not proceeds:
        report.add("E052", "an `around:` extension says where the rule runs with `proceed`", loc_of(text),
                   "without it, `replace` the rule instead")
        return own
    _replace_proceed(new, own)
    return new


def _replace_proceed(stmts: list[n.Stmt], own: list[n.Stmt]) -> None:
    for inner in _statement_lists(stmts):
        i = 0
        while i < len(inner):
            if isinstance(inner[i], n.Proceed):
                inner[i:i + 1] = copy.deepcopy(own)
                i += len(own)
            else:
                i += 1


def _extend_function(rules: Rules, patch, name: str, how: str, target, report: Report) -> None:
    fd = rules.functions.get(name)
    if fd is None:
        report.add("E050", f"`{target}` names no function of the game", loc_of(target),
                   did_you_mean(name, list(rules.functions)))
        return
    if how != "around":
        report.add("E052", "a function gives a value: extend it with `around:` an expression where `base` "
                           "is its own value", loc_of(target))
        return
    expr = parse_expr(patch["around"], report)
    if expr is None:
        return
    fd.body = _substitute_base(expr, fd.body)


def _substitute_base(expr: n.Expr, base: n.Expr) -> n.Expr:
    """`expr` with each name `base` replaced by the function's own value (a copy of its body)."""
    if isinstance(expr, n.Name) and expr.id == "base":
        return copy.deepcopy(base)
    for field_name in expr.__dataclass_fields__:
        value = getattr(expr, field_name)
        if isinstance(value, n.Expr):
            setattr(expr, field_name, _substitute_base(value, base))
        elif isinstance(value, list):
            setattr(expr, field_name, [_substitute_base(v, base) if isinstance(v, n.Expr)
                                       else (_sub_clause(v, base) if isinstance(v, n.CompFor) else v)
                                       for v in value])
    return expr


def _sub_clause(clause: n.CompFor, base: n.Expr) -> n.CompFor:
    clause.source = _substitute_base(clause.source, base)
    if clause.cond is not None:
        clause.cond = _substitute_base(clause.cond, base)
    return clause


# ---- options of a named choice --------------------------------------------------------------------

def _choices(rules: Rules, patch, op: str, steps: list, target, report: Report) -> None:
    if len(steps) < 2 or not isinstance(steps[1], str):
        report.add("E050", "a choice is named: `choices.NAME`", loc_of(target))
        return
    found = _one(rules, n.Choose, steps[1], "choice", target, report)
    if found is None:
        return
    stmts, i = found
    choose: n.Choose = stmts[i]  # type: ignore[assignment]
    names = [o.name_tag for o in choose.options]
    if op == "add" and len(steps) == 2:
        option = _option(patch, target, report)
        if option is None:
            return
        if option.name_tag is not None and option.name_tag in names:
            report.add("E045", f"choice `{steps[1]}` has an option named `{option.name_tag}` already",
                       option.loc, "use `replace: choices.NAME.OPTION` to change it")
            return
        anchor = patch.get("after") or patch.get("before")
        if anchor is None:
            choose.options.append(option)
            return
        if str(anchor) not in names:
            report.add("E042", f"choice `{steps[1]}` has no option named `{anchor}`",
                       loc_of(anchor, loc_of(target)),
                       did_you_mean(str(anchor), [x for x in names if x])
                       or "name its options with `as NAME`")
            return
        at = names.index(str(anchor))
        choose.options.insert(at + 1 if patch.get("after") else at, option)
        return
    if op in ("replace", "remove") and len(steps) == 3 and isinstance(steps[2], str):
        if steps[2] not in names:
            report.add("E042", f"choice `{steps[1]}` has no option named `{steps[2]}`", loc_of(target),
                       did_you_mean(steps[2], [x for x in names if x]) or "name its options with `as NAME`")
            return
        at = names.index(steps[2])
        if op == "remove":
            del choose.options[at]
            return
        option = _option(patch, target, report)
        if option is not None:
            choose.options[at] = option
        return
    report.add("E050", f"`{op}: {target}`: options are added to `choices.NAME`, replaced or removed at "
                       "`choices.NAME.OPTION`", loc_of(target))


def _option(patch, target, report: Report) -> n.Option | None:
    text = patch.get("option")
    if text is None:
        report.add("E047", f"`{target}` needs the option, as `option:` rule text", loc_of(target),
                   'option: |\n  option "LABEL" as NAME:\n      ...')
        return None
    return parse_option(text, report)


# ---- named statements -------------------------------------------------------------------------------

def _statements(rules: Rules, patch, op: str, steps: list, target, report: Report) -> None:
    if len(steps) != 2 or op not in ("replace", "remove") or not isinstance(steps[1], str):
        report.add("E050", f"`{op}: {target}`: a named statement is replaced (`do:`), removed or extended",
                   loc_of(target))
        return
    found = _one(rules, n.Stmt, steps[1], "statement", target, report)
    if found is None:
        return
    stmts, i = found
    if op == "remove":
        del stmts[i]
        return
    text = patch.get("do")
    if text is None:
        report.add("E047", f"`replace: {target}` needs the new statements, as `do:`", loc_of(target))
        return
    block = parse_block(text, report)
    if block is not None:
        stmts[i:i + 1] = block.body


__all__ = ["apply_rule_patches"]
