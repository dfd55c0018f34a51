"""The web table's API through an in-process client: every game played to its end by people (the
test, choosing through the API) and bots (on the server), the errors a request meets (403, 404,
409, 413, 422, never a traceback), undo, records, replays, and a restart that resumes every table
exactly."""
from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path
import warnings

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from interpreter.web.app import create_app  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

# (Heat with modules, and every game with people alone, are played to the end through the API by
# test_web_isolation.py)
GAMES = [("formula5", [], 3), ("tilerace", ["quick"], 2), ("downforce", [], 3), ("heat", [], 2)]


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "tables.db")) as c:
        yield c


def create(client, game="formula5", seats=("human", "random", "random"), seed=5, **more) -> dict:
    r = client.post("/api/tables", json={"game": game, "seats": list(seats), "seed": seed, **more})
    assert r.status_code == 201, r.text
    return r.json()


def seen(client, table: dict, seat: int = 1, since: int = 0) -> dict:
    r = client.get(f"/api/tables/{table['id']}", params={"token": token(table, seat), "since": since})
    assert r.status_code == 200, r.text
    return r.json()


def token(table: dict, seat: int) -> str:
    return table["seats"][seat - 1]["token"]


def until_mine(client, table: dict, seat: int = 1, seconds: float = 30.0) -> dict:
    """The seat's view once it decides and no bot does (the bots of a secret block decide at the
    same time as the people, on the server), or the game is over."""
    end = time.monotonic() + seconds
    while True:
        v = seen(client, table, seat)
        bots = [s for s in v["to_move"] if v["seats"][s - 1]["kind"] != "human"]
        if v["finished"] or seat in v["to_move"] and not bots:
            return v
        assert time.monotonic() < end, f"the bots did not get to seat {seat}: {v['waiting']}"
        time.sleep(0.005)


def decide(client, table: dict, seat: int, option, **more):
    """The seat's decision (of the decision it is asked now, unless `decision=` names one)."""
    if "decision" not in more:
        more["decision"] = seen(client, table, seat)["decision"]
    return client.post(f"/api/tables/{table['id']}/decide",
                       json={"token": token(table, seat), "option": option, **more})


def play_out(client, table: dict, seat: int = 1, rng=None, limit: int = 3000) -> dict:
    rng = rng or random.Random(0)
    for _ in range(limit):
        v = until_mine(client, table, seat)
        if v["finished"]:
            return v
        assert v["options"] and v["prompt"]
        r = decide(client, table, seat, rng.choice(v["options"])["key"], decision=v["decision"])
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game, modules, players", GAMES, ids=["formula5", "tilerace", "downforce", "heat"])
def test_every_game_plays_to_its_end_through_the_api(client, game, modules, players):
    seats = ["human"] + ["greedy" if game == "heat" else "random"] * (players - 1)
    extras = {"modules": modules} if game == "heat" else {"variants": modules}
    table = create(client, game, seats, seed=11, **extras)
    assert table["seats"][0]["url"] == f"/table/{table['id']}#{token(table, 1)}"
    assert [s["token"] for s in table["seats"][1:]] == [None] * (players - 1)
    end = play_out(client, table)
    assert end["state"] == "finished" and end["problem"] is None
    places = end["result"]["placings"]
    assert sorted(p["seat"] for p in places if p["seat"]) == list(range(1, players + 1))
    assert any(line.startswith("Round ") for line in end["log"])
    # once over, the record is whole, and replays to the same result
    record = client.get(f"/api/tables/{table['id']}/record").text.splitlines()
    head, *decisions, result = [json.loads(line) for line in record]
    assert head["type"] == "game" and head["seed"] == 11 and head["seats"] == seats
    assert result["type"] == "result" and [s + 1 for s in result["winners"]] == end["result"]["winners"]
    assert all("pick" in d and "label" in d for d in decisions)


def test_two_people_at_one_table_each_decide_only_their_own(client):
    table = create(client, "formula5", ["human", "human", "random"], seed=3)
    rng = random.Random(1)
    for _ in range(400):
        a, b = seen(client, table, 1), seen(client, table, 2)
        if a["finished"]:
            break
        movers = a["to_move"]
        mover = movers[0] if movers else None
        if mover not in (1, 2):
            time.sleep(0.005)
            continue
        other = 2 if mover == 1 else 1
        view = a if mover == 1 else b
        assert (b if mover == 1 else a)["options"] == []
        assert (b if mover == 1 else a)["waiting"] == f"waiting for seat {mover}"
        wrong = decide(client, table, other, view["options"][0]["key"])
        assert wrong.status_code == 409 and "not your decision" in wrong.json()["error"]
        assert decide(client, table, mover, rng.choice(view["options"])["key"]).status_code == 200
    assert seen(client, table, 1)["finished"]


def test_requests_that_are_refused_say_why_and_never_show_a_traceback(client):
    table = create(client, "formula5", ["human", "human", "random"], seed=8, seed_public=True)
    tid = table["id"]
    other = create(client, "formula5", ["human", "random"], seed=8)
    v = until_mine(client, table, 1)
    key = v["options"][0]["key"]
    answers = {
        "no token": client.get(f"/api/tables/{tid}"),
        "a wrong token": client.get(f"/api/tables/{tid}", params={"token": "x" * 32}),
        "another table's token": client.get(f"/api/tables/{tid}", params={"token": token(other, 1)}),
        "deciding without a token": client.post(f"/api/tables/{tid}/decide", json={"option": key}),
        "deciding with another table's token": client.post(f"/api/tables/{tid}/decide",
                                                           json={"token": token(other, 1), "option": key}),
        "not this seat's decision": decide(client, table, 2, key),
        "an option not offered": decide(client, table, 1, "zz"),
        "an option that is not a key": decide(client, table, 1, 1),
        "an option's words for its key": decide(client, table, 1, "play red"),
        "a decision already taken": decide(client, table, 1, key, decision="0" * 16),
        "a body too large": client.post(f"/api/tables/{tid}/decide", content=b"{" + b" " * 70_000 + b"}",
                                        headers={"content-type": "application/json"}),
        "a record too large": client.post("/api/replays", content=b"x" * (5 * 1024 * 1024)),
        "a body too large, in chunks": client.post(f"/api/tables/{tid}/decide", headers={
            "content-type": "application/json"}, content=iter([b"{" + b" " * 40_000] * 3 + [b"}"])),
        "a post from another site's page": client.post(f"/api/tables/{tid}/decide", json={
            "token": token(table, 1), "option": key}, headers={"origin": "https://elsewhere.example"}),
        "a record from another site's page": client.post("/api/replays", content=b"{}\n", headers={
            "origin": "http://evil.example", "content-type": "text/plain"}),
        "a file name holding NUL": client.get("/static/x%00.css"),
        "not JSON": client.post(f"/api/tables/{tid}/decide", content=b"{nope",
                                headers={"content-type": "application/json"}),
        "an unknown table": client.get("/api/tables/nosuchtable", params={"token": token(table, 1)}),
        "an unknown game": client.post("/api/tables", json={"game": "nosuchgame", "seats": ["human"]}),
        "a path for a game": client.post("/api/tables", json={"game": "../rulesets/heat",
                                                              "seats": ["human"]}),
        "a path for a variant": client.post("/api/tables", json={"game": "heat", "seats": ["human", "human"],
                                                                 "variants": ["../../x"]}),
        "too many players": client.post("/api/tables", json={"game": "formula5", "seats": ["human"] * 9}),
        "an unknown seat kind": client.post("/api/tables", json={"game": "formula5",
                                                                 "seats": ["human", "cat"]}),
        "a search bot too big": client.post("/api/tables", json={"game": "formula5",
                                                                 "seats": ["human", "mcts:1000000"]}),
        "undo with people at the table": client.post(f"/api/tables/{tid}/undo",
                                                     json={"token": token(table, 1)}),
        "a record of a running game without a token": client.get(f"/api/tables/{tid}/record"),
    }
    status = {what: r.status_code for what, r in answers.items()}
    assert status == {
        "no token": 403, "a wrong token": 403, "another table's token": 403,
        "deciding without a token": 422, "deciding with another table's token": 403,
        "not this seat's decision": 409, "an option not offered": 422, "an option that is not a key": 422,
        "an option's words for its key": 422,
        "a decision already taken": 409, "a body too large": 413, "a record too large": 413, "not JSON": 422,
        "a body too large, in chunks": 413, "a post from another site's page": 403,
        "a record from another site's page": 403, "a file name holding NUL": 404,
        "an unknown table": 404, "an unknown game": 422, "a path for a game": 422,
        "a path for a variant": 422,
        "too many players": 422, "an unknown seat kind": 422, "a search bot too big": 422,
        "undo with people at the table": 409, "a record of a running game without a token": 403,
    }
    for what, r in answers.items():
        body = r.json()
        assert set(body) == {"error"} and body["error"], what
        assert "Traceback" not in r.text and "File \"" not in r.text, what
    assert "the options are" in answers["an option not offered"].json()["error"]
    assert "waiting for seat 1" in answers["not this seat's decision"].json()["error"]
    # nothing refused changed the table
    assert seen(client, table, 1)["decision"] == v["decision"]
    assert decide(client, table, 1, key, decision=v["decision"]).status_code == 200
    assert decide(client, table, 1, key, decision=v["decision"]).status_code == 409


