"""What the commands share on the command line: the limits of its numbers, a usage error, the
options that name a game's rules, and the checks of seats, params and output files made before
anything runs."""
from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

from ..base.diagnostics import Report

# Limits of the command line's numbers: out of range is a usage error, never a hang.
MAX_GAMES = 10_000_000
MAX_JOBS = 256          # and at most JOBS_PER_CORE processes per core of the machine
JOBS_PER_CORE = 4
MAX_PLAYERS = 16
MAX_SEED = 2**63 - 1


class Usage(Exception):
    """A usage error: the command prints it and exits with 2."""


def raw(stream):
    """The stream under the command's escaping one (for rich, which writes its own escapes)."""
    return stream.stream if getattr(type(stream), "escapes", False) else stream


def print_report(report: Report) -> None:
    print(report.render(), file=sys.stderr)
    n = report.errors
    w = len(report.items) - n
    counts = ([f"{n} error{'s' if n != 1 else ''}"] if n or not w else []) + \
        ([f"{w} warning{'s' if w != 1 else ''}"] if w else [])
    print("\n" + ", ".join(counts), file=sys.stderr)


class NotWhole(argparse.ArgumentTypeError, ValueError):
    """A value given for a whole number that is none (a ValueError, as int() raises)."""


def bounded(lo: int | None, hi):
    """An argparse type: a whole number up to `hi` (a number, or a function giving it and why it is
    that) and from `lo` (unless None: the command checks it). Not a whole number: `a whole number,
    not 1e3`."""

    def parse(text: str) -> int:
        top, why = hi() if callable(hi) else (hi, "")
        shown = text[:21] + "..." if len(text) > 40 else (text if text.strip() else "nothing")
        if len(text) > 40:  # no number here is that long (int() of thousands of digits is refused)
            if re.fullmatch(r"\s*[+-]?[0-9_]+\s*", text):
                raise argparse.ArgumentTypeError(f"{shown} is out of range: at most {top:,}{why}")
            raise NotWhole(f"a whole number, not {shown}")
        try:
            n = int(text)
        except ValueError:
            raise NotWhole(f"a whole number, not {shown}") from None
        if n > top or (lo is not None and n < lo):
            span = f"from {lo:,} to {top:,}" if lo is not None else f"at most {top:,}"
            raise argparse.ArgumentTypeError(f"{n:,} is out of range: {span}{why}")
        return n

    return parse


def max_jobs() -> tuple[int, str]:
    cores = os.cpu_count() or 1
    top = min(MAX_JOBS, JOBS_PER_CORE * cores)
    here = f"{cores} core{'s' if cores != 1 else ''} here"
    why = "" if top == MAX_JOBS else f" ({JOBS_PER_CORE} per core, {here})"
    return top, why


def rules_args(sp, verb: str) -> None:
    """--track, --variant, --module, --param: the rules of the game as played."""
    sp.add_argument("--track", metavar="NAME",
                    help="race on tracks/<game>/NAME.yaml: "
                         "its boards replace the game's boards of the same names")
    sp.add_argument("--variant", action="append", default=[], metavar="NAME",
                    help=f"{verb} rulesets/<game>/variants/NAME.yaml (repeatable)")
    sp.add_argument("--module", action="append", default=[], metavar="NAME",
                    help=f"{verb} rulesets/<game>/modules/NAME.yaml (repeatable)")
    sp.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="give a param of the game this value (a number, true/false, a text or "
                         "a [list]), after the modules and variants (repeatable)")


def game_args(sp, optional: bool = False, fresh_seed: bool = False) -> None:
    """A ruleset, its rules (`rules_args`), --seed and --players. `fresh_seed`: without --seed, a
    new seed each time (`args.seed` None), where games are played to be played, not measured."""
    sp.add_argument("ruleset", help="a ruleset: a folder name under rulesets/, or a path",
                    **({"nargs": "?"} if optional else {}))
    rules_args(sp, "apply")
    sp.add_argument("--seed", type=bounded(0, MAX_SEED), default=None if fresh_seed else 1,
                    help="the seed of every shuffle and bot (0 to 2**63-1; default "
                         + ("a new one each game, printed so that it can be dealt again)" if fresh_seed
                            else "1)"))
    sp.add_argument("--players", type=bounded(1, MAX_PLAYERS),
                    help=f"how many seats (1 to {MAX_PLAYERS}, within what the game allows)")


def params(args) -> dict | None:
    """`--param NAME=VALUE` options as {name: value}, each value read as YAML (3, true, [1, 2])."""
    import yaml

    out: dict = {}
    for item in getattr(args, "param", []) or []:
        name, sep, text = item.partition("=")
        if not sep or not name.strip():
            raise Usage(f"--param {item}: write NAME=VALUE, e.g. --param hand_size=8")
        try:
            value = yaml.safe_load(text) if text.strip() else ""
        except yaml.YAMLError:
            value = text
        if not isinstance(value, (bool, int, str, list)) or isinstance(value, float):
            raise Usage(f"--param {item}: a value is a whole number, true/false, a text or a [list]")
        out[name.strip()] = value
    return out or None


