"""`racecraft validate`: every check a designer's file can get, as diagnostics and a summary.

A ruleset folder is checked as the games it makes: the game itself, each module and each variant
(or only those asked for), each on the game's own track and on every other track it ships
(`tracks/<game id>/`). Each of these games is loaded, checked and compiled once, from files
parsed once (`load/ruleset.py`), and then played in a seeded smoke game: the game alone on its
own track at every player count; each module and variant at the most players on its own track
and at the fewest and the most in turn on the others (at both when there is one track). A smoke
game is played as at a table, so that what no static check can see shows: a rule that fails in
play (E202), also one that fails only when a prompt, an option's label, a seat's view, the
result, the statistics or the greedy bot's `evaluate` is computed; and a game that never ends
(its step or round limit, E201). `--play N` plays N games at each count (the last with greedy
bots when the game has an `evaluate:`).

The games are checked on every core (`--jobs`), and each verdict is kept in the user's cache
folder (`verdicts.py`), under the digests of every file the game read and of the engine: a game
none of whose files changed is not checked again (`--no-cache` checks every one).
"""
from __future__ import annotations

import os
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..agents.base import RandomAgent
from ..agents.greedy import GreedyAgent
from ..base.collect import fewer_collections
from ..base.diagnostics import SOURCES, Loc, Report, RulesetError, visible
from ..base.errors import GameTooLong, RuleError
from ..check import check
from ..compile import Uncompilable, compile_checked
from ..engine.game import Game, reading
from ..ir.models import kind_of
from ..lab.metrics import game_row
from ..lab.series import Series, season_legs, seasons_of
from ..load.patches import blame_patches
from ..load.ruleset import load_ruleset, read_file
from ..load.structure import check_structure
from ..load.yamlsrc import loc_of
from ..session.args import raw
from ..session.budget import OutOfTime, budget
from ..session.workers import fork_context
from ..table.terminal.view import render_view
from . import verdicts
from .related import as_named, includers, racers, required_by, requiring
from .scenario import run_scenario

SMOKE_GAMES = 1  # seeded games at each player count a game is played at (`--play N`)
# the rules read as the game goes, not the flow that waits for a condition (E201's hint)
_READ = frozenset(("show", "view", "evaluate", "progress", "metrics", "record", "result"))


@dataclass
class Validation:
    """What `racecraft validate` was asked and found: the diagnostics, the summary lines, and how
    it runs (params, smoke games, processes, the verdicts' cache, progress)."""
    report: Report = field(default_factory=Report)
    summary: list[str] = field(default_factory=list)
    params: dict | None = None      # `--param` values, given to the rules checked
    play: int = SMOKE_GAMES         # smoke games at each player count
    jobs: int | None = None         # processes (None: one per core)
    cache: bool = True              # verdicts kept between runs are used and kept
    progress: "Progress | None" = None


class Progress:
    """What `validate` is doing, on standard error, from its first second: one line rewritten
    in place on a terminal, or a line now and then (`--progress` when it is not a terminal)."""

    def __init__(self, stream=None, lines: bool = False):

        # under the command's escaping stream: this writes its own `\r`, and escapes the rest
        self.stream = raw(stream if stream is not None else sys.stderr)
        self.lines = lines
        self.start = time.perf_counter()
        self.last = 0.0
        self.width = 0

    def say(self, text: str, force: bool = False) -> None:
        now = time.perf_counter()
        if not force and now - self.last < (1.0 if self.lines else 0.1):
            return
        self.last = now
        text = visible(f"validate: {text} ({now - self.start:.1f} s)")
        if self.lines:
            self.stream.write(text + "\n")
        else:
            self.stream.write("\r" + text[:119].ljust(self.width) + "\r")
            self.width = min(119, len(text))
        self.stream.flush()

    def done(self) -> None:
        if not self.lines and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()


def _say(v: Validation, text: str, force: bool = False) -> None:
    if v.progress is not None:
        v.progress.say(text, force)


