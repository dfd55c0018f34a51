"""Game state as plain data: lists and dicts of ints, with a cheap `clone()`.

Cards, seats, pieces and piles are small ints; a pile is a list of cards with its top at the
end. The interpreter's own position (frames of the machine) is part of the state, so a clone
can be played on from where it stands (search bots, commit-then-reveal).
"""
from __future__ import annotations

import random
from typing import Any

from ..base.limits import Steps, too_many
from .plan import Plan


class SharedRandom:
    """A seeded generator whose copies share one state until one of them draws (copy on write):
    a clone costs nothing here unless the copy meets chance. Behaves as `random.Random`."""

    __slots__ = ("_r", "_shared")

    def __init__(self, r: random.Random, shared: bool = False):
        self._r = r
        self._shared = shared

    def fork(self) -> "SharedRandom":
        self._shared = True
        return SharedRandom(self._r, True)

    def lend(self) -> "SharedRandom":
        """A copy for a state that lives only while this generator draws nothing (a seat's copy
        while it commits): it copies the generator when it first draws, and this one is not
        made to copy itself when it next draws."""
        return SharedRandom(self._r, True)

    def own(self) -> random.Random:
        if self._shared:
            r = random.Random.__new__(random.Random)
            r.setstate(self._r.getstate())
            self._r = r
            self._shared = False
        return self._r

    def getstate(self) -> Any:
        return self._r.getstate()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.own(), name)


# (inside `Tape`, `random` names its own method: the module's class is named so there)
Generator = random.Random


class Tape:
    """A seat's random stream in a `simultaneously` block (`engine/secret.py`). Its numbers come
    from a generator of its own, made from `key` when first needed (or from a bot's generator, in
    a belief), and are kept in the order drawn; a copy `rewound` for the reveal reads them again
    from the first. It has `random.Random`'s methods, which all draw through `getrandbits`
    (shuffles, `randrange`, `choice`...), so they all read the same numbers again."""

    __slots__ = ("key", "source", "numbers", "at")

    def __init__(self, key: str | None, source: random.Random | None = None):
        self.key = key
        self.source = source
        self.numbers: list[tuple[int, int]] = []   # (bits asked, the number), in the order drawn
        self.at = 0                                # the next one to read

    def getrandbits(self, k: int) -> int:
        numbers, at = self.numbers, self.at
        if at < len(numbers):
            bits, value = numbers[at]
            if bits == k:
                self.at = at + 1
                return value
            del numbers[at:]   # the block asks for other numbers than it drew: new ones from here
        source = self.source
        if source is None:
            source = self.source = Generator(self.key)
        value = source.getrandbits(k)
        numbers.append((k, value))
        self.at = at + 1
        return value

    def random(self) -> float:
        return self.getrandbits(53) * 2.0 ** -53

    # random.Random's own methods, drawing through `getrandbits` and `random` above
    _randbelow = Generator._randbelow_with_getrandbits  # type: ignore[attr-defined]
    shuffle = Generator.shuffle
    randrange = Generator.randrange
    randint = Generator.randint
    choice = Generator.choice
    sample = Generator.sample
    uniform = Generator.uniform

    def arranged(self, die: int, rolls: dict[int, list[int]]) -> int | None:
        """The face a scenario arranged (`next_rolls`) for this roll of `die` in the stream, or
        None: the face the seat's copy took, read again at the reveal; else the next of the
        table's arranged faces (which every seat's copy takes from: each face once, in the order
        the blocks roll), kept with the stream's numbers (as bits -1 - die)."""
        numbers, at = self.numbers, self.at
        if at < len(numbers):
            bits, face = numbers[at]
            if bits != -1 - die:
                return None   # the copy drew a number here: so does the block at the reveal
            self.at = at + 1
            return face
        faces = rolls.get(die)
        if not faces:
            return None
        face = faces.pop(0)
        numbers.append((-1 - die, face))
        self.at = at + 1
        return face

    def _made(self, numbers: list, at: int, source: Generator | None) -> "Tape":
        t = Tape(self.key, source)
        t.numbers = numbers
        t.at = at
        return t

    def copy(self) -> "Tape":
        """The same stream, to go on independently (a copy of the game). A bot's generator stays
        shared, as a belief's always is."""
        source = self.source
        if source is not None and self.key is not None:
            twin = Generator()
            twin.setstate(source.getstate())
            source = twin
        return self._made(self.numbers[:], self.at, source)

    def rewound(self) -> "Tape":
        """The stream from its first number again: the block at the reveal reads what it drew on
        the seat's copy (and goes on where the copy left off, should it ask for more)."""
        t = self.copy()
        t.at = 0
        return t

    def believed(self, rng: Generator) -> "Tape":
        """A bot's belief of the stream: the numbers already drawn stay what they were (the seat
        has seen what they did); those still to come are the bot's own."""
        return self._made(self.numbers[:self.at], self.at, rng)


