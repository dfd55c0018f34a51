"""Patches that change rules inside their text, applied to the parsed rules (never to text).

A module extends a base rule without copying it:

- `extend: procedures.NAME` (or `steps.ID`, `triggers.ID`, `phases.ID`, `setup`,
  `statements.NAME`) with `before:` or `after:` statements, run before or after the rule's own;
  or `around:` statements, where each `proceed` runs the rule's own;
- `extend: functions.NAME` (or any other value a rule computes: `phases.ID.until`,
  `steps.ID.if`, `result.rank`, `view.seats.NAME` ...: every site of `ir/sites.py` that says so,
  and `choices.NAME.OPTION.if`) with `around:` an expression where `base` is the own value
  (`base + 1`; a step, trigger or option without a condition has `true`);
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
from typing import Any, Iterator

from ..ir.sites import Extend, Form, site_of
from ..lang import nodes as n
from ..base.diagnostics import Report, did_you_mean
from ..base.limits import MAX_EXPANDED
from ..lang.nesting import MAX_RULE_DEPTH
from ..lang.parser import parse_block, parse_expr, parse_option
from .rules import Rules, blocks
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
    found = _Found(rules)
    try:
        for patch, op, address in patches:
            target = patch[op]
            if op == "extend":
                _extend(found, patch, address.steps, target, report)
            elif address.head == "choices":
                _choices(found, patch, op, address.steps, target, report)
            elif address.head == "statements":
                _statements(found, patch, op, address.steps, target, report)
            if not (op == "add" and address.head == "choices"):  # (an added option is indexed)
                found.changed()
    except _TooLarge:  # said; the extensions after it would only grow the rule more
        return


class _TooLarge(Exception):
    """An extension made a rule too large (reported)."""


# ---- finding the parts of the rules ------------------------------------------------------------

def _statement_lists(stmts: list[n.Stmt]) -> Iterator[list[n.Stmt]]:
    """This list and every list of statements inside it."""
    yield stmts
    for s in stmts:
        for inner in n.block_children(s):
            yield from _statement_lists(inner)


class _Found:
    """The game's named statements (`as NAME`), by name: found in one walk of the rules, kept while
    the patches only add options to choices (each new option's named statements are added to
    them), found again after any other patch (`changed`). Walking the rules for each patch made a
    variant of 500 patches take seconds to load."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self._by_name: dict[str, list[tuple[list, int]]] | None = None

    def _index(self) -> dict[str, list[tuple[list, int]]]:
        if self._by_name is None:
            self._by_name = {}
            for _owner, block in blocks(self.rules):
                self._add(block)
        return self._by_name

    def _add(self, block: list[n.Stmt]) -> None:
        by_name = self._by_name
        assert by_name is not None
        for stmts in _statement_lists(block):
            for i, s in enumerate(stmts):
                if s.name_tag:
                    by_name.setdefault(s.name_tag, []).append((stmts, i))

    def named(self, kind: type[Any], name: str) -> list[tuple[list, int]]:
        """(the list holding it, its index) of each statement of this kind named `name`."""
        return [(stmts, i) for stmts, i in self._index().get(name, ()) if isinstance(stmts[i], kind)]

    def names(self, kind: type[Any]) -> list[str]:
        return sorted(name for name, found in self._index().items()
                      if any(isinstance(stmts[i], kind) for stmts, i in found))

    def added(self, option: n.Option) -> None:
        """An option added to a choice: the statements it names are found too."""
        if self._by_name is not None:
            self._add(option.body)

    def changed(self) -> None:
        self._by_name = None


def _one(found_in: _Found, kind: type, name: str, what: str, target: Any,
         report: Report) -> tuple[list, int] | None:
    found = found_in.named(kind, name)
    if len(found) == 1:
        return found[0]
    if not found:
        report.add("E050", f"no {what} is named `{name}`", loc_of(target),
                   did_you_mean(name, found_in.names(kind)) or
                   f"name one in the base rules with `as {name}`")
    else:
        report.add("E051", f"{len(found)} {what}s are named `{name}`: a name must say which", loc_of(target))
    return None


# ---- extend ---------------------------------------------------------------------------------------

# rule patches of a game (its modules and variants together)
MAX_RULE_PATCHES = 500


def _measure(nodes: list[n.Node]) -> tuple[int, int]:
    """(how many nodes, how deep) the trees hold (no recursion: they may be deep)."""
    count = depth = 0
    stack = [(x, 1) for x in nodes]
    while stack:
        node, d = stack.pop()
        count += 1
        depth = max(depth, d)
        stack.extend((c, d + 1) for c in node.children())
    return count, depth


