"""What the editor knows of a game's names: each name a rule may use (built-ins, params, state,
piles, dice, boards, pieces, functions, procedures), the attributes after a dot (state of a seat,
a piece or a card, card properties), the card types, the targets a patch may aim at (rules, named
statements and choices, a game file's sections) and the keys a scenario may set (variants,
modules, tracks), each with a line saying what it is and where it is declared: in the base game,
a module or a variant, as the loader merged them (a declaration's name keeps its file's place).

Read from a loaded game (`load_ruleset`, kept by the loader) and the checker's declarations
(`Declarations`): nothing here reads a file (the ruleset's folders are listed for its variants
and modules).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..base.diagnostics import Loc, Report
from ..check.symbols import CARD_ATTRS, PIECE_ATTRS, SEAT_ATTRS, Declarations, builtins
from ..ir.models import GameFile
from ..lang import nodes as n
from ..lang.parser import keywords
from ..library.api import Builtin
from ..load.rules import blocks
from ..load.ruleset import Ruleset
from ..load.yamlsrc import loc_of


@dataclass(frozen=True)
class Known:
    """A name: what it is (`param`, `built-in`, ...), a line to show beside it (a signature, a
    value), a longer text (a built-in's doc, a card's properties) and where it is declared."""
    name: str
    what: str
    detail: str
    doc: str = ""
    loc: Loc | None = None
    changed: Loc | None = None   # the patch (of a module or variant) that changed it, when one did


@dataclass
class Knowledge:
    names: dict[str, Known] = field(default_factory=dict)        # what a rule names
    attributes: dict[str, Known] = field(default_factory=dict)   # what follows a dot
    cards: dict[str, Known] = field(default_factory=dict)        # card types, by id
    targets: dict[str, Known] = field(default_factory=dict)      # what a patch aims at
    options: dict[str, list[str]] = field(default_factory=dict)  # a scenario's keys -> values

    def find(self, word: str) -> Known | None:
        """The declaration a word names: a rule's name, a card type, an attribute, a target."""
        for table in (self.names, self.cards, self.attributes, self.targets):
            if word in table:
                return table[word]
        return None


def shown(value: Any) -> str:
    """A value as a designer writes it in YAML (`true`, `[3, 1]`, `"text"`), never as Python."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(shown(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {shown(v)}" for k, v in value.items()) + "}"
    return str(value)


def signature(b: Builtin) -> str:
    """`name(type, [optional type]) -> type`, as the checker's hint writes a call's arity."""
    return b.call_form + (f" -> {b.returns}" if b.returns is not None else "")


def builtin_doc(b: Builtin) -> str:
    """A built-in's doc line, then each argument: what it is."""
    lines = [b.doc.strip().split("\n")[0]] if b.doc else []
    lines += [f"- {p.type}{' (may be left out)' if p.optional else ''}: {p.what}" for p in b.params]
    return "\n".join(lines)


def know(rs: Ruleset) -> Knowledge:
    """Everything the editor knows of the names of a loaded game."""
    k = Knowledge()
    g = rs.game
    for b in builtins(frozenset(str(d.kind) for d in g.boards.values())).values():
        k.names[b.name] = Known(b.name, "built-in", signature(b), builtin_doc(b))
    _declared(k, rs)
    symbols = Declarations(rs, Report()).build()   # (its problems are the checker's to say)
    for name, typ in symbols.card_props.items():
        k.attributes.setdefault(name, Known(name, "card property", f"{name}: {typ}"))
    for names, owner in ((SEAT_ATTRS, "seat"), (PIECE_ATTRS, "piece"), (CARD_ATTRS, "card")):
        for name in names:
            k.attributes.setdefault(name, Known(name, f"attribute of a {owner}", f"{owner}.{name}"))
    for card in rs.cards:
        props = ", ".join(f"{key}: {shown(v)}" for key, v in (card.props or {}).items())
        many = f"{card.count} {'card' if card.count == 1 else 'cards'}"
        k.cards[str(card.id)] = Known(str(card.id), "card type", f"card {card.id}: {many}", props,
                                      loc_of(card.id))
    _targets(k, rs)
    k.options = {"variants": _stems(rs, "variants"), "modules": _stems(rs, "modules"),
                 "track": list(rs.other_tracks), "params": [str(p) for p in g.params]}
    return k


