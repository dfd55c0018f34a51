"""A series of games: a championship, a tour. Games are played in a row; each hands on to the next
what its game file's `carry:` declares (values of each seat and of the game, the cards of piles),
and the seats are ranked by carried values.

A season file (`rulesets/<game>/seasons/NAME.yaml`) lists its games (track, variants, modules,
params), draws them from the season's seed, or includes other seasons. A series is (the game, the
season, the seed, the seats, the decisions of each game): game i is played with seed
`game_seed(seed, i)` by bots seeded from it, so a series saved after a game, or in the middle of
one, and resumed ends exactly as it would have ended without the stop.

This is the season's model: its games, the rules of each, what each hands on, the standings (and
the words that tell them), the save and its resumption (many seasons played by bots: `simulate.py`). What
plays it is elsewhere: `terminal.py` at the terminal, `web/seasons.py` at the web table.
"""
from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..agents.kinds import BOTS, FORMS
from ..engine.game import CHANCE, Game, carried, kept, streams
from ..ir.models import SeasonFile, Standings
from ..base.diagnostics import Loc, Report, RulesetError
from ..base.errors import RuleError
from ..base.files import FileRefused, Journal, read_limited, write_atomic
from ..base.limits import MAX_LIST
from ..load.names import NAME_RE, shown
from ..load.ruleset import find_game, find_ruleset, read_file
from ..load.structure import check_structure
from ..load.yamlsrc import loc_of
from ..session.playing import bot_choice
from ..session.args import MAX_PLAYERS, MAX_SEED, seats_fit, sit_again
from ..session.record import TooLong, json_line
from ..session.load import Loaded, load_from

SERIES_VERSION = 1
MAX_SAVE_BYTES = 64_000_000
MAX_GAMES = 100
MAX_SEASON_READS = 1000   # season files read to expand one season's includes


def game_seed(seed: int, i: int) -> int:
    return seed * 1_000_003 + i


@dataclass
class Leg:
    """One game of a season: what it plays with."""
    track: str | None = None
    variants: list[str] = field(default_factory=list)
    modules: list[str] = field(default_factory=list)
    params: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"track": self.track, "variants": self.variants, "modules": self.modules,
                "params": self.params}


# ---- season files ------------------------------------------------------------------------------

def season_path(folder: Path, name: str) -> Path:
    return folder / "seasons" / f"{name}.yaml"


def seasons_of(folder: Path) -> list[str]:
    where = folder / "seasons"
    return sorted(p.stem for p in where.glob("*.yaml")) if where.is_dir() else []


def read_season(folder: Path, name: str, report: Report, loc: Loc | None = None) -> SeasonFile | None:
    if not isinstance(name, str) or NAME_RE.fullmatch(name) is None:
        report.add("E170", f"`{shown(name)}` is not a season name", loc,
                   "a season is named by its file in seasons/ without `.yaml`")
        return None
    path = season_path(folder, name)
    if not path.is_file():
        have = seasons_of(folder)
        report.add("E170", f"no season `{shown(name)}` in {folder / 'seasons'}", loc,
                   f"seasons: {', '.join(have)}" if have else
                   "put season files in the ruleset's seasons/ folder")
        return None
    data = read_file(path, report)
    if data is None:
        return None
    model = check_structure(data, "season", str(path), report)
    return model if isinstance(model, SeasonFile) else None


class _Expansion:
    """How far a season's includes have grown: season files read and games gathered, each stopped at
    its limit as it grows (30 seasons each including the next twice would be 2**30 games)."""

    def __init__(self):
        self.reads = 0
        self.stopped = False


