"""The IR: pydantic models of every file a designer writes, and of the merged game.

The models are the single source of the file formats: `schemas/*.schema.json` is generated
from them (`racecraft schemas`), and a test keeps the two equal. Strings keep their file
positions (`Text` accepts a `SrcStr` unchanged), so later stages can point at the line.
Pydantic is used to load and check; the engine never touches these models while playing.
"""
from __future__ import annotations

from enum import Enum
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, WrapValidator


def _keep_str(value: Any, handler: Any) -> Any:
    return value if isinstance(value, str) else handler(value)


# A string that keeps its file position (see load.yamlsrc.SrcStr).
Text = Annotated[str, WrapValidator(_keep_str)]
Code = Annotated[str, Field(description="rule text in the Racecraft DSL"), WrapValidator(_keep_str)]
Id = Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_-]*$"), WrapValidator(_keep_str)]
Name = Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$"), WrapValidator(_keep_str)]
Scalar = Union[bool, int, float, str]
Value = Union[Scalar, list[Any], dict[str, Any], None]


class Visibility(str, Enum):
    """Who sees a pile's cards or a variable's value, as the plan holds it (the files say the
    word: `visible: owner`; a pile's `top`: everybody sees its top card)."""
    ALL = "all"
    OWNER = "owner"
    NOBODY = "nobody"
    TOP = "top"


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# ---- the game file ---------------------------------------------------------------------

class Players(Strict):
    min: int = Field(ge=1, le=16)
    max: int = Field(ge=1, le=16)


class GameInfo(Strict):
    id: Id
    name: Text
    players: Players
    rulebook: Text | None = Field(None, description="the rulebook file and passage the rules follow")
    description: Text | None = None


class PieceKind(Strict):
    count: int = Field(ge=1, le=64)
    names: list[Name] | None = Field(None, description="one name per piece, in order")
    marker: bool = Field(False, description="markers: pieces that stand on a stack track beside its stacks "
                                            "(a tile placed on the track), drawn and read, never in a "
                                            "stack nor in the board's order")


def _board_union() -> Any:
    from ..boards import board_models

    models = board_models()
    if len(models) == 1:
        return models[0]
    return Annotated[Union[tuple(models)], Field(discriminator="kind")]


# A board's declaration: one model per board kind (interpreter/boards), told apart by `kind`.
Board: Any = _board_union()


class Pile(Strict):
    of: Name = Field("game", description="`game`, `seat`, `piece`, or a board name (one pile per slot)")
    visible: Literal["all", "owner", "nobody", "top"] = Field(
        "all", description="who sees the faces: everybody, the owning seat, nobody, the top card only")
    refill_from: Name | list[Name] | None = Field(
        None, description="when empty and drawn from, shuffle this pile (or these piles, together) into it "
                          "first (a pile of the same owner: a seat's pile refills from that seat's pile)")

    def refills(self) -> list[str]:
        """The piles it refills from, in order (none: []), as written (a checker says each at its place)."""
        given = self.refill_from
        return [] if given is None else list(given) if isinstance(given, list) else [given]


# a die: the numbers on its faces, in order (a number may stand on several faces)
Faces = Annotated[list[int], Field(min_length=1, max_length=1000,
                                   description="the number on each face (one may stand on several)")]


# a declared type: a name, `list[T]` or `map[K, V]` (the checker reads it: E111 for an unknown one)
TypeName = Annotated[str, Field(pattern=r"^\s*[A-Za-z_][A-Za-z0-9_]*\s*(\[[A-Za-z0-9_\[\], ]*\])?\s*$",
                                description="int, bool, text, seat, piece, card, pile, list[T] or map[K, V]"),
                     WrapValidator(_keep_str)]


class StateVar(Strict):
    of: Literal["game", "seat", "piece", "card"] = Field(
        "game", description="one for the game, or one for each seat, piece or card (`c.placed_by`)")
    type: TypeName = "int"
    initial: Scalar | list[Any] | dict[str, Any] | None = None
    visible: Literal["all", "owner", "nobody"] = "all"


class Function(Strict):
    params: dict[Name, TypeName] = Field(default_factory=dict, description="parameter name: type")
    value: Code


class Procedure(Strict):
    params: dict[Name, TypeName] = Field(default_factory=dict, description="parameter name: type")
    do: Code


