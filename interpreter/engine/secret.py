"""Commit-then-reveal: every seat of a `simultaneously` block decides at once, each on its own
copy of the table; when the last one has committed, the blocks are revealed on the real table in
the list's order.

- **Every seat at once.** When a block starts, each seat's block starts on a copy of the table of
  its own (`Commit`) and runs to the seat's first choice; the seats answer in any order
  (`Game.choose(pick, seat)`), each on its copy, where nobody else's commitment has happened.
- **Chance of its own.** A seat's block draws from a random stream of its own (`state.Tape`),
  seeded from the game's seed, the block's place in the game (how many blocks started before it)
  and the seat's place in the block's list, and the numbers it drew are kept: at the reveal the
  block reads them again, so it shuffles, draws and rolls on the table as it did on the seat's
  copy, whatever order the seats committed in. (A game recorded before streams existed plays with
  `State.streams` off: the seats' copies borrow the game's generator, as they did.)
- **Played once where that is safe.** A block the compiler found to touch only its own seat's
  places (`check/secret.py`, its `Secrecy`) is taken into the table from the seat's copy
  (`_merge`), once what the copy really changed has been checked to be the seat's own; any other
  block, and every block after it, is played again on the table, its choices answered from what
  the seat committed (`State.feed`).
- **A choice gone at the reveal says why** (`gone`): the blocks before it are played again, one
  by one, on copies of the table as the reveal found it, to find whose block changed what this
  one chose from, and with which statement.
"""
from __future__ import annotations

import random
import sys
from typing import Any

from ..base.diagnostics import Loc, source_line
from ..base.errors import RuleError
from .state import SharedRandom, State, Tape
from .tally import Counting
from .vm import Watch, run


class Commit:
    """One seat's part of a block collecting commitments: its copy of the table (None until its
    block starts), the options it took where it had a choice, its random stream."""

    __slots__ = ("st", "answers", "tape")

    def __init__(self) -> None:
        self.st: State | None = None
        # (pick, the option picked), in order, for every choice of its block (a single option too)
        self.answers: list[tuple[int, tuple]] = []
        self.tape: Tape | None = None

    @property
    def deciding(self) -> bool:
        return self.st is not None and self.st.pending is not None

    @property
    def finished(self) -> bool:
        return self.st is not None and self.st.pending is None and not self.st.frames

    def clone(self, believe: random.Random | None) -> "Commit":
        c = Commit()
        c.answers = self.answers[:]
        tape = self.tape
        if tape is not None:
            c.tape = tape.believed(believe) if believe is not None else tape.copy()
        if self.st is not None:
            c.st = self.st.clone(believe)
            c.st.taking, c.st.block_seat = c.answers, self.st.block_seat
            if c.tape is not None:
                c.st.rng = c.tape
        return c


class SimulRun:
    """A `simultaneously` block collecting its seats' commitments, then being revealed."""

    __slots__ = ("seats", "var", "body", "env", "secrecy", "key", "commits", "done", "steps",
                 "before", "main", "merging", "feeding", "owned")

    def __init__(self, seats: list[int], var: str, body: Any, env: dict[str, Any], secrecy: Any,
                 key: str | random.Random | None, steps: int):
        self.seats = seats
        self.var = var
        self.body = body
        self.env = env
        self.secrecy = secrecy   # what the compiler found the block touches (`check/secret.py`), or None
        # each seat's stream is made from this key, or drawn from this generator (a bot's
        # belief); None: the seats borrow the game's generator (`State.streams` off)
        self.key = key
        self.commits = [Commit() for _ in seats]
        self.done = False
        self.steps = steps       # the game's steps when the block started: each copy's start
        # while revealed: the table as the reveal found it (never run: merges compare with it, a
        # choice gone is explained on copies of it); the game's own generator, set aside while a
        # block plays with its seat's stream; whether seats are still taken in from their copies;
        # whose commitments are being fed to its block
        self.before: State | None = None
        self.main: Any = None
        self.merging = False
        self.feeding = -1
        self.owned: list = []    # each seat's (piles, variables' places) as the reveal found them

    def gone(self, st: State, label: str | None) -> str:
        """(`vm.decide`'s question, asked of the block being revealed: see `gone`)"""
        return gone(self, label)

    def stream(self, i: int) -> Tape | None:
        key = self.key
        if key is None:
            return None
        if isinstance(key, str):
            return Tape(f"{key}/{i}")
        return Tape(None, key)   # in a belief: the bot's generator

    def clone(self, believe: random.Random | None = None) -> "SimulRun":
        c = SimulRun.__new__(SimulRun)
        c.seats, c.var, c.body, c.env, c.secrecy = self.seats, self.var, self.body, self.env, self.secrecy
        c.key = believe if believe is not None and self.key is not None else self.key
        c.commits = [x.clone(believe) for x in self.commits]
        c.done, c.steps, c.merging, c.feeding = self.done, self.steps, self.merging, self.feeding
        c.owned = self.owned
        c.before = None if self.before is None else self.before.snapshot()
        main = self.main
        c.main = main.fork() if type(main) is SharedRandom else main
        return c


