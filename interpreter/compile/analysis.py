"""What the compiler works out about a checked game before it writes any code, in a pass of its
own: which statements may wait for a decision, how many steps a piece of code is charged when it
starts (`weight`), which values are known when compiling (`constant`), which functions are small
enough to be written into their callers (`inlinable`), where a number may have grown past the
limit (`grows`). The result is this object; nothing is written onto the trees.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, TypeGuard

from ..check.calls import heard_waits
from ..check.checked import Callee, Checked, Local, Ref, RefKind
from ..engine.plan import Plan
from ..lang import nodes as n
from ..base.diagnostics import Loc
from ..base.errors import RuleError
from ..base.limits import MAX_INT
from ..lang.types import ANY, BOARD, BOOL, CARD, DIE, HELD, INT, PIECE, PILE, SEAT, TEXT, is_list, is_map
from ..library.api import NOT_CONST, Fixed, Items
from ..ir.sites import FUNCTION
from .flownodes import FLOW, HookCall, Stop

_GROW = {"+", "-", "*"}


class _Static:
    """What a pure built-in sees when computed while compiling: the plan, no table."""

    def __init__(self, plan: Plan):
        self.plan = plan


if TYPE_CHECKING:   # mypy checks that it has all a pure built-in reads (`library.api.Fixed`)
    _STATIC: type[Fixed] = _Static


def _scalar(v: Any) -> bool:
    return v is None or isinstance(v, (bool, int, str))


def _literal(e: n.Expr) -> bool:
    """A number written in the rule (its size is known)."""
    return isinstance(e, n.Num) or (isinstance(e, n.Neg) and isinstance(e.operand, n.Num))


def _anywhere(memo: dict[int, tuple[n.Node, bool]], node: n.Node, here: Callable[[n.Node], bool]) -> bool:
    """Does `here` hold of `node` or of any node under it? Each node's answer is kept in `memo`
    (by identity, with the node, so that no other node takes its identity), so that asking it
    of every statement of a tree walks the tree once. Without recursion: trees may be deep."""
    found = memo.get(id(node))
    if found is not None:
        return found[1]
    stack: list[tuple[n.Node, bool]] = [(node, False)]
    while stack:
        x, below_done = stack.pop()
        if below_done:
            memo[id(x)] = (x, here(x) or any(memo[id(c)][1] for c in x.children()))
        elif id(x) not in memo:
            stack.append((x, True))
            stack.extend((c, False) for c in x.children() if id(c) not in memo)
    return memo[id(node)][1]


def _draws(x: n.Node) -> bool:
    """Is `x` a call of a built-in that draws chance?"""
    return isinstance(x, n.Call) and isinstance(x.ref, Ref) and x.ref.kind is RefKind.BUILTIN \
        and x.ref.extra.chance


# the types of a value that is one thing, not a list or a map (kept, it cannot be changed in place)
PLAIN = (INT, BOOL, TEXT, SEAT, PIECE, CARD, PILE, BOARD, DIE)


def _binds(e: n.Node) -> set[int]:
    """The locals the comprehensions in `e` (itself included) bind, by identity."""
    comps = [x for x in n.walk(e) if isinstance(x, n.Comp)]
    return {id(c.ref) for c in comps} | {id(c.ref) for x in comps for c in x.inner}


def _calls(e: n.Expr) -> bool:
    return any(isinstance(x, (n.Call, n.Comp)) for x in n.walk(e))


def _reads(e: n.Expr) -> set[int]:
    """The locals `e` reads and does not bind itself (a comprehension inside it binds its own)."""
    return {id(x.ref.extra) for x in n.walk(e)
            if isinstance(x, n.Name) and isinstance(x.ref, Ref) and x.ref.kind is RefKind.LOCAL} - _binds(e)


def reads_only_card(e: n.Expr, card: Local | None) -> bool:
    """Does `e` read nothing but the local `card` (a card's fixed properties; None: no local)
    and constants?"""
    for node in n.walk(e):
        if isinstance(node, n.Name):
            ref = node.ref
            if not (isinstance(ref, Ref) and (ref.kind is RefKind.PARAM or
                                              (ref.kind is RefKind.LOCAL and ref.extra is card))):
                return False
        elif isinstance(node, n.Attr):
            if not (isinstance(node.ref, Ref) and node.ref.kind in (RefKind.CARD_PROP, RefKind.CARD_TYPE)):
                return False
        elif not isinstance(node, (n.Num, n.Text, n.Bool, n.NoneLit, n.Compare, n.BinOp, n.IfExpr,
                                   n.And, n.Or, n.Not, n.Neg, n.In, n.ListLit)):
            return False
    return True


@dataclass
class Analysis:
    """What is known of a checked game before any code is written: which rules wait for a
    decision, which functions can be written into their callers, the live locals of each waiting
    point, the constants."""
    ck: Checked
    plan: Plan
    fn_weights: dict[str, int] = field(default_factory=dict)
    # function -> its parameters (locals, in order) when a call can be written into its caller
    inline: dict[str, list[Local] | None] = field(default_factory=dict)
    inline_locs: dict[str, list[Loc]] = field(default_factory=dict)   # ... and its body's positions
    _waits: dict[int, tuple[n.Node, bool]] = field(default_factory=dict)
    _flow: dict[int, tuple[n.Node, bool]] = field(default_factory=dict)
    _consts: dict[int, Any] = field(default_factory=dict)
    # the functions a rule may ask again of the same values (`asked_again`)
    again: set[str] = field(default_factory=set)
    _chance: dict[int, tuple[n.Node, bool]] = field(default_factory=dict)

    # ---- chance ----------------------------------------------------------------------------------

    def meets_chance(self, e: n.Node) -> bool:
        """Can evaluating `e` draw chance (so that the order of its parts matters, and two of it
        are two draws), itself or in a function it calls?"""
        return _anywhere(self._chance, e, self._draws_here)

    def _draws_here(self, x: n.Node) -> bool:
        return _draws(x) or (_fn_call(x) and self.fn_draws(x.ref.name))

    def fn_draws(self, name: str) -> bool:
        """Does function `name` draw chance, itself or in a function it calls? (Functions never
        call themselves.)"""
        return self.meets_chance(self.ck.rules.tree(FUNCTION.rule(name)))

    def invariants(self, e: n.Comp) -> list[n.Expr]:
        """The largest parts of a comprehension's filter and item that read none of its variables
        (nor those of a comprehension inside them that they are not whole of) and call something:
        the same value each time round, worth computing once (`Lowerer.x_Comp`). Only a plain value
        (a list kept would be one list in each place it is put); never one that meets chance (each
        roll is a roll of its own)."""
        bound = _binds(e)
        found: list[n.Expr] = []
        stack: list[n.Node] = [x for x in (e.item, e.cond, *(c.cond for c in e.inner)) if x is not None]
        while stack:
            x = stack.pop()
            if isinstance(x, n.Expr) and x.typ in PLAIN and _calls(x) and not self.meets_chance(x) \
                    and not _reads(x) & bound:
                found.append(x)
            elif isinstance(x, n.Comp):  # not in the list a comprehension inside goes through
                stack.extend(y for y in (x.item, x.cond, *(c.cond for c in x.inner)) if y is not None)
            else:
                stack.extend(x.children())
        return found

    # ---- waiting ---------------------------------------------------------------------------------

    def waits(self, node: n.Node) -> bool:
        """May running this statement stop for a decision (or at a scenario's stop)?"""
        return _anywhere(self._waits, node, self._waits_here)

    def _waits_here(self, x: n.Node) -> bool:
        if isinstance(x, (n.Choose, n.Simultaneously, Stop, HookCall)):
            return True
        waits = self.ck.waits
        if isinstance(x, n.Call) and isinstance(x.ref, Ref) and x.ref.kind is RefKind.PROCEDURE:
            return Callee.procedure(x.name) in waits
        return (isinstance(x, n.Emit) and Callee.event(x.event) in waits) or heard_waits(x, waits)

    @staticmethod
    def escapes(stmt: n.Stmt) -> bool:
        """Does a `break` inside `stmt` leave it (rather than an inner loop of it)?"""
        if isinstance(stmt, n.Break):
            return True
        if isinstance(stmt, (n.For, n.While)):
            return False
        return any(Analysis.escapes(s) for b in n.block_children(stmt) for s in b)

    @staticmethod
    def has_return(stmt: n.Stmt) -> bool:
        return any(isinstance(x, n.Return) for x in n.walk(stmt))

    def liveness(self, stmts: list[n.Stmt], decider: n.Expr | None = None) -> dict[Any, frozenset[str]]:
        """For a resumable function of these statements: the locals live at each waiting point."""
        live = Liveness(self.waits)
        live.block(stmts, set(), None, decider)
        return live.at

    def holds_flow(self, stmt: n.Node) -> bool:
        """Is this one of the flow's own statements, or does it hold one (`flownodes.py`)?"""
        return _anywhere(self._flow, stmt, lambda x: isinstance(x, FLOW))

    # ---- values known when compiling ----------------------------------------------------------------

    def constant(self, e: n.Expr) -> Any:
        """The value of `e` when it is known when compiling (a number, a text, `none`, a truth, a
        pile or board number, a pure built-in of such values: a list of them too), else NOT_CONST."""
        key = id(e)
        if key not in self._consts:
            self._consts[key] = self._constant(e)
        return self._consts[key]

    def _constant(self, e: n.Expr) -> Any:
        p = self.plan
        if isinstance(e, (n.Num, n.Bool)):
            return e.value
        if isinstance(e, n.NoneLit):
            return None
        if isinstance(e, n.Text):
            return e.constant if e.constant is not None else NOT_CONST
        ref = e.ref if isinstance(e.ref, Ref) else None
        if isinstance(e, n.Name) and ref is not None:
            if ref.kind is RefKind.PARAM and _scalar(ref.extra):
                return ref.extra
            if ref.kind is RefKind.PILE:
                return p.pile_base[ref.name]
            if ref.kind is RefKind.BOARD:
                return p.board_names.index(ref.name)
            return NOT_CONST
        if isinstance(e, n.Neg):
            a = self.scalar(e.operand)
            return -a if isinstance(a, int) else NOT_CONST
        joined = isinstance(e, n.BinOp) and e.op == "+" and (e.typ == TEXT or is_list(e.typ))
        if isinstance(e, n.BinOp) and e.op in _GROW and not joined:
            a, b = self.scalar(e.left), self.scalar(e.right)
            if isinstance(a, int) and isinstance(b, int):
                value = a + b if e.op == "+" else a - b if e.op == "-" else a * b
                return value if -MAX_INT <= value <= MAX_INT else NOT_CONST
            return NOT_CONST
        if isinstance(e, n.Call) and ref is not None:
            if ref.kind is RefKind.PILE_OF and ref.extra.per in HELD:
                a = self.scalar(e.args[0])
                return p.pile_base[ref.name] + a if isinstance(a, int) else NOT_CONST
            if ref.kind is RefKind.BUILTIN and ref.extra.pure:
                b = ref.extra
                # an argument that goes through items is a list when played, never a constant
                consts = [NOT_CONST if isinstance(par.type, Items) else self.scalar(a)
                          for par, a in zip(b.params, e.args)]
                if any(c is NOT_CONST for c in consts):
                    return NOT_CONST
                try:
                    value = b.run(_Static(p), *consts)
                except RuleError:
                    return NOT_CONST  # fails when played: left to the game, at its position
                if _scalar(value) or (isinstance(value, list) and all(_scalar(v) for v in value)):
                    return value
        return NOT_CONST

    def scalar(self, e: n.Expr) -> Any:
        """`constant(e)` when it is a number, text, truth or `none` (not a list), else NOT_CONST."""
        v = self.constant(e)
        return v if _scalar(v) else NOT_CONST

    def static_len(self, e: n.Expr) -> int | None:
        """The length of a list known when compiling (a kind of pieces, a param), or None."""
        if isinstance(e, n.Name) and isinstance(e.ref, Ref):
            if e.ref.kind is RefKind.PIECES:
                return len(self.plan.kind_pieces[e.ref.name])
            if e.ref.kind is RefKind.PARAM and isinstance(e.ref.extra, list):
                return len(e.ref.extra)
            if e.ref.kind is RefKind.SEATS:
                return self.plan.n_seats
        if isinstance(e, n.ListLit):
            return len(e.items)
        return None

    def const_len(self, e: n.Expr) -> int | None:
        """The length of a list known when compiling, or None: a kind of pieces, the seats, a
        param, a list written out, a built-in computed when compiling (`slots(grid)`)."""
        length = self.static_len(e)
        if length is not None:
            return length
        value = self.constant(e) if isinstance(e, n.Call) else NOT_CONST
        return len(value) if isinstance(value, list) else None

    # ---- steps: calls counted by the size of the call tree a rule starts ----------------------

    def fn_weight(self, name: str) -> int:
        """How many calls one call of function `name` makes, itself included, outside loops
        (a loop charges its own calls each time round): known when compiling, since functions
        never call themselves."""
        w = self.fn_weights.get(name)
        if w is None:
            w = self.fn_weights[name] = 1 + self.weight(self.ck.rules.tree(FUNCTION.rule(name)))
        return w

    def weight(self, *nodes: n.Node | None) -> int:
        """The steps these nodes take that are known when compiling: the calls of functions
        they make outside their loops, each counted with its own call tree, and each loop over
        a list whose length is known (one step each time round, and its body's). Other loops
        count themselves while playing; procedures and triggers count their own steps."""
        total = 0
        stack = [x for x in nodes if x is not None]
        while stack:
            x = stack.pop()
            if isinstance(x, n.Call) and isinstance(x.ref, Ref) and x.ref.kind is RefKind.FUNCTION:
                total += self.fn_weight(x.ref.name)
            if isinstance(x, (n.Comp, n.For)):
                stack.append(x.source)  # once
                length = self.const_len(x.source) if not (isinstance(x, n.Comp) and x.inner) else None
                if length is not None:  # the loop's steps are known: counted here
                    body = (x.item, x.cond) if isinstance(x, n.Comp) else x.body
                    total += length * (1 + self.weight(*body))
            elif not isinstance(x, n.While):
                stack.extend(x.children())
        return total

    # ---- numbers kept: where they are checked against the limit --------------------------------

    def grows(self, e: n.Expr, chain: bool = False) -> bool:
        """Can arithmetic have made this number (or a number in this list) large, so that it is
        checked where it is kept?

        Where a value is stored (a variable), a loop can apply any arithmetic to it again and
        again: any `+`, `-` or `*` counts. Where it only passes on (an argument, a function's
        value, an item of a list being built: `chain`), it can pass through at most as many
        calls as the game has rules (they never call themselves), so only a product of two
        numbers that are not written in the rule can explode; the rest is checked when stored."""
        if is_map(e.typ):
            return isinstance(e, n.MapLit) and any(self.grows(v, chain) for v in e.values)
        if is_list(e.typ):
            if isinstance(e, n.ListLit):
                return any(self.grows(i, chain) for i in e.items)
            if isinstance(e, n.Comp):
                return self.grows(e.item, chain)
            if isinstance(e, n.BinOp):
                return self.grows(e.left, chain) or self.grows(e.right, chain)
            if isinstance(e, n.IfExpr):
                return self.grows(e.then, chain) or self.grows(e.orelse, chain)
            return False
        if e.typ not in (INT, ANY):
            return False
        if isinstance(e, n.BinOp):
            if chain:
                return e.op == "*" and not (_literal(e.left) or _literal(e.right))
            return e.op in _GROW
        if isinstance(e, n.Neg):
            return not chain
        if isinstance(e, n.IfExpr):
            return self.grows(e.then, chain) or self.grows(e.orelse, chain)
        if isinstance(e, n.Call) and isinstance(e.ref, Ref) and e.ref.kind is RefKind.BUILTIN:
            return e.ref.name == "sum" and not chain
        return False

    # ---- small functions written into their callers ------------------------------------------------

    def _inlinable(self, name: str) -> list[Local] | None:
        """The parameters (locals, in order) of function `name` when a call of it can be written
        into the caller: its body is a few nodes that call no function, read each parameter
        exactly once, and need no check of its value."""
        body = self.ck.rules.tree(FUNCTION.rule(name))
        nodes = list(n.walk(body))
        params = list(self.ck.symbols.functions[name])
        uses: dict[str, list] = {p: [] for p in params}
        for x in nodes:
            if isinstance(x, n.Name) and isinstance(x.ref, Ref) and x.ref.kind is RefKind.LOCAL \
                    and x.ref.extra.name in uses:
                uses[x.ref.extra.name].append(x.ref.extra)
        simple = all(isinstance(x, (n.Name, n.Num, n.Bool, n.NoneLit, n.Attr, n.Index, n.BinOp,
                                    n.Compare, n.Not, n.And, n.Or, n.IfExpr, n.Neg)) for x in nodes)
        # a parameter not read still gets its argument evaluated: not written in then
        if simple and len(nodes) <= 12 and all(len(u) == 1 for u in uses.values()) \
                and not self.grows(body, chain=True):
            self.inline_locs[name] = [x.loc for x in nodes if x.loc is not None]
            return [uses[p][0] for p in params]
        return None

    def inlinable(self, name: str, call: n.Call) -> list[Local] | None:
        """The parameters of `name` when this call of it can be written into the caller (see
        `_inlinable`), which must be in the same file (the code written in keeps the body's
        positions)."""
        if name not in self.inline:
            self.inline[name] = self._inlinable(name)
        found = self.inline[name]
        here, there = self.ck.rules.tree(FUNCTION.rule(name)).loc, call.loc
        if found is not None and (here is None or there is None or here.file != there.file):
            return None
        return found


def analyse(ck: Checked, plan: Plan) -> Analysis:
    """The analysis of a checked game laid out for its plan (functions' weights and which are
    written into their callers, ahead of any code; the rest as the compiler asks)."""
    an = Analysis(ck, plan)
    for rule in ck.rules.of_id("functions.NAME"):
        an.fn_weight(rule.name)
        an.inline[rule.name] = an._inlinable(rule.name)
    an.again = asked_again(ck)
    return an


def asked_again(ck: Checked) -> set[str]:
    """The functions some rule asks twice of the same values while it reads one table: twice in
    one rule with the same names and numbers as arguments (`if rank(x) > 3 then 0 else
    pay[rank(x)]`). (One asked inside a comprehension of values that change each time round is
    asked of other values each time; of values that do not, it is computed once there:
    `invariants`.)"""
    found: set[str] = set()
    for rule in ck.rules.rules.values():
        if rule.tree is None:
            continue
        seen: set[tuple] = set()
        for x in n.walk(rule.tree):
            if _fn_call(x):
                key = (x.ref.name, *map(_same, x.args))
                if None not in key:
                    if key in seen:
                        found.add(x.ref.name)
                    seen.add(key)
    return found


def _fn_call(x: n.Node) -> TypeGuard[n.Call]:
    return isinstance(x, n.Call) and isinstance(x.ref, Ref) and x.ref.kind is RefKind.FUNCTION


def _same(e: n.Expr) -> Any:
    """What an argument reads, when that is a name or a number (None: anything else)."""
    if isinstance(e, n.Name):
        return ("name", e.id)
    if isinstance(e, n.Num):
        return ("num", e.value)
    return None


def _uses(node: n.Node | None) -> set[str]:
    """The names of the rule's locals an expression or statement reads (or sets)."""
    if node is None:
        return set()
    return {x.ref.extra.name for x in n.walk(node)
            if isinstance(x, n.Name) and isinstance(x.ref, Ref) and x.ref.kind is RefKind.LOCAL}


def _uses_all(nodes: Any) -> set[str]:
    return set().union(*(_uses(x) for x in nodes))


def _option_vars(opt: n.Option) -> set[str]:
    """The names an option's `for`s bind."""
    return {x for x in (opt.var, *(c.var for c in opt.inner)) if x is not None}


class Liveness:
    """Which locals of a resumable function may still be read after each of its waiting points
    (`at`, by the waiting statement; a `simultaneously` has a second point, `(id, 2)`): only
    those are kept in the frame while it waits, and read back when it goes on. Worked out
    backwards over the statements, loops until nothing changes; a local's name is what counts
    (rules share a Python local by name)."""

    def __init__(self, waits: Any):
        self.waits = waits
        self.at: dict[Any, frozenset[str]] = {}

    def block(self, stmts: list[n.Stmt], after: set[str], brk: set[str] | None,
              decider: n.Expr | None) -> set[str]:
        live = set(after)
        for s in reversed(stmts):
            live = self.stmt(s, live, brk, decider)
        return live

    def _loop(self, after: set[str], step: Any) -> set[str]:
        """The locals live at the top of a loop: `step(top)` gives what one more time round reads."""
        top = set(after)
        while True:
            new = after | step(top)
            if new == top:
                return top
            top = new

    def stmt(self, s: n.Stmt, after: set[str], brk: set[str] | None, decider: n.Expr | None) -> set[str]:
        from .flownodes import Mark, Records, Rounds, RuleBlock, Stop
        if isinstance(s, RuleBlock):
            return self.block(s.body, after, None, s.decider)
        if isinstance(s, (Mark, Records)):
            return after
        if isinstance(s, (Stop, HookCall)):
            self.at[id(s)] = frozenset(after)
            return after
        if isinstance(s, Rounds):
            until = _uses(s.until)
            return self._loop(after, lambda top: self.block(s.body, until | after | top, after, decider))
        if isinstance(s, n.Break):
            return set(brk or ())
        if isinstance(s, (n.Return, n.End)):
            return _uses(s)
        if isinstance(s, n.If):
            live = set(after) if s.orelse is None else self.block(s.orelse, after, brk, decider)
            for br in s.branches:
                live |= self.block(br.body, after, brk, decider) | _uses(br.cond)
            return live
        if isinstance(s, n.For):
            return self._loop(after, lambda top: self.block(s.body, top, after, decider) - {s.var}) \
                | _uses(s.source)
        if isinstance(s, n.While):
            cond = _uses(s.cond)
            return self._loop(after, lambda top: cond | self.block(s.body, top, after, decider)) | cond
        if isinstance(s, n.Choose):
            asked: set[str] = set()
            for opt in s.options:
                # an option of plain statements is a function of its own, which reads every local
                # its statements name from the frame (`choices.choose`)
                body = self.block(opt.body, after, brk, decider) | _uses(n.Block(opt.loc, opt.body))
                asked |= body - _option_vars(opt)
            # and what the question reads while it waits: its prompt, labels, who answers
            asked |= _uses(s.prompt) | _uses(s.by if s.by is not None else decider)
            for opt in s.options:   # (an option's `at` is read with its label)
                asked |= (_uses(opt.label) | _uses(opt.board) | _uses(opt.place)) - _option_vars(opt)
            self.at[id(s)] = frozenset(asked)
            return asked | set().union(*(_uses(o.source) | _uses(o.cond)
                                         | _uses_all(c.source for c in o.inner) for o in s.options))
        if isinstance(s, n.Simultaneously):
            self.at[(id(s), 2)] = frozenset(after)
            waiting = after | (_uses(n.Block(s.loc, s.body)) - {s.var})  # the blocks start from these
            self.at[id(s)] = frozenset(waiting)
            return waiting | _uses(s.seats)
        if isinstance(s, (n.Let, n.Assign)):
            name = s.name if isinstance(s, n.Let) else (
                s.target.id if isinstance(s.target, n.Name) and s.target.ref is not None
                and s.target.ref.kind is RefKind.LOCAL else None)
            target = set() if isinstance(s, n.Let) else _uses(s.target) - ({name} if name else set())
            live = (after - {name}) | target if name else after | target
            if self.waits(s):
                self.at[id(s)] = frozenset(live)
            return live | _uses(s.value)
        if self.waits(s):  # a call of a procedure or an event that waits
            self.at[id(s)] = frozenset(after)
        return after | _uses(s)
