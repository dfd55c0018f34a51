"""The one checking pass over a game's trees: names, types, arities, calls, scopes.

It resolves every name, attribute and call (`node.ref`), gives every expression its type
(`node.typ`), and reports each problem at its position; after an error it goes on with type
`any`, so one run lists every problem. Then it looks at the game as a whole: the call graph
must have no cycle (a rule that calls itself could never end), and it finds which procedures,
triggers and events may wait for a decision (the compiler turns those into machine code).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, Callable, Iterable

from ..boards import KINDS
from ..ir.sites import SITES, Form, SiteScope
from ..lang import nodes as n
from ..lang.diagnostics import Loc, Report, source_line
from ..lang.diagnostics import did_you_mean as _did_you_mean
from ..lang.limits import MAX_CALL_DEPTH, MAX_CALL_NESTING
from ..lang import versions
from ..lang import unparse
from ..lang.parser import keywords, parse_expr
from ..lang.types import (ANY, BOARD, BOOL, CARD, DIE, INT, KEY_TYPES, NONE, PIECE, PILE, SEAT, TEXT,
                          ListType, Type, compatible, elem, is_list, is_map, iterable_elem, join, listof,
                          map_types, mapof, parse_type, zero)
from ..library.api import Bound, Builtin, Items, OfKind, PlainBound
from ..load.rules import Rule, Rules, blocks
from ..load.ruleset import Ruleset
from ..load.yamlsrc import loc_of
from .blame import names_in
from .numbers import kids as number_kids
from .symbols import BUILTIN_EVENTS, Declarations, Symbols


# ---- what names refer to ---------------------------------------------------------------------

@dataclass(eq=False)
class Local:
    """A local name of a rule: a parameter, `let`, a loop's or an option's variable."""
    name: str
    typ: Type
    # where extensions that may not read it are written (file, first line, last line): a rule's
    # `let` it does not declare visible
    hidden_from: tuple[tuple[str, int, int], ...] = ()
    turn: bool = False  # whose turn it is, in a step: every step of the turn reads the same one


class RefKind(Enum):
    """What a name, attribute, call or place refers to (`Ref.name` and `Ref.extra` say more)."""
    LOCAL = "local"                # a rule's local: extra is its `Local`
    PARAM = "param"                # a game param: extra is its value
    GLOBAL = "global"              # a game state variable (or `round`)
    PILE = "pile"                  # a pile of the game
    BOARD = "board"
    PIECES = "pieces"              # a kind of pieces: the list of them
    SEATS = "seats"
    CARD_TYPE = "card_type"        # `c.type`
    CARD_FACE_UP = "card_face_up"
    CARD_PILE = "card_pile"
    CARD_PROP = "card_prop"        # `c.PROP`: name is the property
    PIECE_NAME = "piece_name"
    PIECE_VAR = "piece_var"        # `p.VAR`: name is the variable
    CARD_VAR = "card_var"          # `c.VAR`: a state variable of each card
    SEAT_VAR = "seat_var"
    SEAT_NUMBER = "seat_number"
    SEAT_PIECES = "seat_pieces"
    MAP_GET = "map_get"            # `m.key`, `m[k]`: name is the key of `m.key`; extra the value's zero
    FUNCTION = "function"
    PROCEDURE = "procedure"
    BUILTIN = "builtin"            # extra is its `Builtin`
    PILE_OF = "pile_of"            # `hand(s)`: extra is what it is one per
    DIE = "die"                    # a die of the game (`d6`)
    DIE_OF = "die_of"              # a die of a family (`level(3)`): extra is the type of its keys
    LIST_ITEM = "list_item"        # a place `xs[i]`
    MAP_ITEM = "map_item"          # a place `m[k]`, `m.key`: name is the key of `m.key`; extra the zero
    TURN_SEAT = "turn_seat"        # who chooses by default: the seat whose turn it is (name: the turn's name)
    TURN_OWNER = "turn_owner"      # ... the owner of the piece whose turn it is
    SIMUL_SEAT = "simul_seat"      # ... the seat of a `simultaneously` block
    MACHINE_VALUE = "machine_value"  # the value a procedure that waits gave (the compiler's)


@dataclass(frozen=True)
class Ref:
    kind: RefKind
    name: str = ""
    extra: Any = None


@dataclass
class Scope:
    names: dict[str, Local]
    rule: str
    loops: int = 0            # enclosing loops: `break` is allowed inside one
    decider: Ref | None = None  # who chooses by default in a step: Ref(RefKind.TURN_SEAT/"turn_owner", turn)
    in_simul: bool = False
    procedure: str | None = None  # the procedure these statements belong to (`return`)
    own: set[str] = field(default_factory=set)  # the names bound in this block itself

    def __post_init__(self) -> None:
        self.own = set(self.names)  # a rule's own names (its parameters) are of its outermost block

    def child(self, **kw: Any) -> "Scope":
        s = Scope(dict(self.names), self.rule, self.loops, self.decider, self.in_simul, self.procedure)
        s.own = set()
        for k, v in kw.items():
            setattr(s, k, v)
        return s

    def bind(self, name: str, typ: Type) -> Local:
        local = Local(name, typ)
        self.names[name] = local
        self.own.add(name)
        return local


@dataclass
class Checked:
    """A game that passed the checks: its symbols, its annotated rules, and what the whole
    program looks like (function types, which rules wait for decisions)."""
    symbols: Symbols
    rules: Rules
    function_types: dict[str, Type] = field(default_factory=dict)
    waits: set[str] = field(default_factory=set)   # "proc:NAME", "trig:ID", "event:NAME"
    procedure_types: dict[str, Type] = field(default_factory=dict)  # procedures that give a value
    event_params: dict[str, dict[str, Type]] = field(default_factory=dict)    # event -> {param: type}
    trigger_ok: set[str] = field(default_factory=set)               # triggers whose params agree
    trigger_params: dict[str, list[str]] = field(default_factory=dict)   # trigger -> its own names of them
    handlers: dict[str, list] = field(default_factory=dict)   # event -> [TriggerDef]
    emitted: set[str] = field(default_factory=set)
    # each `simultaneously` block (by its node's id): what its seats' blocks touch (`secret.py`)
    secrets: dict[int, Any] = field(default_factory=dict)
    checker: "Checker | None" = None               # to check more rules later (a scenario's)


# How a message names the types a site may want, when it wants one of several.
_WANT_WORDS = {INT: "a number", BOOL: "true/false"}



def _articles(msg: str) -> str:
    """`a int` and `a any` as a person says them."""
    return msg.replace(" a int", " an int").replace(" a any", " any value")

class Checker:
    def __init__(self, rs: Ruleset, report: Report):
        self.rs = rs
        self.report = report
        self.sym = Declarations(rs, report).build()
        self.rules: Rules = typed_copy(rs.rules)   # the checker types its own copy of the trees
        self.out = Checked(self.sym, self.rules)
        self.calls: dict[str, list[tuple[str, Loc | None]]] = {}   # "fn:x" -> [(callee key, where)]
        self._returns: dict[str, list] = {}   # procedure being checked -> [(type, node)] of its returns
        self._trigger_types: dict[str, dict] = {}   # trigger id -> {param: type}
        self._value_call: n.Expr | None = None  # the one place a procedure may give its value now
        self._hints = 200
        self._current: str | None = None
        # what a patch changed (`blame.py`): each local's declarations, each function's, by name
        self._local_reads: dict[int, set[str]] = {}
        self._function_reads: dict[str, set[str]] = {}
        # forms an older version of the language (or of the game) wrote: attributes and calls
        self.old_attrs: dict[tuple[str, str], versions.OldForm] = {}
        self.old_calls: dict[str, versions.OldForm] = {}
        self._old_trees: dict[versions.OldForm, n.Expr | None] = {}
        self._renaming: set[int] = set()   # calls of piles being read as their new forms (`pile_of`)
        kinds = sorted({str(b.kind) for b in rs.game.boards.values()})
        forms = [f for kind in kinds for f in KINDS[kind].old_forms]
        forms += [versions.OldForm(str(k), v.to, v.since) for k, v in rs.game.renamed.items()]
        for form in forms:
            if form.attribute is not None and form.attribute[0] in ("seat", "piece", "card"):
                self.old_attrs[form.attribute] = form
            elif form.call is not None:
                self.old_calls[form.call[0]] = form
            else:
                where = loc_of(next((k for k in rs.game.renamed if str(k) == form.old), None))
                self.error("E117", f"`renamed: {form.old}`: an old form is `seat.NAME`, `piece.NAME`, "
                           "`card.NAME` or a call `NAME(a, b)`", where)

    # ---- reporting ---------------------------------------------------------------------------

    def error(self, code: str, msg: str, node_or_loc: n.Node | Loc | None, hint: str | None = None) -> None:
        loc = node_or_loc.loc if isinstance(node_or_loc, n.Node) else node_or_loc
        about: frozenset[str] = frozenset()
        if isinstance(node_or_loc, n.Node) and self.rs.changed:
            about = self.reads(node_or_loc)
        self.report.add(code, msg, loc, hint, about=about)

    def reads(self, tree: n.Node) -> frozenset[str]:
        """The declarations a tree reads, as far as a patch's change matters to it (`blame.py`):
        those its names may be, those of the functions it calls, and those the locals it reads
        were computed from."""
        out = names_in(tree)
        for x in n.walk(tree):
            if isinstance(x, n.Name) and isinstance(x.ref, Ref) and x.ref.kind is RefKind.LOCAL:
                out |= self._local_reads.get(id(x.ref.extra), set())
            elif isinstance(x, n.Call):
                out |= self._function_reads_of(x.name, set())
        return frozenset(out)

    def _function_reads_of(self, name: str, seen: set[str]) -> set[str]:
        if name in self._function_reads:
            return self._function_reads[name]
        tree = self.rs.rules.tree(f"functions.{name}")
        if tree is None or name in seen:
            return set()
        seen.add(name)
        out = names_in(tree)
        for x in n.walk(tree):
            if isinstance(x, n.Call):
                out |= self._function_reads_of(x.name, seen)
        self._function_reads[name] = out
        return out

    def type_error(self, msg: str, node: n.Node | Loc | None, hint: str | None = None) -> Type:
        self.error("E120", "type error: " + _articles(msg), node, hint)
        return ANY

    def suggest(self, name: str, candidates: Iterable[object]) -> str | None:
        """A "did you mean" hint, for the first problems only: a file with thousands of unknown
        names is checked in linear time (only the first 200 problems are shown anyway)."""
        if self._hints <= 0:
            return None
        self._hints -= 1
        return _did_you_mean(name, candidates)

    def note_call(self, key: str, loc: Loc | None) -> None:
        if self._current is not None:
            self.calls.setdefault(self._current, []).append((key, loc))

    # ---- the whole game ----------------------------------------------------------------------

    def run(self) -> Checked:
        r = self.rules
        self._emits()
        for tr in r.triggers:
            self.out.handlers.setdefault(tr.on, []).append(tr)
            if tr.on not in (*BUILTIN_EVENTS, *self.out.emitted, *self.sym.board_events):
                self.error("E131", f"trigger `{tr.id}` waits for event `{tr.on}`, which no rule emits",
                           tr.on_loc, self.suggest(tr.on, BUILTIN_EVENTS) or
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
        self._unit(None)
        kinds = {k for b in self.rs.game.boards.values() for k in KINDS[b.kind].line_kinds(b)}
        for kind, loc in r.line_kinds:
            if kind not in kinds:
                self.report.add("E153", f"`view.lines` tells of lines of kind `{kind}`, which no board has",
                                loc, self.suggest(kind, sorted(kinds)) or "the kinds of line are the `kind:` "
                                                                             "of a board's `lines`")
        for name, loc in r.view_piles:
            if name not in self.sym.piles:
                self.report.add("E152", f"the view shows pile `{name}`, which the game does not have", loc,
                                self.suggest(name, list(self.sym.piles)))
        self._cycles()
        self._waits()
        self._numbers()
        self.out.checker = self
        return self.out

    # a line that says its numbers are meant as written (not a param's value): W109 is not said there
    AS_WRITTEN = "# as written"

    def _numbers(self) -> None:
        """W109: a number written in a rule that is the value of a param the rule's file can see
        (one of its own, the game file's, or one of a module or variant it requires), where it
        plausibly means the param: the rules write the param in the same slot (`numbers.py`), or
        no rule reads the param. A module that changes the param would leave this number as it
        is; a game's other 2s (`n // 2`, `seat(2)`) are not said. 0 and 1 count and compare more
        than they measure, and are not said; a line ending in `# as written` keeps its numbers,
        and so does a whole rule when the line of its key says so (or, for a rule of one line,
        the line above it)."""
        game_file = getattr(loc_of(self.rs.game.game.id), "file", None)
        seen: dict[int, list[tuple[str, str | None]]] = {}   # value -> (param, the file it is set in)
        for name, (value, typ) in self.sym.params.items():
            if typ != INT or value in (0, 1):
                continue
            key = f"params.{name}"
            if key in self.rs.changed:  # its value is a patch's (None: the command line's)
                at = self.rs.changed[key]
            else:
                at = loc_of(next((k for k in self.rs.game.params if str(k) == name), None))
            if at is not None:
                seen.setdefault(value, []).append((name, at.file))
        if not seen:
            return
        sees: dict[str, set[str | None]] = {}

        def visible_from(file: str) -> set[str | None]:
            if file not in sees:
                out, todo = {file, game_file}, [file]
                while todo:
                    for needed in self.rs.needs.get(todo.pop(), []):
                        if needed not in out:
                            out.add(needed)
                            todo.append(needed)
                sees[file] = out
            return sees[file]

        def as_written(loc: Loc) -> bool:
            line = source_line(loc) if loc.line > 0 else None
            return line is not None and self.AS_WRITTEN in line

        def keeps_all(start: Loc | None) -> bool:
            # a whole rule keeps its numbers when its key's line says so (`value: >  # as written`)
            return start is not None and (as_written(start) or as_written(Loc(start.file, start.line - 1)))

        # A number is said where the rules write a param of its value in the same slot (`numbers.py`:
        # what it is combined with, compared with, given to), or anywhere when no rule reads the param.
        uses: dict[str, set] = {}   # param -> the slots the rules write it in
        found: list[tuple[n.Num, Any]] = []

        def local(x: n.Name) -> bool:
            return isinstance(x.ref, Ref) and x.ref.kind is RefKind.LOCAL

        for rule in self.rules.rules.values():
            top = ("value", rule.id) if isinstance(rule.tree, n.Expr) else None
            stack = [(rule.tree, keeps_all(rule.tree.loc), top)]
            while stack:
                x, whole, slot = stack.pop()
                file = x.loc.file if x.loc is not None else None
                for child, child_slot in number_kids(x, slot, rule.id, local):
                    # an extension's value holds the base's (`base`): that text keeps its own mark,
                    # and the base's mark says nothing of an extension's statements
                    if child.loc is not None and child.loc.file != file:
                        stack.append((child, isinstance(child, n.Expr) and keeps_all(child.loc), child_slot))
                    else:
                        stack.append((child, whole, child_slot))
                if isinstance(x, n.Name) and isinstance(x.ref, Ref) and x.ref.kind is RefKind.PARAM:
                    uses.setdefault(x.id, set()).add(slot)
                elif isinstance(x, n.Num) and x.value in seen and x.loc is not None and not whole:
                    found.append((x, slot))
        for x, slot in found:
            assert x.loc is not None
            names = [p for p, f in seen[x.value] if f in visible_from(x.loc.file)
                     and (p not in uses or (slot is not None and slot in uses[p]))]
            if not names or as_written(x.loc):
                continue
            shown = " or ".join(f"`{p}`" for p in names)
            if len(names) > 3:  # a game of many params of one value: a few, and how many more
                shown = ", ".join(f"`{p}`" for p in names[:3]) + f" or {len(names) - 3} more"
            self.report.warn("W109", f"`{x.value}` is the value of param {shown}: a module or variant "
                             "that changes the param would leave this number as it is", x.loc,
                             f"write {shown if len(names) <= 3 else 'one of them'}; if the number is "
                             f"another thing, end the line with `{self.AS_WRITTEN}`")

    def _rule(self, rule: Rule) -> None:
        """Check one rule of a flow, trigger, test, order or entry site, in its site's scope."""
        site = rule.site
        names = {k: Local(k, t) for k, t in site.scope.names().items()}
        decider = None
        self._unit(None)
        if site.scope is SiteScope.EVENT:
            tr = next(t for t in self.rules.triggers if t.id == rule.name)
            self._unit(f"trig:{tr.id}")
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
            self.block(rule.tree.body, sc)
        elif site.form is Form.ORDER:
            t = self.expr(rule.tree, sc)
            phase = next(ph for ph in self.rules.phases if ph.id == rule.name)
            if not (is_list(t) or t == ANY):
                self.error("E120", f"type error: `order` must be a list, not {t}", phase.order_loc)
            self._turn_types[phase.id] = elem(t) if is_list(t) else ANY
        elif not site.want:
            self.expr(rule.tree, sc)
        elif len(site.want) == 1:
            self.want(rule.tree, sc, site.want[0], site.what.format(name=rule.name), loose=True)
        else:
            t = self.expr(rule.tree, sc)
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

    # ---- rules checked after the game: a scenario's situation and expectations -----------------

    def situation(self, block: n.Block) -> n.Block:
        """A scenario's block of statements, typed (a copy)."""
        self._unit(None)
        block = n.clone(block)
        self.block(block.body, Scope({}, "situation"))
        if self.may_wait(block.body):
            self.error("E142", "a scenario's situation cannot wait for a decision", block,
                       "arrange the table with statements; script the decisions under `script:`")
        return block

    def expectation(self, expr: n.Expr, names: dict[str, Type] | None = None) -> n.Expr:
        """A scenario's condition, typed (a copy); `names`: the values it remembered so far, by type."""
        self._unit(None)
        expr = n.clone(expr)
        self.want(expr, self._scenario(names), BOOL, "an expectation", loose=True)
        return expr

    def scenario_value(self, expr: n.Expr, names: dict[str, Type] | None = None) -> tuple[n.Expr, Type]:
        """A value a scenario remembers, or the seat it expects to decide: typed (a copy), and its type."""
        self._unit(None)
        expr = n.clone(expr)
        return expr, self.expr(expr, self._scenario(names))

    def _scenario(self, names: dict[str, Type] | None) -> Scope:
        return Scope({k: Local(k, t) for k, t in (names or {}).items()}, "scenario")

    def scenario_name(self, name: str) -> str | None:
        """Why a scenario cannot `remember` a value under this name, or None when it can."""
        if name in keywords():
            return f"`{name}` is a word of the rule language, not a name"
        if name.startswith("__"):
            return f"`{name}`: names starting with `__` are the engine's"
        if name in self.sym.global_names():
            return f"`{name}` is a name of the game: a remembered value would hide it"
        return None

    def _unit(self, key: str | None) -> None:
        self._current = key

    def _events(self) -> None:
        """What each event carries: the parameters of its triggers, which must agree."""
        for tr in self.rules.triggers:
            params = {}
            for pname, tname in tr.params.items():
                if self.sym_name(pname, f"parameter of trigger `{tr.id}`"):
                    params[str(pname)] = Declarations(self.rs, self.report).param_type(tname, pname, tr.id)
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
        from .symbols import valid_name

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
                 and (tree := self.rules.tree(f"procedures.{k}")) is not None}
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
            self._unit(f"proc:{name}")
            sc = Scope({p: Local(p, t) for p, t in self.sym.procedures[name].items()}, f"procedures.{name}",
                       procedure=name)
            self._returns[name] = []
            self.block(procs[name].body, sc)
            types = self._returns.pop(name)
            if types:
                t: Type = NONE
                for rt, node in types:
                    if not compatible(t, rt):
                        self.type_error(f"`return` gives {rt} here and {t} elsewhere in `{name}`", node)
                    t = join(t, rt)
                self.out.procedure_types[name] = t
        self._unit(None)

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
               and (tree := self.rules.tree(f"functions.{k}")) is not None}

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
            self._unit(f"fn:{name}")
            params = self.sym.functions[name]
            sc = Scope({p: Local(p, t) for p, t in params.items()}, f"functions.{name}")
            self.out.function_types[name] = self.expr(fns[name], sc)
        self._unit(None)

    @staticmethod
    def _callees(expr: n.Expr) -> list[str]:
        return [c.name for c in n.walk(expr) if isinstance(c, n.Call)]

    def _cycles(self) -> None:
        """Functions, procedures and triggers must not reach themselves: report each cycle once."""
        graph: dict[str, list[tuple[str, Loc | None]]] = {}
        for key, edges in self.calls.items():
            for callee, loc in edges:
                if callee.startswith("event:"):
                    for tr in self.out.handlers.get(callee.removeprefix("event:"), []):
                        graph.setdefault(key, []).append((f"trig:{tr.id}", loc))
                else:
                    graph.setdefault(key, []).append((callee, loc))
        colour: dict[str, int] = {}
        reported: set[frozenset] = set()
        for start in sorted(graph):
            if start in colour:
                continue
            path: list[str] = []
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
                        self.error("E141", f"rules call each other in a cycle: {shown}", loc,
                                   "a rule that reaches itself may never end: compute the value with a "
                                   "loop (`for`, `while`) instead")
                elif callee not in colour:
                    colour[callee] = 1
                    path.append(callee)
                    stack.append((callee, iter(graph.get(callee, []))))
        if not reported:
            self._call_depth(graph)

    def _call_depth(self, graph: dict[str, list[tuple[str, Loc | None]]]) -> None:
        """Calls nested too deeply are refused at the call past the limit: more than MAX_CALL_DEPTH
        rules (functions, procedures, triggers through `emit`) each calling the next, or more than
        MAX_CALL_NESTING levels of blocks and expressions inside them along the way (each rule
        counted by its deepest part). The engine compiles and runs a call inside a call with
        Python's own bounded stack. The graph has no cycle here; the longest chain from each rule
        is found without recursion."""
        weight = self._nesting()
        # rule -> (rules in its longest chain, the next in it, where it is called, levels of the chain)
        longest: dict[str, tuple[int, str | None, Loc | None, int]] = {}
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
                best: tuple[int, str | None, Loc | None, int] = (1, None, None, weight.get(key, 1))
                for callee, loc in graph.get(key, []):
                    calls, _n, _w, levels = longest[callee]
                    if (calls + 1, levels + weight.get(key, 1)) > (best[0], best[3]):
                        best = (calls + 1, callee, loc, levels + weight.get(key, 1))
                longest[key] = best
        for rank, top, what in ((0, MAX_CALL_DEPTH, "rules"), (3, MAX_CALL_NESTING, "levels")):
            size: dict[str, int] = {k: v[rank] for k, v in longest.items()}  # type: ignore[misc]
            deepest = max(size, key=lambda k: (size[k], k), default=None)  # noqa: B023
            if deepest is not None and size[deepest] > top:
                self._too_deep(longest, deepest, rank, top, what, weight)
                return

    def _too_deep(self, longest: dict, key: str, rank: int, top: int, what: str, weight: dict) -> None:
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
        self.error("E148", f"calls nested too deeply: {shown}, {total:,} {what} inside each other ({how}); "
                   f"at most {top}", where,
                   "call the rules one after another from one place rather than each from the one before")

    def _nesting(self) -> dict[str, int]:
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

        out = {f"fn:{k}": 1 for k in self.rules.functions}
        out.update({f"proc:{k}": levels(self.rules.tree(f"procedures.{k}")) for k in self.rules.procedures})
        out.update({f"trig:{t.id}": levels(self.rules.tree(f"triggers.{t.id}")) for t in self.rules.triggers})
        return out

    def _waits(self) -> None:
        """Which procedures, triggers and events may wait for a decision (a fixed point)."""
        bodies: dict[str, n.Block | None] = {f"proc:{k}": self.rules.tree(f"procedures.{k}")
                                             for k in self.rules.procedures}
        for tr in self.rules.triggers:
            bodies[f"trig:{tr.id}"] = self.rules.tree(f"triggers.{tr.id}")
        waits = self.out.waits
        changed = True
        while changed:
            changed = False
            for key, body in bodies.items():
                if key not in waits and body is not None and self.may_wait(body.body):
                    waits.add(key)
                    changed = True
            for ev, trs in self.out.handlers.items():
                if f"event:{ev}" not in waits and any(f"trig:{t.id}" in waits for t in trs):
                    waits.add(f"event:{ev}")
                    changed = True

    def may_wait(self, stmts: list[n.Stmt]) -> bool:
        return may_wait(stmts, self.out.waits)

    # ---- statements ------------------------------------------------------------------------

    def block(self, stmts: list[n.Stmt], sc: Scope) -> None:
        for s in stmts:
            getattr(self, "s_" + type(s).__name__)(s, sc)

    def value_of_statement(self, e: n.Expr, sc: Scope) -> Type:
        """The value of `let x = ...`, `x = ...` or `return ...`: where a procedure may give one."""
        self._value_call = e
        try:
            return self.expr(e, sc)
        finally:
            self._value_call = None

    def s_Let(self, s: n.Let, sc: Scope) -> None:
        typ = self.value_of_statement(s.value, sc)
        if s.declared is not None:  # a parameter given a new value by `proceed(...)`
            want = parse_type(str(s.declared))
            if want is not None:
                if not compatible(typ, want):
                    self.type_error(f"`proceed` gives `{s.name.rstrip(chr(39))}` a {typ}, and it is a {want}",
                                    s.value)
                typ = want
        if s.name in keywords():
            self.error("E125", f"`{s.name}` is a word of the rule language, not a name", s,
                       "choose another name")
        elif s.name in self.sym.params or s.name in self.sym.globals or s.name in self.sym.functions \
                or s.name == "round":
            self.error("E125", f"`let {s.name}` hides the game's `{s.name}`", s, "choose another name")
        elif s.name.startswith("__"):
            self.error("E125", f"`{s.name}`: names starting with `__` are the engine's", s,
                       "choose another name")
        self._keeps_turn(s.name, sc, s)
        if s.name not in sc.own:
            self._keeps_type(s.name, typ, sc, s)
        s.rebinds = s.name in sc.names
        s.ref = sc.bind(s.name, typ)
        s.ref.hidden_from = s.hidden_from
        if self.rs.changed:
            self._local_reads[id(s.ref)] = set(self.reads(s.value))

    def _keeps_turn(self, name: str, sc: Scope, node: n.Node) -> None:
        """A step's statements run one after another in the turn, all with the one turn's name:
        one that gave it another value (`let`, `=`, a loop's or an option's variable) would change
        whose turn it is for the steps after it."""
        local = sc.names.get(name)
        if local is not None and local.turn:
            self._refused_from_2("E126", "W142",
                                 f"`{name}` is whose turn it is: a step cannot give it another value", node,
                                 "keep the other value under a name of its own: `let other = ...`")

    def _keeps_type(self, name: str, typ: Type, sc: Scope, node: n.Node) -> None:
        """A block inside another (a loop's, an option's, an `if`'s) that names a value as a local
        of the block around it does has one local with it: after the block, that local holds the
        value the block gave it. Of another type, the lines after would read it as what it was."""
        local = sc.names.get(name)
        if local is not None and not compatible(typ, local.typ) and not local.turn:
            self._refused_from_2("E120", "W143",
                                 f"type error: `{name}` is a {local.typ} here, and this gives it a {typ}: "
                                 f"the lines after this block would read the {typ} as a {local.typ}",
                                 node, f"give the {typ} a name of its own")

    def _refused_from_2(self, code: str, warning: str, message: str, node: n.Node, hint: str) -> None:
        """What the engine let through before language 2 (a file that says none still runs as it
        did): a warning in a file of language 1, an error from 2."""
        loc = node.loc
        if loc is not None and versions.of(loc.file) < 2:
            self.report.warn(warning, _articles(message) + " (an error from language 2)", loc, hint)
        else:
            self.error(code, _articles(message), node, hint)

    def _hidden(self, e: n.Name, local: Local) -> None:
        """An extension reads a local of the rule it extends that the rule does not declare
        visible: a warning in a file of language 1, where it was allowed; an error from 2."""
        loc = e.loc
        if not local.hidden_from or loc is None or not any(
                f == loc.file and a <= loc.line <= b for f, a, b in local.hidden_from):
            return
        message = f"`{e.id}` is a local of the rule this extends, which does not declare it visible"
        hint = (f"declare it in the rule: `let visible {e.id} = ...`; or compute it here, or ask the "
                "rule's author to show it")
        self._refused_from_2("E149", "W141", message, e, hint)

    def _old_form(self, e: n.Expr, form: versions.OldForm, values: dict[str, n.Expr]) -> bool:
        """`e`, an old form, becomes its new form (`form.new` with `values` for its names), said
        where it is (a warning in a file of an older version, else an error): True when it did."""
        if form not in self._old_trees:
            self._old_trees[form] = parse_expr(form.new, self.report)
        template = self._old_trees[form]
        if template is None:
            return False
        new = n.clone(template)
        for x in n.walk(new):  # placed where the old form is written
            x.loc = e.loc
        new = _put(new, values)
        old_text, new_text = unparse.expr(e), unparse.expr(new)
        file = e.loc.file if e.loc is not None else None
        self.report.old_form(versions.of(file), form.since, f"`{old_text}`", e.loc, new_text,
                             ((e.loc, old_text, new_text),) if e.loc is not None else ())
        e.__class__, e.__dict__ = new.__class__, new.__dict__   # the node is the new form from now on
        return True

    def target(self, t: n.Expr, sc: Scope) -> Type | None:
        """The type of an assignable place (and `t.ref` set), or None after an error."""
        sym = self.sym
        if isinstance(t, n.Name):
            name = t.id
            if name in sc.names:
                self._keeps_turn(name, sc, t)
                t.ref = Ref(RefKind.LOCAL, name, sc.names[name])
                self._hidden(t, sc.names[name])
                return sc.names[name].typ
            if name in sym.params:
                self.error("E126", f"`{name}` is a parameter of the game: it cannot change during play", t,
                           "declare a game state variable under `state:` for a value that changes")
                return None
            if name == "round":
                self.error("E126", "`round` is counted by the game and cannot be set", t)
                return None
            if name in sym.globals:
                t.ref = Ref(RefKind.GLOBAL, name)
                return sym.globals[name]
            self.error("E110", f"unknown name `{name}`", t,
                       self.suggest(name, list(sc.names) + list(sym.globals) + ["round"]) or
                       "declare it under `state:`, or introduce a local with `let`")
            return None
        if isinstance(t, n.Index) or (isinstance(t, n.Attr) and is_map(self._peek(t.obj, sc))):
            return self._item_target(t, sc)
        if isinstance(t, n.Attr):
            obj_t = self.expr(t.obj, sc)
            scope = {PIECE: "piece", SEAT: "seat", CARD: "card"}.get(obj_t)
            if scope is None:
                self.type_error(f"only state of a seat, piece or card can be set, not of a {obj_t}", t)
                return None
            variables = {"piece": sym.piece_vars, "seat": sym.seat_vars, "card": sym.card_vars}[scope]
            form = self.old_attrs.get((scope, t.name))
            if t.name not in variables and form is not None and self._old_form(t, form, {scope: t.obj}):
                return self.target(t, sc)
            if t.name not in variables:
                self.error("E110", f"a {obj_t} has no state `{t.name}`", t,
                           self.suggest(t.name, variables) or f"declare it under `state:` with `of: {scope}`")
                return None
            kinds = {"piece": RefKind.PIECE_VAR, "seat": RefKind.SEAT_VAR, "card": RefKind.CARD_VAR}
            t.ref = Ref(kinds[scope], t.name)
            return variables[t.name]
        self.error("E127", "only a name, `x.state` or an item of a list or map (`xs[i]`, `m[k]`) "
                           "can be assigned", t)
        return None

    def _peek(self, e: n.Expr, sc: Scope) -> Type:
        """The type of `e` with no problem reported (they are, where `e` is checked for real)."""
        saved, self.report = self.report, Report()
        try:
            return self.expr(e, sc)
        finally:
            self.report = saved

    def _item_target(self, t: n.Expr, sc: Scope) -> Type | None:
        """`xs[i] = ...`, `m[k] = ...` or `m.key = ...`: the list or map must be a place itself;
        the value stored there is a new list or map with that item changed."""
        container = t.obj  # type: ignore[attr-defined]
        typ = self.target(container, sc)
        if typ is None:
            return None
        if isinstance(t, n.Attr):
            t.ref = Ref(RefKind.MAP_ITEM, t.name, zero(map_types(typ)[1]))
            return map_types(typ)[1]
        assert isinstance(t, n.Index)
        it = self.expr(t.index, sc)
        if is_map(typ):
            key_t, value_t = map_types(typ)
            if not compatible(it, key_t):
                self.type_error(f"the keys of this map are {key_t}, not {it}", t.index)
                return None
            t.ref = Ref(RefKind.MAP_ITEM, "", zero(value_t))
            return value_t
        if is_list(typ):
            if not compatible(it, INT):
                self.type_error(f"a list index must be int, not {it}", t.index)
                return None
            t.ref = Ref(RefKind.LIST_ITEM)
            return elem(typ)
        if typ != ANY:
            self.type_error(f"only items of lists and maps can be set, not of a {typ}", t)
        return None

    def s_Assign(self, s: n.Assign, sc: Scope) -> None:
        typ = self.target(s.target, sc)
        vt = self.value_of_statement(s.value, sc)
        if typ is not None and not compatible(typ, vt):
            self.type_error(f"cannot store a {vt} in a {typ}", s)

    def s_AugAssign(self, s: n.AugAssign, sc: Scope) -> None:
        typ = self.target(s.target, sc)
        if typ is None:
            return
        vt = self.expr(s.value, sc)
        if not (compatible(typ, INT) and compatible(vt, INT)):
            self.type_error(f"`{s.op}` works on ints, not {typ} and {vt}", s)

    def s_Do(self, s: n.Do, sc: Scope) -> None:
        call = s.expr
        if not isinstance(call, n.Call):
            self.error("E128", "this line computes a value and does nothing with it", s,
                       "assign it (`x = ...`), or use it in an `if`")
            return
        name = call.name
        b = self.sym.builtins.get(name)
        if b is not None and b.effect:
            self.builtin_call(call, b, sc)
            return
        if name in self.sym.procedures:
            params = self.sym.procedures[name]
            self.args(call, name, params, sc)
            call.ref = Ref(RefKind.PROCEDURE, name)
            self.note_call(f"proc:{name}", call.loc)
            return
        if name in self.sym.functions or b is not None:
            self.error("E128", f"`{name}(...)` gives a value and does nothing on its own", s)
            return
        effects = [k for k, v in self.sym.builtins.items() if v.effect]
        self.error("E110", f"unknown procedure `{name}`", call,
                   self.suggest(name, list(self.sym.procedures) + effects))

    def s_Move(self, s: n.Move, sc: Scope) -> None:
        typ = self.expr(s.what, sc)
        self.want(s.dest, sc, PILE, "the destination of `move`")
        if not (typ in (CARD, PILE, ANY, NONE) or (is_list(typ) and compatible(elem(typ), CARD))):
            self.type_error(f"what `move` moves must be a card, a list of cards or a pile, not {typ}", s.what)

    def s_Draw(self, s: n.Draw, sc: Scope) -> None:
        self.want(s.count, sc, INT, "how many cards `draw` takes")
        self.want(s.source, sc, PILE, "the pile `draw` takes from")
        self.want(s.dest, sc, PILE, "the destination of `draw`")

    def s_Shuffle(self, s: n.Shuffle, sc: Scope) -> None:
        self.want(s.pile, sc, PILE, "what `shuffle` shuffles")

    def s_Emit(self, s: n.Emit, sc: Scope) -> None:
        if s.event in BUILTIN_EVENTS:
            self.error("E129", f"`{s.event}` is raised by the game itself", s)
        elif s.event in self.sym.board_events:
            self.error("E129", f"`{s.event}` is raised by the board itself, as its pieces move", s)
        params = self.out.event_params.get(s.event, {})
        if len(s.args) != len(params):
            for a in s.args:
                self.expr(a, sc)
            if s.event in self.out.event_params:
                self.error("E124", f"event `{s.event}` carries {len(params)} value(s), not {len(s.args)}", s,
                           f"emit {s.event}({', '.join(f'{k}: {v}' for k, v in params.items())})")
        else:
            for (pname, ptype), a in zip(params.items(), s.args):
                t = self.expr(a, sc)
                if not compatible(t, ptype):
                    self.type_error(f"`{pname}` of event `{s.event}` must be {ptype}, not {t}", a)
        self.note_call(f"event:{s.event}", s.loc)

    def s_Return(self, s: n.Return, sc: Scope) -> None:
        if sc.procedure is None:
            self.error("E145", "`return` leaves a procedure, and this is not one", s,
                       "a step or trigger ends at its last line; use `if` to skip the rest")
            if s.value is not None:
                self.expr(s.value, sc)
            return
        if s.value is not None:
            self._returns[sc.procedure].append((self.value_of_statement(s.value, sc), s.value))

    def s_Proceed(self, s: n.Proceed, sc: Scope) -> None:
        self.error("E143", "`proceed` says where the extended rule runs: only in an `around:` extension", s)

    def s_End(self, s: n.End, sc: Scope) -> None:
        pass

    def s_Pass(self, s: n.Pass, sc: Scope) -> None:
        pass

    def s_Break(self, s: n.Break, sc: Scope) -> None:
        if not sc.loops:
            self.error("E130", "`break` outside a loop", s)

    def s_Say(self, s: n.Say, sc: Scope) -> None:
        self.expr(s.message, sc)
        # what is said is computed only when somebody listens (a person, a replay): it must not
        # draw chance, or a game told aloud would not be the game played in silence
        drawn = self._draws_chance(s.message, set())
        if drawn is not None:
            self.error("E147", f"`say` may not draw chance: `{drawn}` shuffles or draws at random",
                       s, "compute the value before the `say`, with `let`")

    def _draws_chance(self, e: n.Expr, seen: set[str]) -> str | None:
        """The built-in drawing from the game's generator that evaluating `e` may call (directly or
        in a function it calls), or None."""
        for x in n.walk(e):
            if not isinstance(x, n.Call) or not isinstance(x.ref, Ref):
                continue
            if x.ref.kind is RefKind.BUILTIN and getattr(x.ref.extra, "rng", False):
                return x.name
            fn = self.rules.tree(f"functions.{x.name}") if x.ref.kind is RefKind.FUNCTION else None
            if fn is not None and x.name not in seen:
                seen.add(x.name)
                found = self._draws_chance(fn, seen)
                if found is not None:
                    return found
        return None

    def s_If(self, s: n.If, sc: Scope) -> None:
        for br in s.branches:
            self.want_bool(br.cond, sc, "condition")
            self.block(br.body, sc.child())
        if s.orelse is not None:
            self.block(s.orelse, sc.child())

    def s_For(self, s: n.For, sc: Scope) -> None:
        et = self.iterate(s.source, sc, "`for` goes through a list or a pile, not a {}")
        inner = sc.child(loops=sc.loops + 1)
        self._keeps_turn(s.var, sc, s)
        self._keeps_type(s.var, et, sc, s)
        s.rebinds = s.var in sc.names
        s.ref = inner.bind(s.var, et)
        self.block(s.body, inner)

    def s_While(self, s: n.While, sc: Scope) -> None:
        self.want_bool(s.cond, sc, "condition")
        self.block(s.body, sc.child(loops=sc.loops + 1))

    def s_Choose(self, s: n.Choose, sc: Scope) -> None:
        if s.prompt is not None:
            self.expr(s.prompt, sc)
        if s.by is not None:
            self.want(s.by, sc, SEAT, "the seat that chooses (`by`)")
        elif sc.decider is None:
            self.error("E135", "say who chooses: `choose \"...\" by SEAT:`", s)
        for opt in s.options:
            osc = sc.child()
            if opt.var is not None and opt.source is not None:
                et = self.iterate(opt.source, sc, "an option goes through a list or a pile, not a {}")
                self._keeps_turn(opt.var, sc, opt)
                self._keeps_type(opt.var, et, sc, opt)
                opt.ref = osc.bind(opt.var, et)
            seen = {opt.var}
            for clause in opt.inner:  # `for b in ...` after `for a in ...`: b sees a
                if clause.var in seen:
                    self.error("E125", f"the option's `for`s name `{clause.var}` twice", clause,
                               "give each `for` its own name")
                seen.add(clause.var)
                cet = self.iterate(clause.source, osc, "an option goes through a list or a pile, not a {}")
                self._keeps_turn(clause.var, osc, clause)
                self._keeps_type(clause.var, cet, sc, clause)
                clause.ref = osc.bind(clause.var, cet)
            if opt.cond is not None:
                self.want_bool(opt.cond, osc, "an option's `if`")
            self.expr(opt.label, osc)
            self.block(opt.body, osc)

    def s_Simultaneously(self, s: n.Simultaneously, sc: Scope) -> None:
        et = self.iterate(s.seats, sc, "`for` goes through a list or a pile, not a {}")
        if et not in (SEAT, ANY):
            self.type_error(f"`simultaneously` goes through seats, not {et}", s.seats)
        if sc.in_simul or any(isinstance(x, n.Simultaneously) for b in s.body for x in n.walk(b)):
            self.error("E134", "`simultaneously` blocks cannot nest", s)
        inner = sc.child(loops=0, decider=Ref(RefKind.SIMUL_SEAT, s.var), in_simul=True)
        s.ref = inner.bind(s.var, SEAT)
        self.block(s.body, inner)

    # ---- expressions ---------------------------------------------------------------------------

    def expr(self, e: n.Expr, sc: Scope) -> Type:
        e.typ = getattr(self, "x_" + type(e).__name__)(e, sc)
        return e.typ

    def want(self, e: n.Expr, sc: Scope, want: Type, what: str, loose: bool = False) -> Type:
        t = self.expr(e, sc)
        if not compatible(t, want):
            shown = "true or false (bool)" if want == BOOL and not loose else want
            self.type_error(f"{what} must be {shown}, " + (f"but this is {t}" if loose or want == BOOL
                                                           else f"not {t}"), e)
        return t

    def want_bool(self, e: n.Expr, sc: Scope, what: str, loose: bool = False) -> None:
        self.want(e, sc, BOOL, what, loose)

    def iterate(self, e: n.Expr, sc: Scope, message: str) -> Type:
        t = self.expr(e, sc)
        et = iterable_elem(t)
        if et is None:
            self.type_error(message.format(t), e)
            return ANY
        return et

    def x_Num(self, e: n.Num, sc: Scope) -> Type:
        return INT

    def x_Text(self, e: n.Text, sc: Scope) -> Type:
        for p in e.parts:
            if isinstance(p, n.Expr):
                self.expr(p, sc)
        return TEXT

    def x_Bool(self, e: n.Bool, sc: Scope) -> Type:
        return BOOL

    def x_NoneLit(self, e: n.NoneLit, sc: Scope) -> Type:
        return NONE

    def x_Name(self, e: n.Name, sc: Scope) -> Type:
        name, sym = e.id, self.sym
        if name in sc.names:
            e.ref = Ref(RefKind.LOCAL, name, sc.names[name])
            self._hidden(e, sc.names[name])
            return sc.names[name].typ
        if name in sym.params:
            value, typ = sym.params[name]
            e.ref = Ref(RefKind.PARAM, name, value)
            return typ
        if name == "round":
            e.ref = Ref(RefKind.GLOBAL, "round")
            return INT
        if name in sym.globals:
            e.ref = Ref(RefKind.GLOBAL, name)
            return sym.globals[name]
        if name in sym.piles:
            of = sym.piles[name]
            if of == "?":
                return ANY  # a pile of an unknown owner: reported where it is declared
            if of != "game":
                self.error("E121", f"pile `{name}` is one per {of}: say whose, as `{name}(...)`", e)
                return ANY
            e.ref = Ref(RefKind.PILE, name)
            return PILE
        if name in sym.dice:
            if sym.dice[name] is not None:
                self.error("E121", f"`{name}` is a family of dice: say which, as `{name}(...)`", e)
                return ANY
            e.ref = Ref(RefKind.DIE, name)
            return DIE
        if name in sym.boards:
            e.ref = Ref(RefKind.BOARD, name)
            return BOARD
        if name in sym.pieces:
            e.ref = Ref(RefKind.PIECES, name)
            return listof(PIECE)
        if name == "seats":
            e.ref = Ref(RefKind.SEATS)
            return listof(SEAT)
        self.error("E110", f"unknown name `{name}`", e,
                   self.suggest(name, list(sc.names) + sym.global_names()))
        return ANY

    def x_Attr(self, e: n.Attr, sc: Scope) -> Type:
        typ = self.expr(e.obj, sc)
        sym, name = self.sym, e.name
        if typ == CARD:
            if name == "type":
                e.ref = Ref(RefKind.CARD_TYPE)
                return TEXT
            if name == "face_up":
                e.ref = Ref(RefKind.CARD_FACE_UP)
                return BOOL
            if name == "pile":
                e.ref = Ref(RefKind.CARD_PILE)
                return PILE
            if name in sym.card_props:
                e.ref = Ref(RefKind.CARD_PROP, name)
                return sym.card_props[name]
            if name in sym.card_vars:
                e.ref = Ref(RefKind.CARD_VAR, name)
                return sym.card_vars[name]
            form = self.old_attrs.get(("card", name))
            if form is not None and self._old_form(e, form, {"card": e.obj}):
                return self.expr(e, sc)
            have = ["type", "face_up", "pile", *sym.card_props, *sym.card_vars]
        elif typ == PIECE:
            if name == "name":
                e.ref = Ref(RefKind.PIECE_NAME)
                return TEXT
            if name in sym.piece_vars:
                e.ref = Ref(RefKind.PIECE_VAR, name)
                return sym.piece_vars[name]
            form = self.old_attrs.get(("piece", name))
            if form is not None and self._old_form(e, form, {"piece": e.obj}):
                return self.expr(e, sc)
            have = ["name", *sym.piece_vars]
        elif typ == SEAT:
            if name == "number":
                e.ref = Ref(RefKind.SEAT_NUMBER)
                return INT
            if name == "pieces":
                e.ref = Ref(RefKind.SEAT_PIECES)
                return listof(PIECE)
            if name in sym.seat_vars:
                e.ref = Ref(RefKind.SEAT_VAR, name)
                return sym.seat_vars[name]
            form = self.old_attrs.get(("seat", name))
            if form is not None and self._old_form(e, form, {"seat": e.obj}):
                return self.expr(e, sc)
            have = ["number", "pieces", *sym.seat_vars]
        elif is_map(typ) and compatible(map_types(typ)[0], TEXT):
            value_t = map_types(typ)[1]
            e.ref = Ref(RefKind.MAP_GET, name, zero(value_t))  # `m.key` reads `m["key"]`
            return value_t
        elif typ == ANY:
            return ANY  # an earlier error (reported where it is) or an empty list
        else:
            self.error("E120", f"type error: a {typ} has no `.{name}`", e)
            return ANY
        self.error("E110", f"a {typ} has no `{name}`", e, self.suggest(name, have))
        return ANY

    def x_Index(self, e: n.Index, sc: Scope) -> Type:
        typ = self.expr(e.obj, sc)
        ityp = self.expr(e.index, sc)
        if is_map(typ):
            key_t, value_t = map_types(typ)
            if not compatible(ityp, key_t):
                return self.type_error(f"the keys of this map are {key_t}, not {ityp}", e.index)
            e.ref = Ref(RefKind.MAP_GET, "", zero(value_t))  # an absent key reads as 0, false or none
            return value_t
        if not compatible(ityp, INT):
            return self.type_error(f"a list index must be int, not {ityp}", e.index)
        if not (is_list(typ) or typ == ANY):
            return self.type_error(f"only lists and maps can be indexed, not {typ}", e.obj)
        return elem(typ)

    def x_ListLit(self, e: n.ListLit, sc: Scope) -> Type:
        typ: Type = NONE
        for item in e.items:
            it = self.expr(item, sc)
            if not compatible(typ, it):
                return self.type_error(f"a list mixes {typ} and {it}", item)
            typ = join(typ, it)
        return listof(ANY if typ == NONE else typ)

    def x_MapLit(self, e: n.MapLit, sc: Scope) -> Type:
        key_t: Type = NONE
        value_t: Type = NONE
        for k, v in zip(e.keys, e.values):
            kt, vt = self.expr(k, sc), self.expr(v, sc)
            if not compatible(key_t, kt):
                return self.type_error(f"a map mixes keys of {key_t} and {kt}", k)
            if not compatible(value_t, vt):
                return self.type_error(f"a map mixes values of {value_t} and {vt}", v)
            key_t, value_t = join(key_t, kt), join(value_t, vt)
        if key_t not in (NONE, ANY, *KEY_TYPES):
            return self.type_error(f"a map's keys are int, text, seat, piece or card, not {key_t}", e)
        return mapof(ANY if key_t == NONE else key_t, ANY if value_t == NONE else value_t)

    def x_Comp(self, e: n.Comp, sc: Scope) -> Type:
        src_t = self.expr(e.source, sc)
        et = iterable_elem(src_t)
        if et is None:
            return self.type_error(f"cannot go through a {src_t}", e.source)
        inner = sc.child()
        e.ref = inner.bind(e.var, et)
        if e.cond is not None:
            self.want_bool(e.cond, inner, "a filter")
        for clause in e.inner:  # `for b in ...` inside `for a in ...`: b sees a
            ct = self.expr(clause.source, inner)
            cet = iterable_elem(ct)
            if cet is None:
                self.type_error(f"cannot go through a {ct}", clause.source)
                cet = ANY
            clause.ref = inner.bind(clause.var, cet)
            if clause.cond is not None:
                self.want_bool(clause.cond, inner, "a filter")
        body_t = self.expr(e.item, inner)
        return listof(body_t)

    def x_IfExpr(self, e: n.IfExpr, sc: Scope) -> Type:
        self.want_bool(e.cond, sc, "condition")
        a = self.expr(e.then, sc)
        b = self.expr(e.orelse, sc)
        if not compatible(a, b):
            return self.type_error(f"the two branches give {a} and {b}", e)
        return join(a, b)

    def _logic(self, e: n.And | n.Or, sc: Scope, word: str) -> Type:
        for side in (e.left, e.right):
            t = self.expr(side, sc)
            if not compatible(t, BOOL):
                self.type_error(f"`{word}` needs true or false on both sides, but this is {t}", side)
        return BOOL

    def x_And(self, e: n.And, sc: Scope) -> Type:
        return self._logic(e, sc, "and")

    def x_Or(self, e: n.Or, sc: Scope) -> Type:
        return self._logic(e, sc, "or")

    def x_Not(self, e: n.Not, sc: Scope) -> Type:
        t = self.expr(e.operand, sc)
        if not compatible(t, BOOL):
            self.type_error(f"`not` needs true or false, but this is {t}", e.operand)
        return BOOL

    def x_Compare(self, e: n.Compare, sc: Scope) -> Type:
        a = self.expr(e.left, sc)
        b = self.expr(e.right, sc)
        if e.op in ("==", "!="):
            if not compatible(a, b):
                return self.type_error(f"cannot compare {a} with {b}", e)
        elif not (compatible(a, INT) and compatible(b, INT)):
            return self.type_error(f"`{e.op}` compares numbers, not {a} and {b}", e)
        return BOOL

    def x_In(self, e: n.In, sc: Scope) -> Type:
        a = self.expr(e.item, sc)
        b = self.expr(e.container, sc)
        et = iterable_elem(b)
        if et is None:
            return self.type_error(f"`in` looks inside a list or pile, not {b}", e.container)
        if not compatible(a, et):
            return self.type_error(f"a {a} is never in a list of {et}", e)
        return BOOL

    def x_Range(self, e: n.Range, sc: Scope) -> Type:
        a = self.expr(e.lo, sc)
        b = self.expr(e.hi, sc)
        if not (compatible(a, INT) and compatible(b, INT)):
            return self.type_error("a range `a..b` needs two ints", e)
        return listof(INT)

    def x_BinOp(self, e: n.BinOp, sc: Scope) -> Type:
        a = self.expr(e.left, sc)
        b = self.expr(e.right, sc)
        if e.op == "+" and a == b == TEXT:
            return TEXT
        if e.op == "+" and is_list(a) and is_list(b):
            if not compatible(a, b):
                return self.type_error(f"cannot join {a} and {b}", e)
            return join(a, b)
        if not (compatible(a, INT) and compatible(b, INT)):
            return self.type_error(f"`{e.op}` works on ints, not {a} and {b}", e)
        return INT

    def x_Neg(self, e: n.Neg, sc: Scope) -> Type:
        a = self.expr(e.operand, sc)
        if not compatible(a, INT):
            return self.type_error(f"`-` works on ints, not {a}", e)
        return INT

    def x_Call(self, e: n.Call, sc: Scope) -> Type:
        name, sym = e.name, self.sym
        b = sym.builtins.get(name)
        if b is not None:
            if b.effect:
                self.error("E128", f"`{name}(...)` does things and has no value", e,
                           "call it as a statement on its own line")
                return ANY
            return self.builtin_call(e, b, sc)
        if name in sym.piles:
            return self.pile_of(e, sc)
        if name in sym.dice:
            return self.die_of(e, sc)
        if name in sym.functions:
            params = sym.functions[name]
            self.args(e, name, params, sc)
            e.ref = Ref(RefKind.FUNCTION, name)
            self.note_call(f"fn:{name}", e.loc)
            return self.out.function_types.get(name, ANY)
        if name in sym.procedures:
            if name in self.out.procedure_types:  # it gives a value with `return`
                if e is not self._value_call:
                    self.error("E144", f"procedure `{name}` does things: its value goes only to "
                                       "`let x = ...`, `x = ...` or `return ...`", e,
                               "give it its own line: `let v = ...`")
                self._value_call = None
                self.args(e, name, sym.procedures[name], sc)
                e.ref = Ref(RefKind.PROCEDURE, name)
                self.note_call(f"proc:{name}", e.loc)
                return self.out.procedure_types[name]
            for a in e.args:
                self.expr(a, sc)
            self.error("E123", f"`{name}` is a procedure (it does things); it has no value", e,
                       "call it as a statement on its own line, or give its value with `return`")
            return ANY
        form = self.old_calls.get(name)
        call = form.call if form is not None else None
        if form is not None and call is not None and len(call[1]) == len(e.args) and \
                self._old_form(e, form, dict(zip(call[1], e.args))):
            return self.expr(e, sc)
        for a in e.args:
            self.expr(a, sc)
        if name == "proceed":  # in a value: an extension of one reads the rule's value as `base`
            self.error("E143", "`proceed` runs an extended rule's statements and gives no value", e,
                       "in an `around:` of a value (a function, `until`, `if` ...), `base` is the "
                       "rule's value: `around: \"base and ...\"`")
            return ANY
        self.error("E110", f"unknown function `{name}`", e, self.suggest(name, sym.global_names()))
        return ANY

    def _old_args(self, e: n.Call, params: dict, sc: Scope) -> bool:
        """A call written with the arguments of an older form of the game (`hand(s)` of a pile that
        was each seat's and is each piece's now, `cards_in_hand(s)` of a function that takes a piece
        now): read as its new form, the same call, as the game's `renamed:` says (`hand(seat)` is
        `hand(car_of(seat))`), with its warning. The old form's parameters named `seat`, `piece` or
        `card` say what the old call was given; True when the call was read as its new form."""
        form = self.old_calls.get(e.name)
        call = form.call if form is not None else None
        if form is None or call is None or len(call[1]) != len(e.args) or len(params) != len(e.args) \
                or id(e) in self._renaming:
            return False
        if form not in self._old_trees:
            self._old_trees[form] = parse_expr(form.new, self.report)
        new = self._old_trees[form]
        if not (isinstance(new, n.Call) and new.name == e.name):
            return False
        types = [self._peek(a, sc) for a in e.args]
        if all(compatible(t, p) for t, p in zip(types, params.values())):
            return False   # it fits as it is written
        said = {"seat": SEAT, "piece": PIECE, "card": CARD}
        if not all(compatible(t, said[p]) for t, p in zip(types, call[1]) if p in said):
            return False
        return self._old_form(e, form, dict(zip(call[1], e.args)))

    def _renamed(self, e: n.Call, check: Callable[[], Any]) -> Any:
        """`check` of a call just read as its new form (which is not read as one again)."""
        self._renaming.add(id(e))
        try:
            return check()
        finally:
            self._renaming.discard(id(e))

    def args(self, e: n.Call, name: str, params: dict, sc: Scope) -> None:
        if len(e.args) == len(params) and self._old_args(e, params, sc):
            self._renamed(e, lambda: self.args(e, name, params, sc))
            return
        if len(e.args) != len(params):
            for a in e.args:
                self.expr(a, sc)
            self.error("E124", f"`{name}` takes {len(params)} argument(s), got {len(e.args)}", e,
                       f"{name}({', '.join(f'{k}: {v}' for k, v in params.items())})")
            return
        for (pname, ptype), a in zip(params.items(), e.args):
            t = self.expr(a, sc)
            if not compatible(t, ptype):
                self.type_error(f"argument `{pname}` of `{name}` must be {ptype}, not {t}", a)

    def die_of(self, e: n.Call, sc: Scope) -> Type:
        """`level(3)`: a die of a family, by its number or name."""
        name = e.name
        key = self.sym.dice[name]
        if key is None:
            for a in e.args:
                self.expr(a, sc)
            self.error("E122", f"`{name}` is a single die: write `{name}` without parentheses", e)
            return ANY
        if len(e.args) != 1:
            for a in e.args:
                self.expr(a, sc)
            self.error("E122", f"`{name}(...)` takes one argument: which die of the family", e)
            return ANY
        t = self.expr(e.args[0], sc)
        if not compatible(t, key):
            self.type_error(f"the dice of `{name}` are named by {'numbers' if key == INT else 'names'}, "
                            f"not by {t}", e.args[0])
        e.ref = Ref(RefKind.DIE_OF, name, key)
        return DIE

    def pile_of(self, e: n.Call, sc: Scope) -> Type:
        """`hand(s)`, `column(3)`: the pile of a seat, a piece or a board's place."""
        name = e.name
        scope = self.sym.piles[name]
        if scope == "?":
            for a in e.args:
                self.expr(a, sc)
            return ANY
        if scope == "game":
            self.error("E122", f"`{name}` is a single pile: write `{name}` without parentheses", e)
            return ANY
        if len(e.args) != 1:
            self.error("E122", f"`{name}(...)` takes one argument", e)
            return ANY
        typ = self.expr(e.args[0], sc)
        if scope in ("seat", "piece"):
            if not compatible(typ, SEAT if scope == "seat" else PIECE):
                if self._old_args(e, {"of": SEAT if scope == "seat" else PIECE}, sc):
                    return self._renamed(e, lambda: self.expr(e, sc))
                return self.type_error(f"`{name}` is one per {scope}; this is a {typ}", e.args[0])
        elif not compatible(typ, INT):
            return self.type_error(f"`{name}` is one per place of `{scope}`: "
                                   f"give a place number, not a {typ}",
                                   e.args[0])
        e.ref = Ref(RefKind.PILE_OF, name, scope)
        return PILE

    def builtin_call(self, e: n.Call, b: Builtin, sc: Scope) -> Type:
        """Arity and argument types from the built-in's signature, with `T` bound by its uses."""
        e.ref = Ref(RefKind.BUILTIN, b.name, b)
        required = sum(not p.optional for p in b.params)
        if not required <= len(e.args) <= len(b.params):
            for a in e.args:
                self.expr(a, sc)
            shown = ", ".join(f"[{p.type}]" if p.optional else str(p.type) for p in b.params)
            count = str(required) if required == len(b.params) else f"{required} to {len(b.params)}"
            self.error("E124", f"`{b.name}` takes {count} argument(s), got {len(e.args)}", e,
                       f"{b.name}({shown})")
            return _bind(b.returns, ANY)
        errors = self.report.errors
        bound: Type = ANY
        for p, a in zip(b.params, e.args):
            t = self.expr(a, sc)
            want = p.type
            if isinstance(want, Items):
                et = iterable_elem(t)
                if et is None:
                    self.type_error(f"{p.what} must be a list or a pile, not {t}", a)
                    continue
                if want.elem is not None and not compatible(et, want.elem):
                    self.type_error(f"{p.what} must be a list of {want.elem}, not of {et}", a)
                bound = et
            elif isinstance(want, Bound):
                if isinstance(want, PlainBound) and t not in (INT, TEXT, BOOL, ANY):
                    self.type_error(f"{p.what} must be a number, a text or true/false, not {t}", a)
                bound = t
            elif isinstance(want, OfKind):  # a board of this kind
                if not compatible(t, BOARD):
                    self.type_error(f"{p.what} must be a board, not {t}", a)
                elif isinstance(a, n.Name) and isinstance(a.ref, Ref) and a.ref.kind is RefKind.BOARD \
                        and self.sym.boards[a.ref.name] != want.kind:
                    actual = KINDS[self.sym.boards[a.ref.name]].noun
                    self.error("E150", f"board `{a.ref.name}` is {actual}, not {KINDS[want.kind].noun}", a)
            elif not compatible(t, want):
                self.type_error(f"{p.what} must be {want}, not {t}", a)
        if b.kind is not None and b.kind not in self.sym.boards.values() and self.report.errors == errors:
            self.error("E150", f"`{b.name}` needs {KINDS[b.kind].noun} (a board of kind {b.kind}), "
                       "and this game has none", e)
        for event in b.events:  # the triggers of what it raises run after it
            self.note_call(f"event:{event}", e.loc)
        return _bind(b.returns, bound)