def season_legs(folder: Path, name: str, seed: int, report: Report,
                _within: tuple[str, ...] = (), _grown: _Expansion | None = None,
                _at: Loc | None = None) -> tuple[list[Leg], Standings | None, str]:
    """The games of a season (draws made from `seed`), its standings and its name. Includes are
    expanded with a count: at most MAX_SEASON_READS season files read and MAX_GAMES games, the
    first excess reported (E172) and the expansion stopped there."""
    grown = _grown or _Expansion()
    grown.reads += 1
    if grown.reads > MAX_SEASON_READS:
        report.add("E172", f"season `{_within[0] if _within else name}` reads more than {MAX_SEASON_READS} "
                   "season files through its includes", _at, "include each season once")
        grown.stopped = True
        return [], None, name
    season = read_season(folder, name, report, _at)
    if season is None:
        grown.stopped = True
        return [], None, name
    legs: list[Leg] = []
    standings = season.standings
    path = season_path(folder, name)
    for k, inner in enumerate(season.include):
        where = loc_of(inner, Loc(str(path)))
        if inner in _within or inner == name:
            chain = " → ".join([*_within, name, str(inner)][[*_within, name].index(inner):]) \
                if inner in (*_within, name) else inner
            report.add("E171", f"season `{name}` includes `{inner}`, which includes it ({chain})", where,
                       "a season cannot contain itself")
            grown.stopped = True
            return [], None, name
        more, inner_standings, _ = season_legs(folder, inner, game_seed(seed, 1000 + k), report,
                                               (*_within, name), grown, where)
        if grown.stopped:
            return [], None, name
        if len(legs) + len(more) > MAX_GAMES:
            report.add("E172", f"season `{name}` has more than {MAX_GAMES} games (with `{inner}`)", where)
            grown.stopped = True
            return [], None, name
        if more and k > 0 and season.between is not None:
            more[0] = _joined(more[0], season.between)
        legs += more
        standings = standings or inner_standings
    legs += [_joined(Leg(), race) for race in season.races]
    if season.draw is not None:
        rng = random.Random(f"{seed}/season")
        tracks = list(season.draw.tracks)
        variants = list(season.draw.variants)
        rng.shuffle(tracks)
        rng.shuffle(variants)
        for j in range(season.draw.count):
            legs.append(Leg(track=tracks[j % len(tracks)],
                            variants=[variants[j % len(variants)]] if variants else []))
    for leg in legs:
        leg.variants = [*season.variants, *leg.variants]
        leg.modules = [*season.modules, *leg.modules]
        leg.params = {**season.params, **leg.params}
    if not legs and not _within:
        report.add("E172", f"season `{name}` has no games", Loc(str(path)),
                   "give `races:`, `draw:` or `include:`")
    if len(legs) > MAX_GAMES:
        report.add("E172", f"season `{name}` has {len(legs)} games: at most {MAX_GAMES}", Loc(str(path)))
        grown.stopped = True
        return [], None, name
    if standings is None and not _within:
        report.add("E172", f"season `{name}` says nothing of its standings", Loc(str(path)),
                   "standings: {by: [points]} (carried state variables of each seat, highest first)")
    return legs, standings, season.season.name


def _joined(leg: Leg, race) -> Leg:
    return Leg(track=race.track or leg.track, variants=[*leg.variants, *race.variants],
               modules=[*leg.modules, *race.modules], params={**leg.params, **race.params})


# ---- a series ------------------------------------------------------------------------------------

# the compiled rules of the games played in this process (a season plays several on the same tracks
# and variants; simulated seasons play them all again)
_PLANS: dict = {}

def game_ref(folder: Path) -> str:
    """How a save names its game: by its name when that finds this folder from here (./rulesets, the
    project's rulesets), else by its path relative to here (where the season was started): never an
    absolute path, so a save can move with its project."""
    by_name = find_game(folder.name)
    try:
        if by_name is not None and os.path.samefile(by_name, folder):
            return folder.name
    except OSError:
        pass
    return os.path.relpath(folder)


