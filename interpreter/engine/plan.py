"""The compiled game: plain Python data and functions, built once per ruleset and player count.

Nothing here is pydantic; the machine reads only this while playing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable, Protocol, Sequence

from ..boards.base import BoardKind
from ..base.diagnostics import Loc
from ..lang.types import Per, Type
from ..ir.models import Visibility


class Effects(Enum):
    """What a bot's look at an option (`vm.preview`) plays of the game."""
    NONE = "none"    # the option does nothing: the table as it is
    RUN = "run"      # its own statements, alone (its function `Alternative.run`)
    PLAY = "play"    # it decides again or branches in the flow: the game, up to the next decision


Entry = Callable[..., Any]   # a compiled entry: fn(st, env) (`compile/codegen.py`, `engine/boundary.py`)
Unit = Callable[..., bool]   # a resumable function: fn(st, frame) (`compile/statements.py`, `vm.run`)


@dataclass
class Alternative:
    """One `option` line of a `choose`: its label, what it binds when it ranges over values, and
    the statements it runs."""
    label: Entry             # template: fn(st, env) -> str
    # the name the option binds, when it ranges over values; with several `for`s, their names (and
    # the option's value is the tuple of their values: `bind`)
    var: str | tuple[str, ...] | None
    effects: Effects = Effects.PLAY
    run: Entry | None = None  # RUN: the option's statements, fn(st, env) (`env`: the locals, its value too)
    key: str = ""            # what the statistics call it: `CHOICE > OPTION` (see `Tally`)
    of: Type | None = None   # the type it ranges over (a card, piece, seat, number, text, bool),
                             # counted with the option (a card by its type)
    # its labels by value, when the label reads only the value (a card's fixed properties) and
    # constants (`ChooseSpec.label`); None: read each time
    labels: dict[Any, str] | None = None
    # `at BOARD, PLACE`: the board (its number) and the place an option is made for, fn(st, env)
    board: Entry | None = None
    place: Entry | None = None


# labels kept per option at most (values an option ranges over: cards, numbers, texts)
MAX_LABELS = 1024


@dataclass
class ChooseSpec:
    """A `choose`: what the rule that waits there gives the machine to ask."""
    prompt: Entry            # template: fn(st, env) -> str
    seat: Entry              # fn(st, env) -> seat
    alts: list[Alternative]
    loc: Loc | None
    rule: str
    # the locals it keeps while it waits that hold cards (a card, a list of cards, ...), with their
    # types: a card of them the deciding seat cannot see is dealt anew with the others (`hidden.held`)
    cards: tuple[tuple[str, Any], ...] = ()

    def label(self, st: Any, env: dict[str, Any], option: tuple[int, Any]) -> str:
        i, v = option
        alt = self.alts[i]
        kept = alt.labels
        if kept is not None:
            text = kept.get(v) if isinstance(v, (int, str, type(None))) else None
            if text is not None:
                return text
        text = alt.label(st, with_value(env, alt.var, v))
        if kept is not None and isinstance(v, (int, str, type(None))) and len(kept) < MAX_LABELS:
            kept[v] = text
        return text

    def place(self, st: Any, env: dict[str, Any], option: tuple[int, Any]) -> tuple[int, Any] | None:
        """The board (its number) and the place an option is made for (its `at`), or None."""
        i, v = option
        alt = self.alts[i]
        if alt.board is None or alt.place is None:
            return None
        env = with_value(env, alt.var, v)
        return alt.board(st, env), alt.place(st, env)


def with_value(env: dict[str, Any], var: str | tuple[str, ...] | None, value: Any) -> dict[str, Any]:
    """`env` with an option's value bound (a copy), or `env` itself for an option of no value."""
    if var is None:
        return env
    env = dict(env)
    bind(env, var, value)
    return env


