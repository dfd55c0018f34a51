"""The tile grid: square tiles laid on a grid, face up or face down, turned, swapped.

The layout is a picture: one character per grid position, `.` (or a space) where there is no
square, any other character a square of the region that character names. Squares are numbered
1..n in reading order and labelled by column letter and row number (`B3`).

Each square holds its tile as a card: the top card of the square's own pile (a pile declared
`of:` this board, named by `pile`). The card's property named by `track` lists the sides that
carry track when the tile is unturned, as letters of `NESW` (`"NS"`: a straight). Whether a
square is face up is its card's face; so nobody's view shows a face-down tile, and a swap moves
the cards without turning them. Two squares are *connected* when they share a side and both
carry track on it.

Run-time data is `st.bd[index] = [turn per square, square per piece]` (turns are quarter turns
clockwise, 0..3; a piece off the board stands on square 0), copied in a clone as two lists.
The view is data (`view`); `text.py` draws it as text, `picture.py` as a picture.
"""
from __future__ import annotations

import random
from typing import Annotated, Any, Callable, Literal

from pydantic import (BaseModel, ConfigDict, Field, ValidatorFunctionWrapHandler, WrapValidator,
                      model_validator)

from ...base.diagnostics import Report
from ...base.errors import RuleError
from ...lang.types import BOOL, CARD, INT, PIECE, TEXT, listof
from ...library.api import Builtin, Fixed, Spec, Table
from ..base import BoardKind, Props, heard_by_change, move_events, on_board, prop_value, register

SIDES = "NESW"
STEP = ((-1, 0), (0, 1), (1, 0), (0, -1))  # row, column change towards N, E, S, W
# box-drawing characters by the sides a tile carries track on (bit 1 N, 2 E, 4 S, 8 W)
GLYPH = {0: "·", 1: "╵", 2: "╶", 4: "╷", 8: "╴", 5: "│", 10: "─", 3: "└", 6: "┌", 12: "┐",
         9: "┘", 7: "├", 14: "┬", 13: "┤", 11: "┴", 15: "┼"}
_NAME = r"^[A-Za-z_][A-Za-z0-9_]*$"


def _keep_loc(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    """Validated as usual, but a string from a file stays itself (it knows its position)."""
    out = handler(value)
    return value if isinstance(value, str) and hasattr(value, "loc") else out


# the name of the squares' pile, which keeps its position in the file (E151 points at it)
_PileName = Annotated[str, WrapValidator(_keep_loc)]


class TilesModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, title="TileGridBoard")
    kind: Literal["tiles"] = Field(description="tiles: a grid of square tiles, face up or down, "
                                               "turned and swapped")
    layout: list[str] = Field(min_length=1, max_length=26,
                              description="the grid, one string per row, one character per position: "
                                          "`.` or a space for no square, otherwise the region's character")
    regions: dict[str, str] = Field(description="what each layout character means: character -> region name")
    pile: _PileName = Field(pattern=_NAME, description="the pile, declared `of:` this board, whose top "
                                                       "card is each square's tile")
    track: str = Field(pattern=_NAME, description="the card property listing the sides with track, "
                                                  "unturned, as letters of NESW (e.g. \"NE\")")
    square_props: dict[str, Props] = Field(
        default_factory=dict, description="properties of squares, by label (`B3: {mud: 2}`), which the rules "
                                          "read with `tile_prop(board, square, name, default)`")

    @model_validator(mode="after")
    def _fits(self) -> TilesModel:
        width = max(len(row) for row in self.layout)
        if width > 26:
            raise ValueError("a layout row has more than 26 positions (columns are labelled A-Z)")
        for ch in self.regions:
            if len(ch) != 1 or ch in ". ":
                raise ValueError(f"region key `{ch}` must be one character other than `.` and space")
        for r, row in enumerate(self.layout, 1):
            for ch in row:
                if ch not in ". " and ch not in self.regions:
                    raise ValueError(f"layout row {r} uses `{ch}`, which `regions` does not name")
        if not any(ch not in ". " for row in self.layout for ch in row):
            raise ValueError("the layout has no square")
        for name in self.regions.values():
            if not isinstance(name, str) or not name:
                raise ValueError("a region needs a name")
        labels = {_label(r, c) for r, row in enumerate(self.layout) for c, ch in enumerate(row)
                  if ch not in ". "}
        for label in self.square_props:
            if label not in labels:
                raise ValueError(f"square_props.{label}: the layout has no square `{label}`")
        return self


