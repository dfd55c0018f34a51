"""Charts of a simulation or a comparison (matplotlib, an optional extra), and a report page.

Every chart draws one run, or two side by side (base and variant): win rates by seat with their
95% intervals beside the other outcomes, win rates by each `record:` value, histograms of game
length, margin of victory and the round the winner took the lead, and for a comparison the
differences of the rates with their intervals. The report is one HTML file with the tables and
the charts inside it (images as data URIs): it can be mailed or opened anywhere.
"""
from __future__ import annotations

import base64
import html
import io
from pathlib import Path
from typing import Any

from ..base.files import CannotWrite, write_atomic
from .extras import install_hint
from .metrics import OUTCOME_WORDS, varies

INSTALL = f"charts need matplotlib: {install_hint('plots')} (or pip install matplotlib)"
COLOURS = ("#3b6ea8", "#d1793b")


class ChartsUnavailable(Exception):
    pass


def check_available() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ChartsUnavailable(INSTALL) from None


def _figure(width: float = 6.4, height: float = 3.6):
    check_available()
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100, layout="constrained")
    return fig, fig.subplots()


# A series: (label, stats of `simulate.report`, rows)
def charts(series: list[tuple[str, dict, list[dict]]], compare: dict | None = None) -> list[tuple[str, Any]]:
    """(file stem, figure) of each chart that has something to show."""
    out = [("wins", _wins(series))]
    for key in series[0][1]["wins_by"]:
        out.append((f"wins_by_{key}", _by_record(series, key)))
    out.append(("length", _histogram(series, "rounds", "rounds", "game length")))
    if any(varies(s.get("margin")) for _l, s, _rows in series):
        out.append(("margin", _histogram(series, "margin", "margin of victory (result, first to second)",
                                         "margin of victory")))
    if any(r.get("lead_taken") is not None for _l, _s, rows in series for r in rows):
        out.append(("lead", _histogram(series, "lead_taken", "rounds played when the winner took the lead "
                                       "for good", "when the winner took the lead")))
    if compare is not None:
        out.append(("differences", _differences(compare)))
    return out


def images(series, formats, compare: dict | None = None) -> list[tuple[str, dict[str, bytes]]]:
    """(file stem, {format: the image's bytes}) of each chart, drawn once in each format."""
    out = []
    for stem, fig in charts(series, compare):
        drawn = {}
        for fmt in formats:
            buf = io.BytesIO()
            fig.savefig(buf, format=fmt)
            drawn[fmt] = buf.getvalue()
        out.append((stem, drawn))
    return out