# ---- what generated code calls --------------------------------------------------------------

def simul(st: State, seats: list, var: str, body: Any, env: dict, secrecy: Any = None) -> SimulRun:
    """A block starts collecting: its seats' streams keyed by the game's seed and how many blocks
    started before this one (in a bot's belief, drawn from the bot's generator)."""
    n = st.blocks
    st.blocks = n + 1
    if not st.streams:
        key: str | random.Random | None = None
    elif st.believe is not None:
        key = st.believe.rng
    else:
        key = f"simultaneously/{st.seed}/{n}"
    return SimulRun(seats, var, body, env, secrecy, key, st.steps)


def reveal(st: State, env: dict) -> None:
    """Every seat has committed: the blocks revealed in the list's order, each taken in from its
    copy or played again (`_reveal_next`)."""
    sim: SimulRun = st.simul
    st.simul = None
    st.revealing = sim
    # the seats' copies share the table's lists: while it is revealed it copies one before
    # changing it (`_reveal_next` gives them back to it at the end)
    st.mine = 0
    st.cards_mine = False
    sim.before = st.snapshot()
    sim.main = st.rng
    if not st.streams:   # the seats borrowed the generator as it stands: keep it so
        sim.before.rng = st.rng.fork() if type(st.rng) is SharedRandom else st.rng
    secrecy = sim.secrecy
    # (a bot's belief takes in every copy that changed only its seat's own places: its copies of
    # other seats were imagined, so the reveal need only keep the table whole)
    sim.merging = ((secrecy is not None and secrecy.once or st.believe is not None) and st.streams
                   and len(set(sim.seats)) == len(sim.seats) and (st.watch is None or st.watch.stop is None))
    if sim.merging:
        plan = st.plan
        at = plan.var_at["owner"]
        sim.owned = plan.owned(tuple(st.v[at:at + plan.n_pieces]))
    st.frames.append([_reveal_next, 0, {"i": 0}])


def _reveal_next(st: State, fr: list) -> bool:
    """The seats from `i` on: each taken in from its copy while that is safe; the first that is not
    is played again (on top of this frame, which goes on with the next when it is done)."""
    sim: SimulRun = st.revealing
    env = fr[2]
    i, n = env["i"], len(sim.seats)
    while i < n:
        if sim.merging:
            if _merge(st, sim, i):
                i += 1
                continue
            sim.merging = False  # what a block does on the table is not known: it and the rest are played
        env["i"] = i + 1
        c = sim.commits[i]
        sim.feeding = i
        st.feed = list(c.answers)
        if c.tape is not None:
            st.rng = c.tape.rewound()
        local = dict(sim.env)
        local[sim.var] = sim.seats[i]
        st.frames.append([_seat_end, 0, env])
        st.frames.append([sim.body, 0, local])
        return False
    st.frames.pop()
    st.revealing = None
    st.mine = -1        # the copies are gone: the table's lists are its own again
    st.cards_mine = True
    return False


def _seat_end(st: State, fr: list) -> bool:
    sim: SimulRun = st.revealing
    if st.feed and st.believe is None:
        seat = sim.seats[sim.feeding]
        raise RuleError(f"seat {seat + 1}'s block made fewer choices when revealed than it committed: "
                        f"{_culprit(sim, sim.feeding)}", None, "simultaneously")
    st.feed = None
    sim.feeding = -1
    st.rng = sim.main
    st.frames.pop()
    return False