def _label(row: int, col: int) -> str:
    return f"{chr(ord('A') + col)}{row + 1}"


@register
class Tiles(BoardKind):
    kind = "tiles"
    noun = "a tile grid"
    events = move_events(INT, "square", blocked=False)
    Model = TilesModel
    has_places = True
    piece_at = (1, 0)
    drawn_empty = True            # the grid is the table: drawn before any car stands on it

    def __init__(self, name: str, index: int, decl: Any, plan: Any) -> None:
        super().__init__(name, index, decl, plan)
        self.pos: list = [None]          # square -> (row, col); square 0 is "off the board"
        self.region: list = [""]
        self.labels: list = [""]
        at = {}
        for r, row in enumerate(decl.layout):
            for col, ch in enumerate(row):
                if ch in ". ":
                    continue
                at[(r, col)] = len(self.pos)
                self.pos.append((r, col))
                self.region.append(decl.regions[ch])
                self.labels.append(_label(r, col))
        self.n = len(self.pos) - 1
        self.props = [None] + [decl.square_props.get(label) for label in self.labels[1:]]
        self.rows = len(decl.layout)
        self.cols = max(len(row) for row in decl.layout)
        self.by_label = {lab: i for i, lab in enumerate(self.labels) if i}
        # neighbour[sq][side]: the square across that side, or 0
        self.neighbour = [[0, 0, 0, 0]]
        for sq in range(1, self.n + 1):
            r, col = self.pos[sq]
            self.neighbour.append([at.get((r + dr, col + dc), 0) for dr, dc in STEP])
        self.in_region: dict[str, list[int]] = {}
        for sq in range(1, self.n + 1):
            self.in_region.setdefault(self.region[sq], []).append(sq)
        self.n_pieces = plan.n_pieces if plan is not None else 0
        self._base: int | None = None   # first pile id of the squares' piles (known once piles are declared)
        self._masks: list[int] | None = None  # per card: track sides unturned, as a bit mask

    @property
    def places(self) -> int:
        return self.n

    # ---- checked before play --------------------------------------------------------------

    def check(self, symbols: Any, report: Report) -> None:
        """E151: the tiles lie in the pile named by `pile`, which must be declared `of:` this
        board (one pile per square). `symbols.piles` maps each declared pile to its owner (None
        when the owner is wrong, which is reported there)."""
        pile = self.decl.pile
        owner = symbols.piles.get(str(pile))
        if str(pile) not in symbols.piles or (owner is not None and owner.board != self.name):
            report.add("E151", f"board `{self.name}` keeps its tiles in pile `{pile}`, which is not "
                               f"a pile declared `of: {self.name}`", getattr(pile, "loc", None),
                       f"declare `{pile}: {{of: {self.name}}}` under `piles:`")

    # ---- run-time data ------------------------------------------------------------------

    def init(self, st: Table) -> list[list[int]]:
        self.base()
        self.masks()
        return [[0] * (self.n + 1), [0] * self.n_pieces]

    def clone(self, data: list[list[int]]) -> list[list[int]]:
        return [data[0][:], data[1][:]]


    def where_of(self, data: list[list[int]], pc: int) -> int | None:
        return data[1][pc] or None

    def positions(self, st: Table) -> list[tuple[str, str]]:
        names = self.plan.piece_names
        where = st.bd[self.index][1]
        return [(names[pc], f"square {self.labels[sq]}")
                for pc, sq in sorted(enumerate(where), key=lambda x: x[1]) if sq]

    # ---- tiles ------------------------------------------------------------------------------

    def base(self) -> int:
        """The first pile id of the squares' piles; -1 if the declared pile does not fit (the
        checker reports that as E151, `check`; the board then shows no tiles rather than failing)."""
        if self._base is None:
            plan = self.plan
            base = plan.pile_base.get(self.decl.pile, -1)
            if base >= 0 and (plan.pile_board[base] != self.name
                              or base + self.n > plan.n_piles):
                base = -1
            self._base = base
        return self._base

    def masks(self) -> list[int]:
        if self._masks is None:
            values = self.plan.card_props.get(self.decl.track, [])
            self._masks = [_mask(v) for v in values]
        return self._masks

    # the square's tile (a card), or None; `Any`: `view` reads it where it knows there is one
    def card(self, st: Table, sq: int) -> Any:
        base = self._base if self._base is not None else self.base()
        if not 1 <= sq <= self.n or base < 0:
            return None
        pile = st.piles[base + sq - 1]
        return pile[-1] if pile else None

    def face_up(self, st: Table, sq: int) -> bool:
        c = self.card(st, sq)
        return c is not None and st.up[c]

    def mask(self, st: Table, sq: int, turn: int | None = None) -> int:
        c = self.card(st, sq)
        if c is None:
            return 0
        masks = self._masks if self._masks is not None else self.masks()
        m = masks[c] if c < len(masks) else 0
        t = (st.bd[self.index][0][sq] if turn is None else turn) % 4
        return ((m << t) | (m >> (4 - t))) & 15

    def sides(self, st: Table, sq: int, turn: int | None = None) -> list[str]:
        m = self.mask(st, sq, turn)
        return [SIDES[i] for i in range(4) if m >> i & 1]

    def turns(self, st: Table, sq: int) -> list[int]:
        """Quarter turns 0..3 that give different track (a straight has two, a crossing one)."""
        seen, out = set(), []
        for t in range(4):
            m = self.mask(st, sq, t)
            if m not in seen:
                seen.add(m)
                out.append(t)
        return out

    def side(self, a: int, b: int) -> int:
        """The side of a that faces b (-1 if they share no side)."""
        if 1 <= a <= self.n:
            nb = self.neighbour[a]
            for i in range(4):
                if nb[i] == b and b:
                    return i
        return -1

    def connected(self, st: Table, a: int, b: int) -> bool:
        i = self.side(a, b)
        if i < 0:
            return False
        return bool(self.mask(st, a) >> i & 1) and bool(self.mask(st, b) >> ((i + 2) % 4) & 1)

    def pieces_on(self, st: Table, sq: int) -> list[int]:
        return [pc for pc, s in enumerate(st.bd[self.index][1]) if s == sq and sq]

    def redeal_hidden(self, st: Table, seat: int, rng: random.Random) -> None:
        """Shuffle the face-down tiles among their squares: what a seat may believe they are."""
        base = self.base()
        if base < 0:
            return
        piles = [base + sq - 1 for sq in range(1, self.n + 1)]
        down = [p for p in piles if st.piles[p] and not st.up[st.piles[p][-1]]]
        cards = sorted(st.piles[p][-1] for p in down)  # the same belief whatever the truth
        rng.shuffle(cards)
        for p, c in zip(down, cards):
            st.put_top(p, c)

    # ---- what a seat sees ---------------------------------------------------------------------

    def view(self, st: Table, seat: int | None) -> dict:
        """The grid as data. Each square by label, in square order: its region, whether it holds
        a tile (`laid`) and shows it (`face_up`), the tile's type and track sides (`track`, and
        `mask`: bit 1 N, 2 E, 4 S, 8 W) only when face up, its 1-based `row` and `col`, and the
        pieces on it (owners are in the seat's view of the pieces)."""
        plan = self.plan
        names = plan.piece_names
        squares = {}
        for sq in range(1, self.n + 1):
            c = self.card(st, sq)
            up = c is not None and st.up[c]
            r, col = self.pos[sq]
            squares[self.labels[sq]] = {
                "region": self.region[sq],
                "face_up": up,
                "tile": plan.card_types[plan.card_type[c]] if up else None,
                "name": plan.card_names[plan.card_type[c]] if up else None,
                "track": self.sides(st, sq) if up else None,
                "pieces": [names[pc] for pc in self.pieces_on(st, sq)],
                "row": r + 1,
                "col": col + 1,
                "laid": c is not None,
                "mask": self.mask(st, sq) if up else None,
            }
        return {"kind": self.kind, "rows": self.rows, "cols": self.cols, "squares": squares,
                "pieces": [{"piece": p, "where": w} for p, w in self.positions(st)]}


