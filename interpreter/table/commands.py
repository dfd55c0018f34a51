"""The table's commands: `racecraft play` (a game at the terminal, people and bots, with its record)
and `racecraft replay` (a record printed again or stepped through).

The command line imports this module to list its commands: a command imports what it runs
when it runs (inside its function), so that `racecraft --help` and any command start in
tens of milliseconds (tests/test_layout.py keeps the start small)."""
from __future__ import annotations

import sys
from pathlib import Path

from ..base.diagnostics import Report, RulesetError
from ..base.errors import RuleError
from ..session.args import (MAX_PLAYERS, Usage, bounded, game_args, params, players_fit, raw, say_notes,
                            cannot_sit, seat_problem, seats_fit, seats_word, sit_again, writable)


def add_play(sub) -> None:
    pl = sub.add_parser("play", help="play a game in the terminal, with people and bots")
    game_args(pl, optional=True, fresh_seed=True)
    pl.add_argument("--seats",
                    help="who sits at each seat: human, random, greedy, mcts[:BUDGET[:ROLLOUT[:TREES]]] (the "
                         "search bot), mcts:BUDGET:learned:FILE or learned[:TABLES]:FILE (see docs/bots.md), "
                         "e.g. human,greedy,mcts:200")
    pl.add_argument("--log", metavar="FILE", help="write the game record (JSONL) here (default: a new "
                                                   "file in ~/.local/share/racecraft/games)")
    pl.add_argument("--no-log", action="store_true", help="keep no record of the game")
    pl.add_argument("--resume", metavar="RECORD",
                    help="go on with the game of this record (written by --log, also when a game is "
                         "abandoned); it is written again there unless --log says elsewhere")
    pl.add_argument("--no-undo", action="store_true",
                    help="no `u`: a decision is never taken back (an undo plays the game again from its "
                         "seed, so the dice and the bots' secret choices after it come out as before)")
    pl.add_argument("--verbose", action="store_true", help="also print each bot's choice (in a game of bots "
                                                           "only) and where the pieces are at each round")
    pl.set_defaults(fn=cmd_play)


def add_replay(sub) -> None:
    r = sub.add_parser("replay", help="replay a game record: its narrated log, or step through it")
    r.add_argument("record")
    r.add_argument("--ruleset", metavar="PATH",
                   help="replay with this ruleset (a folder, or a name under rulesets/) instead of "
                        "the game the record names, found by its name")
    r.add_argument("--rules", action="store_true",
                   help="print each rule as it fires, each chance and each choice, with the log")
    r.add_argument("--at", type=bounded(1, 10_000_000), metavar="N",
                   help="show the table before decision N (the log of its round, the view, the choice)")
    r.add_argument("--step", action="store_true",
                   help="step through the game: Enter goes forward a decision, b back, a number to it")
    r.add_argument("--seat", type=bounded(1, MAX_PLAYERS), metavar="N",
                   help="see the table as seat N does (default: as the seat that decides)")
    r.set_defaults(fn=cmd_replay)


COMMANDS = {"play": add_play, "replay": add_replay}


def seats(args, plan_players: tuple[int, int]) -> list[str]:
    """Who sits where: `--seats`, else a person and random bots for `--players` (or the fewest the
    game allows)."""
    if args.seats:
        kinds = [s.strip() for s in args.seats.split(",") if s.strip()]
    else:
        n = args.players or plan_players[0]
        kinds = ["human"] + ["random"] * (n - 1)
    if len(kinds) > MAX_PLAYERS:
        raise Usage(f"--seats names {len(kinds)} seats: at most {MAX_PLAYERS}")
    bad = seat_problem(kinds)
    if bad:
        raise Usage(bad)
    if args.players and args.players != len(kinds):
        raise Usage(f"--players {args.players} but --seats names {seats_word(len(kinds))}")
    return kinds