@dataclass
class Series:
    """A season: its games in turn (a track, variants and params each), what each hands on to the
    next (`carry:`), the points and standings; played, saved and resumed exactly from its seed."""
    game: str                 # how a save names the game (`game_ref`): its name, or a relative path
    folder: Path
    season: str
    seed: int
    seats: list[str]          # the kind of each seat: human or a bot (`agents.kinds`)
    variants: list[str] = field(default_factory=list)   # given on the command line, to every game
    modules: list[str] = field(default_factory=list)
    params: dict = field(default_factory=dict)
    legs: list[Leg] = field(default_factory=list)
    standings: Standings | None = None
    name: str = ""
    played: list[dict] = field(default_factory=list)   # per game: picks, digest, result, carried
    # how its games draw their chance (`engine.game.CHANCE`); None: a save from before saves noted it
    chance: int | None = CHANCE

    @classmethod
    def start(cls, game: str, season: str, seed: int, seats: list[str], variants=(), modules=(),
              params: dict | None = None) -> Series:
        report = Report()
        folder = find_ruleset(game)
        if folder is None or not folder.is_dir():
            report.add("E001", f"no ruleset `{shown(game)}`", None,
                       "give a ruleset: a folder name under rulesets/, or a path")
            raise RulesetError(report)
        legs, standings, name = season_legs(folder, season, seed, report)
        if not report.ok:
            raise RulesetError(report)
        return cls(game_ref(folder), folder, season, seed, list(seats), list(variants), list(modules),
                   dict(params or {}), legs, standings, name)

    # the rules of game i
    def loaded(self, i: int) -> Loaded:
        leg = self.legs[i]
        return load_from(self.folder, [*leg.variants, *self.variants], [*leg.modules, *self.modules],
                         leg.track, {**leg.params, **self.params} or None)

    def plan(self, i: int):
        leg = self.legs[i]
        key = json.dumps([str(self.folder.resolve()), len(self.seats), leg.as_dict(), self.variants,
                          self.modules, self.params], sort_keys=True)
        if key not in _PLANS:
            _PLANS[key] = self.loaded(i).plan(len(self.seats))
        return _PLANS[key]

    @property
    def done(self) -> bool:
        return len(self.played) == len(self.legs) and (not self.played or "result" in self.played[-1])

    def carried_before(self, i: int) -> dict | None:
        return self.played[i - 1]["carried"] if i > 0 else None

    def title(self, i: int) -> str:
        """How a person names game i: its track's and its own modules' and variants' names."""
        leg = self.legs[i]
        # (a module every game has is the season's, not this game's)
        every = set.intersection(*(set(x.modules) for x in self.legs))
        names = [_name_in(self.folder / "modules" / f"{m}.yaml", "module") or m for m in leg.modules
                 if m not in every] + \
            [_name_in(self.folder / "variants" / f"{v}.yaml", "variant") or v for v in leg.variants]
        track = _name_in(self.folder.parent.parent / "tracks" / self.folder.name / f"{leg.track}.yaml",
                         "track") if leg.track else None
        return f"game {i + 1} of {len(self.legs)}" + (f", {track or leg.track}" if leg.track else "") + \
            (f": {', '.join(names)}" if names else "")

    def next_game(self) -> tuple[int, dict]:
        """The next game to play (or to finish): its number and its entry in `played`."""
        if self.played and "result" not in self.played[-1]:
            i = len(self.played) - 1
            entry = self.played[i]
        else:
            i = len(self.played)
            entry = {"picks": []}
            self.played.append(entry)
        plan = self.plan(i)
        if entry.get("digest", plan.digest) != plan.digest:
            raise RuleError(f"the rules of game {i + 1} changed since the season was saved: it cannot "
                            "be resumed exactly")
        entry["digest"] = plan.digest
        return i, entry

    def new_game(self, i: int, trace: bool = False) -> Game:
        """Game i from its start, with what the game before handed on."""
        return Game(self.plan(i), game_seed(self.seed, i), trace=trace, carried=self.carried_before(i),
                    streams=streams(self.chance))

    def finish(self, entry: dict, game: Game) -> dict:
        """A game played to its end noted in its entry: its result and what it hands on."""
        result = game.result()
        entry["result"] = kept(result)
        entry["carried"] = carried(game)
        entry["game"] = game
        return entry

    def play_next(self, make_agents, on_decision=None, guard=None, on_pick=None) -> dict:
        """Play (or finish) the next game; return its entry in `played`. `make_agents(seed)` gives
        the agents of a game played with that seed; `on_pick(game, n, pick)` hears each decision
        taken beyond those saved (to journal it)."""
        i, entry = self.next_game()
        game = self.new_game(i, trace=on_decision is not None)
        seats_fit([k for k in self.seats if k != "human"], game.plan)   # a learned bot's file: this game's
        agents = make_agents(game_seed(self.seed, i))
        recorded = list(entry["picks"])
        entry["picks"] = []
        while not game.over:
            d = game.decision()
            if d is None:  # pragma: no cover - a game that is not over always waits for a decision
                raise RuleError("the game stopped without a decision and without ending")
            k = len(entry["picks"])
            agent = agents[d.seat] if d.seat is not None else None
            if agent is None:
                pick = 0
            elif k < len(recorded) and getattr(agent, "person", False):
                pick = recorded[k]  # a person's decision, saved
            else:
                if guard is not None and not getattr(agent, "person", False):
                    pick = bot_choice(agent, game, d, guard)
                else:
                    pick = agent.choose(game, d)
                if k < len(recorded) and pick != recorded[k]:
                    raise RuleError(f"game {i + 1}, decision {k + 1}: the bot of seat {d.seat + 1} "
                                    "chose differently than when the season was saved")
            if not 0 <= pick < d.count:
                raise RuleError(f"game {i + 1}, decision {k + 1}: the saved choice is not an option")
            if on_decision is not None:
                on_decision(game, d, pick)
            entry["picks"].append(pick)
            if on_pick is not None and k >= len(recorded):
                on_pick(i, k, pick)
            game.choose(pick)
        return self.finish(entry, game)

    def replay_saved(self) -> None:
        """Play again the saved games (the finished ones with their decisions), so the series is
        where it was saved: checks each game ends as saved."""
        finished = [e for e in self.played if "result" in e]
        partial = self.played[len(finished):]
        self.played = []
        for i, saved in enumerate(finished):
            self.played.append({"picks": list(saved["picks"]), **({"digest": saved["digest"]}
                                                                  if "digest" in saved else {})})
            entry = self.play_next(lambda seed: [_Saved()] * len(self.seats))
            if entry["result"]["order"] != saved["result"]["order"]:
                raise RuleError(f"game {i + 1} did not end as saved: the rules or the engine changed")
        self.played += partial

    # standings
    def table(self) -> list[dict]:
        """The seats in standing order: seat, the standing values, each game's gain of the first value."""
        last = next((e["carried"] for e in reversed(self.played) if "carried" in e), None)
        if last is None or self.standings is None:
            return []
        names = [str(x) for x in self.standings.by]
        low = {str(x) for x in self.standings.lowest_first}
        values = {n: last["seat"].get(n, [0] * len(self.seats)) for n in names}
        first = names[0]
        gains = []
        prev = [0] * len(self.seats)
        for e in self.played:
            if "carried" in e:
                now = e["carried"]["seat"].get(first, prev)
                gains.append([None if a is None or b is None else a - b for a, b in zip(now, prev)])
                prev = now
        rows: list[dict] = [{"seat": s, "values": {n: values[n][s] for n in names},
                             "by_game": [g[s] for g in gains]} for s in range(len(self.seats))]
        # a value that is none (a seat with nothing to be ranked by: no car of its finished) after
        # every number, whichever way its column ranks
        rows.sort(key=lambda r: tuple((1, 0) if r["values"][n] is None else
                                      (0, r["values"][n] if n in low else -r["values"][n]) for n in names))
        return rows

    def champions(self) -> list[int]:
        rows = self.table()
        if not rows:
            return []
        return [r["seat"] for r in rows if r["values"] == rows[0]["values"]]

    # saving
    def to_json(self) -> dict:
        return {"type": "series", "version": SERIES_VERSION, "game": self.game, "season": self.season,
                "seed": self.seed, "seats": self.seats, "variants": self.variants, "modules": self.modules,
                "params": self.params, **({"chance": self.chance} if self.chance is not None else {}),
                "played": [{k: v for k, v in e.items() if k != "game"} for e in self.played]}

    def save(self, path: Path) -> None:
        """The series saved, atomically (`SaveFile` journals the decisions of a game under way)."""
        write_atomic(path, json.dumps(self.to_json()) + "\n")

    @classmethod
    def resume(cls, path: Path, ruleset: str | None = None) -> Series:
        """A series from its save file, its finished games played again to where it stopped (with
        `ruleset`, a folder or a name, where the save's game is not found)."""
        report = Report()
        data = read_save(path, report)
        if data is None:
            raise RulesetError(report)
        sit_again(data["seats"], str(path), "a season goes on with its own seats: put the bot's file back "
                  "as it was")
        series = cls.start(ruleset or data["game"], data["season"], data["seed"], data["seats"],
                           data["variants"], data["modules"], data["params"])
        series.played = data["played"]
        series.chance = data.get("chance")
        if len(series.played) > len(series.legs):
            report.add("E173", "the saved season has more games than the season file", Loc(str(path)))
            raise RulesetError(report)
        series.replay_saved()
        return series