def _mask(value: Any) -> int:
    m = 0
    if isinstance(value, str):
        for ch in value.upper():
            if ch in SIDES:
                m |= 1 << SIDES.index(ch)
    return m


# ---- built-ins ----------------------------------------------------------------------------
# Each takes the board first (`on_board`): its body is fn(kind, st, board, *the other arguments).

def _tiles(name: str, params: list[tuple[Spec, str]], returns: Spec | None, doc: str = "",
           pure: bool = False) -> Callable[[Callable[..., Any]], Builtin]:
    """A built-in of a tile grid; `pure`: it reads only the layout."""
    return on_board(Tiles, name, params, returns, doc, pure=pure)


# A square argument may be none or not a square (a rule error, said by `_sq`): the built-ins that go
# on reading it after `_sq` take it as `Any`.
def _sq(kind: Tiles, sq: int | None) -> int:
    if sq is None or not 1 <= sq <= kind.n:
        raise RuleError(f"board `{kind.name}` has squares 1..{kind.n}, not {sq!r}")
    return sq


@_tiles("tile_prop", [(INT, "the square of `tile_prop`"), (TEXT, "the property of `tile_prop`"),
                     ("T:plain", "the value of `tile_prop` where the square has none")], "T",
        "a property of the square (`square_props` of the board), or the default given where it has none",
        pure=True)