@dataclass(frozen=True)
class Job:
    """One game that `validate` checks: these variants and modules applied together on a track
    (None: the game's own), played at `counts`: "all" (every player count the game allows),
    "ends" (the fewest and the most), "fewest" or "most"."""

    variants: tuple[str, ...] = ()
    modules: tuple[str, ...] = ()
    track: str | None = None
    counts: str = "ends"

    @property
    def rules(self) -> tuple:
        return self.variants, self.modules

    def name(self) -> str:
        parts = [f"module {m}" for m in self.modules] + [f"variant {x}" for x in self.variants]
        return " + ".join(parts) or "the game"

    def where(self) -> str:
        return self.name() + (f" on track {self.track}" if self.track else "")


# ---- one game: load, check, compile, play --------------------------------------------------------

def check_game(folder: Path, params: dict | None, job: Job, games: int) -> dict:
    """Load, check and compile the game of `job`, and play its smoke games; its verdict as plain
    data (`verdicts.py`): the diagnostics, the player counts played, the games that ended, their
    fewest and most rounds, and the files the game read (None when it could not be loaded)."""

    r = Report()
    out: dict = {"items": [], "counts": [], "ended": 0, "rounds": [], "files": None, "cacheable": True,
                 "applied": []}
    # a patch that cannot be made is left out and the rest checked: all of a file's mistakes at once
    rs = load_ruleset(folder, variants=job.variants, modules=job.modules, report=r, track=job.track,
                      params=params, partial=True)
    if rs is not None:
        out["files"] = [list(f) for f in rs.files]
        out["applied"] = list(rs.applied)  # with what its variants, modules and track require
        p = rs.game.game.players
        counts = {"all": list(range(p.min, p.max + 1)), "ends": sorted({p.min, p.max}),
                  "fewest": [p.min], "most": [p.max]}[job.counts]
        rounds: list[int] = []
        checked = check(rs, r)  # once, compiled for each count
        if not rs.whole:  # what else is wrong was said; a game without some of its patches is not played
            checked = None
        for n in counts:
            if checked is None:
                break
            try:
                plan = compile_checked(rs, checked, n)
            except Uncompilable as e:  # what Python refused of a rule: said where the rule is
                r.extend(e.report)
                break
            out["counts"].append(n)
            start = len(r.items)
            ended, more, lasting = playouts(plan, games, r, job.track)
            _blame_endless(r, start, rs.changed)
            out["ended"] += ended
            rounds += more
            out["cacheable"] = out["cacheable"] and lasting
            if not r.ok:
                break
        out["rounds"] = [min(rounds), max(rounds)] if rounds else []
    out["items"] = verdicts.diagnostics_data(r.items)
    return out


def playouts(plan, games: int = SMOKE_GAMES, report: Report | None = None,
             track: str | None = None) -> tuple[int, list[int], bool]:
    """Play `games` seeded games (random bots; the last with greedy bots when there are several
    and the game has an `evaluate`), doing everything a game will do: each decision's prompt and
    labels, the `evaluate` of the seat deciding, a view (`show`) at each round (each seat's and a
    spectator's in turn) and every one at the end, the result, the statistics. Report the first
    failure, with its seed; return (games ended, their rounds, whether the verdict holds on any
    machine: not when a time or memory budget stopped it)."""

    ended, rounds = 0, []
    for seed in range(1, games + 1):
        greedy = plan.evaluate is not None and games > 1 and seed == games
        which = f"{'greedy' if greedy else 'random'} playout, seed {seed}, {plan.n_seats} players" + \
            (f", track {track}" if track else "")
        try:
            with budget():
                rounds.append(_playout(plan, seed, greedy))
            ended += 1
        except GameTooLong as e:
            if report is not None:
                read = (e.rule or "").split(".")[0] in _READ
                report.add("E201", f"the game does not end: {e.message} ({which})", e.loc,
                           f"`{e.rule}` is read as the game goes: make its loops and lists shorter" if read
                           else "check the `until` of each phase and the loops that wait for a condition")
            return ended, rounds, not isinstance(e, OutOfTime)
        except RuleError as e:
            if report is not None:
                rule = f" in `{e.rule}`" if e.rule else ""
                ctx = e.context()
                report.add("E202", f"a rule failed while playing{rule}: {e.message}"
                           + (f" ({ctx})" if ctx else "") + f" ({which})", e.loc)
            return ended, rounds, "out of memory" not in e.message
    return ended, rounds, True


