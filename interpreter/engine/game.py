"""One game: the state, the decision interface, the views each seat may see, the result.

Every agent (a person, a bot, a replay, a scenario script) answers the same `Decision`.
During a `simultaneously` block every seat decides at once, each on its own copy of the state,
where the other seats' commitments have not happened; the real state then reveals them in the
block's order (`secret.py`).
"""
from __future__ import annotations

from dataclasses import dataclass
import random
from typing import Any, Callable, TypeVar

from . import secret, vm
from ..base.errors import RuleError
from ..lang.show import show, words
from ..lang.types import ANY, CARD, PIECE, PILE, SEAT, Per, Type, elem, is_list, is_map, map_types
from ..ir.models import Visibility
from .plan import Plan
from .state import State
from .tally import Counting, Tally

T = TypeVar("T")

# How a game draws its chance, as records, season saves and web tables note it (`"chance"`):
# 2, the seats of a `simultaneously` block draw from streams of their own (`secret.py`); 1 (what a
# record without the note was played with), they borrow the game's generator.
CHANCE = 2


def streams(noted: Any) -> bool:
    """Whether a game noted with this `chance` (None: not noted, from before) plays with streams."""
    return isinstance(noted, int) and not isinstance(noted, bool) and noted >= 2


@dataclass(slots=True)
class Decision:
    """A question the game asks a seat now: its prompt and options' labels, read on the table as
    it stands; `Game.choose` takes the index of one."""
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

    def groups(self) -> list[tuple[int, int | None]]:
        """For each option: which `option` line of the `choose` made it (its index), and the card
        it was made for, when it ranges over cards (else None)."""
        alts = self._spec.alts
        return [(i, v if alts[i].of == CARD else None) for i, v in self._opts]

    def pieces(self, names: list[str]) -> list[str | None]:
        """For each option: the piece it is made for, by name, when it ranges over pieces (a place
        to click on the board as well as the option's words), else None."""
        alts = self._spec.alts
        return [names[v] if alts[i].of == PIECE and isinstance(v, int) and 0 <= v < len(names) else None
                for i, v in self._opts]

    def places(self) -> list[tuple[str, str] | None]:
        """For each option: the board (by name) and the place (as the board's picture marks it)
        it is made for (its `at BOARD, PLACE`), else None."""
        if not any(alt.board is not None for alt in self._spec.alts):
            return [None] * len(self._opts)
        return reading(self._st, lambda: _places(self))


def _places(d: "Decision") -> list[tuple[str, str] | None]:
    plan, spec, st, env = d._st.plan, d._spec, d._st, d._env
    out: list[tuple[str, str] | None] = []
    for o in d._opts:
        at = spec.place(st, env, o)
        board = at[0] if at is not None else None
        if at is None or not isinstance(board, int) or not 0 <= board < len(plan.board_kinds):
            out.append(None)
            continue
        key = plan.board_kinds[board].place_key(at[1])
        out.append(None if key is None else (plan.board_names[board], key))
    return out


def drawn(winners: list[int], seats: int) -> bool:
    """Whether a result whose seats tied first are `winners` is a draw: every seat of several."""
    return seats > 1 and len(winners) == seats


def kept(result: dict) -> dict:
    """What a record, a saved season and the web table keep of a game's result: its order,
    winners, numbers, rounds, and the words beside each place where the game says them."""
    return {k: result[k] for k in ("order", "winners", "scores", "rounds", "says") if k in result}


def reading(st: State, read: Callable[..., T]) -> T:
    """What `read()` gives, rules run on the table only to look at it (a view, a label, the
    result, a bot's evaluation): they count their steps from zero and leave the game's count
    as it was, so that looking at a game never changes where it stops."""
    steps, memo = st.steps, st.memo
    st.steps = 0
    if memo is None:
        st.memo = {}   # nothing changes while it looks: a function's value can be kept
    try:
        return read()
    finally:
        st.steps, st.memo = steps, memo