def _prop(kind: Tiles, st: Fixed, _board: int, sq: int | None, name: str, default: Any) -> Any:
    sq = _sq(kind, sq)
    return prop_value(kind.props[sq], name, default, f"square {kind.labels[sq]} of `{kind.name}`")


@_tiles("tile_square", [(TEXT, "the label of `tile_square` (`B3`)")], INT,
        "the square with this label (column letter, row number); an error for an unknown label", pure=True)
def _square(kind: Tiles, st: Fixed, _board: int, label: str) -> int:
    sq = kind.by_label.get(str(label).upper())
    if sq is None:
        raise RuleError(f"board `{kind.name}` has no square `{label}`")
    return sq


@_tiles("tile_squares", [(TEXT, "the region of `tile_squares`")], listof(INT),
        "the squares of a region, in square order", pure=True)
def _squares(kind: Tiles, st: Fixed, _board: int, region: str) -> list[int]:
    if region not in kind.in_region:
        raise RuleError(f"board `{kind.name}` has no region `{region}` (regions: "
                        f"{', '.join(kind.in_region)})")
    return kind.in_region[region][:]


@_tiles("tile_label", [(INT, "the square of `tile_label`")], TEXT, "the square's label (`B3`)", pure=True)
def _label_of(kind: Tiles, st: Fixed, _board: int, sq: int | None) -> str:
    return kind.labels[_sq(kind, sq)]


@_tiles("tile_region", [(INT, "the square of `tile_region`")], TEXT, "the name of the square's region",
        pure=True)
def _region(kind: Tiles, st: Fixed, _board: int, sq: Any) -> str:
    if sq is None or not 1 <= sq <= kind.n:
        _sq(kind, sq)
    return kind.region[sq]


@_tiles("tile_neighbours", [(INT, "the square of `tile_neighbours`")], listof(INT),
        "the squares sharing a side with it, in the order N, E, S, W", pure=True)
def _neighbours(kind: Tiles, st: Fixed, _board: int, sq: int | None) -> list[int]:
    return [nb for nb in kind.neighbour[_sq(kind, sq)] if nb]


@_tiles("tile_neighbour", [(INT, "the square of `tile_neighbour`"),
                           (TEXT, "the side of `tile_neighbour` (N, E, S or W)")], INT,
        "the square across that side, or 0 when there is none", pure=True)
