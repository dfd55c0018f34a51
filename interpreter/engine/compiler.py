"""A merged ruleset to a `Plan`: declarations to tables, rules to closures and machine code.

Statements that never wait for a decision become plain closures (fast); a statement that may
wait (a `choose`, a `simultaneously`, or a call that reaches one) becomes machine code whose
position is part of the game state, so a game can stop at any decision and be cloned there.
"""
from __future__ import annotations

import re

from lark import Tree

from ..boards import KINDS
from ..boards.base import BoardKind
from ..lang.diagnostics import Report, did_you_mean
from ..lang.parser import parse_block, parse_expr
from ..load.ruleset import Ruleset
from .expr import NIL, SAFE_BUILTINS, ExprCompiler, Scope, _const
from .statements import StatementGen
from .plan import (CALL, CHOOSE, EXEC, FOR_INIT, FOR_NEXT, HALT, JMP, JMPF, RET, SIMUL, TRACE,
                   Alternative, ChooseSpec, Plan)
from .state import EndGame, GameTooLong, RuleError
from .types import (ANY, BOARD, BOOL, DECLARABLE, INT, PIECE, PILE, SEAT, compatible, elem,
                    is_list, iterable_elem, listof, of_value)

BUILTIN_EVENTS = ("game_start", "phase_start", "phase_end", "round_start", "round_end",
                  "turn_start", "turn_end")


def _bd_copier(clones):
    """A copy of the board kinds' data, each by its kind's `clone` (most games have one board)."""
    if len(clones) == 1:
        (one,) = clones
        return lambda bd: [one(bd[0])]
    return lambda bd: [f(d) for f, d in zip(clones, bd)]


class _Emitter:
    def __init__(self):
        self.code: list = []
        self.breaks: list[list[int]] = []

    def emit(self, *ins) -> int:
        self.code.append(ins)
        return len(self.code) - 1

    def here(self) -> int:
        return len(self.code)

    def set(self, at: int, *ins) -> None:
        self.code[at] = ins


def _effects(code: list, pc: int) -> list | None:
    """The functions a block starting at `pc` runs before it jumps away, if it is nothing else."""
    fns = []
    while code[pc][0] in (EXEC, TRACE):
        if code[pc][0] == EXEC:
            fns.append(code[pc][2])
        pc += 1
    return fns if code[pc][0] == JMP else None


def _walk(tree):
    if isinstance(tree, Tree):
        yield tree
        for c in tree.children:
            yield from _walk(c)


