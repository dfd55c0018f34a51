"""What every board kind provides, and how a kind declares its built-ins.

A kind is a package `boards/<kind>/` whose class, registered with `@register`, is its one entry
in `KINDS`: its declaration model (pydantic, with `kind: Literal[...]`), its run-time data (plain
lists in `st.bd[index]`, copied by `clone`), its built-ins (declared once with signatures,
`library/api.py`; they exist only in games with a board of the kind), and a view that is data.
Beside it in its package: `text.py` draws the view as text lines for the terminal, `picture.py`
paints the board as SVG; each is imported when something first draws (`BoardKind.drawing`).
"""
from __future__ import annotations

from functools import partial
from importlib import import_module
from types import ModuleType
import random
from typing import TYPE_CHECKING, Annotated, Any, Callable, TypeVar

from pydantic import Field

from ..base.errors import RuleError
from ..base.limits import MAX_INT, MAX_TEXT
from ..lang.types import PIECE, Type
from ..library.api import NOT_CONST, Builtin, Fixed, Param, PlanView, Spec, Table

if TYPE_CHECKING:   # (the drawing modules are imported when something first draws)
    from ..base.diagnostics import Report
    from ..draw.canvas import Canvas
    from ..draw.scene import Scene

KINDS: dict[str, type["BoardKind"]] = {}
K = TypeVar("K", bound="BoardKind")


def register(cls: type["BoardKind"]) -> type["BoardKind"]:
    KINDS[cls.kind] = cls
    return cls


class BoardKind:
    """One board of a game."""

    kind = ""
    noun = "a board"              # how a person names a board of this kind: "a lane track"
    Model: Any = None
    builtins: list[Builtin] = []
    # the events its built-ins raise as they move pieces (`move_events`): event -> its values
    events: dict[str, "EventValues"] = {}
    moves = False                 # its effects move pieces by the game's `moves` rules (`ir/sites.py`)
    has_places = False            # piles may be declared `of:` a board of this kind, one per place
    # where a piece stands in the run-time data: (which list of `st.bd[index]`, the value there
    # for a piece that is not on the board)
    piece_at: tuple[int, Any] = (0, None)
    drawn_empty = False           # a screen draws it even with no piece on it (a grid that is the table)

    # the game's plan (`Any` as given: None for a board made only to check or draw its declaration,
    # `check/symbols.py`, `picture/render.py`, which never reads it)
    plan: PlanView

    def __init__(self, name: str, index: int, decl: Any, plan: Any) -> None:
        self.name = name
        self.index = index
        self.decl = decl
        self.plan = plan

    def place_key(self, place: Any) -> str | None:
        """How its picture marks the place a rule names by `place` (`data-place="BOARD:KEY"`): an
        option made for that place (`at BOARD, PLACE`) is a ring there. None: no place it draws."""
        return str(place) if isinstance(place, (int, str)) and not isinstance(place, bool) else None

    @property
    def places(self) -> int:
        """How many places have a pile each when a pile is declared `of:` this board."""
        return 0

    # forms an older version of the language wrote for this kind's rules (`lang/versions.OldForm`)
    old_forms: tuple = ()

    @classmethod
    def read_old(cls, board: Any, version: int, said: list) -> Any:
        """A board's declaration as written (a mapping, with positions) read in the current
        version: the same object, or a copy in which the old forms of its data are the new ones
        (each said into `said`, `load/oldforms.py`). A kind whose data never changed has none."""
        return board

    def check(self, symbols: Any, report: Report) -> None:
        """Report what the game's declarations get wrong about this board (after the
        declarations are read: `symbols` is `check.symbols.Symbols`)."""
        return None

    def init(self, st: Table) -> Any:
        return None

    def clone(self, data: Any) -> Any:
        return data

    def holds(self, data: Any, p: int) -> bool:
        """Does piece `p` stand on this board?"""
        field, absent = self.piece_at
        return data[field][p] != absent

    @classmethod
    def line_kinds(cls, decl: Any) -> set[str]:
        """The kinds of line a board so declared has (`view.lines` tells of lines of these kinds)."""
        return set()

    def view(self, st: Table, seat: int | None) -> dict:
        """What a seat sees of this board, as data: {"kind", "pieces": [{"piece", "where", ...}],
        and what else the kind shows}. `text` draws it as text, `paint` as a picture."""
        return {"kind": self.kind, "pieces": [{"piece": p, "where": w} for p, w in self.positions(st)]}

    def where_of(self, data: Any, pc: int) -> Any:
        """Where piece `pc` stands as the kind's events say it (a slot, a cell's id, a square), or
        None when it is not on the board (`heard_by_change`)."""
        return None

    def in_order(self, data: Any) -> list | None:
        """The pieces on the board in its order, the first ahead; None for a board without one."""
        return None

    def positions(self, st: Table) -> list[tuple[str, str]]:
        """Where each piece on this board stands, in the board's order, in a player's words."""
        return []

    def redeal_hidden(self, st: Table, seat: int, rng: random.Random) -> None:
        """Rearrange, on a copy of the state, what `seat` cannot see (a bot that looks ahead
        plays on a table it could believe in, not on the hidden truth)."""
        return None

    # ---- drawing: the kind's `text.py` and `picture.py`, imported when first used ---------------

    @classmethod
    def drawing(cls, part: str) -> ModuleType | None:
        """The module `part` ("text" or "picture") of the kind's package, or None if it has none."""
        package = cls.__module__.rpartition(".")[0]
        try:
            return import_module(f"{package}.{part}")
        except ModuleNotFoundError as e:
            if e.name != f"{package}.{part}":
                raise  # a module it imports is missing: a bug to see, not a kind without a drawing
            return None

    def text(self, board: dict, view: dict) -> list[str] | None:
        """The board's view (`board`, from `view`: the whole seat's view) as text lines for the
        terminal; None for a kind without a text drawing."""
        module = self.drawing("text")
        return None if module is None else module.lines(self, board, view)

    def paint(self, canvas: Canvas, board: dict | None, scene: Scene | None, top: float) -> bool:
        """Paint the board on `canvas` (`draw/canvas.py`) below `top`: as declared, and in a game
        as `board` (its view) shows it, with what `scene` (`draw/scene.py`) knows of the table.
        False for a kind without a picture."""
        module = self.drawing("picture")
        if module is None:
            return False
        module.paint(canvas, self, board, scene, top)
        return True