class SaveFile:
    """A season's save as the season goes: the series (one JSON line) written atomically after each
    game and when stopped, and between those each decision of the game under way appended as a
    line (`{"type": "pick", "game": I, "n": K, "pick": P}`) the moment it is taken, so a season
    killed in the middle of a game resumes from its last decision."""

    def __init__(self, path: Path):
        self.path = path
        self.journal: Journal | None = None

    def write(self, series: Series) -> None:
        self.close()
        series.save(self.path)
        self.journal = Journal(self.path)

    def pick(self, game: int, n: int, pick: int) -> None:
        if self.journal is not None:
            self.journal.line(json.dumps({"type": "pick", "game": game, "n": n, "pick": pick}))

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()
            self.journal = None


def read_save(path: Path, report: Report) -> dict | None:
    """A season's save, read and checked (`_bad_save`), the journaled decisions of its game under way
    put in their place; None with a diagnostic (E173) when it cannot be read or is not a save. What
    the file holds is never shown: it may be any file."""
    where = Loc(str(path))
    hint = "a season is saved by `racecraft championship ... --save FILE`"
    try:
        text = read_limited(path, MAX_SAVE_BYTES).decode("utf-8")
    except FileRefused as e:
        report.add("E173", f"cannot read the season: {e.message.removeprefix('cannot read file: ')}", where)
        return None
    except UnicodeDecodeError:
        report.add("E173", "not a saved season (not UTF-8 text)", where, hint)
        return None
    lines = text.split("\n")
    whole = lines[-1] == ""
    try:
        data = json_line(lines[0])
    except (json.JSONDecodeError, RecursionError):
        report.add("E173", "not a saved season (its first line is not JSON)", where, hint)
        return None
    except TooLong as e:
        report.add("E173", f"not a saved season: {e}", where, hint)
        return None
    problem = _bad_save(data)
    if problem:
        report.add("E173", f"not a saved season: {problem}", where, hint)
        return None
    journaled = lines[1:-1] if whole else lines[1:]
    for k, line in enumerate(journaled, 2):
        if not line.strip():
            continue
        try:
            item = json_line(line)
        except (json.JSONDecodeError, RecursionError, TooLong):
            if k == len(lines) and not whole:  # cut short by a stop while written: ignored
                break
            report.add("E173", "not a saved season: a decision's line is not JSON", Loc(str(path), k, 1),
                       hint)
            return None
        problem = _journaled(data["played"], item)
        if problem:
            report.add("E173", f"not a saved season: {problem}", Loc(str(path), k, 1), hint)
            return None
    return data