def _check_growth(new: list, copies: int, own: list, text: Any, report: Report) -> None:
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


_HINT = ("`extend: procedures.NAME`, `steps.ID`, `triggers.ID`, `phases.ID`, `setup` or "
               "`statements.NAME` (statements); `functions.NAME`, `phases.ID.until`, `steps.ID.if`, "
               "`result.rank` ... (a value, `around:` only)")


def _value_in_choice(found_in: _Found, steps: list) -> n.Option | None:
    """(the option, "cond") for `choices.NAME.OPTION.if`, or None."""
    found = found_in.named(n.Choose, steps[1])
    options = [o for stmts, i in found for o in stmts[i].options if o.name_tag == steps[2]]
    if len(found) == 1 and len(options) == 1:
        if options[0].cond is None:  # no condition: it is always offered
            options[0].cond = n.Bool(options[0].loc, True)
        return options[0]
    return None


def _no_option_if(found_in: _Found, steps: list, target: Any, report: Report) -> None:
    """Why `extend: choices.NAME.OPTION.if` finds nothing: no such choice, no option of that name
    (its options may have none), or not the form."""
    if len(steps) == 4 and steps[3] == "if":
        found = found_in.named(n.Choose, steps[1])
        if len(found) == 1:
            names = [o.name_tag for o in found[0][0][found[0][1]].options]
            report.add("E042", f"choice `{steps[1]}` has no option named `{steps[2]}`", loc_of(target),
                       _no_option(steps[2], names))
            return
        if not found:
            report.add("E050", f"no choice is named `{steps[1]}`", loc_of(target),
                       did_you_mean(steps[1], found_in.names(n.Choose)) or
                       f"name one in the base rules with `as {steps[1]}`")
            return
    report.add("E050", f"`{target}` names no value of the game", loc_of(target),
               "an option's condition is `choices.NAME.OPTION.if`; " + _HINT)


def _extend(found_in: _Found, patch: Any, steps: list, target: Any, report: Report) -> None:
    rules = found_in.rules
    if not all(isinstance(x, str) for x in steps):
        report.add("E050", f"`extend: {target}`: rules are extended by name", loc_of(target), _HINT)
        return
    given = [k for k in ("before", "after", "around") if patch.get(k) is not None]
    if len(given) != 1:
        report.add("E052", f"`extend: {target}` takes one of `before:`, `after:` or `around:`",
                   loc_of(target))
        return
    how = given[0]
    text = patch[how]
    if steps[0] == "statements" and len(steps) == 2:
        found = _one(found_in, n.Stmt, steps[1], "statement", target, report)
        if found is None:
            return
        block = parse_block(text, report)
        if block is None:
            return
        stmts, i = found
        stmts[i:i + 1] = _combined([stmts[i]], block.body, how, text, report, inside=True)
        return
    if steps[0] == "choices":
        option = _value_in_choice(found_in, steps) if len(steps) == 4 and steps[3] == "if" else None
        if option is None:
            _no_option_if(found_in, steps, target, report)
        elif _around(patch, how, target, report):
            expr = parse_expr(text, report)
            if expr is not None and option.cond is not None:
                _check_growth([expr], _bases(expr), [option.cond], text, report)
                option.cond = _substitute_base(expr, option.cond)
        return
    address = ".".join(steps)
    at = site_of(address)
    if at is None or at[0].extend is Extend.NO:
        report.add("E050", f"`extend: {target}`: this cannot be extended", loc_of(target), _HINT)
        return
    site, names = at
    own = rules.tree(address)
    if own is None and site.absent_true:  # a test not written: it always holds
        owner = rules.tree(address.rsplit(".", 1)[0])
        own = None if owner is None else n.Bool(owner.loc, True)
    elif own is None and site.default:  # a rule the game leaves to the engine: the engine's
        own = parse_expr(site.default, report)
        for x in n.walk(own) if own is not None else ():  # written by no file: said at the extension
            x.loc = loc_of(target, x.loc)
    if own is None:
        if site.extend is Extend.VALUE:
            what = "function" if site.form is Form.FUNCTION else "value"
            message = f"`{target}` names no {what} of the game"
        elif names:
            message = f"`{target}` names no {steps[0][:-1]} with statements"
        else:
            message = f"the game has no `{target}` to extend"
        near = did_you_mean(names[-1], [r.name for r in rules.of(site)]) if names else None
        report.add("E050", message, loc_of(target), near or _HINT)
        return
    if site.extend is Extend.VALUE:
        if _around(patch, how, target, report):
            expr = parse_expr(text, report)
            if expr is not None:
                _check_growth([expr], _bases(expr), [own], text, report)
                rules.put(address, _substitute_base(expr, own))
        return
    block = parse_block(text, report)
    if block is not None:
        own.body[:] = _combined(list(own.body), block.body, how, text, report, _params(rules, site.id, names))