def test_add_ons_that_cannot_be_played_together_are_said_in_players_words(client):
    """Two variants that each load alone but not together: their names as the lobby shows them,
    not the engine's words about a patch (and never a warning taken for the reason)."""
    r = client.post("/api/tables", json={"game": "downforce", "seats": ["human", "random"],
                                         "variants": ["last-card", "novice"]})
    assert r.status_code == 422
    said = r.json()["error"]
    assert said == ("«Novice game» cannot be played together with «Race to the last card (reconstructed)»: "
                    "they change the same rules. Choose one of them."), said
    # one add-on that is wrong on its own is said as it is
    r = client.post("/api/tables", json={"game": "heat", "seats": ["human", "human"], "variants": ["nosuch"]})
    assert r.status_code == 422 and "nosuch" in r.json()["error"] and "together" not in r.json()["error"]


def test_undo_in_a_secret_step_takes_back_only_your_own_commitment(client):
    """Heat's steps 1-2 against two bots: the bots commit at once, side by side with the person;
    the person's undo before the reveal takes back their own shift, not what the bots committed
    (they are not asked again)."""
    table = create(client, "heat", ["human", "greedy", "random"], seed=6)
    first = until_mine(client, table)
    assert first["secret"] and first["to_move"] == [1]   # the bots have committed already
    tables = client.app.state.tables
    live = tables.get(table["id"])
    bots_before = [d for d in live.decisions if d["seat"] != 0]
    assert {d["seat"] for d in bots_before} == {1, 2}
    assert decide(client, table, 1, first["options"][0]["key"]).status_code == 200
    v = until_mine(client, table)
    assert v["secret"] and v["can_undo"]
    r = client.post(f"/api/tables/{table['id']}/undo", json={"token": token(table, 1)})
    assert r.status_code == 200, r.text
    back = r.json()
    assert back["options"] == first["options"] and back["view"] == first["view"]
    assert [d for d in live.decisions if d["seat"] != 0] == bots_before and not \
        [d for d in live.decisions if d["seat"] == 0]
    stored = client.get(f"/api/tables/{table['id']}/record", params={"token": token(table, 1)})
    assert stored.status_code == 200


def test_undo_takes_back_a_persons_last_decision_against_bots(client):
    table = create(client, "formula5", ["human", "random", "random"], seed=21)
    first = until_mine(client, table)
    assert not first["can_undo"]
    chosen = first["options"][-1]
    assert decide(client, table, 1, chosen["key"]).status_code == 200
    v = until_mine(client, table)
    assert v["can_undo"] and v["decision"] != first["decision"]
    r = client.post(f"/api/tables/{table['id']}/undo", json={"token": token(table, 1)})
    assert r.status_code == 200, r.text
    back = r.json()
    assert back["decision"] == first["decision"] and back["to_move"] == [1]
    assert back["options"] == first["options"] and back["view"] == first["view"]
    assert back["log"] == first["log"]


def test_a_restarted_server_resumes_every_table_exactly(tmp_path):
    db = tmp_path / "tables.db"
    rng = random.Random(4)
    with TestClient(create_app(db)) as c:
        people = create(c, "heat", ["human", "human"], seed=77)
        bots = create(c, "formula5", ["human", "greedy", "random"], seed=78)
        for _ in range(9):
            for seat in (1, 2):
                v = seen(c, people, seat)
                if seat in v["to_move"]:
                    assert decide(c, people, seat, rng.choice(v["options"])["key"]).status_code == 200
        for _ in range(3):
            v = until_mine(c, bots)
            assert decide(c, bots, 1, v["options"][0]["key"]).status_code == 200
        before = [seen(c, people, 1), seen(c, people, 2), until_mine(c, bots)]
        record = c.get(f"/api/tables/{people['id']}/record", params={"token": token(people, 1)}).text
    assert len(record.splitlines()) > 10
    # a new server on the same file: every table where it was, the same decision asked the same way
    with TestClient(create_app(db)) as c:
        after = [seen(c, people, 1), seen(c, people, 2), until_mine(c, bots)]
        for b, a in zip(before, after):
            for key in ("decision", "to_move", "view", "sight", "log", "options", "prompt", "round", "state"):
                assert a[key] == b[key], key
        assert c.get(f"/api/tables/{people['id']}/record", params={"token": token(people, 1)}).text == record
        assert play_out(c, bots)["state"] == "finished"
        listed = {t["id"]: t["state"] for t in c.get("/api/tables").json()["tables"]}
        assert listed == {people["id"]: "playing", bots["id"]: "finished"}


def test_every_acknowledged_decision_is_in_the_file_before_the_answer(tmp_path):
    """The store is read by another connection right after each answer: the decision is there."""
    import sqlite3

    db = tmp_path / "tables.db"
    with TestClient(create_app(db)) as c:
        table = create(c, "formula5", ["human", "human"], seed=9)
        for n in range(1, 7):
            (seat,) = seen(c, table, 1)["to_move"]
            key = seen(c, table, seat)["options"][0]["key"]
            assert decide(c, table, seat, key).status_code == 200
            other = sqlite3.connect(db)
            stored = other.execute("SELECT line FROM decisions WHERE table_id = ? ORDER BY n",
                                   (table["id"],)).fetchall()
            other.close()
            assert len(stored) == n and json.loads(stored[-1][0])["seat"] == seat - 1


def test_a_running_tables_record_to_a_seat_holds_its_own_choices_only(client):
    table = create(client, "formula5", ["human", "human"], seed=123456789)
    for _ in range(4):
        (seat,) = seen(client, table, 1)["to_move"]
        assert decide(client, table, seat, seen(client, table, seat)["options"][-1]["key"]).status_code == 200
    lines = [json.loads(x) for x in client.get(f"/api/tables/{table['id']}/record",
                                                params={"token": token(table, 2)}).text.splitlines()]
    head, decisions = lines[0], lines[1:]
    assert head["type"] == "game" and "seed" not in head
    assert "123456789" not in json.dumps(lines)
    assert len(decisions) == 4 and all(d["type"] == "decision" for d in decisions)
    assert {d["seat"] for d in decisions} == {0, 1}
    for d in decisions:
        assert ("pick" in d) == (d["seat"] == 1) and ("label" in d) == (d["seat"] == 1)
    assert "123456789" not in json.dumps(seen(client, table, 2))


