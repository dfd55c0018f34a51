"""The learned bot (`learned:FILE`): the greedy bot's one look ahead, judging each table with a value
learned for one game from self-play (`racecraft train`), not with the ruleset's `evaluate:`.

The file is plain JSON, written by `lab/train.py`: the game it was trained for (its name, the
digest of its files as loaded with its variants, modules and track, the number of players), the
features' names (`features.py`), a weight for each and a bias. The value of a table for a seat is
the bias plus each feature times its weight: the expected standing at the end (1 a win, 0 last).
The file is untrusted input: read as JSON only, its size and every field checked; a file made for
another game, for a changed ruleset or for another number of players is refused with a message
that says which.
"""
from __future__ import annotations

import json
import math
import os
import random
from operator import mul
from dataclasses import dataclass, field
from pathlib import Path

from ..base.errors import RuleError
from .belief import believed, fresh
from .features import Features
from .greedy import GreedyAgent
from .playout import moves, next_round, play_on

FORMAT = "racecraft-learned-value"
VERSION = 1
MAX_BYTES = 2_000_000     # a model file larger than this is not one
MAX_FEATURES = 20_000
MAX_WEIGHT = 1e12         # a weight or bias beyond this is not a training's (summed, it could overflow)
SCALE = 1_000_000         # the value as the greedy bot's whole numbers: millionths
MAX_VALUE = 1e12          # a table's value in whole millionths is bounded by this (never infinite)
LOOK_TABLES = 4           # `learned:TABLES:FILE`: believed tables each option is played on, by default
MAX_LOOK_TABLES = 64
LOOK_CAP = 10             # decisions a seat it plays on at most (long rounds, games without rounds)


class ModelError(ValueError):
    """A model file that cannot be used, with a message for a person that names the file."""


@dataclass
class Model:
    """A learned value function and the game it is for."""
    game: str                 # the game's id
    name: str                 # what players call it
    digest: str               # the digest of its files as loaded (variants, modules, track)
    players: int
    variants: list[str]
    modules: list[str]
    track: str | None
    evaluate: bool            # whether the ruleset's `evaluate:` is one of the features
    features: list[str]
    weights: list[float]
    bias: float
    trained: dict = field(default_factory=dict)   # how: games, seed, seconds, fit (for people)
    # the training's games that broke a rule and the first one's error (said, not written)
    failed: tuple[int, str | None] = field(default=(0, None), compare=False)

    def to_json(self) -> dict:
        return {"format": FORMAT, "version": VERSION, "game": self.game, "name": self.name,
                "digest": self.digest, "players": self.players, "variants": self.variants,
                "modules": self.modules, "track": self.track, "evaluate": self.evaluate,
                "trained": self.trained, "bias": self.bias,
                "features": [{"name": n, "weight": w} for n, w in zip(self.features, self.weights)]}

    def setup(self) -> str:
        """The game it is for, as a person writes it on the command line."""
        parts = [self.game, f"--players {self.players}"]
        parts += [f"--variant {v}" for v in self.variants] + [f"--module {m}" for m in self.modules]
        parts += [f"--track {self.track}"] if self.track else []
        return " ".join(parts)

    def problem(self, plan) -> str | None:
        """Why this model cannot judge the game `plan` is, or None."""
        if plan.game_id != self.game:
            return f"trained for {self.name} ({self.setup()}), not for {plan.name}"
        if plan.n_seats != self.players:
            return (f"trained for {self.players} players of {self.name}, not {plan.n_seats}: "
                    f"train one for {plan.n_seats} (racecraft train ... --players {plan.n_seats})")
        if plan.digest != self.digest:
            return (f"trained for other rules of {self.name} ({self.setup()}): the rules, variants, "
                    "modules or track are not those it was trained on; train it again")
        if self.evaluate and plan.evaluate is None:
            return (f"it reads the game's `evaluate:`, which {plan.name} does not have "
                    "(the file says \"evaluate\": true): train it again")
        if Features(plan, self.evaluate).names != self.features:
            return "its features are not this game's: train it again"
        return None


def _fail(what: str):
    raise ModelError(what)