def _journaled(played: list, item) -> str | None:
    """A journaled decision put in its game's place in `played`; what is wrong with it, or None."""
    if not isinstance(item, dict) or item.get("type") != "pick":
        return "a line after the first is a decision (`type: pick`)"
    i, n, pick = item.get("game"), item.get("n"), item.get("pick")
    if not (isinstance(i, int) and isinstance(n, int) and isinstance(pick, int)) or \
            not all(_whole(x) for x in (i, n, pick)) or not 0 <= pick < MAX_LIST:
        return "a decision's `game`, `n` and `pick` are whole numbers"
    finished = len(played) - (1 if played and "result" not in played[-1] else 0)
    if i != finished or i >= MAX_GAMES:
        return f"a decision of game {i + 1} where game {finished + 1} is under way"
    if i == len(played):
        played.append({"picks": []})
    picks = played[i]["picks"]
    if n < len(picks):
        return None if picks[n] == pick else f"game {i + 1}, decision {n + 1} is saved twice, differently"
    if n > len(picks):
        return f"game {i + 1}: decision {n + 1} comes before decision {len(picks) + 1}"
    picks.append(pick)
    return None


def _name_in(path: Path, kind: str) -> str | None:
    """The `name:` a variant or track file gives itself (None when it cannot be read)."""
    report = Report()
    data = read_file(path, report) if path.is_file() else None
    head = data.get(kind) if isinstance(data, dict) else None
    name = head.get("name") if isinstance(head, dict) else None
    return str(name) if isinstance(name, str) else None


class _Saved:
    """A seat whose every decision is saved (`play_next` takes a person's saved decisions)."""
    person = True

    def choose(self, game, decision) -> int:
        raise RuleError("the saved game ends before the game does")


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_ref(v) -> bool:
    """A game's name, or a relative path to it (what `game_ref` writes)."""
    return isinstance(v, str) and 0 < len(v) <= 1000 and "\x00" not in v and not os.path.isabs(v)


