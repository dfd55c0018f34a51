"""The lane track's built-ins: the functions the rules read it with and the effects that move
pieces on it, each declared as the core ones are (`library/api.py`), for games with a lane track.

Functions of a piece find the track it stands on (`of_piece`: in a game with one track, found
when compiling); functions of a board take the board first (`on_board`: a board named in the
rule is found when compiling). What reads only the track's printed data is `pure`: computed
once when compiling for a board named in the rule. The effects that move (`advance`,
`drop_back`) follow the game's move rules where it has some, and say what happened to a game
that waits for the board's events.

It reads the class `Lanes` (`track.py`: its geometry and moves); it gives `BUILTINS`, which
`kind.py` hands to the kind.
"""
from __future__ import annotations

from typing import Any, Callable

from ...base.errors import RuleError
from ...lang.types import BOOL, INT, PIECE, TEXT, listof
from ...library.api import Builtin, Fixed, Param, PlanView, Read, Spec, Table
from ..base import (BLOCKED, ENTERED, MOVED, PASSED, heard_by_change, in_space, kind_at, of_piece, on_board,
                    prop_value)
from .track import Data, Lanes


def _lanes(plan: PlanView) -> list[tuple[int, Lanes]]:
    return [(i, k) for i, k in enumerate(plan.board_kinds) if isinstance(k, Lanes)]


def _piece_fn(name: str, typ: Spec, doc: str, compute: Callable[[Lanes, Data, int], Any]) -> Builtin:
    """A function of one piece on a lane track: compute(kind, data, piece)."""
    return of_piece(Lanes, name, [], typ, doc)(compute)


_progress = _piece_fn("progress", INT,
                      "spaces covered since the start/finish line (negative on a grid before it)",
                      lambda k, data, p: data[0][p])


def _progress_bind(plan: PlanView, consts: list[Any]) -> Read | None:
    boards = _lanes(plan)
    # in a game with one track, a read of the piece's progress (None: off the track, an error)
    return Read(boards[0][0], 0, None) if len(boards) == 1 else None


_progress.bind = _progress_bind
_space_of = _piece_fn("space_of", INT, "the space it stands on, 0..spaces-1",
                      lambda k, data, p: data[0][p] % k.L)
