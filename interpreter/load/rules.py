"""Every rule text of a merged game, parsed once into syntax trees (`lang.nodes`).

The places a game holds rule text are the rule sites of `ir/sites.py`; this pass goes through
that table and parses each rule it finds, keeping it under its id (`steps.move.if`). Beside the
rules it keeps the game's shape they hang on (functions and procedures with their parameters,
phases with their steps, triggers with their events), which is not rule text.

The checker and the compiler read these trees and never the text: a comment or a different
spelling of the same rule cannot change what it means after this point.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from ..ir.sites import BY_ID, EACH, NAMED, SITES, Site, site_of
from ..lang import nodes as n
from ..base.diagnostics import Loc, Report
from ..base.limits import MAX_GAME_RULE_CHARS, MAX_GAME_RULES, MAX_RULE_CHARS
from ..lang.parser import keywords, parse_block, parse_expr
from .yamlsrc import loc_of


@dataclass
class Rule:
    """One rule of the game: a site's rule, its tree (an expression, or a block of statements)."""
    site: Site
    id: str                   # `steps.move.if`
    name: str                 # the NAME or ID it is of ("" for a site with one rule)
    tree: Any                 # n.Expr, or n.Block for a site of statements


@dataclass
class FunctionDef:
    name: str
    params: dict          # name -> declared type (text, with its position)
    loc: Loc | None


@dataclass
class ProcedureDef:
    name: str
    params: dict
    loc: Loc | None


@dataclass
class StepDef:
    id: str
    phase: str
    loc: Loc | None


@dataclass
class PhaseDef:
    id: str
    loc: Loc | None
    order_loc: Loc | None = None
    turn: str = "turn"
    steps: list[StepDef] = field(default_factory=list)
    rounds: int | None = None
    has_do: bool = False      # written, even if it failed to parse
    has_order: bool = False
    has_until: bool = False


@dataclass
class TriggerDef:
    id: str
    on: str
    loc: Loc | None
    on_loc: Loc | None = None
    params: dict = field(default_factory=dict)   # name -> declared type (text, with its position)


@dataclass
class Rules:
    """Every rule text of a merged game, parsed once, by rule id (`procedures.score_card`), with
    the shape the rules hang on (functions, procedures, phases and their steps, triggers)."""
    rules: dict[str, Rule] = field(default_factory=dict)  # by id, in the order of the site table
    # the shape the rules hang on
    functions: dict[str, FunctionDef] = field(default_factory=dict)
    procedures: dict[str, ProcedureDef] = field(default_factory=dict)
    phases: list[PhaseDef] = field(default_factory=list)
    triggers: list[TriggerDef] = field(default_factory=list)
    descending: bool = True
    # how each fact reads, by its rule id (`show.lap`, `view.seats.money`): (label, unit, seen by
    # its owner only)
    fact_meta: dict[str, tuple[str, tuple[str, str], bool]] = field(default_factory=dict)
    line_kinds: list[tuple[str, Loc | None]] = field(default_factory=list)   # the kinds `view.lines` names
    view_piles: list[tuple[str, Loc | None]] = field(default_factory=list)   # the piles `view` names
    # with a `view:` section: each pile shown, in order, as {label, show, sort, whose}; the colours
    view: dict | None = None
    colours: dict[str, str] = field(default_factory=dict)

    def tree(self, rule_id: str) -> Any:
        """The tree of the rule `rule_id` (an expression or a block), or None."""
        rule = self.rules.get(rule_id)
        return None if rule is None else rule.tree

    def of(self, site: Site) -> list[Rule]:
        return [r for r in self.rules.values() if r.site is site]

    def of_id(self, site_id: str) -> list[Rule]:
        """The rules of the site `site_id` (`functions.NAME`)."""
        return self.of(BY_ID[site_id])

    def put(self, rule_id: str, tree: Any) -> None:
        """Set (or add) the tree of rule `rule_id`, which must be a rule of some site."""
        found = site_of(rule_id)
        assert found is not None, rule_id
        site, names = found
        self.rules[rule_id] = Rule(site, rule_id, names[-1] if names else "", tree)


def game_texts(game: Any, site: Site) -> Iterator[tuple[tuple[str, ...], Any]]:
    """(names, text) of each rule of `site` written in a merged game file (`ir.models.GameFile`)."""
    path = site.path

    def walk(node: Any, i: int, names: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Any]]:
        if node is None:
            return
        if i == len(path):
            yield names, (node if isinstance(node, str) else node.value)  # a fact: its value
            return
        seg = path[i]
        if seg in (NAMED, EACH):
            items = node.items() if isinstance(node, dict) else [(item.id, item) for item in node]
            for key, item in items:
                yield from walk(item, i + 1, names + ((str(key),) if seg == NAMED else ()))
        else:
            yield from walk(_field(node, seg), i + 1, names)
    yield from walk(game, 0, ())


def _field(model: Any, key: str) -> Any:
    """The value of YAML key `key` of a model (`if` is the field `if_`)."""
    for name, info in type(model).model_fields.items():
        if (info.alias or name) == key:
            return getattr(model, name)
    return None


