"""Every place a game file holds rule text: one declared table that every pass iterates.

A *rule site* is a kind of place (`steps.ID.if`: the test of any step); a *rule* is one such
place in a game (`steps.move.if`), named by the site's id with its names filled in. The table
says, for each site: where its text is in the game file, which names a rule there sees, what
type its value must have, how it is compiled, and whether a module can extend it and
`racecraft explain` prints it. Parsing (`load/rules.py`), checking (`check/checker.py`),
compiling (`compile/`), extending (`load/extend.py`) and explaining (`racecraft explain`) all
read this table, so a new site is one entry here (and, for an entry the engine reads, one field
of the plan: `Site.into`).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import NewType

from ..lang.types import BOOL, INT, PIECE, SEAT, TEXT, Type, listof


# A rule's id: a site's id with its names filled in (`procedures.score_card`, `steps.move.if`), made
# by `Site.rule` from the site's constant below, never spelt by hand.
RuleId = NewType("RuleId", str)


class Form(Enum):
    """How a site is compiled."""
    FUNCTION = "function"      # a function's value: a function of its parameters, called by rules
    PROCEDURE = "procedure"    # statements called by name
    FLOW = "flow"              # statements the game's flow runs: the setup, a phase's block, a step's block
    TRIGGER = "trigger"        # statements an event runs
    TEST = "test"              # a test of the flow: a step's `if`, a phase's `until`, a trigger's `if`
    ORDER = "order"            # who takes turns in a round (a list, gone through each round)
    ENTRY = "entry"            # a value the engine reads (the result, facts, metrics, the bots' evaluation)

    @property
    def block(self) -> bool:
        """Statements (parsed as a block), not a value."""
        return self in (Form.PROCEDURE, Form.FLOW, Form.TRIGGER)


class SiteScope(Enum):
    """The names a rule at a site sees, besides the game's own."""
    GAME = "game"              # none
    SEAT = "seat"              # `seat`: each seat in turn
    PIECE = "piece"            # `piece`: each piece in turn
    PARAMS = "params"          # the function's or procedure's declared parameters
    EVENT = "event"            # what the trigger's event carries (its declared parameters)
    TURN = "turn"              # the phase's turn (`turn`, or the name it gives): a seat or a piece
    LINE = "line"              # `d`: the progress just past a line ahead of a piece (`view.lines`)
    MOVE = "move"              # `piece` and `space`: a piece moving on a lane track, a progress on its way

    def names(self) -> dict[str, Type]:
        """The fixed names of this scope (PARAMS, EVENT and TURN depend on the rule)."""
        if self is SiteScope.SEAT:
            return {"seat": SEAT}
        if self is SiteScope.LINE:
            return {"d": INT}
        if self is SiteScope.MOVE:
            return {"piece": PIECE, "space": INT}
        return {"piece": PIECE} if self is SiteScope.PIECE else {}


class Extend(Enum):
    """What `extend:` can do to a rule at a site."""
    NO = "no"
    VALUE = "value"            # `around:` an expression where `base` is the rule's own value
    BLOCK = "block"            # `before:`, `after:` or `around:` statements (`proceed` runs its own)


# Segments of a site's path in the game file, besides keys: each item of a list (by its `id`) or
# mapping (by its key), naming the rule (`NAMED`) or not (`EACH`).
NAMED = "[NAME]"
EACH = "[*]"