class Game:
    """One game played from a plan and a seed: its table (`st`), the decisions asked and answered
    (a game is its seed and its answers, and replays from them), its views for each seat, its result."""
    def __init__(self, plan: Plan, seed: int, trace: bool = False, carried: dict | None = None,
                 watch: vm.Watch | None = None, tally: str | None = None, streams: bool = True):
        """`carried`: what the previous game of a series handed on (`Game.carried()`), in place
        before the setup runs. `watch`: what a scenario watches for (forced choices asked, a place
        to stop at). `tally`: note the seats' progress for statistics (`"progress"`), and count what
        fires and what is chosen too (`"counts"`) (`st.tally`). `streams`: the seats of a
        `simultaneously` block draw from random streams of their own (`secret.py`); off only for a
        game recorded before they existed (`CHANCE_VERSION`)."""
        self.plan = plan
        self.seed = seed
        st = State(plan, seed, streams)
        for card, pile in enumerate(plan.card_start):
            st.piles[pile].append(card)
            st.where.append(pile)
            st.up.append(False)
        if carried:
            _carry_in(plan, st, carried)
        if trace:
            st.trace = []
        if tally:
            st.tally = (Counting if tally == "counts" else Tally)(plan.n_seats)
        st.frames = [[plan.main, 0, {}]]
        st.watch = watch
        self.st = st
        self.answers: list[int] = []      # every decision taken, in order: the game record
        # those taken on a seat's copy while a secret block collected (its seats decide in any
        # order): by their place in `answers`, (the seat, the block's number, its place in the list)
        self.committed: dict[int, tuple[int, int, int]] = {}
        self._pick: Callable[[Game], int] | None = None   # who answers in place (`answer_with`)
        self._blind: list[Callable[[int], int]] = []     # ... or, per seat, from the count alone
        self._advance()

    # ---- driving ---------------------------------------------------------------------------

    def _advance(self) -> None:
        vm.run(self.st)
        self._collect()

    def _collect(self) -> None:
        """While a `simultaneously` block collects commitments: start each seat's block on its own
        copy (up to its first choice: every seat decides at once); once all have committed,
        reveal and go on."""
        st = self.st
        while st.simul is not None and st.pending is None:
            sim = st.simul
            waiting = False
            for i, c in enumerate(sim.commits):
                sub = c.st
                if sub is None:
                    sub = secret.start(st, sim, i)
                    vm.run(sub)
                if sub.frames:   # (still deciding; a copy whose block is done has none)
                    waiting = True
            if waiting:
                return
            sim.done = True
            vm.run(st)

    @property
    def collecting(self) -> bool:
        """A `simultaneously` block is collecting its seats' commitments."""
        return self.st.simul is not None and self.st.pending is None

    def _table_of(self, seat: int | None = None) -> State | None:
        """The table where a decision waits: the real one, or while a block collects, the copy of
        the first seat in its list still deciding (with `seat`: where that seat decides; None if
        it does not)."""
        st = self.st
        if st.pending is not None:
            return st if seat is None or st.pending[3] == seat else None
        sim = st.simul
        if sim is not None:
            for c in sim.commits:
                sub = c.st
                if sub is not None and sub.pending is not None and (seat is None or sub.pending[3] == seat):
                    return sub
        return None

    def deciding(self) -> list[int]:
        """The seats a decision waits for: one, or every seat of a block still committing."""
        st = self.st
        if st.pending is not None:
            return [st.pending[3]]
        sim = st.simul
        if sim is None:
            return []
        return list(dict.fromkeys(c.st.pending[3] for c in sim.commits
                                  if c.st is not None and c.st.pending is not None))

    def unasked(self) -> list[int]:
        """The seats of a block still collecting whose part ended without a question asked of
        them (a single option taken for them, or nothing to choose): a table that tells who is
        still deciding may show them deciding, so that a forced choice is no secret told."""
        st = self.st
        sim = st.simul
        if sim is None or st.pending is not None:
            return []
        asked = {i for _seat, block, i in self.committed.values() if block == st.blocks}
        return list(dict.fromkeys(sim.seats[i] for i, c in enumerate(sim.commits)
                                  if c.st is not None and not c.st.frames and i not in asked))

    @property
    def stopped(self) -> str | None:
        """Where the game stopped for a scenario (`Watch.stop`), or None."""
        w = self.st.watch
        return None if w is None else w.stopped

    def play_on(self, stop: str | None = None) -> None:
        """Go on from where a scenario stopped the game: up to the next decision, or until it
        passes the place `stop` (then `stopped` says so)."""
        w = self.st.watch
        w.stopped, w.stop = None, stop
        self._advance()

    @property
    def over(self) -> bool:
        st = self.st
        return st.ended and st.pending is None and st.simul is None

    def waiting(self) -> tuple[int, int]:
        """(seat, number of options) of the pending decision (the first seat's, while a block
        collects), without describing it."""
        pending = self.st.pending   # (the table's, as a rule: no look at the seats' copies)
        if pending is None:
            pending = self._table_of().pending  # type: ignore[union-attr]
        return pending[3], len(pending[1])

    def decision(self, seat: int | None = None) -> Decision | None:
        """The pending decision: the first one (the real table's, or while a block collects the
        first seat's in its list still deciding), or with `seat` that seat's (None if it has
        none)."""
        st = self.st if seat is None and self.st.pending is not None else self._table_of(seat)
        if st is None:
            return None
        spec, opts, env, who = st.pending
        return Decision(who, len(opts), spec.rule, spec.loc, st is not self.st, st, spec, opts, env)

    def choose(self, pick: int, seat: int | None = None) -> None:
        """Answer the pending decision with option `pick`: the first one, or with `seat` that
        seat's (while a block collects, each seat answers on its own copy, in any order)."""
        st = self._table_of(seat)
        if st is None:
            raise ValueError("nobody is deciding" if seat is None
                             else f"seat {seat + 1} has no decision to take")
        opts = st.pending[1]
        if not 0 <= pick < len(opts):
            raise ValueError(f"option {pick} is not one of 0..{len(opts) - 1}")
        if st is not self.st:
            self._committed(st, pick)
            self.answers.append(pick)
            vm.answer(st, pick)
            self._collect()
            return
        self.answers.append(pick)
        vm.answer(st, pick)
        if st.simul is not None:
            self._collect()

    def answer_with(self, pick: Callable[["Game"], int] | None) -> None:
        """Answer the decisions from now on in place, from inside the rules, with `pick(game)`:
        the option of the pending decision (`decision()`, `waiting()`), or -1 to leave it
        pending as usual (then `choose` answers it). The game stands at each decision while
        `pick` looks at it, copies it or plays copies of it, as it would between `decision()`
        and `choose()`; what is taken is recorded as `choose` records it. None: no more. A
        game's first decision is reached before any `pick` is given: answer it with `choose`."""
        self._pick = pick
        self._asked_by(None if pick is None else self._ask)

    def answer_blind(self, picks: list[Callable[[int], int]]) -> None:
        """`answer_with` for agents that need only the number of options (random bots):
        `picks[seat](count)` gives the option of each decision of that seat, in place, without
        the game being looked at (no `pick(game)`, no `waiting()` between)."""
        self._blind = picks
        self._asked_by(self._ask_blind)

    def _asked_by(self, ask: Callable[[State], int] | None) -> None:
        st = self.st
        st.ask = ask
        if st.simul is not None:
            for c in st.simul.commits:
                if c.st is not None:
                    c.st.ask = ask

    def _ask(self, st: State) -> int:
        """`State.ask` of this game's table and of its seats' commitment copies."""
        pick = self._pick(self)  # type: ignore[misc]
        if pick < 0:
            return -1
        opts = st.pending[1]
        if not pick < len(opts):
            raise ValueError(f"option {pick} is not one of 0..{len(opts) - 1}")
        if st is not self.st:
            self._committed(st, pick)
        self.answers.append(pick)
        return pick

    def _ask_blind(self, st: State) -> int:
        """`State.ask` when each seat answers from the number of options (`answer_blind`)."""
        _spec, opts, _env, seat = st.pending
        pick = self._blind[seat](len(opts))
        if not 0 <= pick < len(opts):
            raise ValueError(f"option {pick} is not one of 0..{len(opts) - 1}")
        if st is not self.st:
            self._committed(st, pick)
        self.answers.append(pick)
        return pick

    def _committed(self, sub: State, pick: int) -> None:
        """A seat answered `pick` on its own commitment copy `sub`: what it took is kept for the
        reveal (with the single options its block took without asking, `vm.decide`), and the
        table is told that the seat decided, not what."""
        spec, opts, _env, seat = sub.pending
        real = self.st
        for i, c in enumerate(real.simul.commits):
            if c.st is sub:
                c.answers.append((pick, opts[pick]))
                self.committed[len(self.answers)] = (seat, real.blocks, i)
                break
        if real.trace is not None:
            real.trace.append(("commit", spec.rule, str(spec.loc) if spec.loc else "",
                               seat, "(hidden until revealed)", len(opts)))

    def clone(self, believe: random.Random | None = None) -> "Game":
        """A copy to play on; with `believe` (a bot's generator), a belief (`State.clone`)."""
        c = Game.__new__(Game)
        c.plan, c.seed = self.plan, self.seed
        c.st = self.st.clone(believe)
        c.answers = self.answers[:]
        c.committed = dict(self.committed)
        c._pick = None
        c._blind = []
        return c

    def moves(self) -> list[tuple[int | None, int]]:
        """The decisions taken: (the seat that took it on its copy while a secret block collected,
        else None; the pick). `choose(pick, seat)` takes them again in this order."""
        committed = self.committed
        return [(committed[k][0] if k in committed else None, pick) for k, pick in enumerate(self.answers)]

    def in_turn(self) -> list[int]:
        """The picks in an order that answers the seats of each secret block one after another, in
        the block's list (however they committed): what `choose` without a seat takes again, as
        a season's save does."""
        out: list[int] = []
        block: list[tuple[int, int]] = []   # (place in the block's list, pick) of one block
        at = None
        for k, pick in enumerate(self.answers):
            where = self.committed.get(k)
            if where is None or where[1] != at:
                out += [p for _i, p in sorted(block, key=lambda x: x[0])]
                block = []
                at = None if where is None else where[1]
            if where is None:
                out.append(pick)
            else:
                block.append((where[2], pick))
        out += [p for _i, p in sorted(block, key=lambda x: x[0])]
        return out

    def copies(self) -> list[State]:
        """The seats' own copies of the table while a block collects commitments."""
        sim = self.st.simul
        return [] if sim is None else [c.st for c in sim.commits if c.st is not None]

    def recommit(self, seat: int) -> None:
        """On a bot's copy, while a `simultaneously` block collects commitments: every other seat
        takes its commitment back and starts its block again, since `seat` cannot know what they
        chose (whoever drives the copy chooses for them); `seat`'s own copy stays as it stands."""
        sim = self.st.simul
        if sim is None or self.st.pending is not None:
            return
        for c in sim.commits:
            st = c.st
            if st is not None and (st.pending is None or st.pending[3] != seat):
                c.st, c.answers, c.tape = None, [], None
        self._collect()

    # ---- what a seat sees ------------------------------------------------------------------

    def view(self, seat: int | None) -> dict:
        """The table as `seat` may see it. While a `simultaneously` block collects commitments,
        a seat of the block sees its own copy (what it committed so far); any other seat and a
        spectator see the real table, where no commitment has happened yet."""
        st = self.table_seen(seat)
        return reading(st, lambda: table_view(self.plan, st, seat))

    def table_seen(self, seat: int | None) -> State:
        """The table `seat` plays on: while a block collects, its own copy if it is one of the
        block's seats (its copy where it decides now, if it has several)."""
        real = self.st
        sim = real.simul
        if sim is None or seat is None or real.pending is not None:
            return real
        mine = self._table_of(seat)
        if mine is not None:
            return mine
        for s, c in zip(sim.seats, sim.commits):
            if s == seat and c.st is not None:
                return c.st
        return real

    # ---- the end ---------------------------------------------------------------------------

    def result(self) -> dict:
        return reading(self.st, self._result)

    def _result(self) -> dict:
        """Seats in finishing order with their numbers; `winners` are the seats tied first."""
        st, p = self.st, self.plan
        assert p.rank is not None  # a game file has `result.rank`
        keys = []
        for s in range(p.n_seats):
            env = {"seat": s}
            r = p.rank(st, env)
            t = p.tie(st, env) if p.tie is not None else 0
            for what, x in (("rank", r), ("tie", t)):
                if not isinstance(x, int) or isinstance(x, bool):
                    shown = show(p, ANY, x)
                    raise RuleError(f"the result's `{what}` of seat {s + 1} is {shown}, not a number",
                                    p.rules.get(f"result.{what}"), f"result.{what}")
            keys.append((r, t))
        sign = -1 if p.descending else 1
        order = sorted(range(p.n_seats), key=lambda s: (sign * keys[s][0], sign * keys[s][1], s))
        best = keys[order[0]]
        others = self._others(sign)
        if others:
            best = min([best] + [k for _p, k in others], key=lambda k: (sign * k[0], sign * k[1]))
        winners = [s for s in order if keys[s] == best]
        # each seat's place: 1 and the number of seats ahead of it (seats that tie share one)
        places = [1 + sum(1 for t in keys if (sign * t[0], sign * t[1]) < (sign * k[0], sign * k[1]))
                  for k in keys]
        out = {"order": order, "scores": [k[0] for k in keys], "winners": winners, "places": places,
               "rounds": st.g["__rounds"], "decisions": len(self.answers),
               "records": st.g.get("__records", {}), "ended": st.ended}
        if p.result_says is not None:   # the words players read beside each place
            out["says"] = [_words(p, p.result_says(st, {"seat": s}), s) for s in range(p.n_seats)]
        if p.also_pieces is not None:
            # seats and the pieces of `result.also` in one order (a seat first where they tie)
            entries: list[tuple[tuple, dict[str, Any]]] = [
                ((sign * keys[s][0], sign * keys[s][1], 0, s), {"seat": s}) for s in order]
            entries += [((sign * k[0], sign * k[1], 1, i), {"piece": p.piece_names[pc], "score": k[0]})
                        for i, (pc, k) in enumerate(others)]
            if p.also_says is not None:   # the words players read beside a piece's place
                for (pc, _k), (_key, entry) in zip(others, entries[len(order):]):
                    entry["says"] = _words(p, p.also_says(st, {"piece": pc}), p.piece_names[pc])
            entries.sort(key=lambda x: x[0])
            for key, entry in entries:   # its place among seats and pieces: those that tie share one
                entry["place"] = 1 + sum(1 for other, _e in entries if other[:2] < key[:2])
            out["standings"] = [e for _k, e in entries]
        return out

    def _others(self, sign: int) -> list:
        """The pieces of `result.also`, each with its (rank, tie)."""
        p, st = self.plan, self.st
        if p.also_pieces is None:
            return []
        pieces_fn, rank_fn, tie_fn = p.also_pieces, p.also_rank, p.also_tie
        assert rank_fn is not None  # `result.also` has `rank`
        out = []
        for pc in pieces_fn(st, {}):
            env = {"piece": pc}
            k = (rank_fn(st, env), tie_fn(st, env) if tie_fn is not None else 0)
            for what, x in zip(("rank", "tie"), k):
                if not isinstance(x, int) or isinstance(x, bool):
                    raise RuleError(f"the result's `also.{what}` of {p.piece_names[pc]} is "
                                    f"{show(p, ANY, x)}, not a number", p.rules.get(f"result.also.{what}"),
                                    f"result.also.{what}")
            out.append((pc, k))
        return out