def _playout(plan, seed: int, greedy: bool) -> int:
    """One game as at a table (see `playouts`); the rounds it took."""

    # every `say` is computed as at the table; the statistics' `progress:` and counts run too
    game = Game(plan, seed, trace=True, tally="counts")
    kind = GreedyAgent if greedy else RandomAgent
    bots = [kind(f"validate/{seed}/{s}") for s in range(plan.n_seats)]
    seen_round = -1
    while not game.over:
        d = game.decision()
        assert d is not None  # a game that is not over waits for a decision
        _ = d.prompt, d.labels()  # what a person would be shown
        if plan.evaluate is not None and d.seat is not None:
            st, env = d._st, {"seat": d.seat}
            reading(st, lambda: plan.evaluate(st, env))  # noqa: B023 - called at once
        if game.st.g["round"] != seen_round:  # a view a round, each seat's in turn and a spectator's
            seen_round = game.st.g["round"]   # (every view every round was a fifth of validate)
            _views(game, plan, seen_round % (plan.n_seats + 1))
        game.choose(bots[d.seat].choose(game, d) if d.seat is not None else 0)
    _views(game, plan)
    game_row(game, game.result(), 0, seed, [kind.name] * plan.n_seats, counts=True)  # and `metrics:`
    return game.st.g["__rounds"]


def _views(game, plan, which: int | None = None) -> None:
    """Every seat's view and a spectator's drawn as at the table; with `which`, only one of them
    (0: the spectator's, k: seat k-1's)."""

    seats = [None, *range(plan.n_seats)]
    for seat in seats if which is None else seats[which:which + 1]:
        render_view(game.view(seat), plan)


# ---- many games: in parallel, from the cache --------------------------------------------------

# the ruleset folder and params of the run, for the worker processes (which inherit them)
_RUN: dict = {}


def _worker(job: Job) -> dict:
    return check_game(_RUN["folder"], _RUN["params"], job, _RUN["games"])


def _blame_endless(r: Report, start: int, changed: dict) -> None:
    """A game that does not end (E201) where a module or variant changed a phase (its `until`, its
    steps): said at that patch, with the phase as the place the game has it."""
    phases = frozenset(k for k in changed if k.startswith("phases."))
    if phases:
        for d in r.items[start:]:
            if d.code == "E201":
                d.about = phases
        blame_patches(r, start, changed)


def check_games(folder: Path, v: Validation, jobs: list[Job]) -> list[dict]:
    """The verdict of each job, in order: kept ones from the cache, the others checked on
    `v.jobs` processes (forked from this one, so that they share the files it parsed)."""
    params = v.params
    keys = [verdicts.key(str(folder), str(folder.resolve()), list(j.variants), list(j.modules), j.track,
                         j.counts, v.play, params) for j in jobs] if v.cache else []
    found: list[dict | None] = [None] * len(jobs)
    if v.cache:
        files = verdicts.Files()
        found = [verdicts.lookup(k, files) for k in keys]
    todo = [i for i, f in enumerate(found) if f is None]
    kept = len(jobs) - len(todo)
    done = 0

    def finished(i: int, verdict: dict) -> None:
        nonlocal done
        found[i] = verdict
        if elsewhere:
            _forget_other_texts(verdict)
        done += 1
        if v.cache and verdict["files"] is not None and verdict["cacheable"]:
            verdicts.store(keys[i], verdict)
        _say(v, f"checked {done} of {len(todo)} games" + (f" ({kept} unchanged)" if kept else "")
             + f": {jobs[i].where()}")

    _say(v, f"checking {len(todo)} games" + (f" ({kept} unchanged)" if kept else ""), force=True)
    workers = min(v.jobs or os.cpu_count() or 1, len(todo))
    context = fork_context()
    elsewhere = workers > 1 and context is not None   # verdicts checked in other processes
    for f in found:
        if f is not None:   # kept: checked by another run
            _forget_other_texts(f)
    if workers > 1 and context is not None:
        from concurrent.futures import ProcessPoolExecutor, as_completed

        _RUN.update(folder=folder, params=params, games=v.play)
        try:
            with ProcessPoolExecutor(workers, mp_context=context) as ex:
                futures = {ex.submit(_worker, jobs[i]): i for i in todo}
                for fut in as_completed(futures):
                    finished(futures[fut], fut.result())
        finally:
            _RUN.clear()
    else:
        for i in todo:
            finished(i, check_game(folder, params, jobs[i], v.play))
    if v.cache and todo:
        verdicts.prune()
    return [f for f in found if f is not None]