class _Setting:
    """The game `play` sits down to: its rules, seats and seed, new or from the record resumed."""

    def __init__(self, args):
        from ..engine.game import CHANCE
        from ..session.load import load, load_recorded
        from ..session.record import read_record
        from .replay import upgraded_since

        self.record = None
        self.chance: int | None = CHANCE   # how the game draws its chance (a record's own, resumed)
        if args.resume:
            report = Report()
            self.record = read_record(Path(args.resume), report)
            if self.record is None:
                raise RulesetError(report)
            for note in self.record.notes():
                print(f"note: {note}", file=sys.stderr)
        self.log = writable(args.log) if args.log else (writable(args.resume, "--resume") if args.resume
                                                        else None)
        self.log_name = args.log or args.resume
        self.given = args.ruleset   # the ruleset as the person gave it (a name or a path), if at all
        self.same_file = bool(args.resume) and (not args.log or _same(args.log, args.resume))
        if self.record is None:
            if not args.ruleset:
                raise Usage("name the game to play (e.g. racecraft play GAME), or --resume RECORD")
            self.loaded = load(args.ruleset, args.variant, args.module, args.track, params(args))
            players = self.loaded.ruleset.game.game.players
            self.kinds = seats(args, (players.min, players.max))
            players_fit(self.loaded.ruleset, len(self.kinds), args)
            self.plan = self.loaded.plan(len(self.kinds))
            seats_fit(self.kinds, self.plan)
            say_notes([(self.kinds, self.plan)])
            self.seed = args.seed if args.seed is not None else _fresh_seed()
            if self.log is None and not args.no_log:
                self._journal()
            return
        head = self.record.head
        self.loaded = load_recorded(head, Path(args.resume), args.ruleset,
                                    f": racecraft play PATH --resume {args.resume}")
        self.plan = self.loaded.plan(head["players"])
        if self.plan.digest != head["digest"] and not upgraded_since(self.loaded, head["digest"]):
            raise Usage(f"--resume {args.resume}: the rules changed since the game was recorded")
        self.kinds = _seated_again(args, head, self.plan)
        seats_fit(self.kinds, self.plan)
        say_notes([(self.kinds, self.plan)])
        self.seed = head["seed"]
        self.chance = head.get("chance")

    def _journal(self) -> None:
        """No --log: the game is kept in the user's data folder all the same (`session/journal.py`)."""
        from ..session.journal import journal, shown

        try:
            self.log = journal(self.plan.game_id, self.seed)
        except OSError as e:
            print(f"note: no record of this game is kept ({e.strerror or e}: {e.filename}); "
                  "--log FILE names one", file=sys.stderr)
            return
        self.log_name = shown(self.log)

    def go_on(self) -> str:
        """The command that goes on with this game from its record: with the ruleset given, where
        the game's name alone does not find it (a game loaded from a path)."""
        from ..load.ruleset import find_game

        path = self.loaded.path
        folder = path.parent if path.is_file() else path
        found = find_game(self.plan.game_id)
        by_name = self.given is None or (found is not None and _same(str(found), str(folder)))
        return "racecraft play" + ("" if by_name else f" {self.given}") + f" --resume {self.log_name}"

    def title(self) -> str:
        """The game's first line: what is played, with what, by whom, from which seed."""
        ld = self.loaded
        extras = ([f"track {ld.track}"] if ld.track else []) + [f"module {m}" for m in ld.modules] \
            + [f"variant {v}" for v in ld.variants] \
            + [f"{k}={_said(v)}" for k, v in (ld.params or {}).items()]
        with_ = f" ({', '.join(extras)})" if extras else ""
        seats = ", ".join(f"seat {i + 1} {k}" for i, k in enumerate(self.kinds))
        n = len(self.kinds)
        return f"{self.plan.name}{with_}: {n} player{'s' if n != 1 else ''} ({seats}), seed {self.seed}"

    def open_log(self, decisions: list[dict]):
        """The record the game is written to as it goes (`RecordFile`), None without --log. A game
        resumed into its own record appends to it when the record is whole and names the same
        game and seats; otherwise the record is written again (a new file renamed over the old)."""
        from ..session.record import RecordFile, header

        if self.log is None:
            return None
        head = header(self.loaded, self.plan, self.seed, self.kinds, self.chance)
        rec = self.record
        append = (rec is not None and self.same_file and rec.whole and rec.head == head
                  and len(rec.decisions) == len(decisions))
        return RecordFile(self.log, head, decisions, append=append,
                          finished=append and rec is not None and rec.result is not None)


def _seated_again(args, head: dict, plan) -> list[str]:
    """Who sits at a game resumed: `--seats`, else the seats its record names, each as it was (a
    seat that cannot sit again is a usage error saying which and why, never another bot in its
    place); a person and random bots only for an old record that names no seats."""
    players = head["players"]
    if args.seats:
        kinds = seats(args, (1, MAX_PLAYERS))
        if len(kinds) != players:
            raise Usage(f"--seats names {len(kinds)} seat{'s' if len(kinds) != 1 else ''}, but the game "
                        f"of --resume {args.resume} has {players} players")
        return kinds
    if "seats" not in head:
        return ["human"] + ["random"] * (players - 1)
    kinds = [str(k) for k in head["seats"]]
    others = ",".join(k if cannot_sit(k, plan) is None else "random" for k in kinds)
    if len(kinds) != players:
        raise Usage(f"--resume {args.resume}: the record names {len(kinds)} seats for a game of {players} "
                    f"players; give --seats, e.g. --seats {','.join(['human'] + ['random'] * (players - 1))}")
    sit_again(kinds, args.resume, f"give --seats to seat others, e.g. --seats {others}", plan)
    return kinds


def _fresh_seed() -> int:
    """A seed for a new game: short enough to read out and type again."""
    import secrets

    return 1 + secrets.randbelow(999_999)


