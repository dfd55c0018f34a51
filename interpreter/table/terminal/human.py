"""A person at the terminal: sees what their seat may see, picks an option by its key (a letter)
or its words (`table/keys.py`: keys that stay while the same choice comes back; words that fit
several options are answered with those options). With bots only, `u` takes back the seat's own
last decision (`Undo`).
"""
from __future__ import annotations

from ..ask import Asked
from ..keys import LETTERS, letters
from ..sitting import Undo

UNDO_WORDS = ("u", "undo")


class HumanAgent:
    name = "human"
    person = True  # its time is a person's: no budget on it

    def __init__(self, stdin, stdout, table):
        self.stdin = stdin
        self.stdout = stdout
        self.table = table                  # the `Table` this seat plays at (screens, keys, log, undo)
        self.term = table.term

    def say(self, text: str = "") -> None:
        self.term.line(text)

    def choose(self, game, decision) -> int:
        table = self.table
        table.before_screen(decision.seat)
        a = table.ask(decision)
        table.show_screen(game, a)
        ask = _ask(a)
        while True:
            self.term.prompt(ask)
            try:
                line = self.stdin.readline()
            except UnicodeDecodeError:  # bytes that are not text: a wrong entry like any other
                line = "?\n"
            if not line:
                raise EOFError("no more input")
            line = _printable(line)
            if not _is_tty(self.stdin):  # typed from a file or a pipe: shown as if typed here
                typed = line.rstrip("\n")
                self.term.line(typed if len(typed) <= 40 else typed[:37] + "...")
            text = line.strip()
            if a.can_undo and text.lower() in UNDO_WORDS:
                raise Undo(decision.seat)
            found = a.typed(text)
            if len(found) == 1:
                return found[0].pick
            for said in _wrong(text, a, found):
                self.say(said)


def _printable(line: str) -> str:
    """A line typed, its characters that cannot be printed (bytes that were no text) as `?`: what
    is shown back is never Python's escapes (`\\udcff`)."""
    return "".join(ch if (ch.isprintable() or ch.isspace()) and not 0xD800 <= ord(ch) <= 0xDFFF else "?"
                   for ch in line)


def _is_tty(stream) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(callable(isatty) and isatty())


def _keys(a: Asked, last: str) -> str:
    """The keys offered, runs of letters in order as ranges: `a-e`, `b-f or h-k`, `a, c or d`."""
    order = {k: i for i, k in enumerate(letters(len(LETTERS) * (len(LETTERS) + 1)))}
    keys = sorted((o.key for o in a.options), key=lambda k: order.get(k, len(order)))
    runs: list[list[str]] = []
    for k in keys:
        if runs and order.get(k) == order.get(runs[-1][-1], -2) + 1:
            runs[-1].append(k)
        else:
            runs.append([k])
    parts: list[str] = []
    for run in runs:
        parts += [f"{run[0]}-{run[-1]}"] if len(run) > 2 else run
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + f" {last} {parts[-1]}"


def _ask(a: Asked) -> str:
    return f"Choose {_keys(a, 'or')}, or type an option's words{' (u: undo)' if a.can_undo else ''}: "


def _wrong(text: str, a: Asked, found) -> list[str]:
    """What to say to an entry that names no single option: the options it fits, or what to type."""
    shown = text if len(text) <= 40 else text[:37] + "..."
    if found:
        return [f"  `{shown}` fits {len(found)} options; type one's letter:"] + \
            [f"    {o.key}) {o.label}" for o in found]
    ask = f"please type an option's letter ({_keys(a, 'or')}) or its words"
    if not text:
        return [f"  {ask}."]
    return [f"  `{shown}` is not one of the options: {ask}."]
