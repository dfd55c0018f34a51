"""Golden games: every shipped game and variant played with random and greedy bots on fixed
seeds, each game reduced to a digest of its decisions and its result.

    python bench/golden.py write FILE   # record the games the engine plays now
    python bench/golden.py check FILE   # play them again and list every game that differs
    python bench/golden.py check FILE heat tilerace   # only these rulesets

A change that must not change any game (a compiler rewrite, a speed-up) is checked this way:
write before, check after. Not a test: the full set takes a few minutes.
"""
from __future__ import annotations

import hashlib
import json
import sys

from interpreter.agents.base import RandomAgent
from interpreter.agents.greedy import GreedyAgent
from interpreter.engine.game import Game
from interpreter.lab.series import Series
from interpreter.session.load import load

from interpreter.session.playing import play

# (ruleset, variants, track, players, bots, seeds[, modules])
CASES = [
    ("formula5", (), None, 5, "random", 40), ("formula5", (), None, 3, "greedy", 10),
    ("formula5", ("chain-overtakes",), None, 4, "random", 15),
    ("formula5", ("pit-lane",), None, 4, "random", 15),
    ("formula5", ("short-race",), None, 2, "greedy", 8),
    ("heat", (), "usa", 4, "random", 10), ("heat", (), "usa", 4, "greedy", 4),
    ("heat", (), "italy", 3, "greedy", 3), ("heat", (), "france", 6, "random", 5),
    ("heat", (), "great-britain", 2, "greedy", 3), ("heat", ("handicap",), None, 5, "random", 5),
    # Heat's modules, variants and house rules
    ("heat", (), None, 4, "random", 12, ("garage",)), ("heat", (), "italy", 3, "greedy", 6, ("garage",)),
    ("heat", ("garage-advanced",), None, 3, "random", 9, ("garage",)),
    ("heat", ("garage-advanced-only",), "france", 2, "greedy", 6, ("garage",)),
    ("heat", ("garage-quick-start",), None, 4, "random", 9, ("garage",)),
    ("heat", (), None, 1, "random", 9, ("legends",)), ("heat", (), None, 3, "greedy", 6, ("legends",)),
    ("heat", ("legends-pro",), "great-britain", 2, "random", 9, ("legends",)),
    ("heat", (), None, 4, "random", 12, ("weather",)), ("heat", (), "france", 3, "greedy", 6, ("weather",)),
    ("heat", (), None, 3, "random", 9, ("garage", "legends", "weather")),
    ("heat", (), "italy", 2, "greedy", 6, ("garage", "legends", "weather")),
    ("heat", ("tournament",), None, 4, "random", 12), ("heat", ("tournament",), None, 3, "greedy", 6),
    ("heat", ("tournament",), None, 3, "random", 6, ("garage", "legends", "weather")),
    ("heat", ("sprint",), None, 3, "random", 9), ("heat", ("lean-deck",), None, 3, "greedy", 6),
    ("heat", ("big-shift",), None, 4, "random", 9), ("heat", ("big-radiator",), None, 3, "greedy", 6),
    ("heat", ("hard-overtakes",), None, 4, "random", 9),
    ("heat", ("narrow-stretches",), "bridge", 4, "random", 9),
    ("heat", ("event-1",), "great-britain", 3, "random", 6, ("garage", "weather", "championship")),
    ("heat", ("event-2",), None, 3, "random", 6, ("garage", "weather", "championship")),
    ("heat", ("event-3",), "italy", 2, "greedy", 3, ("garage", "weather", "championship")),
    ("heat", ("event-4",), None, 3, "random", 6, ("garage", "weather", "championship")),
    ("heat", ("event-5",), None, 3, "random", 3, ("garage", "weather", "championship")),
    ("heat", ("event-6",), "france", 3, "random", 6, ("garage", "weather", "championship")),
    ("heat", ("event-7",), None, 4, "random", 6, ("garage", "weather", "championship")),
    ("heat", ("event-8",), None, 4, "random", 6, ("garage", "weather", "championship")),
    ("heat", ("event-9",), None, 3, "random", 6, ("garage", "weather", "championship")),
    ("heat", ("event-10",), None, 4, "random", 6, ("garage", "weather", "championship")),
    ("heat", ("event-2", "legends-score"), None, 2, "random", 6,
     ("garage", "weather", "legends", "championship")),
    ("heat", ("event-8",), None, 3, "greedy", 3, ("garage", "weather", "legends", "championship")),
    ("heat", (), None, 1, "greedy", 4, ("legends",)), ("heat", ("handicap",), None, 3, "greedy", 3),
    ("downforce", (), None, 4, "random", 15), ("downforce", (), None, 3, "greedy", 6),
    ("downforce", ("novice",), None, 4, "random", 8), ("downforce", ("two-player",), None, 2, "random", 8),
    ("downforce", ("world-tour",), None, 3, "random", 4), ("downforce", ("last-card",), None, 5, "random", 8),
    ("downforce", ("lakeshore-bay",), None, 4, "greedy", 3),
    ("tilerace", (), None, 4, "random", 20), ("tilerace", (), None, 3, "greedy", 8),
    ("tilerace", ("fun-track",), None, 4, "random", 10), ("tilerace", ("quick",), None, 2, "greedy", 6),
    ("heat", ("team",), None, 2, "random", 4), ("heat", ("team",), None, 3, "greedy", 2, ("garage",)),
    ("leapfrog", (), None, 4, "random", 10), ("leapfrog", (), None, 2, "greedy", 6),
]

