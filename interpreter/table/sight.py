"""What a seat sees at the table, as data a page draws: the title and the game's facts, each seat
with its pieces, facts and the piles it shows of every seat, the seat's own piles (a hand, its
cards grouped and sorted as the game's `view:` says) and the game's piles. The boards are drawn
apart (`picture/svg.py`); the terminal's screen (`terminal/view.py`) says the same as lines.

Everything here comes from the seat's view (`Game.view`) and the plan's declarations: a seat
learns nothing from it that its view does not hold."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..draw.cards import groups, listing, pile_text
from ..lang.types import Per


@dataclass(frozen=True)
class Pile:
    label: str
    count: int
    cards: list[tuple[str, int]] | None   # (card, how many alike) as shown; None: only its size
    text: str                             # the pile in words: `2, 3 ×2, blue`, `11 cards`


@dataclass(frozen=True)
class PieceSight:
    name: str
    facts: list[str]          # the game's facts about it (`show:`), as players read them
    piles: list[Pile] = field(default_factory=list)   # its piles the seat is shown (a rider's deck)


@dataclass(frozen=True)
class SeatSight:
    seat: int                 # 0-based
    you: bool
    pieces: list[PieceSight]
    facts: list[str]          # as players read them (`lap 2`, `out`)
    piles: list[Pile] = field(default_factory=list)


@dataclass(frozen=True)
class Sight:
    title: str                # the game's name
    facts: list[str]          # `round 3` and the game's facts
    seats: list[SeatSight]
    mine: list[Pile]          # the viewing seat's own piles
    table: list[Pile]         # the game's piles


def _pile(label: str, info: dict, how: dict | None) -> Pile:
    how = how or {}
    cards = info["cards"]
    shown = None
    if cards is not None and how.get("show") != "count":
        shown = groups(cards[-1:] if how.get("show") == "top" else cards, bool(how.get("sort")))
    return Pile(label, info["count"], shown, pile_text(info, None, None, how))


def _value(v) -> str:
    """A variable's value, in a game without a `view:` section (a designer's game)."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, list):
        return listing([_value(x) for x in v]) or "none"
    if isinstance(v, dict):
        return ", ".join(f"{_value(k)} {_value(x)}" for k, x in v.items()) or "none"
    return "none" if v is None else str(v)


def sight(view: dict, plan) -> Sight:
    """The seat's view (`Game.view`) as a page shows it."""
    me = view["seat"]
    facts = []
    rnd = view["game"].get("round")
    if isinstance(rnd, int) and rnd > 0:
        facts.append(f"round {rnd}")
    if plan.view is not None:
        facts.extend(view.get("game_facts", []))
    else:
        facts.extend(f"{k} {_value(v)}" for k, v in view["game"].items() if k != "round" and v is not None)
    owners: dict[int, list[PieceSight]] = {}
    by_name: dict[str, PieceSight] = {}
    for name, info in view["pieces"].items():
        if info.get("owner") is not None:
            by_name[name] = PieceSight(name, list(info.get("facts", [])))
            owners.setdefault(info["owner"] - 1, []).append(by_name[name])
    seat_facts = view.get("seat_facts", [])
    seats = [SeatSight(s, s == me, owners.get(s, []), list(seat_facts[s]) if s < len(seat_facts) else [])
             for s in range(plan.n_seats)]
    mine: list[Pile] = []
    table: list[Pile] = []
    piles = view["piles"]
    declared = plan.view
    for pid in range(plan.n_piles):
        name = plan.pile_names[pid]
        info = piles.get(name)
        per = plan.pile_per[pid]
        if info is None or per is Per.PLACE:
            continue  # not seen, or a pile of a board's place (drawn with the board)
        base = plan.pile_decl[pid]
        how = None if declared is None else declared.get(base)
        if declared is not None and how is None:
            continue  # the game's view does not show it
        label = how["label"] if how else base
        if per is Per.GAME:
            if info["count"] or declared is None:
                table.append(_pile(label, info, how))
            continue
        owner = plan.pile_owner[pid]
        if per is Per.PIECE and how is not None and how.get("beside") == "seat":
            # with its seat's piles, as a seat's pile; named by its piece when the seat has several
            piece = plan.piece_names[owner]
            seat = view["pieces"].get(piece, {}).get("owner")
            if seat is None:
                continue   # (a piece of nobody's: not a seat's)
            several = sum(p.get("owner") == seat for p in view["pieces"].values()) > 1
            named = f"{label} of {piece}" if several else label
            if seat - 1 == me and how["whose"] == "mine":
                mine.append(_pile(named, info, how))
            elif how["whose"] == "all" and info["count"]:
                seats[seat - 1].piles.append(_pile(named, info, how))
            continue
        if per is Per.PIECE:   # beside its piece; a piece of nobody's, on the table
            piece = plan.piece_names[owner]
            seat = view["pieces"].get(piece, {}).get("owner")
            named = f"{label} of {piece}"
            if seat is not None and seat - 1 == me and (how is None or how["whose"] == "mine"):
                mine.append(_pile(named, info, how))
            elif (how is None or how["whose"] == "all") and info["count"]:
                if piece in by_name:
                    by_name[piece].piles.append(_pile(label, info, how))
                else:
                    table.append(_pile(named, info, how))
            continue
        if owner == me and (how is None or how["whose"] == "mine"):
            mine.append(_pile(label, info, how))
        elif how is None or how["whose"] == "all":
            if info["count"]:
                seats[owner].piles.append(_pile(label, info, how))
    if declared is None:
        for s, values in enumerate(view["seats"]):
            seats[s].facts.extend(f"{k} {_value(v)}" for k, v in values.items())
    return Sight(plan.name, facts, seats, mine, table)