_spot_of = _piece_fn("spot_of", INT, "the spot it stands on, 1..spots", lambda k, data, p: data[1][p])
_lap_of = _piece_fn("lap_of", INT, "the lap it is on, from 1 (0 on a grid before the line)",
                    lambda k, data, p: data[0][p] // k.L + 1)
_on_race_line = _piece_fn("on_race_line", BOOL, "true if it stands on the race line spot of its space",
                          lambda k, data, p: k.race[data[0][p] % k.L] == data[1][p])


def _on_track_run(st: Table, p: int | None) -> bool:
    if p is None:
        return False
    return any(st.bd[i][0][p] is not None for i, _k in _lanes(st.plan))


def _on_track_bind(plan: PlanView, consts: list[Any]) -> Callable[[Table, int | None], bool] | None:
    boards = [i for i, _k in _lanes(plan)]
    if len(boards) != 1:
        return None
    (i,) = boards  # the usual game: one track

    def on_track(st: Table, p: int | None) -> bool:
        return p is not None and st.bd[i][0][p] is not None
    return on_track


_on_track = Builtin("on_track", (Param(PIECE, "the piece of `on_track`"),), BOOL, _on_track_run,
                    "true if the piece stands on a lane track (false for none)", bind=_on_track_bind,
                    kind="lanes")


@on_board(Lanes, "race_order", [], listof(PIECE), "the pieces on the track, the leader first")
def _race_order(k: Lanes, st: Table, _b: int) -> list[int]:
    return k.order(st.bd[k.index])


@on_board(Lanes, "pieces_in_space", [(INT, "the progress of `pieces_in_space`")], listof(PIECE),
          "the pieces in the space of this progress (on a loop, a piece a lap ahead or behind too), "
          "the one ahead in the space first")
def _pieces_in_space(k: Lanes, st: Table, _b: int, d: int) -> list[int]:
    data = st.bd[k.index]
    pcs = k.occupants(data, d)
    if len(pcs) > 1:
        rank, spot = k.rank[d % k.L], data[1]
        pcs.sort(key=lambda pc: rank[spot[pc]])
    return pcs


@on_board(Lanes, "lines_between", [(INT, "the progress a move starts from"),
                                   (INT, "the progress a move ends at"), (TEXT, "the kind of line")],
          listof(INT),
          "the progress (first space after it) of each line of this kind a move from a to b crosses")
def _lines_between(k: Lanes, st: Table, _b: int, a: int, b: int, kind: str) -> list[int]:
    return k.lines_between(a, b, kind)


@on_board(Lanes, "next_lines", [(INT, "the progress to look ahead from"), (TEXT, "the kind of line"),
                                (INT, "how many lines")], listof(INT),
          "the progress (first space after it) of the next n lines of this kind ahead")
def _next_lines(k: Lanes, st: Table, _b: int, d: int, kind: str, n: int) -> list[int]:
    return k.next_lines(d, kind, n)


_NO_LINE = object()


def _line_field(name: str, attr: str, typ: Spec, doc: str) -> Builtin:
    def field(k: Lanes, st: Table, _b: int, d: int, kind: str) -> Any:
        ln = k.line_at(d, kind)
        if ln is None:
            raise RuleError(f"no line of kind `{kind}` lies before space {d % k.L}")
        return getattr(ln, attr)

    b = on_board(Lanes, name, [(INT, "the progress of the line (the first space after it)"),
                               (TEXT, "the kind of line")], typ, doc)(field)
    by_board = b.bind
    assert by_board is not None   # (`on_board` gives each built-in its `bind`)

    def bind(plan: PlanView, consts: list[Any]) -> Callable[..., Any] | None:
        track, kname = consts[0], consts[2]
        if not isinstance(track, int) or not isinstance(kname, str) \
                or not isinstance(plan.board_kinds[track], Lanes):
            return by_board(plan, consts)
        # a named track and a kind written out: the field by space, looked up in a table made now
        k = plan.board_kinds[track]
        values = {space: getattr(ln, attr) for space, ln in k.at_space.get(kname, {}).items()}
        L = k.L

        def looked_up(st: Table, _b: int, d: int, _kind: str) -> Any:
            v = values.get(d % L, _NO_LINE)
            if v is _NO_LINE:
                raise RuleError(f"no line of kind `{kname}` lies before space {d % L}")
            return v
        return looked_up
    b.bind = bind
    return b


_line_limit = _line_field("line_limit", "limit", INT, "the limit of the line of this kind before progress d")
_line_name = _line_field("line_name", "name", TEXT, "the name of the line of this kind before progress d")


def _board_number(name: str, doc: str, compute: Callable[[Lanes], int]) -> Builtin:
    # the track's printed data: a board named in the rule gives a constant
    return on_board(Lanes, name, [], INT, doc, pure=True)(lambda k, st, _b: compute(k))


_finish_at = _board_number("finish_at", "the progress of the finish (laps × spaces; an open road's finish "
                                        "space)", lambda k: k.finish)
_lap_length = _board_number("lap_length", "spaces per lap", lambda k: k.L)
_lap_count = _board_number("lap_count", "laps to the finish", lambda k: k.decl.laps)
_spot_count = _board_number("spot_count", "spots per space (how many pieces a space holds)",
                             lambda k: k.spots)


@on_board(Lanes, "board_fact", [(TEXT, "the name of the fact")], INT,
          "a number printed on the board (`facts:`)", pure=True)
def _board_fact(k: Lanes, st: Fixed, _b: int, name: str) -> int:
    if name not in k.decl.facts:
        raise RuleError(f"board `{k.name}` has no fact `{name}` (facts: {', '.join(k.decl.facts) or 'none'})")
    return k.decl.facts[name]


@on_board(Lanes, "space_prop", [(INT, "the progress of `space_prop`"), (TEXT, "the property of `space_prop`"),
                                ("T:plain", "the value of `space_prop` where the space has none")], "T",
          "a property of the space at this progress (`space_props` of the track), or the default given "
          "where it has none", pure=True)
def _space_prop(k: Lanes, st: Fixed, _b: int, d: int, name: str, default: Any) -> Any:
    return prop_value(k.props[d % k.L], name, default, f"space {d % k.L} of `{k.name}`")


@on_board(Lanes, "space_steps_to", [(INT, "the progress `space_steps_to` counts from"),
                                    (TEXT, "the property `space_steps_to` looks for")], INT,
          "how many spaces ahead the nearest space with this property lies (`space_props`), 0 when the "
          "space at this progress has it (none when none lies ahead: on a loop, within a lap)", pure=True)
def _space_steps_to(k: Lanes, st: Fixed, _b: int, d: int, name: str) -> int | None:
    spaces = range(max(d, 0), k.L) if k.open else range(d, d + k.L)
    return next((sp - d for sp in spaces if (k.props[sp % k.L] or {}).get(name) is not None), None)


@on_board(Lanes, "race_line_spot", [(INT, "the progress of `race_line_spot`")], INT,
          "the spot that is the race line at this progress", pure=True)
def _race_line_spot(k: Lanes, st: Fixed, _b: int, d: int) -> int:
    return k.race[d % k.L]


# ---- effects -------------------------------------------------------------------------------

def _line_up_run(st: Table, p: int | None, b: int) -> None:
    """The piece takes the next free place of the start grid."""
    k = kind_at(st, b, Lanes, "line_up")
    data = st.bd[b]
    if p is None or data[0][p] is not None:
        raise RuleError("`line_up` needs a piece that is not on the track yet")
    for space, spot in k.decl.grid:
        d = space if k.open else space - k.L   # (a loop's grid lies before the line, the lap before)
        if not any(data[0][q] == d and data[1][q] == spot for q in range(len(data[0]))):
            data[0][p], data[1][p] = d, spot
            return
    raise RuleError("the start grid is full")


_line_up = heard_by_change(Lanes, Builtin(
    "line_up", (Param(PIECE, "the first argument of `line_up`"),
                Param("lanes", "the second argument of `line_up`")), None, _line_up_run,
    "the piece takes the next free place of the track's start grid", kind="lanes"), (ENTERED,))


def _put_at_run(st: Table, p: int | None, b: int, d: int, spot: int) -> None:
    """Stand exactly there (scenarios arrange the table)."""
    k = kind_at(st, b, Lanes, "put_at")
    if p is None:
        raise RuleError("`put_at`: a piece was expected, not none")
    if not 1 <= spot <= k.spots:
        raise RuleError(f"spot {spot} is not one of 1..{k.spots}")
    if k.open and not 0 <= d < k.L:
        raise RuleError(f"progress {d} is not on the road (its spaces are 0..{k.L - 1})")
    for i, _k in _lanes(st.plan):
        st.bd[i][0][p] = None
    data = st.bd[b]
    # (exactly there only: a scenario arranging the table may put a car where one still on the
    # start grid, a lap behind, will have left)
    for q in in_space(data[0], d, None):
        if data[1][q] == spot:
            raise RuleError(f"spot {spot} of progress {d} is taken by `{st.plan.piece_names[q]}`")
    data[0][p], data[1][p] = d, spot


_put_at = Builtin("put_at", (Param(PIECE, "the first argument of `put_at`"),
                             Param("lanes", "the second argument of `put_at`"),
                             Param(INT, "the progress of `put_at`"), Param(INT, "the spot of `put_at`")),
                  None, _put_at_run, "the piece stands exactly at this progress and spot (scenarios "
                                     "arrange the table)", kind="lanes")


def _moving(b: Builtin, where: Callable[[Data, int, int], tuple[int, int | None] | None],
            events: tuple[str, ...]) -> Builtin:
    """An effect that moves a piece on a lane track (`advance`, `drop_back`): as declared, the
    board's own move; by the ruleset's move rules in a game that has some (`Lanes.ruled`); and
    saying what happened for a game that waits for its events (`heard`). `where(data, p, arg)` is
    where the piece goes, (progress, floor), or None when it does not move."""
    own_run, own_bind = b.run, b.bind

    # p: a piece, or none (`_on_lanes` says it is a rule error)
    def run(st: Table, p: Any, arg: int) -> Any:
        if not st.plan.move_rules:
            return own_run(st, p, arg)
        heard(st, p, arg, False)

    def heard(st: Table, p: Any, arg: int, tell: bool = True) -> list | None:
        k, data = _on_lanes(st, p, b.name)
        to = where(data, p, arg)
        if to is None:
            return []
        return k.move(st, data, p, to[0], to[1], tell)

    def bind(plan: PlanView, consts: list[Any]) -> Any:
        return own_bind(plan, consts) if not plan.move_rules else None  # type: ignore[misc]
    b.run, b.bind, b.heard, b.events = run, bind, heard, events
    return b


def _on_lanes(st: Table, p: int | None, name: str) -> tuple[Lanes, Data]:
    """(kind, data) of the lane track the piece stands on, or a rule error."""
    if p is not None:
        for i, k in _lanes(st.plan):
            if st.bd[i][0][p] is not None:
                return k, st.bd[i]
        raise RuleError(f"`{name}`: `{st.plan.piece_names[p]}` is not on {Lanes.noun}")
    raise RuleError(f"`{name}`: a piece was expected, not none")


@of_piece(Lanes, "advance", [(INT, "how many spaces `advance` moves")], None,
          "n spaces forward through other pieces; a full space blocks (the nearest free spot behind); "
          "the game's `moves` rules where it has them")
def _advance(k: Lanes, data: Data, p: int, n: int) -> None:
    if n <= 0:
        return
    start = data[0][p]
    k.settle(data, p, start + n, floor=start)


@of_piece(Lanes, "drop_back", [(INT, "the progress of `drop_back`")], None,
          "the nearest free spot at this progress or behind it; the game's `moves.spot` where it has one")
def _drop_back(k: Lanes, data: Data, p: int, d: int) -> None:
    k.settle(data, p, d)


_moving(_advance, lambda data, p, n: None if n <= 0 else (data[0][p] + n, data[0][p]),
        (MOVED, ENTERED, PASSED, BLOCKED))
_moving(_drop_back, lambda data, p, d: (d, None), (MOVED, ENTERED, BLOCKED))  # nobody is passed going back


@of_piece(Lanes, "free_spot", [(INT, "the progress of `free_spot`")], INT,
          "the spot the piece would take at this progress by the board's own rule (`spot_order`, the first "
          "spot no other piece stands on), 0 when there is none: what `moves.spot` is without a rule")
def _free_spot(k: Lanes, data: Data, p: int, d: int) -> int:
    return k.free_spot(data, d, p) or 0


@of_piece(Lanes, "take_off", [], None, "the piece leaves the track")
def _take_off(k: Lanes, data: Data, p: int) -> None:
    data[0][p] = None
    data[1][p] = 0


BUILTINS = [_progress, _space_of, _spot_of, _lap_of, _on_race_line, _on_track, _race_order,
            _pieces_in_space, _lines_between, _next_lines, _line_limit, _line_name, _finish_at,
            _lap_length, _lap_count, _spot_count, _board_fact, _space_prop, _space_steps_to, _race_line_spot,
            _free_spot, _line_up, _put_at, _advance, _drop_back, _take_off]