def read_model(path: str) -> Model:
    """The model in file `path`, checked; ModelError saying what is wrong with it."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if not p.is_file():
            _fail("not a file: give the file `racecraft train --out` wrote")
        if size > MAX_BYTES:
            _fail(f"{size:,} bytes: too large to be a learned bot's file (at most {MAX_BYTES:,})")
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ModelError(f"no such file: train one with racecraft train GAME --players N "
                         f"--out {path}") from None
    except UnicodeDecodeError:
        raise ModelError("not a learned bot's file (not text)") from None
    except OSError as e:
        raise ModelError(f"it cannot be read ({e.strerror or e})") from None
    if not text.strip():
        _fail("the file is empty: give the file `racecraft train --out` wrote")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ModelError(f"not a learned bot's file (not JSON: {_json_problem(e)} at line {e.lineno}, "
                         f"column {e.colno})") from None
    except ValueError:
        raise ModelError("not a learned bot's file (not JSON)") from None
    return model_of(data, path)


def is_trained_file(path) -> bool:
    """Whether the file at `path` is one `racecraft train` wrote (its format marker: of any
    version, checked or not), which a training may replace."""
    try:
        if Path(path).stat().st_size > MAX_BYTES:
            return False
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("format") == FORMAT


# what the JSON reader found wrong, in words (its messages start so)
_JSON_PROBLEMS = (("Expecting value", "a value is missing"),
                  ("Expecting property name", "a name in double quotes is missing"),
                  ("Expecting ',' delimiter", "a comma is missing"),
                  ("Expecting ':' delimiter", "a colon is missing"),
                  ("Unterminated string", "a text is not closed"),
                  ("Extra data", "more follows the end of the data"),
                  ("Invalid control character", "a text holds a line break or a control character"),
                  ("Invalid \\escape", "a text holds a backslash that is no escape"))


def _json_problem(e: json.JSONDecodeError) -> str:
    if e.pos >= len(e.doc.rstrip()):
        return "the file stops short"
    return next((said for start, said in _JSON_PROBLEMS if e.msg.startswith(start)), "it cannot be read")


def model_of(data, path: str = "the model") -> Model:
    """A model from its JSON data, every field checked."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        _fail("not a learned bot's file (written by racecraft train)")
    if data.get("version") != VERSION:
        _fail(f"a learned bot's file of version {_shown(data.get('version'))}; this Racecraft "
                    f"reads version {VERSION}: train it again")
    texts = {k: data.get(k) for k in ("game", "name", "digest")}
    for k, v in texts.items():
        if not isinstance(v, str) or not v or len(v) > 200:
            _fail(f"`{k}` must be a short text")
    players = data.get("players")
    if type(players) is not int or not 1 <= players <= 100:
        _fail("`players` must be a whole number of players")
    lists = {}
    for k in ("variants", "modules"):
        v = data.get(k)
        if not isinstance(v, list) or len(v) > 100 or not all(isinstance(x, str) and len(x) < 200 for x in v):
            _fail(f"`{k}` must be a list of names")
        lists[k] = v
    track = data.get("track")
    if track is not None and (not isinstance(track, str) or len(track) > 200):
        _fail("`track` must be a name or null")
    if not isinstance(data.get("evaluate"), bool):
        _fail("`evaluate` must be true or false")
    feats = data.get("features")
    if not isinstance(feats, list) or not 0 < len(feats) <= MAX_FEATURES:
        _fail(f"`features` must be a list of 1 to {MAX_FEATURES:,} features")
    names, weights = [], []
    for f in feats:
        if not isinstance(f, dict) or not isinstance(f.get("name"), str) or not _finite(f.get("weight")):
            _fail("each feature is {\"name\": text, \"weight\": number}")
        if not _bounded(f["weight"]):
            _fail(f"the weight of `{f['name'][:60]}` is {_shown(f['weight'])}: {BOUND}")
        names.append(f["name"])
        weights.append(float(f["weight"]))
    if not _finite(data.get("bias")):
        _fail("`bias` must be a number")
    if not _bounded(data["bias"]):
        _fail(f"`bias` is {_shown(data['bias'])}: {BOUND}")
    trained = data.get("trained", {})
    if not isinstance(trained, dict) or trained.get("at", "option") not in ("option", "round"):
        _fail("`trained` must be the record racecraft train writes ({\"games\": ..., \"seed\": ...}, "
              "`at` option or round)")
    return Model(texts["game"], texts["name"], texts["digest"], players, lists["variants"],
                 lists["modules"], track, data["evaluate"], names, weights, float(data["bias"]), trained)


