"""Racecraft: check, the typing pass. Stage: after loading and the declarations
(`symbols.py`), first of the checking passes. Reads a loaded ruleset's rules, site by site
(`ir/sites.py`); its one output is `Checked`: a typed copy of every rule (the loaded trees stay as
they were, so checking again gives the same), with what the game's parts are (functions' and
procedures' types, what each event carries, the triggers of each event).

It resolves every name, attribute and call (`node.ref`), gives every expression its type
(`node.typ`), and reports each problem at its position; after an error it goes on with type
`any`, so one run lists every problem. This module walks the game: its phases, its events and
the triggers waiting for them, its functions and procedures (each after those it calls), then
every other rule in its site's scope; `statements.py` and `expressions.py` check what is inside
a rule, and note each call of a rule in the call graph, which the next pass reads (`calls.py`).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..boards import KINDS
from ..ir.sites import FUNCTION, Form, PROCEDURE, SITES, SiteScope
from ..lang import nodes as n
from ..base.diagnostics import Report
from ..lang.parser import keywords
from ..lang.types import ANY, BOOL, INT, NONE, PIECE, SEAT, Type, compatible, elem, is_list, join
from ..load.rules import Rule, Rules, blocks
from ..load.ruleset import Ruleset
from ..load.yamlsrc import loc_of
from .blame import Problems
from .calls import CallGraph
from .checked import Callee, Checked, Local, Ref, RefKind
from .expressions import Expressions, Scope
from .oldforms import OldForms
from .statements import Statements
from .symbols import BUILTIN_EVENTS, Declarations, valid_name

# How a message names the types a site may want, when it wants one of several.
_WANT_WORDS = {INT: "a number", BOOL: "true/false"}


class Checker:
    """The typing pass over one game: `run` checks every rule of it, each in its site's scope,
    and gives the game `Checked`. Its parts are kept for the passes after it: the call graph
    (`graph`), the statements' and expressions' checks (`st`, `ex`) and where problems are said
    (`problems`), for a scenario's rules (`scenarios.py`)."""

    def __init__(self, rs: Ruleset, report: Report):
        self.rs = rs
        self.problems = problems = Problems(rs, report)
        self.error, self.type_error, self.suggest = problems.error, problems.type_error, problems.suggest
        self.sym = Declarations(rs, report).build()
        problems.clashed = self.sym.clashed
        self.rules: Rules = typed_copy(rs.rules)   # the checker types its own copy of the trees
        self.out = Checked(self.sym, self.rules)
        self.graph = CallGraph()
        old = OldForms(rs, problems)   # (refuses a `renamed:` of no form it knows: E117)
        self.ex = Expressions(self.sym, self.out, problems, self.graph, old)
        self.st = Statements(self.ex, self.rules, self.out, problems, self.graph, old)
        self._trigger_types: dict[str, dict] = {}   # trigger id -> {param: type}

    def run(self) -> Checked:
        r = self.rules
        self._emits()
        for tr in r.triggers:
            self.out.handlers.setdefault(tr.on, []).append(tr)
            if tr.on not in (*BUILTIN_EVENTS, *self.out.emitted, *self.sym.board_events):
                self.error("E131", f"trigger `{tr.id}` waits for event `{tr.on}`, which no rule emits",
                           tr.on_loc, self.suggest(tr.on, [*BUILTIN_EVENTS, *self.out.emitted,
                                                           *self.sym.board_events]) or
                           "use `emit NAME` in a rule, or a built-in event")
        self._events()
        self._phases()
        for site in SITES:  # every rule of the game, site by site (`ir/sites.py`)
            if site.form is Form.FUNCTION:
                self._functions()
            elif site.form is Form.PROCEDURE:
                self._procedures()
            else:
                for rule in r.of(site):
                    self._rule(rule)
        self.graph.enter(None)
        kinds = {k for b in self.rs.game.boards.values() for k in KINDS[b.kind].line_kinds(b)}
        report = self.problems.report
        for kind, loc in r.line_kinds:
            if kind not in kinds:
                report.add("E153", f"`view.lines` tells of lines of kind `{kind}`, which no board has",
                           loc, self.suggest(kind, sorted(kinds)) or "the kinds of line are the `kind:` "
                                                                        "of a board's `lines`")
        for name, loc in r.view_piles:
            if name not in self.sym.piles:
                report.add("E152", f"the view shows pile `{name}`, which the game does not have", loc,
                           self.suggest(name, list(self.sym.piles)))
        return self.out

    def _rule(self, rule: Rule) -> None:
        """Check one rule of a flow, trigger, test, order or entry site, in its site's scope."""
        site = rule.site
        names = {k: Local(k, t) for k, t in site.scope.names().items()}
        decider = None
        self.graph.enter(None)
        if site.scope is SiteScope.EVENT:
            tr = next(t for t in self.rules.triggers if t.id == rule.name)
            self.graph.enter(Callee.trigger(tr.id))
            names = {p: Local(p, t) for p, t in self._trigger_types.get(tr.id, {}).items()}
        elif site.scope is SiteScope.TURN:
            phase = self._step_phase[rule.name]
            if phase.id not in self._rounds:
                return  # the phase is not one of rounds (reported once, for the phase)
            turn_t = self._turn_types.get(phase.id, ANY)
            names = {phase.turn: Local(phase.turn, turn_t, turn=True)}
            if turn_t == SEAT:
                decider = Ref(RefKind.TURN_SEAT, phase.turn)
            elif turn_t == PIECE:
                decider = Ref(RefKind.TURN_OWNER, phase.turn)
        elif rule.site.id in ("phases.ID.order", "phases.ID.until") and rule.name not in self._rounds:
            return
        elif site.scope is SiteScope.MOVE and not any(KINDS[k].moves for k in self.sym.boards.values()):
            self.error("E150", f"`{rule.id}` is a rule of how pieces move on a board that moves them itself "
                               f"(a lane track), and this game has none", rule.tree)
            return
        sc = Scope(names, rule.id, decider=decider)
        if site.form.block:
            self.st.block(rule.tree.body, sc)
        elif site.form is Form.ORDER:
            t = self.ex.expr(rule.tree, sc)
            phase = next(ph for ph in self.rules.phases if ph.id == rule.name)
            if not (is_list(t) or t == ANY):
                self.error("E120", f"type error: `order` must be a list, not {t}", phase.order_loc)
            self._turn_types[phase.id] = elem(t) if is_list(t) else ANY
        elif not site.want:
            self.ex.expr(rule.tree, sc)
        elif len(site.want) == 1:
            self.ex.want(rule.tree, sc, site.want[0], site.what.format(name=rule.name), loose=True)
        else:
            t = self.ex.expr(rule.tree, sc)
            if not any(compatible(t, w) for w in site.want):
                shown = " or ".join(_WANT_WORDS.get(w, str(w)) for w in site.want)
                what = site.what.format(name=rule.name)
                self.type_error(f"{what} must be {shown}, but this is {t}", rule.tree)

    def _phases(self) -> None:
        """A phase is one block or rounds of turns: which phases' rounds are checked (`_rounds`)."""
        self._rounds: set[str] = set()
        self._turn_types: dict[str, Type] = {}
        self._step_phase = {st.id: ph for ph in self.rules.phases for st in ph.steps}
        for ph in self.rules.phases:
            if ph.has_do:
                if ph.steps or ph.has_order:
                    self.error("E136", f"phase `{ph.id}` has both `do` and rounds (`order`/`steps`)", ph.loc,
                               "a phase is either one block or rounds of turns")
            elif not ph.has_order:
                self.error("E137", f"phase `{ph.id}` needs `order` (who takes turns) or `do`", ph.loc)
            elif not ph.has_until and ph.rounds is None:
                self.error("E138", f"phase `{ph.id}` never ends: give it `until` or `rounds`", ph.loc)
            else:
                self._rounds.add(ph.id)

    def _events(self) -> None:
        """What each event carries: the parameters of its triggers, which must agree."""
        for tr in self.rules.triggers:
            params = {}
            for pname, tname in tr.params.items():
                if self.sym_name(pname, f"parameter of trigger `{tr.id}`"):
                    declared = Declarations(self.rs, self.problems.report)
                    params[str(pname)] = declared.param_type(tname, pname, tr.id)
            self._trigger_types[tr.id] = params
            if tr.on in BUILTIN_EVENTS and params:
                self.error("E146", f"`{tr.on}` is raised by the game itself and carries nothing", tr.on_loc)
                continue
            values = self.sym.board_events.get(tr.on)
            if values is not None and [t for t, _n, _w in values] != list(params.values()):
                shown = ", ".join(f"{name}: {t}" for t, name, _w in values)
                self.error("E146", f"trigger `{tr.id}`: `{tr.on}` is raised by the board with "
                                   f"{_values(values)}", tr.on_loc,
                           "give the trigger these parameters, in this order (names of your own): "
                           f"`params: {{{shown}}}`")
                continue
            known = self.out.event_params.get(tr.on)
            if known is None:
                self.out.event_params[tr.on] = params
            elif list(known.values()) != list(params.values()):
                shown = ", ".join(f"{k}: {v}" for k, v in known.items()) or "nothing"
                self.error("E146", f"trigger `{tr.id}` takes other parameters than the other triggers of "
                                   f"`{tr.on}` ({shown})", tr.on_loc,
                           "triggers of one event take the same parameters")
                continue
            self.out.trigger_ok.add(tr.id)
            self.out.trigger_params[tr.id] = list(params)

    def sym_name(self, name: Any, what: str) -> bool:
        """Can `name` be declared as a `what`? A word of the language is said (E119) and declared
        all the same; a name of the language cannot have is said and is not."""
        if str(name) in keywords():  # said once; declared all the same, as `Declarations.name` does
            self.error("E119", f"`{name}` is a word of the language: it cannot be the name of a {what}",
                       loc_of(name), "rename it, here and where the rules use it")
        elif not valid_name(str(name)):
            self.error("E119", f"`{name}` cannot be the name of a {what}", getattr(name, "loc", None))
            return False
        return True

    def _procedures(self) -> None:
        """Check procedures after those they call (a procedure may give a value with `return`)."""
        procs = {k: tree for k in self.rules.procedures if k in self.sym.procedures
                 and (tree := self.rules.tree(PROCEDURE.rule(k))) is not None}
        order: list[str] = []
        state: dict[str, int] = {}

        def callees(name: str) -> list[str]:
            out = []
            for node in n.walk(procs[name]):
                if isinstance(node, n.Call) and node.name in procs:
                    out.append(node.name)
            return out

        for start in procs:
            if start in state:
                continue
            stack = [(start, iter(callees(start)))]
            state[start] = 1
            while stack:
                cur, it = stack[-1]
                nxt = next(it, None)
                if nxt is None:
                    stack.pop()
                    state[cur] = 2
                    order.append(cur)
                elif nxt not in state:
                    state[nxt] = 1
                    stack.append((nxt, iter(callees(nxt))))
        for name in order:
            self.graph.enter(Callee.procedure(name))
            sc = Scope({p: Local(p, t) for p, t in self.sym.procedures[name].items()}, PROCEDURE.rule(name),
                       procedure=name)
            self.st.returns[name] = []
            self.st.block(procs[name].body, sc)
            types = self.st.returns.pop(name)
            if types:
                t: Type = NONE
                for rt, node in types:
                    if not compatible(t, rt):
                        self.type_error(f"`return` gives {rt} here and {t} elsewhere in `{name}`", node)
                    t = join(t, rt)
                self.out.procedure_types[name] = t
        self.graph.enter(None)

    def _emits(self) -> None:
        for _rule, body in blocks(self.rules):
            for stmt in body:
                for node in n.walk(stmt):
                    if isinstance(node, n.Emit):
                        self.out.emitted.add(node.event)

    def _functions(self) -> None:
        """Type each function after the functions it calls (a cycle is reported later)."""
        order: list[str] = []
        state: dict[str, int] = {}
        fns = {k: tree for k in self.rules.functions if k in self.sym.functions
               and (tree := self.rules.tree(FUNCTION.rule(k))) is not None}

        def visit(name: str) -> None:
            stack = [(name, iter(self._callees(fns[name])))]
            state[name] = 1
            while stack:
                cur, it = stack[-1]
                nxt = next(it, None)
                if nxt is None:
                    stack.pop()
                    state[cur] = 2
                    order.append(cur)
                elif nxt in fns and nxt not in state:
                    state[nxt] = 1
                    stack.append((nxt, iter(self._callees(fns[nxt]))))
        for name in fns:
            if name not in state:
                visit(name)
        for name in order:
            self.graph.enter(Callee.function(name))
            params = self.sym.functions[name]
            sc = Scope({p: Local(p, t) for p, t in params.items()}, FUNCTION.rule(name))
            self.out.function_types[name] = self.ex.expr(fns[name], sc)
        self.graph.enter(None)

    @staticmethod
    def _callees(expr: n.Expr) -> list[str]:
        return [c.name for c in n.walk(expr) if isinstance(c, n.Call)]


def _values(values: Any) -> str:
    """What an event of a board carries, in words: `a piece (the piece that moved) and ...`."""
    words = [f"{t} ({w})" for t, _n, w in values]
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]


def typed_copy(rules: Rules) -> Rules:
    """The rules with a copy of every tree, for the checker to type (the parsed ones stay as they are)."""
    return replace(rules, rules={k: replace(r, tree=n.clone(r.tree)) for k, r in rules.rules.items()})