def start(st: State, sim: SimulRun, i: int) -> State:
    """Seat i's block on its own copy of the table `st` (which does not change until every seat has
    committed), ready to run to its first choice (`vm.run`)."""
    c = sim.commits[i]
    sub = st.commit_copy()
    if c.tape is None:
        c.tape = sim.stream(i)
    if c.tape is not None:
        sub.rng = c.tape
        # the faces a scenario arranged are the table's: each seat's block takes the next one
        # where it rolls (its stream keeps it for the reveal), none sees one twice
        sub.rolls = st.rolls
    sub.ask = st.ask   # its seat answers in place too (`Game.answer_with`)
    once = sim.secrecy is not None and sim.secrecy.once
    if st.trace is not None:
        sub.trace = []  # what it says and chooses is told when it is taken into the table
    if once and type(st.tally) is Counting:
        sub.tally = Counting(st.plan.n_seats)
    if st.watch is not None and st.watch.forced:  # a seat's forced choices are asked too
        sub.watch = Watch(forced=True)
    local = dict(sim.env)
    local[sim.var] = sim.seats[i]
    sub.frames = [[sim.body, 0, local]]
    c.st = sub
    c.answers = sub.taking = []
    sub.block_seat = sim.seats[i] if type(sim.seats[i]) is int else -1
    return sub


# ---- played once: a seat's copy taken into the table ---------------------------------------------

def _merge(st: State, sim: SimulRun, i: int) -> bool:
    """Seat i's block taken into the table from its copy, if all the copy changed is the seat's own
    (its variables, its pieces' variables, its piles and its pieces' piles, the cards in them) and
    the game stays within its step limit. False: the block is to be played again.

    What the copy changed is found cheaply: a pile it changed (or a card it moved or turned in
    one) it first made its own (`State.pile_w`: a bit of `mine`), and its variables are compared
    with the table's as whole lists (in C), its own seat's put back first."""
    sub = sim.commits[i].st
    before = sim.before
    assert before is not None
    if sub is None or sub.ended or sub.frames or sub.pending is not None:
        return False
    plan = st.plan
    seat = sim.seats[i]
    if type(seat) is not int or not 0 <= seat < plan.n_seats:
        return False
    own, slots = sim.owned[seat]
    mine = sub.mine
    piles, piles0 = sub.piles, before.piles
    if mine < 0:   # a copy of a copy (a bot's) owns every list: compare them all
        changed = [p for p, (a, b) in enumerate(zip(piles, piles0)) if a is not b and a != b]
        if any(not own >> p & 1 for p in changed):
            return False
    else:
        if mine & ~own:
            return False
        changed = plan.piles_of(mine)
    if sub.g != before.g or sub.bd != before.bd:
        return False
    sv, v0 = sub.v, before.v
    if sv != v0:
        rest = sv[:]
        for k in slots:
            rest[k] = v0[k]
        if rest != v0:
            return False
    steps = st.steps + sub.steps - sim.steps
    if steps > plan.max_steps:
        return False   # played again, so that the limit stops it where it would have
    # taken in (the copy's lists: the copy is done with them)
    stp = st.piles
    if sub.cards_mine and changed:
        if not st.cards_mine:
            st.own_cards()
        sw, su, up = st.where, st.up, sub.up
        for p in changed:
            cards = stp[p] = piles[p]
            for c in cards:
                sw[c] = p
                su[c] = up[c]
    else:
        for p in changed:
            stp[p] = piles[p]
    for p in changed:
        st.mine |= 1 << p
    v = st.v
    for k in slots:
        v[k] = sv[k]
    st.steps = steps
    if st.trace is not None and sub.trace:
        st.trace.extend(sub.trace)
    if type(st.tally) is Counting and sub.tally is not None:
        counts = st.tally.counts
        for key, n in sub.tally.counts.items():
            counts[key] = counts.get(key, 0) + n
        for chosen, more in zip(st.tally.chosen, sub.tally.chosen):
            chosen |= more
    return True


# ---- a committed choice gone at the reveal ---------------------------------------------------------

def gone(sim: SimulRun, label: str | None) -> str:
    """Why a seat's committed choice (`label`; None: one more choice than it committed) is not
    there when its block is played at the reveal: whose block, played before it, changed what it
    chose from, and with which statement."""
    seat = sim.seats[sim.feeding]
    what = (f"seat {seat + 1}'s block asks one more choice when revealed than it committed"
            if label is None else f"seat {seat + 1}'s committed choice \"{label}\" is no longer an option "
                                  "when revealed")
    return f"{what}: {_culprit(sim, sim.feeding)}"


