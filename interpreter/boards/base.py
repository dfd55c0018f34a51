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
from typing import Any, Callable

from ..lang.errors import RuleError
from ..library.api import Builtin, Param, Spec

KINDS: dict[str, type["BoardKind"]] = {}


def register(cls):
    KINDS[cls.kind] = cls
    return cls


class BoardKind:
    """One board of a game."""

    kind = ""
    noun = "a board"              # how a person names a board of this kind: "a lane track"
    Model: Any = None
    builtins: list[Builtin] = []
    has_places = False            # piles may be declared `of:` a board of this kind, one per place
    # where a piece stands in the run-time data: (which list of `st.bd[index]`, the value there
    # for a piece that is not on the board)
    piece_at: tuple[int, Any] = (0, None)
    drawn_empty = False           # a screen draws it even with no piece on it (a grid that is the table)

    def __init__(self, name: str, index: int, decl, plan):
        self.name = name
        self.index = index
        self.decl = decl
        self.plan = plan

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

    def check(self, symbols, report) -> None:
        """Report what the game's declarations get wrong about this board (after the
        declarations are read: `symbols` is `check.symbols.Symbols`)."""
        return None

    def init(self, st):
        return None

    def clone(self, data):
        return data

    def holds(self, data, p) -> bool:
        """Does piece `p` stand on this board?"""
        field, absent = self.piece_at
        return data[field][p] != absent

    def view(self, st, seat) -> dict:
        """What a seat sees of this board, as data: {"kind", "pieces": [{"piece", "where", ...}],
        and what else the kind shows}. `text` draws it as text, `paint` as a picture."""
        return {"kind": self.kind, "pieces": [{"piece": p, "where": w} for p, w in self.positions(st)]}

    def positions(self, st) -> list[tuple[str, str]]:
        """Where each piece on this board stands, in the board's order, in a player's words."""
        return []

    def redeal_hidden(self, st, seat, rng) -> None:
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

    def paint(self, canvas, board: dict | None, scene, top: float) -> bool:
        """Paint the board on `canvas` (`draw/canvas.py`) below `top`: as declared, and in a game
        as `board` (its view) shows it, with what `scene` (`draw/scene.py`) knows of the table.
        False for a kind without a picture."""
        module = self.drawing("picture")
        if module is None:
            return False
        module.paint(canvas, self, board, scene, top)
        return True


# ---- declaring built-ins -----------------------------------------------------------------------

def kind_at(st, b, cls, name: str):
    """The board `b` as a board of kind `cls`, or a rule error."""
    plan = st.plan
    k = plan.board_kinds[b] if b is not None and 0 <= b < len(plan.board_kinds) else None
    if not isinstance(k, cls):
        shown = plan.board_names[b] if k is not None else b
        raise RuleError(f"`{name}`: board `{shown}` is not {cls.noun}")
    return k


def on_board(cls, name: str, params: list[tuple[Spec, str]], returns: Spec | None, doc: str = "", **kw):
    """A built-in whose first argument is a board of kind `cls`: the function below it is
    fn(kind, st, board, *the other arguments), `kind` being the board's `BoardKind`. For a board
    named in the rule (found when compiling) the call goes straight to it: `partial(fn, kind)`."""
    def wrap(fn: Callable):
        def run(st, b, *rest):
            return fn(kind_at(st, b, cls, name), st, b, *rest)

        def bind(plan, consts):
            b = consts[0]
            if not isinstance(b, int) or not isinstance(plan.board_kinds[b], cls):
                return None  # a board known only while playing (or `none`: an error then)
            return partial(fn, plan.board_kinds[b])
        board = Param(cls.kind, f"the board of `{name}`")
        return Builtin(name, (board, *(Param(t, w) for t, w in params)), returns, run, doc,
                       bind=bind, kind=cls.kind, **kw)
    return wrap


def of_piece(cls, name: str, params: list[tuple[Spec, str]], returns: Spec | None, doc: str = "",
             off: Callable | None = None):
    """A built-in whose first argument is a piece on a board of kind `cls`: the function below
    it is fn(kind, data, piece, *the other arguments), for the board the piece stands on (in a
    game with one board of the kind, found when compiling). A piece on no such board is a rule
    error, or `off(piece, *args)` when given."""
    def wrap(fn: Callable):
        def find(st, p):
            if p is None:
                raise RuleError(f"`{name}`: a piece was expected, not none")
            for i, k in enumerate(st.plan.board_kinds):
                if isinstance(k, cls) and k.holds(st.bd[i], p):
                    return k, st.bd[i]
            return None, None

        def run(st, p, *rest):
            k, data = find(st, p)
            if k is None:
                if off is not None:
                    return off(p, *rest)
                raise RuleError(f"`{name}`: `{st.plan.piece_names[p]}` is not on {cls.noun}")
            return fn(k, data, p, *rest)

        def bind(plan, consts):
            boards = [(i, k) for i, k in enumerate(plan.board_kinds) if isinstance(k, cls)]
            if len(boards) != 1:
                return None
            ((i, k),) = boards
            field, absent = k.piece_at

            def one(st, p, *rest):
                data = st.bd[i]
                if p is None or data[field][p] == absent:
                    return run(st, p, *rest)  # says what is wrong
                return fn(k, data, p, *rest)
            return one
        piece = Param("piece", f"the piece of `{name}`")
        return Builtin(name, (piece, *(Param(t, w) for t, w in params)), returns, run, doc,
                       bind=bind, kind=cls.kind)
    return wrap
