"""The tile race and the tile-grid board kind: geometry, hidden squares, bots, the terminal."""
from pathlib import Path

import pytest

from interpreter.agents.base import RandomAgent
from interpreter.agents.greedy import GreedyAgent
from interpreter.boards.tiles.kind import Tiles
from interpreter.cli import main
from interpreter.engine.game import Game
from interpreter.base.diagnostics import Report
from interpreter.load.ruleset import load_ruleset
from interpreter.session.load import load
from interpreter.session.playing import play
from interpreter.lab.simulate import simulate
from interpreter.table.terminal.view import render_view

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def plan4():
    return load("tilerace").plan(4)


def board(plan) -> Tiles:
    return plan.board_kinds[plan.board_names.index("table")]


def test_layout_labels_neighbours_and_regions(plan4):
    k = board(plan4)
    assert k.n == 29 and k.places == 29
    assert [k.labels[sq] for sq in k.in_region["start"]] == ["A1", "G1", "A5", "G5"]
    assert [k.labels[sq] for sq in k.in_region["pit"]] == ["D3"]
    assert len(k.in_region["track"]) == 24
    b2 = k.by_label["B2"]
    # N, E, S, W: B1, C2, B3, and no square at A2
    assert [k.labels[n] if n else None for n in k.neighbour[b2]] == ["B1", "C2", "B3", None]
    assert k.side(b2, k.by_label["C2"]) == 1 and k.side(b2, k.by_label["D4"]) == -1


def test_turns_rotate_track_and_connect_matching_sides(plan4):
    game = Game(plan4, 1)
    st = game.st
    k = board(plan4)
    for sq in range(1, k.n + 1):
        card = k.card(st, sq)
        assert card is not None
    straight = next(sq for sq in k.in_region["track"]
                    if plan4.card_types[plan4.card_type[k.card(st, sq)]] == "straight")
    assert k.turns(st, straight) == [0, 1]
    assert k.sides(st, straight, 0) == ["N", "S"] and k.sides(st, straight, 1) == ["E", "W"]
    pit = k.in_region["pit"][0]
    assert k.turns(st, pit) == [0] and k.sides(st, pit) == ["N", "E", "S", "W"]
    # a start square's track leads into its corner square, which (face down, unturned) may not meet it
    a1, b1 = k.by_label["A1"], k.by_label["B1"]
    assert k.sides(st, a1) == ["E"]
    st.bd[k.index][0][b1] = 0
    card_b1 = k.card(st, b1)
    want = "W" in k.sides(st, b1, 0)
    assert k.connected(st, a1, b1) == want, plan4.card_types[plan4.card_type[card_b1]]


def test_clone_copies_turns_and_positions(plan4):
    game = Game(plan4, 2)
    twin = game.clone()
    k = board(plan4)
    twin.st.bd[k.index][0][5] = 3
    twin.st.bd[k.index][1][0] = 9
    assert game.st.bd[k.index][0][5] != 3 or game.st.bd[k.index][1][0] != 9
    assert game.st.bd[k.index] is not twin.st.bd[k.index]


def _assert_hidden(game, plan):
    k = board(plan)
    d = game.decision()
    st = d._st if d is not None else game.st
    for seat in [None, *range(plan.n_seats)]:
        view = game.view(seat)
        squares = view["boards"]["table"]["squares"]
        for sq in range(1, k.n + 1):
            info = squares[k.labels[sq]]
            card = k.card(st, sq)
            if not st.up[card]:
                assert info["tile"] is None and info["track"] is None and not info["face_up"]
                assert view["piles"][f"square({sq})"]["cards"] == ["(face down)"]
        text = "\n".join(k.text(view["boards"]["table"], view))
        down_types = {plan.card_types[plan.card_type[k.card(st, sq)]] for sq in range(1, k.n + 1)
                      if not st.up[k.card(st, sq)]}
        up_types = {plan.card_types[plan.card_type[k.card(st, sq)]] for sq in range(1, k.n + 1)
                    if st.up[k.card(st, sq)]}
        for name in down_types - up_types:
            assert name not in text


def test_no_view_shows_a_face_down_square_even_while_swapping(plan4):
    game = Game(plan4, 3)
    bots = [RandomAgent(f"hide/{s}") for s in range(4)]
    swaps = 0
    for _ in range(300):
        if game.over:
            break
        d = game.decision()
        if d.rule == "steps.move" and d.prompt.startswith("swap"):
            swaps += 1
        _assert_hidden(game, plan4)
        game.choose(bots[d.seat].choose(game, d))
    assert swaps > 0


def test_greedy_looks_ahead_on_a_believed_table_not_the_hidden_one(plan4):
    """Two tables that differ only in face-down squares: the greedy bot decides the same."""
    k = board(plan4)
    picks = []
    for arrangement in (0, 1):
        game = Game(plan4, 4)
        for _ in range(4):  # place the cars
            d = game.decision()
            game.choose(0)
        st = game.st
        if arrangement:
            down = [k.base() + sq - 1 for sq in k.in_region["track"] if not st.up[k.card(st, sq)]]
            cards = [st.piles[p][-1] for p in down]
            cards = cards[1:] + cards[:1]
            for p, c in zip(down, cards):
                st.piles[p][-1] = c
                st.where[c] = p
        d = game.decision()
        picks.append(GreedyAgent("same").choose(game, d))
    assert picks[0] == picks[1]