def test_a_table_is_replayed_step_by_step(client):
    table = create(client, "formula5", ["human", "random"], seed=31)
    end = play_out(client, table)
    tid = table["id"]
    first = client.get(f"/api/tables/{tid}/replay", params={"at": 0}).json()
    total = first["total"]
    assert first["at"] == 0 and first["decision"]["n"] == 1 and first["decision"]["chose"]
    last = client.get(f"/api/tables/{tid}/replay", params={"at": total}).json()
    assert last["result"]["winners"] == end["result"]["winners"] and last["decision"] is None
    middle = client.get(f"/api/tables/{tid}/replay", params={"at": total // 2, "seat": 2}).json()
    assert middle["seat"] == 2 and middle["view"]["seat"] == 1
    assert client.get(f"/api/tables/{tid}/replay", params={"at": 3, "seat": 9}).status_code == 422
    svg = client.get(f"/api/tables/{tid}/replay.svg", params={"at": 2})
    assert svg.status_code == 200 and svg.text.startswith("<svg")
    assert svg.headers["content-type"] == "image/svg+xml"
    # the record, opened as a file
    record = client.get(f"/api/tables/{tid}/record").content
    opened = client.post("/api/replays", content=record)
    assert opened.status_code == 201, opened.text
    rid = opened.json()["id"]
    assert opened.json()["decisions"] == total
    again = client.get(f"/api/replays/{rid}", params={"at": total // 2, "seat": 2}).json()
    assert again["view"] == middle["view"] and again["log"] == middle["log"]
    assert client.get(f"/api/replays/{rid}/replay.svg", params={"at": 1}).text.startswith("<svg")
    bad = client.post("/api/replays", content=b'{"type": "game"}\n')
    assert bad.status_code == 422 and "game" in bad.json()["error"]


def test_a_running_tables_replay_shows_a_seat_only_what_it_saw(client):
    table = create(client, "formula5", ["human", "human"], seed=41)
    for _ in range(5):
        (seat,) = seen(client, table, 1)["to_move"]
        assert decide(client, table, seat, seen(client, table, seat)["options"][0]["key"]).status_code == 200
    tid = table["id"]
    assert client.get(f"/api/tables/{tid}/replay", params={"at": 0}).status_code == 403
    steps = [client.get(f"/api/tables/{tid}/replay",
                        params={"at": n, "token": token(table, 2), "seat": 1}).json() for n in range(6)]
    for step in steps:
        assert step["seat"] == 2 and step["view"]["seat"] == 1 and step["seed"] is None
        d = step["decision"]
        if d is not None and d["seat"] == 1:
            assert d["chose"] is None and d["prompt"] is None
        elif d is not None:
            assert d["chose"] and d["prompt"]


def test_the_pages_and_the_api_description_are_served(client):
    for path in ("/", "/table/abc", "/replay", "/replay/abc"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        assert "script-src 'self'" in r.headers["content-security-policy"]
    spec = client.get("/openapi.json").json()
    assert {"/api/tables", "/api/tables/{table_id}", "/api/tables/{table_id}/decide",
            "/api/tables/{table_id}/undo", "/api/tables/{table_id}/record", "/api/tables/{table_id}/events",
            "/api/tables/{table_id}/picture.svg"} <= set(spec["paths"])
    new_table = spec["components"]["schemas"]["NewTable"]["properties"]
    assert "season" in new_table and "seasons" in new_table["season"]["description"]
    assert client.get("/static/../app.py").status_code == 404
    assert client.get("/docs").status_code == 404  # FastAPI's page would load scripts from a CDN
    # nothing is fetched from elsewhere: the pages work offline
    from importlib import resources
    for page in resources.files("interpreter.web").joinpath("static").iterdir():
        text = page.read_text(encoding="utf-8")
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, page.name
        assert ".innerHTML" not in text and "insertAdjacentHTML" not in text and "document.write" not in text
    games = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert {"formula5", "heat", "downforce", "tilerace"} <= set(games)
    heat = games["heat"]
    assert {"garage", "weather"} <= {m["id"] for m in heat["modules"]}
    assert "italy" in heat["tracks"] and heat["players"]["min"] >= 1


@pytest.mark.parametrize("search", ["mcts:30", "mcts:30:random:2"])
def test_the_search_bot_decides_in_a_worker_process(client, search):
    table = create(client, "formula5", ["human", search, "random"], seed=17)
    tables = client.app.state.tables
    end = play_out(client, table)
    assert end["state"] == "finished"
    pool = tables.bots.processes
    assert pool is not None, "the search bot never went to a worker"
    assert any(p.pid != os.getpid() for p in pool._processes.values())
    record = [json.loads(x) for x in client.get(f"/api/tables/{table['id']}/record").text.splitlines()]
    assert any(d.get("seat") == 1 for d in record if d["type"] == "decision")


def test_a_killed_server_loses_no_acknowledged_decision(tmp_path):
    """`racecraft serve` as a real process, killed (SIGKILL) right after answering decisions, then
    started again on the same file: every answered decision is there, the game goes on."""
    import signal
    import socket
    import subprocess
    import sys
    import urllib.request

    def free_port() -> int:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]

    def start(port: int):
        proc = subprocess.Popen([sys.executable, "-m", "interpreter.cli", "serve", "--port", str(port),
                                 "--db", str(tmp_path / "tables.db")], stderr=subprocess.PIPE, text=True)
        end = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=1)
                return proc
            except OSError:
                assert proc.poll() is None and time.monotonic() < end, proc.stderr.read()
                time.sleep(0.1)

    def call(port, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    port = free_port()
    proc = start(port)
    try:
        table = call(port, "/api/tables", {"game": "formula5", "seats": ["human", "human"], "seed": 2})
        tokens = [s["token"] for s in table["seats"]]
        answered = []
        for _ in range(7):
            v = call(port, f"/api/tables/{table['id']}?token={tokens[0]}")
            seat = v["to_move"][0]
            mine = call(port, f"/api/tables/{table['id']}?token={tokens[seat - 1]}")
            key = mine["options"][-1]["key"]
            call(port, f"/api/tables/{table['id']}/decide", {"token": tokens[seat - 1], "option": key,
                                                             "decision": mine["decision"]})
            answered.append((seat, next(o["label"] for o in mine["options"] if o["key"] == key)))
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    port = free_port()
    proc = start(port)
    try:
        record = urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables/{table['id']}/record?token={tokens[0]}",
                                        timeout=10).read().decode()
        mine_or_theirs = [json.loads(x) for x in record.splitlines()[1:]]
        assert [(d["seat"] + 1) for d in mine_or_theirs] == [s for s, _l in answered]
        mine = [d["label"] for d in mine_or_theirs if d["seat"] == 0]
        assert mine == [label for s, label in answered if s == 1]
        v = call(port, f"/api/tables/{table['id']}?token={tokens[0]}")
        assert v["state"] == "playing" and v["to_move"] in ([1], [2])
    finally:
        proc.terminate()
        proc.wait(10)


def test_the_example_bot_of_the_docs_plays_a_game_through_the_api(tmp_path):
    """docs/web/example_bot.py, two of them at one table over loopback, each its own seat."""
    import importlib.util
    import threading
    import urllib.request

    from conftest import ROOT, serve_in_thread

    spec = importlib.util.spec_from_file_location("example_bot", ROOT / "docs" / "web" / "example_bot.py")
    bot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bot)
    base, stop = serve_in_thread(tmp_path / "tables.db")
    try:
        body = {"game": "formula5", "seats": ["human", "human", "greedy"], "seed": 4}
        req = urllib.request.Request(base + "/api/tables", headers={"Content-Type": "application/json"},
                                     data=json.dumps(body).encode())
        table = json.loads(urllib.request.urlopen(req, timeout=10).read())
        results: dict = {}

        def seat(s: dict) -> None:
            results[s["seat"]] = bot.play(base + s["url"], 1)

        players = [threading.Thread(target=seat, args=(s,)) for s in table["seats"] if s["token"]]
        for p in players:
            p.start()
        for p in players:
            p.join(60)
        assert set(results) == {1, 2} and results[1] == results[2]
        assert sorted(p["seat"] for p in results[1]["placings"]) == [1, 2, 3]
    finally:
        stop()


def test_a_table_whose_rules_changed_says_so_after_a_restart(tmp_path, monkeypatch):
    import shutil

    from conftest import ROOT

    shutil.copytree(ROOT / "tests" / "fixtures" / "canaries" / "rulesets", tmp_path / "rulesets")
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "tables.db"
    with TestClient(create_app(db)) as c:
        table = create(c, "canaries", ["human", "human"], seed=1)
        v = seen(c, table, 1)
        assert decide(c, table, 1, v["options"][0]["key"]).status_code == 200
    game = tmp_path / "rulesets" / "canaries" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("rounds: 3", "rounds: 4"), encoding="utf-8")
    with TestClient(create_app(db)) as c:
        v = seen(c, table, 2)
        assert v["state"] == "stopped" and "rules have changed" in v["problem"] and v["options"] == []
        assert decide(c, table, 2, "a").status_code == 409
        listed = c.get("/api/tables").json()["tables"]   # the lobby says so too
        assert [(t["state"], t["open_seats"]) for t in listed if t["id"] == table["id"]] == [("stopped", 0)]
    shutil.rmtree(tmp_path / "rulesets" / "canaries")
    with TestClient(create_app(db)) as c:  # the game is gone: the server starts all the same
        r = c.get(f"/api/tables/{table['id']}", params={"token": token(table, 1)})
        assert r.status_code == 410 and "cannot be loaded" in r.json()["error"]


def test_a_finished_table_whose_rules_changed_keeps_its_result_and_record(tmp_path, monkeypatch):
    """A game played to its end, then its rules changed between two runs of the server (a
    designer's playtests): its result and whole record are kept as they were (the record naming
    the rules it was played by), its replay says why it cannot be shown; it was "stopped", its
    result gone."""
    import shutil

    from conftest import ROOT

    shutil.copytree(ROOT / "tests" / "fixtures" / "canaries" / "rulesets", tmp_path / "rulesets")
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "tables.db"
    rng = random.Random(2)
    with TestClient(create_app(db)) as c:
        table = create(c, "canaries", ["human", "random"], seed=1)
        v = seen(c, table, 1)
        while not v["finished"]:
            if v["options"]:
                assert decide(c, table, 1, rng.choice(v["options"])["key"]).status_code == 200
            v = seen(c, table, 1)
        result = v["result"]
        record = c.get(f"/api/tables/{table['id']}/record").text
    game = tmp_path / "rulesets" / "canaries" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("rounds: 3", "rounds: 4"), encoding="utf-8")
    with TestClient(create_app(db)) as c:
        v = seen(c, table, 1)
        assert v["state"] == "finished" and v["result"] == result and v["options"] == []
        assert "rules have changed since it was played" in v["problem"]
        assert c.get(f"/api/tables/{table['id']}/record").text == record
        r = c.get(f"/api/tables/{table['id']}/replay", params={"at": 1})
        assert r.status_code == 409 and "need the rules it was played by" in r.json()["error"]
        listed = c.get("/api/tables").json()["tables"]
        assert [t["state"] for t in listed if t["id"] == table["id"]] == ["finished"]


