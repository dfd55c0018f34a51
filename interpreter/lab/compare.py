"""Two setups of a game played on the same seeds, and every measure's difference.

Game i of both sides has the same seed, so the same shuffles as long as the rules draw alike,
and the same bots, seeded alike (common random numbers): a difference between the sides is the
change's, not luck's, and the paired differences of each game measure it with far less noise
than two separate runs. See `stats` for the tests.
"""
from __future__ import annotations

import os

from .metrics import measures, rates, varies_in
from .simulate import Backend, LocalBackend, Setup, afresh, duration, rate, report, run, seeds
from .stats import adjust, paired, two_rates

ALPHA = 0.05


def compare(base: Setup, variant: Setup, games: int, seed: int, jobs: int | None = None,
            progress=None, backend: Backend | None = None, variant_seed: int | None = None,
            rows_out: list | None = None) -> dict:
    """Play both setups on the same seeds (or the variant on `variant_seed`'s, unpaired) and compare
    every measure. `rows_out` receives (side, row) of every game."""
    backend = backend or LocalBackend(min(jobs or os.cpu_count() or 1, 2 * games))
    other = seed if variant_seed is None else variant_seed
    afresh([base, variant])
    (rows_a, rows_b), elapsed = run([base, variant], [seeds(seed, games), seeds(other, games)],
                                    backend, progress)
    if rows_out is not None:
        rows_out.extend([("base", r) for r in rows_a] + [("variant", r) for r in rows_b])
    stats_a = report(base, rows_a, seed, backend.jobs, elapsed)
    stats_b = report(variant, rows_b, other, backend.jobs, elapsed)
    for side in (stats_a, stats_b):  # the two sides ran together: the time is the comparison's
        del side["seconds"], side["games_per_second"]
    table = differences(rows_a, rows_b, base.players, variant.players)
    return {
        "game": stats_a["game"], "games": games, "seed": seed,
        **({"variant_seed": variant_seed} if variant_seed is not None else {}),
        "paired": variant_seed is None,
        "base": {"setup": base.describe(), **stats_a},
        "variant": {"setup": variant.describe(), **stats_b},
        "pairs": sum(1 for a, b in zip(rows_a, rows_b)
                     if a["outcome"] != "failed" and b["outcome"] != "failed"),
        "metrics": table,
        "significant": sum(1 for m in table if m["significant"]),
        "alpha": ALPHA,
        "seconds": elapsed,
        "games_per_second": 2 * games / elapsed if elapsed > 0 else 0.0,
    }


def differences(rows_a: list[dict], rows_b: list[dict], players_a: int, players_b: int) -> list[dict]:
    """One entry per measure: base, variant, diff (variant - base), ci, p_value, and `significant`
    after Benjamini-Hochberg's adjustment over all measures. A measure said only where it varies
    (the margin of victory) is left out when it is the same in every game of both sides."""
    out = []
    ma = measures(rows_a, players_a)
    mb = measures(rows_b, players_b)
    for name in list(ma) + [k for k in mb if k not in ma]:
        binary, _values, if_varies = ma.get(name) or mb[name]
        xs = ma[name][1] if name in ma else _absent(name, rows_a)
        ys = mb[name][1] if name in mb else _absent(name, rows_b)
        if if_varies and not varies_in(xs + ys):
            continue
        pairs = [(x, y) for x, y in zip(xs, ys) if x is not None and y is not None]
        entry = paired([x for x, _ in pairs], [y for _, y in pairs], binary)
        out.append({"name": name, "kind": "rate" if binary else "number", **entry})
    ra, rb = rates(rows_a), rates(rows_b)
    for name in list(ra) + [k for k in rb if k not in ra]:
        k1, n1 = ra.get(name, (0, 0))
        k2, n2 = rb.get(name, (0, 0))
        out.append({"name": name, "kind": "rate", **two_rates(k1, n1, k2, n2)})
    adjusted = adjust([m["p_value"] for m in out])
    for m, q in zip(out, adjusted):
        m["p_adjusted"] = q
        m["significant"] = q is not None and q < ALPHA
    return out


def _absent(name: str, rows: list[dict]) -> list:
    """A measure one side lacks: a count is 0 where nothing fired; anything else is unknown."""
    if name.startswith("count "):
        return [0 if r["outcome"] != "failed" else None for r in rows]
    return [None] * len(rows)


# ---- text ---------------------------------------------------------------------------------------

def _value(m: dict, x) -> str:
    if x is None:
        return "-"
    return f"{100 * x:.1f}%" if m["kind"] == "rate" else f"{x:.2f}"


def _diff(m: dict, x) -> str:
    if x is None:
        return "-"
    return f"{100 * x:+.1f}" if m["kind"] == "rate" else f"{x:+.2f}"


def _p(p) -> str:
    if p is None:
        return "-"
    return "<0.0001" if p < 0.0001 else f"{p:.4f}"


def render(result: dict) -> str:
    a, b = result["base"], result["variant"]
    width = max([44] + [len(m["name"]) for m in result["metrics"]])  # whole names: a cut one reads as another
    lines = [f"compare {result['game']}: {result['games']} games a side, {a['players']} players, "
             f"seed {result['seed']}"
             + ("" if result["paired"] else f" (variant on seed {result['variant_seed']}: not paired)"),
             f"  base:    {a['setup']}",
             f"  variant: {b['setup']}",
             f"completed: base {a['completed']}, variant {b['completed']}; {result['pairs']} games "
             + ("paired (same seeds, same bots)" if result["paired"] else "side by side"), "",
             f"{'measure':<{width}} {'base':>9} {'variant':>9} {'diff':>8}  {'95% CI':<19} {'p':>8}"]
    for m in result["metrics"]:
        ci = m["ci"]
        shown = "-" if ci is None else f"[{_diff(m, ci[0])}, {_diff(m, ci[1])}]"
        flag = " *" if m["significant"] else ""
        lines.append(f"{m['name']:<{width}} {_value(m, m['base']):>9} {_value(m, m['variant']):>9} "
                     f"{_diff(m, m['diff']):>8}  {shown:<19} {_p(m['p_value']):>8}{flag}")
    lines += ["", "rates in %, differences in points; * significant: Benjamini-Hochberg adjusted p < "
              f"{result['alpha']} over all {len(result['metrics'])} measures "
              f"({result['significant']} flagged)",
              "tests: McNemar exact for yes/no measures of a game, paired t for numbers, two-proportion z "
              "for win rates among seats (`win rate when ...`)",
              f"throughput: {rate(2 * result['games'], result['seconds'])} on {a['jobs']} process(es) "
              f"({duration(result['seconds'])})"]
    for side in (a, b):
        for f in side["failures"]:
            lines.append(f"failed game {f['game']} (seed {f['seed']}, {side['setup']}): {f['error']}")
    return "\n".join(lines)