def _neighbour(kind: Tiles, st: Fixed, _board: int, sq: Any, side: str) -> int:
    _sq(kind, sq)
    s = str(side).upper()
    if len(s) != 1 or s not in SIDES:
        raise RuleError(f"`{side}` is not a side: sides are N, E, S, W")
    return kind.neighbour[sq][SIDES.index(s)]


@_tiles("tile_side", [(INT, "the square of `tile_side`"), (INT, "the other square of `tile_side`")], TEXT,
        "the side of the first square that faces the second (N, E, S or W), or \"\" when they share none",
        pure=True)
def _side(kind: Tiles, st: Fixed, _board: int, a: Any, b: Any) -> str:
    _sq(kind, a)
    i = kind.side(a, b)
    return SIDES[i] if i >= 0 else ""


@_tiles("tile_distance", [(INT, "the square of `tile_distance`"),
                          (INT, "the other square of `tile_distance`")], INT,
        "how many steps apart the squares are, across and down (whatever lies between)", pure=True)
def _distance(kind: Tiles, st: Fixed, _board: int, a: Any, b: Any) -> int:
    _sq(kind, a)
    _sq(kind, b)
    (r1, c1), (r2, c2) = kind.pos[a], kind.pos[b]
    return abs(r1 - r2) + abs(c1 - c2)


@_tiles("tile_sides", [(INT, "the square of `tile_sides`")], listof(TEXT),
        "the sides its tile carries track on, as it lies (turned), in the order N, E, S, W")
def _sides(kind: Tiles, st: Table, _board: int, sq: int | None) -> list[str]:
    return kind.sides(st, _sq(kind, sq))


@_tiles("tile_sides_turned", [(INT, "the square of `tile_sides_turned`"),
                              (INT, "the quarter turns of `tile_sides_turned`")], listof(TEXT),
        "the sides its tile would carry track on, turned that many quarter turns clockwise")
def _sides_turned(kind: Tiles, st: Table, _board: int, sq: Any, turn: int) -> list[str]:
    _sq(kind, sq)
    return kind.sides(st, sq, turn)


@_tiles("tile_turns", [(INT, "the square of `tile_turns`")], listof(INT),
        "the quarter turns 0..3 that give its tile different track (a straight has two)")
def _turns(kind: Tiles, st: Table, _board: int, sq: int | None) -> list[int]:
    return kind.turns(st, _sq(kind, sq))


@_tiles("tile_shape", [(INT, "the square of `tile_shape`"), (INT, "the quarter turns of `tile_shape`")], TEXT,
        "its tile's track turned so, as text (`N-S`), or \"no track\"")
def _shape(kind: Tiles, st: Table, _board: int, sq: Any, turn: int) -> str:
    _sq(kind, sq)
    return "-".join(kind.sides(st, sq, turn)) or "no track"


@_tiles("tile_glyph", [(INT, "the square of `tile_glyph`"), (INT, "the quarter turns of `tile_glyph`")], TEXT,
        "its tile's track turned so, as one box-drawing character (`│`)")
def _glyph(kind: Tiles, st: Table, _board: int, sq: int | None, turn: int) -> str:
    return GLYPH[kind.mask(st, _sq(kind, sq), turn)]


@_tiles("tile_turn", [(INT, "the square of `tile_turn`")], INT,
        "how many quarter turns its tile lies turned, 0..3")
def _turn(kind: Tiles, st: Table, _board: int, sq: int | None) -> int:
    return st.bd[kind.index][0][_sq(kind, sq)]


@_tiles("tile_face_up", [(INT, "the square of `tile_face_up`")], BOOL, "whether its tile lies face up")
# kind: `Any`, as it reads `_base` as a number (`init` has set it: never None while playing)
def _face_up(kind: Any, st: Table, _board: int, sq: Any) -> bool:
    if sq is None or not 1 <= sq <= kind.n:
        _sq(kind, sq)
    if kind._base < 0:
        return False
    pile = st.piles[kind._base + sq - 1]
    return bool(pile) and st.up[pile[-1]]


