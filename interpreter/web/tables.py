"""The tables a server keeps: each a game with people and bots (`Table`, a `Sitting` of the view
model), created from a setup, stored decision by decision (`store.py`), rebuilt after a restart by
playing its decisions again, and what each seat is told, built from the seat's view alone.

What a seat is told (`Table.told`) comes from `Game.view(seat)`, the narrated log (what the rules
say aloud), and, when the seat decides, its own options; never from the table itself: no other
seat's hand, no commitment before its reveal, no seed while the game runs. Nothing here speaks
HTTP (`app.py` does)."""
from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import secrets
import threading
from typing import Sequence
import time
from dataclasses import asdict, dataclass, field, replace

from ..engine.game import CHANCE, Game, kept, streams
from ..base.diagnostics import RulesetError
from ..base.errors import RuleError
from ..load.ruleset import is_name
from ..session.args import MAX_PLAYERS, MAX_SEED
from ..session.load import load
from ..session.record import header, record_text
from ..table.ask import asked, lettered, placings
from ..table.keys import Keys
from ..table.sight import sight
from ..table.sitting import Sitting
from .bots import Bots, bot_seed
from .games import Chosen, first_problem, seat_problem
from .store import Store


class Refused(Exception):
    """A request the tables refuse: an HTTP status and a message for a person."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


MAX_NAME = 30


def named(name: object) -> str:
    """A person's name for their seat: 1 to 30 characters, none a control character, spaces
    trimmed; else `Refused` saying why."""
    import unicodedata
    if not isinstance(name, str) or not name.strip():
        raise Refused(422, "a name is some text: the name you are known by at this table")
    name = " ".join(name.split())
    if len(name) > MAX_NAME:
        raise Refused(422, f"a name is at most {MAX_NAME} characters")
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise Refused(422, "a name holds letters, digits, spaces and punctuation only")
    return name


@dataclass
class Setup:
    """How a table was created: enough to build its game again."""
    game: str
    seats: list[str]
    variants: list[str] = field(default_factory=list)
    modules: list[str] = field(default_factory=list)
    track: str | None = None
    seed: int = 1
    season: str | None = None   # a season of the game (`seasons/NAME.yaml`): its races in turn
    # how its games draw chance (`engine.game.CHANCE`); None: a table stored before tables noted it
    chance: int | None = CHANCE
    # its seed is told to every seat from the start (a seed chosen and dealt as chosen: `fair`)
    seed_public: bool = False
    # each seat's name, as its person gave it (None: none given; a bot's seat has none)
    names: list[str | None] = field(default_factory=list)
    # the SHA-256 of the creator's token (`web/seats.py`: a seat's link given anew); None: a table
    # stored before tables had one
    creator: str | None = None

    def name(self, seat: int) -> str | None:
        return self.names[seat] if seat < len(self.names) else None

    def who(self, seat: int) -> str:
        """A seat in words: its person's name and its number, or its number (and a bot's kind)."""
        name, kind = self.name(seat), self.seats[seat]
        return (f"{name} (seat {seat + 1})" if name else f"seat {seat + 1}") + \
            ("" if kind == "human" else f" ({kind})")

    def give_name(self, seat: int, name: object) -> None:
        """The seat's person names it (`named` checks the name)."""
        self.names.extend([None] * (len(self.seats) - len(self.names)))
        self.names[seat] = named(name)

    def as_dict(self) -> dict:
        return asdict(self)

    def people(self) -> int:
        return sum(kind == "human" for kind in self.seats)

    def fair(self) -> "Setup":
        """The setup dealt with a seed nobody at the table knows: the seed its creator chose
        mixed with a secret of the server's (a creator who could deal the same cards at a table
        of their own would read every other player's hand there). The seed is told to everybody
        with the record once the game is over, as any table's."""
        salt = secrets.token_bytes(16)
        mixed = int.from_bytes(hashlib.sha256(str(self.seed).encode() + salt).digest()[:8], "big")
        return replace(self, seed=mixed % (MAX_SEED + 1))

    @classmethod
    def checked(cls, game, seats, variants, modules, track, seed, players=None, season=None) -> "Setup":
        """A setup from a request, every part checked: names are names (never paths), seats are
        people or bots, numbers in range."""
        if not is_name(game):
            raise Refused(422, "`game` is the name of a game of the lobby")
        if season is not None and not is_name(season):
            raise Refused(422, "`season` is the name of one of the game's seasons")
        if season is not None and track is not None:
            raise Refused(422, "a season's races have their own tracks: give no `track` with a `season`")
        for what, names in (("variants", variants), ("modules", modules)):
            if not all(is_name(n) for n in names) or len(names) > 32:
                raise Refused(422, f"`{what}` are names of the game's {what}")
        if track is not None and not is_name(track):
            raise Refused(422, "`track` is the name of one of the game's tracks")
        if len(seats) > MAX_PLAYERS:   # (too few: said with the game's own range, `Plans.get`)
            raise Refused(422, f"a table has 1 to {MAX_PLAYERS} seats")
        if players is not None and players != len(seats):
            raise Refused(422, f"`players` is {players} but `seats` names {len(seats)}")
        for kind in seats:
            if kind != "human":
                problem = seat_problem(kind)
                if problem:
                    raise Refused(422, problem)
        if not 0 <= seed <= MAX_SEED:
            raise Refused(422, f"the seed is a whole number from 0 to {MAX_SEED}")
        return cls(game, list(seats), list(variants), list(modules), track, seed, season)


