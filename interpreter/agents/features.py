"""A table as numbers, as one seat may judge it: the features a learned bot's value reads.

It knows no game: every feature is named from the ruleset's own declarations, and read the same
way in any game.

- **Variables.** Each number or yes/no variable of the game (`game round`), of the seat (`own
  money`, `others' money`: the mean over the other seats) and of the seat's pieces (`own pieces'
  level`, the mean over its pieces, and `others' pieces' level`). A variable nobody sees is left
  out; one only its owner sees is read for the seat's own only.
- **Piles.** Each declared pile's size (`own hand: cards`, `others' hand: cards`, `deck: cards`),
  and what is in it where the seat may know it: the sum of each number property of its cards
  (`own hand: sum of leap`) and how many cards have each value of a word property that has few
  values (`own discard: kind=plain`). The seat knows what is in its own piles (a pile nobody sees
  too: which cards, not their order), in other seats' piles everybody sees, and in the game's
  piles everybody sees; of the others it knows only the size.
- **Standing.** The game's `progress:` for the seat, the best other seat's, and the difference;
  on each board with an order, how many pieces are ahead of the seat's first piece and of the
  best other seat's.
- **The ruleset's functions** of one seat or one piece that give a number or yes/no, for the
  seat and its own pieces (`own pieces' fuel_left`): what the designer found worth naming. Not
  for the other seats (a function may read what only its seat sees).
- **Evaluation** (when asked): the ruleset's `evaluate:` for the seat (only its own, for the same
  reason).

Relative to the judging seat: what is the seat's own and what is the others' are separate
features, so one value function serves every seat.
"""
from __future__ import annotations

from ..base.errors import RuleError
from ..boards.base import BoardKind
from ..engine.game import reading
from ..ir.models import Visibility
from ..lang.types import BOOL, HELD, INT, Per

# a word property of cards is counted by value when it has at most this many values
MAX_WORDS = 8
HIDDEN = "__"   # the engine's own variables and piles begin so (`__rounds` is kept, as `rounds`)


def _held(plan, per: Per, whose: str) -> tuple[list[tuple[str, int, bool]], list[str]]:
    """The number variables of each seat (or each piece) that someone sees, as (name, offset in
    `State.v`, seen by everybody), and their features' names: the seat's own, and the others'
    where everybody sees them."""
    found = [(v, plan.var_at[v], plan.var_visible.get((per, v)) is Visibility.ALL)
             for v in _numbers(plan, per)]
    names = []
    for v, _at, seen in found:
        names.append(f"own {whose}{v}")
        if seen and plan.n_seats > 1:
            names.append(f"others' {whose}{v}")
    return found, names


def _numbers(plan, per: Per) -> list[str]:
    """The number and yes/no variables of the game, each seat or each piece that someone may see."""
    init = {Per.GAME: plan.global_init, Per.SEAT: plan.seat_init, Per.PIECE: plan.piece_init}[per]
    out = []
    for name in init:
        if name.startswith(HIDDEN) or name == "owner":
            continue
        typ = plan.var_types.get((per, name))
        if typ is not INT and typ is not BOOL:
            continue
        if plan.var_visible.get((per, name), Visibility.ALL) is Visibility.NOBODY:
            continue
        out.append(name)
    return out


def _num(x) -> float:
    return float(x) if isinstance(x, (int, float)) else 0.0


class Composition:
    """What a pile holds as numbers: its size, the sums of the cards' number properties, the counts
    of each value of their word properties with few values."""

    def __init__(self, plan):
        numbers, words = [], []
        for prop, values in plan.card_props.items():
            kinds = {type(v) for v in values if v is not None}
            if kinds and kinds <= {int, bool}:
                numbers.append(prop)
            elif kinds == {str}:
                distinct = sorted({v for v in values if v is not None})
                if 1 < len(distinct) <= MAX_WORDS:
                    words.append((prop, distinct))
        self.names = ["cards"] + [f"sum of {p}" for p in numbers]
        slot_of: dict = {}
        for prop, distinct in words:
            for v in distinct:
                slot_of[(prop, v)] = len(self.names)
                self.names.append(f"{prop}={v}")
        # per card: the places it adds to and by how much (the size first)
        self.adds: list[tuple[tuple[int, float], ...]] = []
        for c in range(len(plan.card_type)):
            adds = [(0, 1.0)]
            for k, prop in enumerate(numbers, 1):
                v = plan.card_props[prop][c]
                if v:
                    adds.append((k, float(v)))
            for prop, _distinct in words:
                v = plan.card_props[prop][c]
                if v is not None:
                    adds.append((slot_of[(prop, v)], 1.0))
            self.adds.append(tuple(adds))

    def add(self, out: list, cards) -> None:
        """The numbers of `cards` added into `out` (one place for each of `names`)."""
        adds = self.adds
        for c in cards:
            for k, v in adds[c]:
                out[k] += v