class Step(Strict):
    id: Id
    if_: Code | None = Field(None, alias="if")
    do: Code
    note: Text | None = None


class Phase(Strict):
    id: Id
    do: Code | None = Field(None, description="a phase that runs one block (no rounds)")
    order: Code | None = Field(None, description="who takes turns in a round, evaluated at its start")
    turn: Name | None = Field(None, description="the name the steps use for whose turn it is")
    steps: list[Step] = Field(default_factory=list)
    until: Code | None = Field(None, description="checked at the end of each round; true ends the phase")
    rounds: int | None = Field(None, ge=1, description="a fixed number of rounds instead of `until`")
    note: Text | None = None


class Trigger(Strict):
    id: Id
    on: Name = Field(description="game_start, phase_start, phase_end, round_start, round_end, "
                                 "turn_start, turn_end, or an event named by `emit`")
    params: dict[Name, Name] = Field(
        default_factory=dict, description="what the event carries (`emit NAME(a, b)`): parameter name: type")
    if_: Code | None = Field(None, alias="if")
    do: Code


class ResultAlso(Strict):
    pieces: Code = Field(description="the pieces ranked with the seats (a list of pieces): cars nobody "
                                     "drives")
    rank: Code = Field(description="a number for piece `piece`, ordered with the seats' `rank`")
    tie: Code | None = Field(None, description="a second number for piece `piece`, as the seats' `tie`")
    says: Code | None = Field(None, description="what players read beside the piece's place (a text, "
                                                "`piece` bound), as the seats' `says`")


class Result(Strict):
    rank: Code = Field(description="a number for seat `seat`; the result orders seats by it")
    order: Literal["ascending", "descending"] = Field(
        "descending", description="descending: the highest number wins")
    tie: Code | None = Field(None, description="a second number that breaks ties, same order")
    says: Code | None = Field(
        None, description="what players read beside each seat's place at the end (a text, `seat` bound: "
                          "`\"{seat.money} million\"`); without it, the number `rank`")
    also: ResultAlso | None = Field(
        None, description="pieces that finish without a seat (cars the game drives), ranked among the seats")


class Moves(Strict):
    enter: Code | None = Field(
        None, description="may piece `piece` move into the space at progress `space` on its way "
                          "(true/false)? A lane track's rule; without it, always (moves pass through other "
                          "pieces)")
    spot: Code | None = Field(
        None, description="the spot piece `piece` takes when it stops at progress `space` (0: no room, it "
                          "stops further back). A lane track's rule; without it, the board's own "
                          "(`free_spot(piece, space)`: its `spot_order`, the first spot free)")


class Limits(Strict):
    max_rounds: int = Field(1000, ge=1)
    max_steps: int = Field(2_000_000, ge=1)


# ---- cards -------------------------------------------------------------------------------

class CardSpec(Strict):
    count: int = Field(1, ge=0, le=500)
    name: Text | None = Field(None, description="what players read for this card (default: its id)")
    props: dict[Name, Union[Scalar, list[Scalar], dict[Name, Scalar]]] = Field(
        default_factory=dict,
        description="values the rules read as `card.NAME`; a list reads as `card.NAME[i]`, a mapping "
                    "as `card.NAME.KEY`")
    starts_in: Name = Field(description="the pile the cards start in")
    per_seat: bool = Field(False, description="each seat gets `count` of its own (pile of a seat)")
    per_piece: Union[bool, Name, list[Name]] = Field(
        False, description="each piece gets `count` of its own (a pile of a piece): `true` for every piece, "
                           "a kind of pieces (`riders`), or a list of pieces' names")


class CardType(CardSpec):
    id: Id


class Carry(Strict):
    """What a game of a series (a championship, a tour) hands on to the next game: values of
    state variables, and the cards of piles (by card type)."""
    seat: list[Name] = Field(default_factory=list, description="state variables of each seat")
    game: list[Name] = Field(default_factory=list, description="state variables of the game")
    piles: list[Name] = Field(default_factory=list,
                              description="piles (of the game or of each seat) whose cards are dealt "
                                          "into the same piles before the next game's setup")


# ---- what a player sees --------------------------------------------------------------------

