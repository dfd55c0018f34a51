"""The table's commands: `racecraft play` (a game at the terminal, people and bots, with its record)
and `racecraft replay` (a record printed again or stepped through)."""
from __future__ import annotations

import sys
from pathlib import Path

from ..lang.diagnostics import Report, RulesetError
from ..lang.errors import RuleError
from ..session.args import MAX_PLAYERS, Usage, bounded, game_args, params, raw, seat_problem, writable


def add_play(sub) -> None:
    pl = sub.add_parser("play", help="play a game in the terminal, with people and bots")
    game_args(pl, optional=True)
    pl.add_argument("--seats",
                    help="who sits at each seat: human, random, greedy or mcts[:BUDGET[:ROLLOUT]] "
                         "(the search bot, see docs/bots.md), e.g. human,greedy,mcts:200")
    pl.add_argument("--log", metavar="FILE", help="write the game record (JSONL) here")
    pl.add_argument("--resume", metavar="RECORD",
                    help="go on with the game of this record (written by --log, also when a game is "
                         "abandoned); it is written again there unless --log says elsewhere")
    pl.add_argument("--verbose", action="store_true", help="also print each bot's choice and where the "
                                                           "pieces are at each round")
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
        raise Usage(f"--players {args.players} but --seats names {len(kinds)} seats")
    return kinds


class _Setting:
    """The game `play` sits down to: its rules, seats and seed, new or from the record resumed."""

    def __init__(self, args):
        from ..session.load import load, load_recorded
        from ..session.record import read_record

        self.recorded: list[dict] | None = None
        if args.resume:
            report = Report()
            resumed = read_record(Path(args.resume), report)
            if resumed is None:
                raise RulesetError(report)
        self.log = writable(args.log) if args.log else (writable(args.resume) if args.resume else None)
        self.log_name = args.log or args.resume
        if not args.resume:
            if not args.ruleset:
                raise Usage("name the game to play (e.g. racecraft play GAME), or --resume RECORD")
            self.loaded = load(args.ruleset, args.variant, args.module, args.track, params(args))
            players = self.loaded.ruleset.game.game.players
            self.kinds = seats(args, (players.min, players.max))
            self.plan = self.loaded.plan(len(self.kinds))
            self.seed = args.seed
            return
        head, self.recorded, _result = resumed
        self.loaded = load_recorded(head, Path(args.resume), args.ruleset)
        kinds = seats(args, (1, MAX_PLAYERS)) if args.seats else [str(k) for k in head.get("seats", [])]
        if len(kinds) != head["players"] or seat_problem(kinds) is not None:
            kinds = ["human"] + ["random"] * (head["players"] - 1)
        self.kinds = kinds
        self.plan = self.loaded.plan(head["players"])
        if self.plan.digest != head["digest"]:
            raise Usage(f"--resume {args.resume}: the rules changed since the game was recorded")
        self.seed = head["seed"]

    def write_log(self, decisions: list[dict], result) -> bool:
        """The game record, written (again) to --log; False (said) when it cannot be."""
        from ..session.record import header, write_record

        assert self.log is not None
        try:
            write_record(self.log, header(self.loaded, self.plan, self.seed, self.kinds), decisions, result)
        except OSError as e:
            print(f"racecraft play: error: cannot write the game record {self.log_name}: {e.strerror or e}",
                  file=sys.stderr)
            return False
        return True


def cmd_play(args) -> int:
    from ..engine.game import Game
    from ..session.agents import make_agents
    from ..session.budget import budget
    from .terminal.human import HumanAgent
    from .terminal.screen import Terminal
    from .terminal.table import Table

    at = _Setting(args)
    term = Terminal(sys.stdout, raw(sys.stdout))
    try:
        # the game is told as it is played (trace on): the narrated log of what the rules `say`
        with budget():
            game = Game(at.plan, at.seed, trace=True)
    except RuleError as e:
        print(f"rule error: {e}", file=sys.stderr)
        return 1
    table = Table(game, at.kinds, term, sys.stdin, bool(args.verbose))
    agents = make_agents(at.kinds, at.seed, human_factory=lambda: HumanAgent(sys.stdin, sys.stdout, table))
    print(f"{at.plan.name}: {len(at.kinds)} players "
          f"({', '.join(f'seat {i + 1} {k}' for i, k in enumerate(at.kinds))}), seed {at.seed}")
    if at.recorded is not None:
        _resume(table, at.recorded, args.resume, budget)
    result = _played(table, agents, at, budget)
    if result is None:
        return 1
    _print_result(game, at, result)
    if at.log:
        kept = {k: result[k] for k in ("order", "winners", "scores", "rounds")}
        if not at.write_log(table.decisions, kept):
            return 1
        print(f"game record written to {at.log_name}")
    return 0


def _resume(table, recorded: list[dict], record: str, guard) -> None:
    """The recorded decisions taken again at the table."""
    picks = [d.get("pick") for d in recorded]
    try:
        table.rebuild(picks, guard)
    except (RuleError, ValueError, TypeError, IndexError):
        raise Usage(f"--resume {record}: its decisions do not fit these rules") from None
    table.decisions = [dict(d) for d in recorded]
    print(f"resumed after {len(recorded)} decisions")


def _played(table, agents, at: _Setting, guard) -> dict | None:
    """The game played to its end, or None (said, and the record written) when it stops."""
    try:
        return table.run(agents, guard)
    except RuleError as e:
        print(f"rule error: {e}", file=sys.stderr)
    except (EOFError, KeyboardInterrupt):
        again = f" (go on with: racecraft play --resume {at.log_name})" if at.log else ""
        print("\ngame abandoned" + again, file=sys.stderr)
    if at.log:
        at.write_log(table.decisions, None)
    return None


def _print_result(game, at: _Setting, result: dict) -> None:
    from .ask import placings
    from .terminal.view import render_view

    kinds = at.kinds
    print("\nFinal table:")
    print(render_view(game.view(None), at.plan))
    print("\nResult:")
    for p in placings(result):
        if p.seat is not None:
            mark = "  winner" if p.winner else ""
            print(f"  {p.place}. seat {p.seat + 1} ({kinds[p.seat]}): {p.score}{mark}")
        else:  # a piece the game drives
            print(f"  {p.place}. {p.piece} (driven by the game): {p.score}")
    if len(kinds) > 1 and len(result["winners"]) == len(kinds):
        print("  a draw: every seat is tied")
    first = placings(result)[0] if result["order"] else None
    if not result["winners"] and first is not None and first.piece is not None:
        print(f"  no seat won: {first.piece}, driven by the game, came first")
    elif not result["winners"]:
        print("  no seat won")
    print(f"{result['rounds']} rounds, {result['decisions']} decisions")


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
