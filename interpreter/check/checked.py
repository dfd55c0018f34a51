"""Racecraft: check, what it gives. The output of the checking passes, which the passes after the
typing pass and the compiler read: what each name, attribute and call of a typed rule refers to
(`Ref`, on the node as `node.ref`), a rule's locals (`Local`), and `Checked`, a game that passed.

It imports none of the passes and every pass imports it: a pass gives the next one data, never
its own module.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..lang.types import Type
from ..load.rules import Rules
from .symbols import Symbols


@dataclass(eq=False)
class Local:
    """A local name of a rule: a parameter, `let`, a loop's or an option's variable."""
    name: str
    typ: Type
    # where extensions that may not read it are written (file, first line, last line): a rule's
    # `let` it does not declare visible
    hidden_from: tuple[tuple[str, int, int], ...] = ()
    turn: bool = False  # whose turn it is, in a step: every step of the turn reads the same one
    # first given an empty `[]` or `{}`: a list or map of what is first stored in it (`a = a + [c]`)
    open: bool = False


class CallKind(str, Enum):
    """What a rule of the call graph is (ordered as its name: functions, procedures, triggers)."""
    EVENT = "event"          # an event: its triggers run where it is raised
    FUNCTION = "function"
    PROCEDURE = "procedure"
    TRIGGER = "trigger"


@dataclass(frozen=True, order=True)
class Callee:
    """A rule of the call graph, or an event its triggers hear: a name as a value (`calls.py`,
    `Checked.waits`), never text spelt at each use."""
    kind: CallKind
    name: str

    @classmethod
    def function(cls, name: str) -> "Callee":
        return cls(CallKind.FUNCTION, name)

    @classmethod
    def procedure(cls, name: str) -> "Callee":
        return cls(CallKind.PROCEDURE, name)

    @classmethod
    def trigger(cls, ident: str) -> "Callee":
        return cls(CallKind.TRIGGER, ident)

    @classmethod
    def event(cls, name: str) -> "Callee":
        return cls(CallKind.EVENT, name)


class RefKind(Enum):
    """What a name, attribute, call or place refers to (`Ref.name` and `Ref.extra` say more)."""
    LOCAL = "local"                # a rule's local: extra is its `Local`
    PARAM = "param"                # a game param: extra is its value
    GLOBAL = "global"              # a game state variable (or `round`)
    PILE = "pile"                  # a pile of the game
    BOARD = "board"
    PIECES = "pieces"              # a kind of pieces: the list of them
    SEATS = "seats"
    CARD_TYPE = "card_type"        # `c.type`
    CARD_FACE_UP = "card_face_up"
    CARD_PILE = "card_pile"
    CARD_PROP = "card_prop"        # `c.PROP`: name is the property
    PIECE_NAME = "piece_name"
    PIECE_VAR = "piece_var"        # `p.VAR`: name is the variable
    CARD_VAR = "card_var"          # `c.VAR`: a state variable of each card
    SEAT_VAR = "seat_var"
    SEAT_NUMBER = "seat_number"
    SEAT_PIECES = "seat_pieces"
    MAP_GET = "map_get"            # `m.key`, `m[k]`: name is the key of `m.key`; extra the value's zero
    FUNCTION = "function"
    PROCEDURE = "procedure"
    BUILTIN = "builtin"            # extra is its `Builtin`
    PILE_OF = "pile_of"            # `hand(s)`: extra is what it is one per
    DIE = "die"                    # a die of the game (`d6`)
    DIE_OF = "die_of"              # a die of a family (`level(3)`): extra is the type of its keys
    LIST_ITEM = "list_item"        # a place `xs[i]`
    MAP_ITEM = "map_item"          # a place `m[k]`, `m.key`: name is the key of `m.key`; extra the zero
    TURN_SEAT = "turn_seat"        # who chooses by default: the seat whose turn it is (name: the turn's name)
    TURN_OWNER = "turn_owner"      # ... the owner of the piece whose turn it is
    SIMUL_SEAT = "simul_seat"      # ... the seat of a `simultaneously` block
    MACHINE_VALUE = "machine_value"  # the value a procedure that waits gave (the compiler's)


@dataclass(frozen=True)
class Ref:
    """What one name, attribute, call or place of a typed rule refers to (`node.ref`)."""
    kind: RefKind
    name: str = ""
    extra: Any = None


@dataclass
class Checked:
    """A game that passed the checks: its symbols, its annotated rules, and what the whole
    program looks like (function types, which rules wait for decisions)."""
    symbols: Symbols
    rules: Rules
    function_types: dict[str, Type] = field(default_factory=dict)
    waits: set[Callee] = field(default_factory=set)   # procedures, triggers, events (`calls.py`)
    procedure_types: dict[str, Type] = field(default_factory=dict)  # procedures that give a value
    event_params: dict[str, dict[str, Type]] = field(default_factory=dict)    # event -> {param: type}
    trigger_ok: set[str] = field(default_factory=set)               # triggers whose params agree
    trigger_params: dict[str, list[str]] = field(default_factory=dict)   # trigger -> its own names of them
    handlers: dict[str, list] = field(default_factory=dict)   # event -> [TriggerDef]
    emitted: set[str] = field(default_factory=set)
    # each `simultaneously` block (by its node's id): what its seats' blocks touch (`secret.py`)
    secrets: dict[int, Any] = field(default_factory=dict)
    # to check a scenario's rules later: a `scenarios.Scenarios` (named, not imported: that
    # module reaches this one)
    checker: Any = None