def _around(patch: Any, how: str, target: Any, report: Report) -> bool:
    """A value is extended `around:` only."""
    if how != "around":
        report.add("E052", f"`{target}` is a value: extend it with `around:` an expression where `base` "
                           "is its own value", loc_of(target), 'around: "base + 1"')
        return False
    return True


def _bases(expr: n.Expr) -> int:
    """How many copies of the own value `base` makes in `expr`."""
    return sum(1 for x in n.walk(expr) if isinstance(x, n.Name) and x.id == "base")


def _params(rules: Rules, site_id: str, names: tuple[str, ...]) -> dict | None:
    """The parameters a rule of statements takes (name -> declared type), which `proceed(...)` may
    give new values: a procedure's, a trigger's (what its event carries); None for a rule that
    takes none (a step runs for its turn, the setup and a phase for the game)."""
    if site_id == "procedures.NAME" and names[0] in rules.procedures:
        return dict(rules.procedures[names[0]].params)
    if site_id == "triggers.ID":
        found = [t for t in rules.triggers if t.id == names[0]]
        return dict(found[0].params) if found else None
    return None


def _combined(own: list[n.Stmt], new: list[n.Stmt], how: str, text: Any, report: Report,
              params: dict | None = None, inside: bool = False) -> list[n.Stmt]:
    """The rule's own statements `own` with an extension's `new` before, after or around them.
    Code after them (an `after:`, and an `around:` past its `proceed`) may read the values the
    rule names with `let visible`; its other locals are its own (the checker says so). An
    extension of one statement (`inside`) is in the rule, and reads what the rule reads there."""
    if how == "before":
        return new + own
    if not inside:
        _hide(own, new)
    if how == "after":
        return own + new
    # around: each `proceed` is where the rule's own statements run
    proceeds = [s for stmts in _statement_lists(new) for s in stmts if isinstance(s, n.Proceed)]
    if not proceeds:
        called = next((x for stmt in new for x in n.walk(stmt)
                       if isinstance(x, n.Call) and x.name == "proceed"), None)
        if called is not None:  # `let x = proceed(...)`: written as if it gave a value
            report.add("E052", "`proceed` runs the rule where it stands and gives no value: it is a "
                               "statement on a line of its own", called.loc or loc_of(text),
                       "write `proceed` (or `proceed(...)`) alone on its line; what the rule computes, "
                       "it shows with `let visible NAME = ...`")
            return own
        first = getattr(new[0], "loc", None) if new else None   # (the text's first statement, where written)
        report.add("E052", "an `around:` extension says where the rule runs with `proceed`",
                   first or loc_of(text), "without it, `replace` the rule instead")
        return own
    for p in proceeds:
        if p.args is not None and not _fits(p, params, report):
            return own
    _check_growth(new, len(proceeds), own, text, report)
    _replace_proceed(new, own, params or {}, copy_it=len(proceeds) > 1)
    return new


def _hide(own: list[n.Stmt], new: list[n.Stmt]) -> None:
    """The locals a rule binds at its top level and does not declare visible are not for the
    extension `new` to read: each such `let` notes where the extension's text is (its file and
    lines), and the checker says a read from there."""
    lines = [x.loc.line for s in new for x in n.walk(s) if x.loc is not None]
    first = next((x.loc for s in new for x in n.walk(s) if x.loc is not None), None)
    if first is None:
        return
    span = (first.file, min(lines), max(lines))
    for s in own:
        if isinstance(s, n.Let) and not s.visible and span not in s.hidden_from:
            s.hidden_from = (*s.hidden_from, span)


def _fits(p: n.Proceed, params: dict | None, report: Report) -> bool:
    """`proceed(...)` gives as many values as the rule takes."""
    args = p.args or []
    if not params:
        report.add("E052", "`proceed(...)` gives the rule new values, and this rule takes none", p.loc,
                   "write `proceed` alone; a procedure or trigger takes values (its `params:`)")
        return False
    if len(args) != len(params):
        names = ", ".join(params)
        report.add("E052", f"`proceed(...)` gives the rule {len(args)} value{'s' if len(args) != 1 else ''}, "
                           f"and it takes {len(params)} ({names})", p.loc, f"proceed({names})")
        return False
    return True


