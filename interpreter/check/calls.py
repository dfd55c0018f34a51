"""Racecraft: check, the call graph. Stage: after the typing pass (`checker.py`), which notes each
call it resolves, in the rule it is in (`CallGraph`). Reads those calls, the triggers of each
event and the typed rules; its one output is what may wait for a decision (`waits`: procedures,
triggers and events, a fixed point), which the compiler turns into machine code.

On the way it refuses what could never end: functions, procedures and triggers (through `emit`)
that reach themselves (E141, each cycle once), and chains of calls nested deeper than the
engine's stack allows (E148, looked for only when there is no cycle).
"""
from __future__ import annotations

from ..lang import nodes as n
from ..base.diagnostics import Loc, Report
from ..base.limits import MAX_CALL_DEPTH, MAX_CALL_NESTING
from ..load.rules import Rules
from ..ir.sites import PROCEDURE, TRIGGER
from .checked import Callee, CallKind, Ref, RefKind

Edges = dict[Callee, list[tuple[Callee, Loc | None]]]


class CallGraph:
    """The calls the typing pass finds, by the rule they are in (a function, a procedure, a
    trigger): each the callee and where it is called. A call of a rule checked outside a rule of the
    game (a test's, a scenario's) is not noted: it is in no rule (`current` is None)."""

    def __init__(self) -> None:
        self.edges: Edges = {}
        self.current: Callee | None = None

    def enter(self, key: Callee | None) -> None:
        """The calls noted from now on are the rule `key`'s."""
        self.current = key

    def note(self, key: Callee, loc: Loc | None) -> None:
        if self.current is not None:
            self.edges.setdefault(self.current, []).append((key, loc))


def check_calls(graph: CallGraph, rules: Rules, handlers: dict[str, list], report: Report) -> set[Callee]:
    """The cycles and the depth of the game's calls said in `report`; what may wait for a decision."""
    _cycles(graph.edges, rules, handlers, report)
    return _waits(rules, handlers)


def _cycles(calls: Edges, rules: Rules, handlers: dict[str, list], report: Report) -> None:
    """Functions, procedures and triggers must not reach themselves: report each cycle once."""
    graph: Edges = {}
    for key, edges in calls.items():
        for callee, loc in edges:
            if callee.kind is CallKind.EVENT:
                for tr in handlers.get(callee.name, []):
                    graph.setdefault(key, []).append((Callee.trigger(tr.id), loc))
            else:
                graph.setdefault(key, []).append((callee, loc))
    colour: dict[Callee, int] = {}
    reported: set[frozenset] = set()
    for start in sorted(graph):
        if start in colour:
            continue
        path: list[Callee] = []
        stack = [(start, iter(graph.get(start, [])))]
        colour[start] = 1
        path.append(start)
        while stack:
            cur, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                path.pop()
                colour[cur] = 2
                continue
            callee, loc = nxt
            if colour.get(callee) == 1:
                cycle = path[path.index(callee):] + [callee]
                if frozenset(cycle) not in reported:
                    reported.add(frozenset(cycle))
                    shown = " → ".join(f"`{_short(k)}`" for k in cycle)
                    report.add("E141", f"rules call each other in a cycle: {shown}", loc,
                               "a rule that reaches itself may never end: compute the value with a "
                               "loop (`for`, `while`) instead")
            elif callee not in colour:
                colour[callee] = 1
                path.append(callee)
                stack.append((callee, iter(graph.get(callee, []))))
    if not reported:
        _call_depth(graph, rules, report)


def _call_depth(graph: Edges, rules: Rules, report: Report) -> None:
    """Calls nested too deeply are refused at the call past the limit: more than MAX_CALL_DEPTH
    rules (functions, procedures, triggers through `emit`) each calling the next, or more than
    MAX_CALL_NESTING levels of blocks and expressions inside them along the way (each rule
    counted by its deepest part). The engine compiles and runs a call inside a call with
    Python's own bounded stack. The graph has no cycle here; the longest chain from each rule
    is found without recursion."""
    weight = _nesting(rules)
    # rule -> (rules in its longest chain, the next in it, where it is called, levels of the chain)
    longest: dict[Callee, tuple[int, Callee | None, Loc | None, int]] = {}
    for root in sorted(graph):
        stack = [root]
        while stack:
            key = stack[-1]
            if key in longest:
                stack.pop()
                continue
            todo = [c for c, _loc in graph.get(key, []) if c not in longest]
            if todo:
                stack.extend(todo)
                continue
            stack.pop()
            best: tuple[int, Callee | None, Loc | None, int] = (1, None, None, weight.get(key, 1))
            for callee, loc in graph.get(key, []):
                calls, _n, _w, levels = longest[callee]
                if (calls + 1, levels + weight.get(key, 1)) > (best[0], best[3]):
                    best = (calls + 1, callee, loc, levels + weight.get(key, 1))
            longest[key] = best
    for rank, top, what in ((0, MAX_CALL_DEPTH, "rules"), (3, MAX_CALL_NESTING, "levels")):
        size: dict[Callee, int] = {k: v[rank] for k, v in longest.items()}  # type: ignore[misc]
        deepest = max(size, key=lambda k: (size[k], k), default=None)  # noqa: B023
        if deepest is not None and size[deepest] > top:
            _too_deep(longest, deepest, rank, top, what, weight, report)
            return