@dataclass(frozen=True)
class Site:
    """A kind of place a game file holds rule text (`steps.ID.if`): where it is, what names its
    rules see, the type their value must have, how they are compiled, whether `extend:` reaches them."""
    id: str                    # the pattern of its rules' ids: NAME and ID stand for names
    path: tuple[str, ...]      # where its text is in the game file (YAML keys, NAMED, EACH)
    form: Form
    scope: SiteScope
    want: tuple[Type, ...] = ()     # the types its value may have (none: any type)
    what: str = ""             # how a message names it ({name}: the rule's name)
    extend: Extend = Extend.VALUE
    explain: bool = True
    into: str = ""             # ENTRY: the plan's field holding its compiled function(s)
    heading: str = ""          # `explain`'s heading; see `authoring/explain.py` for the {fields}
    absent_true: bool = False  # a test that is not written is `true` (a module may still extend it)
    default: str = ""          # the rule a game that writes none has (what `base` is to an extension)

    @property
    def keyed(self) -> bool:
        """One rule per name (`record.NAME`), rather than one rule (`evaluate`)."""
        return NAMED in self.path

    def rule_id(self, names: tuple[str, ...]) -> str:
        """The id of the rule at this site with these names (`steps.ID.if`, ("move",) -> `steps.move.if`)."""
        out, it = [], iter(names)
        for part in self.id.split("."):
            out.append(next(it) if part in ("NAME", "ID") else part)
        return ".".join(out)

    def rule(self, *names: str) -> RuleId:
        """The id of the rule at this site with these names (`PROCEDURE.rule("score_card")`)."""
        return RuleId(self.rule_id(names))

    def match(self, rule_id: str) -> tuple[str, ...] | None:
        """The names of `rule_id` when it is a rule of this site, else None."""
        mine, theirs = self.id.split("."), rule_id.split(".")
        if len(mine) != len(theirs):
            return None
        names = []
        for a, b in zip(mine, theirs):
            if a in ("NAME", "ID"):
                names.append(b)
            elif a != b:
                return None
        return tuple(names)


NUMBER_OR_BOOL = (INT, BOOL)