class Belief:
    """A bot's lookahead: its own generator stands in for chance; a pile nobody sees gives any of
    its cards, whatever their real order, so that the bot does not learn what the game has in
    store. `chance` says whether the copy met chance at all."""

    __slots__ = ("rng", "ordered", "chance")

    def __init__(self, rng: random.Random, ordered: frozenset = frozenset(), chance: bool = False):
        self.rng = rng
        self.ordered = ordered   # unseen piles already put in a believed order (never changed in place)
        self.chance = chance

    def copy(self) -> "Belief":
        return Belief(self.rng, self.ordered, self.chance)

    def order(self, pile: int) -> None:
        self.ordered = self.ordered | {pile}
        self.chance = True


class State:
    """A table at one moment: the piles (card ids), where each card is and which face up, the
    game's and each seat's, piece's and card's variables (`g`, `v`), the boards' data (`bd`), the
    generator, and where the flow waits. Copied cheaply for previews, bots and secret blocks."""
    __slots__ = ("plan", "piles", "where", "up", "mine", "cards_mine", "g", "v", "bd", "rng", "frames",
                 "pending", "trace", "ended", "steps", "feed", "simul", "believe", "watch", "tally", "ask",
                 "seed", "blocks", "streams", "revealing", "rolls", "memo", "taking", "block_seat", "veil",
                 "arranged_piles")

    def __init__(self, plan: Plan, seed: int, streams: bool = True):
        self.plan = plan
        self.piles: list[list[int]] = [[] for _ in range(plan.n_piles)]
        self.where: list[int] = []
        self.up: list[bool] = []
        # A scratch copy (`scratch`) shares the pile lists and `where`/`up` with its original
        # and copies one before it first changes it: `mine` has bit i set when pile i is this
        # state's own list, `cards_mine` says the same of `where` and `up`. So piles, `where` and
        # `up` change only through the methods below, which take ownership first.
        self.mine = -1
        self.cards_mine = True
        self.g: dict = dict(plan.global_init)
        self.v: list = plan.var_start[:]   # seat and piece variables (plan.var_at)
        self.bd: list = [kind.init(self) for kind in plan.board_kinds]  # each board's data (its kind's)
        self.rng: Any = SharedRandom(random.Random(seed))  # or a bot's own generator (a belief)
        self.frames: Any = []   # a list; a scratch copy, never run, has the empty tuple
        self.pending: Any = None
        self.trace: list | None = None
        self.ended = False
        self.steps = 0
        self.feed: list | None = None   # a seat's commitments fed to its block at a reveal
        # on a seat's copy while it commits: its commitments, every choice its block meets (a
        # single option too, so that the reveal takes each in turn: `vm.decide`)
        self.taking: list | None = None
        self.block_seat = -1   # ... and the seat it is (a choice there is that seat's alone)
        self.simul: Any = None           # a `simultaneously` block collecting commitments (`secret.py`)
        self.revealing: Any = None       # ... and being revealed
        # the seats of a `simultaneously` block draw from streams of their own, keyed by the seed
        # and how many blocks started before (`secret.simul`); a game recorded before streams
        # existed has them off: the seats' copies borrow the game's generator
        self.seed = seed
        self.blocks = 0
        self.streams = streams
        # on a bot's copy: what its seat cannot see, dealt anew when the copy first reads it
        # (`hidden.Veil`); None on the real table
        self.veil: Any = None
        self.rolls: dict[int, list[int]] | None = None   # arranged rolls by die (`next_rolls`)
        # the piles a scenario's situation arranged (`set_pile`, `stack_pile`): never a copy's
        self.arranged_piles: set[int] | None = None
        self.believe: Belief | None = None   # a bot's lookahead copy (see `Belief`)
        self.watch: Any = None   # what a scenario watches for (`vm.Watch`); a copy is not watched
        self.tally: Any = None   # what the engine counts when asked (`tally.Tally`); never in a copy
        # who answers a decision in place, from inside the rules (`vm.decide`): fn(st) -> the
        # option, or -1 to wait as usual; never in a copy but a seat's commitment copy (`Game`)
        self.ask: Any = None
        # while the table is only looked at (`game.reading`, a bot's evaluation): the values of
        # the ruleset's functions computed so far, by function and arguments (the compiler says
        # which functions keep theirs); None while the game is played
        self.memo: dict | None = None

    def _copy(self, share_cards: bool) -> "State":
        """A new state with this one's table: its variables and boards copied, its cards copied
        too or (`share_cards`) shared until changed; no decision pending, no trace, no answers
        fed, no block collecting commitments, nobody watching or counting. The caller gives it
        its generator, belief and frames (and `clone` what it copies of the rest)."""
        c = State.__new__(State)
        plan = c.plan = self.plan
        if share_cards:
            c.piles = self.piles[:]   # the same lists: `pile_w` copies one before changing it
            c.where = self.where
            c.up = self.up
            c.mine = 0
            c.cards_mine = False
        else:
            c.piles = list(map(list.copy, self.piles))
            c.where = self.where[:]
            c.up = self.up[:]
            c.mine = -1
            c.cards_mine = True
        c.g = self.g.copy()
        c.v = self.v[:]
        c.bd = plan.clone_bd(self.bd)
        c.ended = self.ended
        c.steps = self.steps
        c.seed = self.seed
        c.blocks = self.blocks
        c.streams = self.streams
        c.revealing = None
        rolls = self.rolls
        c.rolls = None if rolls is None else {d: faces[:] for d, faces in rolls.items()}
        c.arranged_piles = None
        c.tally = None
        c.ask = None
        c.pending = None
        c.trace = None
        c.feed = None
        c.taking = None
        c.block_seat = -1
        c.simul = None
        c.watch = None
        c.memo = None
        c.veil = self.veil
        return c

    def clone(self, believe: random.Random | None = None) -> "State":
        """A copy to play on. With `believe`, the copy is a bot's belief (see `self.believe`):
        chance and the order of unseen piles come from that generator."""
        c = self._copy(False)
        if believe is not None:
            c.rng = believe
            c.believe = Belief(believe)
        else:
            rng = self.rng
            kind = type(rng)
            # a belief's generator is shared
            c.rng = rng.fork() if kind is SharedRandom else rng.copy() if kind is Tape else rng
            c.believe = None if self.believe is None else self.believe.copy()
        # a running `for` sits in its frame's locals as a tuple (items, next index): a copy of
        # the locals is a copy of the loop
        c.frames = [[code, pc, env.copy()] for code, pc, env in self.frames]
        if self.pending is not None:
            spec, opts, env, seat = self.pending
            # The choice waits in the top frame: its copy's locals go with the copy.
            mine = c.frames[-1][2] if self.frames and env is self.frames[-1][2] else env
            c.pending = (spec, opts, mine, seat)
        if self.trace is not None:
            c.trace = self.trace[:]
        if self.feed is not None:
            c.feed = self.feed[:]
        if self.simul is not None:
            c.simul = self.simul.clone(believe)
        if self.revealing is not None:
            c.revealing = self.revealing.clone(believe)
        return c

    def commit_copy(self) -> "State":
        """A seat's copy while it commits (commit-then-reveal), to be run from a frame the caller
        gives it. It shares the piles, `where` and `up` until it changes them, and borrows the
        generator (`SharedRandom.lend`; the caller gives it the seat's stream instead): this
        state must not change those lists while the copy is in use, and does not: the real table
        waits until every seat has committed, then copies each list before it changes it
        (`secret.reveal`)."""
        c = self._copy(True)
        rng = self.rng
        c.rng = rng.lend() if type(rng) is SharedRandom else rng  # a belief's is shared
        c.believe = None if self.believe is None else self.believe.copy()
        c.frames = []
        return c

    def snapshot(self) -> "State":
        """The table as it is now, kept to be read or copied, never run: it shares the piles,
        `where` and `up` with this state, which must from now on copy a list before changing it
        (the caller sets `mine` and `cards_mine` so)."""
        c = self._copy(True)
        c.rng = None
        c.believe = None
        c.frames = ()
        return c

    def scratch(self, believe: random.Random) -> "State":
        """A bot's throwaway belief copy (see `clone`) to run one option's own effects on and
        score. It is cheap: it shares the piles, `where` and `up` with this state and copies a
        pile only when it changes it, and it has no machine (no frames: it is never run). This
        state must not change while the copy is in use."""
        c = self._copy(True)
        c.rng = believe
        c.believe = Belief(believe)
        c.frames = ()
        return c

    def values(self, name: str) -> list:
        """A seat, piece or card variable's values, by seat, piece or card number."""
        p = self.plan
        at = p.var_at[name]
        n = p.n_seats if name in p.seat_init else p.n_pieces if name in p.piece_init else len(p.card_type)
        return self.v[at:at + n]

    def end(self, pile: int, index: int) -> int | None:
        """The top (-1) or bottom (0) card of a pile, or None."""
        veil = self.veil
        if veil is not None and pile in veil.watch:
            veil.lift(self, pile)
        b = self.believe
        # in a belief, a pile nobody sees and not yet put in a believed order
        if b is not None and pile in self.plan.unseen_piles and pile not in b.ordered:
            cards = self.pile_w(pile)
            cards.sort()  # forget the real order, then believe one
            self.rng.shuffle(cards)   # the bot's generator (through a seat's stream, on its copy)
            b.order(pile)
        cards = self.piles[pile]
        return cards[index] if cards else None

    def arranged(self, die: int) -> int | None:
        """The next face a scenario arranged for `die` (`next_rolls`), or None. A seat's block in a
        `simultaneously` (its own stream, a `Tape`) takes it through its stream, so that the
        reveal reads the same face again."""
        rolls = self.rolls
        if rolls is None:
            return None
        if type(self.rng) is Tape:
            return self.rng.arranged(die, rolls)
        faces = rolls.get(die)
        return faces.pop(0) if faces else None

    # ---- card movement: the only place piles, `where` and `up` change ----------------------

    def seen(self, pile: int) -> list:
        """Pile `pile` to read (the rules list its cards): on a bot's copy, what the seat cannot
        see is dealt anew first if some of it lies there (`hidden.Veil`)."""
        veil = self.veil
        if veil is not None and pile in veil.watch:
            veil.lift(self, pile)
        return self.piles[pile]

    def pile_w(self, pile: int) -> list:
        """Pile `pile` as a list this state may change (copied first if it is shared)."""
        veil = self.veil
        if veil is not None and pile in veil.watch:
            veil.lift(self, pile)
        if not self.mine >> pile & 1:
            self.piles[pile] = self.piles[pile][:]
            self.mine |= 1 << pile
        return self.piles[pile]

    def own_cards(self) -> None:
        """Take `where` and `up` for this state alone before changing them."""
        if not self.cards_mine:
            self.where = self.where[:]
            self.up = self.up[:]
            self.cards_mine = True

    def move(self, card: int, dest: int, face_up: bool | None = None, bottom: bool = False) -> None:
        veil = self.veil
        if veil is not None:   # (what the seat cannot see is dealt before the card is found)
            if self.where[card] in veil.watch:
                veil.lift(self, self.where[card])
            if self.veil is not None and dest in veil.watch:
                veil.lift(self, dest)
        if not self.cards_mine:
            self.own_cards()
        where = self.where
        src = where[card]
        mine = self.mine
        if mine >> src & 1 and mine >> dest & 1:  # the usual case: both piles are this state's
            piles = self.piles
            frm = piles[src]
            to = piles[dest]
        else:
            frm = self.pile_w(src)
            to = self.pile_w(dest)
        if frm[-1] == card:  # the top card (a draw): no search from the bottom
            frm.pop()
        else:
            frm.remove(card)
        if bottom:
            to.insert(0, card)
        else:
            to.append(card)
        where[card] = dest
        if face_up is not None:
            self.up[card] = face_up

    def move_all(self, src: int, dest: int, face_up: bool | None = None, bottom: bool = False) -> None:
        """Every card of pile `src`, in its order, onto the top (or bottom) of `dest`: the same
        as moving them one by one."""
        self.own_cards()
        cards = self.pile_w(src)
        if src != dest:
            to = self.pile_w(dest)
            if bottom:
                to[0:0] = cards
            else:
                to.extend(cards)
            self.piles[src] = []
            where = self.where
            for c in cards:
                where[c] = dest
        if face_up is not None:
            up = self.up
            for c in cards:
                up[c] = face_up

    def turn(self, card: int, face_up: bool) -> None:
        self.own_cards()
        self.pile_w(self.where[card])   # (its pile counts as changed: `secret._merge` reads `mine`)
        self.up[card] = face_up

    def put_top(self, pile: int, card: int) -> None:
        """Make `card` the top of `pile` in place of its top card (that card is left nowhere:
        the caller puts it somewhere else in the same way)."""
        self.own_cards()
        self.pile_w(pile)[-1] = card
        self.where[card] = pile

    def swap_piles(self, a: int, b: int) -> None:
        self.own_cards()
        pa, pb = self.pile_w(a), self.pile_w(b)
        self.piles[a], self.piles[b] = pb, pa
        for c in pb:
            self.where[c] = a
        for c in pa:
            self.where[c] = b

    def shuffle(self, pile: int) -> None:
        self.rng.shuffle(self.pile_w(pile))
        if self.believe is not None:
            self.believe.order(pile)
        if self.trace is not None:
            self.trace.append(("chance", f"shuffle {self.plan.pile_label(pile)}",
                               [self.plan.card_label(c) for c in self.piles[pile]]))

    def draw(self, src: int, dest: int, n: int, face_up: bool | None) -> int:
        """Move up to n top cards; an empty source is refilled from its refill pile first. Each
        card drawn is a step (`limits.max_steps`): a draw that refills forever stops."""
        moved = 0
        limit = self.plan.max_steps
        while moved < n:
            self.steps += 1
            if self.steps > limit:
                raise too_many(Steps.DRAW, limit)
            veil = self.veil
            if veil is not None and src in veil.watch:
                veil.lift(self, src)
            pile = self.piles[src]   # read again each time: a move may have copied it
            if not pile:
                refill = [r for r in self.plan.refill.get(src, ()) if self.piles[r]]
                if not refill:
                    break
                for r in refill:   # (several piles: shuffled in together)
                    self.move_all(r, src, False)
                self.shuffle(src)
                pile = self.piles[src]
            b = self.believe
            if b is not None and src in self.plan.unseen_piles and src not in b.ordered:
                # any card of a pile nobody sees, chosen whatever the real order is
                b.chance = True
                self.move(sorted(pile)[self.rng.randrange(len(pile))], dest, face_up)
            else:
                self.move(pile[-1], dest, face_up)
            moved += 1
        return moved