def _said(value) -> str:
    """A param's value as it is typed after --param."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(map(_said, value)) + "]"
    return str(value)


def _same(a: str, b: str) -> bool:
    import os

    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def cmd_play(args) -> int:
    from ..engine.game import Game, kept, streams
    from ..session.agents import make_agents
    from ..session.budget import budget
    from ..session.stop import stopped_like_ctrl_c
    from .terminal.human import HumanAgent
    from .terminal.screen import Terminal
    from .terminal.table import Table

    at = _Setting(args)
    term = Terminal(sys.stdout, raw(sys.stdout))
    try:
        # the game is told as it is played (trace on): the narrated log of what the rules `say`
        with budget():
            game = Game(at.plan, at.seed, trace=True, streams=streams(at.chance))
    except RuleError as e:
        print(f"rule error: {e}", file=sys.stderr)
        return 1
    table = Table(game, at.kinds, term, sys.stdin, bool(args.verbose))
    table.undo_allowed = not args.no_undo
    agents = make_agents(at.kinds, at.seed, human_factory=lambda: HumanAgent(sys.stdin, sys.stdout, table))
    print(at.title())
    with stopped_like_ctrl_c():
        if at.record is not None:
            _resume(table, at.record.decisions, args.resume, budget)
        log = table.log = at.open_log(table.decisions)
        try:
            result = _played(table, agents, at, budget)
            if result is None:
                return 1
            if log is not None:
                log.result(kept(result))
        finally:
            if log is not None:
                log.close()
        _print_result(game, at, result)
    if at.log:
        print(f"game record written to {at.log_name}")
    return 0


def _resume(table, recorded: list[dict], record: str, guard) -> None:
    """The recorded decisions taken again at the table, each checked as `replay` checks it."""
    try:
        table.resume(recorded, Path(record), guard)
    except RuleError as e:
        raise Usage(f"--resume {record}: its decisions do not fit these rules ({e})") from None
    table.resumed(len(recorded))


def _played(table, agents, at: _Setting, guard) -> dict | None:
    """The game played to its end, or None (said) when it stops; every decision taken is in the
    record already (it is written as the game goes)."""
    from ..base.files import CannotWrite

    again = f" (go on with: {at.go_on()})" if at.log else ""
    try:
        return table.run(agents, guard)
    except RuleError as e:
        _say(f"rule error: {e}")
    except CannotWrite as e:
        _say(f"racecraft play: error: {e}\ngame abandoned: the record keeps the decisions before this one"
             + again)
    except (EOFError, KeyboardInterrupt):
        _say("\ngame abandoned" + again)
    return None


def _say(text: str) -> None:
    """A last word on the error stream, which may be gone (the terminal closed: SIGHUP)."""
    try:
        print(text, file=sys.stderr)
    except (OSError, ValueError):
        pass


def _beside(p) -> str:
    """What is said after a place's seat or piece: its words or number (`result.says` may say
    nothing: then nothing, not a colon)."""
    return f": {p.score}" if p.score != "" else ""


def _tie_won(result: dict, seat: int) -> str:
    """Said after a seat placed ahead of another of the same `rank`: the result's `tie` decided it
    (two seats with the same money, one of them first: a reader asks why)."""
    scores, places = result["scores"], result.get("places")
    if places and any(scores[o] == scores[seat] and places[o] > places[seat]
                      for o in range(len(scores)) if o != seat):
        return " (ahead on the tie-break)"
    return ""


def _print_result(game, at: _Setting, result: dict) -> None:
    from ..engine.game import drawn
    from .ask import placings
    from .terminal.view import render_view

    kinds = at.kinds
    print("\nFinal table:")
    print(render_view(game.view(None), at.plan))
    print("\nResult:")
    draw = drawn(result["winners"], len(kinds))
    for p in placings(result):
        if p.seat is not None:
            mark = "  winner" if p.winner and not draw else ""   # (a draw crowns nobody: said below)
            who = f"seat {p.seat + 1} ({kinds[p.seat]})"
            print(f"  {p.place}. {who}{_beside(p)}{mark}{_tie_won(result, p.seat)}")
        else:  # a piece the game drives
            print(f"  {p.place}. {p.piece} (driven by the game){_beside(p)}")
    if draw:
        print("  a draw: every seat is tied")
    first = placings(result)[0] if result["order"] else None
    if not result["winners"] and first is not None and first.piece is not None:
        print(f"  no seat won: {first.piece}, driven by the game, came first")
    elif not result["winners"]:
        print("  no seat won")
    rounds, decisions = result["rounds"], result["decisions"]
    print(f"{rounds} round{'' if rounds == 1 else 's'}, {decisions} decision{'' if decisions == 1 else 's'}")


def cmd_replay(args) -> int:
    from .terminal.replay import replay, stepper
    from .terminal.screen import Terminal

    if args.step or args.at is not None or args.seat is not None:
        if args.rules:
            raise Usage("--rules prints the whole game; --at, --step and --seat show a table")
        seat = None if args.seat is None else args.seat - 1
        return stepper(Path(args.record), Terminal(sys.stdout, raw(sys.stdout)), sys.stdin, args.ruleset,
                       args.at, args.step, seat)
    return replay(Path(args.record), sys.stdout, args.ruleset, args.rules)