def _declared(k: Knowledge, rs: Ruleset) -> None:
    """The game's own names (and its modules' and variants'), where each is declared."""
    g = rs.game

    def add(name: Any, what: str, detail: str, doc: str = "") -> None:
        changed = rs.changed.get(f"{what}s.{name}") or rs.changed.get(f"{what}.{name}")
        loc = loc_of(name)
        if changed is not None and loc is not None and changed.file == loc.file:
            changed = None   # (added by the patch: declared there)
        k.names[str(name)] = Known(str(name), what, detail, doc, loc, changed)

    for name, value in g.params.items():
        add(name, "param", f"{name} = {shown(value)}")
    for name, spec in g.state.items():
        known = Known(str(name), "state", f"{name}: {spec.type}, of {spec.of or 'the game'}", "",
                      loc_of(name))
        (k.attributes if spec.of else k.names)[str(name)] = known
    for name, pile in g.piles.items():
        add(name, "pile", f"pile {name}, of {pile.of or 'the game'}, seen by {pile.visible}")
    for name, faces in g.dice.items():
        add(name, "die", f"die {name}: {shown(faces)}")
    for name, board in g.boards.items():
        add(name, "board", f"board {name} ({board.kind})")
    for name, kind in g.pieces.items():
        add(name, "pieces", f"pieces {name}: {shown([str(x) for x in kind.names or []])}")
    for name, fn in g.functions.items():
        add(name, "function", f"{name}({_params(fn.params)})", str(fn.value).strip().split("\n")[0])
    for name, proc in g.procedures.items():
        add(name, "procedure", f"procedure {name}({_params(proc.params)})")


def _params(params: dict) -> str:
    return ", ".join(f"{p}: {t}" for p, t in params.items())


def _targets(k: Knowledge, rs: Ruleset) -> None:
    """The rules, named statements and choices a module's patch may aim at, and the sections of a
    game file it may add to."""
    g = rs.game
    for rule_id, rule in rs.rules.rules.items():
        k.targets[rule_id] = Known(rule_id, "rule", rule.site.id, loc=_rule_loc(g, rule_id, rule))
    for _rule_id, block in blocks(rs.rules):
        for stmt in _statements(block):
            if stmt.name_tag:
                kind = "choices" if isinstance(stmt, n.Choose) else "statements"
                target = f"{kind}.{stmt.name_tag}"
                what = "named choice" if kind == "choices" else "named statement"
                k.targets[target] = Known(target, what, target, loc=stmt.loc)
            if isinstance(stmt, n.Choose) and stmt.name_tag:
                for option in stmt.options:
                    if option.name_tag:
                        target = f"choices.{stmt.name_tag}.{option.name_tag}"
                        k.targets[target] = Known(target, "named option", target, loc=option.loc)
    for name, info in GameFile.model_fields.items():
        section = info.alias or name
        if not section.startswith(("$", "schema")):
            k.targets.setdefault(section, Known(section, "section", f"{section}: (a game file's section)"))
    for name in g.params:
        k.targets[f"params.{name}"] = Known(f"params.{name}", "param", f"{name} = {shown(g.params[name])}",
                                            loc=loc_of(name), changed=k.names[str(name)].changed)


def _rule_loc(g: GameFile, rule_id: str, rule: Any) -> Loc | None:
    """Where a rule is declared: its name's place (a function's, a step's), else its text's."""
    head, _, rest = rule_id.partition(".")
    names: dict[str, Any] = {}
    if head in ("functions", "procedures"):
        names = {str(x): x for x in getattr(g, head)}
    elif head in ("phases", "steps"):
        names = {str(p.id): p.id for p in g.phases} if head == "phases" else \
            {str(s.id): s.id for p in g.phases for s in p.steps}
    elif head == "triggers":
        names = {str(t.id): t.id for t in g.triggers}
    name = rest.split(".")[0]
    return loc_of(names[name]) if name in names else getattr(rule.tree, "loc", None)


def _statements(stmts: list[n.Stmt]) -> list[n.Stmt]:
    """Every statement of a block, however deep (the named ones a patch may reach)."""
    out: list[n.Stmt] = []
    for s in stmts:
        out.append(s)
        for inner in n.block_children(s):
            out += _statements(inner)
    return out


def _stems(rs: Ruleset, kind: str) -> list[str]:
    return sorted(p.stem for p in (rs.folder / kind).glob("*.yaml"))


def words() -> list[str]:
    """The words of the rule language (`if`, `for`, `choose`, ...)."""
    return sorted(keywords())


def basics() -> Knowledge:
    """What is known before a game is loaded (a file in no ruleset, a game that does not load
    yet): the built-ins of every board kind."""
    k = Knowledge()
    for b in builtins().values():
        k.names[b.name] = Known(b.name, "built-in", signature(b), builtin_doc(b))
    return k