@_tiles("tile_card", [(INT, "the square of `tile_card`")], CARD,
        "its tile (the top card of its pile), or none")
def _card(kind: Tiles, st: Table, _board: int, sq: int | None) -> int | None:
    return kind.card(st, _sq(kind, sq))


@_tiles("tile_connected", [(INT, "the square of `tile_connected`"),
                           (INT, "the other square of `tile_connected`")], BOOL,
        "whether the squares share a side and both carry track on it")
def _connected(kind: Tiles, st: Table, _board: int, a: int | None, b: Any) -> bool:
    return kind.connected(st, _sq(kind, a), b)


@_tiles("tile_pieces", [(INT, "the square of `tile_pieces`")], listof(PIECE), "the pieces on the square")
def _pieces(kind: Tiles, st: Table, _board: int, sq: int | None) -> list[int]:
    if sq is None or not 1 <= sq <= kind.n:
        _sq(kind, sq)
    return [pc for pc, s in enumerate(st.bd[kind.index][1]) if s == sq]


@_tiles("tile_square_of", [(PIECE, "the piece of `tile_square_of`")], INT,
        "the square the piece stands on, or 0 when it is off the board")
def _square_of(kind: Tiles, st: Table, _board: int, pc: int | None) -> int:
    if pc is None:
        raise RuleError("a piece was expected, not none")
    return st.bd[kind.index][1][pc]


# ---- effects -------------------------------------------------------------------------------

@_tiles("tile_put", [(PIECE, "the piece `tile_put` moves"),
                     (INT, "the square `tile_put` puts it on (0: off the board)")], None,
        "the piece stands on the square (0: off the board)")
def _put(kind: Tiles, st: Table, _board: int, pc: int | None, sq: int | None) -> None:
    if pc is None:
        raise RuleError("a piece was expected, not none")
    if sq != 0:
        _sq(kind, sq)
    st.bd[kind.index][1][pc] = sq


@_tiles("tile_turn_to", [(INT, "the square of `tile_turn_to`"), (INT, "the quarter turns of `tile_turn_to`")],
        None, "its tile lies turned that many quarter turns clockwise (counted from unturned)")
def _turn_to(kind: Tiles, st: Table, _board: int, sq: int | None, turn: int) -> None:
    _sq(kind, sq)
    st.bd[kind.index][0][sq] = turn % 4


@_tiles("tile_flip", [(INT, "the square of `tile_flip`"),
                      (BOOL, "whether `tile_flip` lays the tile face up")], None,
        "its tile lies face up (true) or face down (false)")
def _flip(kind: Tiles, st: Table, _board: int, sq: Any, up: bool) -> None:
    _sq(kind, sq)
    c = kind.card(st, sq)
    if c is None:
        raise RuleError(f"square {kind.labels[sq]} of `{kind.name}` holds no tile")
    st.turn(c, bool(up))


@_tiles("tile_swap", [(INT, "the first square `tile_swap` exchanges"),
                      (INT, "the second square `tile_swap` exchanges")], None,
        "the two squares exchange their tiles (cards, faces and turns); pieces stay where they are")
def _swap(kind: Tiles, st: Table, _board: int, a: Any, b: Any) -> None:
    _sq(kind, a)
    _sq(kind, b)
    if a == b:
        raise RuleError(f"cannot swap square {kind.labels[a]} with itself")
    base = kind.base()
    if base < 0:
        raise RuleError(f"board `{kind.name}` has no pile of tiles to swap")
    pa, pb = base + a - 1, base + b - 1
    st.swap_piles(pa, pb)
    turns = st.bd[kind.index][0]
    turns[a], turns[b] = turns[b], turns[a]


heard_by_change(Tiles, _put)
Tiles.builtins = [_card, _connected, _distance, _face_up, _glyph, _label_of, _neighbour, _neighbours,
                  _pieces, _prop, _region, _shape, _side, _sides, _sides_turned, _square, _square_of,
                  _squares, _turn, _turns, _flip, _put, _swap, _turn_to]
