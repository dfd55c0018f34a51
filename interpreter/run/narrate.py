"""The narrated log: what a player would say aloud at the table, as the rules tell it (`say`),
with a heading at each round. `play` prints it as the game goes and `replay` prints the same
lines, both from the game's trace."""
from __future__ import annotations


def lines(entries) -> list[str]:
    """The log lines of these trace entries: a heading for each round, each `say`."""
    out = []
    for e in entries:
        if e[0] == "round":
            out.append(heading(e[3]))
        elif e[0] == "say":
            out.append(f"  {e[2]}")
    return out


def heading(number: int) -> str:
    return f"Round {number}"


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