def _words(p: Plan, said: Any, whose: int | str) -> str:
    """What `result.says` gives for a seat (its number from 0), or `result.also.says` for a piece
    (its name): a text (none, or an empty text, says nothing)."""
    if said is None:
        return ""
    if not isinstance(said, str):
        rule = "result.says" if isinstance(whose, int) else "result.also.says"
        who = f"seat {whose + 1}" if isinstance(whose, int) else str(whose)
        raise RuleError(f"the result's `{rule.removeprefix('result.')}` of {who} is {show(p, ANY, said)}, "
                        "not a text", p.rules.get(rule), rule)
    return said


def table_view(p: Plan, st: State, seat: int | None) -> dict:
    """The table `st` as `seat` may see it (None: a spectator, who sees only public things)."""
    owners = st.values("owner")
    piles = {}
    for pid, cards in enumerate(st.piles):
        if pid == p.aside:
            continue  # out of the game
        vis = p.pile_visible[pid]
        owner_seat = p.pile_seat(pid, owners)
        if vis is Visibility.ALL or (vis is Visibility.OWNER and seat is not None and owner_seat == seat):
            own = vis is Visibility.OWNER   # (its owner sees even the cards face down)
            shown = [p.card_label(c) if (st.up[c] or own) else "(face down)" for c in cards]
        elif vis is Visibility.TOP:
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
            vis = p.var_visible[(Per.PIECE, var)]
            if vis is Visibility.ALL or (vis is Visibility.OWNER and seat is not None and owner == seat):
                info[var] = _readable(p, (Per.PIECE, var), st.v[p.var_at[var] + pc])
        pieces[name] = info
    seats = []
    for s in range(p.n_seats):
        info = {}
        for var in p.seat_init:
            vis = p.var_visible[(Per.SEAT, var)]
            if vis is Visibility.ALL or (vis is Visibility.OWNER and s == seat):
                info[var] = _readable(p, (Per.SEAT, var), st.v[p.var_at[var] + s])
        seats.append(info)
    globals_ = {k: _readable(p, (Per.GAME, k), v) for k, v in st.g.items() if not k.startswith("__")
                and p.var_visible.get((Per.GAME, k), Visibility.ALL) is Visibility.ALL}
    # the declared facts, as players read them (`show:`, `view.seats`, `view.game`)
    for pc, name in enumerate(p.piece_names):
        owner = owners[pc]
        info = pieces[name]
        shown = _facts(p, "show", p.shown, st, {"piece": pc}, seat is not None and owner == seat)
        if p.view is None:  # a game without a view: its pieces' visible variables too, by name
            # (but one the game's own `show:` says under the same name)
            shown = [fact_text(p, ANY, v, k) for k, v in info.items() if k != "owner" and k not in p.shown] \
                + shown
        info["facts"] = [f for f in shown if f]
    seat_facts = [_facts(p, "view.seats", p.seat_facts, st, {"seat": s}, s == seat) for s in range(p.n_seats)]
    if p.line_facts:  # what the game says of each line ahead of a piece (`view.lines`)
        for board in boards.values():
            for info in board.get("pieces", []):
                own = seat is not None and pieces[info["piece"]]["owner"] == seat + 1
                for line in info.get("next", []):
                    fns = p.line_facts.get(line["kind"])
                    if fns is not None:
                        line["facts"] = _facts(p, f"view.lines.{line['kind']}", fns, st,
                                               {"d": line["progress"]}, own)
    return {"seat": seat, "game": globals_, "boards": boards, "pieces": pieces,
            "seats": seats, "piles": piles, "seat_facts": seat_facts,
            "game_facts": _facts(p, "view.game", p.game_facts, st, {}, False)}