class Compiler(StatementGen, ExprCompiler):
    def __init__(self, rs: Ruleset, n_seats: int, report: Report, situation=None):
        self.rs = rs
        self.situation = situation  # a scenario's block, run right after setup
        self.g = rs.game
        self.report = report
        self.src = ""
        self.plan = Plan(game_id=self.g.game.id, name=self.g.game.name, digest=rs.digest,
                         n_seats=n_seats)
        self.params: dict[str, tuple] = {}
        self.functions: dict[str, tuple] = {}   # name -> (params, value src)
        self.procedures: dict[str, tuple] = {}  # name -> (params, do src)
        self.proc_fns: dict[str, object] = {}   # name -> simple fn or code list
        self.trees: dict[int, Tree | None] = {}
        self.suspends: set[str] = set()         # "proc:NAME" / "event:NAME" that may wait
        self.handlers: dict[str, list] = {}     # event -> [trigger]
        self.func_types: dict[str, str] = {}
        self.ns: dict = {"__builtins__": dict(SAFE_BUILTINS)}  # what generated code can see
        self._k_names: dict[int, str] = {}
        self._k_keep: list = []
        self._fresh = 0
        self._pile_at: dict = {}

    # ---- declarations ---------------------------------------------------------------------

    def build(self) -> Plan:
        p, g = self.plan, self.g
        self._declare_pieces_boards()
        self._declare_piles()
        self._declare_cards()
        self._declare_state()
        for name, value in g.params.items():
            self.params[name] = (value, of_value(value))
        for name, fn in g.functions.items():
            self.functions[name] = (self._param_types(fn.params, name), fn.value)
        for name, pr in g.procedures.items():
            self.procedures[name] = (self._param_types(pr.params, name), pr.do)
        for tr in g.triggers:
            self.handlers.setdefault(str(tr.on), []).append(tr)
            if str(tr.on) not in BUILTIN_EVENTS and not self._emitted(str(tr.on)):
                self.report.add("E131", f"trigger `{tr.id}` waits for event `{tr.on}`, which no rule emits",
                                getattr(tr.on, "loc", None),
                                did_you_mean(tr.on, BUILTIN_EVENTS) or "use `emit NAME` in a rule, or a built-in event")
        self._find_suspending()
        self._compile_functions()
        self._compile_procedures()
        self._compile_flow()
        self._compile_result()
        p.max_rounds = g.limits.max_rounds
        p.max_steps = g.limits.max_steps
        return p

    def _param_types(self, params: dict, owner: str) -> dict:
        out = {}
        for pname, tname in params.items():
            t = DECLARABLE.get(str(tname))
            if t is None and str(tname).startswith("list[") and str(tname)[5:-1] in DECLARABLE:
                t = listof(DECLARABLE[str(tname)[5:-1]])
            if t is None:
                self.report.add("E111", f"unknown type `{tname}` for parameter `{pname}` of `{owner}`",
                                getattr(tname, "loc", None),
                                did_you_mean(tname, DECLARABLE) or "types: " + ", ".join(DECLARABLE))
                t = ANY
            out[str(pname)] = t
        return out

    def _declare_pieces_boards(self):
        p = self.plan
        for kind, pk in self.g.pieces.items():
            names = list(pk.names or [])
            if names and len(names) != pk.count:
                self.report.add("E132", f"pieces `{kind}` has {pk.count} pieces but {len(names)} names",
                                getattr(names[0], "loc", None))
            ids = []
            for i in range(pk.count):
                ids.append(p.n_pieces)
                p.piece_names.append(str(names[i]) if i < len(names) else f"{kind}{i + 1}")
                p.piece_kind.append(kind)
                p.n_pieces += 1
            p.kind_pieces[kind] = ids
        for name, b in self.g.boards.items():
            kind = KINDS[b.kind](name, len(p.board_names), b, p)
            p.board_names.append(name)
            p.board_kinds.append(kind)
            p.board_slots.append(b.slots if b.kind == "ranking" else 0)
            if type(kind).redeal_hidden is not BoardKind.redeal_hidden:
                p.hiding_kinds.append(kind)
        p.any_slots = any(p.board_slots)
        p.clone_bd = _bd_copier([k.clone for k in p.board_kinds])

    def _declare_piles(self):
        p = self.plan
        for name, pile in self.g.piles.items():
            scope = str(pile.of)
            if scope == "game":
                owners = [None]
                labels = [name]
            elif scope == "seat":
                owners = list(range(p.n_seats))
                labels = [f"{name}(seat {s + 1})" for s in owners]
            elif scope == "piece":
                owners = list(range(p.n_pieces))
                labels = [f"{name}({p.piece_names[i]})" for i in owners]
            elif scope in p.board_names:
                n = p.board_kinds[p.board_names.index(scope)].places
                owners = [None] * n
                labels = [f"{name}({i + 1})" for i in range(n)]
            else:
                self.report.add("E112", f"pile `{name}` belongs to `{scope}`, which is not game, seat, piece or a board",
                                getattr(pile.of, "loc", None), did_you_mean(scope, ["game", "seat", "piece", *p.board_names]))
                owners, labels = [None], [name]
            p.pile_base[name] = p.n_piles
            for owner, label in zip(owners, labels):
                p.pile_names.append(label)
                p.pile_decl.append(name)
                p.pile_visible.append(pile.visible)
                p.pile_owner.append(owner)
                p.pile_scope.append(scope)
                p.n_piles += 1
        p.unseen_piles = frozenset(i for i, vis in enumerate(p.pile_visible) if vis == "nobody")
        for name, pile in self.g.piles.items():
            if pile.refill_from is not None:
                src = str(pile.refill_from)
                if src not in self.g.piles:
                    self.report.add("E113", f"pile `{name}` refills from `{src}`, which is not a pile",
                                    getattr(pile.refill_from, "loc", None), did_you_mean(src, self.g.piles))
                elif self.g.piles[src].of != pile.of or str(pile.of) not in ("game", "seat", "piece"):
                    self.report.add("E113", "`refill_from` links two piles of one owner (both of: game, "
                                    "both of: seat or both of: piece)",
                                    getattr(pile.refill_from, "loc", None))
                else:
                    # one link per owner: a seat's pile refills from the same seat's pile
                    n = {"game": 1, "seat": p.n_seats, "piece": p.n_pieces}[str(pile.of)]
                    for i in range(n):
                        p.refill[p.pile_base[name] + i] = p.pile_base[src] + i

    def _declare_cards(self):
        p = self.plan
        self.card_prop_types: dict[str, str] = {}
        if not self.rs.cards:
            return
        seen = set()
        for ct in self.rs.cards:
            if ct.id in seen:
                self.report.add("E114", f"card type `{ct.id}` is defined twice", getattr(ct.id, "loc", None))
            seen.add(ct.id)
            for k, v in ct.props.items():
                t = of_value(v)
                old = self.card_prop_types.get(k)
                if old is not None and old != t:
                    self.report.add("E115", f"card property `{k}` is {old} on some cards and {t} on `{ct.id}`",
                                    getattr(ct.id, "loc", None))
                self.card_prop_types[k] = t
        for k in ("type", "face_up", "pile"):
            if k in self.card_prop_types:
                self.report.add("E115", f"card property `{k}` is built in and cannot be redefined", None)
        props = {k: [] for k in self.card_prop_types}
        for ti, ct in enumerate(self.rs.cards):
            p.card_types.append(str(ct.id))
            p.type_props.append(dict(ct.props))
            pile = str(ct.starts_in)
            if pile not in p.pile_base:
                self.report.add("E116", f"cards `{ct.id}` start in `{pile}`, which is not a pile",
                                getattr(ct.starts_in, "loc", None), did_you_mean(pile, p.pile_base))
                continue
            base = p.pile_base[pile]
            scope = self.g.piles[pile].of
            if ct.per_seat and scope != "seat":
                self.report.add("E116", f"`per_seat` cards start in a pile of each seat; `{pile}` is of {scope}",
                                getattr(ct.starts_in, "loc", None))
                continue
            if not ct.per_seat and scope != "game":
                self.report.add("E116", f"cards `{ct.id}` start in `{pile}`, a pile of each {scope}",
                                getattr(ct.starts_in, "loc", None), "set `per_seat: true`, or start in a pile of the game")
                continue
            targets = [base + s for s in range(p.n_seats)] if ct.per_seat else [base]
            for target in targets:
                for _ in range(ct.count):
                    p.card_type.append(ti)
                    p.card_start.append(target)
                    for k in props:
                        props[k].append(ct.props.get(k))
        p.card_props = props

    def _declare_state(self):
        p = self.plan
        self.var_decl: dict[tuple, str] = {}
        for name, var in self.g.state.items():
            t = DECLARABLE[var.type]
            init = var.initial
            if init is None and t in (INT,):
                init = 0
            if init is None and t == BOOL:
                init = False
            if init is not None and not compatible(of_value(init), t):
                self.report.add("E117", f"state `{name}` is {t} but starts as {init!r}",
                                getattr(name, "loc", None))
            if var.of == "game":
                p.global_init[name] = init
            elif var.of == "seat":
                p.seat_init[name] = init
            else:
                p.piece_init[name] = init
            self.var_decl[(var.of, name)] = t
            p.var_types[(var.of, name)] = t
            p.var_visible[(var.of, name)] = var.visible
        p.piece_init.setdefault("owner", None)
        p.var_types[("piece", "owner")] = SEAT
        # seat and piece variables live in one flat list: a variable's values for each seat
        # (or piece) side by side from its offset
        for inits, n in ((p.seat_init, p.n_seats), (p.piece_init, p.n_pieces)):
            for name, init in inits.items():
                p.var_at[name] = len(p.var_start)
                p.var_start.extend([init] * n)
        p.global_init["round"] = 0
        p.global_init["__rounds"] = 0

    def _emitted(self, event: str) -> bool:
        texts = [s.do for ph in self.g.phases for s in ph.steps] + [ph.do for ph in self.g.phases if ph.do]
        texts += [pr.do for pr in self.g.procedures.values()] + [t.do for t in self.g.triggers]
        if self.g.setup:
            texts.append(self.g.setup)
        pattern = re.compile(rf"\bemit\s+{re.escape(event)}\b")
        return any(pattern.search(str(t)) for t in texts)

    # ---- parse once, then analyse ---------------------------------------------------------

    def tree(self, src, block: bool = True):
        key = id(src)
        if key not in self.trees:
            self.trees[key] = parse_block(src, self.report) if block else parse_expr(src, self.report)
        return self.trees[key]

    def _find_suspending(self):
        bodies = {f"proc:{n}": self.tree(src) for n, (_p, src) in self.procedures.items()}
        for ev, trs in self.handlers.items():
            for tr in trs:
                bodies.setdefault(f"event:{ev}", None)
                bodies[f"trig:{tr.id}"] = self.tree(tr.do)
        changed = True
        while changed:
            changed = False
            for key, body in bodies.items():
                if key in self.suspends:
                    continue
                if key.startswith("event:"):
                    ev = key[6:]
                    if any(f"trig:{tr.id}" in self.suspends for tr in self.handlers.get(ev, [])):
                        self.suspends.add(key)
                        changed = True
                elif body is not None and self.may_wait(body):
                    self.suspends.add(key)
                    changed = True

    def may_wait(self, tree) -> bool:
        for t in _walk(tree):
            if t.data in ("choose_stmt", "simul_stmt"):
                return True
            if t.data == "expr_stmt" and t.children[0].data == "call":
                if f"proc:{t.children[0].children[0]}" in self.suspends:
                    return True
            if t.data == "emit_stmt" and f"event:{t.children[0]}" in self.suspends:
                return True
        return False

    # ---- functions and procedures ---------------------------------------------------------

    def _compile_functions(self):
        """Each user function becomes a Python function `_uf_NAME(st, params...)` of the plan.

        Two passes: the first learns each function's type (calls inside see `any`), the second
        translates with every type known and defines the functions.
        """
        for rnd in range(2):
            for name, (params, text) in self.functions.items():
                mark = len(self.report.items)
                py = {p: f"_p_{p}" for p in params}
                old, self.src = self.src, text
                tree = parse_expr(text, self.report)
                body, typ = self.gen(tree, Scope(params, rule=f"functions.{name}", py=py)) if tree else NIL
                self.src = old
                if rnd == 0:
                    del self.report.items[mark:]
                    self.func_types[name] = typ
                    continue
                args = "".join(f", {py[p]}" for p in params)
                # strings with `{...}` read their values from `env`
                env = "    env = {" + ", ".join(f"{p!r}: {py[p]}" for p in params) + "}\n" if "env" in body else ""
                code = f"def _uf_{name}(st{args}):\n{env}    return {body}\n"
                exec(compile(code, f"<function {name}>", "exec"), self.ns)  # noqa: S102 - generated

    def _compile_procedures(self):
        for name, (params, src) in self.procedures.items():
            body = self.tree(src)
            if body is None:
                continue
            sc = Scope(params, rule=f"procedures.{name}")
            old = self.src
            self.src = src
            if f"proc:{name}" in self.suspends:
                em = _Emitter()
                self.block_code(body.children, sc, em)
                em.emit(RET, self.where(body, sc))
                self.proc_fns[name] = em.code
            else:
                self.proc_fns[name] = self.block_simple(body.children, sc)
            self.src = old

    def where(self, node, sc: Scope):
        return (self.loc(node), sc.rule)

    # ---- statements: effects as closures (blocks are translated in statements.py) ----------

    def stmt(self, t, sc: Scope):
        method = getattr(self, "s_" + t.data, None)
        if method is None:  # pragma: no cover
            self.error("E100", f"unsupported statement `{t.data}`", t)
            return None
        return method(t, sc)

    def s_expr_stmt(self, t, sc):
        call = t.children[0]
        if not (isinstance(call, Tree) and call.data == "call"):
            self.error("E128", "this line computes a value and does nothing with it", t,
                       "assign it (`x = ...`), or use it in an `if`")
            return None
        name = str(call.children[0])
        args = [a for a in call.children[1:] if a is not None]
        if name in EFFECTS:
            return EFFECTS[name](self, args, call, sc)
        if name in self.functions or name in BUILTINS:
            self.error("E128", f"`{name}(...)` gives a value and does nothing on its own", t)
        else:  # procedures are called by the translated block (statements.py)
            self.error("E110", f"unknown procedure `{name}`", call,
                       did_you_mean(name, list(self.procedures) + list(EFFECTS)))
        return None

    def s_shuffle_stmt(self, t, sc):
        pile = self.want(t.children[0], sc, PILE, "what `shuffle` shuffles")
        return lambda st, env: st.shuffle(pile(st, env))

    def s_place_stmt(self, t, sc):
        piece = self.want(t.children[0], sc, PIECE, "what `place` puts on a board")
        board = self.want(t.children[1], sc, BOARD, "where `place` puts it")
        loc = self.loc(t)
        names = self.plan.piece_names

        def place(st, env):
            pc, b = piece(st, env), board(st, env)
            if st.pboard[pc] != -1:
                raise RuleError(f"`{names[pc]}` is already on a board", loc)
            slots = st.slots[b]
            for i, occupant in enumerate(slots):
                if occupant is None:
                    slots[i] = pc
                    st.pslot[pc] = i + 1
                    st.pboard[pc] = b
                    return
            raise RuleError("the board is full", loc)
        return place

    def s_swap_stmt(self, t, sc):
        a = self.want(t.children[0], sc, PIECE, "`swap` exchanges two pieces;")
        b = self.want(t.children[1], sc, PIECE, "`swap` exchanges two pieces;")
        loc = self.loc(t)

        def swap(st, env):
            x, y = a(st, env), b(st, env)
            if x is None or y is None or st.pboard[x] == -1 or st.pboard[x] != st.pboard[y]:
                raise RuleError("`swap` needs two pieces on the same board", loc)
            bx = st.pboard[x]
            sx, sy = st.pslot[x], st.pslot[y]
            st.slots[bx][sx - 1], st.slots[bx][sy - 1] = y, x
            st.pslot[x], st.pslot[y] = sy, sx
        return swap

    def s_emit_stmt(self, t, sc):
        event = str(t.children[0])
        if event in BUILTIN_EVENTS:
            self.error("E129", f"`{event}` is raised by the game itself", t)
        if event not in self.handlers:
            return lambda st, env: None
        calls = [self._trigger_simple(tr) for tr in self.handlers[event]]

        def emit(st, env):
            for c in calls:
                c(st)
        return emit

    def _trigger_simple(self, tr):
        fn = self.trigger_fn(tr)
        cond = self.trigger_cond(tr)
        rule = f"triggers.{tr.id}"
        loc = getattr(tr.id, "loc", None)

        def run(st):
            if cond is None or cond(st, {}):
                if st.trace is not None:
                    st.trace.append(("rule", rule, str(loc)))
                fn(st, {})
        return run

    def trigger_fn(self, tr):
        key = f"trig:{tr.id}"
        if key not in self.proc_fns:
            body = self.tree(tr.do)
            old = self.src
            self.src = tr.do
            sc = Scope({}, rule=f"triggers.{tr.id}")
            if body is None:
                self.proc_fns[key] = (lambda st, env: None) if key not in self.suspends else [(RET, (None, ""))]
            elif key in self.suspends:
                em = _Emitter()
                self.block_code(body.children, sc, em)
                em.emit(RET, self.where(body, sc))
                self.proc_fns[key] = em.code
            else:
                self.proc_fns[key] = self.block_simple(body.children, sc)
            self.src = old
        return self.proc_fns[key]

    def trigger_cond(self, tr):
        if tr.if_ is None:
            return None
        old = self.src
        try:
            fn, _ = self.compile_expr_text(tr.if_, Scope({}, rule=f"triggers.{tr.id}"), BOOL, "a trigger's `if`")
        finally:
            self.src = old
        return fn

    def s_end_stmt(self, t, sc):
        def end(st, env):
            raise EndGame()
        return end

    def s_say_stmt(self, t, sc):
        msg = self.template(t.children[0], sc)
        rule = sc.rule

        def say(st, env):
            if st.trace is not None:
                st.trace.append(("say", rule, msg(st, env)))
        return say

    def _loop_source(self, t, sc):
        fn, typ = self.expr(t, sc)
        et = iterable_elem(typ)
        if et is None:
            self.type_error(f"`for` goes through a list or a pile, not a {typ}", t)
            return _const([]), ANY
        return self.as_items(fn, typ), et

    def s_choose_stmt(self, t, sc):  # reached only when a choose sits inside a closure
        self.error("E133", "internal: a choice was compiled as a closure", t)
        return None

    s_simul_stmt = s_choose_stmt

    # ---- statements: machine code (for rules that wait for decisions) ----------------------

    def needs_code(self, t, sc) -> bool:
        if self.may_wait(t):
            return True
        if sc.code_loops:
            return _escapes(t)
        return False

    def block_code(self, stmts, sc: Scope, em: _Emitter):
        run: list = []  # consecutive statements that never wait run as one instruction

        def flush():
            if run:
                em.emit(EXEC, self.where(run[0], sc), self.block_simple(run, sc))
                run.clear()
        for s in stmts:
            if s.data == "pass_stmt":
                continue  # nothing to run (an option that does nothing then costs no copy to a bot)
            if self.needs_code(s, sc):
                flush()
                self.stmt_code(s, sc, em)
            else:
                run.append(s)
        flush()

    def stmt_code(self, t, sc: Scope, em: _Emitter):
        w = self.where(t, sc)
        kind = t.data
        if kind == "if_stmt":
            cond_t, body_t, *rest = t.children
            clauses = [(cond_t, body_t)] + [(r.children[0], r.children[1]) for r in rest
                                            if r is not None and r.data == "elif_clause"]
            other = next((r.children[0] for r in rest if r is not None and r.data == "else_clause"), None)
            ends = []
            for c_t, b_t in clauses:
                jf = em.emit(JMPF, w, None, None)
                self.block_code(b_t.children, sc.child(), em)
                ends.append(em.emit(JMP, w, None))
                em.set(jf, JMPF, w, self.cond(c_t, sc), em.here())
            if other is not None:
                self.block_code(other.children, sc.child(), em)
            for j in ends:
                em.set(j, JMP, w, em.here())
        elif kind == "for_stmt":
            var_tok, src_t, body_t = t.children
            items, et = self._loop_source(src_t, sc)
            var = str(var_tok)
            slot = f"__it{em.here()}"
            em.emit(FOR_INIT, w, slot, items)
            top = em.emit(FOR_NEXT, w, var, slot, None)
            inner = sc.child(loops=sc.loops + 1, code_loops=sc.code_loops + 1)
            inner.names[var] = et
            em.breaks.append([])
            self.block_code(body_t.children, inner, em)
            em.emit(JMP, w, top)
            end = em.here()
            em.set(top, FOR_NEXT, w, var, slot, end)
            for j in em.breaks.pop():
                em.set(j, JMP, w, end)
        elif kind == "while_stmt":
            cond_t, body_t = t.children
            cond = self.cond(cond_t, sc)
            limit = self.g.limits.max_steps
            loc = self.loc(t)

            def guarded(st, env):
                st.steps += 1
                if st.steps > limit:
                    raise GameTooLong(f"a `while` loop ran past the step limit ({limit})", loc)
                return cond(st, env)
            top = em.emit(JMPF, w, guarded, None)
            em.breaks.append([])
            inner = sc.child(loops=sc.loops + 1, code_loops=sc.code_loops + 1)
            self.block_code(body_t.children, inner, em)
            em.emit(JMP, w, top)
            end = em.here()
            em.set(top, JMPF, w, guarded, end)
            for j in em.breaks.pop():
                em.set(j, JMP, w, end)
        elif kind == "break_stmt":
            if not em.breaks:
                self.error("E130", "`break` outside a loop", t)
                return
            em.breaks[-1].append(em.emit(JMP, w, None))
        elif kind == "choose_stmt":
            self.choose_code(t, sc, em, w)
        elif kind == "simul_stmt":
            var_tok, src_t, body_t = t.children
            items, et = self._loop_source(src_t, sc)
            if et not in (SEAT, ANY):
                self.type_error(f"`simultaneously` goes through seats, not {et}", src_t)
            var = str(var_tok)
            # Inside the block, a `choose` without `by` is the committing seat's.
            inner = sc.child(loops=0, code_loops=0, decider=self.function(f"env[{var!r}]"))
            inner.names[var] = SEAT
            if any(x.data == "simul_stmt" for x in _walk(body_t)):
                self.error("E134", "`simultaneously` blocks cannot nest", t)
            body = _Emitter()
            self.block_code(body_t.children, inner, body)
            body.emit(RET, w)
            em.emit(SIMUL, w, var, items, body.code)
        elif kind == "expr_stmt":
            call = t.children[0]
            name = str(call.children[0])
            params, _ = self.procedures[name]
            arg_fns = [self.function(a) for a in
                       self.args_for(name, params, [a for a in call.children[1:] if a is not None], call, sc)]
            em.emit(CALL, w, self.proc_fns, name, list(params), arg_fns)
        elif kind == "emit_stmt":
            self.emit_code(str(t.children[0]), em, w)
        else:  # pragma: no cover - other statements never wait
            fn = self.stmt(t, sc)
            if fn is not None:
                em.emit(EXEC, w, fn)

    def emit_code(self, event: str, em: _Emitter, w):
        for tr in self.handlers.get(event, []):
            key = f"trig:{tr.id}"
            cond = self.trigger_cond(tr)
            jf = em.emit(JMPF, w, cond, None) if cond is not None else None
            em.emit(TRACE, (getattr(tr.id, "loc", None), f"triggers.{tr.id}"), "rule")
            if key in self.suspends:
                self.trigger_fn(tr)
                em.emit(CALL, w, self.proc_fns, key, [], [])
            else:
                fn = self.trigger_fn(tr)
                em.emit(EXEC, (getattr(tr.id, "loc", None), f"triggers.{tr.id}"),
                        lambda st, env, fn=fn: fn(st, {}))
            if jf is not None:
                em.set(jf, JMPF, w, cond, em.here())

    def choose_code(self, t, sc: Scope, em: _Emitter, w):
        prompt_tok, by_t, *options = t.children
        prompt = self.template(prompt_tok, sc) if prompt_tok is not None else _const("Choose")
        if by_t is not None:
            seat = self.want(by_t.children[0], sc, SEAT, "the seat that chooses (`by`)")
        elif sc.decider is not None:
            seat = sc.decider
        else:
            self.error("E135", "say who chooses: `choose \"...\" by SEAT:`", t)
            seat = _const(None)
        alts = []
        spec = ChooseSpec(prompt, seat, alts, w[0], w[1])
        jumps = []
        em.emit(CHOOSE, w, spec)
        # The legal options are listed by one generated function: each option's list is
        # computed once per decision (the same list written twice is shared), its `if` tested
        # with the value in a Python variable.
        lines = ["def options(st, env):", "    out = []", "    add = out.append"]
        lists: dict = {}
        for i, opt in enumerate(options):
            label_tok, for_t, if_t, body_t = opt.children
            osc = sc.child()
            var = None
            if for_t is not None:
                var = str(for_t.children[0])
                src, typ = self.gen(for_t.children[1], sc)
                et = iterable_elem(typ)
                if et is None:
                    self.type_error(f"an option goes through a list or a pile, not a {typ}", for_t.children[1])
                    et, src = ANY, "[]"
                if typ == PILE:
                    src = f"st.piles[{src}][:]"
                name = lists.get(src)
                if name is None:
                    name = lists[src] = f"items{len(lists)}"
                    lines.append(f"    {name} = {src}")
                py = self.fresh(var)
                osc.names[var] = et
                test = self.gen_cond(if_t.children[0], osc.child(py={**osc.py, var: py}),
                                     "an option's `if`") if if_t is not None else "True"
                lines.append(f"    for {py} in {name}:")
                lines.append(f"        if {test}: add(({i}, {py}))")
            else:
                test = self.gen_cond(if_t.children[0], osc, "an option's `if`") if if_t is not None else "True"
                lines.append(f"    if {test}: add(({i}, None))")
            alt = Alternative(self.template(label_tok, osc), var, em.here())
            alts.append(alt)
            self.block_code(body_t.children, osc, em)
            jumps.append(em.emit(JMP, w, None))
            alt.effects = _effects(em.code, alt.target)
        for j in jumps:
            em.set(j, JMP, w, em.here())
        lines.append("    return out")
        local: dict = {}
        exec(compile("\n".join(lines), "<choice>", "exec"), self.ns, local)  # noqa: S102 - generated
        spec.list_options = local["options"]

    # ---- the flow: setup, phases, rounds, turns -------------------------------------------

    def _compile_flow(self):
        g, p = self.g, self.plan
        em = _Emitter()
        self.main = em
        if g.setup is not None:
            self.rule_block(g.setup, Scope({}, rule="setup"), em)
        if self.situation is not None:
            self.rule_block(self.situation, Scope({}, rule="situation"), em)
        if g.record:
            self._records(em)
        self.emit_code("game_start", em, (None, "game"))
        for ph in g.phases:
            self._phase(ph, em)
        em.emit(HALT, (None, "game"))
        p.main = em.code

    def rule_block(self, src, sc: Scope, em: _Emitter):
        body = self.tree(src)
        if body is None:
            return
        old = self.src
        self.src = src
        p = self.plan
        p.rules[sc.rule] = getattr(src, "loc", None)
        em.emit(TRACE, (getattr(src, "loc", None), sc.rule), "rule")
        self.block_code(body.children, sc, em)
        self.src = old

    def _records(self, em):
        fns = {}
        for name, src in self.g.record.items():
            fns[name], _ = self.compile_expr_text(src, Scope({"seat": SEAT}, rule=f"record.{name}"))
        self.plan.records = fns
        n = self.plan.n_seats

        def record(st, env):
            st.g["__records"] = {k: [f(st, {"seat": s}) for s in range(n)] for k, f in fns.items()}
        em.emit(EXEC, (None, "record"), record)

    def _phase(self, ph, em: _Emitter):
        w = (getattr(ph.id, "loc", None), f"phases.{ph.id}")
        em.emit(TRACE, w, "phase")
        self.emit_code("phase_start", em, w)
        if ph.do is not None:
            if ph.steps or ph.order:
                self.report.add("E136", f"phase `{ph.id}` has both `do` and rounds (`order`/`steps`)",
                                getattr(ph.id, "loc", None), "a phase is either one block or rounds of turns")
            self.rule_block(ph.do, Scope({}, rule=f"phases.{ph.id}"), em)
        else:
            self._rounds(ph, em, w)
        self.emit_code("phase_end", em, w)

    def _rounds(self, ph, em: _Emitter, w):
        p = self.plan
        if ph.order is None:
            self.report.add("E137", f"phase `{ph.id}` needs `order` (who takes turns) or `do`",
                            getattr(ph.id, "loc", None))
            return
        if ph.until is None and ph.rounds is None:
            self.report.add("E138", f"phase `{ph.id}` never ends: give it `until` or `rounds`",
                            getattr(ph.id, "loc", None))
            return
        order_fn, order_t = self.compile_expr_text(ph.order, Scope({}, rule=f"phases.{ph.id}.order"))
        if not (is_list(order_t) or order_t == ANY):
            self.report.add("E120", f"type error: `order` must be a list, not {order_t}",
                            getattr(ph.order, "loc", None))
        turn_t = elem(order_t) if is_list(order_t) else ANY
        turn = str(ph.turn or "turn")
        max_rounds = self.g.limits.max_rounds
        loc = getattr(ph.id, "loc", None)

        def next_round(st, env):
            st.g["round"] += 1
            st.g["__rounds"] += 1
            if st.g["__rounds"] > max_rounds:
                raise GameTooLong(f"the game passed {max_rounds} rounds without ending", loc,
                                  f"phases.{ph.id}")
            if st.trace is not None:
                boards = "; ".join(f"{b}: " + ", ".join("-" if pc is None else p.piece_names[pc] for pc in st.slots[i])
                                   for i, b in enumerate(p.board_names))
                st.trace.append(("round", f"phases.{ph.id}", str(loc) if loc else "", st.g["round"], boards))

        em.emit(EXEC, w, lambda st, env: st.g.__setitem__("round", 0))
        top = em.emit(EXEC, w, next_round)
        self.emit_code("round_start", em, w)
        slot = f"__order{top}"
        em.emit(FOR_INIT, w, slot, order_fn)
        nxt = em.emit(FOR_NEXT, w, turn, slot, None)
        self.emit_code("turn_start", em, w)
        decider = None
        if turn_t == SEAT:
            decider = lambda st, env: env[turn]  # noqa: E731
        elif turn_t == PIECE:
            owner = p.var_at["owner"]
            decider = lambda st, env: st.v[owner + env[turn]]  # noqa: E731
        for step in ph.steps:
            sc = Scope({turn: turn_t}, rule=f"steps.{step.id}", decider=decider)
            jf = None
            if step.if_ is not None:
                cond, _ = self.compile_expr_text(step.if_, sc, BOOL, "a step's `if`")
                jf = em.emit(JMPF, (getattr(step.if_, "loc", None), sc.rule), cond, None)
            self.rule_block(step.do, sc, em)
            if jf is not None:
                em.set(jf, JMPF, (getattr(step.if_, "loc", None), sc.rule), em.code[jf][2], em.here())
        self.emit_code("turn_end", em, w)
        em.emit(JMP, w, nxt)
        em.set(nxt, FOR_NEXT, w, turn, slot, em.here())
        self.emit_code("round_end", em, w)
        if ph.until is not None:
            until, _ = self.compile_expr_text(ph.until, Scope({}, rule=f"phases.{ph.id}.until"), BOOL, "`until`")
        else:
            n = ph.rounds
            until = lambda st, env: st.g["round"] >= n  # noqa: E731
        em.emit(JMPF, w, until, top)

    def _compile_result(self):
        if self.g.evaluate is not None:
            self.plan.evaluate, _ = self.compile_expr_text(
                self.g.evaluate, Scope({"seat": SEAT}, rule="evaluate"), INT, "`evaluate`")
        for name, src in self.g.show.items():
            self.plan.shown[name], _ = self.compile_expr_text(src, Scope({"piece": PIECE}, rule=f"show.{name}"))
        r = self.g.result
        sc = Scope({"seat": SEAT}, rule="result")
        self.plan.rank, _ = self.compile_expr_text(r.rank, sc, INT, "`rank`")
        if r.tie is not None:
            self.plan.tie, _ = self.compile_expr_text(r.tie, sc, INT, "`tie`")
        self.plan.descending = r.order == "descending"