BOUND = (f"weights and the bias lie between -{MAX_WEIGHT:,.0f} and {MAX_WEIGHT:,.0f} "
         "(a trained file's are far smaller): train it again")


def fit_problem(model: Model) -> str | None:
    """What makes a value just fitted unusable (a weight or the bias not a number, or beyond the
    bounds a file is read with), or None: such a fit is never written."""
    for name, w in [*zip(model.features, model.weights), ("the bias", model.bias)]:
        if not (_finite(w) and _bounded(w)):
            what = name if name == "the bias" else f"the weight of `{name[:60]}`"
            return f"{what} came out as {_shown(w)}, beyond what a bot can weigh"
    return None


def _finite(x) -> bool:
    return type(x) in (int, float) and math.isfinite(x)


def _bounded(x) -> bool:
    return -MAX_WEIGHT <= x <= MAX_WEIGHT


def _shown(x) -> str:
    return json.dumps(x) if isinstance(x, (int, float, str, type(None))) else "of another kind"


# models read in this process, by path, with the file's size and time (a simulation's games
# each make their bots: the file is read once)
_READ: dict[str, tuple[tuple[int, int], Model]] = {}


def model_at(path: str) -> Model:
    """The model in file `path`, read once per process while the file is unchanged."""
    try:
        st = os.stat(path)
        stamp = (st.st_size, st.st_mtime_ns)
    except OSError:
        stamp = (-1, -1)
    kept = _READ.get(path)
    if kept is not None and kept[0] == stamp:
        return kept[1]
    model = read_model(path)
    _READ[path] = (stamp, model)
    return model


# values trained in this process for a seat `learned` (no file: `simulate` and `compare` train one
# for each game first), by the game's digest and number of players; processes forked after see them
_TRAINED: dict[tuple[str, int], Model] = {}


def remember(model: Model) -> None:
    """Keep `model` as the value of a seat `learned` in its game, in this process."""
    _TRAINED[(model.digest, model.players)] = model


def trained_for(plan) -> Model | None:
    """The value this process trained (or read) for a seat `learned` in the game `plan` is."""
    model = _TRAINED.get((plan.digest, plan.n_seats))
    return model if model is not None and model.problem(plan) is None else None


UNTRAINED = ("`learned` alone is a seat of simulate and compare, which train it for the game first; "
             "elsewhere give its file: learned:FILE (written by racecraft train)")


class Judge:
    """A model's value of a table for a seat, as the greedy bot reads a ruleset's `evaluate:`:
    `judge(st, {"seat": seat})`, in millionths (a whole number)."""

    def __init__(self, model: Model, plan, fitted: bool = False):
        """`fitted`: with the weight of the seat's own evaluation as the fit gave it, before it was
        tuned by play for the one-look bot (`train.tuned`): the search bot's leaves are judged so
        (stronger so in a shipped game, as strong in another: docs/bots.md)."""
        self.features = Features(plan, model.evaluate)
        self.weights = list(model.weights)
        self.bias = model.bias
        was = model.trained.get("evaluation", {}) if isinstance(model.trained, dict) else {}
        first = was.get("fitted") if isinstance(was, dict) else None
        if fitted and isinstance(first, (int, float)) and not isinstance(first, bool) \
                and math.isfinite(first) and "own evaluation" in model.features:
            self.weights[model.features.index("own evaluation")] = float(first)
        # the ruleset's functions and the evaluation need not be called where their weight is 0
        self.skip = frozenset(k for k, w in enumerate(self.weights) if w == 0)

    def value(self, st, seat: int) -> float:
        """The expected standing at the end, about 0 (last) to 1 (a win)."""
        return self.bias + sum(map(mul, self.weights, self.features.vectors(st, (seat,), self.skip)[0]))

    def values(self, st) -> list[float]:
        """`value` for every seat, what they all read read once."""
        weights, bias = self.weights, self.bias
        return [bias + sum(map(mul, weights, x)) for x in self.features.vectors(st, None, self.skip)]

    def __call__(self, st, env) -> int:
        try:
            value = self.value(st, env["seat"])
        except OverflowError:   # a number of the game too large to weigh as a float
            value = math.nan
        if not -MAX_VALUE <= value <= MAX_VALUE:   # beyond any standing (or not a number): the bound
            value = MAX_VALUE if value > 0 else -MAX_VALUE
        return int(round(value * SCALE))


