"""Leapfrog, the example game authored for Racecraft (rulesets/leapfrog, docs/leapfrog.md): it
validates clean, every rule of its docs page has a scenario, random and greedy games all end with
one winner, each frog's cards stay its own, and it is played at the terminal and at the web table."""
from __future__ import annotations

import json
import random
import re
import warnings
from pathlib import Path

import pytest

from interpreter.agents.base import RandomAgent
from interpreter.agents.greedy import GreedyAgent
from interpreter.authoring.scenario import run_scenario
from interpreter.cli import main
from interpreter.engine.game import Game
from interpreter.session.load import load
from interpreter.session.playing import play

ROOT = Path(__file__).resolve().parents[1]
RULESET = ROOT / "rulesets" / "leapfrog"


@pytest.fixture(scope="module")
def plans():
    ruleset = load(str(RULESET))   # by its full path (see test_a_game_at_the_web_table)
    return {n: ruleset.plan(n) for n in range(2, 6)}


def test_it_validates_without_a_warning(capsys):
    assert main(["validate", str(RULESET)]) == 0
    said = capsys.readouterr().out
    assert "leapfrog (Leapfrog): ok" in said and "warning" not in said, said


def test_each_rule_of_the_docs_page_has_a_scenario_and_each_passes():
    page = (ROOT / "docs" / "leapfrog.md").read_text(encoding="utf-8")
    rules = sorted({int(n) for n in re.findall(r"^(\d+)\. \*\*", page, re.M)})
    assert rules == list(range(1, len(rules) + 1)) and len(rules) >= 8
    cited = set()
    for path in sorted((RULESET / "scenarios").glob("*.yaml")):
        out = run_scenario(path)
        assert out.passed, out.report.render()
        text = path.read_text(encoding="utf-8")
        cited |= {int(n) for n in re.findall(r"docs/leapfrog\.md, rule (\d+)", text)}
    assert cited == set(rules)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_end_with_one_frog_across(plans, players):
    p = plans[players]
    deck, hand, used, played = (p.pile_base[k] for k in ("deck", "hand", "used", "played"))
    for seed in range(12):
        g = Game(p, seed)
        play(g, [RandomAgent(f"{seed}/{s}") for s in range(players)])
        result = g.result()
        assert g.over and len(result["winners"]) == 1 and 4 <= result["rounds"] <= 20, result
        k = p.board_kinds[0]
        data = g.st.bd[0]
        winner = p.piece_names[k.order(data)[0]]
        assert winner == p.piece_names[result["winners"][0]]   # seat N plays the N-th frog
        assert data[0][k.order(data)[0]] >= k.finish
        # each frog's nine cards are its own, wherever they lie (the pond's remembered by who played)
        mine = [c for c in range(len(p.card_start)) if p.card_start[c] - deck in range(players)]
        for c in mine:
            frog = p.card_start[c] - deck
            where = g.st.where[c]
            assert where in (deck + frog, hand + frog, used + frog, played), (c, where)
        assert len(mine) == 9 * players


def test_greedy_bots_play_it_to_the_end(plans):
    p = plans[3]
    g = Game(p, 3)
    play(g, [GreedyAgent("a"), RandomAgent("b"), GreedyAgent("c")])
    assert g.over and len(g.result()["winners"]) == 1


def test_simulate_and_play_at_the_terminal(capsys):
    # the ruleset by its path (a simulation keeps the game it compiled by what it was named: the
    # docs' transcripts simulate `leapfrog` by name, some of them edited)
    assert main(["simulate", str(RULESET), "--games", "40", "--players", "4", "--seed", "1"]) == 0
    said = capsys.readouterr().out
    assert "completed 40 / 40" in said and "won by one seat" in said and "won_riding" in said
    assert main(["play", "leapfrog", "--seats", "random,greedy,random", "--seed", "7"]) == 0
    said = capsys.readouterr().out
    assert "seat 3 puts the heron on pad" in said or "puts the heron on pad" in said
    assert "Result:" in said and "winner" in said


def test_a_person_sees_the_pond_their_frogs_cards_and_the_heron(plans):
    from interpreter.table.terminal.view import render_view

    g = Game(plans[3], 5)
    while g.decision().seat != 0 or not g.decision().prompt.startswith("green"):
        g.choose(0)
    text = render_view(g.view(0), plans[3])
    assert "Leapfrog · round 1 · heron on pad" in text
    assert "a track of 33 spaces, the finish before 30" in text
    assert "your leap cards of green: " in text and "your deck of green: 6 cards" in text
    assert "marker heron" in text


# ---- the web table: a person and two bots, through the API as the page plays ---------------------

def test_a_game_at_the_web_table(tmp_path, monkeypatch):
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from interpreter.web.app import create_app
    import time

    # away from the repository's folder, the server reads the games by their full paths (a file read
    # by a relative path is remembered by it for error snippets: the docs' transcripts edit copies
    # with the same relative paths)
    monkeypatch.chdir(tmp_path)
    with TestClient(create_app(tmp_path / "tables.db")) as client:
        games = {g["id"]: g for g in client.get("/api/games").json()["games"]}
        assert games["leapfrog"]["players"] == {"min": 2, "max": 5}
        r = client.post("/api/tables", json={"game": "leapfrog", "seats": ["human", "random", "greedy"],
                                             "seed": 11})
        assert r.status_code == 201, r.text
        table = r.json()
        tid, token = table["id"], table["seats"][0]["token"]
        rng = random.Random(0)
        seen_pond = False
        for _ in range(400):
            end = time.monotonic() + 30
            while True:
                v = client.get(f"/api/tables/{tid}", params={"token": token}).json()
                if v["finished"] or v["to_move"] == [1]:
                    break
                assert time.monotonic() < end, v["waiting"]
                time.sleep(0.005)
            if v["finished"]:
                break
            if v["prompt"].startswith("green"):
                mine = {pile["label"]: pile for pile in v["sight"]["mine"]}
                assert mine["leap cards of green"]["count"] >= 1
                seen_pond = True
            option = rng.choice(v["options"])["key"]
            r = client.post(f"/api/tables/{tid}/decide", json={"token": token, "option": option,
                                                             "decision": v["decision"]})
            assert r.status_code == 200, r.text
        assert v["finished"] and v["problem"] is None and seen_pond
        assert len(v["result"]["winners"]) == 1
        assert any("is first across the far bank" in line for line in v["log"])
        picture = client.get(f"/api/tables/{tid}/picture.svg", params={"token": token})
        assert picture.status_code == 200 and 'class="marker"' in picture.text and ">finish<" in picture.text
        record = [json.loads(line) for line in client.get(f"/api/tables/{tid}/record").text.splitlines()]
        assert record[0]["game"] == "leapfrog" and record[-1]["type"] == "result"
