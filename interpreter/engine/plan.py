"""The compiled game: plain Python data and functions, built once per ruleset and player count.

Nothing here is pydantic; the machine reads only this while playing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable

from ..lang.diagnostics import Loc
from ..lang.types import Type


class Effects(Enum):
    """What a bot's look at an option (`vm.preview`) plays of the game."""
    NONE = "none"    # the option does nothing: the table as it is
    RUN = "run"      # its own statements, alone (its function `Alternative.run`)
    PLAY = "play"    # it decides again or branches in the flow: the game, up to the next decision


Entry = Callable[..., Any]   # a compiled entry: fn(st, env) (`compile/codegen.py`, `engine/boundary.py`)


@dataclass
class Alternative:
    label: Entry             # template: fn(st, env) -> str
    var: str | None          # the name the option binds, when it ranges over values
    effects: Effects = Effects.PLAY
    run: Entry | None = None  # RUN: the option's statements, fn(st, env) (`env`: the locals, its value too)
    key: str = ""            # what the statistics call it: `CHOICE > OPTION` (see `Tally`)
    of: Type | None = None   # the type it ranges over (a card, piece, seat, number, text, bool),
                             # counted with the option (a card by its type)


@dataclass
class ChooseSpec:
    """A `choose`: what the rule that waits there gives the machine to ask."""
    prompt: Entry            # template: fn(st, env) -> str
    seat: Entry              # fn(st, env) -> seat
    alts: list[Alternative]
    loc: Loc | None
    rule: str

    def label(self, st: Any, env: dict[str, Any], option: tuple[int, Any]) -> str:
        i, v = option
        alt = self.alts[i]
        if alt.var is not None:
            env = dict(env)
            env[alt.var] = v
        return alt.label(st, env)


@dataclass
class Plan:
    game_id: str
    name: str
    digest: str
    n_seats: int
    # piles
    n_piles: int = 0
    pile_names: list = field(default_factory=list)       # per pile id: "hand(2)"
    pile_decl: list = field(default_factory=list)        # per pile id: declared name
    pile_visible: list = field(default_factory=list)     # per pile id: all/owner/nobody/top
    unseen_piles: frozenset = frozenset()                # pile ids that nobody sees
    pile_owner: list = field(default_factory=list)       # per pile id: seat, piece or None
    pile_scope: list = field(default_factory=list)       # per pile id: game/seat/piece/board name
    pile_base: dict = field(default_factory=dict)        # declared name -> first pile id
    refill: dict = field(default_factory=dict)           # pile id -> pile id
    aside: int = -1                                      # the pile of cards set aside (out of the game)
    # cards
    card_types: list = field(default_factory=list)       # type ids
    card_names: list = field(default_factory=list)       # what players read for each type
    card_type: list = field(default_factory=list)        # per card: type index
    card_props: dict = field(default_factory=dict)       # prop -> per card value
    type_props: list = field(default_factory=list)       # per type: props dict
    card_start: list = field(default_factory=list)       # per card: starting pile id
    card_type_names: list = field(default_factory=list)  # per card: its type's id
    # pieces and boards
    n_pieces: int = 0
    piece_names: list = field(default_factory=list)
    piece_kind: list = field(default_factory=list)
    kind_pieces: dict = field(default_factory=dict)
    board_names: list = field(default_factory=list)
    board_kinds: list = field(default_factory=list)      # per board: its BoardKind object
    hiding_kinds: list = field(default_factory=list)     # those that hide things (`redeal_hidden`)
    clone_bd: object = None                              # fn(State.bd) -> a copy (each kind's clone)
    # state variables
    global_init: dict = field(default_factory=dict)
    seat_init: dict = field(default_factory=dict)
    piece_init: dict = field(default_factory=dict)
    var_at: dict = field(default_factory=dict)           # seat/piece variable -> offset in State.v
    var_start: list = field(default_factory=list)        # State.v at the start
    var_visible: dict = field(default_factory=dict)      # (scope, name) -> visibility
    var_types: dict = field(default_factory=dict)        # (scope, name) -> type
    # flow
    main: object = None                                  # the game's flow: fn(st, frame) (a unit)
    rank: object = None
    tie: object = None
    descending: bool = True
    also_pieces: object = None                           # `result.also`: fn(st, env) -> the pieces ranked,
    also_rank: object = None                             # and each one's rank and tie (`piece` bound)
    also_tie: object = None
    # what a game of a series hands on (`carry:`): seat and game variables, piles by name
    carry_seat: list = field(default_factory=list)
    carry_game: list = field(default_factory=list)
    carry_piles: list = field(default_factory=list)
    records: dict = field(default_factory=dict)          # name -> fn(st, env)
    progress: object = None                              # fn(st, env) with `seat` bound, or None
    metrics: dict = field(default_factory=dict)          # name -> fn(st, env), read at the end
    shown: dict = field(default_factory=dict)            # name -> fn(st, env) with `piece` bound
    # what a player sees (`view:`): facts of each seat and of the game, each fact's (label, unit,
    # seen by its owner only) and type by its rule id (`view.seats.lap`); the piles shown; None: no `view:`
    seat_facts: dict = field(default_factory=dict)       # name -> fn(st, env) with `seat` bound
    game_facts: dict = field(default_factory=dict)       # name -> fn(st, env)
    fact_meta: dict = field(default_factory=dict)
    fact_types: dict = field(default_factory=dict)
    view: dict | None = None                             # pile name -> {label, show, sort, whose}
    colours: dict = field(default_factory=dict)          # word -> colour name
    evaluate: object = None                              # fn(st, env) with `seat` bound, or None
    max_rounds: int = 1000
    max_steps: int = 2_000_000
    rules: dict = field(default_factory=dict)            # rule id -> Loc, of the entries
    codegen: object = None                               # what was generated (`explain --python`)

    @property
    def rank_loc(self):
        return self.rules.get("result.rank")

    @property
    def evaluate_loc(self):
        return self.rules.get("evaluate")

    def pile_label(self, pile: int) -> str:
        return self.pile_names[pile]

    def card_label(self, card: int) -> str:
        return self.card_names[self.card_type[card]]