class LearnedAgent(GreedyAgent):
    """A bot that plays one move ahead, judging each option's table with a learned value."""
    name = "learned"
    fitted = False   # the evaluation's weight as tuned for the one look (`Judge`)

    def __init__(self, seed: int | str = 0, path: str = "", model: Model | None = None):
        """The value of `model`, else of file `path`, else the one trained for the game in this
        process (a seat `learned` of `simulate` or `compare`)."""
        super().__init__(seed)
        self.path = path
        # no model and no file: the value trained in this process for the game (`trained_for`)
        self.model = model if model is not None or not path else model_at(path)
        self._judge: tuple | None = None   # (the plan, its judge)

    def evaluator(self, game):
        plan = game.plan
        if self._judge is None or self._judge[0] is not plan:
            model = self.model if self.model is not None or self.path else trained_for(plan)
            if model is None:
                raise ModelError(UNTRAINED)
            bad = model.problem(plan)
            if bad:
                raise ModelError(f"`learned:{self.path}`: {bad}")
            self._judge = (plan, Judge(model, plan, fitted=self.fitted))
        return self._judge[1]


class LookingAgent(LearnedAgent):
    """The learned bot looking on to the start of the next round (`learned:TABLES:FILE`): each
    option is taken on `tables` tables the seat may believe in (other seats' hidden cards dealt
    again, as the search bot's: `belief.believed`), the game played on from there by the greedy
    bot (every seat: the ruleset's `evaluate:`) up to the first decision of the next round, and the
    learned value of the table reached averaged (a win counting 1, a loss 0). Every option is
    played on the same believed tables with the same generators, so that what differs is the
    option's doing. The value is judged where it was learned to be good: a table whose round's
    cards are shown and played (right after an option, the value cannot tell what the cards
    chosen will do: docs/bots.md). The evaluation's weight is the fit's (as the search bot's
    leaves), not the one tuned for the one look."""
    name = "learned-look"
    fitted = True
    thinks = True     # a decision takes a while: a table shows it thinking, `played` says how far it got

    def __init__(self, seed: int | str = 0, path: str = "", model: Model | None = None,
                 tables: int = LOOK_TABLES):
        super().__init__(seed, path, model)
        self.tables = tables
        self._greedy = GreedyAgent(0)   # who plays on, for every seat (its generator set per table)
        self.played = 0   # tables played on for the present decision

    def choose(self, game, decision) -> int:
        self.played = 0
        if decision.count == 1:
            return 0
        options = moves(decision)
        if len(options) == 1:
            return 0
        judge = self.evaluator(game)
        seat = decision.seat
        greedy = self._greedy
        seeds = [(self.rng.getrandbits(64), self.rng.getrandbits(64)) for _ in range(self.tables)]
        tables = []
        for a, _b in seeds:
            greedy.rng = random.Random(a)
            tables.append(believed(game, seat, greedy.rng, self._pick))
        scored = []
        for i in options.values():
            total = 0.0
            for table, (_a, b) in zip(tables, seeds):
                g = fresh(table, random.Random(b))
                greedy.rng = random.Random(b ^ 0x5EED)
                total += self._worth(g, i, seat, judge)
                self.played += 1
            scored.append((total, i))
        return self._best(scored)

    def _pick(self, g) -> int:
        """The greedy bot's pick at `g`'s decision (at random where the game has no `evaluate:`)."""
        return self._greedy.choose(g, g.decision())

    def _worth(self, g, i: int, seat: int, judge: Judge) -> float:
        """Option `i` taken on believed table `g`, played on to the first decision of the next
        round (at most LOOK_CAP decisions a seat), judged for `seat`; -1 where it breaks a rule."""
        since = g.st.g["__rounds"]
        try:
            g.choose(i)
        except RuleError:
            return -1.0
        play_on(g, self._pick, next_round(since, LOOK_CAP * g.plan.n_seats))
        if g.over:
            winners = g.result()["winners"]
            return 1.0 / len(winners) if seat in winners else 0.0
        return judge.value(g.st, seat)
