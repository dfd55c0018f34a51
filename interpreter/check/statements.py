"""Racecraft: check, the typing of statements. Stage: the typing pass (`checker.py`), for every
block of a rule, in its site's scope. Reads the game's names (`symbols.py`) and the events'
parameters (`Checked.event_params`); its one output is the block annotated: each local bound
(`node.ref`, a `Local`), each place assigned resolved, each expression typed (`expressions.py`).

It checks what only statements have: places that can be assigned, `break` outside loops, who
chooses, `return` outside a procedure, what an event carries, a step that would change whose
turn it is, and a local given a value of another type inside a block. The values a procedure
gives with `return` are gathered (`returns`) for the pass to join into its type.
"""
from __future__ import annotations

from typing import ClassVar

from ..lang import nodes as n
from ..lang.parser import keywords
from ..lang.visit import Visitor
from ..lang.types import (ANY, BOARD, CARD, INT, KEY_TYPES, NONE, PIECE, PILE, SEAT, TEXT, Type, compatible,
                          elem, is_list, is_map, map_types, mapof, parse_type, zero)
from ..load.rules import Rules
from ..ir.sites import FUNCTION
from .blame import Problems
from .calls import CallGraph
from .checked import Callee, Checked, Ref, RefKind
from .expressions import Expressions, Scope, blank, empty_literal
from .oldforms import OldForms
from .symbols import BUILTIN_EVENTS, Symbols