def write(drawn: list[tuple[str, dict[str, bytes]]], folder: Path, fmt: str = "png") -> list[Path]:
    """The charts as files of the folder (made if need be), one per chart."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CannotWrite(f"cannot write {folder}: {e.strerror or e}") from None
    paths = []
    for stem, data in drawn:
        path = folder / f"{_safe(stem)}.{fmt}"
        write_atomic(path, data[fmt])
        paths.append(path)
    return paths


def _safe(stem: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in stem)


def _offsets(n: int, width: float) -> list[float]:
    return [(i - (n - 1) / 2) * width for i in range(n)]


def _wins(series):
    fig, ax = _figure()
    names = [f"seat {r['seat']}\n{r['bot']}" for r in series[0][1]["wins_by_seat"]]
    others = [k for k in ("drawn", "shared", "others", "round_limit")
              if any(s["outcomes"][k]["games"] for _l, s, _r in series)]
    names += [OUTCOME_WORDS[k].split(" (")[0] for k in others]
    width = 0.8 / len(series)
    for (label, stats, _rows), dx, colour in zip(series, _offsets(len(series), width), COLOURS):
        entries = [(r["rate"], r["ci95"]) for r in stats["wins_by_seat"]]
        entries += [(stats["outcomes"][k]["rate"], stats["outcomes"][k]["ci95"]) for k in others]
        xs = [i + dx for i in range(len(entries))]
        rates = [100 * e[0] for e in entries]
        low = [_bar(e[0], e[1][0]) for e in entries]
        high = [_bar(e[1][1], e[0]) for e in entries]
        ax.bar(xs, rates, width, yerr=[low, high], capsize=3, label=label, color=colour)
    players = series[0][1]["players"]
    keys = [(label, colour) for (label, _s, _r), colour in zip(series, COLOURS)]
    if players > 1:
        ax.axhline(100 / players, color="grey", linestyle=":", linewidth=1)
        keys.append(("dotted: an equal share", "grey"))
    ax.set_xticks(range(len(names)), names, fontsize=8)
    ax.set_ylabel("% of games (95% interval)")
    ax.set_title("wins by seat (alone) and other outcomes")
    ax.set_ylim(0, ax.get_ylim()[1] * 1.25)  # room for the key
    _key(ax, keys)
    return fig


def _bar(a: float, b: float) -> float:
    """The length of an error bar from b to a, in points (never below 0 by a rounding error)."""
    return max(0.0, 100 * (a - b))


def _by_record(series, key: str):
    fig, ax = _figure()
    values: list = []
    for _l, stats, _r in series:
        values += [r["value"] for r in stats["wins_by"].get(key, []) if r["value"] not in values]
    width = 0.8 / len(series)
    for (label, stats, _rows), dx, colour in zip(series, _offsets(len(series), width), COLOURS):
        rows = {r["value"]: r for r in stats["wins_by"].get(key, [])}
        xs, ys, low, high = [], [], [], []
        for i, v in enumerate(values):
            if v in rows:
                r = rows[v]
                xs.append(i + dx)
                ys.append(100 * r["rate"])
                low.append(_bar(r["rate"], r["ci95"][0]))
                high.append(_bar(r["ci95"][1], r["rate"]))
        ax.bar(xs, ys, width, yerr=[low, high], capsize=3, label=label, color=colour)
    ax.set_xticks(range(len(values)), [str(v) for v in values])
    ax.set_xlabel(key.replace("_", " "))
    ax.set_ylabel("win rate of the seats, % (95% interval)")
    ax.set_title(f"wins by {key.replace('_', ' ')}")
    ax.set_ylim(0, ax.get_ylim()[1] * 1.2)
    if len(series) > 1:
        _key(ax, [(label, colour) for (label, _s, _r), colour in zip(series, COLOURS)])
    return fig


def _histogram(series, field: str, xlabel: str, title: str):
    fig, ax = _figure()
    data = [[r[field] for r in rows if r.get(field) is not None] for _l, _s, rows in series]
    flat = [x for xs in data for x in xs]
    lo, hi = int(min(flat, default=0)), int(max(flat, default=0))
    step = max(1, (hi - lo + 1) // 40)
    start = lo // step * step
    bins = list(range(start, hi + step + 1, step))
    # one bar per whole number, centred on it; wider bins: a bar spans its bin [k, k + step)
    ax.hist(data, bins=bins, label=[label for label, _s, _r in series], color=list(COLOURS[:len(series)]),
            align="left" if step == 1 else "mid")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    ax.set_title(title)
    if len(series) > 1:
        _key(ax, [(label, colour) for (label, _s, _r), colour in zip(series, COLOURS)])
    return fig


def _key(ax, entries: list[tuple[str, str]]) -> None:
    """Which colour is which, written in its colour at the top right."""
    for i, (label, colour) in enumerate(entries):
        ax.text(0.99, 0.97 - 0.07 * i, label, color=colour, transform=ax.transAxes, ha="right", va="top",
                fontsize=8, fontweight="bold")


def _differences(result: dict):
    """The rate measures' differences (variant - base) with their intervals; flagged ones stand out."""
    shown = [m for m in result["metrics"] if m["kind"] == "rate" and m["diff"] is not None
             and not m["name"].startswith("win rate when chose")]
    fig, ax = _figure(6.4, max(2.0, 0.32 * len(shown) + 1))
    for i, m in enumerate(reversed(shown)):
        colour = COLOURS[1] if m["significant"] else "grey"
        lo, hi = m["ci"]
        ax.plot([100 * lo, 100 * hi], [i, i], color=colour, linewidth=2)
        ax.plot([100 * m["diff"]], [i], "o", color=colour)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(shown)), [m["name"][:48] for m in reversed(shown)], fontsize=8)
    ax.set_xlabel("variant - base, points (95% interval)")
    ax.set_title("differences of the rates (coloured: significant)")
    return fig


# ---- the report page ----------------------------------------------------------------------------