# seasons: (ruleset, season, players, bots, seeds), every game of each played to its end
SEASONS = [
    ("heat", "1961", 3, "random", 4), ("heat", "1962", 2, "greedy", 2), ("heat", "1963", 3, "random", 2),
    ("heat", "custom", 4, "random", 3), ("heat", "best-of-the-best", 2, "random", 1),
]


def games():
    out = {}
    for name, variants, track, players, bots, seeds, *more in CASES:
        modules = more[0] if more else ()
        loaded = load(name, variants=variants, modules=modules, track=track)
        plan = loaded.plan(players)
        for seed in range(1, seeds + 1):
            game = Game(plan, seed)
            kind = RandomAgent if bots == "random" else GreedyAgent
            agents = [kind(f"{seed}/{s}") for s in range(players)]
            result = play(game, agents)
            key = (f"{name}{''.join('+' + v for v in variants)}{''.join('&' + m for m in modules)}"
                   f"@{track or '-'}/{players}/{bots}/{seed}")
            digest = hashlib.sha256(json.dumps(game.answers).encode()).hexdigest()[:16]
            out[key] = [digest, result["order"], result["scores"], result["rounds"]]
    for name, season, players, bots, seeds in SEASONS:
        for seed in range(1, seeds + 1):
            series = Series.start(name, season, seed, [bots] * players)
            kind = RandomAgent if bots == "random" else GreedyAgent
            while not series.done:
                series.play_next(lambda s, kind=kind, n=players: [kind(f"{s}/{k}") for k in range(n)])
            picks = [e["picks"] for e in series.played]
            digest = hashlib.sha256(json.dumps(picks).encode()).hexdigest()[:16]
            results = [[e["result"][k] for k in ("order", "scores", "rounds")] for e in series.played]
            out[f"{name}:{season}/{players}/{bots}/{seed}"] = [digest, results, series.champions(),
                                                               json.loads(json.dumps(series.played[-1]["carried"]))]
    return out


def main(argv):
    mode, path, *only = argv
    if only:  # e.g. `check FILE heat`: only the cases of these rulesets
        CASES[:] = [c for c in CASES if c[0] in only]
        SEASONS[:] = [c for c in SEASONS if c[0] in only]
    now = games()
    if mode == "write":
        with open(path, "w") as f:
            json.dump(now, f, indent=0, sort_keys=True)
        print(f"{len(now)} games written")
        return 0
    with open(path) as f:
        before = json.load(f)
    bad = [k for k in now if now[k] != before.get(k)]
    for k in bad:
        print(f"differs: {k}: {before.get(k)} -> {now[k]}")
    print(f"{len(now) - len(bad)} of {len(now)} games the same")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