def test_a_server_on_loopback_answers_only_requests_addressed_to_it(tmp_path):
    app = create_app(tmp_path / "tables.db", hosts=["127.0.0.1", "localhost"])
    with TestClient(app, base_url="http://localhost:8000") as c:
        assert c.get("/api/tables").status_code == 200
        assert c.get("/api/tables", headers={"host": "racecraft.example.com"}).status_code == 400


def test_serve_refuses_a_folder_for_its_database(tmp_path, capsys):
    from interpreter.cli import main

    assert main(["serve", "--db", str(tmp_path)]) == 2
    assert "that is a folder" in capsys.readouterr().err


def test_finished_tables_are_forgotten_in_memory_and_built_again_when_asked_for(client, monkeypatch):
    from interpreter.web import registry as web_tables

    monkeypatch.setattr(web_tables, "KEPT_FINISHED", 1)
    tables = client.app.state.tables
    first = create(client, "formula5", ["random", "random"], seed=1)
    end = time.monotonic() + 20
    while tables.get(first["id"]).state == "playing":
        assert time.monotonic() < end
        time.sleep(0.01)
    second = create(client, "formula5", ["random", "random"], seed=2)
    while tables.get(second["id"]).state == "playing":
        assert time.monotonic() < end
        time.sleep(0.01)
    create(client, "formula5", ["human", "random"], seed=3)
    assert first["id"] not in tables.live
    again = client.get(f"/api/tables/{first['id']}/replay", params={"at": 1000}).json()
    assert again["result"] is not None and first["id"] in tables.live


# ---- seasons ---------------------------------------------------------------------------------------

def finished_season(client, season: dict, seconds: float = 60.0) -> dict:
    """The season's entry in the lobby's list once it is over (its bots play on the server)."""
    end = time.monotonic() + seconds
    while True:
        listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}[season["id"]]
        if listed["state"] != "playing":
            return listed
        assert time.monotonic() < end, "the season did not end"
        time.sleep(0.02)


def test_a_season_of_bots_plays_to_its_end_and_its_save_carries_on_in_the_terminal(client, tmp_path,
                                                                                    capsys):
    from interpreter.cli import main
    from interpreter.lab.series import Series, game_seed, standings_rows

    games = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert [s["id"] for s in games["downforce"]["seasons"]] == ["world-tour"]
    assert {"1961", "custom"} <= {s["id"] for s in games["heat"]["seasons"]}
    assert not games["formula5"]["seasons"]
    season = create(client, "downforce", ["random", "greedy", "random"], seed=3, season="world-tour")
    listed = finished_season(client, season)
    assert listed["state"] == "finished" and listed["season"] == "world-tour" and len(listed["races"]) == 2
    # the season's record is its save, as `championship --save` writes it: played again from its
    # decisions, it ends with the standings and the champions the web table stored
    save = tmp_path / "season.json"
    save.write_text(client.get(f"/api/tables/{season['id']}/record").text)
    resumed = Series.resume(save)
    assert resumed.done
    head, rows = standings_rows(resumed)
    assert listed["result"] == {"champions": [s + 1 for s in resumed.champions()],
                                "standings": {"head": head, "rows": rows}}
    # each game is a table of its own, its record whole once the season is over
    for i, race in enumerate(listed["races"]):
        lines = [json.loads(x) for x in client.get(f"/api/tables/{race}/record").text.splitlines()]
        assert lines[0]["seed"] == game_seed(3, i)
        assert lines[-1]["order"] == resumed.played[i]["result"]["order"]
        # the seats of a secret block commit in any order at the table (bots side by side): the
        # record says who took each decision; the save holds them seat after seat
        again = resumed.new_game(i)
        for d in lines[1:-1]:
            again.choose(d["pick"], d["seat"] if again.collecting else None)
        assert again.over and again.in_turn() == resumed.played[i]["picks"]
    # `championship --resume` carries the save on in the terminal: nothing left but the champion
    capsys.readouterr()
    assert main(["championship", "--resume", str(save)]) == 0
    champion = "Champion: " + " and ".join(f"seat {s} ({listed['seats'][s - 1]})"
                                           for s in listed["result"]["champions"])
    assert capsys.readouterr().out.rstrip().endswith(champion)


def test_a_season_is_refused_what_it_cannot_be(client):
    two = ["human", "random"]
    answers = {
        "an unknown season": {"game": "downforce", "season": "nosuch", "seats": two},
        "a path for a season": {"game": "downforce", "season": "../seasons/world-tour", "seats": two},
        "a game without seasons": {"game": "formula5", "season": "world-tour", "seats": two},
        "a track with a season": {"game": "heat", "season": "1961", "track": "usa", "seats": two},
        "too few players": {"game": "downforce", "season": "world-tour", "seats": ["human"]},
        "no seats": {"game": "downforce", "season": "world-tour", "seats": []},
        "a table of no seats": {"game": "formula5", "seats": []},
    }
    said = {}
    for what, body in answers.items():
        r = client.post("/api/tables", json=body)
        assert r.status_code == 422 and set(r.json()) == {"error"}, what
        said[what] = r.json()["error"]
    assert "its seasons are world-tour" in said["an unknown season"]
    assert "has none" in said["a game without seasons"] and "own tracks" in said["a track with a season"]
    assert "not 1" in said["too few players"]
    # the game's own range, not the server's
    assert said["a table of no seats"] == "Formula 5 is for 2 to 5 players, not none", said
    assert said["no seats"] == "World tour is for 2 to 6 players, not none", said
    assert "/" not in said["an unknown season"]   # no folder of the server named


