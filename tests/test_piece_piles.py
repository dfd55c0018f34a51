"""Cards and piles of pieces: cards that start in a pile of each piece (`per_piece`), a piece's
pile refilled from another of the same piece, and piles of pieces shown beside their piece, to
their owner as theirs, on the screen, the web page and in the picture's key."""
from __future__ import annotations

from pathlib import Path

from authored import compiled
from interpreter.agents.base import RandomAgent
from interpreter.compile import compile_ruleset
from interpreter.engine.game import Game
from interpreter.base.diagnostics import Report
from interpreter.load.ruleset import load_ruleset
from interpreter.session.playing import play
from interpreter.table.sight import sight

CARDS = """\
source: "authored for tests/test_piece_piles.py (not printed data)"
cards:
  - {id: e2, name: "2", count: 3, per_piece: riders, starts_in: deck, props: {energy: 2}}
  - {id: e3, name: "3", count: 1, per_piece: riders, starts_in: deck, props: {energy: 3}}
  - {id: e5, name: "5", count: 2, per_piece: [rouleur1], starts_in: deck, props: {energy: 5}}
  - {id: flag, count: 1, starts_in: flags}
"""

GAME = """\
language: 2
game: {id: riders, name: Riders, players: {min: 2, max: 2}}
include:
  - ../../cards/riders/cards.yaml
pieces:
  riders: {count: 2}
  rouleur: {count: 1}
piles:
  deck: {of: piece, visible: nobody, refill_from: used}
  hand: {of: piece, visible: owner}
  used: {of: piece, visible: all}
  flags: {}
state:
  distance: {of: piece}
setup: |
  let k = 0
  for r in riders:
      k += 1
      r.owner = seat(k)
  for r in riders + rouleur:
      shuffle deck(r)
phases:
  - id: race
    order: "riders"
    turn: r
    steps:
      - id: ride
        do: |
          draw 2 from deck(r) to hand(r)
          choose "play":
              option "play {c}" for c in distinct(hand(r)):
                  r.distance += c.energy
                  move c to used(r)
          move cards(hand(r)) to used(r)
    rounds: 4
result:
  rank: "sum([r.distance for r in seat.pieces])"
VIEW"""

VIEW = """\
view:
  piles:
    hand: {label: hand, whose: mine}
    used: {label: spent, whose: all}
"""


def plan(tmp_path: Path, view: str = ""):
    return compiled(tmp_path, "riders", GAME.replace("VIEW", view), 2, cards=CARDS)


def test_cards_start_in_a_pile_of_each_piece_a_selector_names(tmp_path):
    p = plan(tmp_path)
    deck = p.pile_base["deck"]
    types = [sorted(p.card_types[p.card_type[c]] for c, start in enumerate(p.card_start)
                    if start == deck + pc) for pc in range(3)]
    # `riders` is a kind: each of its two pieces has its own; `[rouleur1]` names one piece
    assert types == [["e2", "e2", "e2", "e3"], ["e2", "e2", "e2", "e3"], ["e5", "e5"]]
    assert p.card_start.count(p.pile_base["flags"]) == 1


def test_a_pieces_pile_refills_from_another_of_the_same_piece(tmp_path):
    p = plan(tmp_path)
    g = Game(p, 2)
    play(g, [RandomAgent("a"), RandomAgent("b")])
    # four rounds of two cards from three: each rider's deck ran out and took its own spent cards back
    deck, used = p.pile_base["deck"], p.pile_base["used"]
    for pc in range(2):
        mine = g.st.piles[deck + pc] + g.st.piles[used + pc] + g.st.piles[p.pile_base["hand"] + pc]
        assert sorted(p.card_start[c] for c in mine) == [deck + pc] * 4


def test_piles_of_pieces_are_shown_beside_their_piece(tmp_path):
    from interpreter.draw.text import table_lines

    for view in ("", VIEW):
        p = plan(tmp_path, view)
        g = Game(p, 3)
        while g.st.g["round"] < 2 or g.decision().seat != 0:
            g.choose(0)
        seen = sight(g.view(0), p)
        mine = [x.label for x in seen.mine]
        assert "hand of riders1" in mine and not any("riders2" in m for m in mine)
        riders2 = next(pc for s in seen.seats for pc in s.pieces if pc.name == "riders2")
        # (a game without `view:` shows every pile a seat may see, its deck by its size)
        assert [x.label for x in riders2.piles] == (["spent"] if view else ["deck", "used"])
        if view:
            lines = table_lines(g.view(0), p)
            assert any(line.startswith("your hand of riders1: ") for line in lines), lines
            assert any(line.startswith("spent of riders2 (seat 2): ") for line in lines), lines
            assert not any("hand of riders2" in line for line in lines)
    # a label that says `your` already is not said twice (it read "your your hand of riders1")
    p = plan(tmp_path, VIEW.replace("{label: hand,", "{label: your hand,"))
    g = Game(p, 3)
    while g.st.g["round"] < 2 or g.decision().seat != 0:
        g.choose(0)
    lines = table_lines(g.view(0), p)
    assert any(line.startswith("your hand of riders1: ") for line in lines), lines
    assert not any("your your" in line for line in lines), lines