class Fact(Strict):
    """A value shown to players, with how they read it."""
    value: Code = Field(description="an expression: the value shown")
    label: Text | None = Field(None, description="what players call it (default: the key, `_` read as a "
                                                 "space; \"\" for none)")
    unit: Text | Annotated[list[Text], Field(min_length=2, max_length=2)] | None = Field(
        None, description="written after a number: `cells`, `points`; or the words for one and for any other "
                          "number: `[square driven, squares driven]`")
    seen_by: Literal["all", "owner"] = Field(
        "all", description="who sees it: everybody, or only the seat (for a piece: its owner)")


# a fact: an expression, or a mapping saying how it reads
FactDecl = Union[Code, Fact]


class PileView(Strict):
    label: Text | None = Field(None, description="what players call the pile (default: its name, `_` "
                                                 "read as a space)")
    show: Literal["cards", "count", "top"] = Field(
        "cards", description="its cards (as far as the pile's `visible` lets the seat see them), only how "
                             "many there are, or only the top card")
    sort: bool = Field(False, description="equal cards grouped and sorted, as a player holds a hand "
                                          "(`purple ×3`)")
    whose: Literal["mine", "all"] = Field(
        "mine", description="a pile of each seat: only the viewing seat's own, or every seat's")
    unit: Text | Annotated[list[Text], Field(min_length=2, max_length=2)] | None = Field(
        None, description="what its cards are called where they are counted (default `[card, cards]`): "
                          "`tokens`, or the words for one and for any other number: `[token, tokens]`")
    beside: Literal["piece", "seat"] = Field(
        "piece", description="a pile of each piece: shown beside its piece (`hand of black`), or with "
                             "its owner's piles as a seat's pile (`your hand`; named by the piece only "
                             "where the seat has several pieces)")


class View(Strict):
    """What a player sees at the table, beyond the boards: a pile or variable not named here is not
    shown."""
    game: dict[Name, FactDecl] = Field(default_factory=dict,
                                       description="facts on the title line (nothing bound)")
    seats: dict[Name, FactDecl] = Field(default_factory=dict,
                                        description="facts on each seat's line (`seat` bound)")
    piles: dict[Name, PileView] = Field(default_factory=dict,
                                        description="the piles shown, in this order, and how")
    lines: dict[Name, dict[Name, FactDecl]] = Field(
        default_factory=dict,
        description="by kind of line: facts shown with each line of that kind ahead of a piece (on a "
                    "lane track), computed with `d` bound to the progress just past the line (as "
                    "`next_lines` gives it); they take the place of the line's printed limit")
    colours: dict[Text, Text] = Field(
        default_factory=dict, description="words drawn in a colour on a colour terminal "
                                          "(`purple: magenta`); colours are those of the `rich` library")


class Renamed(Strict):
    to: Code = Field(description="the new form: an expression (`car_of(seat).finished`)")
    since: int = Field(ge=2, description="the language version from which the old form is an error")


class Change(Strict):
    """A change of what the game does that a file written before it may meet (a scenario that
    fails on it is told so): said in a designer's words, with words that show where it matters."""
    said: Text = Field(description="what the game does differently now, and what a file written before "
                                   "it should do")
    since: Text = Field(description="when it changed: a date (2026-11) or a version")
    touches: list[Text] = Field(min_length=1, max_length=64,
                                description="words a scenario that meets it uses (an option's label, a "
                                            "rule's or a state's name, words the game says): a failing "
                                            "scenario whose item or message holds one is told of it")


CHANGES: Any = Field(default_factory=list, max_length=256,
                description="changes of behaviour a file written before them may meet (docs/scenarios.md)")


