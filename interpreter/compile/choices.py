"""A `choose` to Python `ast`: the options listed, the decision asked (or taken at once), the
option taken run; for each option, what a bot's look at it plays (`ChooseSpec`, `vm.preview`).
An option whose block is only plain statements (no decision, no step of the flow) is a function
of its own, `fn(st, env)`, which the unit calls when the option is taken and a bot calls alone to
see what the option does: it is written once, and a bot's look at an option costs one call.

This is the lowering of one construct, called by `Statements.s_Choose` (`statements.py`), which
owns the dispatch of every statement. It is written as plain functions given the lowering they
work in (`Lowering`: what a choice asks of it), as `inline.py`'s special forms are: a choice only
asks things of the lowering (an expression, a block, an entry from the driver) and keeps nothing
of its own.

It reads the typed `n.Choose` tree, the analysis (steps, what meets chance, labels that read only
a card) and the unit being written (its waiting points, its kept locals); it gives the statements
of the choice, and the `ChooseSpec` the machine asks with, kept as a constant of the code.
"""
from __future__ import annotations

import ast
from typing import Any, Callable, Protocol

from ..check.checked import Local
from ..engine.plan import Alternative, ChooseSpec, Effects
from ..engine.vm import TAKEN
from ..lang import nodes as n
from ..lang import unparse
from ..base.diagnostics import Loc
from ..base.limits import MAX_LIST, Steps
from ..lang.types import BOOL, CARD, INT, PIECE, SEAT, TEXT, Type, holds_card, iterable_elem
from . import pyast as P
from .chains import exclusive
from .analysis import Analysis, reads_only_card
from .codegen import Codegen
from .lower import Driver
from .context import Fn, local_name, not_pc, pc, resumed, within


class Lowering(Protocol):
    """What a choice asks of the lowering it is written in (`statements.Statements`)."""
    an: Analysis
    cg: Codegen
    driver: Driver   # (an option's label and its block are entries of their own)

    def st(self) -> ast.Name: ...

    def h(self, name: str) -> ast.expr: ...

    def expr(self, e: n.Expr, fx: Fn) -> ast.expr: ...

    def items(self, e: n.Expr, fx: Fn, copy: bool) -> ast.expr: ...

    def var(self, local: Local, fx: Fn, store: bool = False) -> ast.expr: ...

    def steps_charge(self, amount: ast.expr, loc: Loc | None, why: Steps = Steps.LOOPS) -> list[ast.stmt]: ...

    def charge_calls(self, weight: int, loc: Loc | None) -> list[ast.stmt]: ...

    def flow(self, s: n.Stmt, fx: Fn, wl: int) -> bool: ...

    def block(self, stmts: list[n.Stmt], fx: Fn, rule: str, wl: int = 0) -> list[ast.stmt]: ...



def _words_of(label: n.Expr) -> str:
    """How statistics name an option without a name: its label, each `{...}` in it as `…`
    (`shift to … for 1`; what it took is counted on its own row)."""
    if isinstance(label, n.Text):
        return "".join(p if isinstance(p, str) else "…" for p in label.parts)
    return unparse.expr(label)


def _counted_type(source: n.Expr | None) -> Type | None:
    """The type of what an option ranges over, when statistics count the option by its value."""
    t = iterable_elem(source.typ) if source is not None else None
    return t if t in (CARD, PIECE, SEAT, INT, TEXT, BOOL) else None


def _seat_fn(lower: Lowering, s: n.Choose, fx: Fn, rule: str) -> Callable[..., Any]:
    """Who makes the choice: its `by`, else who the block says (the turn's seat or the owner of
    the turn's piece; the seat of a `simultaneously`)."""
    if s.by is not None:
        return lower.driver.value_fn(s.by, rule)
    return lower.driver.value_fn(fx.decider if fx.decider is not None else n.NoneLit(s.loc), rule)


def _effects(lower: Lowering, body: list[n.Stmt], fx: Fn, wl: int) -> tuple[Effects, int]:
    """What a bot's look at an option plays (`vm.preview`), and up to which statement: its
    own statements when they are all plain ones (up to a `break` leaving the loop that
    waits), nothing when there are none, else the game up to the next decision."""
    some = False
    for i, s in enumerate(body):
        if isinstance(s, n.Pass):
            continue
        if lower.flow(s, fx, wl):
            if isinstance(s, n.Break):
                return (Effects.RUN if some else Effects.NONE), i
            return Effects.PLAY, len(body)
        some = True
    return (Effects.RUN if some else Effects.NONE), len(body)


