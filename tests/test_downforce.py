"""Downforce: the cell-graph board kind, the authored components, whole games and variants.

The rulebook's worked examples are scenarios (rulesets/downforce/scenarios, run by
test_scenarios.py); these tests pin the board kind itself and that games end.
"""
from pathlib import Path

import pytest

from interpreter.agents.base import RandomAgent
from interpreter.agents.greedy import GreedyAgent
from interpreter.boards.cells.kind import Cells, CellsModel
from interpreter.load.structure import check_structure
from interpreter.engine.game import Game
from interpreter.base.diagnostics import Report
from interpreter.load.ruleset import read_file
from interpreter.picture.svg import board_picture
from interpreter.session.load import load

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
    for path in [*(ROOT / "tracks" / "downforce").glob("*.yaml"),
                 *(ROOT / "cards" / "downforce").glob("*.yaml")]:
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
        assert board.ties == "inner_first"
        assert any(c.tags == ["curve"] for c in board.cells) and any(not c.tags for c in board.cells)
        assert {t for c in board.cells for t in c.tags} == {"curve"}
        assert all(kind.ahead[i] for i in range(len(board.cells))), "every cell leads on"
        svg = board_picture(kind)
        assert svg.startswith("<svg") and svg.count('class="cell"') == len(board.cells)


def test_deck_follows_the_rulebook():
    report = Report()
    data = read_file(ROOT / "cards" / "downforce" / "cards.yaml", report)
    cards = check_structure(data, "cards", "cards.yaml", report).cards
    speed = [c for c in cards if c.props["kind"] == "speed"]
    assert sum(c.count for c in speed) == 42
    eights = [c for c in cards if c.props["kind"] == "eight"]
    assert (sorted(c.props["colours"][0] for c in eights)
            == ["black", "blue", "green", "orange", "red", "yellow"])
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
    from interpreter.table.terminal.view import render_view

    plan = base.plan(3)
    game = Game(plan, 5)
    text = render_view(game.view(0), plan)
    assert "cell a4, lane 1" in text and "lane 3: " in text and "your hand: " in text
    assert "hand(seat" not in text and "river_station" not in text


def test_a_person_never_sees_a_bots_sealed_bid_before_revealing():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "interpreter.cli", "play", "downforce", "--seats",
                          "random,human", "--seed", "1", "--verbose"], check=False, input="a\n" * 12,
                         capture_output=True, text=True, timeout=120, cwd=ROOT).stdout
    # `--verbose` tells no bot's choice at a table with a person (a bid made at the same time as the
    # person's, a power card kept face down); both bids are told together once revealed
    assert "seat 1 (random) chose:" not in out
    told = out.index("bids for the")
    assert out.index("Bid a card face down") < told and out[told:].split("\n")[0].count("seat ") == 2


def _rules(players=3):
    """A compiler of the Downforce rules and `value(text)`: a rule expression's value on a fresh
    game (compiled like a scenario's expectation)."""
    from interpreter.compile import make_compiler
    from interpreter.lang.parser import parse_expr
    from interpreter.load.ruleset import load_ruleset

    report = Report()
    comp = make_compiler(load_ruleset(ROOT / "rulesets" / "downforce", report=report), players, report)
    assert comp is not None, report.render()
    game = Game(comp.plan, 3)

    def value(text):
        expr = parse_expr(text, report)
        expr = comp.ck.checker.expectation(expr)   # typed as a condition: compare to get a value
        assert report.ok, report.render()
        return comp.expectation(expr)(game.st, {})
    return comp, game, value, report


def test_cell_builtins_in_rules():
    _comp, game, value, _report = _rules()
    plan = game.plan
    rs = plan.board_names.index("river_station")
    data = game.st.bd[rs]
    kind = plan.board_kinds[rs]
    pole = kind.grid[1]
    pole_piece = data[0].index(pole)
    assert value('cell_at(river_station, cell_grid(river_station, 1)) == cell_order(river_station)[1]')
    assert kind.order(data)[0] == pole_piece
    assert value('cell_to_go(river_station, cell_at(river_station, "a4")) == 3360 - 240')
    assert value('cell_line(river_station, "bet2") == 1680 and cell_line(river_station, "finish") == 3360')
    assert value("cell_grid_size(river_station) == 6")
    assert value('cell_of(river_station, cell_at(river_station, "a4")) == "a4"')
    assert value('not cell_tagged(river_station, cell_at(river_station, "a4"), "curve")')
    assert value('cell_lane(river_station, cell_at(river_station, "a4")) == 1')
    # a piece off the board: no cell, lane 0, no tag, no progress
    red = 'piece("red")'
    assert value(f'cell_of(lakeshore_bay, {red}) == none and cell_lane(lakeshore_bay, {red}) == 0')
    assert value(f'not cell_tagged(lakeshore_bay, {red}, "curve") and not cell_on(lakeshore_bay, {red})')
    assert value('cell_progress(lakeshore_bay, piece("red")) == 0')