class GameFile(Strict):
    schema_: Text | None = Field(None, alias="$schema")
    language: int | None = Field(None, description="the version of the rule language the file is written in "
                                                   "(without it: the oldest this engine reads)")
    game: GameInfo
    include: list[Text] = Field(default_factory=list, description="cards and tracks files, relative")
    params: dict[Name, Value] = Field(default_factory=dict)
    pieces: dict[Name, PieceKind] = Field(default_factory=dict)
    boards: dict[Name, Board] = Field(default_factory=dict)
    piles: dict[Name, Pile] = Field(default_factory=dict)
    dice: dict[Name, Union[Faces, dict[Union[int, Name], Faces]]] = Field(
        default_factory=dict,
        description="dice: a die's faces (`d6: [1, 2, 3, 4, 5, 6]`), or a family of dice by a number or a "
                    "name (`level: {1: [1, 1, 2, 2], 2: [2, 3, 3, 4]}`: the die `level(1)`, ...); `roll(d6)` "
                    "rolls one")
    state: dict[Name, StateVar] = Field(default_factory=dict)
    functions: dict[Name, Function] = Field(default_factory=dict)
    procedures: dict[Name, Procedure] = Field(default_factory=dict)
    setup: Code | None = None
    phases: list[Phase] = Field(min_length=1)
    triggers: list[Trigger] = Field(default_factory=list)
    result: Result
    moves: Moves | None = Field(None, description="the rules of a lane track's moves, where they are the "
                                                  "ruleset's rather than the board's (`moves.enter`, "
                                                  "`moves.spot`)")
    carry: Carry | None = Field(None, description="what this game hands on to the next in a series")
    changes: list[Change] = CHANGES
    record: dict[Name, Code] = Field(
        default_factory=dict, description="per-seat facts noted after setup (for statistics)")
    progress: Code | None = Field(
        None, description="how far seat `seat` has come (a number, higher is further ahead), read after "
                          "setup, after each round and at the end: statistics count lead changes and "
                          "when the winner took the lead")
    metrics: dict[Name, Code] = Field(
        default_factory=dict, description="facts about the whole game (a number or true/false), noted "
                                          "when it ends (for statistics)")
    evaluate: Code | None = Field(
        None, description="how good the table is for seat `seat` (a number, higher is better): "
                          "the greedy bot picks the option that leads to the best value")
    show: dict[Name, FactDecl] = Field(
        default_factory=dict,
        description="facts shown with each piece in every seat's view, computed with `piece` bound; "
                    "show only what every seat may know (or `seen_by: owner`)")
    view: View | None = Field(None, description="what a player sees beyond the boards and the pieces' facts: "
                                                "with a view, only what it names is shown")
    limits: Limits = Limits()
    renamed: dict[Text, Renamed] = Field(
        default_factory=dict,
        description="what the rules of an older version of this game wrote, and what it is now: "
                    "`seat.NAME`, `piece.NAME` or `card.NAME` (an attribute), now an expression where "
                    "`seat`, `piece` or `card` is what it was read of; read so, with a warning, in files of "
                    "a language before `since`")
    cards: dict[Id, CardSpec] = Field(
        default_factory=dict, description="card types by id: those of the included cards files, "
                                          "and any written here")


class CardsFile(Strict):
    schema_: Text | None = Field(None, alias="$schema")
    language: int | None = Field(None, description="the version of the rule language the file is written in "
                                                   "(without it: the oldest this engine reads)")
    source: Text = Field(description="where the card list comes from, or that it is authored")
    cards: list[CardType] = Field(min_length=1)


# ---- modules and variants: patches by id --------------------------------------------------

# patches in one module or variant file: each one may walk the game, so thousands take long
MAX_PATCHES = 1_000


class Patch(Strict):
    set: Text | None = Field(None, description="an address: replace the value")
    replace: Text | None = Field(None, description="an address: replace the whole item (a named option or "
                                                   "statement: with `option:` or `do:`)")
    update: Text | None = Field(None, description="an address: change some keys of the item")
    remove: Text | None = Field(None, description="an address: delete the item (with `item:`, that value "
                                                  "out of a list)")
    add: Text | None = Field(None, description="a collection (steps: `steps.PHASE`; a named choice: "
                                               "`choices.NAME` with `option:`): add an item")
    extend: Text | None = Field(None, description="a procedure, step, trigger, function or named statement: "
                                                  "run `before:`/`after:` it, or `around:` it")
    change: Text | None = Field(None, description="an address of a whole number: add `by:` to it")
    by: int | None = Field(None, description="with `change`: how much to add (negative: take away)")
    to: Value = None
    with_: Value = Field(None, alias="with")
    item: Value = None
    id: Id | None = Field(None, description="the id of an added mapping item")
    before: Text | None = Field(None, description="with `add`: the id the item goes before; with `extend`: "
                                                  "statements run first")
    after: Text | None = Field(None, description="with `add`: the id the item goes after; with `extend`: "
                                                 "statements run after")
    around: Code | None = Field(None, description="with `extend`: statements where `proceed` runs the base "
                                                  "(a function: an expression where `base` is its value)")
    option: Code | None = Field(None, description="an option of a named choice, as rule text")
    do: Code | None = Field(None, description="statements that replace a named statement")