def test_a_pieces_pile_beside_its_seat_is_the_seats_named_by_the_piece_where_it_has_several(tmp_path):
    """`beside: seat`: a piece's pile with its owner's piles, as a seat's pile would be (`your hand`,
    on the seat's line), named by its piece only where the seat has several pieces."""
    from interpreter.draw.text import table_lines

    beside = VIEW.replace("whose: mine}", "whose: mine, beside: seat}").replace(
        "whose: all}", "whose: all, beside: seat}")
    p = plan(tmp_path, beside)
    g = Game(p, 3)
    while g.st.g["round"] < 2 or g.decision().seat != 0:
        g.choose(0)
    lines = table_lines(g.view(0), p)
    assert any(line.startswith("your hand: ") for line in lines), lines
    assert any(line.startswith("seat 2 (riders2): spent: ") for line in lines), lines
    assert not any(" of riders" in line for line in lines), lines
    seen = sight(g.view(0), p)
    assert [x.label for x in seen.mine] == ["hand"]
    assert [x.label for x in seen.seats[1].piles] == ["spent"]
    assert all(not pc.piles for s in seen.seats for pc in s.pieces)
    # a seat of two pieces (seat 1 also drives the rouleur): each named by its piece
    plan(tmp_path / "two", beside)
    folder = tmp_path / "two" / "rulesets" / "riders"
    (folder / "game.yaml").write_text(
        GAME.replace("VIEW", beside).replace("  for r in riders + rouleur:\n",
                                             "  for r in rouleur:\n      r.owner = seat(1)\n"
                                             "  for r in riders + rouleur:\n"), encoding="utf-8")
    report = Report()
    rs = load_ruleset(folder, report=report)
    assert rs is not None, report.render()
    two = compile_ruleset(rs, 2, report)
    assert two is not None, report.render()
    g = Game(two, 3)
    while g.st.g["round"] < 2 or g.decision().seat != 0:
        g.choose(0)
    lines = table_lines(g.view(0), two)
    assert any(line.startswith("your hand of riders1: ") for line in lines), lines
    assert any(line.startswith("your hand of rouleur1: ") for line in lines), lines
    assert [x.label for x in sight(g.view(0), two).mine] == ["hand of riders1", "hand of rouleur1"]


def test_a_card_remembers_who_played_it(tmp_path):
    """State of each card (`of: card`): who placed a bet, who played a card; read and set like a
    piece's (`c.played_by = s`), none until set."""
    from test_modules import MINI, mini_project

    text = MINI.replace("  score: {of: seat}\n", "  score: {of: seat}\n  played_by: {of: card, type: seat}\n")
    text = text.replace("                  move c to discard face up\n",
                        "                  move c to discard face up\n                  c.played_by = s\n")
    text = text.replace('result:\n  rank: "seat.score"',
                        'result:\n  rank: "size([c for c in discard if c.played_by == seat])"')
    report = Report()
    rs = load_ruleset(mini_project(tmp_path, text), report=report)
    p = compile_ruleset(rs, 2, report)
    assert p is not None, report.render()
    g = Game(p, 1)
    while not g.over:
        g.choose(0)
    by = g.st.values("played_by")
    assert sorted(x for x in by if x is not None) == [0, 0, 1, 1]
    assert g.result()["scores"] == [2, 2]
    # a card's variable cannot share a name with a property of the cards
    clash = text.replace("played_by: {of: card, type: seat}", "points: {of: card}")
    report = Report()
    rs = load_ruleset(mini_project(tmp_path / "clash", clash), report=report)
    assert rs is None or compile_ruleset(rs, 2, report) is None
    assert any(d.code == "E118" and "`points` is a property of the cards" in d.message for d in report.items)


def test_a_pile_refills_from_several_piles_shuffled_in_together(tmp_path):
    """`refill_from: [used, tired]`: a rider's empty deck takes back its played cards and the ones
    it put aside, together (only one pile could be named: a designer's deck of energy cards with a
    recycle pile and a discard needed the two made one)."""
    text = GAME.replace("VIEW", "").replace(
        "deck: {of: piece, visible: nobody, refill_from: used}",
        "deck: {of: piece, visible: nobody, refill_from: [used, tired]}\n  tired: {of: piece}").replace(
        "  distance: {of: piece}", "  distance: {of: piece}\n  drawn: {of: piece}").replace(
        "          draw 2 from deck(r) to hand(r)\n",
        "          draw 2 from deck(r) to hand(r)\n          r.drawn += size(hand(r))\n").replace(
        "          move cards(hand(r)) to used(r)", "          move cards(hand(r)) to tired(r)")
    p = compiled(tmp_path, "riders", text, 2, cards=CARDS)
    g = Game(p, 2)
    play(g, [RandomAgent("a"), RandomAgent("b")])
    # 4 cards a rider, 2 drawn a round for 4 rounds: the deck ran dry after round 2 and took back
    # both the played (used) and the put-aside (tired) cards; from `used` alone round 4 drew 1
    assert g.st.values("drawn")[:2] == [8, 8]
    bad = GAME.replace("VIEW", "").replace("refill_from: used}", "refill_from: [used, deck, spent]}")
    from authored import write_game

    report = Report()
    rs = load_ruleset(write_game(tmp_path / "bad", "riders", bad, CARDS), report=report)
    assert rs is None or compile_ruleset(rs, 2, report) is None
    said = [(d.code, d.message) for d in report.items if d.code == "E113"]
    assert said == [("E113", "pile `deck` refills from itself"),
                    ("E113", "pile `deck` refills from `spent`, which is not a pile")], report.render()
