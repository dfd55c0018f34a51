"""The test suite's invariant and fuzz checks, at scale (not part of the suite).

    python bench/long_runs.py [--games N] [--fuzz N] [--seed S] [--jobs J] [--greedy-every K]

- Games (tests/test_invariants.py): N seeded games spread over every game, variant and track, at
  every player count in turn, every K-th with greedy bots; after every decision every card lies
  in exactly one pile and `st.where` and the face-up flags agree; each game is then replayed
  from its answers and must end identically.
- Fuzz (tests/test_fuzz.py): N hypothesis examples spread over random rule texts (through
  both parsers) and random mutations of shipped files (game files, variants, cards and track
  files), each loaded, compiled, explained (`racecraft explain`, rules and generated Python) and
  played for a few decisions: nothing but diagnostics and rule errors may come out. Examples
  are drawn afresh from `--seed` (not the suite's fixed ones); a failure prints hypothesis's
  smallest failing example.

It prints what it checked and every failure, and exits with 1 if there was any. Defaults:
10,000 games and 5,000 fuzz examples (about half an hour on two cores).
"""
from __future__ import annotations

import argparse
import collections
import multiprocessing
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import test_fuzz as fz  # noqa: E402
import test_invariants as inv  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import seed as hypothesis_seed  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

# ---- games -------------------------------------------------------------------------------------


def game_jobs(games: int, base_seed: int, greedy_every: int) -> list[tuple]:
    """(config, players, seed, greedy) for each game: configurations in turn, player counts in
    turn within each."""
    jobs = []
    per_config = collections.Counter()
    for i in range(games):
        cfg = inv.CONFIGS[i % len(inv.CONFIGS)]
        counts = inv.player_counts(*cfg)
        k = per_config[cfg]
        per_config[cfg] += 1
        greedy = greedy_every > 0 and i % greedy_every == greedy_every - 1
        jobs.append((cfg, counts[k % len(counts)], base_seed + i, greedy))
    return jobs


def run_game(job) -> tuple:
    cfg, players, seed, greedy = job
    start = time.perf_counter()
    try:
        plan = inv.plan_for(*cfg, players)
        result = inv.check_game(plan, seed, greedy)
        return job, None, result["decisions"], time.perf_counter() - start
    except Exception as e:  # noqa: BLE001 - every failure is reported, with its game
        return job, "".join(traceback.format_exception(e)), 0, time.perf_counter() - start


def check_games(games: int, base_seed: int, greedy_every: int, jobs: int) -> int:
    work = game_jobs(games, base_seed, greedy_every)
    # each configuration's games go to one worker, which loads and compiles it once
    work.sort(key=lambda j: (inv.config_id(j[0]), j[1]))
    bots = f"every {greedy_every}th with greedy bots" if greedy_every else "random bots"
    print(f"games: {games} over {len(inv.CONFIGS)} configurations (every game, variant and track), "
          f"player counts in turn, {bots}; checking cards after every decision and an exact replay "
          "of each game", flush=True)
    start = time.perf_counter()
    by_config: dict[str, list] = collections.defaultdict(lambda: [0, 0, 0.0])
    failures = []
    with multiprocessing.Pool(jobs) as pool:
        results = pool.imap_unordered(run_game, work, chunksize=8)
        for done, (job, error, decisions, took) in enumerate(results, 1):
            row = by_config[inv.config_id(job[0])]
            row[0] += 1
            row[1] += decisions
            row[2] += took
            if error is not None:
                failures.append((job, error))
                cfg, players, seed, greedy = job
                print(f"FAILED {inv.config_id(cfg)}, {players} players, seed {seed}"
                      f"{', greedy' if greedy else ''}:\n{error}", flush=True)
            if done % 1000 == 0:
                print(f"  {done} games, {time.perf_counter() - start:.0f} s", flush=True)
    for name, (n, decisions, took) in sorted(by_config.items()):
        print(f"  {name:40} {n:6} games {decisions:9} decisions {took:7.1f} s")
    took = time.perf_counter() - start
    print(f"games: {games} checked in {took:.0f} s, {len(failures)} failed", flush=True)
    return len(failures)


# ---- fuzz --------------------------------------------------------------------------------------

PARSER_RUNS = {
    "rule texts made of tokens": lambda: st.tuples(fz.token_soups, st.just([])),
    "blocks shaped like the grammar": lambda: st.tuples(fz.blocks, fz._edits),
    "expressions shaped like the grammar": lambda: st.tuples(fz.exprs, fz._edits),
}


