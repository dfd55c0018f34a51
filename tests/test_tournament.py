"""Heat's tournament mode (variant `tournament`) as a whole: races that end with it alone and with
each module (and the modules' variants) on every track, with random and greedy bots; no step-1
question; the mistake's random card; the greedy bot ahead of random ones. Each rule is pinned by a
scenario (rulesets/heat/scenarios/tournament-*.yaml, run by tests/test_scenarios.py)."""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

from interpreter.agents.base import RandomAgent
from interpreter.agents.greedy import GreedyAgent
from interpreter.compile import make_compiler
from interpreter.engine.game import Game
from interpreter.lang.diagnostics import Report
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


def test_the_card_a_mistake_up_discards_is_any_of_the_played_cards():
    """Shifting two gears up with no heat: one played card, at random, goes to the discard before
    the reveal; the others move the car, and the gear is the number of cards shown (TM-4)."""
    situation = """
put_at(piece("black"), track, 14, 1)
put_at(piece("blue"), track, 5, 1)
set_pile(engine(seat(1)), [])
set_pile(hand(seat(1)), ["speed_4", "speed_3", "speed_1", "speed_2"])
set_pile(hand(seat(2)), ["speed_1"])
"""
    discarded = Counter()
    for seed in range(1, 16):
        game = Game(_arranged(situation), seed)
        p = game.plan
        _choose(game, "play 3 card(s): shift to gear 3 with no heat to pay, a mistake: "
                      "a random card you play is discarded")
        for label in ("play 4", "play 3", "play 1", "play 1 card(s): stay in gear 1"):
            _choose(game, label)
        play_pile = game.st.piles[p.pile_base["play"]]
        gone = game.st.piles[p.pile_base["discard"]]
        assert len(play_pile) == 2 and len(gone) == 1
        assert game.st.v[p.var_at["gear"]] == 3
        speeds = sorted(p.card_props["speed"][c] for c in play_pile + gone)
        assert speeds == [1, 3, 4]
        discarded[p.card_props["speed"][gone[0]]] += 1
    assert set(discarded) == {1, 3, 4}, discarded


def test_greedy_bots_finish_ahead_of_random_ones_in_tournament_mode():
    places = {"greedy": [], "random": []}
    for seed in (1, 2, 3):
        game, result, _ = race(["tournament"], [], "usa", 4, ["greedy", "random"], seed=seed)
        for s, place in enumerate(result["scores"]):
            places["greedy" if s % 2 == 0 else "random"].append(place)
    assert sum(places["greedy"]) < sum(places["random"]), places
    assert max(places["greedy"]) <= 2, places   # both greedy cars beat both random ones
