"""Every rule text of a merged game, parsed once into syntax trees (`lang.nodes`).

The checker and the compiler read these definitions and never the text: a comment or a
different spelling of the same rule cannot change what it means after this point.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..lang import nodes as n
from ..lang.diagnostics import Loc, Report
from ..lang.limits import MAX_GAME_RULE_CHARS, MAX_GAME_RULES, MAX_RULE_CHARS
from ..lang.parser import parse_block, parse_expr
from .yamlsrc import loc_of


@dataclass
class FunctionDef:
    name: str
    params: dict          # name -> declared type (text, with its position)
    body: n.Expr
    loc: Loc | None


@dataclass
class ProcedureDef:
    name: str
    params: dict
    body: n.Block
    loc: Loc | None


@dataclass
class StepDef:
    id: str
    cond: n.Expr | None
    body: n.Block | None
    loc: Loc | None


@dataclass
class PhaseDef:
    id: str
    loc: Loc | None
    do: n.Block | None = None
    order: n.Expr | None = None
    order_loc: Loc | None = None
    turn: str = "turn"
    steps: list[StepDef] = field(default_factory=list)
    until: n.Expr | None = None
    rounds: int | None = None
    has_do: bool = False      # written, even if it failed to parse
    has_order: bool = False
    has_until: bool = False


@dataclass
class TriggerDef:
    id: str
    on: str
    cond: n.Expr | None
    body: n.Block | None
    loc: Loc | None
    on_loc: Loc | None = None
    params: dict = field(default_factory=dict)   # name -> declared type (text, with its position)


@dataclass
class Rules:
    functions: dict[str, FunctionDef] = field(default_factory=dict)
    procedures: dict[str, ProcedureDef] = field(default_factory=dict)
    setup: n.Block | None = None
    phases: list[PhaseDef] = field(default_factory=list)
    triggers: list[TriggerDef] = field(default_factory=list)
    rank: n.Expr | None = None
    tie: n.Expr | None = None
    also_pieces: n.Expr | None = None   # pieces ranked with the seats (`result.also`)
    also_rank: n.Expr | None = None
    also_tie: n.Expr | None = None
    descending: bool = True
    records: dict[str, n.Expr] = field(default_factory=dict)
    show: dict[str, n.Expr] = field(default_factory=dict)
    progress: n.Expr | None = None
    metrics: dict[str, n.Expr] = field(default_factory=dict)
    seat_facts: dict[str, n.Expr] = field(default_factory=dict)   # `view.seats`
    game_facts: dict[str, n.Expr] = field(default_factory=dict)   # `view.game`
    # `view.lines`: by kind of line, its facts (`d` bound), and where each kind is named
    line_facts: dict[str, dict[str, n.Expr]] = field(default_factory=dict)
    line_kinds: list[tuple[str, Loc | None]] = field(default_factory=list)
    # how each fact reads: (section, name) -> (label, unit, seen by its owner only)
    fact_meta: dict[tuple[str, str], tuple[str, str, bool]] = field(default_factory=dict)
    view_piles: list[tuple[str, Loc | None]] = field(default_factory=list)   # the piles `view` names
    # with a `view:` section: each pile shown, in order, as {label, show, sort, whose}; the colours
    view: dict | None = None
    colours: dict[str, str] = field(default_factory=dict)
    evaluate: n.Expr | None = None


class _Size:
    """The rule texts of a game counted as they are read: at most MAX_GAME_RULES of them, together
    at most MAX_GAME_RULE_CHARS characters (each at most MAX_RULE_CHARS, `lang/parser.py`); the first
    past a limit is reported at its position, and it and the rest are not read (reading, checking
    and compiling take time in their number and length)."""

    def __init__(self, report: Report):
        self.report, self.count, self.total, self.over = report, 0, 0, False

    def fits(self, text) -> bool:
        if len(text) > MAX_RULE_CHARS:  # refused on its own by the parser
            return True
        self.count += 1
        self.total += len(text)
        if self.over:
            return False
        if self.count > MAX_GAME_RULES:
            what = f"more than {MAX_GAME_RULES:,} rules"
        elif self.total > MAX_GAME_RULE_CHARS:
            what = f"rules more than {MAX_GAME_RULE_CHARS:,} characters long together"
        else:
            return True
        self.over = True
        self.report.add("E106", f"the game has {what} (with its modules and variants)", loc_of(text),
                        "a game's rules are short: reuse functions and procedures rather than copy them")
        return False


def parse_rules(game, report: Report) -> Rules:
    """The rules of a merged game file (`ir.models.GameFile`); syntax errors go to `report`."""
    size = _Size(report)

    def _expr(text, report: Report) -> "n.Expr | None":
        return None if text is None or not size.fits(text) else parse_expr(text, report)

    def _block(text, report: Report) -> n.Block | None:
        return None if text is None or not size.fits(text) else parse_block(text, report)

    r = Rules()
    for name, fn in game.functions.items():
        body = _expr(fn.value, report)
        if body is not None:
            r.functions[str(name)] = FunctionDef(str(name), dict(fn.params), body, loc_of(name))
    for name, pr in game.procedures.items():
        block = _block(pr.do, report)
        if block is not None:
            r.procedures[str(name)] = ProcedureDef(str(name), dict(pr.params), block, loc_of(name))
    r.setup = _block(game.setup, report)
    for ph in game.phases:
        phase = PhaseDef(str(ph.id), loc_of(ph.id), do=_block(ph.do, report),
                         order=_expr(ph.order, report), order_loc=loc_of(ph.order),
                         turn=str(ph.turn or "turn"), until=_expr(ph.until, report), rounds=ph.rounds,
                         has_do=ph.do is not None, has_order=ph.order is not None,
                         has_until=ph.until is not None)
        for step in ph.steps:
            phase.steps.append(StepDef(str(step.id), _expr(step.if_, report), _block(step.do, report),
                                       loc_of(step.id)))
        r.phases.append(phase)
    for tr in game.triggers:
        r.triggers.append(TriggerDef(str(tr.id), str(tr.on), _expr(tr.if_, report), _block(tr.do, report),
                                     loc_of(tr.id), loc_of(tr.on), dict(tr.params)))
    r.rank = _expr(game.result.rank, report)
    r.tie = _expr(game.result.tie, report)
    if game.result.also is not None:
        r.also_pieces = _expr(game.result.also.pieces, report)
        r.also_rank = _expr(game.result.also.rank, report)
        r.also_tie = _expr(game.result.also.tie, report)
    r.descending = game.result.order == "descending"
    for name, text in game.record.items():
        expr = _expr(text, report)
        if expr is not None:
            r.records[str(name)] = expr
    view = game.view
    if view is not None:
        r.view = {}
        for name, pv in view.piles.items():
            r.view_piles.append((str(name), loc_of(name)))
            r.view[str(name)] = {"label": str(name).replace("_", " ") if pv.label is None else str(pv.label),
                                 "show": pv.show, "sort": pv.sort, "whose": pv.whose}
        r.colours = {str(k): str(v) for k, v in view.colours.items()}
    sections = [("show", game.show, r.show), ("seats", view.seats if view else {}, r.seat_facts),
                ("game", view.game if view else {}, r.game_facts)]
    for kind, facts in (view.lines if view else {}).items():
        r.line_kinds.append((str(kind), loc_of(kind)))
        sections.append((f"lines.{kind}", facts, r.line_facts.setdefault(str(kind), {})))
    for section, facts, table in sections:
        for name, fact in facts.items():
            text = fact if isinstance(fact, str) else fact.value
            expr = _expr(text, report)
            if expr is not None:
                table[str(name)] = expr
            label = str(name).replace("_", " ")
            if not isinstance(fact, str):
                r.fact_meta[(section, str(name))] = (label if fact.label is None else str(fact.label),
                                                     str(fact.unit or ""), fact.seen_by == "owner")
            else:
                r.fact_meta[(section, str(name))] = (label, "", False)
    r.progress = _expr(game.progress, report)
    for name, text in game.metrics.items():
        expr = _expr(text, report)
        if expr is not None:
            r.metrics[str(name)] = expr
    r.evaluate = _expr(game.evaluate, report)
    return r
