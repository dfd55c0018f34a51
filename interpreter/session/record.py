"""Load and compile a game, play it with agents, write and read game records.

A game record (JSONL) is the ruleset's digest, the seed and every decision: enough to replay
the game exactly. Its lines: one `game` header, one `decision` per choice, one `result`.
A record names its game, never a folder: it may come from someone else, and `replay` finds
the game by that name (or is given the ruleset by the person replaying).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..agents.kinds import BOTS
from ..compile import compile_ruleset
from ..engine.game import Game
from ..lang.errors import RuleError
from ..lang.diagnostics import SOURCES, Loc, Report, RulesetError
from ..load.ruleset import Ruleset, find_game, find_ruleset, is_name, load_ruleset, shown
from ..load.yamlsrc import FileRefused, read_limited

RECORD_VERSION = 1
MAX_RECORD_BYTES = 64_000_000  # a record this large would hold about 300000 decisions


@dataclass
class Loaded:
    ruleset: Ruleset
    path: Path
    variants: list[str]
    modules: list[str]
    track: str | None = None
    params: dict | None = None

    def plan(self, players: int):
        report = Report()
        plan = compile_ruleset(self.ruleset, players, report)
        if plan is None:
            raise RulesetError(report)
        return plan


def load(name: str, variants=(), modules=(), track: str | None = None, params: dict | None = None) -> Loaded:
    path = find_ruleset(name)
    if path is None:
        report = Report()
        known = sorted(p.name for base in (Path.cwd() / "rulesets",) if base.is_dir() for p in base.iterdir())
        report.add("E001", f"no ruleset `{name}`", None,
                   f"give a ruleset folder, or one of: {', '.join(known)}" if known else
                   "give the path of a ruleset folder")
        raise RulesetError(report)
    return load_from(path, variants, modules, track, params)


def load_from(path: Path, variants=(), modules=(), track: str | None = None,
              params: dict | None = None) -> Loaded:
    """Load the ruleset at `path` (a folder or its game.yaml) with variants, modules, a track and
    values for its params."""
    report = Report()
    rs = load_ruleset(path, variants=variants, modules=modules, report=report, track=track, params=params)
    if rs is None:
        raise RulesetError(report)
    return Loaded(rs, path, list(variants), list(modules), track, dict(params) if params else None)


def load_recorded(head: dict, record: Path, ruleset: str | None = None) -> Loaded:
    """The ruleset a game record was played by: `ruleset` when the person replaying gives one
    (a folder or a name, as `play` takes it), else the game the record names, found by name in
    ./rulesets or the project's rulesets. A record's own `ruleset` (a folder, in older records)
    is never used: a record from someone else must not choose what is read."""
    variants, modules, track = head.get("variants", []), head.get("modules", []), head.get("track")
    params = head.get("params") if isinstance(head.get("params"), dict) else None
    if ruleset is not None:
        return load(ruleset, variants, modules, track, params)
    path = find_game(head["game"])
    if path is None:
        report = Report()
        report.add("E001", f"no ruleset of the game `{shown(head['game'])}` here", Loc(str(record), 1, 1),
                   "replay finds a record's game by its name in ./rulesets or the project's rulesets; "
                   "give the ruleset it was played by with --ruleset PATH")
        raise RulesetError(report)
    return load_from(path, variants, modules, track, params)


def agent_seed(seed: int, seat: int) -> str:
    return f"{seed}/{seat}"


def make_agents(kinds: list[str], seed: int, human_factory=None):
    from ..table.terminal.human import HumanAgent

    agents = []
    for seat, kind in enumerate(kinds):
        if kind == "human":
            agents.append(human_factory() if human_factory else HumanAgent())
        elif kind in BOTS:
            agents.append(BOTS[kind](agent_seed(seed, seat)))
        else:
            raise ValueError(kind)
    return agents


def header(loaded: Loaded, plan, seed: int, seats: list[str]) -> dict:
    # `ruleset` is the game's name, not the folder it was loaded from: a shared record names
    # no path (readers before this change take a name there too)
    return {"type": "game", "version": RECORD_VERSION, "ruleset": plan.game_id,
            "game": plan.game_id, "digest": plan.digest, "variants": loaded.variants,
            "modules": loaded.modules, "seed": seed, "players": plan.n_seats, "seats": seats,
            **({"track": loaded.track} if loaded.track else {}),
            **({"params": loaded.params} if loaded.params else {})}


def play(game: Game, agents, on_decision=None, guard=None) -> dict:
    """Ask the agents until the game ends; return the result. `guard()`, if given, is a context
    manager around each run of the rules (a bot's choice, the game going on to the next
    decision): `run.budget.budget` at an interactive table."""
    if guard is not None:
        return _guarded(game, agents, on_decision, guard)
    if on_decision is None and all(getattr(a, "blind", False) for a in agents):
        # Agents that need only the number of options (random bots): no decision objects.
        while not game.over:
            seat, count = game.waiting()
            game.choose(agents[seat].pick(count))
        return game.result()
    while not game.over:
        d = game.decision()
        if d is None:  # pragma: no cover - a game that is not over always waits for a decision
            raise RuleError("the game stopped without a decision and without ending")
        pick = agents[d.seat].choose(game, d) if d.seat is not None else 0
        if on_decision is not None:
            on_decision(d, pick)
        game.choose(pick)
    return game.result()


def _guarded(game: Game, agents, on_decision, guard) -> dict:
    while not game.over:
        d = game.decision()
        if d is None:  # pragma: no cover - a game that is not over always waits for a decision
            raise RuleError("the game stopped without a decision and without ending")
        agent = agents[d.seat] if d.seat is not None else None
        if agent is None:
            pick = 0
        elif getattr(agent, "person", False):
            pick = agent.choose(game, d)  # a person's time is theirs
        else:
            with guard():
                pick = agent.choose(game, d)
        if on_decision is not None:
            on_decision(d, pick)
        with guard():
            game.choose(pick)
    with guard():
        return game.result()


def write_record(path: Path, head: dict, decisions: list[dict], result: dict | None) -> None:
    with path.open("w", encoding="utf-8") as f:
        f.write(json.dumps(head) + "\n")
        for d in decisions:
            f.write(json.dumps(d) + "\n")
        if result is not None:
            f.write(json.dumps({"type": "result", **result}) + "\n")


# What each key of a record's `game` line must hold: (test, what it is)
_HEAD_KEYS = {
    "game": (is_name, "the game's name"),
    "seed": (lambda v: isinstance(v, int) and not isinstance(v, bool), "a whole number"),
    "players": (lambda v: isinstance(v, int) and not isinstance(v, bool), "a whole number"),
    "digest": (lambda v: isinstance(v, str), "a text"),
}
_HEAD_OPTIONAL = {
    "variants": (lambda v: isinstance(v, list), "a list of names"),
    "modules": (lambda v: isinstance(v, list), "a list of names"),
    "track": (lambda v: v is None or isinstance(v, str), "a name"),
}


def read_record(path: Path, report: Report):
    """The `game` line, the decisions and the result of a record; None with a diagnostic when
    it cannot be read (not a regular file, too large, not JSON lines) or is incomplete."""
    name = str(path)
    try:
        text = read_limited(path, MAX_RECORD_BYTES).decode("utf-8")
    except FileRefused as e:
        report.add("E301", f"cannot read game record: {e.message.removeprefix('cannot read file: ')}",
                   Loc(name))
        return None
    except UnicodeDecodeError as e:
        report.add("E301", f"cannot read game record: {e}", Loc(name))
        return None
    SOURCES[name] = text  # a diagnostic's snippet shows the line without reading the file again
    items = []
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as e:
            msg = e.msg if isinstance(e, json.JSONDecodeError) else "nested too deeply"
            col = e.colno if isinstance(e, json.JSONDecodeError) else 1
            report.add("E302", f"not a JSON line: {msg}", Loc(name, i, col))
            return None
        if not isinstance(item, dict):
            report.add("E302", "a line of a game record is a JSON object (`{...}`)", Loc(name, i, 1))
            return None
        items.append(item)
    if not items or items[0].get("type") != "game":
        report.add("E303", "a game record starts with a `game` line", Loc(name, 1, 1),
                   "write one with `racecraft play ... --log FILE`")
        return None
    head = items[0]
    for key in _HEAD_KEYS:
        if key not in head:
            report.add("E303", f"the `game` line has no `{key}`", Loc(name, 1, 1))
            return None
    for key, (ok, what) in [*_HEAD_KEYS.items(), *_HEAD_OPTIONAL.items()]:
        if key in head and not ok(head[key]):
            report.add("E303", f"the `game` line's `{key}` is not {what}: {shown(json.dumps(head[key]))}",
                       Loc(name, 1, 1))
            return None
    decisions = [d for d in items if d.get("type") == "decision"]
    result = next((d for d in items if d.get("type") == "result"), None)
    return head, decisions, result