# ---- declaring built-ins -----------------------------------------------------------------------

def kind_at(st: Fixed, b: Any, cls: type[K], name: str) -> K:
    """The board `b` as a board of kind `cls`, or a rule error (`b`: any value a rule gave, none
    or a board number out of range included)."""
    plan = st.plan
    k = plan.board_kinds[b] if b is not None and 0 <= b < len(plan.board_kinds) else None
    if not isinstance(k, cls):
        if b is None:
            raise RuleError(f"`{name}`: the board is none, not {cls.noun}")
        shown = plan.board_names[b] if k is not None else b
        raise RuleError(f"`{name}`: board `{shown}` is not {cls.noun}")
    return k


def on_board(cls: type[BoardKind], name: str, params: list[tuple[Spec, str]], returns: Spec | None,
             doc: str = "", **kw: Any) -> Callable[[Callable[..., Any]], Builtin]:
    """A built-in whose first argument is a board of kind `cls`: the function below it is
    fn(kind, st, board, *the other arguments), `kind` being the board's `BoardKind`. For a board
    named in the rule (found when compiling) the call goes straight to it: `partial(fn, kind)`."""
    def wrap(fn: Callable[..., Any]) -> Builtin:
        def run(st: Table, b: int | None, *rest: Any) -> Any:
            return fn(kind_at(st, b, cls, name), st, b, *rest)

        def bind(plan: PlanView, consts: list[Any]) -> Callable[..., Any] | None:
            b = consts[0]
            if b is NOT_CONST:
                # a board known only while playing (a rule that picks one of the game's tracks):
                # each board of this kind found by its number, in the inner loops such a rule
                # may call this from; any other value said by `run`
                kinds: dict[Any, BoardKind] = {i: k for i, k in enumerate(plan.board_kinds)
                                               if isinstance(k, cls)}
                get = kinds.get

                def any_board(st: Table, b: int | None, *rest: Any) -> Any:
                    k = get(b)
                    if k is None:
                        return run(st, b, *rest)
                    return fn(k, st, b, *rest)
                return any_board
            if not isinstance(b, int) or not isinstance(plan.board_kinds[b], cls):
                return None  # `none` or another kind: an error, said by `run` while playing
            return partial(fn, plan.board_kinds[b])
        board = Param(cls.kind, f"the board of `{name}`")
        return Builtin(name, (board, *(Param(t, w) for t, w in params)), returns, run, doc,
                       bind=bind, kind=cls.kind, **kw)
    return wrap