def person_tokens(setup: Setup, open_seats: Sequence[int] = ()) -> list[str | None]:
    """A new token for each person's seat (a seat's link carries it); None for a bot's, and for a
    seat left open."""
    return [secrets.token_urlsafe(24) if k == "human" and i not in open_seats else None
            for i, k in enumerate(setup.seats)]


def seat_of(token_hashes: list[str | None], token: str | None) -> int:
    """The seat a token acts for, of the seats whose tokens have these hashes; `Refused` 403 for
    none or a wrong one."""
    if not token:
        raise Refused(403, "this needs the token of a seat (from the seat's link)")
    h = token_hash(token)
    for s, known in enumerate(token_hashes):
        if known is not None and hmac.compare_digest(h, known):
            return s
    raise Refused(403, "this token is not one of this table's seats")


def watch_token(table_id: str, basis: object) -> str:
    """The key of a table's spectator link: made from what only the server holds (the creator's
    token hash; a table stored before it had one: its seats' token hashes), the same after a
    restart and after a seat's link is given anew, and no seat's."""
    digest = hashlib.sha256(f"watch:{table_id}:{basis}".encode()).digest()
    return base64.urlsafe_b64encode(digest).decode()[:32]


def viewer_of(table_id: str, basis: object, token_hashes: list[str | None], token: str | None) -> int | None:
    """The seat a token acts for, or None for the table's spectator link (what the game shows
    everybody: no hand, no commitment); `Refused` 403 for none or a wrong one."""
    if token and hmac.compare_digest(str(token), watch_token(table_id, basis)):
        return None
    return seat_of(token_hashes, token)


class Plans:
    """Games compiled once per setup (game, variants, modules, track, players)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.cache: dict[tuple, tuple] = {}

    def get(self, setup: Setup):
        """(the loaded ruleset, its plan); `Refused` with the ruleset's own message when it does
        not load."""
        key = (setup.game, tuple(setup.variants), tuple(setup.modules), setup.track, len(setup.seats))
        with self.lock:
            if key not in self.cache:
                try:
                    loaded = load(setup.game, setup.variants, setup.modules, setup.track)
                    players = loaded.ruleset.game.game.players
                    if not players.min <= len(setup.seats) <= players.max:
                        raise Refused(422, f"{loaded.ruleset.game.game.name} is for {players.min} to "
                                           f"{players.max} players, not {len(setup.seats) or 'none'}")
                    self.cache[key] = (loaded, loaded.plan(len(setup.seats)))
                except RulesetError as e:
                    raise Refused(422, first_problem(e, Chosen(setup.game, setup.variants, setup.modules,
                                                                setup.track))) from None
            return self.cache[key]


class Changes:
    """A table's version, and the event-loop tasks waiting for it to change (server-sent events)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.version = 0
        self.waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future]] = []

    def bump(self) -> None:
        """Anything changed (from any thread): wake every waiter."""
        with self.lock:
            self.version += 1
            waiters, self.waiters = self.waiters, []
        for loop, fut in waiters:
            try:
                loop.call_soon_threadsafe(_wake, fut)
            except RuntimeError:  # that loop is closed
                pass

    async def wait(self, seen: int, timeout: float) -> int:
        """The version, once it is not `seen` any more or after `timeout` seconds."""
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        with self.lock:
            if self.version != seen:
                return self.version
            self.waiters.append((loop, fut))
        try:
            await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            pass
        finally:
            with self.lock:
                if (loop, fut) in self.waiters:
                    self.waiters.remove((loop, fut))
        return self.version