class Statements(Visitor):
    """Checks blocks of statements: `block` checks each statement by its kind (`s_NAME`), in a
    `Scope` of the names it sees; expressions are typed by `ex`."""
    walks: ClassVar[tuple[type, ...]] = (n.Stmt,)

    def __init__(self, ex: Expressions, rules: Rules, out: Checked, problems: Problems, graph: CallGraph,
                 old: OldForms):
        self.ex = ex
        self.rules = rules   # the functions a `say` calls (`_draws_chance`)
        self.sym: Symbols = ex.sym
        self.out = out
        self.problems = problems
        self.error, self.type_error, self.suggest = problems.error, problems.type_error, problems.suggest
        self.unknown = problems.unknown
        self.graph = graph
        self.old = old
        self.returns: dict[str, list] = {}   # procedure being checked -> [(type, node)] of its returns

    def block(self, stmts: list[n.Stmt], sc: Scope) -> None:
        for s in stmts:
            self.case(type(s))(self, s, sc)

    def s_Let(self, s: n.Let, sc: Scope) -> None:
        typ = self.ex.value_of_statement(s.value, sc)
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
        s.ref.open = s.declared is None and empty_literal(s.value)
        self.problems.local_reads(s.ref, s.value)

    def _keeps_turn(self, name: str, sc: Scope, node: n.Node) -> None:
        """A step's statements run one after another in the turn, all with the one turn's name:
        one that gave it another value (`let`, `=`, a loop's or an option's variable) would change
        whose turn it is for the steps after it."""
        local = sc.names.get(name)
        if local is not None and local.turn:
            self.problems.refused_from_2(
                "E126", "W142", f"`{name}` is whose turn it is: a step cannot give it another value", node,
                "keep the other value under a name of its own: `let other = ...`")

    def _keeps_type(self, name: str, typ: Type, sc: Scope, node: n.Node) -> None:
        """A block inside another (a loop's, an option's, an `if`'s) that names a value as a local
        of the block around it does has one local with it: after the block, that local holds the
        value the block gave it. Of another type, the lines after would read it as what it was."""
        local = sc.names.get(name)
        if local is not None and not compatible(typ, local.typ) and not local.turn:
            self.problems.refused_from_2(
                "E120", "W143", f"type error: `{name}` is a {local.typ} here, and this gives it a {typ}: "
                f"the lines after this block would read the {typ} as a {local.typ}", node,
                f"give the {typ} a name of its own")

    def target(self, t: n.Expr, sc: Scope) -> Type | None:
        """The type of an assignable place (and `t.ref` set), or None after an error."""
        sym = self.sym
        if isinstance(t, n.Name):
            name = t.id
            if name in sc.names:
                self._keeps_turn(name, sc, t)
                t.ref = Ref(RefKind.LOCAL, name, sc.names[name])
                self.ex.hidden(t, sc.names[name])
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
            self.unknown(name, f"unknown name `{name}`", t,
                       self.suggest(name, list(sc.names) + list(sym.globals) + ["round"]) or
                       "declare it under `state:`, or introduce a local with `let`")
            return None
        if isinstance(t, n.Index) or (isinstance(t, n.Attr) and is_map(self.ex.peek(t.obj, sc))):
            return self._item_target(t, sc)
        if isinstance(t, n.Attr):
            obj_t = self.ex.expr(t.obj, sc)
            scope = {PIECE: "piece", SEAT: "seat", CARD: "card"}.get(obj_t)
            if scope is None:
                self.type_error(f"only state of a seat, piece or card can be set, not of a {obj_t}", t)
                return None
            variables = {"piece": sym.piece_vars, "seat": sym.seat_vars, "card": sym.card_vars}[scope]
            form = self.old.attrs.get((scope, t.name))
            if t.name not in variables and form is not None and self.old.rewrite(t, form, {scope: t.obj}):
                return self.target(t, sc)
            if t.name not in variables:
                self.unknown(t.name, f"a {obj_t} has no state `{t.name}`", t,
                           self.suggest(t.name, variables) or f"declare it under `state:` with `of: {scope}`")
                return None
            kinds = {"piece": RefKind.PIECE_VAR, "seat": RefKind.SEAT_VAR, "card": RefKind.CARD_VAR}
            t.ref = Ref(kinds[scope], t.name)
            return variables[t.name]
        self.error("E127", "only a name, `x.state` or an item of a list or map (`xs[i]`, `m[k]`) "
                           "can be assigned", t)
        return None

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
        it = self.ex.expr(t.index, sc)
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
        vt = self.ex.value_of_statement(s.value, sc)
        if typ is not None and not compatible(typ, vt):
            self.type_error(f"cannot store a {vt} in a {typ}", s)
        elif typ is not None:
            self._fill(s.target, vt)

    @staticmethod
    def _fill(t: n.Expr, vt: Type) -> None:
        """A local first given `[]` or `{}` becomes a list or map of what is first stored in it
        (`a = a + [c]`, `m[c] = 1`): the lines after read its cards as cards (as a list of
        anything, `{a}` said numbers and `first(a).value` read none)."""
        key: Type | None = None
        place = t
        if isinstance(t, n.Index):
            place, key = t.obj, t.index.typ
        elif isinstance(t, n.Attr):
            place, key = t.obj, TEXT
        if not (isinstance(place, n.Name) and blank(place)):
            return
        local = place.ref.extra
        if key is None:
            filled = vt
        elif is_map(local.typ) and key in KEY_TYPES and vt != ANY:
            filled = mapof(key, vt)
        else:
            return
        if filled != local.typ:
            local.typ, local.open = filled, False

    def s_AugAssign(self, s: n.AugAssign, sc: Scope) -> None:
        typ = self.target(s.target, sc)
        if typ is None:
            return
        vt = self.ex.expr(s.value, sc)
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
            self.ex.builtin_call(call, b, sc)
            return
        if name in self.sym.procedures:
            params = self.sym.procedures[name]
            self.ex.args(call, name, params, sc)
            call.ref = Ref(RefKind.PROCEDURE, name)
            self.graph.note(Callee.procedure(name), call.loc)
            return
        if name in self.sym.functions or b is not None:
            self.error("E128", f"`{name}(...)` gives a value and does nothing on its own", s)
            return
        effects = [k for k, v in self.sym.builtins.items() if v.effect]
        self.unknown(name, f"unknown procedure `{name}`", call,
                   self.suggest(name, list(self.sym.procedures) + effects))

    def s_Move(self, s: n.Move, sc: Scope) -> None:
        typ = self.ex.expr(s.what, sc)
        self.ex.want(s.dest, sc, PILE, "the destination of `move`")
        if not (typ in (CARD, PILE, ANY, NONE) or (is_list(typ) and compatible(elem(typ), CARD))):
            self.type_error(f"what `move` moves must be a card, a list of cards or a pile, not {typ}", s.what)

    def s_Draw(self, s: n.Draw, sc: Scope) -> None:
        self.ex.want(s.count, sc, INT, "how many cards `draw` takes")
        self.ex.want(s.source, sc, PILE, "the pile `draw` takes from")
        self.ex.want(s.dest, sc, PILE, "the destination of `draw`")

    def s_Shuffle(self, s: n.Shuffle, sc: Scope) -> None:
        self.ex.want(s.pile, sc, PILE, "what `shuffle` shuffles")

    def s_Emit(self, s: n.Emit, sc: Scope) -> None:
        if s.event in BUILTIN_EVENTS:
            self.error("E129", f"`{s.event}` is raised by the game itself", s)
        elif s.event in self.sym.board_events:
            self.error("E129", f"`{s.event}` is raised by the board itself, as its pieces move", s)
        params = self.out.event_params.get(s.event, {})
        if len(s.args) != len(params):
            for a in s.args:
                self.ex.expr(a, sc)
            if s.event in self.out.event_params:
                self.error("E124", f"event `{s.event}` carries {len(params)} value(s), not {len(s.args)}", s,
                           f"emit {s.event}({', '.join(f'{k}: {v}' for k, v in params.items())})")
        else:
            for (pname, ptype), a in zip(params.items(), s.args):
                t = self.ex.expr(a, sc)
                if not compatible(t, ptype):
                    self.type_error(f"`{pname}` of event `{s.event}` must be {ptype}, not {t}", a)
        self.graph.note(Callee.event(s.event), s.loc)

    def s_Return(self, s: n.Return, sc: Scope) -> None:
        if sc.procedure is None:
            self.error("E145", "`return` leaves a procedure, and this is not one", s,
                       "a step or trigger ends at its last line; use `if` to skip the rest")
            if s.value is not None:
                self.ex.expr(s.value, sc)
            return
        if s.value is not None:
            self.returns[sc.procedure].append((self.ex.value_of_statement(s.value, sc), s.value))

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
        self.ex.expr(s.message, sc)
        # what is said is computed only when somebody listens (a person, a replay): it must not
        # draw chance, or a game told aloud would not be the game played in silence
        drawn = self._draws_chance(s.message, set())
        if drawn is not None:
            self.error("E147", f"`say` may not draw chance: `{drawn}` does (a roll, a shuffle or a random "
                       "draw)", s, "compute the value before the `say`, with `let`")

    def _draws_chance(self, e: n.Expr, seen: set[str]) -> str | None:
        """The built-in drawing from the game's generator that evaluating `e` may call (directly or
        in a function it calls), or None."""
        for x in n.walk(e):
            if not isinstance(x, n.Call) or not isinstance(x.ref, Ref):
                continue
            if x.ref.kind is RefKind.BUILTIN and getattr(x.ref.extra, "rng", False):
                return x.name
            fn = self.rules.tree(FUNCTION.rule(x.name)) if x.ref.kind is RefKind.FUNCTION else None
            if fn is not None and x.name not in seen:
                seen.add(x.name)
                found = self._draws_chance(fn, seen)
                if found is not None:
                    return found
        return None

    def s_If(self, s: n.If, sc: Scope) -> None:
        for br in s.branches:
            self.ex.want_bool(br.cond, sc, "condition")
            self.block(br.body, sc.child())
        if s.orelse is not None:
            self.block(s.orelse, sc.child())

    def s_For(self, s: n.For, sc: Scope) -> None:
        et = self.ex.iterate(s.source, sc, "`for` goes through a list or a pile, not a {}")
        inner = sc.child(loops=sc.loops + 1)
        self._keeps_turn(s.var, sc, s)
        self._keeps_type(s.var, et, sc, s)
        s.rebinds = s.var in sc.names
        s.ref = inner.bind(s.var, et)
        self.block(s.body, inner)

    def s_While(self, s: n.While, sc: Scope) -> None:
        self.ex.want_bool(s.cond, sc, "condition")
        self.block(s.body, sc.child(loops=sc.loops + 1))

    def s_Choose(self, s: n.Choose, sc: Scope) -> None:
        if s.prompt is not None:
            self.ex.expr(s.prompt, sc)
        if s.by is not None:
            self.ex.want(s.by, sc, SEAT, "the seat that chooses (`by`)")
        elif sc.decider is None:
            self.error("E135", "say who chooses: `choose \"...\" by SEAT:`", s)
        for opt in s.options:
            osc = sc.child()
            if opt.var is not None and opt.source is not None:
                et = self.ex.iterate(opt.source, sc, "an option goes through a list or a pile, not a {}")
                self._keeps_turn(opt.var, sc, opt)
                self._keeps_type(opt.var, et, sc, opt)
                opt.ref = osc.bind(opt.var, et)
            seen = {opt.var}
            for clause in opt.inner:  # `for b in ...` after `for a in ...`: b sees a
                if clause.var in seen:
                    self.error("E125", f"the option's `for`s name `{clause.var}` twice", clause,
                               "give each `for` its own name")
                seen.add(clause.var)
                cet = self.ex.iterate(clause.source, osc, "an option goes through a list or a pile, not a {}")
                self._keeps_turn(clause.var, osc, clause)
                self._keeps_type(clause.var, cet, sc, clause)
                clause.ref = osc.bind(clause.var, cet)
            if opt.cond is not None:
                self.ex.want_bool(opt.cond, osc, "an option's `if`")
            if opt.board is not None and opt.place is not None:
                self.ex.want(opt.board, osc, BOARD, "the board of an option's `at`")
                t = self.ex.expr(opt.place, osc)
                if not (compatible(t, INT) or compatible(t, TEXT)):
                    self.ex.type_error("the place of an option's `at` is a number (or a cell's name), "
                                       f"not {t}", opt.place)
            self.ex.expr(opt.label, osc)
            self.block(opt.body, osc)

    def s_Simultaneously(self, s: n.Simultaneously, sc: Scope) -> None:
        et = self.ex.iterate(s.seats, sc, "`for` goes through a list or a pile, not a {}")
        if et not in (SEAT, ANY):
            self.type_error(f"`simultaneously` goes through seats, not {et}", s.seats)
        if sc.in_simul or any(isinstance(x, n.Simultaneously) for b in s.body for x in n.walk(b)):
            self.error("E134", "`simultaneously` blocks cannot nest", s)
        inner = sc.child(loops=0, decider=Ref(RefKind.SIMUL_SEAT, s.var), in_simul=True)
        s.ref = inner.bind(s.var, SEAT)
        self.block(s.body, inner)