def _bind(returns: Type | None, bound: Type) -> Type:
    """A built-in's value type, `T` being `bound`."""
    if returns is None:
        return ANY
    if isinstance(returns, Bound):
        return bound
    if isinstance(returns, ListType) and isinstance(returns.elem, Bound):
        return listof(bound)
    return returns


def may_wait(stmts: list[n.Stmt], waits: set[str]) -> bool:
    """Can running these statements stop for a decision (given what is known to wait)?"""
    for stmt in stmts:
        for node in n.walk(stmt):
            if isinstance(node, (n.Choose, n.Simultaneously)):
                return True
            if isinstance(node, n.Call) and isinstance(node.ref, Ref) and node.ref.kind is RefKind.PROCEDURE \
                    and f"proc:{node.name}" in waits:
                return True
            if isinstance(node, n.Emit) and f"event:{node.event}" in waits:
                return True
            if heard_waits(node, waits):
                return True
    return False


def heard_waits(node: n.Node, waits: set[str]) -> bool:
    """Is `node` a call of a board's effect one of whose events runs a trigger that may wait?"""
    return isinstance(node, n.Call) and isinstance(node.ref, Ref) and node.ref.kind is RefKind.BUILTIN \
        and any(f"event:{ev}" in waits for ev in node.ref.extra.events)


def _values(values: Any) -> str:
    """What an event of a board carries, in words: `a piece (the piece that moved) and ...`."""
    words = [f"{t} ({w})" for t, _n, w in values]
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]


def _short(key: str) -> str:
    return key.split(":", 1)[1]


def _put(tree: n.Expr, values: dict[str, n.Expr]) -> n.Expr:
    """`tree` with each name of `values` replaced by (a copy of) its value."""
    if isinstance(tree, n.Name) and tree.id in values:
        return n.clone(values[tree.id])
    for name in tree.__dataclass_fields__:
        if name in ("loc", "typ", "ref"):
            continue
        value = getattr(tree, name)
        if isinstance(value, n.Expr):
            setattr(tree, name, _put(value, values))
        elif isinstance(value, list):
            setattr(tree, name, [_put(v, values) if isinstance(v, n.Expr) else v for v in value])
    return tree


def typed_copy(rules: Rules) -> Rules:
    """The rules with a copy of every tree, for the checker to type (the parsed ones stay as they are)."""
    return replace(rules, rules={k: replace(r, tree=n.clone(r.tree)) for k, r in rules.rules.items()})