class PatchInfo(Strict):
    id: Id
    name: Text
    description: Text
    requires: list[Id] = Field(default_factory=list, description="modules and variants this one needs, "
                                                             "applied before it (a module of that name, "
                                                             "else a variant)")


class VariantFile(Strict):
    schema_: Text | None = Field(None, alias="$schema")
    language: int | None = Field(None, description="the version of the rule language the file is written in "
                                                   "(without it: the oldest this engine reads)")
    variant: PatchInfo
    include: list[Text] = Field(default_factory=list)
    patches: list[Patch] = Field(min_length=1, max_length=MAX_PATCHES)
    changes: list[Change] = CHANGES


class ModuleFile(Strict):
    schema_: Text | None = Field(None, alias="$schema")
    language: int | None = Field(None, description="the version of the rule language the file is written in "
                                                   "(without it: the oldest this engine reads)")
    module: PatchInfo
    include: list[Text] = Field(default_factory=list)
    patches: list[Patch] = Field(min_length=1, max_length=MAX_PATCHES)
    changes: list[Change] = CHANGES


# ---- scenarios ---------------------------------------------------------------------------

class ScenarioInfo(Strict):
    name: Text
    source: Text = Field(description="the rulebook passage the scenario pins")
    ruling: Text | None = Field(None, description="the ruling in docs/rulings.md it pins, if any")


class OptionsCheck(Strict):
    contains: list[Text] = Field(default_factory=list,
                                 description="labels that must be among the options offered now (any order)")
    excludes: list[Text] = Field(default_factory=list, description="labels that must not be offered now")


class ScriptItem(Strict):
    step: Id | None = Field(None, description="play on until this step has run, and check the table right "
                                              "after it (not at the next decision)")
    event: Name | None = Field(None, description="play on until the triggers of this event of the game "
                                                 "(round_start, turn_end, ...) have run, then check")
    remember: dict[Name, Code] | None = Field(
        None, description="values to keep under these names: conditions from here on can use them")
    expect: Code | None = Field(None, description="a condition that must hold now")
    expect_seat: Annotated[int, Field(ge=1)] | Code | None = Field(
        None, description="the seat that decides now: its number, or an expression giving a seat or a number")
    expect_options: list[Text] | OptionsCheck | None = Field(
        None, description="the labels offered now, exactly and in order; or {contains: [..], excludes: [..]}")
    real_table: bool = Field(False, description="the conditions of this item read the real table, where no "
                                                "commitment of a running `simultaneously` block is revealed "
                                                "yet (default: the copy of the seat committing now)")
    choose: Text | None = Field(None, description="the label of the option to pick")
    expect_error: Text | None = Field(None, description="the text of the rule error raised now")


class ScenarioFile(Strict):
    schema_: Text | None = Field(None, alias="$schema")
    language: int | None = Field(None, description="the version of the rule language the file is written in "
                                                   "(without it: the oldest this engine reads)")
    scenario: ScenarioInfo
    ruleset: Text = Field(".", description="ruleset folder, relative to this file")
    variants: list[Id] = Field(default_factory=list)
    modules: list[Id] = Field(default_factory=list)
    track: Id | None = Field(None, description="a track file of tracks/<game>/ replacing the game's boards "
                                               "of the same names (like `--track`)")
    params: dict[Name, Value] = Field(default_factory=dict,
                                      description="values of the game's params (like `--param NAME=VALUE`)")
    seed: int = 1
    players: int = Field(ge=1, le=16)
    carried: dict[str, Any] | None = Field(
        None, description="what the previous game of a series handed on (the game's `carry:`), in place "
                          "before the setup: {seat: {VAR: [value per seat]}, game: {VAR: value}, "
                          "piles: {PILE: [[card type ids] per seat]}}")
    round: int = Field(1, ge=1, le=100_000, description="the number of the first round played (the first "
                                                        "phase of rounds starts there)")
    before_setup: Code | None = Field(None, description="a block run before the game's setup, to arrange "
                                                        "what setup deals or draws from")
    situation: Code | None = Field(None, description="a block run after setup to arrange the table")
    setup: Literal["script", "random"] = Field(
        "script", description="`script`: the script's first items answer the questions the game's setup "
                              "asks; `random`: seeded random players answer them and the script starts "
                              "after setup")
    forced: Literal["take", "ask"] = Field(
        "take", description="`take`: a choice with a single option is taken at once; `ask`: it is asked like "
                            "any other, so the script chooses it (and can check the table before)")
    script: list[ScriptItem] = Field(default_factory=list)
    expect: list[Code] = Field(default_factory=list, description="conditions true at the end")
    until: Literal["script", "end"] = Field(
        "script", description="stop when the script is done, or play on with random seats to the end")
    winners: list[int] | None = Field(
        None, description="seat numbers that must have won: the game must be over at the end")