class Features:
    """The features of a compiled game (`names`) and their values for a seat (`vector`)."""

    def __init__(self, plan, evaluate: bool = False):
        self.plan = plan
        self.evaluate = evaluate and plan.evaluate is not None
        n = plan.n_seats
        names: list[str] = []
        self.game_vars = _numbers(plan, Per.GAME)
        names += [f"game {v}" for v in self.game_vars]
        self.rounds = "__rounds" in plan.global_init
        if self.rounds:
            names.append("rounds")
        self.seat_vars, said = _held(plan, Per.SEAT, "")
        names += said
        self.owners_at = plan.var_at.get("owner") if "owner" in plan.piece_init else None
        self.piece_vars: list[tuple[str, int, bool]] = []
        if self.owners_at is not None:
            self.piece_vars, said = _held(plan, Per.PIECE, "pieces' ")
            names += said
        self.comp = comp = Composition(plan)
        # piles by declared name: (name, scope, who sees them, their ids)
        groups: dict[str, list[int]] = {}
        for p, decl in enumerate(plan.pile_decl):
            if not decl.startswith(HIDDEN):
                groups.setdefault(decl, []).append(p)
        self.piles = []
        for decl, ids in groups.items():
            per = plan.pile_per[ids[0]]
            vis = plan.pile_visible[ids[0]]
            if per is Per.PIECE and self.owners_at is None:
                per = Per.GAME
            open_ = vis in (Visibility.ALL, Visibility.TOP)
            if per in HELD:
                self.piles.append((per, ids, len(names), open_))
                names += [f"own {decl}: {w}" for w in comp.names]
                if n > 1:
                    names += [f"others' {decl}: {w}" for w in (comp.names if open_ else comp.names[:1])]
            else:
                self.piles.append((Per.GAME, ids, len(names), open_))
                names += [f"{decl}: {w}" for w in (comp.names if open_ else comp.names[:1])]
        self.standing_at = len(names)   # where the standing begins, after the piles
        self.progress = plan.progress is not None
        if self.progress:
            names += ["own progress"] + (["best other's progress", "progress ahead"] if n > 1 else [])
        # the boards with an order (the first ahead), where pieces belong to seats
        self.boards = [b for b in plan.board_kinds
                       if self.owners_at is not None and type(b).in_order is not BoardKind.in_order]
        for b in self.boards:
            names.append(f"{b.name}: pieces ahead of own")
            if n > 1:
                names.append(f"{b.name}: pieces ahead of the best other's")
        # the ruleset's own functions of a seat or a piece, for the seat's own (of another seat's
        # they may read what only that seat sees)
        self.readings = [(kind, fn) for _name, (kind, fn) in sorted(plan.readings.items())
                         if kind is Per.SEAT or self.owners_at is not None]
        names += [f"own {name}" if kind is Per.SEAT else f"own pieces' {name}"
                  for name, (kind, _fn) in sorted(plan.readings.items())
                  if kind is Per.SEAT or self.owners_at is not None]
        if self.evaluate:
            names.append("own evaluation")
        self.names = names

    def vector(self, st, seat: int) -> list[float]:
        """The features of table `st` for `seat`. Reads the table without changing it (`reading`: a
        rule the progress or evaluation reads counts no steps of the game's)."""
        return self.vectors(st, (seat,))[0]

    def vectors(self, st, seats=None, skip: frozenset = frozenset()) -> list[list[float]]:
        """The features of table `st` for each of `seats` (every seat by default), as `vector`
        gives them one by one: what all of them read (the progress of every seat, the boards'
        orders, a pile's cards) is read once. The ruleset's functions and the evaluation at the
        places in `skip` are not called (left 0: a judge whose weight there is 0 needs no value)."""
        who = range(self.plan.n_seats) if seats is None else seats
        return reading(st, lambda: self._vectors(st, who, skip))

    def _vectors(self, st, seats, skip: frozenset) -> list[list[float]]:
        plan = self.plan
        n = plan.n_seats
        others = n - 1
        v = st.v
        owners = v[self.owners_at:self.owners_at + plan.n_pieces] if self.owners_at is not None else []
        common = self._common(st)
        progress = [_num(_read(plan.progress, st, s)) for s in range(n)] if self.progress else []
        orders = [b.in_order(st.bd[b.index]) or [] for b in self.boards]
        parts: dict = {}
        outs = []
        for seat in seats:
            out = common + [0.0] * (len(self.names) - len(common))
            k = len(common)
            for _name, at, seen in self.seat_vars:
                out[k] = _num(v[at + seat])
                k += 1
                if seen and others:
                    out[k] = sum(_num(v[at + s]) for s in range(n) if s != seat) / others
                    k += 1
            mine = [pc for pc, o in enumerate(owners) if o == seat]
            if self.owners_at is not None:
                theirs = [pc for pc, o in enumerate(owners) if o is not None and o != seat]
                for _name, at, seen in self.piece_vars:
                    out[k] = sum(_num(v[at + pc]) for pc in mine) / len(mine) if mine else 0.0
                    k += 1
                    if seen and others:
                        out[k] = sum(_num(v[at + pc]) for pc in theirs) / len(theirs) if theirs else 0.0
                        k += 1
            self._piles(out, st.piles, owners, seat, parts)
            k = self.standing_at
            if self.progress:
                out[k] = progress[seat]
                k += 1
                if others:
                    best = max(progress[s] for s in range(n) if s != seat)
                    out[k], out[k + 1] = best, progress[seat] - best
                    k += 2
            for order in orders:
                own = other = len(order)
                for i, pc in enumerate(order):
                    o = owners[pc]
                    if o == seat:
                        own = min(own, i)
                    elif o is not None:
                        other = min(other, i)
                out[k] = own
                k += 1
                if others:
                    out[k] = other
                    k += 1
            for kind, fn in self.readings:
                if k not in skip:
                    if kind is Per.SEAT:
                        out[k] = _call(fn, st, seat)
                    elif mine:
                        out[k] = sum(_call(fn, st, pc) for pc in mine) / len(mine)
                k += 1
            if self.evaluate and k not in skip:
                # an error in it is the ruleset's, and is not hidden; the others' evaluations are not
                # read (they may read what only their seats see)
                out[k] = _num(plan.evaluate(st, {"seat": seat}))
            outs.append(out)
        return outs

    def _common(self, st) -> list[float]:
        """The features that are the same for every seat: the game's variables, first."""
        g = st.g
        out = [_num(g.get(name)) for name in self.game_vars]
        if self.rounds:
            out.append(_num(g.get("__rounds")))
        return out

    def _piles(self, out: list, piles, owners, seat: int, parts: dict) -> None:
        """The piles' features for `seat`, added into `out`; `parts` keeps what each pile holds
        (`_part`) for the other seats of the same table."""
        m = len(self.comp.names)
        owner_of = self.plan.pile_owner
        others = self.plan.n_seats - 1
        for per, ids, at, open_ in self.piles:
            if per is Per.GAME:
                for p in ids:
                    if open_:
                        _add(out, at, self._part(parts, piles, p))
                    else:
                        out[at] += len(piles[p])
                continue
            there = at + m
            for p in ids:
                o = owner_of[p]
                who = o if per is Per.SEAT else (owners[o] if o is not None else None)
                if who is None:
                    continue
                if who == seat:
                    _add(out, at, self._part(parts, piles, p))
                elif others:
                    if open_:
                        _add(out, there, self._part(parts, piles, p), 1.0 / others)
                    else:
                        out[there] += len(piles[p]) / others

    def _part(self, parts: dict, piles, p: int) -> list[float]:
        """What pile `p` holds as numbers (`Composition`), read once per table."""
        part = parts.get(p)
        if part is None:
            part = parts[p] = [0.0] * len(self.comp.names)
            self.comp.add(part, piles[p])
        return part


def _add(out: list, at: int, part: list[float], scale: float = 1.0) -> None:
    for k, x in enumerate(part, at):
        if x:
            out[k] += x * scale


def _call(fn, st, who: int) -> float:
    """A function of the ruleset for a seat or a piece; 0 where it fails on this table (a feature
    is only read: the rules that use the function report its errors)."""
    try:
        return _num(fn(st, who))
    except Exception:  # noqa: BLE001 - any error of a generated function, read here, not run
        return 0.0


def _read(fn, st, seat: int):
    """A rule of the ruleset read for a seat; 0 where it cannot be read on this table."""
    try:
        return fn(st, {"seat": seat})
    except RuleError:
        return 0