def _facts(plan: Plan, site: str, fns: dict, st: State, env: dict, own: bool) -> list[str]:
    """Each fact of a section that has something to say, as players read it: `lap 3`, `money 6
    dollars`, a true fact by its label (`out`); nothing for a false, empty or `none` value, nor for a
    fact seen by its owner only, to anybody else."""
    out = []
    for name, fn in fns.items():
        rule = f"{site}.{name}"
        label, unit, owner_only = plan.fact_meta.get(rule, (name, ("", ""), False))
        if owner_only and not own:
            continue
        text = fact_text(plan, plan.fact_types.get(rule, ANY), fn(st, env), label, unit)
        if text:
            out.append(text)
    return out


def fact_text(plan: Plan, typ: Type, value: Any, label: str, unit: tuple[str, str] = ("", "")) -> str:
    """One fact as a player reads it ("" when there is nothing to say). `unit`: its words after 1
    (or -1), and after any other value."""
    if value is None or value is False or value == "" or value == [] or value == {}:
        return ""
    if value is True:
        return label or "yes"
    text = words(plan, typ, value)
    said = unit[0] if value in (1, -1) else unit[1]
    if said:
        text = f"{text} {said}"
    return f"{label} {text}" if label else text


def _readable(plan: Plan, key: tuple[Per, str], value: Any) -> Any:
    """Seats, pieces and cards in a view read as a person names them (`seat 2`, `red`), also
    inside lists and maps."""
    return _readable_as(plan, plan.var_types.get(key), value)


