"""How a built-in is declared: its name, the types of its parameters and of its value, and the
Python function that runs it. The checker reads the signature (arity and types are checked in
one place for every built-in); the compiler calls `run`, or a specialised function from `bind`.

Parameter types are the language's types (`INT`, `PILE`, `listof(INT)`, ...) and three more,
which only a built-in's signature has:
- `Items`: a list, or a pile standing for its cards (bottom to top); `T` is then its item type;
  `Items(INT)` asks for items of one type;
- `T`: any value, whose type becomes `T` (`first(items) -> T`, `reversed(items) -> list[T]`);
- `OfKind`: a board of a kind (`lanes`).
A declaration may write them as text (`"items"`, `"list[T]"`, `"lanes"`): it is read once, here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Protocol

from ..base.diagnostics import Loc
from ..lang.show import Names
from ..lang.types import ListType, Type, parse_type


@dataclass(frozen=True)
class Items(Type):
    """A list, or a pile standing for its cards; `elem`: the items it must hold (None: any)."""
    elem: Type | None = None

    def __str__(self) -> str:
        return "items" if self.elem is None else f"items[{self.elem}]"


@dataclass(frozen=True)
class Bound(Type):
    """`T`: the type of the items of the `Items` argument, or of a `T` argument."""
    name: ClassVar[str] = "T"


@dataclass(frozen=True)
class OfKind(Type):
    """A board of this kind."""
    kind: str

    def __str__(self) -> str:
        return self.kind


@dataclass(frozen=True)
class PlainBound(Bound):
    """`T` that is a number, a text or true/false (`"T:plain"`): what a track's places hold."""


T = Bound()
PLAIN_T = PlainBound()


# ---- what a built-in sees -------------------------------------------------------------------------
# Built-ins and board kinds come before the engine, which runs them: they cannot name its types
# (`engine/plan.py`'s Plan, `engine/state.py`'s State), so what they use of them is declared here,
# and mypy checks that the engine's classes have it wherever it hands them to a kind or built-in.

class PlanView(Names, Protocol):
    """The game's fixed data as built-ins and board kinds read it (`engine/plan.py`'s Plan), its
    names (`Names`: card_names, card_type, piece_names, pile_names, die_names) and more."""
    n_seats: int
    n_pieces: int
    n_piles: int
    aside: int
    piece_marker: list[bool]
    board_names: list[str]
    board_kinds: list[Any]     # each board's `boards.base.BoardKind` (boards come after built-ins)
    pile_owner: list[int | None]
    pile_board: list[str | None]
    pile_base: dict[str, int]
    card_types: list[str]
    card_start: list[int]
    card_props: dict[str, list[Any]]
    die_faces: list[list[int]]
    rules: dict[str, Loc | None]
    move_rules: frozenset[str]
    move_enter: Callable[..., Any] | None   # compiled entries: fn(st, env)
    move_spot: Callable[..., Any] | None

    def pile_label(self, pile: int) -> str: ...


class Believing(Protocol):
    """A bot's lookahead copy's belief (`engine/state.py`'s Belief): a built-in that drew by
    chance says so."""
    chance: bool


class Fixed(Protocol):
    """What a pure built-in reads: only the plan. Computed while compiling, it is given
    `compile/analysis.py`'s `_Static`, which has nothing else."""
    @property
    def plan(self) -> PlanView: ...


class Table(Fixed, Protocol):
    """The game's table as a built-in or a board kind sees it: `engine/state.py`'s State (or a
    bot's copy of it). Read-only members are properties (the engine's own types may be narrower)."""
    rolls: dict[int, list[int]] | None   # arranged rolls by die (`next_rolls` sets them)
    arranged_piles: set[int] | None      # the piles `set_pile`/`stack_pile` arranged

    @property
    def bd(self) -> list[Any]: ...            # each board's run-time data, as its kind keeps it
    @property
    def piles(self) -> list[list[int]]: ...   # each pile's cards, bottom to top
    @property
    def where(self) -> list[int]: ...         # each card's pile
    @property
    def up(self) -> list[bool]: ...           # each card face up?
    @property
    def trace(self) -> list[Any] | None: ...  # what happened, when asked
    @property
    def believe(self) -> Believing | None: ...
    # the game's generator, or a bot's own (`random.Random`, shared or taped: the engine's choice)
    @property
    def rng(self) -> Any: ...

    def end(self, pile: int, index: int) -> int | None: ...
    def seen(self, pile: int) -> list[int]: ...   # a pile's cards to read (a bot's copy deals first)
    def arranged(self, die: int) -> int | None: ...   # the next face `next_rolls` arranged, if any
    def move(self, card: int, dest: int, face_up: bool | None = None, bottom: bool = False) -> None: ...
    def turn(self, card: int, face_up: bool) -> None: ...
    def put_top(self, pile: int, card: int) -> None: ...
    def swap_piles(self, a: int, b: int) -> None: ...


