"""The names a game declares, with their types, checked once: params, state, piles, boards,
pieces, cards, functions and procedures. The checker resolves every name of every rule against
this table; the compiler lays out the state from the same declarations.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..boards import KINDS
from ..base.diagnostics import Report, did_you_mean
from ..base.limits import MAX_INT
from ..lang.parser import keywords
from ..lang.types import (ANY, BOOL, CARD, DECLARABLE, INT, SEAT, TEXT, Owner, Per, Type, compatible, listof,
                          mentions, of_value, parse_type)
from ..library.api import Builtin
from ..library.core import CORE
from ..load.ruleset import Ruleset
from ..load.yamlsrc import loc_of

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
BUILTIN_EVENTS = ("game_start", "phase_start", "phase_end", "round_start", "round_end",
                  "turn_start", "turn_end")
# Names the engine gives a meaning: a declaration cannot take them.
RESERVED = {"round": "the round number", "seats": "the list of seats", "owner": "a piece's owner",
            "none": "a word of the language", "true": "a word of the language",
            "false": "a word of the language"}
SEAT_ATTRS = ("number", "pieces")
PIECE_ATTRS = ("name", "owner")
CARD_ATTRS = ("type", "face_up", "pile")


@lru_cache(maxsize=None)
def builtins(kinds: frozenset[str] | None = None) -> dict[str, Builtin]:
    """The built-ins by name: the core language's and those of the board kinds `kinds` (a game's:
    a game without a ranking may name a function `place`), or of every kind."""
    table = {b.name: b for b in CORE}
    for kind in KINDS.values():
        if kinds is not None and kind.kind not in kinds:
            continue
        for b in kind.builtins:
            if b.name in table:  # pragma: no cover - a programming error in a board kind
                raise RuntimeError(f"board kind {kind.kind} redefines built-in `{b.name}`")
            table[b.name] = b
    return table


BUILTINS = builtins()  # every kind's


@dataclass
class Symbols:
    """Every name a game declares, with its type: params (and values), state variables of the
    game, seats, pieces and cards, piles and whose they are, functions, procedures, card properties,
    boards and the built-ins their kinds bring; the typing pass resolves names here."""
    params: dict[str, tuple[Any, Type]] = field(default_factory=dict)   # name -> (value, type)
    globals: dict[str, Type] = field(default_factory=dict)         # game state -> type
    seat_vars: dict[str, Type] = field(default_factory=dict)
    piece_vars: dict[str, Type] = field(default_factory=dict)      # includes `owner`
    card_vars: dict[str, Type] = field(default_factory=dict)
    piles: dict[str, Owner | None] = field(default_factory=dict)   # name -> whose (None: no owner there is)
    # dice: name -> None for a die, or the type of a family's keys (`level(3)`: int; `colour("red")`: text)
    dice: dict[str, Type | None] = field(default_factory=dict)
    die_names: dict[str, list[str]] = field(default_factory=dict)   # a family's dice, by family
    boards: dict[str, str] = field(default_factory=dict)           # name -> kind
    pieces: dict[str, list[str]] = field(default_factory=dict)     # kind -> piece names
    piece_names: list[str] = field(default_factory=list)
    card_props: dict[str, Type] = field(default_factory=dict)      # property -> type
    # a property that is a text on every card type that has it -> the texts it takes (W163)
    card_prop_texts: dict[str, list[str]] = field(default_factory=dict)
    card_types: list[str] = field(default_factory=list)
    functions: dict[str, dict[str, Type]] = field(default_factory=dict)   # name -> {param: type}
    procedures: dict[str, dict[str, Type]] = field(default_factory=dict)
    builtins: dict[str, Builtin] = field(default_factory=lambda: BUILTINS)
    # the events the game's boards raise as pieces move (`boards/base.py`): event -> its values
    board_events: dict[str, Any] = field(default_factory=dict)
    # names declared twice (E118 at the second): a rule using one is no second mistake
    clashed: set[str] = field(default_factory=set)

    def global_names(self) -> list[str]:
        return (list(self.params) + list(self.globals) + ["round"] + list(self.piles) + list(self.dice)
                + list(self.boards)
                + list(self.pieces) + ["seats"] + list(self.functions) + list(self.procedures)
                + list(self.builtins))


def valid_name(name: str) -> bool:
    return bool(_NAME.fullmatch(name)) and not name.startswith("__") and name not in keywords()


class Declarations:
    """Reads a merged game's declarations into `Symbols`, reporting what is wrong."""

    def __init__(self, rs: Ruleset, report: Report):
        self.rs = rs
        self.g = rs.game
        self.report = report
        self.sym = Symbols(builtins=builtins(frozenset(b.kind for b in self.g.boards.values())))
        self.owner: dict[str, str] = {}   # global name -> what declares it (for clashes)

    def build(self) -> Symbols:
        self._pieces()
        self._boards()
        self._params()
        self._piles()
        self._dice()
        self._state()
        self._cards()
        self._routines()
        self._carry()
        for i, (name, decl) in enumerate(self.g.boards.items()):
            KINDS[decl.kind](str(name), i, decl, None).check(self.sym, self.report)
        # the built-ins of kinds the game has no board of are not its names, but a call of one
        # (of a name the game leaves free) still finds it, to say which board it needs (E150)
        own = self.sym.builtins
        self.sym.builtins = {**own, **{name: b for name, b in BUILTINS.items()
                                       if name not in own and name not in self.owner}}
        return self.sym

    def _carry(self) -> None:
        """A series hands on values and cards: state that means the same in the next game (not a
        card, whose number is this game's own) and piles of the game or of each seat."""
        carry = self.g.carry
        if carry is None:
            return
        for scope, names, table in (("seat", carry.seat, self.sym.seat_vars),
                                    ("game", carry.game, self.sym.globals)):
            for name in names:
                t = table.get(str(name))
                if t is None:
                    self.report.add("E160", f"`carry.{scope}` names `{name}`, which is no state variable "
                                            f"of the {scope}", loc_of(name),
                                    did_you_mean(str(name), list(table)) or
                                    f"declare it under `state:` with `of: {scope}`")
                elif mentions(t, CARD):
                    self.report.add("E160", f"`{name}` holds cards: a card is carried in a pile, by its type",
                                    loc_of(name), "list it under `carry.piles`")
        for name in carry.piles:
            owner = self.sym.piles.get(str(name))
            if owner is None or owner.per not in (Per.GAME, Per.SEAT):
                self.report.add("E160", f"`carry.piles` names `{name}`, which is no pile of the game or "
                                        "of each seat", loc_of(name),
                                did_you_mean(str(name), list(self.sym.piles)))

    def name(self, name: Any, what: str, globally: bool = True, uses: str = "") -> bool:
        """A declared name: a name of the language, not reserved, and (`globally`) not taken.
        `uses`: said after the message (how many card types have a property)."""
        loc = loc_of(name)
        text = str(name)
        word = text in keywords()
        if word:
            # Said once, here. The name is declared all the same (the game, with this error, is not
            # compiled): the uses the parser could read as names (`car.move`, `x = face + 1`, a
            # function's parameter `from`) resolve, rather than each saying it is unknown, or each
            # call that the function takes one argument fewer.
            self.report.add("E119", f"`{text}` is a word of the language: it cannot be the name of a {what}"
                            + uses, loc, "rename it, here and where the rules use it")
        elif not valid_name(text):
            shown = text.encode("unicode_escape").decode("ascii")[:60]
            self.report.add("E119", f"`{shown}` cannot be the name of a {what}" + uses, loc,
                            "a name is letters, digits and `_`, not starting with a digit or `__`, "
                            "and not a word of the language")
            return False
        if globally:
            if text in RESERVED and not word:
                self.report.add("E118", f"`{text}` is {RESERVED[text]}: it cannot be the name of a {what}",
                                loc, "choose another name")
                return False
            if text in self.sym.builtins:
                self.report.add("E118", f"`{text}` is a built-in: it cannot be the name of a {what}", loc,
                                "choose another name")
                return False
            if text in self.owner:
                self.sym.clashed.add(text)
                self.report.add("E118", f"`{text}` names a {self.owner[text]} already: "
                                        f"it cannot also be a {what}",
                                loc, "choose another name")
                return False
            self.owner[text] = what
        return True

    def _pieces(self) -> None:
        for kind, pk in self.g.pieces.items():
            if not self.name(kind, "kind of pieces"):
                continue
            names = [str(x) for x in (pk.names or [])]
            if names and len(names) != pk.count:
                self.report.add("E132", f"pieces `{kind}` has {pk.count} pieces but {len(names)} names",
                                loc_of(pk.names[0]) if pk.names else None)
            ids = [names[i] if i < len(names) else f"{kind}{i + 1}" for i in range(pk.count)]
            self.sym.pieces[str(kind)] = ids
            self.sym.piece_names.extend(ids)

    def _boards(self) -> None:
        for name, b in self.g.boards.items():
            if self.name(name, "board"):
                self.sym.boards[str(name)] = b.kind
                for event, values in KINDS[b.kind].events.items():
                    self.sym.board_events.setdefault(event, values)

    def _params(self) -> None:
        for name, value in self.g.params.items():
            if self.name(name, "param"):
                self.sym.params[str(name)] = (value, of_value(value))
                self._check_value(value, name, frozenset({f"params.{name}"}))

    def _check_value(self, value: Any, where: Any, about: frozenset[str] = frozenset(),
                     report: Report | None = None) -> None:
        """`about`: the declaration holding the value (a patch may have given it); `report`: where
        the problems go (the declarations' report)."""
        out = self.report if report is None else report
        if isinstance(value, bool):
            return
        if isinstance(value, int) and abs(value) > MAX_INT:
            out.add("E117", f"`{where}` holds a number beyond {MAX_INT}", loc_of(where), about=about)
        elif isinstance(value, float):
            out.add("E117", f"`{where}` holds {value}: rules count in whole numbers", loc_of(where),
                    hint="write a whole number (scale it up if you need parts: 15 tenths, not 1.5)",
                    about=about)
        elif isinstance(value, list):
            for v in value:
                self._check_value(v, where, about, out)
        elif isinstance(value, dict):
            for v in value.values():
                self._check_value(v, where, about, out)

    def _piles(self) -> None:
        scopes = ["game", "seat", "piece", *self.sym.boards]
        for name, pile in self.g.piles.items():
            if not self.name(name, "pile"):
                continue
            of = str(pile.of)
            owner = Owner.read(of, list(self.sym.boards))
            if owner is None:
                self.report.add("E112", f"pile `{name}` belongs to `{of}`, "
                                        "which is not game, seat, piece or a board",
                                loc_of(pile.of), did_you_mean(of, scopes))
            elif owner.per is Per.PLACE and not KINDS[self.sym.boards[of]].has_places:
                self.report.add("E112", f"pile `{name}` belongs to board `{of}`, "
                                        "whose kind has no places for piles",
                                loc_of(pile.of))
                owner = None
            # (None: reported here, its uses are not reported again)
            self.sym.piles[str(name)] = owner
        for name, pile in self.g.piles.items():
            if pile.refill_from is None or str(name) not in self.sym.piles:
                continue
            for said in pile.refills():
                src, at = str(said), loc_of(said, loc_of(pile.refill_from))
                if src not in self.g.piles:
                    self.report.add("E113", f"pile `{name}` refills from `{src}`, which is not a pile",
                                    at, did_you_mean(src, self.g.piles))
                elif self.g.piles[src].of != pile.of or str(pile.of) not in ("game", "seat", "piece"):
                    self.report.add("E113", "`refill_from` links two piles of one owner (both of: game, "
                                    "both of: seat or both of: piece)", at)
                elif src == str(name):
                    self.report.add("E113", f"pile `{name}` refills from itself", at)

    def _dice(self) -> None:
        """A die's faces are whole numbers; a family's keys are all numbers or all names."""
        for name, faces in self.g.dice.items():
            if not self.name(name, "die"):
                continue
            if isinstance(faces, dict):
                # (a YAML key reaches here as text: `1:` is a number)
                kinds = {isinstance(k, int) or bool(re.fullmatch(r"-?[0-9]+", str(k))) for k in faces}
                if len(kinds) > 1:
                    self.report.add("E117", f"the dice of family `{name}` are named by numbers and by names: "
                                            "by one or the other", loc_of(name),
                                    "`level: {1: [...], 2: [...]}` or `colour: {red: [...], blue: [...]}`")
                    continue
                self.sym.dice[str(name)] = INT if kinds == {True} else TEXT
                self.sym.die_names[str(name)] = [str(k) for k in faces]
                for key, each in faces.items():
                    self._check_value(each, key)
            else:
                self.sym.dice[str(name)] = None
                self._check_value(faces, name)

    def _state(self) -> None:
        for name, var in self.g.state.items():
            scope = var.of
            if scope == "game":
                if not self.name(name, "state variable"):
                    continue
            else:
                if not self.name(name, f"state variable of a {scope}", globally=False):
                    continue
                builtin_attrs = {"seat": SEAT_ATTRS, "piece": PIECE_ATTRS, "card": CARD_ATTRS}[scope]
                if str(name) in builtin_attrs:
                    self.report.add("E118", f"`{name}` is built in for every {scope}: it cannot be declared",
                                    loc_of(name), "choose another name")
                    continue
            t = parse_type(var.type)
            init = var.initial
            if t is None:  # declared all the same (as `any`): its uses are not errors too
                self.report.add("E111", f"unknown type `{var.type}` for state `{name}`", loc_of(var.type),
                                "types: " + ", ".join(DECLARABLE) + ", list[T], map[K, V] (K: int, text, "
                                "seat, piece or card)")
                t, init = ANY, None
            about = frozenset({f"state.{name}"})
            if init is not None and not compatible(of_value(init), t):
                self.report.add("E117", f"state `{name}` is {t} but starts as {init!r}", loc_of(name),
                                about=about)
            self._check_value(init, name, about)
            {"game": self.sym.globals, "seat": self.sym.seat_vars,
             "piece": self.sym.piece_vars, "card": self.sym.card_vars}[scope][str(name)] = t
        self.sym.piece_vars["owner"] = SEAT

    def _cards(self) -> None:
        """A cards file writes a property on each card type (36 of them): a problem of the property
        (its name, its values, its type) is said once, where the first card type has it, with how
        many have it; a problem of where cards start, once for the card types that start alike."""
        seen = set()
        props: dict[str, list[tuple[Any, Any, Any]]] = {}   # property -> (key, value, card type) of each
        for ct in self.rs.cards:
            if ct.id in seen:
                self.report.add("E114", f"card type `{ct.id}` is defined twice", loc_of(ct.id))
            seen.add(ct.id)
            self.sym.card_types.append(str(ct.id))
            for k, v in ct.props.items():
                props.setdefault(str(k), []).append((k, v, ct))
        for k, have in props.items():
            if not self.name(have[0][0], "card property", globally=False,
                             uses=f" (on {len(have)} card types)" if len(have) > 1 else ""):
                continue
            values = Report()
            for key, v, ct in have:
                self._check_value(v, key, frozenset({f"cards.{ct.id}"}), values)
            for code in dict.fromkeys(d.code for d in values.items):
                same = [d for d in values.items if d.code == code]
                more = len({frozenset(d.about) for d in same}) - 1
                self.report.add(code, same[0].message + (f" (and on {more} other card type{_s(more)})"
                                                         if more else ""),
                                same[0].loc, same[0].hint, about=frozenset().union(*(d.about for d in same)))
            self.sym.card_props[k] = self._prop_type(k, have)
            if all(isinstance(v, str) for _key, v, _ct in have):
                self.sym.card_prop_texts[k] = list(dict.fromkeys(str(v) for _key, v, _ct in have))
        for k in self.sym.card_vars:
            if k in self.sym.card_props:
                where = loc_of(next(n for n in self.g.state if str(n) == k))
                self.report.add("E118", f"`{k}` is a property of the cards and a state variable of each "
                                        "card: one or the other", where, "rename the state variable")
        for k in CARD_ATTRS:
            if k in self.sym.card_props:
                self.report.add("E115", f"card property `{k}` is built in and cannot be redefined", None)
        alike: dict[tuple, list[Any]] = {}   # card types that start alike: in one pile, per seat or piece
        for ct in self.rs.cards:
            sel = ct.per_piece
            alike.setdefault((str(ct.starts_in), ct.per_seat, tuple(map(str, sel)) if isinstance(sel, list)
                              else str(sel)), []).append(ct)
        for (pile, _seat, _piece), cts in alike.items():
            ct = cts[0]
            if pile not in self.sym.piles:
                self.report.add("E116", f"{_named(cts, 'cards ')} start in `{pile}`, which is not a pile",
                                loc_of(ct.starts_in), did_you_mean(pile, self.sym.piles),
                                about=frozenset({f"piles.{pile}"} | {f"cards.{c.id}" for c in cts}))
                continue
            owner = self.sym.piles[pile]
            if owner is None:
                continue   # (said where the pile is declared)
            if ct.per_piece is not False:
                self._per_piece(ct, pile, owner, _named(cts, "cards "))
            elif ct.per_seat and owner.per is not Per.SEAT:
                self.report.add("E116", "`per_seat` cards start in a pile of each seat; "
                                        f"`{pile}` is of {owner} ({_named(cts, 'cards ')})",
                                loc_of(ct.starts_in), "`per_piece: true` deals them to each piece's pile"
                                if owner.per is Per.PIECE else None)
            elif not ct.per_seat and owner.per is not Per.GAME:
                self.report.add("E116", f"{_named(cts, 'cards ')} start in `{pile}`, a pile of each {owner}",
                                loc_of(ct.starts_in), "set `per_seat: true` (or `per_piece` for a pile of "
                                "each piece), or start in a pile of the game")

    def _prop_type(self, k: str, have: list[tuple[Any, Any, Any]]) -> Type:
        """The type of card property `k`: that of most card types; E115 (once) when some differ (an
        empty list fits any list; a value of no type is said by `_check_value`)."""
        types: dict[Type, list[Any]] = {}
        for _key, v, ct in have:
            types.setdefault(of_value(v), []).append(ct)
        kinds = [t for t in types if t not in (listof(ANY), ANY)]
        if not kinds:
            return listof(ANY)
        main = max(kinds, key=lambda t: len(types[t]))   # (the first of the most)
        odd = [t for t in kinds if t != main]
        if odd:
            self.report.add("E115", f"card property `{k}` is {main} on {_count(types[main])} and "
                                    + " and ".join(f"{t} on {_named(types[t])}" for t in odd),
                            loc_of(types[odd[0]][0].id),
                            about=frozenset({f"props.{k}"} | {f"cards.{ct.id}" for _k, _v, ct in have}))
        return main

    def _per_piece(self, ct: Any, pile: str, owner: Owner, named: str) -> None:
        """`per_piece`: cards of each piece's own pile; it names every piece (`true`), a kind of
        pieces or pieces by name. `named`: the card types that start so (`ct` the first)."""
        if ct.per_seat:
            self.report.add("E116", f"{named} are `per_seat` and `per_piece`: one or the other",
                            loc_of(ct.id))
        elif owner.per is not Per.PIECE:
            self.report.add("E116", f"`per_piece` cards start in a pile of each piece; `{pile}` is of "
                                    f"{owner}", loc_of(ct.starts_in))
        sel = ct.per_piece
        for name in ([] if isinstance(sel, bool) else [sel] if isinstance(sel, str) else sel):
            if str(name) not in self.sym.pieces and str(name) not in self.sym.piece_names:
                known = [*self.sym.pieces, *self.sym.piece_names]
                self.report.add("E116", f"`per_piece: {name}` names no kind of pieces and no piece",
                                loc_of(name), did_you_mean(str(name), known))

    def _routines(self) -> None:
        for what, source, table in (("function", self.g.functions, self.sym.functions),
                                    ("procedure", self.g.procedures, self.sym.procedures)):
            for name, decl in source.items():
                if not self.name(name, what):
                    continue
                params = {}
                for pname, tname in decl.params.items():
                    if not self.name(pname, f"parameter of `{name}`", globally=False):
                        continue
                    params[str(pname)] = self.param_type(tname, pname, name)
                table[str(name)] = params

    def param_type(self, tname: Any, pname: Any, owner: Any) -> Type:
        text = str(tname)
        t = parse_type(text)
        if t is None:
            self.report.add("E111", f"unknown type `{tname}` for parameter `{pname}` of `{owner}`",
                            loc_of(tname),
                            did_you_mean(text, DECLARABLE) or "types: " + ", ".join(DECLARABLE))
            return ANY
        return t


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def _count(cts: list[Any]) -> str:
    return f"{len(cts)} card type{_s(len(cts))}"


def _named(cts: list[Any], prefix: str = "") -> str:
    """Card types as a message names them: `cards `red``, `cards `red`, `blue` and `green``, or,
    for more, `36 card types (`red`, `blue`, `green`, ...)`."""
    ids = [f"`{ct.id}`" for ct in cts]
    if len(ids) > 3:
        return f"{_count(cts)} ({', '.join(ids[:3])}, ...)"
    return prefix + (ids[0] if len(ids) == 1 else ", ".join(ids[:-1]) + " and " + ids[-1])


__all__ = ["Symbols", "Declarations", "BUILTINS", "BUILTIN_EVENTS", "INT", "BOOL"]
