"""The `racecraft` command: validate, play, replay, simulate, compare, check, render, championship,
explain, upgrade, schemas, train, serve, lsp. Each command lives beside what it runs
(`<package>/commands.py`); here are the parser that gathers them, the output every command
prints through, and the net under them all.

Exit codes: 0 success, 1 a problem in the rules or a failed check, 2 a usage error.
Problems in a designer's files print as diagnostics, never as a Python traceback.
"""
from __future__ import annotations

import argparse
import os
import sys
from functools import cache

from .authoring import commands as authoring
from .lab import commands as lab
from .base.diagnostics import RulesetError, visible
from .base.errors import RuleError
from .editor import commands as editor
from .base.files import CannotWrite
from .session.args import Usage, print_report
from .table import commands as table
from .web import commands as web

# the commands in the order `racecraft --help` lists them
ORDER = [(authoring, "validate"), (table, "play"), (table, "replay"), (lab, "simulate"), (lab, "compare"),
         (authoring, "check"), (authoring, "render"), (lab, "championship"), (authoring, "explain"),
         (authoring, "upgrade"), (authoring, "schemas"), (lab, "train"), (web, "serve"),
         (editor, "lsp")]


class _Visible:
    """Standard output or error as the command prints it: whatever a ruleset names (a game, a card,
    an option, a `say`) is shown with its control characters escaped (`visible`), never obeyed by
    the terminal. Everything else is the stream's own."""

    escapes = True  # `session.args.raw` finds the stream under it (for rich's own escapes)

    def __init__(self, stream):
        self.stream = stream

    def write(self, text: str) -> int:
        shown = visible(text)
        try:
            self.stream.write(shown)
        except UnicodeEncodeError:  # a terminal that cannot show a character gets its escape
            enc = getattr(self.stream, "encoding", None) or "utf-8"
            self.stream.write(shown.encode(enc, "backslashreplace").decode(enc))
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name):
        return getattr(self.stream, name)


@cache  # one per process: a process that runs many commands (the tests, a shell) builds it once
def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="racecraft", description="Racing board games from text: "
                                "check rulesets, play them, simulate thousands of games.")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for package, name in ORDER:
        package.COMMANDS[name](sub)
    return p


def main(argv: list[str] | None = None) -> int:
    # every character the command prints goes through `visible` for as long as it runs
    out, err = sys.stdout, sys.stderr
    sys.stdout = out if isinstance(out, _Visible) else _Visible(out)
    sys.stderr = err if isinstance(err, _Visible) else _Visible(err)
    try:
        return _main(argv)
    finally:
        sys.stdout, sys.stderr = out, err


def _own_lists(args: argparse.Namespace) -> argparse.Namespace:
    """An option not given holds the parser's own default list: each command gets lists of its
    own, so that none changes what the one parser (`parser`) gives the next."""
    for name, value in vars(args).items():
        if isinstance(value, list):
            setattr(args, name, list(value))
    return args


def _main(argv: list[str] | None) -> int:
    args = _own_lists(parser().parse_args(argv))
    try:
        return args.fn(args)
    except RulesetError as e:
        print_report(e.report)
        return 1
    except Usage as e:
        print(f"racecraft {args.command}: error: {e}", file=sys.stderr)
        return 2
    except RuleError as e:  # a rule failed outside a game's own loop (a view, a label, a result)
        print(f"rule error: {e}", file=sys.stderr)
        return 1
    except CannotWrite as e:  # the message names the file
        print(f"racecraft {args.command}: error: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # output piped into `head`
        return 0
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except OSError as e:  # a file that cannot be written or read, outside the designer's files
        print(f"racecraft {args.command}: error: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # noqa: BLE001 - never a traceback, even for a bug of ours
        if os.environ.get("RACECRAFT_TRACEBACK"):
            raise
        print(f"racecraft {args.command}: internal error: {type(e).__name__}: {e}\n"
              "(a bug in Racecraft, not in your files; RACECRAFT_TRACEBACK=1 shows where)", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