def _forget_other_texts(verdict: dict) -> None:
    """A verdict checked in a worker (or kept in the cache) read its files there, from the disk;
    this process may hold another text under one of their names (read from another folder, or
    before an edit): it is forgotten, so that a snippet reads the file the verdict was about."""

    for d in verdict["items"]:
        for loc in (d["loc"], d["also"] and d["also"][1]):
            if loc:
                SOURCES.pop(loc[0])


def _not_a_game_file(path: Path, data: dict, r: Report) -> None:
    """A file given to validate that names a `game` but is not a ruleset's game.yaml: a learned
    bot's file, a save, a game file under another name. Said as what it is."""
    from ..agents.learned import FORMAT

    name = path.name
    if data.get("format") == FORMAT:
        what = f"{name} is a learned bot's file (racecraft train writes it), not a ruleset"
    elif isinstance(data.get("game"), dict):
        r.add("E001", f"{name} is a game's file, but a ruleset's game file is named game.yaml",
              Loc(str(path)), "name it game.yaml, in a folder of its own, and give that folder")
        return
    else:
        what = f"{name} is a file, not a ruleset folder"
    r.add("E001", what, Loc(str(path)), "give the folder that holds game.yaml")


# loading, checking and compiling game after game: the collector runs rarely for the whole run
# (and in its workers), rather than catching up at the end of each game's passes
@fewer_collections()
def validate_path(path: Path, variants=(), modules=(), track: str | None = None,
                  params: dict | None = None, play: int = SMOKE_GAMES, jobs: int | None = None,
                  cache: bool = True, progress: Progress | None = None) -> Validation:
    """Everything `racecraft validate` checks in a file or folder; with `variants`/`modules`,
    a game is checked with those applied together (and with `track`, on that track only).
    `play`: smoke games at each player count; `jobs`: processes; `cache`: use and keep verdicts."""

    v = Validation(params=params, play=play, jobs=jobs, cache=cache, progress=progress)
    _say(v, f"reading {path}", force=True)
    only = {"variants": list(variants), "modules": list(modules)} if variants or modules else None
    r = v.report
    if not path.exists():
        r.add("E001", f"no such file or folder: {path}", Loc(str(path)))
        return v
    if path.is_dir():
        if not (path / "game.yaml").is_file():
            r.add("E001", f"{path} holds no game.yaml", Loc(str(path)), "a ruleset folder holds game.yaml")
            return v
        _ruleset(path, v, only, track)
        return v
    data = read_file(path, r)
    if data is None:
        return v
    kind = kind_of(data) if isinstance(data, dict) else None
    if kind is None:
        if isinstance(data, dict):
            what = f"this one has: {', '.join(map(str, data))}"
        else:
            what = "this one is " + ("a list" if isinstance(data, list) else "a single value")
        r.add("E006", "cannot tell what kind of file this is", getattr(data, "loc", Loc(str(path))),
              "a file starts with one of `game:`, `variant:`, `module:`, `cards:`, `track:`, "
              f"`scenario:`, `season:` ({what})")
        return v
    if kind == "game" and path.name != "game.yaml":
        _not_a_game_file(path, data, r)
    elif kind == "game":
        _ruleset(path.parent, v, only, track)
    elif kind in ("variant", "module"):
        if check_structure(data, kind, str(path), r) is None:
            return v
        folder = _two_up(path)
        if not (folder / "game.yaml").is_file():
            v.summary.append(f"{path}: a well-formed {kind} (no game.yaml two folders up to apply it to)")
            return v
        names = {"variants": [path.stem]} if kind == "variant" else {"modules": [path.stem]}
        _ruleset(folder, v, only=names, track=track)
    elif kind == "season":
        _season(path, v)
    elif kind == "scenario":

        out = run_scenario(path)
        r.extend(out.report)
        if out.passed:
            v.summary.append(f"{path}: scenario \"{out.name}\" passes ({out.steps} scripted steps)")
    else:
        model = check_structure(data, kind, str(path), r)
        if model is not None:
            if kind == "cards":
                # a card's properties mean something only to the rules that read them: the file is
                # checked as the games that include it are (as a variant's file is)
                total = sum(c.count for c in model.cards)
                users = includers(path)
                v.summary.append(f"{path}: {len(model.cards)} card types, {total} cards" + (
                    "; the games that include it:" if users else
                    " (no game of its project includes it: only its form is checked)"))
                for folder, asked in users:
                    _ruleset(folder, v, only=asked, track=track)
                    if not r.ok:
                        break
            else:
                # its params and places' properties mean something only to its game: checked with it
                games = racers(path)
                v.summary.append(f"{path}: track `{model.track.id}` with boards {', '.join(model.boards)}"
                                 + ("; raced by its game:" if games else
                                    f" (no ruleset of its project is the game `{path.parent.name}`: only its "
                                    "form is checked)"))
                for folder in games:
                    _ruleset(folder, v, only={"variants": [], "modules": []}, track=path.stem)
    return v