def test_a_restarted_server_resumes_a_season_exactly(tmp_path):
    from interpreter.web import bots as web_bots

    db = tmp_path / "tables.db"
    rng = random.Random(2)
    with TestClient(create_app(db)) as c:
        season = create(c, "downforce", ["human", "random", "random"], seed=6, season="world-tour")
        v = until_mine(c, season)
        assert v["season"]["race"] == 1 and v["season"]["title"] == v["log"][0] == "game 1 of 2"
        first = v["season"]["table"]
        in_second = []
        while len(in_second) < 6:
            if v["season"]["race"] == 2:
                in_second.append(v)
            r = decide(c, season, 1, rng.choice(v["options"])["key"], decision=v["decision"])
            assert r.status_code == 200, r.text
            v = until_mine(c, season)
        assert not v["finished"] and v["season"]["table"] != first
        # the first game's end and the standings, told in the words of `racecraft championship`
        said = v["season"]["results"][0]["said"]
        assert said.startswith("game 1 over: ") and said in v["log"]
        assert v["log"][v["log"].index(said) + 1] == "game 2 of 2: Lakeshore Bay"
        head, *rows = [v["season"]["standings"]["head"]] + v["season"]["standings"]["rows"]
        assert head == ["", "seat", "g1", "money", "first place"] and len(rows) == 3
        # undo in the second game puts back the game as it was, with what the first handed on
        back = c.post(f"/api/tables/{season['id']}/undo", json={"token": token(season, 1)})
        assert back.status_code == 200, back.text
        for key in ("decision", "view", "options", "log"):
            assert back.json()[key] == in_second[-1][key], key
        # while the season runs the first game discloses no more than a running table: no seed, not
        # what the others chose; and the season's own record waits for its end
        assert c.get(f"/api/tables/{first}/record").status_code == 403
        record = c.get(f"/api/tables/{first}/record", params={"token": token(season, 1)}).text
        lines = [json.loads(x) for x in record.splitlines()]
        assert "seed" not in lines[0] and all("pick" not in d for d in lines[1:] if d["seat"] != 0)
        own = c.get(f"/api/tables/{season['id']}/record", params={"token": token(season, 1)})
        assert own.status_code == 409
        # the search bot's worker builds the game under way as the table has it (what was handed on too)
        race = c.app.state.tables.game_table(season["id"])
        waiting = race.game.deciding()[0]
        web_bots.pick_in_worker(race.id, race.recipe(), web_bots._moves(race.game), "random", "1/1/1",
                                waiting)
        assert web_bots._GAMES[race.id].view(None) == race.game.view(None)
        assert race.recipe()["carried"]["seat"]["money"] != [0, 0, 0]
        before = seen(c, season, 1)
    # a new server on the same file: the first game played again from its decisions, the second to
    # where it was
    with TestClient(create_app(db)) as c:
        after = seen(c, season, 1)
        for key in ("decision", "to_move", "view", "sight", "log", "options", "prompt", "round", "state",
                    "season"):
            assert after[key] == before[key], key
        assert c.get(f"/api/tables/{first}/record", params={"token": token(season, 1)}).text == record
        end = play_out(c, season, rng=rng)
        assert end["state"] == "finished" and end["season"]["said"].startswith("Champion: seat ")
        assert [r["race"] for r in end["season"]["results"]] == [1, 2]
        assert end["log"][-1] == end["season"]["said"]
        assert decide(c, season, 1, "a").status_code == 409
        assert c.get(f"/api/tables/{first}/record").status_code == 200   # whole, now the season is over


def test_a_season_stopped_between_two_games_begins_the_next_after_a_restart(tmp_path, monkeypatch):
    import sqlite3

    from conftest import ROOT

    monkeypatch.chdir(ROOT / "tests" / "fixtures" / "canaries")   # two short games (seasons/two.yaml)
    db = tmp_path / "tables.db"
    with TestClient(create_app(db)) as c:
        season = create(c, "canaries", ["human", "random"], seed=9, season="two")
        v = until_mine(c, season)
        while v["season"]["race"] == 1:
            assert decide(c, season, 1, v["options"][0]["key"], decision=v["decision"]).status_code == 200
            v = until_mine(c, season)
        second = v["season"]["table"]
    # as if the server had stopped right after the first game's last decision: the second not begun
    with sqlite3.connect(db) as con:
        con.execute("DELETE FROM decisions WHERE table_id = ?", (second,))
        con.execute("DELETE FROM races WHERE table_id = ?", (second,))
        con.execute("DELETE FROM tables WHERE id = ?", (second,))
    with TestClient(create_app(db)) as c:
        again = until_mine(c, season)
        assert again["season"]["table"] != second
        for key in ("view", "options", "log", "round", "to_move"):
            assert again[key] == v[key], key
        assert again["season"]["standings"] == v["season"]["standings"] and again["season"]["results"]


def test_a_table_stored_before_chance_was_noted_goes_on_as_it_was_played(tmp_path):
    """New tables note how their games draw chance (`chance: 2`); one stored before (no note) is
    rebuilt with the seats of a secret block borrowing the game's generator, as it was played."""
    import sqlite3

    db = tmp_path / "tables.db"
    with TestClient(create_app(db)) as c:
        new = create(c, "heat", ["human", "human"], seed=4, seed_public=True)
        old = create(c, "heat", ["human", "human"], seed=4, seed_public=True)
        for table in (new, old):
            for seat in (2, 1):   # a secret step: seat 2 first
                v = seen(c, table, seat)
                assert decide(c, table, seat, v["options"][0]["key"]).status_code == 200
    with sqlite3.connect(db) as con:
        setups = {tid: json.loads(text) for tid, text in con.execute("SELECT id, setup FROM tables")}
        assert setups[new["id"]]["chance"] == 2
        del setups[old["id"]]["chance"]
        con.execute("UPDATE tables SET setup = ? WHERE id = ?", (json.dumps(setups[old["id"]]), old["id"]))
    with TestClient(create_app(db)) as c:
        tables = c.app.state.tables
        assert tables.get(new["id"]).game.st.streams is True
        assert tables.get(old["id"]).game.st.streams is False
        for table in (new, old):   # (no chance in Heat's secret steps: the same game either way)
            assert seen(c, table, 1)["view"] == seen(c, new, 1)["view"]
            assert seen(c, table, 1)["options"]


def _children(pid: int) -> set[int]:
    """The processes whose parent is `pid` (Linux: /proc)."""
    out = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.add(int(stat.parent.name))
    return out


def _running(pid: int) -> bool:
    """Whether the process is there and not a zombie waiting for its parent to collect it."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="no /proc here")
def test_the_search_bots_workers_end_with_a_killed_server(tmp_path):
    """A server killed outright (SIGKILL) cannot stop its workers: each sees its parent gone and ends
    (and with them the resource tracker), instead of waiting for work forever."""
    import signal
    import socket
    import subprocess
    import sys
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "interpreter.cli", "serve", "--port", str(port),
                             "--db", str(tmp_path / "tables.db")], stderr=subprocess.DEVNULL)
    try:
        end = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=1)
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < end
                time.sleep(0.1)
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", headers={
            "Content-Type": "application/json"}, data=json.dumps(
            {"game": "formula5", "seats": ["mcts:20", "human"], "seed": 2}).encode())
        table = json.loads(urllib.request.urlopen(req, timeout=10).read())
        token = table["seats"][1]["token"]
        end = time.monotonic() + 60
        while not _children(proc.pid):   # the person plays until the search bot decides, in a worker
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables/{table['id']}?token={token}",
                                        timeout=10) as r:
                told = json.loads(r.read())
            if 2 in told["to_move"]:
                req = urllib.request.Request(
                    f"http://127.0.0.1:{port}/api/tables/{table['id']}/decide", headers={
                        "Content-Type": "application/json"},
                    data=json.dumps({"token": token, "option": told["options"][0]["key"],
                                     "decision": told["decision"]}).encode())
                urllib.request.urlopen(req, timeout=10).read()
            assert time.monotonic() < end and not told["finished"], "the search bot never decided"
            time.sleep(0.1)
        workers = _children(proc.pid)
        assert workers, "no worker process was started"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    end = time.monotonic() + 10
    while any(map(_running, workers)):
        assert time.monotonic() < end, f"workers still running after the server was killed: {workers}"
        time.sleep(0.2)


def test_the_database_is_the_users_alone(tmp_path):
    """It holds the running tables' seeds, so every hand: a folder it makes is 0700, the file 0600."""
    from interpreter.web.store import Store

    path = tmp_path / "new" / "folder" / "tables.db"
    Store(path)
    assert (path.stat().st_mode & 0o777) == 0o600
    assert (path.parent.stat().st_mode & 0o777) == 0o700


