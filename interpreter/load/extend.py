"""Patches that change rules inside their text, applied to the parsed rules (never to text).

A module extends a base rule without copying it:

- `extend: procedures.NAME` (or `steps.ID`, `triggers.ID`, `phases.ID`, `setup`,
  `statements.NAME`) with `before:` or `after:` statements, run before or after the rule's own;
  or `around:` statements, where each `proceed` runs the rule's own;
- `extend: functions.NAME` (or a value a rule computes: `phases.ID.until`, `phases.ID.order`,
  `steps.ID.if`, `triggers.ID.if`, `choices.NAME.OPTION.if`, `result.rank`, `result.tie`,
  `evaluate`, `progress`, `show.NAME`, `record.NAME`, `metrics.NAME`) with `around:` an
  expression where `base` is the own value (`base + 1`; an option without a condition has `true`);
- `add: choices.NAME` with `option:` the text of one option (`before:`/`after:` another
  option's name to place it), `replace: choices.NAME.OPTION` with `option:`, and
  `remove: choices.NAME.OPTION`, for a `choose ... as NAME:` of the base;
- `replace: statements.NAME` with `do:` statements, and `remove: statements.NAME`, for a
  statement written `... as NAME` in the base.

Extensions apply after every patch of data (so they see the rules those patches wrote), in the
order of the patch files (modules, then variants) and of their patches: a second `around:`
wraps the first.
"""
from __future__ import annotations

import copy
from typing import Any

from ..lang import nodes as n
from ..lang.diagnostics import Report, did_you_mean
from ..lang.limits import MAX_EXPANDED
from ..lang.parser import MAX_RULE_DEPTH, parse_block, parse_expr, parse_option
from .rules import Rules
from .yamlsrc import loc_of



def apply_rule_patches(rules: Rules, patches: list[tuple], report: Report) -> None:
    """Apply the patches (from `patches.prepare`) that change rule text: at most MAX_RULE_PATCHES of
    them (each finds its target by walking the game's statements)."""
    if len(patches) > MAX_RULE_PATCHES:
        patch, op, _address = patches[MAX_RULE_PATCHES]
        report.add("E053", f"the game's modules and variants change its rules with {len(patches):,} patches "
                   f"(`extend`, named choices and statements): at most {MAX_RULE_PATCHES:,}",
                   loc_of(patch[op]), "change a procedure once rather than each of its statements")
        return
    try:
        for patch, op, address in patches:
            target = patch[op]
            if op == "extend":
                _extend(rules, patch, address.steps, target, report)
            elif address.head == "choices":
                _choices(rules, patch, op, address.steps, target, report)
            elif address.head == "statements":
                _statements(rules, patch, op, address.steps, target, report)
    except _TooLarge:  # said; the extensions after it would only grow the rule more
        return


class _TooLarge(Exception):
    """An extension made a rule too large (reported)."""


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


def _block_of(rules: Rules, steps: list, target, report: Report):
    """The list of statements of a procedure, step, trigger, phase or the setup (to change in
    place)."""
    head, rest = steps[0], steps[1:]
    if head == "setup" and not rest and rules.setup is not None:
        return rules.setup.body
    if head not in ("procedures", "steps", "triggers", "phases") or len(rest) != 1:
        report.add("E050", f"`extend: {target}`: this cannot be extended", loc_of(target), _BLOCK_HINT)
        return None
    name = rest[0]
    if head == "procedures" and name in rules.procedures:
        return rules.procedures[name].body.body
    by_head: dict[str, list[Any]] = {"steps": [st for ph in rules.phases for st in ph.steps],
                                     "triggers": list(rules.triggers), "phases": list(rules.phases),
                                     "procedures": []}
    owners = by_head[head]
    for owner in owners:
        block = owner.do if head == "phases" else owner.body
        if owner.id == name and block is not None:
            return block.body
    have = list(rules.procedures) if head == "procedures" else [o.id for o in owners]
    report.add("E050", f"`{target}` names no {head[:-1]} with statements", loc_of(target),
               did_you_mean(name, have))
    return None


# ---- extend ---------------------------------------------------------------------------------------

# rule patches of a game (its modules and variants together)
MAX_RULE_PATCHES = 500


def _measure(nodes) -> tuple[int, int]:
    """(how many nodes, how deep) the trees hold (no recursion: they may be deep)."""
    count = depth = 0
    stack = [(x, 1) for x in nodes]
    while stack:
        node, d = stack.pop()
        count += 1
        depth = max(depth, d)
        stack.extend((c, d + 1) for c in node.children())
    return count, depth


def _check_growth(new: list, copies: int, own: list, text, report: Report) -> None:
    """An extension that would make the rule larger than MAX_EXPANDED parts or nest it deeper than
    MAX_RULE_DEPTH is reported (E053) and stops the extensions (`_TooLarge`): `copies` copies of
    `own` go inside `new` (each `proceed` or `base`). Each extension of the same rule copies all
    the ones before it: 40 `around:`s with two `proceed`s each would be 2**40 statements."""
    size, depth = _measure(new)
    own_size, own_depth = _measure(own)
    total = size + copies * own_size
    if total > MAX_EXPANDED or depth + own_depth > MAX_RULE_DEPTH:
        what = f"{total:,} parts" if total > MAX_EXPANDED else f"parts nested {depth + own_depth} deep"
        report.add("E053", f"with this extension the rule would have {what} (each `proceed` or `base` "
                   f"is a copy of the rule as it was): at most {MAX_EXPANDED:,} parts, {MAX_RULE_DEPTH} deep",
                   loc_of(text), "extend the rule fewer times, or call a procedure or function from it")
        raise _TooLarge