def _two_up(path: Path) -> Path:
    """The ruleset folder of a file in its variants/, modules/ or seasons/ folder, named as the
    person named the file (relative to the current folder when it is inside it), so that the
    diagnostics name the files as the person does."""
    return as_named(path.resolve().parent.parent)


def _season(path: Path, v) -> None:
    """A season file: its games (the draws made with seed 1) each load and compile for the game's
    fewest players."""

    folder = _two_up(path)
    if not (folder / "game.yaml").is_file() or path.parent.name != "seasons":
        if check_structure(read_file(path, v.report), "season", str(path), v.report) is not None:
            v.summary.append(f"{path}: a well-formed season (not in a ruleset's seasons/ folder)")
        return
    try:
        series = Series.start(str(folder), path.stem, 1, [])
    except RulesetError as e:
        v.report.extend(e.report)
        return
    players, failed = None, False
    for i in range(len(series.legs)):  # every game, so that each mistake of the file is said in one run
        try:
            players = players or series.loaded(i).ruleset.game.game.players.min
            series.seats = ["random"] * players
            plan = series.plan(i)
        except RulesetError as e:
            failed = True
            v.report.items.extend(d for d in e.report.items if d not in v.report.items)
            continue
        if series.standings is not None:
            for name in [*series.standings.by, *series.standings.lowest_first]:
                if str(name) not in plan.carry_seat:
                    v.report.add("E172", f"the standings read `{name}`, which game {i + 1} does not "
                                         "carry for each seat", loc_of(name, Loc(str(path))),
                                 "list it under the game's `carry: seat:`" if not plan.carry_seat else
                                 f"carried for each seat: {', '.join(plan.carry_seat)}")
                    return
    if failed:
        return
    v.summary.append(f"{path}: season \"{series.name}\": {len(series.legs)} games, each compiles")


def _seasons(folder: Path, v) -> None:
    """The game's seasons, each expanded (its includes and draws, seed 1): a season that includes
    itself, has no games or too many is found here; `validate SEASON_FILE` compiles its games."""

    names = seasons_of(folder)
    counts = []
    for name in names:
        mark = v.report.errors
        legs, _standings, _ = season_legs(folder, name, 1, v.report)
        if v.report.errors == mark:
            counts.append(f"{name} ({len(legs)} game{'s' if len(legs) != 1 else ''})")
    if counts:
        v.summary.append(f"  seasons: {', '.join(counts)} (validate a season's file to compile its games)")
    scenarios = folder / "scenarios"
    n = sum(1 for _ in scenarios.glob("*.yaml")) if scenarios.is_dir() else 0
    if n:  # (not run here: `check` runs them, a minute for a game with a hundred)
        v.summary.append(f"  scenarios: {n} (racecraft check {as_named(scenarios)} runs them)")