def test_a_seed_chosen_for_several_people_is_mixed_unless_it_is_told_to_everybody(client):
    """A creator who could deal the same cards at a table of their own would read the others'
    hands: at a table of several people a chosen seed is mixed with a secret of the server's
    (docs/web.md), unless the creator asks to deal that very seed, which every seat is then told."""
    tables = client.app.state.tables
    one, two = (create(client, "downforce", ["human", "human", "human"], seed=14) for _ in range(2))
    assert one["seed_mixed"] and two["seed_mixed"]
    seeds = {tables.get(t["id"]).setup.seed for t in (one, two)}
    assert len(seeds) == 2 and 14 not in seeds
    assert seen(client, one, 1)["view"] != seen(client, two, 1)["view"]   # two deals
    assert seen(client, one, 2)["seed"] is None
    assert '"seed"' not in client.get(f"/api/tables/{one['id']}/record", params={"token": token(one, 2)}).text
    # alone against bots, the seed chosen is the game's (a designer dealing a game again)
    solo = create(client, "formula5", ["human", "random"], seed=14)
    assert not solo["seed_mixed"] and tables.get(solo["id"]).setup.seed == 14
    # told to everybody: dealt as chosen, and every seat (and its record) says it from the start
    public = create(client, "downforce", ["human", "human", "human"], seed=14, seed_public=True)
    assert not public["seed_mixed"] and tables.get(public["id"]).setup.seed == 14
    assert [seen(client, public, s)["seed"] for s in (1, 2, 3)] == [14, 14, 14]
    record = client.get(f"/api/tables/{public['id']}/record", params={"token": token(public, 2)}).text
    assert json.loads(record.splitlines()[0])["seed"] == 14


def test_a_mixed_seed_is_told_once_the_game_is_over_and_deals_the_game_again(client):
    table = create(client, "formula5", ["human", "human"], seed=3)
    v = seen(client, table, 1)
    while not v["finished"]:
        mover = v["to_move"][0]
        v = decide(client, table, mover, seen(client, table, mover)["options"][0]["key"]).json()
    seed = v["result"]["seed"]
    assert seed is not None and seed == client.app.state.tables.get(table["id"]).setup.seed != 3
    record = client.get(f"/api/tables/{table['id']}/record").text
    assert json.loads(record.splitlines()[0])["seed"] == seed


def test_a_decision_sent_twice_is_taken_once_and_one_must_say_which_it_answers(client):
    table = create(client, "formula5", ["human", "random"], seed=5)
    v = until_mine(client, table, 1)
    key, asked = v["options"][0]["key"], v["decision"]
    first = decide(client, table, 1, key, decision=asked)
    again = decide(client, table, 1, key, decision=asked)   # a double click, a retry
    assert first.status_code == 200 and again.status_code == 409, again.text
    assert "taken already" in again.json()["error"]
    v = until_mine(client, table, 1)
    if not v["finished"]:
        r = client.post(f"/api/tables/{table['id']}/decide", json={"token": token(table, 1), "option": key})
        assert r.status_code == 422 and "`decision`" in r.json()["error"]
        assert seen(client, table, 1)["decision"] == v["decision"]   # nothing taken


def test_a_decision_sent_again_once_another_seat_is_to_move_is_said_taken(client):
    """The retry of a decision that arrives after the table moved on to another seat's decision
    (a bot's quick answer came first, here a second person's turn) is said taken, not "not your
    decision" (the first answer was taken)."""
    table = create(client, "formula5", ["human", "human"], seed=5)
    [first] = seen(client, table, 1)["to_move"]
    v = seen(client, table, first)
    key, asked = v["options"][0]["key"], v["decision"]
    assert decide(client, table, first, key, decision=asked).status_code == 200
    assert seen(client, table, first)["to_move"] == [3 - first]
    again = decide(client, table, first, key, decision=asked)
    assert again.status_code == 409 and "taken already" in again.json()["error"], again.text
    other = decide(client, table, first, key, decision="0123456789abcdef")   # none of the seat's
    assert other.status_code == 409 and "not your decision" in other.json()["error"], other.text


def test_a_database_that_cannot_be_used_is_said_in_words(tmp_path, capsys):
    """A damaged or cut-short database stops `serve` at its start with what to do; a full disk
    answers a request 503 with what happened, and nothing is changed (docs/web.md)."""
    import sqlite3

    from interpreter.cli import main

    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 8)
    assert main(["serve", "--db", str(damaged), "--port", "0"]) == 1
    err = capsys.readouterr().err
    assert "not a sound SQLite database" in err and "--db" in err and "Traceback" not in err
    assert "a bug in Racecraft" not in err

    class FullDisk:
        """The connection, as it answers on a full disk: writing fails."""
        def __init__(self, db):
            self.db = db

        def execute(self, sql, *args):
            if sql.startswith(("INSERT", "UPDATE", "DELETE")):
                raise sqlite3.OperationalError("database or disk is full")
            return self.db.execute(sql, *args)

    with TestClient(create_app(tmp_path / "tables.db")) as c:
        table = create(c)
        store = c.app.state.tables.store
        store.db = FullDisk(store.db)
        r = c.post("/api/tables", json={"game": "formula5", "seats": ["human", "random"]})
        assert r.status_code == 503 and "the disk is full" in r.json()["error"], r.text
        v = until_mine(c, table, 1)
        r = decide(c, table, 1, v["options"][0]["key"])
        assert r.status_code == 503 and seen(c, table, 1)["decision"] == v["decision"]
        store.db = store.db.db
        assert len(c.get("/api/tables").json()["tables"]) == 1


def test_a_server_left_running_limits_what_one_address_opens_and_what_is_in_play(tmp_path):
    from interpreter.web.registry import Limits

    with TestClient(create_app(tmp_path / "tables.db", limits=Limits(max_open=3, per_minute=4))) as c:
        first = [create(c, "formula5", ["human", "random"]) for _ in range(3)]
        r = c.post("/api/tables", json={"game": "formula5", "seats": ["human", "random"]})
        assert r.status_code == 429 and "3 tables in play, its most" in r.json()["error"]
        play_out(c, first[0])      # a finished table frees its place
        assert create(c, "formula5", ["human", "random"])
        r = c.post("/api/tables", json={"game": "formula5", "seats": ["human", "random"]})
        assert r.status_code == 429 and "4 tables opened from your address in the last minute" \
            in r.json()["error"] and "try again in" in r.json()["error"]
        r = c.post("/api/replays", content=b"{}")   # records count too
        assert r.status_code == 429


def test_a_table_nobody_touched_for_long_is_archived_and_plays_on_when_opened(tmp_path):
    """Archived: kept in the database, not rebuilt at the start, listed apart; a seat's link plays on."""
    import sqlite3

    from interpreter.web.registry import Limits

    db = tmp_path / "tables.db"
    with TestClient(create_app(db)) as c:
        old, new = create(c), create(c)
        asked = until_mine(c, old, 1)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE tables SET touched = touched - 40 * 86400 WHERE id = ?", (old["id"],))
    with TestClient(create_app(db, limits=Limits(archive_after=30 * 86400))) as c:
        live = c.app.state.tables.live
        assert old["id"] not in live and new["id"] in live
        states = {t["id"]: t["state"] for t in c.get("/api/tables").json()["tables"]}
        assert states == {old["id"]: "archived", new["id"]: "playing"}
        v = seen(c, old, 1)    # its link opens it: it plays on where it was
        assert v["state"] == "playing" and v["decision"] == asked["decision"]
        assert decide(c, old, 1, v["options"][0]["key"]).status_code == 200
        assert {t["id"]: t["state"] for t in c.get("/api/tables").json()["tables"]}[old["id"]] == "playing"


def test_the_lobby_lists_the_tables_a_page_at_a_time(client):
    made = [create(client)["id"] for _ in range(5)]
    seen_ids, before, pages = [], None, 0
    while True:
        page = client.get("/api/tables", params={"limit": 2, **({"before": before} if before else {})}).json()
        seen_ids += [t["id"] for t in page["tables"]]
        pages += 1
        if not page["more"]:
            break
        before = page["tables"][-1]["created"]
    assert seen_ids == made[::-1] and pages == 3