class _Size:
    """The rule texts of a game counted as they are read: at most MAX_GAME_RULES of them, together
    at most MAX_GAME_RULE_CHARS characters (each at most MAX_RULE_CHARS, `lang/parser.py`); the first
    past a limit is reported at its position, and it and the rest are not read (reading, checking
    and compiling take time in their number and length)."""

    def __init__(self, report: Report):
        self.report, self.count, self.total, self.over = report, 0, 0, False

    def fits(self, text: str) -> bool:
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


def parse_rules(game: Any, report: Report) -> Rules:
    """The rules of a merged game file (`ir.models.GameFile`); syntax errors go to `report`."""
    size = _Size(report)
    r = Rules()
    for site in SITES:
        for names, text in game_texts(game, site):
            if text is None or not size.fits(text):
                continue
            tree = parse_block(text, report) if site.form.block else parse_expr(text, report)
            if tree is not None:
                rule_id = site.rule_id(names)
                r.rules[rule_id] = Rule(site, rule_id, names[-1] if names else "", tree)
    for name, fn in game.functions.items():
        r.functions[str(name)] = FunctionDef(str(name), dict(fn.params), loc_of(name))
    for name, pr in game.procedures.items():
        r.procedures[str(name)] = ProcedureDef(str(name), dict(pr.params), loc_of(name))
    for ph in game.phases:
        phase = PhaseDef(str(ph.id), loc_of(ph.id), order_loc=loc_of(ph.order), turn=str(ph.turn or "turn"),
                         rounds=ph.rounds, has_do=ph.do is not None, has_order=ph.order is not None,
                         has_until=ph.until is not None)
        phase.steps = [StepDef(str(step.id), phase.id, loc_of(step.id)) for step in ph.steps]
        r.phases.append(phase)
    for tr in game.triggers:
        r.triggers.append(TriggerDef(str(tr.id), str(tr.on), loc_of(tr.id), loc_of(tr.on), dict(tr.params)))
    r.descending = game.result.order == "descending"
    view = game.view
    if view is not None:
        r.view = {}
        for name, pv in view.piles.items():
            r.view_piles.append((str(name), loc_of(name)))
            r.view[str(name)] = {"label": str(name).replace("_", " ") if pv.label is None else str(pv.label),
                                 "show": pv.show, "sort": pv.sort, "whose": pv.whose, "beside": pv.beside,
                                 "unit": _words(pv.unit, ("card", "cards"))}
        r.colours = {str(k): str(v) for k, v in view.colours.items()}
    sections = [("show", game.show), ("view.seats", view.seats if view else {}),
                ("view.game", view.game if view else {})]
    for kind, facts in (view.lines if view else {}).items():
        r.line_kinds.append((str(kind), loc_of(kind)))
        sections.append((f"view.lines.{kind}", facts))
    for prefix, facts in sections:
        for name, fact in facts.items():
            label = str(name).replace("_", " ")
            if not isinstance(fact, str):
                r.fact_meta[f"{prefix}.{name}"] = (label if fact.label is None else str(fact.label),
                                                   _words(fact.unit, ("", "")), fact.seen_by == "owner")
            else:
                r.fact_meta[f"{prefix}.{name}"] = (label, ("", ""), False)
    return r


def declared_words(game: Any) -> dict[str, str]:
    """The words of the language a merged game declares as names (E119 at the declaration, once the
    rules parse): each with where and as what (`rulesets/x/game.yaml:12 as a state variable`)."""
    words = keywords()
    named: list[tuple[Any, str]] = []
    for what, section in (("a param", game.params), ("a kind of pieces", game.pieces),
                          ("a board", game.boards), ("a pile", game.piles), ("a die", game.dice),
                          ("a state variable", game.state), ("a function", game.functions),
                          ("a procedure", game.procedures)):
        named += [(name, what) for name in section]
    for kind, section in (("function", game.functions), ("procedure", game.procedures)):
        for name, decl in section.items():
            named += [(p, f"a parameter of {kind} `{name}`") for p in decl.params]
    for tr in game.triggers:
        named += [(p, f"a parameter of trigger `{tr.id}`") for p in tr.params]
    for spec in game.cards.values():
        named += [(k, "a card property") for k in spec.props]
    out: dict[str, str] = {}
    for name, what in named:
        if str(name) in words and str(name) not in out:
            loc = loc_of(name)
            out[str(name)] = (f"declared at {loc.file}:{loc.line} as {what}" if loc is not None and loc.line
                              else f"declared as {what}")
    return out


def blocks(rules: Rules) -> Iterator[tuple[str, list[n.Stmt]]]:
    """Every block of statements of the game, as (rule id, its statements)."""
    for rule in rules.rules.values():
        if rule.site.form.block:
            yield rule.id, rule.tree.body


def _words(unit: Any, default: tuple[str, str]) -> tuple[str, str]:
    """A `unit:` as the words after 1 (and -1) and after any other number: one word serves both."""
    if unit is None:
        return default
    one, many = (unit, unit) if not isinstance(unit, list) else unit
    return str(one), str(many)
