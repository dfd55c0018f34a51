"""One game: the state, the decision interface, the views each seat may see, the result.

Every agent (a person, a bot, a replay, a scenario script) answers the same `Decision`.
During a `simultaneously` block each seat decides on its own copy of the state, where the
other seats' commitments have not happened; the real state then reveals them in seat order.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import vm
from ..lang.errors import RuleError
from ..lang.show import show
from ..lang.types import CARD, PIECE, PILE, SEAT, elem, is_list, is_map, map_types
from .state import State


@dataclass(slots=True)
class Decision:
    seat: int
    count: int
    rule: str
    loc: Any
    simultaneous: bool
    _st: Any
    _spec: Any
    _opts: list
    _env: dict

    @property
    def prompt(self) -> str:
        return reading(self._st, lambda: self._spec.prompt(self._st, self._env))

    def labels(self) -> list[str]:
        return reading(self._st, lambda: [self._spec.label(self._st, self._env, o) for o in self._opts])


def reading(st, read):
    """What `read()` gives, rules run on the table only to look at it (a view, a label, the
    result, a bot's evaluation): they count their steps from zero and leave the game's count
    as it was, so that looking at a game never changes where it stops."""
    steps = st.steps
    st.steps = 0
    try:
        return read()
    finally:
        st.steps = steps


class Game:
    def __init__(self, plan, seed: int, trace: bool = False):
        self.plan = plan
        self.seed = seed
        st = State(plan, seed)
        for card, pile in enumerate(plan.card_start):
            st.piles[pile].append(card)
            st.where.append(pile)
            st.up.append(False)
        if trace:
            st.trace = []
        st.frames = [[plan.main, 0, {}]]
        self.st = st
        self.sub: State | None = None     # a seat's private copy while it commits
        self.answers: list[int] = []      # every decision taken, in order: the game record
        self._advance()

    # ---- driving ---------------------------------------------------------------------------

    def _advance(self) -> None:
        vm.run(self.st)
        self._commit()

    def _commit(self) -> None:
        """Collect the commitments of a `simultaneously` block, seat by seat, then reveal."""
        st = self.st
        while st.simul is not None and not st.pending:
            sim = st.simul
            if self.sub is not None and self.sub.pending:
                return
            if self.sub is not None:
                sim.idx += 1
                self.sub = None
            if sim.idx >= len(sim.seats):
                sim.done = True
                vm.run(st)
                continue
            sub = st.clone()
            sub.simul = None
            sub.feed = None
            sub.trace = None
            local = dict(sim.env)
            local[sim.var] = sim.seats[sim.idx]
            sub.frames = [[sim.body, 0, local]]
            self.sub = sub
            vm.run(sub)

    @property
    def over(self) -> bool:
        return self.st.ended and self.st.pending is None and self.sub is None

    def waiting(self) -> tuple[int, int]:
        """(seat, number of options) of the pending decision, without describing it."""
        st: Any = self.sub if self.sub is not None else self.st
        spec, opts, env = st.pending
        return spec.seat(st, env), len(opts)

    def decision(self) -> Decision | None:
        st: Any = self.sub if self.sub is not None else self.st
        if st.pending is None:
            return None
        spec, opts, env = st.pending
        return Decision(spec.seat(st, env), len(opts), spec.rule, spec.loc,
                        self.sub is not None, st, spec, opts, env)

    def choose(self, pick: int) -> None:
        st: Any = self.sub if self.sub is not None else self.st
        spec, opts, _env = st.pending
        if not 0 <= pick < len(opts):
            raise ValueError(f"option {pick} is not one of 0..{len(opts) - 1}")
        self.answers.append(pick)
        if self.sub is not None:
            self.st.simul.answers.append((pick, opts[pick]))
            if self.st.trace is not None:
                self.st.trace.append(("commit", spec.rule, str(spec.loc) if spec.loc else "",
                                      spec.seat(st, _env), "(hidden until revealed)", len(opts)))
            vm.answer(st, pick)
            self._commit()
            return
        vm.answer(st, pick)
        self._commit()

    def clone(self) -> "Game":
        c = Game.__new__(Game)
        c.plan, c.seed = self.plan, self.seed
        c.st = self.st.clone()
        c.sub = None if self.sub is None else self.sub.clone()
        c.answers = self.answers[:]
        return c

    # ---- what a seat sees ------------------------------------------------------------------

    def view(self, seat: int | None) -> dict:
        st = self.sub if self.sub is not None else self.st
        return reading(st, lambda: self._view(seat))

    def _view(self, seat: int | None) -> dict:
        """The table as `seat` may see it (None: a spectator, who sees only public things)."""
        st = self.sub if self.sub is not None else self.st
        p = self.plan
        owners = st.values("owner")
        piles = {}
        for pid, cards in enumerate(st.piles):
            vis = p.pile_visible[pid]
            owner = p.pile_owner[pid]
            scope = p.pile_scope[pid]
            owner_seat = owner if scope == "seat" else (owners[owner] if scope == "piece" else None)
            if vis == "all" or (vis == "owner" and seat is not None and owner_seat == seat):
                shown = [p.card_label(c) if (st.up[c] or vis == "owner") else "(face down)" for c in cards]
            elif vis == "top":
                shown = ["(hidden)"] * (len(cards) - 1) + ([p.card_label(cards[-1])] if cards else [])
            else:
                shown = None
            piles[p.pile_names[pid]] = {"count": len(cards), "cards": shown}
        boards = {name: kind.view(st, seat) for name, kind in zip(p.board_names, p.board_kinds)}
        pieces = {}
        for pc, name in enumerate(p.piece_names):
            owner = owners[pc]
            info = {"owner": None if owner is None else owner + 1}
            for var in p.piece_init:
                if var == "owner":
                    continue
                vis = p.var_visible[("piece", var)]
                if vis == "all" or (vis == "owner" and seat is not None and owner == seat):
                    info[var] = _readable(p, ("piece", var), st.v[p.var_at[var] + pc])
            for var, fn in p.shown.items():
                info[var] = fn(st, {"piece": pc})
            pieces[name] = info
        seats = []
        for s in range(p.n_seats):
            info = {}
            for var in p.seat_init:
                vis = p.var_visible[("seat", var)]
                if vis == "all" or (vis == "owner" and s == seat):
                    info[var] = _readable(p, ("seat", var), st.v[p.var_at[var] + s])
            seats.append(info)
        globals_ = {k: _readable(p, ("game", k), v) for k, v in st.g.items() if not k.startswith("__")
                    and p.var_visible.get(("game", k), "all") == "all"}
        return {"seat": seat, "game": globals_, "boards": boards, "pieces": pieces,
                "seats": seats, "piles": piles}

    # ---- the end ---------------------------------------------------------------------------

    def result(self) -> dict:
        return reading(self.st, self._result)

    def _result(self) -> dict:
        """Seats in finishing order with their numbers; `winners` are the seats tied first."""
        st, p = self.st, self.plan
        keys = []
        for s in range(p.n_seats):
            env = {"seat": s}
            r = p.rank(st, env)
            t = p.tie(st, env) if p.tie is not None else 0
            for what, x in (("rank", r), ("tie", t)):
                if not isinstance(x, int) or isinstance(x, bool):
                    shown = show(p, "any", x)
                    raise RuleError(f"the result's `{what}` of seat {s + 1} is {shown}, not a number",
                                    p.rank_loc, "result")
            keys.append((r, t))
        sign = -1 if p.descending else 1
        order = sorted(range(p.n_seats), key=lambda s: (sign * keys[s][0], sign * keys[s][1], s))
        best = keys[order[0]]
        others = self._others(sign)
        if others:
            best = min([best] + [k for _p, k in others], key=lambda k: (sign * k[0], sign * k[1]))
        winners = [s for s in order if keys[s] == best]
        out = {"order": order, "scores": [k[0] for k in keys], "winners": winners,
               "rounds": st.g["__rounds"], "decisions": len(self.answers),
               "records": st.g.get("__records", {}), "ended": st.ended}
        if p.also is not None:
            # seats and the pieces of `result.also` in one order (a seat first where they tie)
            entries = [((sign * keys[s][0], sign * keys[s][1], 0, s), {"seat": s}) for s in order]
            entries += [((sign * k[0], sign * k[1], 1, i), {"piece": p.piece_names[pc], "score": k[0]})
                        for i, (pc, k) in enumerate(others)]
            out["standings"] = [e for _k, e in sorted(entries, key=lambda x: x[0])]
        return out

    def _others(self, sign: int) -> list:
        """The pieces of `result.also`, each with its (rank, tie)."""
        p, st = self.plan, self.st
        if p.also is None:
            return []
        pieces_fn, rank_fn, tie_fn = p.also
        out = []
        for pc in pieces_fn(st, {}):
            env = {"piece": pc}
            k = (rank_fn(st, env), tie_fn(st, env) if tie_fn is not None else 0)
            for what, x in zip(("rank", "tie"), k):
                if not isinstance(x, int) or isinstance(x, bool):
                    raise RuleError(f"the result's `also.{what}` of {p.piece_names[pc]} is "
                                    f"{show(p, 'any', x)}, not a number", p.rank_loc, "result.also")
            out.append((pc, k))
        return out


def _readable(plan, key, value):
    """Seats, pieces and cards in a view read as a person names them (`seat 2`, `red`), also
    inside lists and maps."""
    return _readable_as(plan, plan.var_types.get(key), value)


def _readable_as(plan, typ, value):
    if value is None or typ is None:
        return value
    if typ in (SEAT, PIECE, CARD, PILE):
        return show(plan, typ, value)
    if is_list(typ):
        return [_readable_as(plan, elem(typ), x) for x in value]
    if is_map(typ):
        key_t, value_t = map_types(typ)
        return {_readable_as(plan, key_t, k): _readable_as(plan, value_t, x) for k, x in value.items()}
    return value
