"""The statistics of simulations and comparisons, in plain Python (no numeric library needed).

- a proportion: Wilson's score interval;
- a difference measured on the same games (common random numbers: game i of both sides has the
  same seed and the same bots): the mean of the paired differences with a Student t interval,
  and a p-value from McNemar's exact test for yes/no measures (it reads only the games where
  the two sides differ) or from the paired t-test otherwise;
- a difference of two rates whose games are not paired (a rate among the seats that chose an
  option, or that started in some position: each side has its own seats): Newcombe's interval
  from the two Wilson intervals, and the two-proportion z-test;
- many differences at once: Benjamini-Hochberg's adjusted p-values, so that among the
  differences flagged as significant at most 5% are expected to be false alarms, however many
  measures a comparison reads.
"""
from __future__ import annotations

import math
import statistics
from typing import Sequence

Z95 = 1.959963984540054


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """95% confidence interval of a proportion k/n (Wilson score interval)."""
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / denom
    # exactly 0 and 1 at the ends (computed, they may miss by a rounding error)
    return (0.0 if k <= 0 else max(0.0, centre - half), 1.0 if k >= n else min(1.0, centre + half))


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """95% interval of a mean (Student t); the mean itself when fewer than 2 values or no spread."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0)
    m = statistics.fmean(values)
    if n < 2:
        return (m, m)
    half = t_quantile(0.975, n - 1) * statistics.stdev(values) / math.sqrt(n)
    return (m - half, m + half)


# ---- distributions -----------------------------------------------------------------------------

def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz evaluation)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    out = d
    for m in range(1, 400):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            out *= c * d
        if abs(c * d - 1.0) < 1e-14:
            break
    return out


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1 - x) / b


def t_two_sided(t: float, df: int) -> float:
    """P(|T| >= |t|) for Student's t with df degrees of freedom."""
    if math.isinf(t):
        return 0.0
    return min(1.0, betainc(df / 2, 0.5, df / (df + t * t)))


def t_quantile(q: float, df: int) -> float:
    """The q quantile (q > 0.5) of Student's t, by bisection of the two-sided tail."""
    target = 2 * (1 - q)
    lo, hi = 0.0, 1e3
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_two_sided(mid, df) > target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def binomial_two_sided(k: int, n: int) -> float:
    """Exact two-sided p-value of k successes in n fair trials (McNemar's exact test)."""
    if n == 0:
        return 1.0
    low = min(k, n - k)
    if low == n - low:
        return 1.0
    tail = betainc(n - low, low + 1, 0.5)  # P(X <= low)
    return min(1.0, 2 * tail)


def normal_two_sided(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


# ---- differences -------------------------------------------------------------------------------

def paired(base: Sequence[float], variant: Sequence[float], binary: bool) -> dict:
    """A measure read on the same games on both sides: the means, the mean difference (variant -
    base) with its 95% interval, and a p-value (McNemar's exact test for yes/no measures, the paired
    t-test otherwise). Differences with no spread at all are exact: p 1 when they are all zero, 0
    when they are all the same other number."""
    n = len(base)
    diffs = [v - b for b, v in zip(base, variant)]
    out = {"n": n, "base": statistics.fmean(base) if n else None,
           "variant": statistics.fmean(variant) if n else None,
           "test": "McNemar exact" if binary else "paired t"}
    if n == 0:
        return {**out, "diff": None, "ci": None, "p_value": None}
    d = statistics.fmean(diffs)
    sd = statistics.stdev(diffs) if n > 1 else 0.0
    if sd == 0.0:
        p = 1.0 if d == 0 else (0.0 if n > 1 else 1.0)
        return {**out, "diff": d, "ci": [d, d], "p_value": p}
    se = sd / math.sqrt(n)
    half = t_quantile(0.975, n - 1) * se
    if binary:
        up = sum(1 for x in diffs if x > 0)
        down = sum(1 for x in diffs if x < 0)
        p = binomial_two_sided(up, up + down)
    else:
        p = t_two_sided(d / se, n - 1)
    return {**out, "diff": d, "ci": [d - half, d + half], "p_value": p}


def two_rates(k1: float, n1: int, k2: float, n2: int) -> dict:
    """Two rates from different seats (not paired): rate2 - rate1 with Newcombe's 95% interval, and
    the two-proportion z-test's p-value."""
    out = {"n": min(n1, n2), "base": k1 / n1 if n1 else None, "variant": k2 / n2 if n2 else None,
           "test": "two-proportion z"}
    if not n1 or not n2:
        return {**out, "diff": None, "ci": None, "p_value": None}
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p2 - p1
    low = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    high = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    pooled = (k1 + k2) / (n1 + n2)
    var = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    p = 1.0 if var <= 0 else normal_two_sided(d / math.sqrt(var))
    return {**out, "diff": d, "ci": [low, high], "p_value": p}


def adjust(pvalues: Sequence[float | None]) -> list[float | None]:
    """Benjamini-Hochberg adjusted p-values (None stays None)."""
    known = sorted((p, i) for i, p in enumerate(pvalues) if p is not None)
    m = len(known)
    out: list[float | None] = [None] * len(pvalues)
    running = 1.0
    for rank in range(m, 0, -1):
        p, i = known[rank - 1]
        running = min(running, p * m / rank)
        out[i] = running
    return out