# ---- seasons (series of games) --------------------------------------------------------------

class SeasonInfo(Strict):
    name: Text
    description: Text


class SeasonRace(Strict):
    """One game of a season: what it adds to the season's rules."""
    track: Id | None = Field(None, description="a track of tracks/<game>/ (like `--track`)")
    variants: list[Id] = Field(default_factory=list)
    modules: list[Id] = Field(default_factory=list)
    params: dict[Name, Value] = Field(default_factory=dict)


class SeasonDraw(Strict):
    """Games drawn when the season starts (from the season's seed): each a track and a variant,
    none drawn twice while the lists last."""
    count: int = Field(ge=1, le=100)
    tracks: list[Id] = Field(min_length=1)
    variants: list[Id] = Field(default_factory=list)


class Standings(Strict):
    by: list[Name] = Field(min_length=1, description="carried state variables of each seat: the first "
                                                     "decides, the next breaks its ties; highest first")
    lowest_first: list[Name] = Field(default_factory=list,
                                     description="those of `by` where the lowest is first")


SeasonName = Annotated[str, Field(pattern=r"^[A-Za-z0-9_][A-Za-z0-9_-]*$"), WrapValidator(_keep_str)]


class SeasonFile(Strict):
    schema_: Text | None = Field(None, alias="$schema")
    language: int | None = Field(None, description="the version of the rule language the file is written in "
                                                   "(without it: the oldest this engine reads)")
    season: SeasonInfo
    variants: list[Id] = Field(default_factory=list, description="applied to every game")
    modules: list[Id] = Field(default_factory=list, description="applied to every game")
    params: dict[Name, Value] = Field(default_factory=dict, description="given to every game")
    include: list[SeasonName] = Field(default_factory=list,
                                      description="seasons whose games come first, in order")
    between: SeasonRace | None = Field(None, description="added to the first game of each included season "
                                                         "after the first")
    races: list[SeasonRace] = Field(default_factory=list, description="the games, in order")
    draw: SeasonDraw | None = Field(None, description="or games drawn at random")
    standings: Standings | None = Field(None, description="how seats are ranked (default: an included "
                                                          "season's)")


FILE_KINDS: dict[str, type[Strict]] = {
    "game": GameFile, "cards": CardsFile, "variant": VariantFile, "module": ModuleFile,
    "scenario": ScenarioFile, "season": SeasonFile,
}


def kind_of(data: dict) -> str | None:
    """Which kind of file a mapping is, from its distinctive top-level key."""
    for key, kind in (("game", "game"), ("cards", "cards"), ("variant", "variant"),
                      ("module", "module"), ("scenario", "scenario"), ("track", "track"),
                      ("season", "season")):
        if key in data:
            return kind
    return None


# ---- tracks (boards kept in their own file) ------------------------------------------------

class TrackInfo(Strict):
    id: Id
    name: Text
    source: Text = Field(description="where the layout comes from, or that it is authored")
    requires: list[Id] = Field(default_factory=list,
                               description="modules and variants raced on this track (`--track` applies "
                                           "them; `validate` checks the track with them)")


class TrackFile(Strict):
    schema_: Text | None = Field(None, alias="$schema")
    language: int | None = Field(None, description="the version of the rule language the file is written in "
                                                   "(without it: the oldest this engine reads)")
    track: TrackInfo
    boards: dict[Name, Board] = Field(min_length=1)
    params: dict[Name, Value] = Field(default_factory=dict,
                                      description="values of the game's params on this track (of a module "
                                                  "or variant it requires, too); modules and variants may "
                                                  "change them further")


FILE_KINDS["track"] = TrackFile
