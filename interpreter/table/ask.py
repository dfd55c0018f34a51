"""The table's view model: what a seat is asked and how a game ended, as plain data that a front
end draws (the terminal's screens here; a web page would draw the same). Nothing here writes to
a terminal or knows how a line looks."""
from __future__ import annotations

from dataclasses import dataclass

from ..lang.errors import RuleError
from .preview import previews


@dataclass(frozen=True)
class Option:
    pick: int      # its index in the decision: what `Game.choose` takes
    key: int       # the number a person types for it, kept while the same choice comes back (`keys.py`)
    label: str
    effect: str    # what it would do for the deciding seat, "" when that is not known (`preview.py`)


@dataclass(frozen=True)
class Asked:
    """A decision put to a seat: who decides, the question, what the seat sees, the options."""
    seat: int
    prompt: str
    view: dict                 # the seat's view (`Game.view`)
    options: list[Option]      # in the decision's order (by `pick`)


def asked(game, decision, labels: list[str], keys: list[int]) -> Asked:
    """The decision as its seat is asked it; an option whose preview the rules refuse shows no effect."""
    try:
        effects = previews(game, decision)
    except RuleError:
        effects = [""] * len(labels)
    options = [Option(i, keys[i], labels[i], effects[i]) for i in range(len(labels))]
    return Asked(decision.seat, decision.prompt, game.view(decision.seat), options)


@dataclass(frozen=True)
class Placed:
    """One line of a game's result: a seat, or a piece the game drives, with its score."""
    place: int
    seat: int | None           # 0-based; None for a piece the game drives
    piece: str | None
    score: object
    winner: bool


def placings(result: dict) -> list[Placed]:
    """The result's standings in order (the seats' `order` when the game ranks no pieces)."""
    standings = result.get("standings") or [{"seat": s} for s in result["order"]]
    out = []
    for place, entry in enumerate(standings, 1):
        if "seat" in entry:
            s = entry["seat"]
            out.append(Placed(place, s, None, result["scores"][s], s in result["winners"]))
        else:
            out.append(Placed(place, None, entry["piece"], entry["score"], False))
    return out