def _ruleset(folder: Path, v: Validation, only: dict | None = None, track: str | None = None) -> None:
    """The game, then each module and variant (or only those named in `only`, applied together),
    each on the game's own track (or `track`) and then on every other track the game ships: each
    such game loaded, checked, compiled and played (`check_game`)."""

    r = v.report
    # the game alone first: a problem there is a problem of every game made of it
    # (the params given are for the rules asked for: the game alone when no variant or module is)
    alone = Report()  # its warnings are said with the games checked below (the game alone is one)
    rs = load_ruleset(folder, report=alone, track=track, params=v.params if only is None else None)
    if rs is None or check(rs, alone) is None:
        r.extend(alone)
        return
    g = rs.game
    variants = sorted(p.stem for p in (folder / "variants").glob("*.yaml"))
    modules = sorted(p.stem for p in (folder / "modules").glob("*.yaml"))
    for name in sorted(set(variants) & set(modules)):   # one namespace: said at both files
        for kind, other in (("modules", "variants"), ("variants", "modules")):
            r.add("E054", f"`{name}` is both a module and a variant of this ruleset",
                  Loc(str(folder / kind / f"{name}.yaml"), 1, 1),
                  f"give it a name of its own: {folder / other / (name + '.yaml')} has this one")
    others = rs.other_tracks if track is None else []
    # a track that requires modules or variants is raced with them: the game alone there, and an
    # add-on that is one of them or requires them too, not any other (a combination no file declares)
    needs = requiring(folder, str(g.game.id), others)
    raced = [t for t in others if t not in needs]

    def declared(j: Job, t: str) -> bool:
        if t not in needs or (not j.variants and not j.modules):
            return True
        names = set(j.variants) | set(j.modules)
        return needs[t] <= names | {x for name in names for x in required_by(folder, name)}
    # each game on each track is compiled once, for one player count: the most on its own track,
    # then the fewest and the most in turn on the others (on one track only: both)
    ends = "most" if raced else "ends"
    if only is not None:
        own = [Job(tuple(only.get("variants", [])), tuple(only.get("modules", [])), track, ends)]
    else:
        own = [Job(track=track, counts="all")] + [Job((), (m,), track, ends) for m in modules] + \
            [Job((x,), (), track, ends) for x in variants]
    jobs = own + [Job(j.variants, j.modules, t, ("fewest", "most")[k % 2])
                  for k, t in enumerate(others) for j in own if declared(j, t)]
    found = check_games(folder, v, jobs)
    _merge(v, jobs, found)
    if not r.ok:
        return
    if only is None:
        lo, hi = g.game.players.min, g.game.players.max
        steps = sum(len(ph.steps) for ph in g.phases)
        v.summary.append(
            f"{g.game.id} ({g.game.name}): ok\n"
            f"  players {lo}-{hi}; phases: {', '.join(ph.id for ph in g.phases)} ({_count(steps, 'step')}); "
            f"{_count(len(g.triggers), 'trigger')}\n"
            f"  cards: {_cards(rs.cards)}\n"
            f"  variants: {', '.join(variants) or 'none'}; modules: {', '.join(modules) or 'none'}"
            + (f"\n  tracks: its own, {', '.join(_track_names(others, jobs, found))}" if others else ""))
    for job in own:
        line = _played([f for j, f in zip(jobs, found) if j.rules == job.rules],
                       len({j.track for j in jobs if j.rules == job.rules}))
        if not job.rules[0] and not job.rules[1]:
            v.summary.append(f"  playouts: {line}")
        else:   # with the add-ons it requires (`variant b (with variant a, module m)`)
            applied: list[str] = next((f.get("applied", []) for j, f in zip(jobs, found) if j == job), [])
            v.summary.append(f"  {_combination(Job(job.variants, job.modules), applied)}: ok; {line}")
    if only is None:
        _seasons(folder, v)