SITES: tuple[Site, ...] = (
    Site("functions.NAME", ("functions", NAMED, "value"), Form.FUNCTION, SiteScope.PARAMS,
         heading="function {name}({params}) -> {type}"),
    Site("procedures.NAME", ("procedures", NAMED, "do"), Form.PROCEDURE, SiteScope.PARAMS,
         extend=Extend.BLOCK, heading="procedure {name}({params}){waits}"),
    Site("setup", ("setup",), Form.FLOW, SiteScope.GAME, extend=Extend.BLOCK, heading="setup"),
    Site("phases.ID", ("phases", NAMED, "do"), Form.FLOW, SiteScope.GAME, extend=Extend.BLOCK,
         heading="phase {name}"),
    Site("phases.ID.order", ("phases", NAMED, "order"), Form.ORDER, SiteScope.GAME, what="`order`",
         heading="phase {name}: order ({type}), turn `{turn}`"),
    Site("steps.ID.if", ("phases", EACH, "steps", NAMED, "if"), Form.TEST, SiteScope.TURN, (BOOL,),
         "a step's `if`", absent_true=True, heading="step {name} (phase {phase}): if"),
    Site("steps.ID", ("phases", EACH, "steps", NAMED, "do"), Form.FLOW, SiteScope.TURN, extend=Extend.BLOCK,
         heading="step {name} (phase {phase})"),
    Site("phases.ID.until", ("phases", NAMED, "until"), Form.TEST, SiteScope.GAME, (BOOL,), "`until`",
         heading="phase {name}: until"),
    Site("triggers.ID.if", ("triggers", NAMED, "if"), Form.TEST, SiteScope.EVENT, (BOOL,), "a trigger's `if`",
         absent_true=True, heading="trigger {name}: if"),
    Site("triggers.ID", ("triggers", NAMED, "do"), Form.TRIGGER, SiteScope.EVENT, extend=Extend.BLOCK,
         heading="trigger {name}: on {on}"),
    Site("result.rank", ("result", "rank"), Form.ENTRY, SiteScope.SEAT, (INT,), "`rank`", into="rank",
         heading="result: rank"),
    Site("result.tie", ("result", "tie"), Form.ENTRY, SiteScope.SEAT, (INT,), "`tie`", into="tie",
         heading="result: tie"),
    Site("result.says", ("result", "says"), Form.ENTRY, SiteScope.SEAT, (TEXT,), "`says`", into="result_says",
         heading="result: says"),
    Site("result.also.pieces", ("result", "also", "pieces"), Form.ENTRY, SiteScope.GAME, (listof(PIECE),),
         "`also.pieces`", into="also_pieces", heading="result: also, the pieces ({type})"),
    Site("result.also.rank", ("result", "also", "rank"), Form.ENTRY, SiteScope.PIECE, (INT,), "`also.rank`",
         into="also_rank", heading="result: also, rank"),
    Site("result.also.tie", ("result", "also", "tie"), Form.ENTRY, SiteScope.PIECE, (INT,), "`also.tie`",
         into="also_tie", heading="result: also, tie"),
    Site("result.also.says", ("result", "also", "says"), Form.ENTRY, SiteScope.PIECE, (TEXT,), "`also.says`",
         into="also_says", heading="result: also, says"),
    Site("record.NAME", ("record", NAMED), Form.ENTRY, SiteScope.SEAT, into="records",
         heading="record {name} ({type})"),
    Site("show.NAME", ("show", NAMED), Form.ENTRY, SiteScope.PIECE, into="shown",
         heading="show {name} ({type})"),
    Site("view.seats.NAME", ("view", "seats", NAMED), Form.ENTRY, SiteScope.SEAT, into="seat_facts",
         heading="view: seat fact {name} ({type})"),
    Site("view.game.NAME", ("view", "game", NAMED), Form.ENTRY, SiteScope.GAME, into="game_facts",
         heading="view: game fact {name} ({type})"),
    # by kind of line, then by name (`view.lines.KIND.NAME`): `line_facts` holds them so
    Site("view.lines.NAME.NAME", ("view", "lines", NAMED, NAMED), Form.ENTRY, SiteScope.LINE,
         into="line_facts", heading="view: fact {name} of each {kind} line ahead ({type})"),
    Site("evaluate", ("evaluate",), Form.ENTRY, SiteScope.SEAT, (INT,), "`evaluate`", into="evaluate",
         heading="evaluate"),
    Site("progress", ("progress",), Form.ENTRY, SiteScope.SEAT, (INT,), "`progress`", into="progress",
         heading="progress ({type})"),
    Site("metrics.NAME", ("metrics", NAMED), Form.ENTRY, SiteScope.GAME, NUMBER_OR_BOOL, "metric `{name}`",
         into="metrics", heading="metric {name} ({type})"),
    # a lane track's moves: what the board does unless the ruleset says otherwise
    Site("moves.enter", ("moves", "enter"), Form.ENTRY, SiteScope.MOVE, (BOOL,), "`moves.enter`",
         into="move_enter", heading="moves: may `piece` enter `space`", default="true"),
    Site("moves.spot", ("moves", "spot"), Form.ENTRY, SiteScope.MOVE, (INT,), "`moves.spot`",
         into="move_spot", heading="moves: the spot `piece` takes at `space`",
         default="free_spot(piece, space)"),
)

BY_ID = {s.id: s for s in SITES}
# the sites the passes name in their code (each rule's id made with `.rule(name)`)
FUNCTION, PROCEDURE = BY_ID["functions.NAME"], BY_ID["procedures.NAME"]
PHASE, STEP = BY_ID["phases.ID"], BY_ID["steps.ID"]
TRIGGER, TRIGGER_IF = BY_ID["triggers.ID"], BY_ID["triggers.ID.if"]


def site_of(rule_id: str) -> tuple[Site, tuple[str, ...]] | None:
    """The site of a rule id (`view.seats.lap` -> `view.seats.NAME`, ("lap",)), or None."""
    for site in SITES:
        names = site.match(rule_id)
        if names is not None:
            return site, names
    return None


__all__ = ["Site", "SITES", "BY_ID", "Form", "SiteScope", "Extend", "NAMED", "EACH", "site_of", "RuleId",
           "FUNCTION", "PROCEDURE", "PHASE", "STEP", "TRIGGER", "TRIGGER_IF"]
