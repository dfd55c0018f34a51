"""Formula 5 written by hand in plain Python: the yardstick for the engine's speed.

It plays the same rules as rulesets/formula5 with the same random policy (uniform over the same
option lists, one discard decision at a time), so games/s compare like with like. Benchmark
code only: the project plays Formula 5 from its ruleset, never from this file.
"""
from __future__ import annotations

import random

COLOURS = ["red", "blue", "green", "yellow", "purple"]
PIT = "pit"
PITS_BY_POSITION = [2, 2, 1, 1, 0]


def play(seed: int, players: int) -> int:
    rng = random.Random(seed)
    deck = [c for c in COLOURS for _ in range(14)]
    rng.shuffle(deck)
    discard: list = []
    order = list(range(5))          # order[i] = car at position i
    rng.shuffle(order)
    hands = {car: [] for car in range(players)}
    for pos, car in enumerate(order):
        if car < players:
            pits = PITS_BY_POSITION[pos]
            hands[car] = [PIT] * pits + [deck.pop() for _ in range(12 - pits)]
    columns = [[(deck.pop(), True)] for _ in range(5)]
    pitted = [False] * 5

    def draw():
        nonlocal deck
        if not deck:
            deck, discard[:] = discard[:], []
            rng.shuffle(deck)
        return deck.pop() if deck else None

    def speed(pos):
        car = order[pos]
        if pitted[car]:
            return 0
        lead = next((c for c, up in reversed(columns[pos]) if up and c != PIT), None)
        return sum(1 for c, up in columns[pos] if up and c == lead)

    def overtake(pos):
        s = speed(pos)
        if pos == 0 or s == 0:
            return
        if pitted[order[pos - 1]]:
            while pos > 0 and pitted[order[pos - 1]]:
                order[pos - 1], order[pos] = order[pos], order[pos - 1]
                pos -= 1
        elif s > speed(pos - 1):
            order[pos - 1], order[pos] = order[pos], order[pos - 1]

    rounds = 0
    while True:
        rounds += 1
        for car in list(order):
            pos = order.index(car)
            if car >= players:
                card = draw()
                if card is not None:
                    columns[pos].append((card, True))
                    overtake(pos)
                continue
            hand = hands[car]
            if not hand:
                continue
            colours = list(dict.fromkeys(c for c in hand if c != PIT))
            options = [("race", c) for c in colours] + ([("pitcard", PIT)] if PIT in hand else []) \
                + [("facedown", c) for c in colours]
            kind, card = options[rng.randrange(len(options))]
            hand.remove(card)
            columns[pos].append((card, kind == "race"))
            if kind == "race":
                overtake(pos)
                continue
            pitted[car] = True
            n = 0
            while True:
                left = list(dict.fromkeys(c for c in hand if c != PIT))
                pick = rng.randrange(len(left) + 1)
                if pick == len(left):
                    break
                hand.remove(left[pick])
                discard.append(left[pick])
                n += 1
            for _ in range(n):
                c = draw()
                if c is not None:
                    hand.append(c)
        pitted = [False] * 5
        if all(not h for h in hands.values()):
            return rounds
