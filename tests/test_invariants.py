"""Invariants of every shipped game, checked after every decision of many seeded games.

- Cards are conserved: every card lies in exactly one pile, `st.where` names that pile, and
  every card has a face-up flag (on the real table, and on a seat's private copy while it
  commits in a `simultaneously` block).
- A game is its seed and its answers: replaying the recorded answers on a new `Game(plan, seed)`
  gives the same decisions, the same table and the same result.
- A greedy bot's look-ahead plays on copies: the table is the same before and after it thinks.

Every game is played as shipped at every player count in turn, and with each of its variants,
modules and tracks (found in its folders) at its fewest players above one.
`bench/long_runs.py` runs the same checks on many more games.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import chain, repeat
from pathlib import Path

import pytest

from interpreter.agents.base import RandomAgent
from interpreter.agents.greedy import GreedyAgent
from interpreter.engine.game import Game
from interpreter.session.load import load

ROOT = Path(__file__).resolve().parents[1]


def shipped_configs() -> list[tuple]:
    """(game, variants, modules, track) of every shipped game as it is, with each of its variants,
    with each of its modules, and on each of its tracks that it does not include already (Heat
    includes USA; Downforce both of its tracks, raced in turn by its variants)."""
    out = []
    for folder in sorted(p for p in (ROOT / "rulesets").iterdir() if (p / "game.yaml").is_file()):
        game = folder.name
        out.append((game, (), (), None))
        out += [(game, (v.stem,), (), None) for v in sorted((folder / "variants").glob("*.yaml"))]
        out += [(game, (), (m.stem,), None) for m in sorted((folder / "modules").glob("*.yaml"))]
        included = (folder / "game.yaml").read_text(encoding="utf-8")
        out += [(game, (), (), t.stem) for t in sorted((ROOT / "tracks" / game).glob("*.yaml"))
                if f"tracks/{game}/{t.name}" not in included]
    return out


CONFIGS = shipped_configs()
# random games per configuration, player counts in turn (a Formula 5 game is short)
# (at least one at each count; bench/long_runs.py plays many more; a game not named here: 3 and 1)
RANDOM_GAMES = {"formula5": 12, "heat": 5, "tilerace": 5, "downforce": 5}
# with a variant, module or track (Heat has some thirty of them)
RANDOM_GAMES_CHANGED = {"formula5": 4, "heat": 1, "tilerace": 2, "downforce": 2}
GREEDY_GAMES = 1         # per game as shipped


def config_id(cfg) -> str:
    game, variants, modules, track = cfg
    parts = [game, *variants, *(f"module={m}" for m in modules)] + ([f"track={track}"] if track else [])
    return "-".join(parts)


@lru_cache(maxsize=None)
def loaded(game: str, variants: tuple, modules: tuple, track: str | None):
    return load(game, variants, modules, track=track)


@lru_cache(maxsize=None)
def plan_for(game: str, variants: tuple, modules: tuple, track: str | None, players: int):
    return loaded(game, variants, modules, track).plan(players)


def player_counts(game: str, variants: tuple, modules: tuple, track: str | None,
                  every: bool = True) -> list[int]:
    """The player counts to play: all of them, or (`every=False`) the fewest above one (a variant
    or module of a game played at every count as shipped: its rules, not the count, are new)."""
    p = loaded(game, variants, modules, track).ruleset.game.game.players
    return list(range(p.min, p.max + 1)) if every else [min(max(p.min, 2), p.max)]


def check_cards(st, n_cards: int) -> None:
    """Every card in exactly one pile; `where` and the face-up flags agree, for every card."""
    # the common case at C speed (this runs after every decision); the loop below says what is wrong
    piles, where, up = st.piles, st.where, st.up
    flat = list(chain.from_iterable(piles))
    pile_of = dict(zip(flat, chain.from_iterable(repeat(pid, len(p)) for pid, p in enumerate(piles))))
    if (len(flat) == len(pile_of) == len(where) == len(up) == n_cards
            and pile_of.keys() == set(range(n_cards))
            and list(map(pile_of.__getitem__, range(n_cards))) == where and set(map(type, up)) <= {bool}):
        return
    seen = [False] * n_cards
    for pid, pile in enumerate(piles):
        for card in pile:
            assert type(card) is int and 0 <= card < n_cards, f"pile {pid} holds {card!r}, which is no card"
            assert not seen[card], f"card {card} lies in two places (again in pile {pid})"
            seen[card] = True
            assert where[card] == pid, f"card {card} lies in pile {pid}, but `where` says {where[card]}"
    missing = [c for c in range(n_cards) if not seen[c]]
    assert not missing, f"cards in no pile: {missing}"
    assert len(where) == n_cards, f"`where` has {len(where)} entries for {n_cards} cards"
    assert len(up) == n_cards and all(type(u) is bool for u in up), f"face-up flags: {up}"


def check_table(game: Game) -> None:
    n_cards = len(game.plan.card_start)
    check_cards(game.st, n_cards)
    for copy in game.copies():
        check_cards(copy, n_cards)


def table(game: Game):
    """What a replay must reproduce exactly: piles, cards, variables, the boards' data, and the
    step counter (looking at a game, as `result()` and a greedy bot do, leaves it as it was)."""
    st = game.st
    return ([p[:] for p in st.piles], st.where[:], st.up[:], dict(st.g), st.v[:], repr(st.bd), st.ended,
            st.steps)


def play_checked(plan, seed: int, greedy: bool = False) -> Game:
    """A game with bots, the invariants checked after every decision; returns the ended game."""
    game = Game(plan, seed)
    check_table(game)
    kind = GreedyAgent if greedy else RandomAgent
    bots = [kind(f"invariants/{seed}/{s}") for s in range(plan.n_seats)]
    while not game.over:
        if greedy:
            d = game.decision()
            assert d is not None and d.count >= 2
            before = table(game)
            pick = bots[d.seat].choose(game, d)
            assert table(game) == before, "the greedy bot's look-ahead changed the real table"
        else:
            seat, count = game.waiting()
            assert count >= 2 and 0 <= seat < plan.n_seats, (seat, count)
            pick = bots[seat].pick(count)
        game.choose(pick)
        check_table(game)
    return game


def replay(plan, seed: int, answers: list[int]) -> Game:
    game = Game(plan, seed)
    for i, pick in enumerate(answers):
        assert not game.over, f"the replay ended after {i} of {len(answers)} decisions"
        game.choose(pick)
    assert game.over, "the replay did not end where the game did"
    return game


def check_game(plan, seed: int, greedy: bool = False) -> dict:
    """Play with the invariants checked, then replay from the answers: the same game. Returns
    its result."""
    game = play_checked(plan, seed, greedy)
    ended = table(game)
    again = replay(plan, seed, game.answers)
    assert again.answers == game.answers
    assert table(again) == ended, "the replay ended on another table"
    result = game.result()
    assert again.result() == result
    return result


@pytest.mark.parametrize("cfg", CONFIGS, ids=config_id)
def test_cards_are_conserved_and_games_replay_exactly(cfg):
    # every player count for the games as shipped; one for their variants, modules and tracks
    # (each count is compiled once, and loading and compiling are half the time here)
    as_shipped = cfg[1:] == ((), (), None)
    counts = player_counts(*cfg, every=as_shipped)
    rounds = []
    games = (RANDOM_GAMES if as_shipped else RANDOM_GAMES_CHANGED).get(cfg[0], 3 if as_shipped else 1)
    for i in range(games):
        plan = plan_for(*cfg, counts[i % len(counts)])
        result = check_game(plan, seed=1000 + i)
        assert result["ended"]
        rounds.append(result["rounds"])
    assert max(rounds) > 0


@pytest.mark.parametrize("game", ["formula5", "heat", "tilerace", "downforce"])
def test_greedy_bots_leave_the_table_as_it_was_and_replay_exactly(game):
    counts = player_counts(game, (), (), None)
    for i in range(GREEDY_GAMES):
        plan = plan_for(game, (), (), None, counts[(i + 1) % len(counts)])
        assert check_game(plan, seed=2000 + i, greedy=True)["ended"]


def test_a_moved_card_is_seen_by_the_conservation_check():
    """The check itself: a card in two piles, or missing, or misplaced in `where`, is caught."""
    game = Game(plan_for("formula5", (), (), None, 2), 1)
    check_table(game)
    st = game.st
    pile = next(i for i, p in enumerate(st.piles) if p)
    card = st.piles[pile][-1]
    other = (pile + 1) % len(st.piles)
    st.piles[other].append(card)
    with pytest.raises(AssertionError, match="two places"):
        check_table(game)
    st.piles[other].pop()
    st.piles[pile].pop()
    with pytest.raises(AssertionError, match="in no pile"):
        check_table(game)
    st.piles[other].append(card)
    with pytest.raises(AssertionError, match="`where` says"):
        check_table(game)


@pytest.mark.parametrize("look", ["view", "result", "greedy"])
def test_looking_at_a_game_leaves_its_step_counter_as_it_was(look):
    game = Game(plan_for("formula5", (), (), None, 2), 1)
    before = game.st.steps
    if look == "view":
        game.view(0)               # `show: speed` calls a function for every car
    elif look == "result":
        game.result()              # `result.rank` is a comprehension
    else:
        # Heat's `react` offers "done reacting", an option with no effects: the bot scores the
        # real state for it (`vm.preview` returns the state itself), and `evaluate` charges it.
        game = Game(plan_for("heat", (), (), None, 2), 1)
        bots = [GreedyAgent(f"look/{s}") for s in range(2)]
        for _ in range(20):
            d = game.decision()
            before = game.st.steps
            pick = bots[d.seat].choose(game, d)
            if game.st.steps != before:
                break
            game.choose(pick)
    assert game.st.steps == before