def bind(env: dict[str, Any], var: str | tuple[str, ...], value: Any) -> None:
    """An option's value in `env` under its name (the values of several `for`s under theirs)."""
    if var.__class__ is str:
        env[var] = value  # type: ignore[index]
    else:
        env.update(zip(var, value))


class Compiled(Protocol):
    """What the compiler generated for a plan (`compile/codegen.py`): its namespace and the
    Python of each rule (`racecraft explain --python`)."""
    ns: dict[str, Any]
    generated: list[Any]


@dataclass(kw_only=True)
class Piles:
    """The piles of a compiled game, by number: each declared pile is one (of the game), one for
    each seat or piece, or one for each place of a board, side by side from its first number."""
    n_piles: int = 0
    pile_names: list[str] = field(default_factory=list)        # per pile id: "hand(2)"
    pile_decl: list[str] = field(default_factory=list)         # per pile id: declared name
    pile_visible: list[Visibility] = field(default_factory=list)  # per pile id: who sees its cards
    unseen_piles: frozenset[int] = frozenset()                 # pile ids that nobody sees
    owned_piles: frozenset[int] = frozenset()                  # ... that only their owner sees
    # a seat's or a piece's variable only its owner sees (read through `helpers.peek_seat`)
    secret_vars: bool = False
    secret_piles: tuple[int, ...] = ()                         # both, in order
    # the piles nobody sees whose cards (those that start there) can be told apart: of more than
    # one type, or with variables of their own (`hidden.Veil`: a look that reads only cards alike
    # learns nothing it should not)
    mixed_starts: frozenset[int] = frozenset()
    owned_by_piece: bool = False   # some pile only its owner sees is a piece's
    # the state variables that hold cards (of the game, each seat, each piece): (per, name, type)
    card_state: list[tuple[Any, str, Any]] = field(default_factory=list)
    # (seat, the pieces' owners) -> the other seats' hidden piles, and with the unseen piles
    # (`hidden._others`)
    others_piles: dict[tuple, tuple[frozenset[int], frozenset[int]]] = field(default_factory=dict)
    pile_owner: list[int | None] = field(default_factory=list)  # per pile id: seat, piece or None
    pile_per: list[Per] = field(default_factory=list)          # per pile id: one per game, seat, piece, place
    pile_board: list[str | None] = field(default_factory=list)  # per pile id: the board of a place's pile
    pile_base: dict[str, int] = field(default_factory=dict)    # declared name -> first pile id
    refill: dict[int, tuple[int, ...]] = field(default_factory=dict)   # pile id -> the piles it refills from
    # the piles of each seat, and of each piece, as bit masks of pile ids (`secret._merge`)
    seat_piles: list[int] = field(default_factory=list)
    piece_piles: list[int] = field(default_factory=list)
    aside: int = -1                                            # the pile of cards set aside (out of the game)
    # the pile ids of each mask of those (kept as they are asked: `piles_of`)
    mask_ids: dict[int, list[int]] = field(default_factory=dict)

    def piles_of(self, mask: int) -> list[int]:
        """The pile ids of a mask of piles (a seat's own piles, those a copy changed)."""
        ids = self.mask_ids.get(mask)
        if ids is None:
            ids = self.mask_ids[mask] = [p for p in range(self.n_piles) if mask >> p & 1]
        return ids

    def pile_label(self, pile: int) -> str:
        return self.pile_names[pile]

    def pile_seat(self, pile: int, owners: Sequence[int | None]) -> int | None:
        """The seat whose pile it is (a piece's pile: its owner's, from the pieces' `owners`), or
        None for one of the game or of a board's place."""
        per, owner = self.pile_per[pile], self.pile_owner[pile]
        if per is Per.SEAT:
            return owner
        return owners[owner] if per is Per.PIECE and owner is not None else None


@dataclass(kw_only=True)
class Dice:
    """The dice of a compiled game by number: each die's faces and how a person names it."""
    die_faces: list[list[int]] = field(default_factory=list)
    die_names: list[str] = field(default_factory=list)
    die_base: dict[str, int] = field(default_factory=dict)     # a single die's id by its name
    die_family: dict[str, dict[Any, int]] = field(default_factory=dict)   # family -> key -> die id