def _escapes(t) -> bool:
    """Does a `break` inside t leave t (rather than an inner loop of t)?"""
    if not isinstance(t, Tree):
        return False
    if t.data == "break_stmt":
        return True
    if t.data in ("for_stmt", "while_stmt"):
        return False
    return any(_escapes(c) for c in t.children)


def compile_ruleset(rs: Ruleset, n_seats: int, report: Report | None = None,
                    situation=None) -> Plan | None:
    c = make_compiler(rs, n_seats, report, situation)
    return None if c is None else c.plan


def make_compiler(rs: Ruleset, n_seats: int, report: Report | None = None, situation=None):
    """Compile; the compiler stays usable for more expressions (scenario expectations)."""
    report = report if report is not None else Report()
    players = rs.game.game.players
    if not players.min <= n_seats <= players.max:
        count = str(players.min) if players.min == players.max else f"{players.min}-{players.max}"
        applied = f" (with {', '.join(rs.applied)})" if rs.applied else ""
        report.add("E139", f"{rs.game.game.name}{applied} takes {count} players, not {n_seats}",
                   getattr(rs.game.game.name, "loc", None))
        return None
    c = Compiler(rs, n_seats, report, situation)
    c.build()
    return c if report.ok else None


from .builtins import BUILTINS, EFFECTS  # noqa: E402  (tables refer back to the compiler)

__all__ = ["compile_ruleset", "make_compiler", "Compiler"]