def _png(data: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii")


def _table(header: list[str], rows: list[list]) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _pct(x) -> str:
    return "" if x is None else f"{100 * x:.1f}%"


def _ci(ci) -> str:
    return "" if ci is None else f"[{_pct(ci[0])}, {_pct(ci[1])}]"


def _run_tables(stats: dict) -> str:
    parts = ["<h3>outcomes</h3>", _table(
        ["outcome", "games", "rate", "95% interval"],
        [[OUTCOME_WORDS[k], o["games"], _pct(o["rate"]), _ci(o["ci95"])]
         for k, o in stats["outcomes"].items() if o["games"] or k in ("won", "drawn")])]
    parts += ["<h3>wins by seat (alone)</h3>", _table(
        ["seat", "bot", "wins", "rate", "95% interval", "tied first"],
        [[r["seat"], r["bot"], r["wins"], _pct(r["rate"]), _ci(r["ci95"]), r["tied_first"]]
         for r in stats["wins_by_seat"]])]
    for key, rows in stats["wins_by"].items():
        parts += [f"<h3>wins by {html.escape(key.replace('_', ' '))}</h3>", _table(
            ["value", "seats", "wins", "rate", "95% interval"],
            [[r["value"], r["seats"], r["wins"], _pct(r["rate"]), _ci(r["ci95"])] for r in rows])]
    ln = stats["length"]
    facts = [["rounds", f"{ln['rounds_mean']:.2f}", ln["rounds_median"],
              f"{ln['rounds_min']}-{ln['rounds_max']}"],
             ["decisions", f"{ln['decisions_mean']:.1f}", "", ""]]
    for label, m in (("margin of victory", stats.get("margin")),
                     ("lead changes", (stats.get("lead") or {}).get("changes")),
                     ("round the winner took the lead", (stats.get("lead") or {}).get("taken")),
                     ("winner's final gap", (stats.get("lead") or {}).get("gap"))):
        if varies(m):
            facts.append([label, f"{m['mean']:.2f}", m["median"], f"{m['min']}-{m['max']}"])
    parts += ["<h3>length, margin, lead</h3>", _table(["measure", "mean", "median", "range"], facts)]
    if stats.get("metrics"):
        parts += ["<h3>the game's metrics</h3>", _table(
            ["metric", "mean or rate", "95% interval"],
            [[name, _pct(m["rate"]) if m["kind"] == "yes/no" else f"{m.get('mean', 0):.2f}",
              _ci(m["ci95"]) if m["kind"] == "yes/no" else
              (f"[{m['ci95'][0]:.2f}, {m['ci95'][1]:.2f}]" if m.get("ci95") else "")]
             for name, m in stats["metrics"].items()])]
    if stats.get("counts"):
        parts += ["<h3>fired or chosen</h3>", _table(
            ["rule, statement, option or card", "per game", "games", "seats that chose it", "their win rate",
             "95% interval"],
            [[c["name"], f"{c['per_game']:.2f}", c["games"], c.get("seats", ""),
              _pct(c.get("win_rate")) if "seats" in c else "", _ci(c.get("ci95"))]
             for c in stats["counts"]])]
    return "\n".join(parts)


def _compare_table(result: dict) -> str:
    def value(m, x):
        if x is None:
            return ""
        return _pct(x) if m["kind"] == "rate" else f"{x:.2f}"

    def diff(m, x):
        return "" if x is None else (f"{100 * x:+.1f}" if m["kind"] == "rate" else f"{x:+.2f}")

    rows = []
    for m in result["metrics"]:
        ci = m["ci"]
        rows.append([m["name"], value(m, m["base"]), value(m, m["variant"]), diff(m, m["diff"]),
                     "" if ci is None else f"[{diff(m, ci[0])}, {diff(m, ci[1])}]",
                     "" if m["p_value"] is None else f"{m['p_value']:.4f}", m["test"],
                     "yes" if m["significant"] else ""])
    return _table(["measure", "base", "variant", "difference", "95% interval", "p", "test", "significant"],
                  rows)


_STYLE = """body{font-family:sans-serif;max-width:60em;margin:2em auto;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.2em .6em;
text-align:right}td:first-child,th:first-child{text-align:left}img{max-width:100%;display:block;margin:1em 0}
.note{color:#555;font-size:90%}"""


def report_html(title: str, lines: list[str], series, drawn: list[tuple[str, dict[str, bytes]]],
                compare: dict | None = None) -> str:
    """The page: a title, lines describing the run, the tables, and every chart (`drawn` as PNG)."""
    body = [f"<h1>{html.escape(title)}</h1>"] + [f"<p>{html.escape(x)}</p>" for x in lines]
    if compare is not None:
        body += ["<h2>differences</h2>", _compare_table(compare),
                 "<p class=note>Rates in %, differences in points. Significant: Benjamini-Hochberg "
                 f"adjusted p &lt; {compare['alpha']} over all {len(compare['metrics'])} measures. Tests: "
                 "McNemar exact for yes/no measures of a game, paired t for numbers, two-proportion z for "
                 "win rates among seats.</p>"]
    body.append("<h2>charts</h2>")
    for stem, data in drawn:
        body.append(f'<img alt="{html.escape(stem)}" src="{_png(data["png"])}">')
    for label, stats, _rows in series:
        body += [f"<h2>{html.escape(label)}</h2>", _run_tables(stats)]
    return ("<!DOCTYPE html>\n<html><head><meta charset=utf-8><title>" + html.escape(title) + "</title>"
            f"<style>{_STYLE}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")