def of_piece(cls: type[BoardKind], name: str, params: list[tuple[Spec, str]], returns: Spec | None,
             doc: str = "", off: Callable[..., Any] | None = None) -> Callable[[Callable[..., Any]], Builtin]:
    """A built-in whose first argument is a piece on a board of kind `cls`: the function below
    it is fn(kind, data, piece, *the other arguments), for the board the piece stands on (in a
    game with one board of the kind, found when compiling). A piece on no such board is a rule
    error, or `off(piece, *args)` when given."""
    def wrap(fn: Callable[..., Any]) -> Builtin:
        def find(st: Table, p: int | None) -> tuple[BoardKind | None, Any]:
            if p is None:
                raise RuleError(f"`{name}`: a piece was expected, not none")
            for i, k in enumerate(st.plan.board_kinds):
                if isinstance(k, cls) and k.holds(st.bd[i], p):
                    return k, st.bd[i]
            return None, None

        def run(st: Table, p: Any, *rest: Any) -> Any:   # p: a piece, or none (a rule error)
            k, data = find(st, p)
            if k is None:
                if off is not None:
                    return off(p, *rest)
                raise RuleError(f"`{name}`: `{st.plan.piece_names[p]}` is not on {cls.noun}")
            return fn(k, data, p, *rest)

        def bind(plan: PlanView, consts: list[Any]) -> Callable[..., Any] | None:
            boards = [(i, k) for i, k in enumerate(plan.board_kinds) if isinstance(k, cls)]
            if len(boards) != 1:
                return None
            ((i, k),) = boards
            field, absent = k.piece_at

            def one(st: Table, p: int | None, *rest: Any) -> Any:
                data = st.bd[i]
                if p is None or data[field][p] == absent:
                    return run(st, p, *rest)  # says what is wrong
                return fn(k, data, p, *rest)
            return one
        piece = Param("piece", f"the piece of `{name}`")
        return Builtin(name, (piece, *(Param(t, w) for t, w in params)), returns, run, doc,
                       bind=bind, kind=cls.kind)
    return wrap


# ---- what a board says of its places --------------------------------------------------------------
# A track file may give a place (a space, a cell, a square) properties: names with a number, a text
# or a truth (`width: 1`, `surface: gravel`). A rule reads one with its kind's built-in, giving the
# value it stands for where the place has none (`space_prop(track, d, "width", 2)`): that default's
# type is the value's type, so a place's value of another type is a rule error where it is read.

# a place's properties as a track file declares them: name -> a truth, a number or a text
# (a number within what the engine holds, a text within what a rule may hold)
Props = dict[Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")],
             bool | Annotated[int, Field(ge=-MAX_INT, le=MAX_INT)]
             | Annotated[str, Field(max_length=MAX_TEXT)]]
PROP_WORDS = {bool: "true or false", int: "a number", str: "a text"}


