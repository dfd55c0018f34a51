"""The speed table of issue #24, each row beside its hand-written reference, in one run.

    python bench/speed_table.py [--quick] [--suite] [--refs DIR] [--rounds N] [--only ROW ...]
                                [--out FILE]

The machine's speed drifts from minute to minute, so the engine and the references
(`formula5_ref.py`, `heat_ref.py`: Python written by hand for one game, outside this project,
called by path, by default from the `shared/bench` folder beside the project's) take turns: a
batch of the engine, a batch of the reference, `--rounds` times, and the median of each is
compared. The rows:

- `validate rulesets/heat`: cold (no kept verdicts), unchanged (all kept) and after editing one
  variant, on a copy of the project with a cache folder of its own: seconds of wall clock, and
  of processor time of the command and its worker processes;
- Formula 5 with 5 random seats, Heat (USA) with 4 random and with 4 greedy seats: games per
  second on one core, engine and reference (the reference's random Formula 5 players pit about
  10% of the time, the engine's random bot picks uniformly among the options: not the same
  games, the same work);
- the search bot (`mcts`, its default budget) at Heat with 2 players against a greedy bot:
  its decisions per second of processor time, and a whole race's processor time;
- `simulate --jobs 2` against `--jobs 1` on the same games (the speed-up, and how much of the
  run the two workers were busy: the rest is the pool's own cost);
- `racecraft simulate downforce --seats mcts,greedy --games 20 --jobs 2`: seconds of wall clock;
- the test suite (`--suite`: `pytest -q -n 2`): seconds of wall clock;
- start-up: a process that imports what a game command imports and makes the parser, and
  `racecraft --help`, against `python -c pass` (median of processes).

`--quick` plays smaller batches (a few minutes in all). `--out FILE` writes the table (Markdown)
to FILE as well. docs/performance.md keeps the latest figures.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.agents.base import RandomAgent  # noqa: E402
from interpreter.agents.greedy import GreedyAgent  # noqa: E402
from interpreter.agents.kinds import BOTS  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402
from interpreter.session.load import load  # noqa: E402
from interpreter.session.playing import play  # noqa: E402

PY = sys.executable
IMPORTS = ("import interpreter.cli, interpreter.session.load, interpreter.engine.game, "
           "interpreter.authoring.validate, interpreter.agents.greedy; "
           "from interpreter.lang.parser import _parser; _parser()")


def default_refs() -> Path:
    """`shared/bench` beside the project (or beside the folder of worktrees it is in)."""
    for base in (ROOT.parent, ROOT.parent.parent):
        if (base / "shared" / "bench").is_dir():
            return base / "shared" / "bench"
    return ROOT.parent / "shared" / "bench"


# ---- measuring ------------------------------------------------------------------------------------

def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd: list[str], env: dict | None = None, cwd: Path | None = None) -> tuple[float, float, str]:
    """(wall seconds, processor seconds of the process and its children, standard output)."""
    cpu, start = children_cpu(), time.perf_counter()
    out = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if out.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({out.returncode}):\n{out.stderr[-2000:]}")
    return wall, children_cpu() - cpu, out.stdout


def engine_games(plan, games: int, bot: str, seed: int) -> float:
    """Games per second (wall clock) of `games` seeded games with one kind of bot at every seat."""
    kind = GreedyAgent if bot == "greedy" else RandomAgent
    start = time.perf_counter()
    for i in range(games):
        s = seed + i
        play(Game(plan, s), [kind(f"{s}/{k}") for k in range(plan.n_seats)])
    return games / (time.perf_counter() - start)


def reference(cmd: list[str]) -> float:
    """The games (or races) per second a reference prints."""
    _wall, _cpu, out = run(cmd)
    m = re.search(r"([0-9.]+) (?:games|races)/s", out)
    if m is None:
        raise SystemExit(f"{' '.join(cmd)} printed no rate: {out!r}")
    return float(m.group(1))


def side_by_side(engine, ref, rounds: int) -> tuple[float, float | None]:
    """Medians of the engine's and the reference's rates, measured in turn."""
    mine, theirs = [], []
    for _ in range(rounds):
        mine.append(engine())
        if ref is not None:
            theirs.append(ref())
    return statistics.median(mine), (statistics.median(theirs) if theirs else None)


# ---- the rows -------------------------------------------------------------------------------------

class Table:
    def __init__(self):
        self.rows: list[tuple[str, str, str, str, str]] = []

    def add(self, what: str, engine: str, ref: str = "—", ratio: str = "—", goal: str = "") -> None:
        self.rows.append((what, engine, ref, ratio, goal))
        print(f"  {what}: {engine}" + (f" | reference {ref} | {ratio}" if ref != "—" else ""), flush=True)

    def markdown(self) -> str:
        lines = ["| what | engine | reference | ratio | goal |", "|---|---|---|---|---|"]
        lines += [f"| {' | '.join(r)} |" for r in self.rows]
        return "\n".join(lines)


def rate_row(t: Table, what: str, engine, ref, rounds: int, unit: str, goal: str) -> None:
    mine, theirs = side_by_side(engine, ref, rounds)
    if theirs is None:
        t.add(what, f"{mine:,.1f} {unit}", goal=goal)
    else:
        t.add(what, f"{mine:,.1f} {unit}", f"{theirs:,.1f} {unit}", f"{mine / theirs:.3f}×", goal)


def validate_rows(t: Table) -> None:
    with tempfile.TemporaryDirectory(prefix="speed-") as tmp:
        project = Path(tmp) / "project"
        for folder in ("rulesets/heat", "cards/heat", "tracks/heat"):
            shutil.copytree(ROOT / folder, project / folder)
        env = dict(os.environ, XDG_CACHE_HOME=str(Path(tmp) / "cache"))
        cmd = [PY, "-m", "interpreter.cli", "validate", "rulesets/heat"]
        cold = run(cmd, env, project)
        warm = run(cmd, env, project)
        variant = project / "rulesets" / "heat" / "variants" / "sprint.yaml"
        variant.write_text(variant.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
        edited = run(cmd, env, project)
    t.add("`racecraft validate rulesets/heat`, cold", f"{cold[0]:.1f} s wall, {cold[1]:.1f} s CPU",
          goal="≤ 20 s")
    t.add("… nothing changed", f"{warm[0]:.1f} s wall, {warm[1]:.1f} s CPU")
    t.add("… after editing one variant", f"{edited[0]:.1f} s wall, {edited[1]:.1f} s CPU", goal="≤ 5 s")


def search_row(t: Table, quick: bool) -> None:
    plan = load("heat").plan(2)
    game = Game(plan, 1)
    bot, other = BOTS["mcts"]("speed/0"), GreedyAgent("speed/1")
    decisions, cpu = 0, 0.0
    most = 12 if quick else 10**9
    while not game.over and decisions < most:
        d = game.decision()
        if d.seat == 0:
            start = time.process_time()
            pick = bot.choose(game, d)
            cpu += time.process_time() - start
            decisions += 1
        else:
            pick = other.choose(game, d)
        game.choose(pick)
    race = f", {cpu:.1f} CPU s a race" if game.over else f" ({decisions} decisions)"
    t.add("search bot, Heat 2 players, default budget", f"{decisions / cpu:.1f} decisions/s CPU{race}",
          goal="≥ 3× today (~10/s)")


def simulate_row(t: Table, quick: bool) -> None:
    games = 4 if quick else 20
    wall, cpu, _ = run([PY, "-m", "interpreter.cli", "simulate", "downforce", "--seats", "mcts,greedy",
                        "--games", str(games), "--jobs", "2"])
    t.add(f"`simulate downforce --seats mcts,greedy --games {games} --jobs 2`",
          f"{wall:.0f} s wall, {cpu:.0f} s CPU", goal="≤ 120 s (20 games)")


def _timed_task(task):
    """A task of `simulate`, with how long it kept its worker busy (wall clock)."""
    from interpreter.lab.simulate import play_games

    start = time.perf_counter()
    rows = play_games(task)
    return rows, time.perf_counter() - start


def scaling_row(t: Table, quick: bool) -> None:
    from interpreter.lab.simulate import LocalBackend, Setup, compiled, seeds, tasks_for

    setup = Setup.of("heat", ["random"] * 4)
    compiled(setup)
    games = seeds(5, 24 if quick else 80)
    walls, cpus, busy = {}, {}, 0.0
    for jobs in (1, 2):
        start, cpu = time.perf_counter(), children_cpu() + time.process_time()
        done = list(LocalBackend(jobs).map(_timed_task, tasks_for(setup, games, jobs)))
        walls[jobs] = time.perf_counter() - start
        cpus[jobs] = children_cpu() + time.process_time() - cpu
        if jobs == 2:
            busy = sum(b for _, b in done) / (2 * walls[2])
    t.add(f"`simulate --jobs 2` against `--jobs 1` (Heat, 4 random seats, {len(games)} games)",
          f"speed-up {walls[1] / walls[2]:.2f}× (wall clock: the machine's other work counts); "
          f"CPU {cpus[2] / cpus[1] - 1:+.0%}; workers busy {busy:.0%} of the run", goal="scales with cores")


def suite_row(t: Table) -> None:
    wall, cpu, _ = run([PY, "-m", "pytest", "-q", "-n", "2", "-p", "no:cacheprovider"], cwd=ROOT)
    t.add("the test suite (`pytest -q -n 2`)", f"{wall:.0f} s wall, {cpu:.0f} s CPU", goal="≤ 180 s")


def startup_rows(t: Table, rounds: int) -> None:
    def medians(cmd) -> tuple[float, float]:
        runs = [run(cmd) for _ in range(rounds)]
        return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)
    empty = medians([PY, "-c", "pass"])
    full = medians([PY, "-c", IMPORTS])
    helped = medians([PY, "-m", "interpreter.cli", "--help"])
    t.add("start-up: imports of a game command and the parser", f"{full[1]:.3f} s CPU, {full[0]:.3f} s wall",
          f"{empty[1]:.3f} s CPU (`python -c pass`)", f"{full[1] / empty[1]:.0f}×", "≤ 0.5 s")
    t.add("start-up: `racecraft --help`", f"{helped[1]:.3f} s CPU, {helped[0]:.3f} s wall",
          f"{empty[1]:.3f} s CPU", f"{helped[1] / empty[1]:.0f}×")


def machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0, 0, 0)
    return (f"{model}, {os.cpu_count()} cores, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}, "
            f"Python {sys.version.split()[0]}, {time.strftime('%Y-%m-%d %H:%M')}")


ROWS = ("validate", "formula5", "heat-random", "heat-greedy", "search", "simulate", "suite", "startup")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="smaller batches (a few minutes in all)")
    ap.add_argument("--suite", action="store_true", help="also time the test suite")
    ap.add_argument("--refs", type=Path, default=default_refs(),
                    help="the folder of formula5_ref.py and heat_ref.py (default: %(default)s)")
    ap.add_argument("--rounds", type=int, default=3, help="turns of engine and reference (default 3)")
    ap.add_argument("--only", nargs="+", choices=ROWS, help="only these rows")
    ap.add_argument("--out", type=Path, help="write the table (Markdown) to this file too")
    args = ap.parse_args()
    rows = set(args.only or [r for r in ROWS if r != "suite" or args.suite])
    q = args.quick
    f5_ref, heat_ref = args.refs / "formula5_ref.py", args.refs / "heat_ref.py"
    have_refs = f5_ref.is_file() and heat_ref.is_file()
    if not have_refs:
        print(f"no references in {args.refs}: engine figures only", file=sys.stderr)
    start = machine()
    print(f"machine: {start}", flush=True)
    t = Table()
    if "validate" in rows:
        validate_rows(t)
    if "formula5" in rows:
        plan = load("formula5").plan(5)
        n, m = (150, 1000) if q else (500, 4000)
        rate_row(t, "Formula 5, 5 random seats", lambda: engine_games(plan, n, "random", 1),
                 (lambda: reference([PY, str(f5_ref), str(m), "1"])) if have_refs else None,
                 args.rounds, "games/s", "≥ 0.3×")
    for bot, goal in (("random", "≥ 0.25×"), ("greedy", "≥ 0.15×")):
        if f"heat-{bot}" in rows:
            plan = load("heat", track="usa").plan(4)
            n, m = {"random": (12, 100), "greedy": (6, 100)}[bot] if q else \
                {"random": (40, 400), "greedy": (20, 300)}[bot]
            rate_row(t, f"Heat (USA), 4 {bot} seats", lambda b=bot, p=plan, k=n: engine_games(p, k, b, 1),
                     (lambda b=bot, k=m: reference([PY, str(heat_ref), "--games", str(k), "--players", "4",
                                                    "--bot", b, "--track", "usa", "--seed", "1"]))
                     if have_refs else None, args.rounds, "races/s", goal)
    if "search" in rows:
        search_row(t, q)
    if "simulate" in rows:
        scaling_row(t, q)
        simulate_row(t, q)
    if "suite" in rows:
        suite_row(t)
    if "startup" in rows:
        startup_rows(t, 5 if q else 10)
    text = f"Machine: {start}; at the end: load average " + \
        " ".join(f"{x:.1f}" for x in (os.getloadavg() if hasattr(os, "getloadavg") else ())) + \
        f"\n\n{t.markdown()}\n"
    print()
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