def _wake(fut: asyncio.Future) -> None:
    if not fut.done():
        fut.set_result(None)


CHANGED_SINCE = ("the game's rules have changed since it was played: its result and record are kept; "
                 "its table and its replay need the rules it was played by")


class Table(Sitting):
    """One game at a web table. Every change happens under `lock`: a person's decision, a bot's,
    undo; each is stored before it is taken, and each bumps `changes`."""

    def __init__(self, table_id: str, setup: Setup, loaded, plan, token_hashes: list[str | None],
                 store: Store, bots: Bots, created: float):
        self.setup = setup
        self.plan = plan
        super().__init__(self.new_game(), setup.seats, self.new_game)
        self.id = table_id
        self.loaded = loaded
        self.token_hashes = token_hashes
        self.store = store
        self.bots = bots
        self.created = created
        self.lock = threading.RLock()
        self.changes = Changes()
        # each person's pending decision as offered: seat -> (decision, {key: pick})
        self.offered: dict[int, tuple] = {}
        self.narrated: list[str] = []        # the narrated log so far (`log`: a record file, none here)
        self.problem: str | None = None      # why the game stopped, when the rules failed
        self.played_by: str | None = None    # the rules' digest a finished game had, changed since
        self.result: dict | None = None
        self.turn = 0                        # counts every change (a page's `as_of` comes with it)
        # the table built again (a restart, an undo): a bot's answer to a decision asked before it
        # is not taken
        self.epoch = 0
        self.asking: dict[int, tuple] = {}   # seat -> the decision (`_key`) its bot was asked
        self._asked: dict[int, tuple] = {}   # seat -> (turn, Asked) of its pending decision, once computed
        # While a `simultaneously` block collects commitments (every seat of it at once), the block and
        # where its decisions start: until the reveal, nobody learns how many decisions a seat took
        # there (the record, the replay and the decisions' numbers stop at the block's start)
        self._block = None
        self.collecting_from: int | None = None
        # names the pending decision opaquely (`decision_id`), the same after a restart
        self.secret = hashlib.sha256(f"{table_id}:{self.watch_basis()}".encode()).digest()

    # ---- building ------------------------------------------------------------------------------

    def new_game(self) -> Game:
        """The table's game from its start."""
        return Game(self.plan, self.setup.seed, trace=True, streams=streams(self.setup.chance))

    def recipe(self) -> dict:
        """What builds `new_game` in another process (the search bot's worker): plain data."""
        return self.setup.as_dict()

    def replay(self, entries: list[dict]) -> None:
        """The game played again from its seed with these decisions (a restart, an undo), each
        taken by the seat it names: the keys of the options as they were shown, the log as it was
        told."""
        self.game = self.new_game()
        self.teller.game = self.game
        self.teller.told = 0
        self.keys = Keys()
        self.decisions = []
        self.narrated = []
        self.result = None
        self.epoch += 1
        self.asking = {}
        for i, entry in enumerate(entries, 1):
            self._offer()
            seat = entry.get("seat") if self.game.collecting else None
            d = self.game.decision(seat if isinstance(seat, int) and not isinstance(seat, bool) else None)
            if d is None:
                raise RuleError(f"decision {i} of the table: the game asks for no decision there")
            pick = entry.get("pick")
            labels = d.labels()
            if not isinstance(pick, int) or isinstance(pick, bool) or not 0 <= pick < d.count \
                    or labels[pick] != entry.get("label"):
                raise RuleError(f"decision {i} of the table does not fit these rules")
            self.decisions.append(dict(entry))
            self.game.choose(pick, d.seat if self.game.collecting else None)
        self.narrated.extend(self.teller.news())
        self._offer()

    def restore(self, row: dict, decisions: list[dict]) -> None:
        """The stored table (its row of the store) played again from its decisions, or why it cannot
        be: its rules changed, a decision does not fit them, it had stopped."""
        if self.plan.digest != row["setup"].get("digest"):
            result = row["result"]
            if row["state"] == "finished" and isinstance(result, dict) and "winners" in result:
                # its result and decisions kept as stored (its table and replay need those rules)
                self.played_by, self.result = row["setup"].get("digest"), result
                self.decisions = [dict(d) for d in decisions]
                return
            self.problem = "the game's rules have changed since this table was created"
        else:
            try:
                self.replay(decisions)
            except RuleError as e:
                self.problem = str(e)
        if row["state"] == "stopped" and self.problem is None:
            self.problem = (row["result"] or {}).get("problem") or "the game stopped"

    # ---- who is who ------------------------------------------------------------------------------

    def seat_of(self, token: str | None) -> int:
        """The seat a token acts for; `Refused` 403 for none or a wrong one."""
        return seat_of(self.token_hashes, token)

    def watch_basis(self) -> object:
        """What the spectator link and the decisions' names are made from: nothing a seat's link
        given anew changes (a table stored before it had a creator: its seats' token hashes)."""
        return self.setup.creator or self.token_hashes

    def viewer_of(self, token: str | None) -> int | None:
        """The seat a token acts for, None for the spectator link's (`viewer_of`)."""
        return viewer_of(self.id, self.watch_basis(), self.token_hashes, token)

    def watch_token(self) -> str:
        return watch_token(self.id, self.watch_basis())

    @property
    def state(self) -> str:
        if self.problem is not None:
            return "stopped"
        return "finished" if self.game.over or self.played_by is not None else "playing"

    @property
    def disclosed(self) -> bool:
        """Everything of the game may be told to anybody (its seed, every seat's choices): it is over."""
        return self.state != "playing"

    # ---- the game going on ---------------------------------------------------------------------

    def _offer(self) -> list[int]:
        """The seats a decision waits for (every seat of a secret block still committing); each
        person's decision gets its options' keys (kept while the same choice comes back), given in
        the same order of decisions whenever the table is built."""
        game = self.game
        self.offered = {}
        self._asked = {}
        seats = game.deciding()
        block = game.st.simul if game.collecting else None
        if block is None:
            self.collecting_from = None
        elif block is not self._block:
            self.collecting_from = len(self.decisions)
        self._block = block
        for seat in seats:
            d = game.decision(seat)
            if d is not None and d.seat is not None and self.kinds[d.seat] == "human":
                _labels, order, keys = lettered(d, self.plan, self.keys, len(game.answers))
                self.offered[d.seat] = (d, dict(zip(keys, order)))
        return seats

    def _key(self, seat: int) -> tuple:
        """Names the decision `seat` is asked now, for its bot: the table's building, the seat, how
        many decisions the seat has taken (a bot's answer is taken only for the decision it was
        asked, whatever the other seats did meanwhile)."""
        return (self.epoch, seat, sum(1 for d in self.decisions if d["seat"] == seat))

    def _arrived(self, store: bool = True) -> None:
        """After any change: tell the log, take the decisions nobody makes, finish the game or ask
        the seats that decide (every seat of a secret block at once; a bot off this thread)."""
        self.turn += 1
        try:
            while True:
                self.narrated.extend(self.teller.news())
                if self.problem is not None:
                    break
                if self.game.over:
                    self._finish(store)
                    break
                seats = self._offer()
                d = self.game.decision()
                if d is not None and d.seat is None:  # nobody decides: the first option
                    self._take(d, 0, store)
                    continue
                if store:
                    for seat in seats:
                        if self.kinds[seat] != "human":
                            self._ask_bot(seat)
                break
        except RuleError as e:
            self._stop(str(e), store)
        self.changes.bump()

    def _ask_bot(self, seat: int) -> None:
        """Ask the bot of `seat` its pending decision, once (on a copy of the game)."""
        key = self._key(seat)
        if self.asking.get(seat) == key:
            return
        self.asking[seat] = key
        mine = sum(1 for d in self.decisions if d["seat"] == seat)
        seed = bot_seed(self.setup.seed, seat, mine + 1)
        try:
            self.bots.ask(self, key, self.kinds[seat], seed, self.game.clone(), seat)
        except RuntimeError:  # the server is closing: the bot decides after the restart
            pass

    def _take(self, d, pick: int, store: bool = True) -> None:
        """Store the decision, then take it (for its seat: while a block collects, each seat's
        decision waits on its own copy)."""
        self.record(d, pick)
        if store:
            try:
                self.store.add_decision(self.id, self.decisions[-1])
            except Exception:
                self.decisions.pop()
                raise Refused(503, "the decision could not be stored; try again") from None
        self.game.choose(pick, d.seat if d.simultaneous else None)

    def _finish(self, store: bool) -> None:
        if self.result is not None:
            return
        res = self.game.result()
        self.result = kept(res)
        if store:
            self.store.finish(self.id, "finished", self.result)

    def _stop(self, problem: str, store: bool) -> None:
        self.problem = problem
        if store:
            self.store.finish(self.id, "stopped", {"problem": problem})

    def decision_id(self, seat: int) -> str:
        """The name of `seat`'s pending decision: opaque, and counting only the seat's own decisions
        (not those other seats took meanwhile, in secret or not), the same after a restart."""
        return self._id(seat, sum(1 for d in self.decisions if d['seat'] == seat) + 1)

    def _id(self, seat: int, k: int) -> str:
        """The name of `seat`'s k-th decision."""
        return hmac.new(self.secret, f"{seat}:{k}".encode(), hashlib.sha256).hexdigest()[:16]

    def _taken(self, seat: int, at: str) -> bool:
        """Does `at` name a decision `seat` took already?"""
        taken = sum(1 for d in self.decisions if d['seat'] == seat)
        return any(hmac.compare_digest(str(at), self._id(seat, k)) for k in range(1, taken + 1))

    def known_decisions(self) -> list[dict]:
        """The decisions taken, up to a secret block still collecting commitments."""
        end = self.collecting_from if self.collecting_from is not None else len(self.decisions)
        return [dict(d) for d in self.decisions[:end]]

    def decide(self, seat: int, key, at: str | None = None) -> None:
        """A person's decision: the option with key `key` of the decision they are asked."""
        with self.lock:
            d = self._pending(seat, at)
            _d, picks = self.offered[seat]
            if not isinstance(key, str) or key not in picks:
                raise Refused(422, f"option {key} is not offered: the options are {', '.join(picks)}")
            try:
                self._take(d, picks[key])
            except RuleError as e:
                self._stop(str(e), True)
            self._arrived()

    def _pending(self, seat: int, at: str | None):
        if self.state != "playing":
            raise Refused(409, "the game is over" if self.problem is None else "the game has stopped")
        d = self.game.decision(seat)
        if d is None or seat not in self.offered:
            if at is not None and self._taken(seat, at):
                # sent again after the table moved on to another seat's decision: said as it is
                raise Refused(409, "that decision was taken already: the table has moved on")
            waiting = [s for s in self._to_move() if s != seat]
            who = ", ".join(f"seat {s + 1}" for s in waiting) or "nobody"
            raise Refused(409, f"it is not your decision: waiting for {who}")
        if at is None:  # (a decision sent twice, a double click or a retry, must be taken once)
            raise Refused(422, "say which decision this answers: `decision`, as the seat was told it")
        if not hmac.compare_digest(str(at), self.decision_id(seat)):
            raise Refused(409, "that decision was taken already: the table has moved on")
        return d

    def bot_answered(self, key: tuple, pick: int) -> None:
        """A bot's answer, taken if its seat still waits for the decision it was asked (`_key`)
        and it is an option."""
        with self.lock:
            seat = key[1]
            if self.state != "playing" or self.asking.get(seat) != key or self._key(seat) != key:
                return  # an undo or a restart came first
            d = self.game.decision(seat)
            if d is None or not isinstance(pick, int) or not 0 <= pick < d.count:
                return
            try:
                self._take(d, pick)
            except RuleError as e:
                self._stop(str(e), True)
            except Refused:
                self.asking.pop(seat, None)
                return  # not stored: nothing happened, and the bot is asked again at the restart
            self._arrived()

    def bot_failed(self, key: tuple, error: BaseException) -> None:
        with self.lock:
            if self.state != "playing" or self.asking.get(key[1]) != key or self._key(key[1]) != key:
                return
            self._stop(str(error) if isinstance(error, RuleError) else "a bot could not decide", True)
            self.changes.bump()

    def rename(self, seat: int, name: str) -> None:
        """The seat's person gives their name (`named`): told to every seat from now on."""
        with self.lock:
            self.setup.give_name(seat, name)
            self.store.set_setup("tables", self.id, {**self.setup.as_dict(), "digest": self.plan.digest})
            self.changes.bump()

    def undo(self, seat: int, guard=None) -> None:  # type: ignore[override]
        """Take back the seat's last decision (a person alone against bots). Before a secret block
        is revealed, only that: what the other seats committed meanwhile stays committed."""
        with self.lock:
            if self.state == "stopped" or not self.may_undo(seat):
                raise Refused(409, "undo is for a person playing alone against bots, after a "
                                   "decision of their own")
            last = max(i for i, d in enumerate(self.decisions) if d["seat"] == seat)
            kept = self.decisions[:last]
            if self.collecting_from is not None and last >= self.collecting_from:
                later = self.decisions[last + 1:]
                kept += [{**d, "n": last + 1 + k} for k, d in enumerate(later)]
            self.store.take_back(self.id, last)
            for d in kept[last:]:
                self.store.add_decision(self.id, d)
            try:
                self.replay(kept)
            except RuleError as e:
                self._stop(str(e), True)
            self._arrived()

    # ---- what a seat is told -------------------------------------------------------------------

    def told(self, seat: int | None, since: int = 0) -> dict:
        """Everything a seat is told now, as JSON data: from its view, the log, its own options.
        `to_move` lists every seat a decision waits for (all those of a secret block still
        committing, which decide at once)."""
        with self.lock:
            game = self.game
            view = game.view(seat)
            playing = self.state == "playing"
            waiting = self._to_move() if playing else []
            mine = playing and seat is not None and seat in self.offered
            options: list[dict] = []
            prompt = None
            if mine:
                assert seat is not None
                d = self.offered[seat][0]
                if seat not in self._asked or self._asked[seat][0] != self.turn:
                    # (the keys `_offer` gave: a choice lettered again with nothing new keeps them)
                    self._asked[seat] = (self.turn, asked(game, d, self.keys))
                a = self._asked[seat][1]
                prompt = a.prompt
                # an option made for a piece or a place: clickable on the board
                on_board, at = d.pieces(self.plan.piece_names), d.places()
                options = [{"key": o.key, "label": o.label, "preview": o.effect, "piece": on_board[o.pick],
                            "place": None if at[o.pick] is None else
                            {"board": at[o.pick][0], "place": at[o.pick][1]}} for o in a.options]
            since = max(0, min(since, len(self.narrated)))
            log = self.narrated[since:]
            return {
                "table": self.id, "game": self.plan.name, "game_id": self.setup.game,
                "seat": None if seat is None else seat + 1,
                "seats": [{"seat": i + 1, "kind": k, "name": self.setup.name(i),
                           "open": k == "human" and self.token_hashes[i] is None}
                          for i, k in enumerate(self.kinds)],
                "seed": self.setup.seed if self.setup.seed_public else None,
                # the seed as digits too: a browser reads a number past 2**53 rounded
                "seed_text": str(self.setup.seed) if self.setup.seed_public else None,
                "state": self.state, "finished": self.state != "playing",
                "round": view["game"].get("round"),
                "decision": self.decision_id(seat) if mine and seat is not None else None,
                "to_move": [s + 1 for s in waiting],
                "secret": bool(waiting and game.collecting),
                "waiting": self._waiting(seat, waiting),
                "prompt": prompt, "options": options,
                "can_undo": bool(seat is not None and playing and self.may_undo(seat)),
                "result": self._result_data(),
                "problem": self.problem if self.played_by is None else CHANGED_SINCE,
                "view": view, "sight": asdict(sight(view, self.plan)),
                "log": log, "log_start": since, "log_end": len(self.narrated),
                # when this was true (the system's monotonic clock, in nanoseconds): of two answers,
                # a page keeps the later (an answer counts no change the seat cannot see)
                "as_of": time.monotonic_ns(),
            }

    def _to_move(self) -> list[int]:
        """The seats a decision waits for, as told: in a secret block, a person whose part was taken
        without a question (one option, or none) is shown deciding until the reveal too, or the
        others would learn it had no choice (a bot's part is taken at once either way)."""
        game = self.game
        waiting = game.deciding()
        if not game.collecting:
            return waiting
        forced = [s for s in game.unasked() if self.kinds[s] == "human" and s not in waiting]
        return sorted(waiting + forced) if forced else waiting

    def _waiting(self, seat: int | None, waiting: list[int]) -> str | None:
        """Whom a seat that does not decide now waits for, in words."""
        if seat in waiting and seat not in self.offered:  # its part was taken for it: the others'
            waiting = [s for s in waiting if s != seat]
        if not waiting or seat in waiting:
            return None
        who = [self.setup.who(s) + (" (open: someone to join)" if self.setup.seats[s] == "human" and
                                    self.token_hashes[s] is None else "") for s in waiting]
        return "waiting for " + (", ".join(who[:-1]) + " and " + who[-1] if len(who) > 1 else who[0])

    def _result_data(self) -> dict | None:
        if self.result is None:
            return None
        placed = [{"place": p.place, "seat": None if p.seat is None else p.seat + 1, "piece": p.piece,
                   "name": None if p.seat is None else self.setup.name(p.seat),
                   "score": p.score, "winner": p.winner} for p in placings(self.result)]
        return {"placings": placed, "rounds": self.result["rounds"],
                "winners": [s + 1 for s in self.result["winners"]],
                "seed": self.setup.seed if self.disclosed else None,
                "seed_text": str(self.setup.seed) if self.disclosed else None}

    def picture(self, seat: int | None) -> str:
        """The table as an SVG picture, drawn from the seat's view."""
        from ..picture.svg import table_picture

        with self.lock:
            view = self.game.view(seat)
            status = self._status()
        return table_picture(view, self.plan, self.plan.name, status, None, self.kinds)

    def _status(self) -> str:
        if self.problem is not None:
            return "the game stopped: a rule failed"
        if self.game.over:
            won = ", ".join(f"seat {s + 1}" for s in self.result["winners"]) if self.result else ""
            return f"the game is over, won by {won or 'nobody'}"
        # (not who decides: while seats commit in secret one after another, when the next one is
        # asked would tell the others how many decisions the one before took)
        return f"round {self.game.view(None)['game'].get('round')}"

    def record_text(self, seat: int | None) -> str:
        """The game record (the format of `play --log`), as `seat` may see it: while the game runs,
        without the seed, with other seats' decisions as decisions taken (who, which rule), not
        what was chosen, and up to a secret block still collecting; once it is over, whole."""
        with self.lock:
            head = header(self.loaded, self.plan, self.setup.seed, self.kinds)
            head["digest"] = self.played_by or head["digest"]   # (the rules it was played by)
            over = self.disclosed
            decisions = [dict(d) for d in self.decisions] if over else self.known_decisions()
            result = self.result
        if not over and not self.setup.seed_public:
            del head["seed"]
            for d in decisions:
                if d["seat"] != seat:
                    d.pop("pick", None)
                    d.pop("label", None)
        return record_text(head, decisions, result if over else None)

    def record_name(self) -> str:
        """The record's file name, as a browser saves it."""
        return f"{self.setup.game}-{self.id}.jsonl"

