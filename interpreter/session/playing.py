"""A game played with agents, to its end."""
from __future__ import annotations

from ..engine.game import Game
from ..base.errors import RuleError


def play(game: Game, agents, on_decision=None, guard=None) -> dict:
    """Ask the agents until the game ends; return the result. `guard()`, if given, is a context
    manager around each run of the rules (a bot's choice, the game going on to the next
    decision): `run.budget.budget` at an interactive table. Without one the agents answer in
    place (`Game.answer_with`): the rules call them at each decision and go on."""
    if guard is not None:
        return _guarded(game, agents, on_decision, guard)
    if on_decision is None and all(getattr(a, "blind", False) for a in agents):
        # Agents that need only the number of options (random bots): no decision objects.
        picks = [a.pick for a in agents]
        game.answer_blind(picks)
        try:
            while not game.over:
                seat, count = game.waiting()
                game.choose(picks[seat](count))
        finally:
            game.answer_with(None)
        return game.result()

    def pick(g: Game) -> int:
        d = g.decision()
        if d is None:  # pragma: no cover - a game that is not over always waits for a decision
            raise RuleError("the game stopped without a decision and without ending")
        p = agents[d.seat].choose(g, d) if d.seat is not None else 0
        if on_decision is not None:
            on_decision(d, p)
        return p
    game.answer_with(pick)
    try:
        while not game.over:
            game.choose(pick(game))
    finally:
        game.answer_with(None)
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
            pick = bot_choice(agent, game, d, guard)
        if on_decision is not None:
            on_decision(d, pick)
        with guard():
            game.choose(pick)
    with guard():
        return game.result()


def bot_choice(agent, game: Game, d, guard) -> int:
    """A bot's choice under the time budget. The search bot out of time is said as its own (its
    budget is too large for this game), not as the rule it happened to be running."""
    from .budget import SECONDS, OutOfTime

    try:
        with guard():
            return agent.choose(game, d)
    except OutOfTime:
        if getattr(agent, "name", None) != "mcts":
            raise
        raise RuleError(f"the search bot of seat {d.seat + 1} took more than {SECONDS:g} seconds of "
                        "processor time to decide (the engine's time budget): give it a smaller budget, "
                        "e.g. mcts:100") from None