def choose(lower: Lowering, s: n.Choose, fx: Fn, rule: str, wl: int) -> list[ast.stmt]:
    """The statements of `s` in the unit `fx` writes: its waiting point, the options listed and
    the decision asked, then the option taken (entered again when resuming at a point in it)."""
    unit = fx.unit
    assert unit is not None, "a choice in code that never waits"
    k = unit.point(id(s))
    prompt = s.prompt if s.prompt is not None else n.Text(s.loc, ["Choose"])
    spec = ChooseSpec(lower.driver.value_fn(prompt, rule), _seat_fn(lower, s, fx, rule), [], s.loc, rule)
    # the locals it keeps that hold cards (a bot's look, an option's preview: `engine/hidden.py`)
    spec.cards = tuple((x, unit.types[x]) for x in sorted(unit.kept[k]) if holds_card(unit.types.get(x)))
    choice = f"choices.{s.name_tag}" if s.name_tag is not None else rule  # its name in statistics
    # The legal options, listed here: each option's list computed once per decision (a list
    # written alike for two options once, unless computing it draws chance), its `if`
    # tested with the value in a Python variable.
    opts = fx.tmp("opts")
    listing: list[ast.stmt] = [P.assign(P.store(opts), ast.List([], P.LOAD))]
    add = P.attr(P.name(opts), "append")
    lists: list[tuple[n.Expr, str]] = []
    for i, opt in enumerate(s.options):
        if opt.var is not None and opt.source is not None:
            items = next((t for src, t in lists if src is opt.source or
                          (n.same(src, opt.source) and not lower.an.meets_chance(src))), None)
            if items is None:
                items = fx.tmp("items")
                lists.append((opt.source, items))
                listing.append(P.place(P.assign(P.store(items), lower.items(opt.source, fx, copy=False)),
                                       opt.source.loc))
            var = fx.tmp("o_")
            fx.comp[id(opt.ref)] = var
            if opt.inner:
                listing += _option_loops(lower, opt, i, var, items, opts, fx)
            else:
                w = lower.an.weight(opt.cond)  # the `if` is tested for each item: its calls each time
                if w:
                    length = P.call(P.name("len"), P.name(items))
                    each = P.binop(length, ast.Mult(), P.const(w))
                    listing += lower.steps_charge(each, opt.loc, Steps.CALLS)
                cond = lower.expr(opt.cond, fx) if opt.cond is not None else None
                del fx.comp[id(opt.ref)]  # in the option's block, its variable is a local of the rule
                entry = P.expr_stmt(P.call(add, ast.Tuple([P.const(i), P.name(var)], P.LOAD)))
                each_item: list[ast.stmt] = [entry]
                if cond is not None:
                    each_item = [P.place(ast.If(cond, [entry], []), opt.loc)]
                listing.append(P.place(ast.For(P.store(var), P.name(items), each_item, []), opt.loc))
        else:
            entry = P.expr_stmt(P.call(add, ast.Tuple([P.const(i), P.const(None)], P.LOAD)))
            if opt.cond is not None:
                listing.append(P.place(ast.If(lower.expr(opt.cond, fx), [entry], []), opt.loc))
            else:
                listing.append(P.place(entry, opt.loc))
        names = opt.var if not opt.inner else (str(opt.var), *(c.var for c in opt.inner))
        # a label that reads only the option's value (a card's fixed properties) and
        # constants reads the same for the same value: kept once read (`ChooseSpec.label`)
        fixed = not opt.inner and reads_only_card(opt.label, opt.ref if opt.var is not None else None)
        spec.alts.append(Alternative(lower.driver.value_fn(opt.label, rule), names,
                                     key=f"{choice} > {opt.name_tag or _words_of(opt.label)}",
                                     of=None if opt.inner else _counted_type(opt.source),
                                     labels={} if fixed else None))
        if opt.board is not None and opt.place is not None:
            spec.alts[-1].board = lower.driver.value_fn(opt.board, rule)
            spec.alts[-1].place = lower.driver.value_fn(opt.place, rule)
    once = [o.source for o in s.options if o.source is not None]
    once += [o.cond for o in s.options if o.source is None and o.cond is not None]
    listing = lower.charge_calls(lower.an.weight(*once), s.loc) + listing
    # asked (or taken at once: a single option, a commitment revealed), then the option taken
    taken, alt, pick = fx.tmp("taken"), fx.tmp("alt"), fx.tmp("pick")
    spec_c = lower.cg.const(spec, "choice")
    env = P.name("env")
    asks = [P.assign(P.sub_store(P.name("fr"), P.const(1)), P.const(k)), ast.Return(P.const(True))]
    decide = [*listing, unit.save(k),
              P.assign(P.store(pick), P.call(lower.h("decide"), lower.st(), spec_c, P.name(opts), env,
                                             P.name("fr"), P.const(k))),
              P.if_(P.compare(P.name(pick), ast.Lt(), P.const(0)), asks),
              P.assign(P.store(taken), P.call(lower.h("take"), lower.st(), spec_c, P.name(opts), env,
                                              P.name(pick)))]
    resume = [*resumed(), P.assign(P.store(taken), P.sub(env, P.const(TAKEN)))]
    branches: list[tuple[list[ast.stmt], int, int]] = []
    for i, opt in enumerate(s.options):
        alt_i = spec.alts[i]
        alt_i.effects, cut = _effects(lower, opt.body, fx, wl)
        lo = unit.points + 1
        if alt_i.effects is Effects.RUN:  # its own function, which a bot may play alone
            alt_i.run, changed = lower.driver.block_fn(opt.body[:cut], rule)
        if alt_i.run is not None:  # called with the locals kept (and its value), read back after
            env_ = P.name("env")
            body = [P.expr_stmt(P.call(lower.cg.const(alt_i.run, "option"), lower.st(), env_)),
                    *(P.assign(P.store(local_name(x)), P.sub(env_, P.const(x))) for x in changed),
                    *lower.block(opt.body[cut:], fx, rule, wl)]
            for x in changed:
                unit.keep(x, local_name(x))
        else:
            if alt_i.effects is Effects.RUN:
                alt_i.effects = Effects.NONE  # its statements come to nothing
            body = lower.block(opt.body, fx, rule, wl)
        hi = unit.points
        if opt.var is not None:
            value = P.sub(P.name(taken), P.const(1))
            bind: ast.stmt = P.assign(lower.var(opt.ref, fx, store=True), value)
            if opt.inner:  # several `for`s: the option's value is a tuple of theirs
                targets = [lower.var(r, fx, store=True) for r in (opt.ref, *(c.ref for c in opt.inner))]
                bind = P.assign(ast.Tuple(targets, ast.Store()), value)
            body = [P.if_(not_pc(), [bind]) if hi >= lo else bind, *body]
        branches.append((body, lo, hi))
    inner = any(hi >= lo for _b, lo, hi in branches)
    out: list[ast.stmt] = [P.if_(not_pc(), decide, [P.if_(P.compare(pc(), ast.Eq(), P.const(k)), resume)]
                               if inner else resume)]
    which: ast.stmt = P.assign(P.store(alt), P.sub(P.name(taken), P.const(0)))
    out.append(P.if_(not_pc(), [which]) if inner else which)
    enter: list[ast.If] = []
    for i, (body, lo, hi) in enumerate(branches):
        taken_i: ast.expr = P.compare(P.name(alt), ast.Eq(), P.const(i))
        if inner:
            taken_i = P.and_(not_pc(), taken_i)
        if hi >= lo:
            taken_i = P.or_(taken_i, within(lo, hi))
        enter.append(P.place(P.if_(taken_i, body), s.options[i].loc))
    return out + exclusive(enter)  # the option taken, or the one resumed in: one at most