def _shown(value: Any) -> str:
    """A property's value as a rule writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return f'"{value}"' if isinstance(value, str) else str(value)


def prop_value(props: dict[str, Any] | None, name: str, default: Any, where: str) -> Any:
    """Property `name` of a place (`props`: what its board declares for it; `where`: the place in
    a player's words), or `default` when it has none."""
    if props is None:
        return default
    value = props.get(name, default)
    if default is not None and type(value) is not type(default):
        raise RuleError(f"{where} has `{name}: {_shown(value)}`, {PROP_WORDS[type(value)]}, but the rule "
                        f"reads it as {PROP_WORDS.get(type(default), 'a value')} (its default is "
                        f"{_shown(default)})")
    return value


# ---- what happens on a board ----------------------------------------------------------------------
# A kind's effects that move pieces raise events a game's triggers may wait for, with values: the
# piece, and where it went in the kind's own words (a lane track's progress, a cell's id, a square,
# a slot). A game with no trigger on them calls the effects as they are (`Builtin.heard`).

# the type of each value, in order, with a name a trigger might give it and what it is
EventValues = tuple[tuple[Type, str, str], ...]
MOVED, ENTERED, PASSED, BLOCKED = "piece_moved", "piece_entered", "piece_passed", "piece_blocked"


def move_events(place: Type, where: str, blocked: bool = True) -> dict[str, EventValues]:
    """The events of a kind whose places are `place` values (`where`: what one is, in words)."""
    piece = (PIECE, "piece", "the piece that moved")
    out = {MOVED: (piece, (place, "left", f"the {where} it left"),
                   (place, "reached", f"the {where} it reached")),
           ENTERED: (piece, (place, "entered", f"the {where} it entered")),
           PASSED: (piece, (PIECE, "other", "the piece it passed"))}
    if blocked:
        out[BLOCKED] = (piece, (place, "wanted", f"the {where} it was going to"),
                        (place, "reached", f"the {where} it stopped at"))
    return out


def in_space(pos: list, d: int, spaces: int | None, but: int | None = None) -> list[int]:
    """The pieces whose progress in `pos` (None: off the board) lies in the space of progress `d`:
    on a loop of `spaces` spaces a piece a lap (or more) ahead or behind stands there too (None:
    a track raced once, where only that very progress does); never `but`."""
    if spaces is None:
        return [pc for pc, p in enumerate(pos) if p == d and pc != but]
    r = d % spaces
    return [pc for pc, p in enumerate(pos) if p is not None and p % spaces == r and pc != but]


def passed(before: list, after: list, pc: int) -> list:
    """The pieces `pc` passed, from a board's order of pieces (the first ahead) before and after its
    move: those ahead of it before and behind it after, the nearest first."""
    if pc not in before or pc not in after:
        return []
    behind = set(after[after.index(pc) + 1:])
    ahead = before[:before.index(pc)]
    return [q for q in reversed(ahead) if q in behind]


def heard_by_change(cls: type[BoardKind], b: Builtin,
                    events: tuple[str, ...] = (MOVED, ENTERED, PASSED)) -> Builtin:
    """Give effect `b` of kind `cls` its events, found by what changed on the kind's boards (for a
    kind whose effects put a piece in a place, rather than take it along a way): each piece that
    stands elsewhere after it has moved from where it was (when it was on the board) and entered
    where it is, and, on a board with an order, passed the pieces that were ahead and are behind;
    piece by piece in the board's order after the effect (the first ahead first). `events`: those
    it can raise (one that only puts a piece that is on no board yet raises only ENTERED), which
    the checker's search for triggers that raise their own event reads."""
    run = b.run

    def heard(st: Table, *args: Any) -> list[tuple]:
        boards = [(i, k) for i, k in enumerate(st.plan.board_kinds) if isinstance(k, cls)]
        n = st.plan.n_pieces
        before = [([k.where_of(st.bd[i], p) for p in range(n)], k.in_order(st.bd[i])) for i, k in boards]
        run(st, *args)
        out: list[tuple] = []
        for (i, k), (was, order) in zip(boards, before):
            data = st.bd[i]
            after = k.in_order(data)
            for p in (after or []) + [p for p in range(n) if after is None or p not in after]:
                now = k.where_of(data, p)
                if now is None or now == was[p]:
                    continue
                if was[p] is not None:
                    out.append((MOVED, p, was[p], now))
                out.append((ENTERED, p, now))
                if was[p] is not None and order is not None and after is not None:
                    out.extend((PASSED, p, q) for q in passed(order, after, p))
        return out
    b.heard, b.events = heard, tuple(e for e in events if e in cls.events)
    return b
