"""A season played at the terminal (`racecraft championship`): its games in turn, a person's race
at the terminal's table as `play` plays one, each game's end, the standings and the champions
printed, the season saved as it goes and when stopped.

It reads a `Series` (`series.py`: which game is next, its rules, what the game before hands on,
the standings, the save) and drives it; it gives the exit code, and the season's save file
(`SaveFile`), each decision of a person's race journaled in it as it is taken (`RaceLog`). The
web table drives seasons with `series.py` alone (`web/seasons.py`): nothing here is a web page's.
"""
from __future__ import annotations

import sys
from pathlib import Path

from ..agents.kinds import BOTS
from ..session.agents import agent_seed, make_agents
from ..session.args import raw
from ..session.stop import stopped_like_ctrl_c
from ..table.terminal.human import HumanAgent
from ..table.terminal.screen import Terminal
from ..table.terminal.table import Table
from .series import SaveFile, Series, champion_line, game_over_line, game_seed, standings_rows


class RaceLog:
    """A season's save as the record of a race played at a table (`Sitting.log`): each decision
    journaled as it is taken; after an undo, the series saved whole with the decisions kept (the
    journal's lines of the decisions taken back would disagree with those taken instead)."""

    def __init__(self, saver: SaveFile, series: Series, i: int, entry: dict):
        self.saver, self.series, self.i, self.entry = saver, series, i, entry

    def decision(self, d: dict) -> None:
        self.saver.pick(self.i, d["n"] - 1, d["pick"])

    def rewrite(self, decisions: list[dict]) -> None:
        self.entry["picks"] = [d["pick"] for d in decisions]
        self.saver.write(self.series)


def standings_text(series: Series) -> str:
    """The standings and the scorepad (each game's gain of the first standing value), in columns."""
    head, body = standings_rows(series)
    if not body:
        return ""
    widths = [max(len(row[i]) for row in [head, *body]) for i in range(len(head))]
    fmt = lambda row: "  ".join(c.ljust(w) if i < 2 else c.rjust(w)  # noqa: E731
                                for i, (c, w) in enumerate(zip(row, widths))).rstrip()
    return "\n".join([fmt(head), *map(fmt, body)])


def play_at_table(series: Series, out, budget, person=None, saver: SaveFile | None = None) -> dict:
    """The next game played at the terminal as `play` plays one (the narrated log, each person's
    screen, undo against bots; a game cut short taken up where it stopped); its entry.
    `person(table)`: the agent of a person's seat (default: at this terminal's keyboard); `saver`:
    the season's save, each decision journaled in it as it is taken (`RaceLog`)."""

    # the terminal's table, imported when a person plays: a season of bots loads no screen

    i, entry = series.next_game()
    game = series.new_game(i, trace=True)
    table = Table(game, series.seats, Terminal(out, raw(out)), sys.stdin,
                  fresh=lambda: series.new_game(i, trace=True))
    agents = make_agents(series.seats, game_seed(series.seed, i),
                         human_factory=lambda: (person or (lambda t: HumanAgent(sys.stdin, out, t)))(table))
    if saver is not None:
        table.log = RaceLog(saver, series, i, entry)
    try:
        table.run(agents, budget, entry["picks"])
    finally:  # also when stopped: the decisions so far are what a save keeps
        entry["picks"] = table.picks
    return series.finish(entry, game)


def play_at_terminal(series: Series, save: Path | None, stop_after: int | None, out, budget=None) -> int:
    """Play the series' games in turn, people and bots, printing each game's result and the standings;
    saved after each game, each decision journaled as it is taken, and saved when stopped (Ctrl-C,
    the terminal closed, SIGTERM) when `save` is given. Returns the exit code."""

    saver = SaveFile(save) if save is not None else None
    try:
        with stopped_like_ctrl_c():
            if saver is not None:
                saver.write(series)  # a resumed save's journaled decisions, now in its first line
            return _play_season(series, saver, stop_after, out, budget)
    finally:
        if saver is not None:
            saver.close()


def _play_season(series: Series, saver: SaveFile | None, stop_after: int | None, out, budget) -> int:
    save = saver.path if saver is not None else None
    people = "human" in series.seats

    def make_agents(seed):
        return [BOTS[kind](agent_seed(seed, i)) for i, kind in enumerate(series.seats)]

    print(f"{series.name}: {len(series.legs)} games, {len(series.seats)} players "
          f"({', '.join(f'seat {i + 1} {k}' for i, k in enumerate(series.seats))}), seed {series.seed}",
          file=out)
    played_now = 0
    while not series.done:
        i = len(series.played) - (0 if not series.played or "result" in series.played[-1] else 1)
        print(f"\n=== {series.title(i)}", file=out)
        try:
            if people:
                play_at_table(series, out, budget, saver=saver)
            else:
                series.play_next(make_agents, None, budget, saver.pick if saver is not None else None)
        except (KeyboardInterrupt, EOFError):
            if saver is not None:
                saver.write(series)
                _say(f"\nseason saved to {save}: `racecraft championship --resume {save}` carries on", out)
            else:
                _say("\nseason abandoned (give --save FILE to keep it)", out)
            return 130
        played_now += 1
        print(game_over_line(series, i), file=out)
        print("standings:", file=out)
        print(standings_text(series), file=out)
        if saver is not None:
            saver.write(series)
            print(f"(season saved to {save})", file=out)
        if stop_after is not None and played_now >= stop_after and not series.done:
            print(f"stopped after {played_now} game(s)" +
                  (f": `racecraft championship --resume {save}` carries on" if save else ""), file=out)
            return 0
    print("\n" + champion_line(series), file=out)
    return 0


def _say(text: str, out) -> None:
    """A last word, on a stream that may be gone (the terminal closed: SIGHUP)."""
    try:
        print(text, file=out)
    except (OSError, ValueError):
        pass
