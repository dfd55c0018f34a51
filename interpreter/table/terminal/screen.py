"""Lines to the terminal, in colour when it is one (`rich`), plain otherwise (a pipe, a file, a
test). Whatever a ruleset names is shown with its control characters escaped (`visible`): colour
comes from the styles here, never from a text."""
from __future__ import annotations

import re

from ...base.diagnostics import visible

# styles by what a line is
STYLES = {"title": "bold", "heading": "bold cyan", "you": "bold", "key": "bold cyan", "preview": "green",
          "hidden": "dim", "prompt": "bold", "pass": "bold yellow"}


class Terminal:
    def __init__(self, out, raw=None, colours: dict | None = None):
        self.out = out
        raw = raw if raw is not None else getattr(out, "stream", out)
        self.console = None
        isatty = getattr(raw, "isatty", None)
        if callable(isatty) and isatty():
            from rich.console import Console

            console = Console(file=raw, highlight=False, markup=False, emoji=False, soft_wrap=True)
            if console.color_system is not None:  # NO_COLOR, a dumb terminal: plain text
                self.console = console
        self.words: re.Pattern[str] | None = None
        self.colours: dict[str, str] = {}
        if colours:
            self.set_colours(colours)

    def set_colours(self, colours: dict) -> None:
        """Words drawn in a colour (a game's `view.colours`); a colour rich does not know is left out."""
        from rich.style import Style
        from rich.errors import StyleSyntaxError

        good = {}
        for word, colour in colours.items():
            try:
                Style.parse(colour)
            except StyleSyntaxError:
                continue
            good[word] = colour
        self.colours = good
        self.words = re.compile(r"\b(" + "|".join(map(re.escape, good)) + r")\b") if good else None

    @property
    def width(self) -> int:
        return self.console.width if self.console is not None else 80

    def line(self, text: str = "", style: str | None = None, spans=()) -> None:
        """One line; `spans`: (start, end, style) parts of it drawn in their own style."""
        if self.console is None:
            print(text, file=self.out, flush=True)
            return
        from rich.text import Text

        shown = visible(text)
        t = Text(shown, style=STYLES.get(style or "", style or ""))
        if shown == text:  # escapes shift positions: then the line keeps its one style
            for start, end, what in spans:
                t.stylize(STYLES.get(what, what), start, end)
        if self.words is not None:
            for m in self.words.finditer(shown):
                t.stylize(self.colours[m.group(1)], m.start(), m.end())
        if "(face down)" in shown or "(hidden)" in shown:
            t.highlight_regex(r"\((face down|hidden)\)( ×\d+)?", STYLES["hidden"])
        self.console.print(t)

    def prompt(self, text: str) -> None:
        if self.console is None:
            self.out.write(text)
            self.out.flush()
            return
        from rich.text import Text

        self.console.print(Text(visible(text), style=STYLES["prompt"]), end="")

    def status(self, text):
        """A line that changes while something takes time (a spinner and `text()`), gone after it."""
        from rich.live import Live
        from rich.spinner import Spinner
        from rich.text import Text

        class Status:
            def __init__(self):
                self.spinner = Spinner("dots")

            def __rich_console__(self, console, options):
                self.spinner.text = Text(" " + visible(text()), style=STYLES["hidden"])
                yield self.spinner

        return Live(Status(), console=self.console, refresh_per_second=8, transient=True)

    def clear(self) -> None:
        """A clean screen (hot-seat: the next person does not see the last one's hand)."""
        if self.console is not None:
            self.console.clear()
        else:
            print("\n" + "-" * 40, file=self.out, flush=True)