def _readable_as(plan: Plan, typ: Type | None, value: Any,
                 done: dict[tuple[int, Type], Any] | None = None) -> Any:
    """`done` holds the lists and maps already read, by identity: a list that holds the same
    list 99,999 times (cheap for the rules to make) is read once, not 99,999 times."""
    if value is None or typ is None:
        return value
    if typ in (SEAT, PIECE, CARD, PILE):
        return show(plan, typ, value)
    if is_list(typ) or is_map(typ):
        done = {} if done is None else done
        key = (id(value), typ)
        if key in done:
            return done[key]
        if is_list(typ):
            out: list | dict = [_readable_as(plan, elem(typ), x, done) for x in value]
        else:
            key_t, value_t = map_types(typ)
            out = {_readable_as(plan, key_t, k, done): _readable_as(plan, value_t, x, done)
                   for k, x in value.items()}
        done[key] = out
        return out
    return value


# ---- series: what one game hands on to the next -------------------------------------------------

def carried(game: Game) -> dict:
    """What a game hands on to the next game of a series (its `carry:`), as plain data: values of
    variables, and the card types in each carried pile (bottom to top)."""
    p, st = game.plan, game.st
    piles = {}
    for name in p.carry_piles:
        base = p.pile_base[name]
        count = 1 if p.pile_per[base] is Per.GAME else p.n_seats
        piles[name] = [[p.card_types[p.card_type[c]] for c in st.piles[base + i]] for i in range(count)]
    return {"seat": {v: [st.v[p.var_at[v] + s] for s in range(p.n_seats)] for v in p.carry_seat},
            "game": {v: st.g[v] for v in p.carry_game},
            "piles": piles}