def _settings(n: int):
    return settings(max_examples=n, deadline=None, database=None, suppress_health_check=list(HealthCheck),
                    print_blob=True)


def fuzz_parser(name: str, n: int, seed: int) -> tuple[str, dict, str | None]:
    outcomes: collections.Counter = collections.Counter()

    @hypothesis_seed(seed)
    @_settings(n)
    @given(PARSER_RUNS[name]())
    def run(args):
        text, edits = args
        fz.check_rule_text(fz._break_text(text, edits))
        outcomes["texts"] += 1

    error = _run(run)
    return name, dict(outcomes), error


def fuzz_target(target: str, n: int, seed: int) -> tuple[str, dict, str | None]:
    game, rel, _variants = fz.TARGETS[target]
    shipped = (ROOT / rel).read_text(encoding="utf-8")
    project = fz.make_project(Path(tempfile.mkdtemp(prefix="racecraft-fuzz-")), [game])
    outcomes: collections.Counter = collections.Counter()

    @hypothesis_seed(seed)
    @_settings(n)
    @given(muts=fz.mutations(game, rel), game_seed=st.integers(0, 2 ** 16), greedy=st.booleans())
    def run(muts, game_seed, greedy):
        outcomes[fz.check_game_text(project, target, fz.mutate(shipped, muts), game_seed,
                                    greedy and game_seed % 4 == 0, explain=True)] += 1

    error = _run(run)
    return f"mutated {target} ({rel})", dict(outcomes), error


def _run(test) -> str | None:
    try:
        test()
    except Exception as e:  # noqa: BLE001 - hypothesis's report of the smallest failing example
        return "".join(traceback.format_exception(e))
    return None


def _fuzz_one(job):
    kind, name, n, seed = job
    start = time.perf_counter()
    label, outcomes, error = (fuzz_parser if kind == "parser" else fuzz_target)(name, n, seed)
    return label, outcomes, error, time.perf_counter() - start


def check_fuzz(n: int, seed: int, jobs: int) -> int:
    targets = list(fz.TARGETS)
    # a third for the parsers, the rest for mutated files (those the suite mutates, twice as much)
    parser_n = max(1, n // 3 // len(PARSER_RUNS))
    weights = {t: (2 if t in fz.TESTED else 1) for t in targets}
    unit = max(1, (n - parser_n * len(PARSER_RUNS)) // sum(weights.values()))
    work = [("parser", name, parser_n, seed) for name in PARSER_RUNS]
    work += [("target", t, unit * weights[t], seed) for t in targets]
    total = sum(w[2] for w in work)
    print(f"fuzz: {total} examples, seed {seed}: {len(PARSER_RUNS)} kinds of rule text through both parsers "
          f"({parser_n} each), mutations of {len(targets)} shipped files", flush=True)
    start = time.perf_counter()
    failures = 0
    with multiprocessing.Pool(jobs) as pool:
        for label, outcomes, error, took in pool.imap_unordered(_fuzz_one, work):
            shown = ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))
            print(f"  {label}: {took:.0f} s; {shown}", flush=True)
            if error is not None:
                failures += 1
                print(f"FAILED {label}:\n{error}", flush=True)
    print(f"fuzz: done in {time.perf_counter() - start:.0f} s, {failures} run(s) failed", flush=True)
    return failures


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000, help="games to play and check (0: none)")
    ap.add_argument("--fuzz", type=int, default=5_000, help="fuzz examples (0: none)")
    ap.add_argument("--seed", type=int, default=int(time.time()) % 100_000,
                    help="first game seed, and hypothesis's seed (default: from the clock; printed)")
    ap.add_argument("--jobs", type=int, default=multiprocessing.cpu_count(), help="worker processes")
    ap.add_argument("--greedy-every", type=int, default=25, help="every K-th game with greedy bots (0: none)")
    args = ap.parse_args(argv)
    print(f"seed {args.seed}, {args.jobs} worker(s)", flush=True)
    failed = 0
    if args.games > 0:
        failed += check_games(args.games, args.seed, args.greedy_every, args.jobs)
    if args.fuzz > 0:
        failed += check_fuzz(args.fuzz, args.seed, args.jobs)
    print("all checks passed" if not failed else f"{failed} failure(s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
