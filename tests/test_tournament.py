"""Heat's tournament mode (variant `tournament`) as a whole: races that end with it alone and with
each module (and the modules' variants) on every track, with random and greedy bots; no step-1
question; never two gears without a heat card to pay; the greedy bot ahead of random ones. Each rule
is pinned by a scenario (rulesets/heat/scenarios/tournament-*.yaml, run by tests/test_scenarios.py)."""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

from interpreter.agents.base import RandomAgent
from interpreter.agents.greedy import GreedyAgent
from interpreter.compile import make_compiler
from interpreter.engine.game import Game
from interpreter.base.diagnostics import Report
from interpreter.lang.parser import parse_block
from interpreter.load.ruleset import load_ruleset
from interpreter.session.load import load
from interpreter.session.playing import play

ROOT = Path(__file__).resolve().parents[1]
TRACKS = ["usa", "great-britain", "italy", "france"]


@lru_cache(maxsize=None)
def plan_for(variants: tuple, modules: tuple, track, players: int):
    return load("heat", variants=list(variants), modules=list(modules), track=track).plan(players)


def race(variants, modules, track, players, bots, seed=4):
    plan = plan_for(tuple(variants), tuple(modules), track, players)
    game = Game(plan, seed)
    kinds = [GreedyAgent if b == "greedy" else RandomAgent for b in bots]
    asked = Counter()
    result = play(game, [kinds[s % len(kinds)](f"tm/{s}") for s in range(players)],
                  on_decision=lambda d, pick: asked.update([d.rule]))
    return game, result, asked


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("modules, players", [([], 4), (["garage"], 3), (["legends"], 2), (["weather"], 3)])
def test_races_in_tournament_mode_end_on_every_track(track, modules, players):
    for bots in (["random"], ["greedy"]):
        game, result, asked = race(["tournament"], modules, track, players, bots)
        assert result["ended"]
        places = result["scores"] + [e["score"] for e in result.get("standings", []) if "piece" in e]
        assert sorted(places) == list(range(1, len(places) + 1))   # every car finished, in order
        # nobody is asked to shift in step 1; step 2 asks how many cards
        assert "procedures.shift_gear" not in asked
        assert asked["procedures.play_cards"] > 0


@pytest.mark.parametrize("variants, modules", [
    (["tournament", "garage-advanced"], []),
    (["tournament", "garage-quick-start"], []),
    (["tournament", "legends-pro"], ["legends"]),
    (["tournament"], ["weather", "legends", "garage"]),
])
def test_tournament_mode_combines_with_the_modules_variants(variants, modules):
    for bots in (["random"], ["greedy"]):
        game, result, asked = race(variants, modules, "italy", 2, bots, seed=9)
        assert result["ended"]
        assert "procedures.shift_gear" not in asked


@lru_cache(maxsize=None)
def _arranged(situation: str, players: int = 2):
    """The tournament game compiled with `situation` run after setup (as a scenario's)."""
    report = Report()
    rs = load_ruleset(ROOT / "rulesets" / "heat", ["tournament"], (), report)
    comp = make_compiler(rs, players, report, situation=parse_block(situation, report))
    assert comp is not None, report.render()
    return comp.plan


def _choose(game: Game, label: str) -> None:
    labels = game.decision().labels()
    game.choose(labels.index(label))


@pytest.mark.parametrize("kind", [RandomAgent, GreedyAgent])
def test_no_seat_is_offered_two_gears_without_a_heat_card_to_pay(kind):
    """Engines emptied at the start: step 2 never offers a number of cards two gears away unless the
    engine holds a heat card, so no bot (and no person) ever shifts two gears without paying (TM-4)."""
    situation = """
for s in seats:
    set_pile(engine(s), [])
"""
    checked = 0
    for seed in range(1, 4):
        game = Game(_arranged(situation, 3), seed)
        p = game.plan
        agents = [kind(f"tm4/{seed}/{s}") for s in range(3)]
        while not game.over:
            d = game.decision()
            if "how many cards" in d.prompt:
                seat = d.seat
                gear = game.st.v[p.var_at["gear"] + seat]
                heat = len(game.st.piles[p.pile_base["engine"] + seat])
                counts = [int(label.split()[1]) for label in d.labels()]
                assert all(abs(n - gear) < 2 or heat > 0 for n in counts), (gear, heat, d.labels())
                assert all(abs(n - gear) <= 2 for n in counts)
                checked += heat == 0
            game.choose(agents[d.seat].choose(game, d))
    assert checked > 20   # many decisions were taken with an empty engine


def test_greedy_bots_finish_ahead_of_random_ones_in_tournament_mode():
    places = {"greedy": [], "random": []}
    for seed in (1, 2, 3):
        game, result, _ = race(["tournament"], [], "usa", 4, ["greedy", "random"], seed=seed)
        for s, place in enumerate(result["scores"]):
            places["greedy" if s % 2 == 0 else "random"].append(place)
    assert sum(places["greedy"]) < sum(places["random"]), places
    assert max(places["greedy"]) <= 2, places   # both greedy cars beat both random ones