def _merge(v: Validation, jobs: list[Job], found: list[dict]) -> None:
    """The diagnostics of every game checked, each said once: a game that failed on one track
    is not reported again on the next, and a diagnostic that several games share is listed once
    with a note naming them. After a failure of the game alone, only its own diagnostics."""
    r = v.report
    failed: set = set()
    said: dict = {}  # a diagnostic, without the playout it was found in -> (it, the games)
    for job, verdict in zip(jobs, found):
        if job.rules in failed:
            continue
        items = verdicts.diagnostics(verdict["items"])
        for d in items:
            same = (d.code, _PLAYOUT.sub("", d.message), d.loc, d.hint, d.severity)
            if same in said:
                said[same][1].append(job)
                continue
            said[same] = (d, [job])
            r.items.append(d)
        if any(d.severity == "error" for d in items):
            failed.add(job.rules)
            if job is jobs[0] and not job.variants and not job.modules:
                break
    applied = {job: verdict.get("applied", []) for job, verdict in zip(jobs, found)}
    for d, games in said.values():
        if d.severity == "error" and (len(games) > 1 or games[0].rules != ((), ()) or applied[games[0]]):
            names = [_combination(j, applied[j]) for j in games]
            shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
            d.notes = (*d.notes, f"found in {shown}")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _cards(cards) -> str:
    """The summary's card line: the kinds, how many cards the game has of its own and of each
    seat or piece (a deck of each rider is counted once), the kinds' names."""
    if not cards:
        return "none"
    shared = sum(c.count for c in cards if not c.per_seat and not c.per_piece)
    seat = sum(c.count for c in cards if c.per_seat)
    # the cards of each piece, by the pieces they go to (a kind, some pieces by name): a sprinter's
    # are not a rouleur's; those of every piece (`per_piece: true`) count in each
    every = sum(c.count for c in cards if c.per_piece is True)
    groups: dict[str, int] = {}
    for c in cards:
        if c.per_piece and c.per_piece is not True:
            named = c.per_piece if isinstance(c.per_piece, list) else None
            said = ", ".join(map(str, named)) if named else f"the {c.per_piece}"
            groups[said] = groups.get(said, 0) + c.count
    pieces = [f"{n + every} for each of {said}" for said, n in groups.items()] or \
        ([f"{every} for each piece"] if every else [])
    parts = ([f"{shared} in all"] if shared or not (seat or pieces) else []) + \
        ([f"{seat} for each seat"] if seat else []) + pieces
    return f"{_count(len(cards), 'kind')}, {', '.join(parts)} ({', '.join(c.id for c in cards)})"


def _track_names(tracks: list[str], jobs: list[Job], found: list[dict]) -> list[str]:
    """The other tracks, each with the modules and variants it requires (`long (with variant laps)`)."""
    needs = {j.track: f.get("applied", []) for j, f in zip(jobs, found) if j.rules == ((), ())}
    return [t + (f" (with {', '.join(a.replace(':', ' ', 1) for a in needs[t])})" if needs.get(t) else "")
            for t in tracks]


def _combination(job: Job, applied: list[str]) -> str:
    """A game checked, as the modules and variants it was made of: those asked for, then those they
    (or the track) required, on its track (`variant b (with variant a, module m) on track t`)."""
    asked = {f"module:{m}" for m in job.modules} | {f"variant:{x}" for x in job.variants}
    more = [a.replace(":", " ", 1) for a in applied if a not in asked]
    return job.name() + (f" (with {', '.join(more)})" if more else "") + \
        (f" on track {job.track}" if job.track else "")


_PLAYOUT = re.compile(r" \((random|greedy) playout, seed \d+, \d+ players(, track [^)]*)?\)$")


def _played(found: list[dict], tracks: int) -> str:
    """What the smoke games of some rules came to, on every track they were played on."""
    ended = sum(f["ended"] for f in found)
    counts = sorted({n for f in found for n in f["counts"]})
    rounds = [x for f in found for x in f["rounds"]]
    if not counts:
        players = "no players"
    elif len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
        players = f"{counts[0]}-{counts[-1]} players"
    else:
        players = " and ".join(map(str, counts)) + " players"
    where = f", {tracks} tracks" if tracks > 1 else ""
    span = f"{min(rounds)}-{max(rounds)} rounds" if rounds else "no rounds"
    return f"{ended} game{'s' if ended != 1 else ''} ended ({players}{where}), {span}"