@dataclass(kw_only=True)
class Cards:
    """The cards of a compiled game by number: each card's type, properties and starting pile."""
    card_types: list[str] = field(default_factory=list)        # type ids
    card_names: list[str] = field(default_factory=list)        # what players read for each type
    card_type: list[int] = field(default_factory=list)         # per card: type index
    card_props: dict[str, list[Any]] = field(default_factory=dict)  # prop -> per card value
    type_props: list[dict[str, Any]] = field(default_factory=list)  # per type: props dict
    card_start: list[int] = field(default_factory=list)        # per card: starting pile id
    card_type_names: list[str] = field(default_factory=list)   # per card: its type's id

    def card_label(self, card: int) -> str:
        return self.card_names[self.card_type[card]]


@dataclass(kw_only=True)
class Pieces:
    """The pieces and boards of a compiled game: pieces by number, boards by number with their
    kinds (each holding its board's data: `boards/`)."""
    n_pieces: int = 0
    piece_names: list[str] = field(default_factory=list)
    piece_kind: list[str] = field(default_factory=list)
    piece_marker: list[bool] = field(default_factory=list)     # a piece of a kind declared `marker: true`
    kind_pieces: dict[str, list[int]] = field(default_factory=dict)
    board_names: list[str] = field(default_factory=list)
    board_kinds: list[BoardKind] = field(default_factory=list)   # per board: its kind, with its data
    hiding_kinds: list[BoardKind] = field(default_factory=list)  # those that hide things (`redeal_hidden`)
    # State.bd -> a copy (each kind's clone: `compile/layout.py`)
    clone_bd: Callable[[list[Any]], list[Any]] = field(default_factory=lambda: list.copy)


@dataclass(kw_only=True)
class Variables:
    """The state variables of a compiled game: their starting values, and where each seat's,
    piece's and card's values lie in `State.v`; who sees each and its type."""
    global_init: dict[str, Any] = field(default_factory=dict)
    seat_init: dict[str, Any] = field(default_factory=dict)
    piece_init: dict[str, Any] = field(default_factory=dict)
    card_init: dict[str, Any] = field(default_factory=dict)
    var_at: dict[str, int] = field(default_factory=dict)       # seat/piece/card variable -> offset in State.v
    var_start: list[Any] = field(default_factory=list)         # State.v at the start
    owned_by: dict[tuple, list] = field(default_factory=dict)   # (`Plan.owned`)
    # the places in State.v of each seat's variables, and of each piece's but its `owner`
    seat_slots: list[list[int]] = field(default_factory=list)
    piece_slots: list[list[int]] = field(default_factory=list)
    # (one per what, name) -> who sees it, and its type
    var_visible: dict[tuple[Per, str], Visibility] = field(default_factory=dict)
    var_types: dict[tuple[Per, str], Type] = field(default_factory=dict)


