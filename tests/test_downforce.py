"""Downforce: the cell-graph board kind, the authored components, whole games and variants.

The rulebook's worked examples are scenarios (rulesets/downforce/scenarios, run by
test_scenarios.py); these tests pin the board kind itself and that games end.
"""
from pathlib import Path

import pytest

from interpreter.agents.base import RandomAgent
from interpreter.agents.greedy import GreedyAgent
from interpreter.boards.cells import Cells, CellsModel
from interpreter.load.structure import check_structure
from interpreter.engine.game import Game
from interpreter.lang.diagnostics import Report
from interpreter.load.ruleset import read_file
from interpreter.run.session import load

ROOT = Path(__file__).resolve().parents[1]


class _Plan:
    n_pieces = 3
    piece_names = ("x", "y", "z")
    shown: dict = {}  # noqa: RUF012 - read only


class _St:
    plan = _Plan()


def _board(**kw):
    """A 2-lane straight of 4 rows (fronts 10..40), cells a1..a4 (lane 1), b1..b4 (lane 2)."""
    cells = []
    for lane, k in ((1, "a"), (2, "b")):
        for r in range(1, 5):
            touch = [f"{k}{r + 1}"] if r < 4 else []
            if lane == 1:
                touch += [f"b{q}" for q in (r - 1, r, r + 1) if 1 <= q <= 4]
            cells.append({"id": f"{k}{r}", "front": 10 * r, "lane": lane, "touch": touch,
                          "grid": r if lane == 1 and r <= 2 else None})
    decl = CellsModel.model_validate({"kind": "cells", "finish": 35, "lines": {"mid": 20},
                                      "cells": cells, **kw})
    kind = Cells("t", 0, decl, _Plan())
    return kind, kind.init(_St())


def test_forward_steps_only_straight_or_diagonal():
    kind, data = _board()
    data[0][0], data[1][0] = kind.index_of["a2"], 20
    assert [kind.ids[j] for j in kind.next_cells(data, 0)] == ["a3", "b3"]   # not b2 (beside), not a1/b1
    data[0][1] = kind.index_of["a3"]
    assert [kind.ids[j] for j in kind.next_cells(data, 0)] == ["b3"]         # a3 taken
    data[0][2] = kind.index_of["b3"]
    assert kind.next_cells(data, 0) == []                                      # blocked


def test_diagonal_between_two_pieces_is_allowed():
    kind, data = _board()
    data[0][0] = kind.index_of["a1"]
    data[0][1] = kind.index_of["a2"]   # ahead
    data[0][2] = kind.index_of["b1"]   # beside
    assert [kind.ids[j] for j in kind.next_cells(data, 0)] == ["b2"]


def test_a_loop_wraps_and_counts_laps():
    cells = [{"id": f"a{r}", "front": 10 * r, "touch": [f"a{r % 4 + 1}"]} for r in range(1, 5)]
    decl = CellsModel.model_validate({"kind": "cells", "lap": 40, "finish": 40, "cells": cells})
    kind = Cells("t", 0, decl, _Plan())
    # across the start line a4 (40) -> a1 (10 of the next lap) is 10 forward; a1 -> a4 is back
    assert kind.ahead[kind.index_of["a4"]] == [(kind.index_of["a1"], 10)]
    assert kind.ahead[kind.index_of["a1"]] == [(kind.index_of["a2"], 10)]


def test_bad_tracks_get_clear_messages():
    bad = {"kind": "cells", "finish": 10, "cells": [{"id": "a", "front": 1, "touch": ["zz"]}]}
    with pytest.raises(ValueError, match="touches `zz`, which is not a cell"):
        CellsModel.model_validate(bad)
    dup = {"kind": "cells", "finish": 10, "cells": [{"id": "a", "front": 1}, {"id": "a", "front": 2}]}
    with pytest.raises(ValueError, match="defined twice"):
        CellsModel.model_validate(dup)


def test_authored_components_say_so():
    for path in [*(ROOT / "tracks" / "downforce").glob("*.yaml"), *(ROOT / "cards" / "downforce").glob("*.yaml")]:
        text = path.read_text(encoding="utf-8")
        assert "AUTHORED" in text, path
    for path in (ROOT / "tracks" / "downforce").glob("*.yaml"):
        report = Report()
        model = check_structure(read_file(path, report), "track", str(path), report)
        assert model is not None, report.render()
        (board,) = model.boards.values()
        kind = Cells(path.stem, 0, board, None)
        assert sorted(kind.grid) == [1, 2, 3, 4, 5, 6]
        assert {"bet1", "bet2", "bet3", "finish"} <= set(kind.lines)
        assert any(not c.rect for c in board.cells) and any(c.rect for c in board.cells)
        assert all(kind.ahead[i] for i in range(len(board.cells))), "every cell leads on"
        svg = kind.svg()
        assert svg.startswith("<svg") and svg.count("<polygon") == len(board.cells)