Spec = str | Type  # a type as a declaration writes it: text (`"list[T]"`, `"lanes"`) or a type
_ITEMS = re.compile(r"items(?:\[(.+)\])?")
_KIND = re.compile(r"[a-z_]+")


def signature_type(spec: str | Type) -> Type:
    """A parameter's or value's type, from a declaration's text or a type."""
    if isinstance(spec, Type):
        return spec
    found = parse_type(spec)
    if found is not None:
        return found
    if spec == "T":
        return T
    if spec == "T:plain":
        return PLAIN_T
    if spec == "list[T]":
        return ListType(T)
    m = _ITEMS.fullmatch(spec)
    if m is not None:
        inner = parse_type(m.group(1)) if m.group(1) else None
        if m.group(1) and inner is None:
            raise ValueError(f"a built-in's parameter type `{spec}`")  # a programming error
        return Items(inner)
    if _KIND.fullmatch(spec):
        return OfKind(spec)
    raise ValueError(f"a built-in's type `{spec}`")  # pragma: no cover - a programming error


@dataclass(frozen=True)
class Param:
    """A built-in's parameter: its type (`spec`, read into `type`), what it is for messages, and
    whether it may be left out."""
    spec: str | Type = field(repr=False)
    what: str               # what the argument is, for error messages: "the pile `top` looks at"
    optional: bool = False  # may be left out (only at the end): `run` then has a default for it
    type: Type = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "type", signature_type(self.spec))


@dataclass
class Builtin:
    """A built-in of the rule language: its name, parameters and type, whether it is an effect,
    its doc line, and the Python that runs it."""
    name: str
    params: tuple[Param, ...]
    declared: str | Type | None = field(repr=False)  # its value's type as declared; None: an effect
    run: Callable[..., Any]              # run(st, *args)
    doc: str = ""
    # Reads only its arguments and the game's fixed data (never the table): with constant
    # arguments it is computed once when compiling.
    pure: bool = False
    # bind(plan, consts) -> a function of (st, *args) made for this game and these constant
    # arguments (a board named in the rule, a kind of line written out), a `Read`, or None.
    # `consts[i]` is the value of argument i when it is known when compiling, else NOT_CONST.
    bind: Callable[..., Any] | None = None
    kind: str | None = None              # the board kind that brings it (None: the core language)
    # typed(arg_types) -> the `run` to use for arguments of these types (an overload), or None
    typed: Callable[..., Any] | None = None
    chance: bool = False                 # may draw from a random generator (the game's or a bot's)
    rng: bool = False                    # draws from the game's own generator, on the real table too
    # An effect of a board that moves pieces: the events it may raise (`boards/base.py`), and
    # heard(st, *args), the effect that also says what happened: [(event, value, ...), ...] in
    # order. A game with a trigger on one of the events calls `heard` and runs the triggers after
    # it; any other game calls `run` (or `bind`'s) and pays nothing for the events.
    events: tuple[str, ...] = ()
    heard: Callable[..., Any] | None = None

    returns: Type | None = field(init=False)   # its value's type (None: an effect, a statement)

    def __post_init__(self) -> None:
        self.returns = None if self.declared is None else signature_type(self.declared)

    @property
    def effect(self) -> bool:
        return self.returns is None

    @property
    def call_form(self) -> str:
        """How a call of it is written, its arguments by type, those that may be left out in
        brackets: `cards_of(pile, [int])` (a hint's, the editor's)."""
        args = ", ".join(f"[{p.type}]" if p.optional else str(p.type) for p in self.params)
        return f"{self.name}({args})"


@dataclass(frozen=True)
class Read:
    """What `bind` may return instead of a function: the value is `st.bd[board][field][arg]`,
    one entry of a board's run-time data read by the built-in's only argument (the compiler
    writes it as that read, with no call). With `absent`: when the entry holds that value (the
    piece is not on the board), the built-in's `run` is called instead (it says what is wrong)."""
    board: int
    field: int
    absent: Any = NotImplemented   # NotImplemented: the entry is the value, whatever it holds


class _NotConst:
    def __repr__(self) -> str:
        return "NOT_CONST"


NOT_CONST: Any = _NotConst()


def builtin(name: str, params: list[tuple], returns: str | Type | None, doc: str = "",
            **kw: Any) -> Callable[[Callable[..., Any]], Builtin]:
    """A decorator declaring the function below it as built-in `name`; a parameter is (type,
    what) or (type, what, True) for one that may be left out."""
    def wrap(fn: Callable[..., Any]) -> Builtin:
        return Builtin(name, tuple(Param(*p) for p in params), returns, fn, doc, **kw)
    return wrap