def test_people_give_their_names_and_every_seat_is_told_them(tmp_path):
    db = tmp_path / "tables.db"
    with TestClient(create_app(db)) as c:
        table = create(c, "formula5", ["human", "human", "random"], names=["Ana", None, None],
                       seed=3, seed_public=True)
        assert [s["name"] for s in seen(c, table, 2)["seats"]] == ["Ana", None, None]
        r = c.post(f"/api/tables/{table['id']}/name", json={"token": token(table, 2), "name": "  Bo   Li "})
        assert r.status_code == 200 and [s["name"] for s in r.json()["seats"]] == ["Ana", "Bo Li", None]
        for bad, why in (("", "some text"), ("x" * 31, "at most 30"), ("Ana\u0007", "letters, digits")):
            r = c.post(f"/api/tables/{table['id']}/name", json={"token": token(table, 1), "name": bad})
            assert r.status_code == 422 and why in r.json()["error"], r.text
        r = c.post("/api/tables", json={"game": "formula5", "seats": ["human", "random"],
                                        "names": [None, "Bot"]})
        assert r.status_code == 422 and "a bot's seat has none" in r.json()["error"]
        waited = []
        v = seen(c, table, 1)
        end = time.monotonic() + 30
        while not v["finished"]:
            people = [s for s in v["to_move"] if s != 3]
            if not people:
                time.sleep(0.005)
            else:
                if v["to_move"] == [2]:
                    waited.append(seen(c, table, 1)["waiting"])
                mine = seen(c, table, people[0])
                decide(c, table, people[0], mine["options"][0]["key"], decision=mine["decision"])
            v = seen(c, table, 1)
            assert time.monotonic() < end
        assert waited and set(waited) == {"waiting for Bo Li (seat 2)"}
        names = {p["seat"]: p["name"] for p in v["result"]["placings"]}
        assert names == {1: "Ana", 2: "Bo Li", 3: None}
    with TestClient(create_app(db)) as c:   # kept across a restart
        assert [s["name"] for s in seen(c, table, 1)["seats"]] == ["Ana", "Bo Li", None]


def test_a_spectator_link_shows_what_the_game_shows_everybody_and_decides_nothing(client):
    table = create(client, "downforce", ["human", "human", "random"], seed=6, seed_public=True)
    watch = table["watch_url"].split("#")[1]
    assert table["watch_url"] == f"/table/{table['id']}#{watch}"
    assert watch not in {token(table, 1), token(table, 2)}
    tid = table["id"]
    watching = client.get(f"/api/tables/{tid}", params={"token": watch}).json()
    one = seen(client, table, 1)
    assert watching["seat"] is None and watching["options"] == [] and watching["decision"] is None
    assert one["view"] != watching["view"]              # seat 1 sees its hand; the spectator no hand
    hands = [p for name, p in watching["view"]["piles"].items() if p.get("cards") is None and p["count"]]
    assert hands, "every hand is hidden from the spectator"
    assert watching["log"] == one["log"]
    r = client.post(f"/api/tables/{tid}/decide", json={"token": watch, "option": "a", "decision": "x"})
    assert r.status_code == 403
    assert client.post(f"/api/tables/{tid}/name", json={"token": watch, "name": "Eve"}).status_code == 403
    assert client.get(f"/api/tables/{tid}/picture.svg", params={"token": watch}).status_code == 200
    record = client.get(f"/api/tables/{tid}/record", params={"token": watch}).text
    assert all("pick" not in json.loads(line) for line in record.splitlines()[1:])
    assert client.get(f"/api/tables/{tid}/replay", params={"token": watch}).status_code == 403
    with client.stream("GET", f"/api/tables/{tid}/events", params={"token": watch}) as events:
        first = next(line for line in events.iter_lines() if line.startswith("data: "))
    assert json.loads(first[6:])["seat"] is None


def test_the_games_say_what_each_add_on_needs_and_allows(client):
    heat = next(g for g in client.get("/api/games").json()["games"] if g["id"] == "heat")
    modules = {m["id"]: m for m in heat["modules"]}
    assert heat["players"] == {"min": 2, "max": 6} and modules["legends"]["players"]["min"] == 1
    events = [v["name"] for v in heat["variants"] if v["name"].startswith("Event ")]
    numbers = [int(e.split()[1].rstrip(":")) for e in events]
    assert numbers == sorted(numbers) and len(numbers) == 10
    assert next(v for v in heat["variants"] if v["id"] == "event-1")["requires"] == ["championship"]
    r = client.post("/api/tables", json={"game": "heat", "seats": ["human"], "modules": ["legends"]})
    assert r.status_code == 201, r.text   # a solo game, as the lobby now offers it


def test_a_seasons_lines_and_standings_say_the_names_people_gave(client):
    season = create(client, "downforce", ["human", "random", "random"], seed=3, season="world-tour",
                    names=["Ana", None, None])
    rng = random.Random(0)
    v = until_mine(client, season, 1)
    while not v["season"]["results"]:   # the first game played to its end
        r = decide(client, season, 1, rng.choice(v["options"])["key"], decision=v["decision"])
        assert r.status_code == 200, r.text
        v = until_mine(client, season, 1)
    s = v["season"]
    assert all("Ana (seat 1)" in r["said"] for r in s["results"])
    assert any(row[1] == "Ana (seat 1)" for row in s["standings"]["rows"])
    assert any(row[1] == "seat 2 (random)" for row in s["standings"]["rows"])


def test_an_open_seat_is_taken_by_whoever_joins_and_kept_across_a_restart(tmp_path):
    """A seat left open has no link at creation; the lobby lists it; the first person to join takes
    it (with their name), the next is told every seat is taken; the game waits for it meanwhile."""
    db = tmp_path / "tables.db"
    with TestClient(create_app(db)) as c:
        table = create(c, "formula5", ["human", "open", "random"], seed=3)
        assert table["seats"][1] == {"seat": 2, "kind": "open", "token": None, "url": None}
        assert table["join_url"] == f"/?join={table['id']}"
        [listed] = [t for t in c.get("/api/tables").json()["tables"] if t["id"] == table["id"]]
        assert listed["open_seats"] == 1
        v = seen(c, table, 1)
        assert v["seats"][1]["open"] and v["seats"][1]["kind"] == "human"
        bad = c.post(f"/api/tables/{table['id']}/join", json={"name": "\x00"})   # refused: no seat taken
        assert bad.status_code == 422
        joined = c.post(f"/api/tables/{table['id']}/join", json={"name": "Bo"})
        assert joined.status_code == 200 and joined.json()["seat"] == 2
        again = c.post(f"/api/tables/{table['id']}/join", json={})
        assert again.status_code == 409 and again.json() == {"error": "every seat of this table is taken"}
        mine = joined.json()["token"]
        told = c.get(f"/api/tables/{table['id']}", params={"token": mine}).json()
        assert told["seat"] == 2
        assert told["seats"][1] == {"seat": 2, "kind": "human", "name": "Bo", "open": False}
        [listed] = [t for t in c.get("/api/tables").json()["tables"] if t["id"] == table["id"]]
        assert listed["open_seats"] == 0
    with TestClient(create_app(db)) as c:   # the seat stays taken, by the same link
        assert c.get(f"/api/tables/{table['id']}", params={"token": mine}).json()["seat"] == 2
        assert c.post(f"/api/tables/{table['id']}/join", json={}).status_code == 409


def test_the_creator_gives_a_lost_seat_link_anew_and_the_old_one_stops(tmp_path):
    """The creator's token (given once, at creation) gives a person's seat a new link: the old one
    is refused from then on, also after a restart; the spectator link and the game are unchanged.
    At a season's table the new link plays every game of the season."""
    db = tmp_path / "tables.db"
    with TestClient(create_app(db)) as c:
        table = create(c, "formula5", ["human", "human"], seed=2, seed_public=True)
        tid, old, creator = table["id"], token(table, 2), table["creator_token"]
        assert table["manage_url"] == f"/?manage={tid}#{creator}"
        watch = table["watch_url"].split("#")[1]
        before = c.get(f"/api/tables/{tid}", params={"token": watch}).json()
        refused = {
            "no creator": c.post(f"/api/tables/{tid}/seats/2/link", json={"creator": "x" * 32}),
            "a seat's token": c.post(f"/api/tables/{tid}/seats/2/link", json={"creator": token(table, 1)}),
            "a seat that is not there": c.post(f"/api/tables/{tid}/seats/3/link", json={"creator": creator}),
            "the seats without the creator": c.get(f"/api/tables/{tid}/seats"),
        }
        assert {k: r.status_code for k, r in refused.items()} == {
            "no creator": 403, "a seat's token": 403, "a seat that is not there": 422,
            "the seats without the creator": 403}
        assert [s["seat"] for s in c.get(f"/api/tables/{tid}/seats", params={"creator": creator})
                .json()["seats"]] == [1, 2]
        made = c.post(f"/api/tables/{tid}/seats/2/link", json={"creator": creator}).json()
        new = made["token"]
        assert made == {"seat": 2, "token": new, "url": f"/table/{tid}#{new}"} and new != old
        assert c.get(f"/api/tables/{tid}", params={"token": old}).status_code == 403
        assert c.get(f"/api/tables/{tid}", params={"token": new}).json()["seat"] == 2
        assert c.get(f"/api/tables/{tid}", params={"token": watch}).json()["view"] == before["view"]
    with TestClient(create_app(db)) as c:
        assert c.get(f"/api/tables/{tid}", params={"token": old}).status_code == 403
        assert c.get(f"/api/tables/{tid}", params={"token": new}).json()["seat"] == 2
        assert c.get(f"/api/tables/{tid}", params={"token": watch}).status_code == 200
        season = create(c, "downforce", ["human", "open", "random"], seed=6, season="world-tour")
        joined = c.post(f"/api/tables/{season['id']}/join", json={}).json()
        renewed = c.post(f"/api/tables/{season['id']}/seats/2/link",
                         json={"creator": season["creator_token"]}).json()
        game = seen(c, season, 1)["season"]["table"]   # the game under way: a table of its own
        assert c.get(f"/api/tables/{game}", params={"token": renewed["token"]}).json()["seat"] == 2
        assert c.get(f"/api/tables/{season['id']}", params={"token": joined["token"]}).status_code == 403


