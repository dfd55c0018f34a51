"""The narrated log: what a player would say aloud at the table, as the rules tell it (`say`),
with a heading at each round that says where every piece stands. `play` prints it as the game
goes and `replay` prints the same lines, both from the game's trace."""
from __future__ import annotations

WIDTH = 79


def lines(entries) -> list[str]:
    """The log lines of these trace entries: a heading for each round, each `say`."""
    out = []
    for e in entries:
        if e[0] == "round":
            out.extend(heading(e[3], e[4]))
        elif e[0] == "say":
            out.append(f"  {e[2]}")
    return out


def heading(number: int, boards: dict) -> list[str]:
    """`Round 3: black space 9, lap 1/2; green space 7, lap 1/2`: the round, and where each piece
    stands on each board that holds any (on a ranking, the pieces in their order)."""
    parts = []
    for where in boards.values():
        if not where:
            continue
        if all(w.startswith("position ") for _p, w in where):
            parts.append(", ".join(p for p, _w in where))
        else:
            parts.append("; ".join(f"{p} {w}" for p, w in where))
    text = f"Round {number}" + (": " + " | ".join(parts) if parts else "")
    return _wrapped(text)


def _wrapped(text: str) -> list[str]:
    out = []
    while len(text) > WIDTH:
        cut = text.rfind("; ", 0, WIDTH - 1)
        if cut < 20:
            cut = text.rfind(", ", 0, WIDTH - 1)
        if cut < 20:
            break
        out.append(text[:cut + 1])
        text = "    " + text[cut + 2:]
    return out + [text]


class Teller:
    """Reads a game's trace as it grows and hands on the log lines not told yet."""

    def __init__(self, game):
        self.game = game
        self.told = 0

    def news(self) -> list[str]:
        trace = self.game.st.trace
        if trace is None:
            return []
        out = lines(trace[self.told:])
        self.told = len(trace)
        return out

    def skip(self) -> None:
        """Everything in the trace now counts as told (a game rebuilt by undo or resume)."""
        trace = self.game.st.trace
        self.told = 0 if trace is None else len(trace)