_BLOCK_HINT = ("`extend: procedures.NAME`, `steps.ID`, `triggers.ID`, `phases.ID`, `setup` or "
               "`statements.NAME` (statements); `functions.NAME`, `phases.ID.until`, `steps.ID.if`, "
               "`result.rank` ... (a value, `around:` only)")


def _expression(rules: Rules, steps: list):
    """(the value's owner, its attribute or key) for an address of a value a rule computes, or
    None: `functions.NAME`, `phases.ID.until|order`, `steps.ID.if`, `triggers.ID.if`,
    `choices.NAME.OPTION.if`, `result.rank|tie`, `evaluate`, `show.NAME`, `record.NAME`."""
    head, rest = steps[0], steps[1:]
    if head == "functions" and len(rest) == 1:
        fd = rules.functions.get(rest[0])
        return (fd, "body") if fd is not None else None
    if head in ("phases", "steps", "triggers") and len(rest) == 2:
        attr = {"until": "until", "order": "order", "if": "cond"}.get(rest[1])
        if head == "phases":
            owners: list = rules.phases
        elif head == "steps":
            owners = [st for ph in rules.phases for st in ph.steps]
        else:
            owners = rules.triggers
        for owner in owners:
            if owner.id == rest[0] and attr is not None and hasattr(owner, attr):
                if attr == "cond" and owner.cond is None:  # no condition: it always runs
                    owner.cond = n.Bool(owner.loc, True)
                if getattr(owner, attr) is not None:
                    return owner, attr
        return None
    if head == "result" and rest in (["rank"], ["tie"]) and getattr(rules, rest[0]) is not None:
        return rules, rest[0]
    if head in ("evaluate", "progress") and not rest and getattr(rules, head) is not None:
        return rules, head
    if head == "choices" and len(rest) == 3 and rest[2] == "if":
        found = _named(rules, n.Choose, rest[0])
        options = [o for stmts, i in found for o in stmts[i].options if o.name_tag == rest[1]]
        if len(found) == 1 and len(options) == 1:
            if options[0].cond is None:  # no condition: it is always offered
                options[0].cond = n.Bool(options[0].loc, True)
            return options[0], "cond"
        return None
    if head in ("show", "record", "metrics") and len(rest) == 1:
        table = {"show": rules.show, "record": rules.records, "metrics": rules.metrics}[head]
        return (table, rest[0]) if rest[0] in table else None
    return None


def _is_value_address(steps: list) -> bool:
    return steps[0] in ("functions", "result", "evaluate", "progress", "show", "record", "metrics",
                        "choices") or len(steps) == 3


def _extend(rules: Rules, patch, steps: list, target, report: Report) -> None:
    if not all(isinstance(x, str) for x in steps):
        report.add("E050", f"`extend: {target}`: rules are extended by name", loc_of(target), _BLOCK_HINT)
        return
    given = [k for k in ("before", "after", "around") if patch.get(k) is not None]
    if len(given) != 1:
        report.add("E052", f"`extend: {target}` takes one of `before:`, `after:` or `around:`",
                   loc_of(target))
        return
    how = given[0]
    if _is_value_address(steps):
        _extend_value(rules, patch, steps, how, target, report)
        return
    text = patch[how]
    if steps[0] == "statements" and len(steps) == 2:
        found = _one(rules, n.Stmt, steps[1], "statement", target, report)
        if found is None:
            return
        block = parse_block(text, report)
        if block is None:
            return
        stmts, i = found
        stmts[i:i + 1] = _combined([stmts[i]], block.body, how, text, report)
        return
    body = _block_of(rules, steps, target, report)
    if body is None:
        return
    block = parse_block(text, report)
    if block is not None:
        body[:] = _combined(list(body), block.body, how, text, report)


def _extend_value(rules: Rules, patch, steps: list, how: str, target, report: Report) -> None:
    found = _expression(rules, steps)
    if found is None:
        what = "function" if steps[0] == "functions" else "value"
        have = list(rules.functions) if steps[0] == "functions" else []
        report.add("E050", f"`{target}` names no {what} of the game", loc_of(target),
                   did_you_mean(steps[-1], have) or _BLOCK_HINT)
        return
    if how != "around":
        report.add("E052", f"`{target}` is a value: extend it with `around:` an expression where `base` "
                           "is its own value", loc_of(target), 'around: "base + 1"')
        return
    expr = parse_expr(patch["around"], report)
    if expr is None:
        return
    owner, key = found
    bases = sum(1 for x in n.walk(expr) if isinstance(x, n.Name) and x.id == "base")
    own = owner[key] if isinstance(owner, dict) else getattr(owner, key)
    _check_growth([expr], bases, [own], patch["around"], report)
    if isinstance(owner, dict):
        owner[key] = _substitute_base(expr, owner[key])
    else:
        setattr(owner, key, _substitute_base(expr, getattr(owner, key)))


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
    _check_growth(new, len(proceeds), own, text, report)
    _replace_proceed(new, own, copy_it=len(proceeds) > 1)
    return new


def _replace_proceed(stmts: list[n.Stmt], own: list[n.Stmt], copy_it: bool = True) -> None:
    """Each `proceed` replaced by the rule's own statements (a copy each, when there are several)."""
    for inner in _statement_lists(stmts):
        i = 0
        while i < len(inner):
            if isinstance(inner[i], n.Proceed):
                inner[i:i + 1] = copy.deepcopy(own) if copy_it else own
                i += len(own)
            else:
                i += 1


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