def _culprit(sim: SimulRun, i: int) -> str:
    """Each block before seat i's is played again, alone and in turn, on a copy of the table as
    the reveal found it, until seat i's block no longer plays as committed: that block is the
    culprit, and its statement after which seat i's block first fails is the one to name."""
    before = sim.before
    if before is None:
        return "another seat's block changed it"

    def fits(table: State) -> bool:
        return _alone(table.clone(), sim, i) is None

    if i == 0 or not fits(before):
        return ("this seat's own block chose from other options when played again on the table: it reads "
                "something that is not the same on the seat's copy and on the table")
    table = before.clone()
    for k in range(i):
        spy = _Spy(table, fits)
        _alone(table, sim, k, spy)
        if spy.found is not None or not fits(table):
            who = f"seat {sim.seats[k] + 1}'s block, revealed before it,"
            if spy.found is None:
                return f"{who} changed it"
            loc, what = spy.found
            if loc is None:
                return f"{who} {what}"
            text = source_line(loc)
            quoted = f" (`{text.strip()}`)" if text is not None and text.strip() else ""
            return f"{who} {what} at {loc}{quoted}"
    return "another seat's block changed it"


def _alone(table: State, sim: SimulRun, k: int, spy: "_Spy | None" = None) -> str | None:
    """Seat k's block played on `table` from its commitments, as at the reveal: None when it
    plays through them, else what went wrong."""
    c = sim.commits[k]
    table.feed = list(c.answers)
    table.revealing = None
    table.pending = None
    table.ask = None
    table.watch = None
    table.trace = None
    if c.tape is not None:
        table.rng = c.tape.rewound()
    # (else the game's generator as the reveal found it: the seats borrowed it so, `streams` off)
    local = dict(sim.env)
    local[sim.var] = sim.seats[k]
    table.frames = [[sim.body, 0, local]]
    old = sys.gettrace()
    try:
        if spy is not None:
            sys.settrace(spy.trace)
        run(table)
    except RuleError as e:
        return e.message
    finally:
        if spy is not None:
            sys.settrace(old)
            spy.check()
    if table.pending is not None:
        return "more choices"
    if table.feed:
        return "fewer choices"
    return None


class _Spy:
    """Follows a block played on `st`, line by line of generated code, and keeps the first change
    of the table after which `fits(st)` no longer holds, with the position of the statement that
    made it (only to explain a failure: it is slow)."""

    def __init__(self, st: State, fits: Any):
        self.st = st
        self.fits = fits
        self.found: tuple[Loc | None, str] | None = None
        self.last = _look(st)
        self.at: Loc | None = None

    def trace(self, frame: Any, event: str, arg: Any) -> Any:
        from .boundary import SOURCE, _position

        if self.found is not None:
            return None
        source = frame.f_globals.get(SOURCE)
        if source is None:
            return None
        if event in ("line", "return"):
            self.check()
            if event == "line":
                code = frame.f_code
                found = source.locate(code, *_position(code, frame.f_lasti))
                if found is not None:
                    self.at = found[0]
        return self.trace

    def check(self) -> None:
        """(While this runs, Python does not trace: `fits` plays its own copy untraced.)"""
        if self.found is not None:
            return
        now = _look(self.st)
        if now != self.last:
            what = _change(self.st.plan, self.last, now)
            self.last = now
            if not self.fits(self.st):
                self.found = (self.at, what)


def _look(st: State) -> tuple:
    return ([p[:] for p in st.piles], st.v[:], dict(st.g))


def _change(plan: Any, a: tuple, b: tuple) -> str:
    """One change from table `a` to `b`, in a player's words."""
    piles_a, v_a, g_a = a
    piles_b, v_b, g_b = b
    for p, (x, y) in enumerate(zip(piles_a, piles_b)):
        if x != y:
            left = [c for c in x if c not in y]
            came = [c for c in y if c not in x]
            if left:
                return f"took {_cards(plan, left)} from {plan.pile_names[p]}"
            if came:
                return f"put {_cards(plan, came)} in {plan.pile_names[p]}"
            return f"reordered {plan.pile_names[p]}"
    for k, (x, y) in enumerate(zip(v_a, v_b)):
        if x != y:
            return f"changed {_slot(plan, k)}"
    for name in g_b:
        if g_a.get(name) != g_b.get(name) and not name.startswith("__"):
            return f"changed `{name}`"
    return "changed the table"


def _cards(plan: Any, cards: list[int]) -> str:
    names = [plan.card_label(c) for c in cards[:4]]
    return ", ".join(names) + (f" and {len(cards) - 4} more" if len(cards) > 4 else "")


def _slot(plan: Any, k: int) -> str:
    """A seat or piece variable's place in `State.v`, as a player names it."""
    for name, at in sorted(plan.var_at.items(), key=lambda x: x[1], reverse=True):
        if at <= k:
            i = k - at
            whose = (f"seat {i + 1}" if name in plan.seat_init else plan.piece_names[i]
                     if name in plan.piece_init else f"card {plan.card_label(i)}")
            return f"`{name}` of {whose}"
    return "a variable"