def seat_problem(kinds: list[str], people: bool = True) -> str | None:
    """What is wrong with the first seat that names neither a person (where people may sit)
    nor a bot, or None."""
    from ..agents.kinds import FORMS, problem

    for k in kinds:
        bad = None if k == "human" and people else problem(k)
        if bad and not k.startswith(("mcts:", "learned:")):
            who, eg = ("human, ", "human,") if people else ("", "")
            return f"unknown seat kind `{k}`: seats are {who}{FORMS}, e.g. --seats {eg}greedy,mcts:200"
        if bad:
            return bad
    return None


def players_fit(ruleset, n: int, args, option: str = "--seats") -> None:
    """Usage error where the game (as loaded: a variant may change its players) does not take `n`
    players, said by the option that gives the count: `--players N`, else `option` (the seats)."""
    players = ruleset.game.game.players
    if players.min <= n <= players.max:
        return
    if getattr(args, "players", None):
        said = f"--players {n}"
    elif getattr(args, option.lstrip("-").replace("-", "_"), None):
        said = f"{option} names {seats_word(n)}"
    else:
        said = f"{n} player" if n == 1 else f"{n} players"
    count = str(players.min) if players.min == players.max else f"{players.min} to {players.max}"
    applied = ", ".join(a.replace(":", " ", 1) for a in ruleset.applied)
    raise Usage(f"{said}: {ruleset.game.game.name}{f' (with {applied})' if applied else ''} takes {count} "
                "players")


def cannot_sit(kind: str, plan=None) -> str | None:
    """Why a seat recorded as `kind` (in a game's record, a season's save) cannot sit again, or
    None: no bot is called that, or its bot cannot play (a learned bot's file gone, changed, or,
    given the game's `plan`, made for another)."""
    from ..agents.kinds import FORMS, problem, unfit

    if kind == "human":
        return None
    bad = problem(kind)
    if bad is not None and not kind.startswith(("mcts", "learned")):
        return f"no bot is called that (bots are {FORMS})"
    bad = bad or (unfit(kind, plan) if plan is not None else None)
    if bad is None:
        return None
    return bad.removeprefix(f"`{kind}`: ")


def sit_again(kinds: list[str], resumed: str, hint: str, plan=None) -> None:
    """Usage error where a seat recorded in `resumed` (a record, a season's save) cannot sit again
    (`cannot_sit`): which seat, why, and `hint` (what the person can do)."""
    from ..load.names import shown

    for i, k in enumerate(kinds, 1):
        bad = cannot_sit(k, plan)
        if bad is not None:
            raise Usage(f"--resume {resumed}: seat {i} (`{shown(k, 200)}`) cannot sit again: "
                        f"{shown(bad, 200)}; {hint}")


def seats_fit(kinds: list[str], plan) -> None:
    """Usage error where a seat's bot cannot play this game (a learned bot's file made for another
    game, other rules or another number of players)."""
    from ..agents.kinds import unfit

    for k in dict.fromkeys(kinds):
        bad = unfit(k, plan)
        if bad:
            raise Usage(bad)


def say_notes(pairs) -> None:
    """Say on the error stream, once each, the notes on the bots of each (kinds, plan) of `pairs`:
    greedy at random in a game without `evaluate:`, a learned file of the other form
    (`kinds.notes`)."""
    from ..agents.kinds import notes

    said = [n for kinds, plan in pairs for n in notes([k for k in kinds if k != "human"], plan)]
    for n in dict.fromkeys(said):
        print(f"note: {n}", file=sys.stderr)


def bots(text: str | None, players: int | None, option: str = "--seats") -> list[str] | None:
    """The bots a `--seats` option names (random, greedy, mcts[:BUDGET[:ROLLOUT[:TREES]]] or
    learned[:TABLES]:FILE), checked."""
    if not text:
        return None
    seats = [k.strip() for k in text.split(",") if k.strip()]
    if len(seats) > MAX_PLAYERS:
        raise Usage(f"{option} names {len(seats)} seats: at most {MAX_PLAYERS}")
    bad = seat_problem(seats, people=False)
    if bad:
        raise Usage(bad)
    if players and players != len(seats):
        raise Usage(f"--players {players} but {option} names {seats_word(len(seats))}")
    return seats


def writable(value: str, option: str = "--log", what: str = "the record's file name") -> Path:
    """A file the command will write, refused before the work if it could not be written after it:
    its folder is missing or closed, or it exists and is not a regular file (a folder, a named pipe,
    a device, a link to one), which a command never replaces."""
    from ..base.files import target_problem

    if not value.strip():
        raise Usage(f"{option} needs {what}")
    path = Path(value)
    if path.is_dir():
        raise Usage(f"{option} {value}: that is a folder; give {what}")
    problem = target_problem(path)
    if problem is not None:
        raise Usage(f"{option} {value}: {problem}")
    return path


def seats_word(n: int) -> str:
    """`1 seat`, `3 seats`: how many seats an option names."""
    return f"{n} seat" if n == 1 else f"{n} seats"
