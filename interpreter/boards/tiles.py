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
"""
from __future__ import annotations

import html
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..lang.errors import RuleError
from ..engine.types import BOARD, BOOL, CARD, INT, PIECE, TEXT, listof
from ..engine.args import _arity, _want
from .base import BoardKind, register

SIDES = "NESW"
STEP = ((-1, 0), (0, 1), (1, 0), (0, -1))  # row, column change towards N, E, S, W
# box-drawing characters by the sides a tile carries track on (bit 1 N, 2 E, 4 S, 8 W)
GLYPH = {0: "·", 1: "╵", 2: "╶", 4: "╷", 8: "╴", 5: "│", 10: "─", 3: "└", 6: "┌", 12: "┐",
         9: "┘", 7: "├", 14: "┬", 13: "┤", 11: "┴", 15: "┼"}
_NAME = r"^[A-Za-z_][A-Za-z0-9_]*$"


class TilesModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, title="TileGridBoard")
    kind: Literal["tiles"] = Field(description="tiles: a grid of square tiles, face up or down, turned and swapped")
    layout: list[str] = Field(min_length=1, max_length=26,
                              description="the grid, one string per row, one character per position: "
                                          "`.` or a space for no square, otherwise the region's character")
    regions: dict[str, str] = Field(description="what each layout character means: character -> region name")
    pile: str = Field(pattern=_NAME, description="the pile, declared `of:` this board, whose top card is "
                                                 "each square's tile")
    track: str = Field(pattern=_NAME, description="the card property listing the sides with track, "
                                                  "unturned, as letters of NESW (e.g. \"NE\")")

    @model_validator(mode="after")
    def _fits(self):
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
        return self


def _label(row: int, col: int) -> str:
    return f"{chr(ord('A') + col)}{row + 1}"


@register
class Tiles(BoardKind):
    kind = "tiles"
    Model = TilesModel

    def __init__(self, name, index, decl, plan):
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
        self._base = None   # first pile id of the squares' piles (known once piles are declared)
        self._masks = None  # per card: track sides unturned, as a bit mask

    @property
    def places(self) -> int:
        return self.n

    # ---- run-time data ------------------------------------------------------------------

    def init(self, st):
        self.base()
        self.masks()
        return [[0] * (self.n + 1), [0] * self.n_pieces]

    def clone(self, data):
        return [data[0][:], data[1][:]]

    # ---- tiles ------------------------------------------------------------------------------

    def base(self) -> int:
        """The first pile id of the squares' piles; -1 if the declared pile does not fit (the
        compiler reports that as E151; the board then shows no tiles rather than failing)."""
        if self._base is None:
            plan = self.plan
            base = plan.pile_base.get(self.decl.pile, -1)
            if base >= 0 and (plan.pile_scope[base] != self.name
                              or base + self.n > plan.n_piles):
                base = -1
            self._base = base
        return self._base

    def masks(self) -> list:
        if self._masks is None:
            values = self.plan.card_props.get(self.decl.track, [])
            self._masks = [_mask(v) for v in values]
        return self._masks

    def card(self, st, sq: int):
        if not 1 <= sq <= self.n or self._base < 0:
            return None
        pile = st.piles[self._base + sq - 1]
        return pile[-1] if pile else None

    def face_up(self, st, sq: int) -> bool:
        c = self.card(st, sq)
        return c is not None and st.up[c]

    def mask(self, st, sq: int, turn: int | None = None) -> int:
        c = self.card(st, sq)
        if c is None:
            return 0
        masks = self._masks
        m = masks[c] if c < len(masks) else 0
        t = (st.bd[self.index][0][sq] if turn is None else turn) % 4
        return ((m << t) | (m >> (4 - t))) & 15

    def sides(self, st, sq: int, turn: int | None = None) -> list[str]:
        m = self.mask(st, sq, turn)
        return [SIDES[i] for i in range(4) if m >> i & 1]

    def turns(self, st, sq: int) -> list[int]:
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

    def connected(self, st, a: int, b: int) -> bool:
        i = self.side(a, b)
        if i < 0:
            return False
        return bool(self.mask(st, a) >> i & 1) and bool(self.mask(st, b) >> ((i + 2) % 4) & 1)

    def pieces_on(self, st, sq: int) -> list[int]:
        return [pc for pc, s in enumerate(st.bd[self.index][1]) if s == sq and sq]

    def check(self, sq, loc):
        if sq is None or not 1 <= sq <= self.n:
            raise RuleError(f"board `{self.name}` has squares 1..{self.n}, not {sq!r}", loc)
        return sq

    def redeal_hidden(self, st, seat, rng) -> None:
        """Shuffle the face-down tiles among their squares: what a seat may believe they are."""
        if self.base() < 0:
            return
        piles = [self._base + sq - 1 for sq in range(1, self.n + 1)]
        down = [p for p in piles if st.piles[p] and not st.up[st.piles[p][-1]]]
        cards = sorted(st.piles[p][-1] for p in down)  # the same belief whatever the truth
        rng.shuffle(cards)
        for p, c in zip(down, cards):
            st.put_top(p, c)

    # ---- what a seat sees ---------------------------------------------------------------------

    def view(self, st, seat):
        data = st.bd[self.index]
        plan = self.plan
        names = plan.piece_names
        owners = st.values("owner")
        squares = {}
        for sq in range(1, self.n + 1):
            c = self.card(st, sq)
            up = c is not None and st.up[c]
            squares[self.labels[sq]] = {
                "region": self.region[sq],
                "face_up": up,
                "tile": plan.card_types[plan.card_type[c]] if up else None,
                "track": self.sides(st, sq) if up else None,
                "pieces": [names[pc] for pc in self.pieces_on(st, sq)],
            }
        return {"squares": squares, "lines": self._picture(st, seat, data, owners)}

    def _mark(self, pc, owners) -> str:
        who = owners[pc] if pc < len(owners) else None
        if who is not None and who < 9:
            return str(who + 1)
        return self.plan.piece_names[pc][:1].upper() or "?"

    def _picture(self, st, seat, data, owners) -> list[str]:
        """The grid as text: each square 5 characters wide and 3 high; face-down squares shaded."""
        plan = self.plan
        out = ["     " + "".join(f"  {chr(ord('A') + c)}  " for c in range(self.cols))]
        at = {p: i for i, p in enumerate(self.pos) if i}
        for r in range(self.rows):
            lines = ["     ", f" {r + 1:>2}  ", "     "]
            for col in range(self.cols):
                sq = at.get((r, col))
                if sq is None:
                    cell = ["     "] * 3
                elif self.card(st, sq) is None:
                    cell = ["     ", "  ·  ", "     "]
                elif not self.face_up(st, sq):
                    cell = [" ░░░ ", " ░░░ ", " ░░░ "]
                else:
                    m = self.mask(st, sq)
                    here = self.pieces_on(st, sq)
                    centre = GLYPH[m] if not here else (self._mark(here[0], owners) if len(here) == 1 else "*")
                    cell = ["  │  " if m & 1 else "     ",
                            ("──" if m & 8 else "  ") + centre + ("──" if m & 2 else "  "),
                            "  │  " if m & 4 else "     "]
                for i in range(3):
                    lines[i] += cell[i]
            out.extend(line.rstrip() for line in lines)
        counts: dict[str, int] = {}
        for sq in range(1, self.n + 1):
            counts[self.region[sq]] = counts.get(self.region[sq], 0) + 1
        common = max(counts, key=counts.get)
        notes = []
        for sq in range(1, self.n + 1):
            c = self.card(st, sq)
            if c is None or not st.up[c]:
                continue
            here = self.pieces_on(st, sq)
            if self.region[sq] == common and not here:
                continue
            what = f"{self.labels[sq]} {plan.card_types[plan.card_type[c]]}"
            if self.region[sq] != common:
                what += f" ({self.region[sq]})"
            if here:
                cars = []
                for pc in here:
                    who = owners[pc] if pc < len(owners) else None
                    tag = "" if who is None else (" you" if seat is not None and who == seat else f" seat {who + 1}")
                    cars.append(f"{plan.piece_names[pc]}{tag}")
                what += ": " + ", ".join(cars)
            notes.append(what)
        line = ""
        for note in notes:  # wrapped for the terminal
            if line and len(line) + len(note) > 90:
                out.append(line.rstrip("; "))
                line = ""
            line += ("  " if not line else "") + note + "; "
        if line:
            out.append(line.rstrip("; "))
        out.append("  key: ░░░ face down, lines are track, a number is a car by its seat, * several cars")
        return out

    def svg(self) -> str:
        s = 56
        w, h = self.cols * s + 40, self.rows * s + 40
        colours = ["#f4f1e8", "#dde8f4", "#f4dddd", "#e0f0dc", "#efe2f5", "#f5eccf"]
        names = list(dict.fromkeys(self.region[1:]))
        parts = []
        for sq in range(1, self.n + 1):
            r, c = self.pos[sq]
            fill = colours[names.index(self.region[sq]) % len(colours)]
            x, y = 20 + c * s, 20 + r * s
            parts.append(f'<rect x="{x}" y="{y}" width="{s - 4}" height="{s - 4}" fill="{fill}" stroke="#333"/>'
                         f'<text x="{x + (s - 4) / 2}" y="{y + 22}" font-size="14" text-anchor="middle">'
                         f'{self.labels[sq]}</text>'
                         f'<text x="{x + (s - 4) / 2}" y="{y + 40}" font-size="9" text-anchor="middle">'
                         f'{html.escape(self.region[sq])}</text>')
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
                f'viewBox="0 0 {w} {h}">{"".join(parts)}</svg>\n')


def _mask(value) -> int:
    m = 0
    if isinstance(value, str):
        for ch in value.upper():
            if ch in SIDES:
                m |= 1 << SIDES.index(ch)
    return m


# ---- built-ins ----------------------------------------------------------------------------

def _tiles_board(c, tree, sc, what):
    """(source of the kind object, source of the board index) for a tile-grid argument."""
    src = _want(c, tree, sc, BOARD, what)
    loc = c.loc(tree)
    plan = c.plan
    for k in plan.board_kinds:
        if isinstance(k, Tiles) and not getattr(k, "_checked", False):
            k._checked = True
            piles = c.g.piles
            if k.decl.pile not in piles or str(piles[k.decl.pile].of) != k.name:
                c.error("E151", f"board `{k.name}` keeps its tiles in pile `{k.decl.pile}`, which is not "
                                f"a pile declared `of: {k.name}`", tree,
                        f"declare `{k.decl.pile}: {{of: {k.name}}}` under `piles:`")

    if src.isdigit():  # the board named directly: known now
        k = plan.board_kinds[int(src)]
        if not isinstance(k, Tiles):
            c.type_error(f"{what}: board `{plan.board_names[int(src)]}` is a {k.kind} board, not a tile grid", tree)
        return c.k(k), src

    def kind_of(b):
        k = plan.board_kinds[b]
        if not isinstance(k, Tiles):
            raise RuleError(f"board `{plan.board_names[b]}` is not a tile grid", loc)
        return k
    return f"{c.k(kind_of)}({src})", src


def _fn(name, params, typ, body):
    """A built-in of a tile grid: `params` are the types after the board; `body(kind, st, loc, *args)`."""
    def build(c, args, node, sc):
        if not _arity(c, name, args, node, 1 + len(params)):
            return "None", typ
        k, _b = _tiles_board(c, args[0], sc, f"the first argument of `{name}` (a tile grid)")
        srcs = [_want(c, a, sc, t, f"argument {i + 2} of `{name}`") for i, (a, t) in enumerate(zip(args[1:], params))]
        loc = c.loc(node)
        return f"{c.k(body)}({k}, st, {c.k(loc)}{''.join(', ' + s for s in srcs)})", typ
    return build


def _sq(kind, sq, loc):
    if sq is None or not 1 <= sq <= kind.n:
        raise RuleError(f"board `{kind.name}` has squares 1..{kind.n}, not {sq!r}", loc)
    return sq


def _square(kind, st, loc, label):
    sq = kind.by_label.get(str(label).upper())
    if sq is None:
        raise RuleError(f"board `{kind.name}` has no square `{label}`", loc)
    return sq


def _squares(kind, st, loc, region):
    if region not in kind.in_region:
        raise RuleError(f"board `{kind.name}` has no region `{region}` (regions: "
                        f"{', '.join(kind.in_region)})", loc)
    return kind.in_region[region][:]


def _neighbour(kind, st, loc, sq, side):
    _sq(kind, sq, loc)
    s = str(side).upper()
    if len(s) != 1 or s not in SIDES:
        raise RuleError(f"`{side}` is not a side: sides are N, E, S, W", loc)
    return kind.neighbour[sq][SIDES.index(s)]


def _side(kind, st, loc, a, b):
    _sq(kind, a, loc)
    i = kind.side(a, b)
    return SIDES[i] if i >= 0 else ""


def _sides_turned(kind, st, loc, sq, turn):
    _sq(kind, sq, loc)
    return kind.sides(st, sq, turn)


def _shape(kind, st, loc, sq, turn):
    _sq(kind, sq, loc)
    return "-".join(kind.sides(st, sq, turn)) or "no track"


def _square_of(kind, st, loc, pc):
    if pc is None:
        raise RuleError("a piece was expected, not none", loc)
    return st.bd[kind.index][1][pc]


def _distance(kind, st, loc, a, b):
    _sq(kind, a, loc)
    _sq(kind, b, loc)
    (r1, c1), (r2, c2) = kind.pos[a], kind.pos[b]
    return abs(r1 - r2) + abs(c1 - c2)


def _bad_square(kind, sq, loc):
    raise RuleError(f"board `{kind.name}` has squares 1..{kind.n}, not {sq!r}", loc)


# the most used built-ins, written out (each is called a few hundred times a turn)
def _face_up(kind, st, loc, sq):
    if sq is None or not 1 <= sq <= kind.n:
        _bad_square(kind, sq, loc)
    if kind._base < 0:
        return False
    pile = st.piles[kind._base + sq - 1]
    return bool(pile) and st.up[pile[-1]]


def _region(kind, st, loc, sq):
    if sq is None or not 1 <= sq <= kind.n:
        _bad_square(kind, sq, loc)
    return kind.region[sq]


def _pieces(kind, st, loc, sq):
    if sq is None or not 1 <= sq <= kind.n:
        _bad_square(kind, sq, loc)
    return [pc for pc, s in enumerate(st.bd[kind.index][1]) if s == sq]


Tiles.functions = {
    "tile_square": _fn("tile_square", [TEXT], INT, _square),
    "tile_squares": _fn("tile_squares", [TEXT], listof(INT), _squares),
    "tile_label": _fn("tile_label", [INT], TEXT, lambda k, st, loc, sq: k.labels[_sq(k, sq, loc)]),
    "tile_region": _fn("tile_region", [INT], TEXT, _region),
    "tile_neighbours": _fn("tile_neighbours", [INT], listof(INT),
                           lambda k, st, loc, sq: [n for n in k.neighbour[_sq(k, sq, loc)] if n]),
    "tile_neighbour": _fn("tile_neighbour", [INT, TEXT], INT, _neighbour),
    "tile_side": _fn("tile_side", [INT, INT], TEXT, _side),
    "tile_sides": _fn("tile_sides", [INT], listof(TEXT), lambda k, st, loc, sq: k.sides(st, _sq(k, sq, loc))),
    "tile_sides_turned": _fn("tile_sides_turned", [INT, INT], listof(TEXT), _sides_turned),
    "tile_turns": _fn("tile_turns", [INT], listof(INT), lambda k, st, loc, sq: k.turns(st, _sq(k, sq, loc))),
    "tile_shape": _fn("tile_shape", [INT, INT], TEXT, _shape),
    "tile_glyph": _fn("tile_glyph", [INT, INT], TEXT,
                      lambda k, st, loc, sq, t: GLYPH[k.mask(st, _sq(k, sq, loc), t)]),
    "tile_turn": _fn("tile_turn", [INT], INT, lambda k, st, loc, sq: st.bd[k.index][0][_sq(k, sq, loc)]),
    "tile_face_up": _fn("tile_face_up", [INT], BOOL, _face_up),
    "tile_card": _fn("tile_card", [INT], CARD, lambda k, st, loc, sq: k.card(st, _sq(k, sq, loc))),
    "tile_connected": _fn("tile_connected", [INT, INT], BOOL,
                          lambda k, st, loc, a, b: k.connected(st, _sq(k, a, loc), b)),
    "tile_pieces": _fn("tile_pieces", [INT], listof(PIECE), _pieces),
    "tile_square_of": _fn("tile_square_of", [PIECE], INT, _square_of),
    "tile_distance": _fn("tile_distance", [INT, INT], INT, _distance),
}


# ---- effects -------------------------------------------------------------------------------

def _effect(name, params, body):
    """An effect on a tile grid: `body(kind, st, loc, *args)`."""
    def build(c, args, node, sc):
        if not _arity(c, name, args, node, 1 + len(params)):
            return None
        _tiles_board(c, args[0], sc, f"the first argument of `{name}` (a tile grid)")
        board = c.want(args[0], sc, BOARD, f"the first argument of `{name}`")
        fns = [c.want(a, sc, t, f"argument {i + 2} of `{name}`") for i, (a, t) in enumerate(zip(args[1:], params))]
        loc = c.loc(node)
        plan = c.plan

        def effect(st, env):
            b = board(st, env)
            kind = plan.board_kinds[b]
            if not isinstance(kind, Tiles):
                raise RuleError(f"board `{plan.board_names[b]}` is not a tile grid", loc)
            body(kind, st, loc, *[f(st, env) for f in fns])
        return effect
    return build


def _put(kind, st, loc, pc, sq):
    """tile_put(board, piece, square): the piece stands on the square (0: off the board)."""
    if pc is None:
        raise RuleError("a piece was expected, not none", loc)
    if sq != 0:
        kind.check(sq, loc)
    st.bd[kind.index][1][pc] = sq


def _turn_to(kind, st, loc, sq, turn):
    kind.check(sq, loc)
    st.bd[kind.index][0][sq] = turn % 4


def _flip(kind, st, loc, sq, up):
    kind.check(sq, loc)
    c = kind.card(st, sq)
    if c is None:
        raise RuleError(f"square {kind.labels[sq]} of `{kind.name}` holds no tile", loc)
    st.turn(c, bool(up))


def _swap(kind, st, loc, a, b):
    """Exchange the tiles (cards, faces and turns) of two squares; pieces stay where they are."""
    kind.check(a, loc)
    kind.check(b, loc)
    if a == b:
        raise RuleError(f"cannot swap square {kind.labels[a]} with itself", loc)
    base = kind.base()
    if base < 0:
        raise RuleError(f"board `{kind.name}` has no pile of tiles to swap", loc)
    pa, pb = base + a - 1, base + b - 1
    st.swap_piles(pa, pb)
    turns = st.bd[kind.index][0]
    turns[a], turns[b] = turns[b], turns[a]


Tiles.effects = {
    "tile_put": _effect("tile_put", [PIECE, INT], _put),
    "tile_turn_to": _effect("tile_turn_to", [INT, INT], _turn_to),
    "tile_flip": _effect("tile_flip", [INT, BOOL], _flip),
    "tile_swap": _effect("tile_swap", [INT, INT], _swap),
}