def _too_deep(longest: dict, key: Callee, rank: int, top: int, what: str, weight: dict,
              report: Report) -> None:
    """Report a chain of calls past a limit, at the call that passes it."""
    chain, where, total = [key], None, longest[key][rank]
    count = 1 if rank == 0 else weight.get(key, 1)
    while longest[key][1] is not None:
        step = 1 if rank == 0 else weight.get(longest[key][1], 1)
        if where is None and count + step > top:
            where = longest[key][2]
        key = longest[key][1]
        count += 1 if rank == 0 else weight.get(key, 1)
        chain.append(key)
    names = [f"`{_short(k)}`" for k in chain]
    shown = " → ".join(names if len(names) <= 6 else [*names[:3], "...", *names[-2:]])
    how = "each called from the one before" if rank == 0 else "the rules and the blocks inside them"
    report.add("E148", f"calls nested too deeply: {shown}, {total:,} {what} inside each other ({how}); "
               f"at most {top}", where,
               "call the rules one after another from one place rather than each from the one before")


def _nesting(rules: Rules) -> dict[Callee, int]:
    """Each procedure's and trigger's levels: 1, and 1 more for each block inside a block of its
    statements (`if`, `for`, `while`, `choose`, ...), without recursion. A function is 1: its
    expression is compiled on its own."""
    def levels(block: n.Block | None) -> int:
        best, stack = 1, [(s, 1) for s in (block.body if block is not None else [])]
        while stack:
            stmt, d = stack.pop()
            best = max(best, d)
            stack.extend((s, d + 1) for inner in n.block_children(stmt) for s in inner)
        return best

    out = {Callee.function(k): 1 for k in rules.functions}
    out.update({Callee.procedure(k): levels(rules.tree(PROCEDURE.rule(k))) for k in rules.procedures})
    out.update({Callee.trigger(t.id): levels(rules.tree(TRIGGER.rule(t.id))) for t in rules.triggers})
    return out


def _waits(rules: Rules, handlers: dict[str, list]) -> set[Callee]:
    """Which procedures, triggers and events may wait for a decision (a fixed point)."""
    bodies: dict[Callee, n.Block | None] = {Callee.procedure(k): rules.tree(PROCEDURE.rule(k))
                                            for k in rules.procedures}
    for tr in rules.triggers:
        bodies[Callee.trigger(tr.id)] = rules.tree(TRIGGER.rule(tr.id))
    waits: set[Callee] = set()
    changed = True
    while changed:
        changed = False
        for key, body in bodies.items():
            if key not in waits and body is not None and may_wait(body.body, waits):
                waits.add(key)
                changed = True
        for ev, trs in handlers.items():
            if Callee.event(ev) not in waits and any(Callee.trigger(t.id) in waits for t in trs):
                waits.add(Callee.event(ev))
                changed = True
    return waits


def may_wait(stmts: list[n.Stmt], waits: set[Callee]) -> bool:
    """Can running these statements stop for a decision (given what is known to wait)?"""
    for stmt in stmts:
        for node in n.walk(stmt):
            if isinstance(node, (n.Choose, n.Simultaneously)):
                return True
            if isinstance(node, n.Call) and isinstance(node.ref, Ref) and node.ref.kind is RefKind.PROCEDURE \
                    and Callee.procedure(node.name) in waits:
                return True
            if isinstance(node, n.Emit) and Callee.event(node.event) in waits:
                return True
            if heard_waits(node, waits):
                return True
    return False


def heard_waits(node: n.Node, waits: set[Callee]) -> bool:
    """Is `node` a call of a board's effect one of whose events runs a trigger that may wait?"""
    return isinstance(node, n.Call) and isinstance(node.ref, Ref) and node.ref.kind is RefKind.BUILTIN \
        and any(Callee.event(ev) in waits for ev in node.ref.extra.events)


def _short(key: Callee) -> str:
    return key.name