def _bad_save(data) -> str | None:
    """What is wrong with a save's series (its first line), or None: every value is checked before
    anything reads it."""
    if not isinstance(data, dict) or data.get("type") != "series":
        return "no `type: series`"
    checks = {"game": str, "season": str, "seed": int, "seats": list, "variants": list, "modules": list,
              "params": dict, "played": list}
    for key, typ in checks.items():
        if not isinstance(data.get(key), typ) or isinstance(data.get(key), bool):
            return f"`{key}` is missing or not {typ.__name__}"
    if not _is_ref(data["game"]):
        return "`game` is not a game's name or a relative path"
    if "chance" in data and not (_whole(data["chance"]) and 1 <= data["chance"] <= CHANCE):
        return f"`chance` is not a whole number from 1 to {CHANCE}"
    if not NAME_RE.fullmatch(data["season"]):
        return "`season` is not a season's name"
    if not 0 <= data["seed"] <= MAX_SEED:
        return "`seed` is not from 0 to 2**63-1"
    # (a learned bot whose file is gone is a seat all the same: said when the season is resumed)
    if not 1 <= len(data["seats"]) <= MAX_PLAYERS or not all(isinstance(k, str) and (
            k == "human" or k in BOTS or ":learned:" in f":{k}") for k in data["seats"]):
        return f"`seats` are 1 to {MAX_PLAYERS} of human, {FORMS}"
    if not all(isinstance(x, str) and NAME_RE.fullmatch(x) for x in [*data["variants"], *data["modules"]]):
        return "`variants` and `modules` are lists of names"
    played = data["played"]
    if len(played) > MAX_GAMES:
        return f"more than {MAX_GAMES} games"
    for k, e in enumerate(played, 1):
        if not isinstance(e, dict) or not isinstance(e.get("picks"), list) or \
                not all(_whole(p) and 0 <= p < MAX_LIST for p in e["picks"]):
            return f"game {k}: its `picks` are options' numbers"
        if "digest" in e and not (isinstance(e["digest"], str) and len(e["digest"]) <= 200):
            return f"game {k}: its `digest` is not a text"
        if "result" not in e:
            if k != len(played):
                return f"game {k} is unfinished, but a game after it was played"
            continue
        result = e["result"]
        if not isinstance(result, dict) or not isinstance(e.get("carried"), dict):
            return f"game {k}: a finished game has a `result` and what it `carried`"
        order = result.get("order")
        if not isinstance(order, list) or not all(_whole(s) for s in order):
            return f"game {k}: its result's `order` is not a list of seats"
    return None


# ---- how a season is told (the same words at the terminal and at the web table) -------------------

def seat_words(series: Series, seat: int) -> str:
    """A seat as a season's lines name it: its number and who sits there."""
    return f"seat {seat + 1} ({series.seats[seat]})"


def standings_rows(series: Series,
                   who: Callable[[int], str] | None = None) -> tuple[list[str], list[list[str]]]:
    """The standings as a person reads them: the columns' heads (place, seat, each game's gain of the
    first standing value, the standing values) and a row of words for each seat, first place first.
    `who`: a seat in words (default: `seat_words`; the web table gives the names people gave)."""
    rows = series.table()
    if not rows:
        return [], []
    names = list(rows[0]["values"])
    games = len(rows[0]["by_game"])
    head = ["", "seat"] + [f"g{i + 1}" for i in range(games)] + [n.replace("_", " ") for n in names]
    body = []
    for place, r in enumerate(rows, 1):
        body.append([f"{place}.", (who or (lambda s: seat_words(series, s)))(r["seat"]),
                     *[_word(x) for x in r["by_game"]], *[_word(r["values"][n]) for n in names]])
    return head, body


def _word(value) -> str:
    """A standing value as a person reads it: a dash for none (nothing to be ranked by)."""
    return "–" if value is None else str(value)


def game_over_line(series: Series, i: int, who: Callable[[int], str] | None = None) -> str:
    """How game i's end is told: its seats in finishing order."""
    order = series.played[i]["result"]["order"]
    said = who or (lambda s: seat_words(series, s))
    return f"game {i + 1} over: " + ", ".join(f"{k}. {said(s)}" for k, s in enumerate(order, 1))


def champion_line(series: Series, who: Callable[[int], str] | None = None) -> str:
    """How the season's end is told: its champions."""
    said = who or (lambda s: seat_words(series, s))
    return "Champion: " + " and ".join(said(s) for s in series.champions())