def test_cell_builtins_are_checked():
    from interpreter.lang.parser import parse_expr

    comp, _game, _value, report = _rules()
    comp.ck.checker.expectation(parse_expr('size(cell_next(river_station, 3)) == 0', report))
    assert not report.ok and "piece" in report.render()
    report = Report()
    comp.ck.checker.report = report
    comp.ck.checker.expectation(parse_expr('cell_rect(river_station, piece("red"))', report))
    assert not report.ok and "cell_rect" in report.render()


def test_cell_builtins_fail_with_the_old_messages():
    from interpreter.base.errors import RuleError

    _comp, _game, value, _report = _rules()
    for text, message in [
            ('cell_line(river_station, "bet9") == 0',
             "`cell_line`: board `river_station` has no line `bet9` (lines: bet1, bet2, bet3, finish)"),
            ('cell_at(river_station, "zz") == none', "`cell_at`: board `river_station` has no cell `zz`"),
            ('cell_on(river_station, cell_at(river_station, "a1"))',
             "`cell_on`: a piece was expected, not none")]:
        with pytest.raises(RuleError) as err:
            value(text)
        assert err.value.message == message


def test_ties_outer_first_orders_the_outer_lane_first():
    kind, data = _board(ties="outer_first")
    # x on a2 (lane 1) and y on b2 (lane 2) are equally far; z ahead on a3
    for pc, cell in enumerate(["a2", "b2", "a3"]):
        data[0][pc] = kind.index_of[cell]
        data[1][pc] = kind.front[kind.index_of[cell]]
    assert kind.order(data) == [2, 1, 0]
    inner, _data = _board()
    assert inner.decl.ties == "inner_first"       # the default: lane 1 first
    assert inner.order([data[0][:], data[1][:]]) == [2, 0, 1]
    with pytest.raises(ValueError):
        CellsModel.model_validate({"kind": "cells", "finish": 1, "ties": "random",
                                   "cells": [{"id": "a", "front": 1}]})


def test_cell_tags_are_names():
    def one_cell(**kw):
        return CellsModel.model_validate({"kind": "cells", "finish": 1,
                                          "cells": [{"id": "a", "front": 1, **kw}]})
    assert one_cell(tags=["curve", "pit_2"]).cells[0].tags == ["curve", "pit_2"]
    with pytest.raises(ValueError):
        one_cell(tags=["a curve"])
    with pytest.raises(ValueError, match="rect"):
        one_cell(rect=False)          # the old flag is gone: `tags: [curve]`


def test_the_view_is_data_and_draws_as_before():
    from interpreter.draw.text import Extra

    kind, data = _board()
    st = _St()
    st.bd = [data]
    assert kind.text(kind.view(st, None), {"seat": None, "pieces": {}}) == ["(no pieces)"]
    data[0][0], data[1][0] = kind.index_of["a2"], 20      # x
    data[0][1], data[1][1] = kind.index_of["b2"], 20      # y
    data[1][2] = 40                                        # z: left the board past the finish
    board = kind.view(st, 0)
    assert [p["piece"] for p in board["pieces"]] == ["x", "y"] and board["off"][0]["piece"] == "z"
    assert board["pieces"][0]["next"] == ["a3", "b3"] and board["pieces"][0]["to_go"] == 15
    assert kind.positions(st) == [("x", "cell a2, lane 1"), ("y", "cell b2, lane 2")]
    view = {"seat": 0, "pieces": {"x": {"owner": 1}, "y": {"owner": 2}, "z": {"owner": None}}}
    text = kind.text(board, view)
    assert text[:3] == ["1. x (you): cell a2, lane 1", "2. y (seat 2): cell b2, lane 2",
                        "off the board: z (no player)"]
    # the strip: the lines' marks, then each lane, a car drawn by its place in the lines above
    assert text[3].strip() == "|                       F" and text[-1].startswith("lane 1: ")
    assert "1" in text[-1] and "2" in text[-2] and all(isinstance(t, Extra) for t in text[3:])


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


def test_the_bets_stay_secret_until_the_race_is_scored():
    """«В тайне от других отметьте галочкой на своем листке, на какой из шести болидов вы хотите
    поставить»: what the game says aloud names nobody's bet before the race is scored (it said
    each line's bets of every seat as soon as they were made); the scoring tells them."""
    from interpreter.session.playing import play

    plan = load("downforce").plan(3)
    for seed in range(3):
        game = Game(plan, seed, trace=True)
        play(game, [RandomAgent(f"{seed}/{s}") for s in range(3)])
        lines = [x[2] for x in game.st.trace if x[0] == "say"]
        told = [i for i, line in enumerate(lines) if " bet on " in line]
        before = [line for line in lines[:told[0]] if "bet" in line]
        assert before and all(line.startswith(("every player has made bet", "the leader crosses bet line"))
                              for line in before), before
        # each seat's bets, told as its race is scored
        assert len(told) == 3 and all(": places " in lines[i + 1] for i in told)
