"""`racecraft validate`: every check a designer's file can get, as diagnostics and a summary.

A ruleset is loaded and compiled for each player count (names, types, references), with each
of its modules and variants, and then played: seeded random playouts with a step limit catch
games that never end and rules that fail while playing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..agents.base import RandomAgent
from ..agents.greedy import GreedyAgent
from ..compile import compile_ruleset
from ..engine.game import Game, reading
from ..lang.errors import GameTooLong, RuleError
from ..ir.models import kind_of
from ..lang.diagnostics import Loc, Report
from ..load.yamlsrc import loc_of
from ..load.ruleset import load_ruleset, read_file
from ..load.structure import check_structure
from ..session.budget import budget
from ..lab.metrics import game_row
from ..table.terminal.view import render_view

PLAYOUTS = 8


@dataclass
class Validation:
    report: Report = field(default_factory=Report)
    summary: list[str] = field(default_factory=list)
    params: dict | None = None      # `--param` values, given to the rules checked


def playouts(plan, games: int = PLAYOUTS, report: Report | None = None) -> tuple[int, list[int]]:
    """Play `games` seeded games (random bots; the last with greedy bots when the game has an
    `evaluate:`), doing everything a game will do: each decision's prompt and labels, the
    greedy bot's `evaluate`, every seat's view (`show`) at each round, the result. Report the
    first failure, with its seed; return (ended, rounds)."""
    ended, rounds = 0, []
    for seed in range(1, games + 1):
        greedy = plan.evaluate is not None and seed == games
        which = f"{'greedy' if greedy else 'random'} playout, seed {seed}, {plan.n_seats} players"
        try:
            with budget():
                _playout(plan, seed, greedy)
                game_rounds = _last_rounds[0]
            ended += 1
            rounds.append(game_rounds)
        except GameTooLong as e:
            if report is not None:
                report.add("E201", f"the game does not end: {e.message} ({which})", e.loc,
                           "check the `until` of each phase and the loops that wait for a condition")
            break
        except RuleError as e:
            if report is not None:
                rule = f" in `{e.rule}`" if e.rule else ""
                ctx = e.context()
                report.add("E202", f"a rule failed while playing{rule}: {e.message}"
                           + (f" ({ctx})" if ctx else "") + f" ({which})", e.loc)
            break
    return ended, rounds


_last_rounds = [0]


def _playout(plan, seed: int, greedy: bool) -> None:
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
        if game.st.g["round"] != seen_round:  # every seat's view, once a round
            seen_round = game.st.g["round"]
            _views(game, plan)
        game.choose(bots[d.seat].choose(game, d) if d.seat is not None else 0)
    _views(game, plan)
    game_row(game, game.result(), 0, seed, [kind.name] * plan.n_seats, counts=True)  # and `metrics:`
    _last_rounds[0] = game.st.g["__rounds"]


def _views(game, plan) -> None:
    for seat in [None, *range(plan.n_seats)]:
        render_view(game.view(seat), plan)


def validate_path(path: Path, variants=(), modules=(), track: str | None = None,
                  params: dict | None = None) -> Validation:
    """Everything `racecraft validate` checks in a file or folder; with `variants`/`modules`,
    a game is checked with those applied together (and with `track`, on that track only)."""
    v = Validation(params=params)
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
    if kind == "game":
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
        from .scenario import run_scenario

        out = run_scenario(path)
        r.extend(out.report)
        if out.passed:
            v.summary.append(f"{path}: scenario \"{out.name}\" passes ({out.steps} scripted steps)")
    else:
        model = check_structure(data, kind, str(path), r)
        if model is not None:
            if kind == "cards":
                total = sum(c.count for c in model.cards)
                v.summary.append(f"{path}: {len(model.cards)} card types, {total} cards")
            else:
                v.summary.append(f"{path}: track `{model.track.id}` with boards {', '.join(model.boards)}")
    return v


def _two_up(path: Path) -> Path:
    """The ruleset folder of a file in its variants/, modules/ or seasons/ folder, named as the
    person named the file (relative to the current folder when it is inside it), so that the
    diagnostics name the files as the person does."""
    folder = path.resolve().parent.parent
    try:
        return folder.relative_to(Path.cwd().resolve())
    except ValueError:
        return folder


def _season(path: Path, v) -> None:
    """A season file: its games (the draws made with seed 1) each load and compile for the game's
    fewest players."""
    from ..lang.diagnostics import RulesetError
    from ..lab.series import Series

    folder = _two_up(path)
    if not (folder / "game.yaml").is_file() or path.parent.name != "seasons":
        if check_structure(read_file(path, v.report), "season", str(path), v.report) is not None:
            v.summary.append(f"{path}: a well-formed season (not in a ruleset's seasons/ folder)")
        return
    try:
        players = None
        series = Series.start(str(folder), path.stem, 1, [])
        for i in range(len(series.legs)):
            loaded = series.loaded(i)
            players = players or loaded.ruleset.game.game.players.min
            series.seats = ["random"] * players
            plan = series.plan(i)
            if series.standings is not None:
                for name in [*series.standings.by, *series.standings.lowest_first]:
                    if str(name) not in plan.carry_seat:
                        v.report.add("E172", f"the standings read `{name}`, which game {i + 1} does not "
                                             "carry for each seat", loc_of(name, Loc(str(path))),
                                     "list it under the game's `carry: seat:`" if not plan.carry_seat else
                                     f"carried for each seat: {', '.join(plan.carry_seat)}")
                        return
    except RulesetError as e:
        v.report.extend(e.report)
        return
    v.summary.append(f"{path}: season \"{series.name}\": {len(series.legs)} games, each compiles")


def _seasons(folder: Path, v) -> None:
    """The game's seasons, each expanded (its includes and draws, seed 1): a season that includes
    itself, has no games or too many is found here; `validate SEASON_FILE` compiles its games."""
    from ..lab.series import season_legs, seasons_of

    names = seasons_of(folder)
    counts = []
    for name in names:
        mark = v.report.errors
        legs, _standings, _ = season_legs(folder, name, 1, v.report)
        if v.report.errors == mark:
            counts.append(f"{name} ({len(legs)} game{'s' if len(legs) != 1 else ''})")
    if counts:
        v.summary.append(f"  seasons: {', '.join(counts)} (validate a season's file to compile its games)")


def _compiled(rs, r: Report, counts) -> dict:
    """The plans of a merged ruleset at these player counts; {} after a problem (reported once)."""
    plans: dict = {}
    for n in counts:
        mark = len(r.items)
        plan = compile_ruleset(rs, n, r)
        if plan is None:
            if plans:  # the same problem at every count: say it once
                del r.items[mark:]
            return {}
        plans[n] = plan
    return plans


def _ruleset(folder: Path, v: Validation, only: dict | None = None, track: str | None = None) -> None:
    """The game at every player count, then each variant and module (or only those named in
    `only`, applied together), each with seeded playouts; then the same on every other track
    the game ships (`tracks/<game>/`), compiled and played once."""
    r = v.report
    # the params given are for the rules asked for: the game alone when no variant or module is
    rs = load_ruleset(folder, report=r, track=track, params=v.params if only is None else None)
    if rs is None:
        return
    g = rs.game
    lo, hi = g.game.players.min, g.game.players.max
    plans = _compiled(rs, r, range(lo, hi + 1))
    if not r.ok:
        return
    variants = sorted(p.stem for p in (folder / "variants").glob("*.yaml"))
    modules = sorted(p.stem for p in (folder / "modules").glob("*.yaml"))
    if only is not None:
        combos = [(list(only.get("variants", [])), list(only.get("modules", [])))]
    else:
        combos = [([], [m]) for m in modules] + [([x], []) for x in variants]
    # the game itself, on its own track (or the one asked for)
    if only is None:
        ended, rounds = _play_all(plans, r)
        if not r.ok:
            return
        card_total = sum(c.count for c in rs.cards)
        steps = sum(len(ph.steps) for ph in g.phases)
        v.summary.append(
            f"{g.game.id} ({g.game.name}): ok\n"
            f"  players {lo}-{hi}; phases: {', '.join(ph.id for ph in g.phases)} ({steps} steps); "
            f"{len(g.triggers)} triggers\n"
            f"  cards: {len(rs.cards)} kinds, {card_total} in all ({', '.join(c.id for c in rs.cards)})\n"
            f"  variants: {', '.join(variants) or 'none'}; modules: {', '.join(modules) or 'none'}\n"
            f"  playouts: {_games(ended, plans)}, {_rounds(rounds)}")
    # each variant and module, played as fully
    combos = [(vs, ms) for vs, ms in combos if _variant(folder, v, vs, ms, track, full=True)]
    if only is None:
        _seasons(folder, v)
    # every other track the game ships: the game and each variant and module, played once
    if track is not None:
        return
    played = []
    for on in rs.other_tracks:
        mark = r.errors
        for vs, ms in ([([], [])] if only is None else []) + combos:
            _variant(folder, v, vs, ms, on, full=False)
        if r.errors == mark:
            played.append(on)
    if played:
        what = "the game and each variant and module" if only is None else "these rules"
        v.summary.append(f"  tracks {', '.join(played)}: {what} compiled at the fewest and most players "
                         "and played once on each")


def _variant(folder: Path, v: Validation, variants: list[str], modules: list[str], track: str | None,
             full: bool) -> bool:
    """Variants and modules applied together on a track: compiled at the fewest and most players
    the result allows, and played (fully: `PLAYOUTS` games at each count; else one game)."""
    r = v.report
    mark = r.errors
    vrs = load_ruleset(folder, variants=variants, modules=modules, report=r, track=track, params=v.params)
    if vrs is None:
        return False
    vp = vrs.game.game.players  # a variant may change the number of players
    vplans = _compiled(vrs, r, sorted({vp.min, vp.max}))
    if r.errors > mark:
        return False
    if full:
        ended, rounds = _play_all(vplans, r)
    else:
        ended, rounds = playouts(vplans[vp.max], 1, r)
    if r.errors > mark:
        return False
    if full:
        names = [f"module {m}" for m in modules] + [f"variant {x}" for x in variants]
        on = f" on track {track}" if track is not None else ""
        v.summary.append(f"  {' + '.join(names) or 'the game'}{on}: ok; {_games(ended, vplans)}, "
                         f"{_rounds(rounds)}")
    return True


def _play_all(plans: dict, r: Report):
    ended, rounds = 0, []
    for n in sorted({min(plans), max(plans)}):
        e, rs = playouts(plans[n], PLAYOUTS, r)
        ended += e
        rounds += rs
        if not r.ok:
            break
    return ended, rounds


def _games(ended: int, plans: dict) -> str:
    greedy = any(p.evaluate is not None for p in plans.values())
    return f"{ended} games ended" + (" (random bots, greedy in the last of each count)" if greedy else "")


def _rounds(rounds: list[int]) -> str:
    if not rounds:
        return "no rounds"
    return f"{min(rounds)}-{max(rounds)} rounds"