def test_terminal_view_draws_the_grid(plan4):
    game = Game(plan4, 5)
    for _ in range(4):
        game.choose(0)
    text = render_view(game.view(0), plan4)
    assert "A    B    C    D    E    F    G" in text
    assert "░░░" in text and "┼" in text  # face-down squares; the pit stop's crossing
    assert "(you are 1)" in text and "you (car1): heading for the pit stop" in text
    assert "square(1)" not in text  # the squares' piles are drawn in the grid, not listed


def test_squares_driven_read_one_square_and_many_squares(plan4):
    """`unit: [square driven, squares driven]`: the word for 1, and for any other number."""
    game = Game(plan4, 2)
    agent = RandomAgent(1)
    said: dict[int, str] = {}
    while not game.over and not {0, 1, 2} <= set(said):
        for fact in game.view(0)["seat_facts"][0]:
            if "driven" in fact:
                said[int(fact.split()[0])] = fact
        game.choose(agent.choose(game, game.decision()))
    assert said[0] == "0 squares driven" and said[1] == "1 square driven" and said[2] == "2 squares driven"


def test_random_and_greedy_games_end(plan4):
    won = 0
    for seed in range(3):
        game = Game(plan4, seed)
        res = play(game, [GreedyAgent(f"{seed}/{s}") for s in range(4)])
        assert game.over and res["ended"]
        if game.st.g["winner"] is not None:
            won += 1
            assert res["winners"] == [game.st.g["winner"]]
        else:  # a declared draw (stalemate or round limit): every seat shares it
            assert sorted(res["winners"]) == [0, 1, 2, 3]
    assert won >= 2
    stats = simulate("tilerace", 8, 2, 1, jobs=1)
    assert stats["completed"] == 8 and stats["failed"] == 0 and "drawn" in stats


def test_fun_track_variant_finishes():
    plan = load("tilerace", ["fun-track"]).plan(3)
    game = Game(plan, 1)
    res = play(game, [RandomAgent(f"fun/{s}") for s in range(3)])
    driven = game.st.values("driven")
    assert max(driven) >= 3 * 16
    assert [s for s in range(3) if driven[s] == max(driven)] == sorted(res["winners"])


def test_bad_board_declarations_are_diagnosed(tmp_path):
    game = (ROOT / "rulesets" / "tilerace" / "game.yaml").read_text(encoding="utf-8")
    folder = tmp_path / "rulesets" / "broken"
    folder.mkdir(parents=True)
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "tilerace").mkdir()
    (tmp_path / "cards" / "tilerace" / "tiles.yaml").write_text(
        (ROOT / "cards" / "tilerace" / "tiles.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    bad_layout = game.replace('- ".oopoo."', '- ".oopXo."')
    (folder / "game.yaml").write_text(bad_layout, encoding="utf-8")
    report = Report()
    assert load_ruleset(folder, report=report) is None
    assert "`X`" in report.render()
    bad_pile = game.replace("square: {of: table, visible: all}", "square: {of: game, visible: all}")
    (folder / "game.yaml").write_text(bad_pile, encoding="utf-8")
    assert main(["validate", str(folder)]) == 1


def test_render_draws_the_table(tmp_path):
    out = tmp_path / "table.svg"
    assert main(["render", "tilerace", "-o", str(out)]) == 0
    svg = out.read_text(encoding="utf-8")
    assert svg.startswith("<svg") and ">D3<" in svg


MINI = """
game: {id: mini, name: Mini, players: {min: 2, max: 2}}
pieces: {cars: {count: 2}}
boards:
  grid: {kind: ranking, slots: 2}
  t: {kind: tiles, layout: ["oo", "o."], regions: {o: track}, pile: sq, track: track}
piles:
  sq: {of: t}
setup: |
  SETUP
phases:
  - id: p
    order: seats
    steps:
      - id: s
        do: pass
    rounds: 1
result: {rank: "0"}
"""


@pytest.mark.parametrize("setup, message", [
    ("let x = tile_face_up(grid, 1)", "board `grid` is a ranking, not a tile grid"),
    ('tile_flip(t, 1, "yes")', "must be bool"),
    ('tile_put(t, cars[1], tile_square(t, "Z9"))', "has no square `Z9`"),
    ("tile_turn_to(t, 4, 1)", "has squares 1..3, not 4"),
])
def test_tile_built_ins_report_misuse_with_positions(tmp_path, capsys, setup, message):
    folder = tmp_path / "rulesets" / "mini"
    folder.mkdir(parents=True)
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (folder / "game.yaml").write_text(MINI.replace("SETUP", setup), encoding="utf-8")
    assert main(["validate", str(folder)]) == 1
    err = capsys.readouterr().err
    assert message in err and "game.yaml:" in err and "Traceback" not in err


def test_the_victory_tokens_are_counted_as_tokens(plan4):
    """A pile view's `unit:` names what its cards are where they are counted: the pit stop's
    victory tokens read "4 tokens" (they read "4 cards"), one "1 token"; a pile without it still
    counts cards (the web table reads the same words, `sight.Pile.text`)."""
    from interpreter.table.sight import sight

    game = Game(plan4, 3)
    text = render_view(game.view(0), plan4)
    assert "victory tokens at the pit stop: 4 tokens" in text and "4 cards" not in text
    from interpreter.draw.cards import pile_text
    tokens = {"show": "count", "unit": ("token", "tokens")}
    assert pile_text({"cards": None, "count": 1}, None, None, tokens) == "1 token"
    assert pile_text({"cards": None, "count": 3}, None, None, {"show": "count"}) == "3 cards"
    piles = [p for p in sight(game.view(0), plan4).table if p.label == "victory tokens at the pit stop"]
    assert piles and piles[0].text == "4 tokens"