def test_no_request_of_odd_values_is_answered_with_a_server_error(tmp_path):
    """Each endpoint given values of the wrong kind, empty, huge or absent: refused with a 4xx that
    says why (or answered), never a 5xx."""
    odd = [None, "", "x", -1, 10**20, [], {}, "a" * 300, 1.5]
    with TestClient(create_app(tmp_path / "t.db"), raise_server_exceptions=False) as c:
        t = create(c, "formula5", ["human", "open", "random"])
        s = create(c, "downforce", ["human", "random"], season="world-tour")
        tid, sid, tok = t["id"], s["id"], token(t, 1)
        asked = 0
        for v in odd:
            for method, path, kw in [
                    ("GET", f"/api/tables/{tid}", {"params": {"token": tok, "since": v}}),
                    ("GET", f"/api/tables/{tid}/replay", {"params": {"at": v, "token": tok}}),
                    ("GET", f"/api/tables/{tid}/replay", {"params": {"at": 1, "seat": v, "token": tok}}),
                    ("GET", f"/api/tables/{tid}/picture.svg", {"params": {"token": v}}),
                    ("GET", "/api/tables", {"params": {"limit": v, "before": v}}),
                    ("POST", f"/api/tables/{tid}/join", {"json": {"name": v}}),
                    ("POST", f"/api/tables/{tid}/seats/{v}/link", {"json": {"creator": t["creator_token"]}}),
                    ("GET", f"/api/tables/{v}/seats", {"params": {"creator": v}}),
                    ("POST", f"/api/tables/{tid}/name", {"json": {"token": tok, "name": v}}),
                    ("POST", f"/api/tables/{tid}/decide",
                     {"json": {"token": tok, "option": v, "decision": v}}),
                    ("POST", "/api/tables", {"json": {"game": "formula5", "seats": v}}),
                    ("POST", "/api/tables", {"json": {"game": "heat", "seats": ["human"] * 2, "seed": v,
                                                      "track": v, "names": v}}),
                    ("GET", f"/api/tables/{sid}/record", {"params": {"token": v}}),
                    ("GET", f"/api/replays/{v}", {"params": {"at": v}}),
                    ("POST", f"/api/tables/{sid}/undo", {"json": {"token": v}})]:
                r = c.request(method, path, **kw)
                asked += 1
                assert r.status_code < 500, (method, path, kw, r.status_code, r.text[:300])
                if r.status_code >= 400:
                    assert set(r.json()) == {"error"} and r.json()["error"], (path, r.text)
        assert asked == 15 * len(odd)


def test_a_seed_past_what_a_browser_reads_exactly_is_taken_as_typed_and_told_in_digits(client):
    """A page reads a JSON number past 2**53 rounded (it showed 2923996178424279000 for
    2923996178424278890): the lobby sends the seed as the digits typed, and a table tells it as
    digits too (`seed_text`), in its view and its result."""
    big = "2923996178424278890"
    table = create(client, "formula5", ["human", "random"], seed=big, seed_public=True)
    view = seen(client, table, 1)
    assert view["seed"] == int(big) and view["seed_text"] == big
    rng = random.Random(3)
    while not view["finished"]:
        if view["options"]:
            assert decide(client, table, 1, rng.choice(view["options"])["key"]).status_code == 200
        view = seen(client, table, 1)
    assert view["result"]["seed_text"] == big


def test_a_track_the_game_has_not_is_refused_in_words_without_the_servers_folders(client):
    r = client.post("/api/tables", json={"game": "formula5", "seats": ["human", "random"],
                                         "track": "nowhere"})
    assert r.status_code == 422, r.text
    said = r.json()["error"]
    assert "no track `nowhere` for formula5: its tracks are monza" in said and "/" not in said, said


def test_a_request_that_is_no_json_or_lacks_a_field_says_so_in_words(client):
    table = create(client, "formula5", ["human", "random"])
    r = client.post(f"/api/tables/{table['id']}/decide", content=b"not json",
                    headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"] == ("the request is not valid: the body is not JSON "
                                                          "(a JSON object is asked for)"), r.text
    r = client.post(f"/api/tables/{table['id']}/decide", json={"option": "a"})
    assert r.status_code == 422 and "token: is missing" in r.json()["error"], r.text


def test_a_seat_no_table_has_is_refused_naming_what_a_seat_may_be(client):
    r = client.post("/api/tables", json={"game": "formula5", "seats": ["human", "dragon"]})
    said = r.json()["error"]
    assert r.status_code == 422 and said.startswith("unknown seat `dragon`: a web table's seat is human, "
                                                    "open (a person who joins), random, greedy or mcts"), said
    assert "learned" not in said, said


FORCED_GAME = """\
# authored for tests/test_web.py (not from any rulebook): in a secret step, seat 2 has one card
game:
  id: forced
  name: Forced
  players: {min: 2, max: 2}
include:
  - cards.yaml
piles:
  deck: {of: seat, visible: nobody}
  hand: {of: seat, visible: owner}
  played: {of: seat, visible: all}
state:
  score: {of: seat}
setup: |
  for s in seats:
      draw 3 - s.number from deck(s) to hand(s)
phases:
  - id: play
    order: "[seat(1)]"
    turn: leader
    steps:
      - id: commit
        do: |
          simultaneously for s in seats:
              choose "Play a card in secret" by s:
                  option "play {c}" for c in hand(s):
                      move c to played(s) face down
          for s in seats:
              for c in cards(played(s)):
                  s.score += c.value
    rounds: 1
result:
  rank: "seat.score"
"""
FORCED_CARDS = """\
source: "authored for tests/test_web.py (not printed data)"
cards:
  - {id: low, name: "low", count: 1, per_seat: true, starts_in: deck, props: {value: 1}}
  - {id: high, name: "high", count: 1, per_seat: true, starts_in: deck, props: {value: 2}}
"""


def test_a_person_with_one_option_in_a_secret_step_is_shown_deciding_until_the_reveal(tmp_path, monkeypatch):
    """Seat 2 holds one card in a secret step, so its part is taken for it at once: the others are
    told it is still deciding until the reveal (else they would learn it had no choice); its own
    page says whom it waits for."""
    folder = tmp_path / "rulesets" / "forced"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(FORCED_GAME, encoding="utf-8")
    (folder / "cards.yaml").write_text(FORCED_CARDS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with TestClient(create_app(tmp_path / "tables.db")) as c:
        table = create(c, "forced", ["human", "human"], seed=1)
        live = c.app.state.tables.get(table["id"])
        assert live.game.deciding() == [0] and live.game.unasked() == [1]   # what the engine knows
        first = seen(c, table, 1)
        assert first["secret"] and first["to_move"] == [1, 2] and len(first["options"]) == 2
        second = seen(c, table, 2)
        assert second["to_move"] == [1, 2] and second["options"] == []
        assert second["waiting"] == "waiting for seat 1"
        r = decide(c, table, 2, "a")
        assert r.status_code == 409 and r.json()["error"] == "it is not your decision: waiting for seat 1"
        assert decide(c, table, 1, first["options"][0]["key"]).status_code == 200
        assert seen(c, table, 2)["finished"]