def _replace_proceed(stmts: list[n.Stmt], own: list[n.Stmt], params: dict, copy_it: bool = True) -> None:
    """Each `proceed` replaced by the rule's own statements (a copy each, when there are several);
    `proceed(a, b)` by a copy whose parameters are new locals holding `a` and `b`."""
    for inner in _statement_lists(stmts):
        i = 0
        while i < len(inner):
            p = inner[i]
            if isinstance(p, n.Proceed):
                body = copy.deepcopy(own) if copy_it or p.args is not None else own
                if p.args is not None:
                    body = _with_values(body, p, params, stmts)
                inner[i:i + 1] = body
                i += len(body)
            else:
                i += 1


def _with_values(body: list[n.Stmt], p: n.Proceed, params: dict, around: list[n.Stmt]) -> list[n.Stmt]:
    """The rule's statements (a copy) run with new values of its parameters: each parameter is a
    new local (a name no rule can write: `car'`), set to its value first, with the type declared."""
    taken = {x.id for block in (body, around) for s in block for x in n.walk(s) if isinstance(x, n.Name)}
    renamed: dict[str, str] = {}
    lets: list[n.Stmt] = []
    for (name, typ), value in zip(params.items(), p.args or []):
        fresh = name + "'"
        while fresh in taken:
            fresh += "'"
        renamed[str(name)] = fresh
        lets.append(n.Let(value.loc, fresh, value, declared=typ))
    for s in body:
        _rename(s, renamed)
    return lets + body


def _rename(tree: n.Node, renamed: dict[str, str]) -> None:
    """Every name of `renamed` in a tree, where it is bound and where it is read, given its new name."""
    for x in n.walk(tree):
        if isinstance(x, n.Name) and x.id in renamed:
            x.id = renamed[x.id]
        elif isinstance(x, (n.Let,)) and x.name in renamed:
            x.name = renamed[x.name]
        elif isinstance(x, (n.For, n.Comp, n.CompFor, n.Simultaneously)) and x.var in renamed:
            x.var = renamed[x.var]
        elif isinstance(x, n.Option) and x.var is not None and x.var in renamed:
            x.var = renamed[x.var]


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

def _choices(found_in: _Found, patch: Any, op: str, steps: list, target: Any, report: Report) -> None:
    if len(steps) < 2 or not isinstance(steps[1], str):
        report.add("E050", "a choice is named: `choices.NAME`", loc_of(target))
        return
    found = _one(found_in, n.Choose, steps[1], "choice", target, report)
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
            found_in.added(option)
            return
        if str(anchor) not in names:
            report.add("E042", f"choice `{steps[1]}` has no option named `{anchor}`",
                       loc_of(anchor, loc_of(target)),
                       _no_option(str(anchor), names))
            return
        at = names.index(str(anchor))
        choose.options.insert(at + 1 if patch.get("after") else at, option)
        found_in.added(option)
        return
    if op in ("replace", "remove") and len(steps) == 3 and isinstance(steps[2], str):
        if steps[2] not in names:
            report.add("E042", f"choice `{steps[1]}` has no option named `{steps[2]}`", loc_of(target),
                       _no_option(steps[2], names))
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


def _no_option(name: str, names: list) -> str:
    """The hint for an option name a choice has not: a near one, the names it has, or how to give
    its options names."""
    named = [x for x in names if x]
    if not named:
        return "name its options with `as NAME`"
    return did_you_mean(name, named) or f"its options are named {', '.join(f'`{x}`' for x in named)}"


def _option(patch: Any, target: Any, report: Report) -> n.Option | None:
    text = patch.get("option")
    if text is None:
        report.add("E047", f"`{target}` needs the option, as `option:` rule text", loc_of(target),
                   'option: |\n  option "LABEL" as NAME:\n      ...')
        return None
    return parse_option(text, report)


# ---- named statements -------------------------------------------------------------------------------

def _statements(found_in: _Found, patch: Any, op: str, steps: list, target: Any, report: Report) -> None:
    if len(steps) != 2 or op not in ("replace", "remove") or not isinstance(steps[1], str):
        report.add("E050", f"`{op}: {target}`: a named statement is replaced (`do:`), removed or extended",
                   loc_of(target))
        return
    found = _one(found_in, n.Stmt, steps[1], "statement", target, report)
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
