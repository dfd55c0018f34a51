"""The table's view model: what a seat is asked and how a game ended, as plain data that a front
end draws (the terminal's screens here; a web page would draw the same). Nothing here writes to
a terminal or knows how a line looks."""
from __future__ import annotations

from dataclasses import dataclass

from ..base.errors import RuleError
from ..lang.show import natural
from .keys import Keys, typed
from .preview import previews


@dataclass(frozen=True)
class Option:
    pick: int      # its index in the decision: what `Game.choose` takes
    key: str       # the letter a person types for it (`keys.py`)
    label: str
    effect: str    # what it would do for the deciding seat, "" when that is not known (`preview.py`)


@dataclass(frozen=True)
class Asked:
    """A decision put to a seat: who decides, the question, what the seat sees, the options in the
    order a player reads them (`shown_order`), whether the seat may take back its last decision."""
    seat: int
    prompt: str
    view: dict                 # the seat's view (`Game.view`)
    options: list[Option]
    can_undo: bool = False

    def typed(self, text: str) -> list[Option]:
        """The options that what a person typed names (one: that one; several: to choose among)."""
        found = typed(text, [o.key for o in self.options], [o.label for o in self.options])
        return [self.options[i] for i in found]


def shown_order(decision, plan) -> list[int]:
    """The options' picks in the order a player reads them: as the `choose` lists them, except that
    the options one `option` line makes for cards are sorted as a hand is (`lang.show.natural`),
    since a hand dealt in any order is held sorted."""
    groups = decision.groups()
    order: list[int] = []
    i = 0
    while i < len(groups):
        j = i
        while j < len(groups) and groups[j][0] == groups[i][0]:
            j += 1
        run = list(range(i, j))
        if all(card is not None for _g, card in groups[i:j]):
            run.sort(key=lambda k: natural(plan.card_label(groups[k][1])))
        order.extend(run)
        i = j
    return order


def lettered(decision, plan, keys: Keys, at: int) -> tuple[list[str], list[int], list[str]]:
    """The options' labels (by pick), the order they are shown in, and their keys in that order,
    asked as the game's decision number `at` (how many were taken before it)."""
    labels = decision.labels()
    order = shown_order(decision, plan)
    return labels, order, keys.assign(decision.seat, decision.rule, [labels[i] for i in order], at)


def asked(game, decision, keys: Keys, can_undo: bool = False) -> Asked:
    """The decision as its seat is asked it, each option with its key (kept in `keys` while the
    choice comes back); an option whose preview the rules refuse shows no effect."""
    labels, order, letters = lettered(decision, game.plan, keys, len(game.answers))
    try:
        effects = previews(game, decision)
    except RuleError:
        effects = [""] * len(labels)
    options = [Option(i, k, labels[i], effects[i]) for i, k in zip(order, letters)]
    return Asked(decision.seat, decision.prompt, game.view(decision.seat), options, can_undo)


@dataclass(frozen=True)
class Placed:
    """One line of a game's result: a seat, or a piece the game drives, with its score."""
    place: int
    seat: int | None           # 0-based; None for a piece the game drives
    piece: str | None
    score: object
    winner: bool


def placings(result: dict) -> list[Placed]:
    """The result's standings in order (the seats' `order` when the game ranks no pieces), each at
    its place: those that tie share one (a result recorded before places were noted: in order)."""
    places = result.get("places")
    standings = result.get("standings") or [
        {"seat": s, **({"place": places[s]} if places else {})} for s in result["order"]]
    out = []
    for n, entry in enumerate(standings, 1):
        place = entry.get("place", n)
        if "seat" in entry:
            s = entry["seat"]
            # the game's words for the seat (`result.says`) where it has them, else its number
            score = result["says"][s] if "says" in result else result["scores"][s]
            out.append(Placed(place, s, None, score, s in result["winners"]))
        else:
            out.append(Placed(place, None, entry["piece"], entry.get("says", entry["score"]), False))
    return out