@dataclass(kw_only=True)
class Entries:
    """The functions the engine calls outside the game's flow: the result, what a series hands on,
    records, metrics, facts a player reads, the bots' evaluation, a lane board's moves. Each
    entry site's rules go into the field its `Site.into` names (`ir/sites.py`; a test checks that
    every such name is a field here)."""
    rank: Entry | None = None                                  # `result`: fns with `seat` bound
    tie: Entry | None = None
    result_says: Entry | None = None                           # the words beside each seat's place
    descending: bool = True
    also_pieces: Entry | None = None                           # `result.also`: the pieces ranked,
    also_rank: Entry | None = None                             # and each one's rank and tie (`piece` bound)
    also_tie: Entry | None = None
    also_says: Entry | None = None
    # what a game of a series hands on (`carry:`): seat and game variables, piles by name
    carry_seat: list[str] = field(default_factory=list)
    carry_game: list[str] = field(default_factory=list)
    carry_piles: list[str] = field(default_factory=list)
    records: dict[str, Entry] = field(default_factory=dict)    # name -> fn with `seat` bound
    progress: Entry | None = None                              # with `seat` bound, or None
    metrics: dict[str, Entry] = field(default_factory=dict)    # name -> fn, read at the end
    shown: dict[str, Entry] = field(default_factory=dict)      # name -> fn with `piece` bound
    # what a player sees (`view:`): facts of each seat and of the game, each fact's (label, unit,
    # seen by its owner only) and type by its rule id (`view.seats.lap`); the piles shown; None: no `view:`
    seat_facts: dict[str, Entry] = field(default_factory=dict)  # name -> fn with `seat` bound
    game_facts: dict[str, Entry] = field(default_factory=dict)  # name -> fn
    line_facts: dict[str, dict[str, Entry]] = field(default_factory=dict)  # kind -> name -> fn, `d` bound
    fact_meta: dict[str, tuple[str, tuple[str, str], bool]] = field(default_factory=dict)
    fact_types: dict[str, Type] = field(default_factory=dict)
    view: dict[str, dict[str, Any]] | None = None              # pile name -> {label, show, sort, whose}
    colours: dict[str, str] = field(default_factory=dict)      # word -> colour name
    evaluate: Entry | None = None                              # with `seat` bound, or None
    # the functions of one seat or one piece that give a number: name -> (of a seat or a piece, the
    # function, fn(st, seat or piece), its errors not yet rule errors); read by a learned bot
    readings: dict[str, tuple[Per, Callable[..., Any]]] = field(default_factory=dict)
    # a lane track's moves by the ruleset's rules (`moves.enter`, `moves.spot`: fns with `piece` and
    # `space` bound), and which of them the game has (known before its code is written)
    move_enter: Entry | None = None
    move_spot: Entry | None = None
    move_rules: frozenset[str] = frozenset()


@dataclass(kw_only=True)
class Limits:
    """How far a game may go: its rounds and its steps (a ruleset's own, within the engine's)."""
    max_rounds: int = 1000
    max_steps: int = 2_000_000


@dataclass(kw_only=True)
class Plan(Piles, Dice, Cards, Pieces, Variables, Entries, Limits):
    """A compiled game: everything its rules became, as data and functions the engine runs, the
    same for every game played from it. Its parts are the records above (piles, dice, cards,
    pieces and boards, variables, entries, limits), read as one flat object where a game runs
    (an attribute of the plan, not of a part: the machine reads them in its inner loops)."""
    game_id: str
    name: str
    digest: str
    n_seats: int
    main: Unit | None = None                                   # the game's flow (a resumable function)
    # a scenario's blocks the flow calls by name (`before_setup`, `situation`: `flownodes.HookCall`)
    hooks: dict[str, Unit] = field(default_factory=dict)
    rules: dict[str, Loc | None] = field(default_factory=dict)  # rule id -> where it is written
    codegen: Compiled | None = None                            # what was generated (`explain --python`)

    @property
    def rank_loc(self) -> Loc | None:
        return self.rules.get("result.rank")

    @property
    def evaluate_loc(self) -> Loc | None:
        return self.rules.get("evaluate")

    def owned(self, owners: tuple) -> list[tuple[int, list[int]]]:
        """Each seat's own piles (a mask) and its variables' places in State.v, its pieces' too,
        when the pieces have these owners (kept: they seldom change hands)."""
        got = self.owned_by.get(owners)
        if got is None:
            got = []
            for seat in range(self.n_seats):
                mask, slots = self.seat_piles[seat], list(self.seat_slots[seat])
                for pc, owner in enumerate(owners):
                    if owner == seat:
                        mask |= self.piece_piles[pc]
                        slots += self.piece_slots[pc]
                got.append((mask, slots))
            self.owned_by[owners] = got
        return got