def test_deck_follows_the_rulebook():
    report = Report()
    data = read_file(ROOT / "cards" / "downforce" / "cards.yaml", report)
    cards = check_structure(data, "cards", "cards.yaml", report).cards
    speed = [c for c in cards if c.props["kind"] == "speed"]
    assert sum(c.count for c in speed) == 42
    eights = [c for c in cards if c.props["kind"] == "eight"]
    assert sorted(c.props["colours"][0] for c in eights) == ["black", "blue", "green", "orange", "red", "yellow"]
    for c in speed:
        cols, vals = c.props["colours"], c.props["values"]
        assert len(cols) == len(vals) and 3 <= len(cols) <= 6
        assert c.id == "-".join(f"{a}{b}" for a, b in zip(cols, vals))
        named = [x for x in cols if x != "white"]
        assert len(set(named)) == len(named)
    assert any("white" in c.props["colours"] for c in speed)


def _play(plan, seed, kinds):
    game = Game(plan, seed)
    bots = [GreedyAgent(f"{seed}/{s}") if k == "greedy" else RandomAgent(f"{seed}/{s}")
            for s, k in enumerate(kinds)]
    while not game.over:
        d = game.decision()
        game.choose(bots[d.seat].choose(game, d))
    return game


@pytest.fixture(scope="module")
def base():
    return load("downforce")


def test_random_games_end(base):
    plan = base.plan(4)
    for seed in range(3):
        game = _play(plan, seed, ["random"] * 4)
        st = game.st
        assert st.g["finished"] >= 1 and st.g["bets_made"] == 3
        # every car's price was paid by its owner
        assert sum(st.values("price")) == sum(st.values("paid"))
        assert all(o is not None for o in st.values("owner"))


def test_greedy_game_ends(base):
    game = _play(base.plan(4), 1, ["greedy", "random", "random", "random"])
    assert game.over and game.result()["winners"]


@pytest.mark.parametrize("variant,players", [("novice", 3), ("two-player", 2), ("world-tour", 3),
                                             ("last-card", 4), ("lakeshore-bay", 4)])
def test_variant_games_end(variant, players):
    plan = load("downforce", [variant], []).plan(players)
    game = _play(plan, 2, ["random"] * players)
    st = game.st
    if variant == "novice":
        assert st.g["finished"] == 1 and st.g["bets_made"] == 0
    if variant == "world-tour":
        assert st.g["race_no"] == 2
    if variant == "lakeshore-bay":
        lake = plan.board_names.index("lakeshore_bay")
        assert any(p is not None for p in st.bd[lake][1])
        assert all(p is None for p in st.bd[plan.board_names.index("river_station")][1])
    if variant == "last-card":
        hands = [st.piles[plan.pile_base["hand"] + s] for s in range(players)]
        assert st.g["finished"] == 0 and not any(hands)


def test_views_show_the_track(base):
    from interpreter.run.view import render_view

    plan = base.plan(3)
    game = Game(plan, 5)
    text = render_view(game.view(0), plan)
    assert "river_station:" in text and "to the finish" in text and "hand(seat 1) (yours)" in text


def test_a_person_never_sees_a_bots_sealed_bid_before_revealing():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "interpreter.cli", "play", "downforce", "--seats",
                          "random,human", "--seed", "1"], check=False, input="1\n" * 12, capture_output=True,
                         text=True, timeout=120, cwd=ROOT).stdout
    assert "seat 1 (random): (decided, hidden until revealed)" in out
    assert "» bids for" in out   # revealed together, afterwards
    bots = [line for line in out.splitlines() if line.startswith("seat 1 (random):")]
    assert bots and not any("(bids" in line for line in bots)


def test_cell_builtins_in_rules():
    from interpreter.engine.compiler import make_compiler
    from interpreter.engine.expr import Scope
    from interpreter.load.ruleset import load_ruleset

    comp = make_compiler(load_ruleset(ROOT / "rulesets" / "downforce"), 3)
    game = Game(comp.plan, 3)

    def value(text):
        fn, _typ = comp.compile_expr_text(text, Scope({}, rule="test"))
        return fn(game.st, {})

    pole = value('cell_at(river_station, cell_grid(river_station, 1))')
    assert value("cell_order(river_station)")[0] == pole
    assert value('cell_to_go(river_station, cell_at(river_station, "a4"))') == 3360 - 240
    assert value('cell_line(river_station, "bet2")') == 1680 and value('cell_line(river_station, "finish")') == 3360
    assert value("cell_grid_size(river_station)") == 6
    assert value('cell_of(river_station, cell_at(river_station, "a4"))') == "a4"
    report = Report()
    comp.report = report
    comp.compile_expr_text('cell_next(river_station, 3)', Scope({}, rule="test"))
    assert not report.ok and "piece" in report.render()


@pytest.mark.parametrize("variant,players,size", [("two-player", 2, 7), ("novice", 4, 3 + 1)])
def test_hands_are_refilled_after_each_card(variant, players, size):
    plan = load("downforce", [variant], []).plan(players)
    game = Game(plan, 4)
    bots = [RandomAgent(f"refill/{s}") for s in range(players)]
    deck, hand = plan.pile_base["deck"], plan.pile_base["hand"]
    checked = 0
    while not game.over:
        d = game.decision()
        st = game.st
        if d.prompt == "Play a speed card" and st.piles[deck] and st.g["finished"] == 0:
            assert len(st.piles[hand + d.seat]) == size
            checked += 1
        game.choose(bots[d.seat].choose(game, d))
    assert checked > 3
