"""Heat's Garage module: the card data, the draft and the quick start, races that end with every
kind of bot on every track, and modules and variants that extend the base game without restating it.

Each symbol's rule is pinned by a scenario (rulesets/heat/scenarios/garage-*.yaml, run by
tests/test_scenarios.py); these tests look at the module as a whole.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from interpreter.agents.base import RandomAgent
from interpreter.agents.greedy import GreedyAgent
from interpreter.engine.game import Game
from interpreter.session.load import load
from interpreter.session.playing import play

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "heat" / "upgrades.yaml"
TRACKS = ["usa", "great-britain", "italy", "france"]


def upgrades_of(game: Game, seat: int) -> list[str]:
    """The card types of a seat's cards that come from the upgrade box."""
    p = game.plan
    piles = [p.pile_base[name] + seat for name in ("deck", "hand", "discard", "play")]
    return [p.card_types[p.card_type[c]] for pile in piles for c in game.st.piles[pile]
            if p.card_props["level"][c] is not None]


@pytest.mark.skipif(not DATA.is_file(), reason="the printed data is not beside the project")
def test_the_cards_are_the_data_files_base_box_cards():
    data = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    cards = yaml.safe_load((ROOT / "cards" / "heat" / "upgrades.yaml").read_text(encoding="utf-8"))["cards"]
    by_type = {int(c["id"].rsplit("_", 1)[1]): c for c in cards}
    for level, key in (("basic", "basic_upgrades"), ("advanced", "advanced_upgrades")):
        printed = data[key]
        assert sum(c["copies"] for c in printed) == (34 if level == "basic" else 62)
        for c in printed:
            ours = by_type[c["bga_type"]]
            props = ours["props"]
            assert (ours["count"], props["level"]) == (c["copies"], level)
            if c.get("heat_card"):
                assert props["kind"] == "heat"
                continue
            assert props.get("symbols", {}) == c["symbols"], c
            if isinstance(c["speed"], list):
                assert (props["speed"], props["speeds"]) == (0, c["speed"])
            else:
                assert props["speed"] == c["speed"] and "speeds" not in props
    assert len(cards) == 16 + 1 + 30 + 1  # no expansion card


@pytest.mark.parametrize("players", [2, 6])
def test_the_draft_gives_each_car_three_upgrades_and_no_starting_upgrade(players):
    plan = load("heat", modules=["garage"]).plan(players)
    game = Game(plan, 7)
    bots = [RandomAgent(s) for s in range(players)]
    picks = 0
    while game.decision().rule == "procedures.draft_rounds":
        d = game.decision()
        assert len(set(d.labels())) == len(d.labels()) >= 1
        game.choose(bots[d.seat].choose(game, d))
        picks += 1
    assert picks == 3 * players
    for s in range(players):
        mine = upgrades_of(game, s)
        assert len(mine) == 3, mine
        assert not any(t.startswith("upgrade_") for t in mine)
        assert all(plan.card_props["level"][c] == "basic" for c in range(len(plan.card_type))
                   if plan.card_types[plan.card_type[c]] in mine)
    # the markets: 3 rounds of (players + 3) cards, the rest left the game
    out = plan.pile_base["upgrades_out"]
    assert len(game.st.piles[out]) == 3 * (players + 3) - 3 * players


def test_the_quick_start_deals_three_basic_upgrades_without_a_draft():
    plan = load("heat", variants=["garage-quick-start"]).plan(3)
    game = Game(plan, 2)
    assert game.decision().rule != "procedures.draft_rounds"
    for s in range(3):
        assert len(upgrades_of(game, s)) == 3


def test_the_advanced_variant_shuffles_both_levels_into_the_draft():
    plan = load("heat", variants=["garage-advanced"]).plan(2)
    game = Game(plan, 1)
    pool = game.st.piles[plan.pile_base["upgrades"]] + game.st.piles[plan.pile_base["market"]]
    levels = {plan.card_props["level"][c] for c in pool}
    assert levels == {"basic", "advanced"}
    assert len(pool) == 34 + 62


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("players, bots", [(2, "greedy"), (6, "random")])
def test_races_with_the_garage_end_on_every_track(track, players, bots):
    plan = load("heat", modules=["garage"], track=track).plan(players)
    game = Game(plan, 11)
    kind = GreedyAgent if bots == "greedy" else RandomAgent
    result = play(game, [kind(f"garage/{s}") for s in range(players)])
    assert result["ended"]
    assert sorted(result["scores"]) == list(range(1, players + 1))  # every car finished, in order


def test_the_module_combines_with_the_handicap_variant():
    plan = load("heat", variants=["handicap"], modules=["garage"]).plan(2)
    game = Game(plan, 3)
    rules = []
    while not game.over and len(rules) < 20:
        d = game.decision()
        rules.append(d.rule)
        game.choose(0)
    assert "procedures.draft_rounds" in rules and "setup" in rules


def _blocks(data) -> list[str]:
    """Every multi-line rule text of a YAML document, its lines stripped."""
    out = []
    if isinstance(data, dict):
        for v in data.values():
            out += _blocks(v)
    elif isinstance(data, list):
        for v in data:
            out += _blocks(v)
    elif isinstance(data, str) and "\n" in data.strip():
        out.append("\n".join(line.strip() for line in data.strip().splitlines()))
    return out


@pytest.mark.parametrize("patch_file", sorted((ROOT / "rulesets" / "heat").glob("modules/*.yaml"))
                         + sorted((ROOT / "rulesets" / "heat").glob("variants/*.yaml")),
                         ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_no_module_or_variant_restates_a_rule_of_the_base_game(patch_file):
    """No two lines in a row of a module's or variant's rules are lines of the base game's rules
    (comments aside): it extends the base game, it does not copy it."""
    base = yaml.safe_load((ROOT / "rulesets" / "heat" / "game.yaml").read_text(encoding="utf-8"))
    module = yaml.safe_load(patch_file.read_text(encoding="utf-8"))

    def pairs(blocks):
        out = set()
        for b in blocks:
            lines = [x for x in b.splitlines() if x and not x.startswith("#")]
            out.update(zip(lines, lines[1:]))
        return out
    shared = pairs(_blocks(base)) & pairs(_blocks(module))
    assert not shared, shared
