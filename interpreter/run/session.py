"""Load and compile a game, play it with agents, write and read game records.

A game record (JSONL) is the ruleset's digest, the seed and every decision: enough to replay
the game exactly. Its lines: one `game` header, one `decision` per choice, one `result`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..agents.base import RandomAgent
from ..agents.greedy import GreedyAgent
from ..compile import compile_ruleset
from ..engine.game import Game
from ..lang.errors import RuleError
from ..lang.diagnostics import Report, RulesetError
from ..load.ruleset import Ruleset, find_ruleset, load_ruleset

RECORD_VERSION = 1


@dataclass
class Loaded:
    ruleset: Ruleset
    path: Path
    variants: list[str]
    modules: list[str]
    track: str | None = None

    def plan(self, players: int):
        report = Report()
        plan = compile_ruleset(self.ruleset, players, report)
        if plan is None:
            raise RulesetError(report)
        return plan


def load(name: str, variants=(), modules=(), track: str | None = None) -> Loaded:
    path = find_ruleset(name)
    if path is None:
        report = Report()
        known = sorted(p.name for base in (Path.cwd() / "rulesets",) if base.is_dir() for p in base.iterdir())
        report.add("E001", f"no ruleset `{name}`", None,
                   f"give a ruleset folder, or one of: {', '.join(known)}" if known else
                   "give the path of a ruleset folder")
        raise RulesetError(report)
    report = Report()
    rs = load_ruleset(path, variants=variants, modules=modules, report=report, track=track)
    if rs is None:
        raise RulesetError(report)
    return Loaded(rs, path, list(variants), list(modules), track)


def agent_seed(seed: int, seat: int) -> str:
    return f"{seed}/{seat}"


def make_agents(kinds: list[str], seed: int, human_factory=None):
    from .human import HumanAgent

    agents = []
    for seat, kind in enumerate(kinds):
        if kind == "human":
            agents.append(human_factory() if human_factory else HumanAgent())
        elif kind == "random":
            agents.append(RandomAgent(agent_seed(seed, seat)))
        elif kind == "greedy":
            agents.append(GreedyAgent(agent_seed(seed, seat)))
        else:
            raise ValueError(kind)
    return agents


def header(loaded: Loaded, plan, seed: int, seats: list[str]) -> dict:
    return {"type": "game", "version": RECORD_VERSION, "ruleset": str(loaded.path.resolve()),
            "game": plan.game_id, "digest": plan.digest, "variants": loaded.variants,
            "modules": loaded.modules, "seed": seed, "players": plan.n_seats, "seats": seats,
            **({"track": loaded.track} if loaded.track else {})}


def play(game: Game, agents, on_decision=None) -> dict:
    """Ask the agents until the game ends; return the result."""
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


def write_record(path: Path, head: dict, decisions: list[dict], result: dict | None) -> None:
    with path.open("w", encoding="utf-8") as f:
        f.write(json.dumps(head) + "\n")
        for d in decisions:
            f.write(json.dumps(d) + "\n")
        if result is not None:
            f.write(json.dumps({"type": "result", **result}) + "\n")


def read_record(path: Path, report: Report):
    from ..lang.diagnostics import Loc

    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        report.add("E301", f"cannot read game record: {e}", Loc(str(path)))
        return None
    items = []
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            items.append(json.loads(line))
        except json.JSONDecodeError as e:
            report.add("E302", f"not a JSON line: {e.msg}", Loc(str(path), i, e.colno))
            return None
    if not items or items[0].get("type") != "game":
        report.add("E303", "a game record starts with a `game` line", Loc(str(path), 1, 1),
                   "write one with `racecraft play ... --log FILE`")
        return None
    head = items[0]
    for key in ("ruleset", "seed", "players", "digest"):
        if key not in head:
            report.add("E303", f"the `game` line has no `{key}`", Loc(str(path), 1, 1))
            return None
    decisions = [d for d in items if d.get("type") == "decision"]
    result = next((d for d in items if d.get("type") == "result"), None)
    return head, decisions, result
