"""Cards as players read them, whatever draws them (a screen, a page): equal cards together with
how many there are, a hand sorted by name and number, a pile in words."""
from __future__ import annotations

from ..lang.show import natural


def groups(cards: list[str], sort: bool) -> list[tuple[str, int]]:
    """Cards as players read them, as (card, how many alike): equal cards together, face-down ones
    last, the rest by name and number (`2` before `10`) when the pile is sorted (a hand); else in
    their order, runs of equal cards together."""
    if sort:
        counts: dict[str, int] = {}
        for c in cards:
            counts[c] = counts.get(c, 0) + 1
        hidden = [c for c in counts if c.startswith("(")]
        order = sorted((c for c in counts if c not in hidden), key=natural) + hidden
        return [(c, counts[c]) for c in order]
    out: list[tuple[str, int]] = []
    for c in cards:
        if out and out[-1][0] == c:
            out[-1] = (c, out[-1][1] + 1)
        else:
            out.append((c, 1))
    return out


def grouped(cards: list[str], sort: bool) -> list[str]:
    """Cards as players read them: runs of equal cards as `label ×n` (three or more alike, or
    any when the pile is sorted, as a hand: `purple ×3`)."""
    out: list[str] = []
    for card, n in groups(cards, sort):
        alike = 1 if sort else (2 if card.startswith("(") else 3)  # `(face down) ×2`
        out.extend([f"{card} ×{n}"] if n >= alike and n > 1 else [card] * n)
    return out


def listing(items: list[str]) -> str:
    """Names in a row, separated so that a reader can tell them apart: by `;` when a name holds a
    comma itself (`Red: 3, 4; Blue: 2`)."""
    return ("; " if any("," in item for item in items) else ", ").join(items)


def pile_text(info: dict, plan=None, name: str | None = None, how: dict | None = None) -> str:
    """A pile's contents as the seat may see them: its cards, or how many it holds."""
    how = how or {}
    cards = info["cards"]
    count = info["count"]
    one, many = how.get("unit") or ("card", "cards")
    if how.get("show") == "count" or cards is None:
        return "empty" if count == 0 else f"{count} {one if count == 1 else many}"
    if not cards:
        return "empty"
    if how.get("show") == "top":
        top = cards[-1]
        return top if count == 1 else f"{top} on top ({count} {many})"
    return listing(grouped(cards, bool(how.get("sort"))))