def _carry_in(plan: Plan, st: State, data: dict) -> None:
    """Put what the previous game handed on in place: variables set, and for each carried pile the
    cards of those types taken from wherever they start (a type the game lacks is a rule error)."""
    for name, values in data.get("seat", {}).items():
        if name in plan.carry_seat:
            for s, value in enumerate(values[:plan.n_seats]):
                st.v[plan.var_at[name] + s] = value
    for name, value in data.get("game", {}).items():
        if name in plan.carry_game:
            st.g[name] = value
    taken: set[int] = set()
    for name, per_pile in data.get("piles", {}).items():
        if name not in plan.carry_piles:
            continue
        base = plan.pile_base[name]
        for i, types in enumerate(per_pile):
            if base + i >= len(st.piles) or plan.pile_decl[base + i] != name:
                break
            seat_pile = plan.pile_per[base] is Per.SEAT
            for t in types:
                # a card of this type, the seat's own first (cards dealt to each seat)
                free = [c for c in range(len(plan.card_type))
                        if c not in taken and plan.card_types[plan.card_type[c]] == t]
                own = [c for c in free if seat_pile and plan.pile_owner[st.where[c]] == i]
                card = (own or free)[0] if own or free else None
                if card is None:
                    raise RuleError(f"the previous game handed on a card `{t}` that this game does not have "
                                    f"(pile `{name}`)")
                taken.add(card)
                st.piles[st.where[card]].remove(card)
                st.piles[base + i].append(card)
                st.where[card] = base + i