def _option_loops(lower: Lowering, opt: n.Option, i: int, var: str, items: str, opts: str,
                 fx: Fn) -> list[ast.stmt]:
    """The options of `option ... for a in xs for b in ys [if COND]`: a loop inside a loop,
    each option's value the tuple of its variables. Each inner list is computed, and counted
    with what its items cost (one step and the calls of the `if`), each time round the loop
    outside it; the outer list, with the calls that computing the inner lists makes. More than
    `MAX_LIST` options in all is a rule error, checked as the product grows."""
    add = P.attr(P.name(opts), "append")
    names = [var]
    for clause in opt.inner:
        names.append(fx.tmp("o_"))
        fx.comp[id(clause.ref)] = names[-1]
    entry = P.expr_stmt(P.call(add, ast.Tuple([P.const(i), ast.Tuple([P.name(x) for x in names], P.LOAD)],
                                              P.LOAD)))
    body: list[ast.stmt] = [entry]
    if opt.cond is not None:
        body = [P.place(ast.If(lower.expr(opt.cond, fx), [entry], []), opt.loc)]
    w = 1 + lower.an.weight(opt.cond)
    for k in range(len(opt.inner) - 1, -1, -1):
        clause = opt.inner[k]
        t = fx.tmp("items")
        length = P.call(P.name("len"), P.name(t))
        charge = lower.steps_charge(length if w == 1 else P.binop(length, ast.Mult(), P.const(w)),
                                   clause.loc, Steps.CALLS)
        inner = lower.items(clause.source, fx, copy=False)
        body = [P.place(P.assign(P.store(t), inner), clause.source.loc), *charge,
                P.place(ast.For(P.store(names[k + 1]), P.name(t), body, []), clause.loc)]
        if k == len(opt.inner) - 1:  # a product of lists: checked as it grows, by one list at most
            many = P.compare(P.call(P.name("len"), P.name(opts)), ast.Gt(), P.const(MAX_LIST))
            body.append(P.place(ast.If(many, [ast.Raise(P.call(lower.h("options")), None)], []), opt.loc))
        w = 1 + lower.an.weight(clause.source)
    for clause in opt.inner:
        del fx.comp[id(clause.ref)]  # in the option's block, its variables are locals of the rule
    del fx.comp[id(opt.ref)]
    length = P.call(P.name("len"), P.name(items))
    charge = lower.steps_charge(P.binop(length, ast.Mult(), P.const(w)), opt.loc, Steps.CALLS)
    return [*charge, P.place(ast.For(P.store(var), P.name(items), body, []), opt.loc)]


__all__ = ["choose"]
