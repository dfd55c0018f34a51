"""What the seats' blocks of a `simultaneously` touch, found before play.

A block runs once per seat, first on the seat's copy of the table (where it commits), then at the
reveal on the real table, after the blocks of the seats before it in the list. Two questions about
it are answered here, by following every statement and every rule it calls (functions,
procedures, the triggers of what it emits) with what each value is known to be:

- **May each seat's block be taken into the table from its copy** (`Secrecy.once`)? Yes when
  everything it changes is its own seat's (the seat's variables, its pieces' variables, its piles
  and its pieces' piles, cards moved among them) and nothing it reads of other seats or of the
  game is something such a block changes: then the block on the table would do exactly what it did
  on the copy, and the engine takes the copy's changes instead of playing it again
  (`engine/secret.py`, which checks at each reveal what the copy really changed).
- **Does a block read what another seat's block changes** (W160)? Then at the reveal a seat's block
  reads the table as the blocks before it left it, not as it was on the copy where the seat chose:
  a choice may be gone or differ (a shared deck drawn from, a bid compared with others' bids).

What a value is known to be: the block's seat (`SEAT`), a piece that seat owns (`PIECE`), a pile
of the seat or of such a piece (`Pile(own=True)`), a card lying in such piles (`Card`, with the
piles it may lie in), a list of one of these, or nothing known (None). Locals are followed by
name, every value a name takes in a rule joined (so a name given another kind of value anywhere
in the rule is not known): a conservative answer, never a wrong one.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..lang import nodes as n
from ..lang.visit import Visitor
from ..base.diagnostics import Loc, Report
from ..lang.types import PILE, Per
from ..ir.sites import FUNCTION, PROCEDURE, TRIGGER, TRIGGER_IF
from .checked import Checked, Ref, RefKind

SEAT = "seat"
PIECE = "piece"


@dataclass(frozen=True)
class Pile:
    own: bool
    decl: str


@dataclass(frozen=True)
class Card:
    decls: frozenset[str]   # the piles (declared names) it may lie in, all the seat's own


@dataclass(frozen=True)
class Many:
    item: Any   # a list of values of one kind


_UNSET = object()   # a local not given a value yet (in the passes over a rule)


def join(a: Any, b: Any) -> Any:
    if a is _UNSET:
        return b
    if b is _UNSET or a == b:
        return a
    if isinstance(a, Card) and isinstance(b, Card):
        return Card(a.decls | b.decls)
    if isinstance(a, Many) and isinstance(b, Many):
        inner = join(a.item, b.item)
        return None if inner is None else Many(inner)
    return None


def item_of(v: Any) -> Any:
    """What the items of a list or pile are known to be."""
    if isinstance(v, Many):
        return v.item
    if isinstance(v, Pile) and v.own:
        return Card(frozenset([v.decl]))
    return None


@dataclass
class Touch:
    """What running some rules touches: places read and changed, by kind and name (a seat's or a
    piece's variable, a pile, a game variable, where cards lie, a board), each with where."""
    reads: dict[tuple[str, str], Loc | None] = field(default_factory=dict)      # of other seats / the game
    own: dict[tuple[str, str], Loc | None] = field(default_factory=dict)        # changed: the seat's own
    shared: dict[tuple[str, str], Loc | None] = field(default_factory=dict)     # changed: not only its own
    stops: list[tuple[Loc | None, str]] = field(default_factory=list)           # why it cannot be taken in

    def add(self, other: "Touch") -> None:
        for mine, theirs in ((self.reads, other.reads), (self.own, other.own), (self.shared, other.shared)):
            for k, v in theirs.items():
                mine.setdefault(k, v)
        self.stops.extend(x for x in other.stops if x not in self.stops)


@dataclass
class Secrecy:
    """What the compiler tells the engine of a `simultaneously` block (`engine/secret.py`)."""
    once: bool                       # each seat's block may be taken into the table from its copy
    why: str                         # why (not), in words
    loc: Loc | None                  # where, for `why`
    conflicts: list[tuple[Loc | None, str, Loc | None]] = field(default_factory=list)


_WORDS = {"seat": "`{}` of another seat", "piece": "`{}` of a piece", "pile": "pile `{}`",
          "game": "`{}`", "cards": "where cards lie", "board": "board `{}`", "card": "`{}` of a card"}


def _place(key: tuple[str, str], own: bool = False) -> str:
    kind, name = key
    if name == "*":   # (a pile only: a card moved from where the analysis cannot tell)
        return "a pile not known before the game (a card or pile the rules compute)"
    if own and kind == "seat":
        return f"`{name}` of its seat"
    if own and kind == "pile":
        return f"pile `{name}` of its seat"
    return _WORDS[kind].format(name)


class _Rules:
    """Follows rules with what their values are known to be; remembers each rule it followed
    with the values given to it."""

    def __init__(self, checked: Checked):
        self.ck = checked
        self.rules = checked.rules
        self.sym = checked.symbols
        self.refill: dict[str, list[str]] = {}
        self.memo: dict[tuple, tuple[Any, Touch]] = {}
        self.busy: set[tuple] = set()

    # ---- rules ----------------------------------------------------------------------------------

    def called(self, kind: str, name: str, args: tuple) -> tuple[Any, Touch]:
        key = (kind, name, args)
        if key in self.memo:
            return self.memo[key]
        if key in self.busy:   # (the checker refuses cycles; never followed twice at once)
            return None, Touch(stops=[(None, f"`{name}` calls itself")])
        self.busy.add(key)
        try:
            out = self._follow(kind, name, args)
        finally:
            self.busy.discard(key)
        self.memo[key] = out
        return out

    def _follow(self, kind: str, name: str, args: tuple) -> tuple[Any, Touch]:
        if kind == "function":
            tree = self.rules.tree(FUNCTION.rule(name))
            params = list(self.sym.functions.get(name, {}))
            trees = [tree] if tree is not None else []
        elif kind == "procedure":
            tree = self.rules.tree(PROCEDURE.rule(name))
            params = list(self.sym.procedures.get(name, {}))
            trees = [tree] if tree is not None else []
        else:   # the triggers of an event
            touch, ret = Touch(), None
            for tr in self.ck.handlers.get(name, []):
                names = self.ck.trigger_params.get(tr.id, [])
                env = dict(zip(names, args))
                found = (self.rules.tree(TRIGGER_IF.rule(tr.id)), self.rules.tree(TRIGGER.rule(tr.id)))
                trees = [t for t in found if t is not None]
                _r, t = self.run(trees, env)
                touch.add(t)
            return ret, touch
        return self.run(trees, dict(zip(params, args)))

    def run(self, trees: list, given: dict[str, Any]) -> tuple[Any, Touch]:
        """Trees of one rule (expressions or blocks), gone through again until what each local is
        known to be holds (every value a name takes joined, so that a loop's later values reach
        its earlier lines): (the value of the last expression or of `return`, the touch)."""
        env = dict(given)
        for _ in range(MAX_PASSES):
            walk = _Walk(self, env)
            value = walk.trees(trees)
            if walk.env == env:
                break
            env = walk.env
        else:   # (what is known only shrinks, so this is not reached: to be sure, know nothing)
            walk = _Walk(self, {**{k: None for k in env}, **given})
            value = walk.trees(trees)
        return (walk.returned if walk.returned is not _UNSET else value), walk.touch


# passes over a rule at most (what a local is known to be only shrinks: two or three are enough)
MAX_PASSES = 8


class _Walk(Visitor):
    """One pass over a rule's trees: the value of each expression, what it reads and changes.
    An expression with no case of its own (arithmetic, comparisons, literals) is worth nothing
    here: what its parts read is all it tells (`generic_case`)."""
    walks: ClassVar[tuple[type, ...]] = (n.Stmt, n.Expr)
    generic = frozenset({"Num", "Bool", "NoneLit", "MapLit", "And", "Or", "Not", "Compare", "Range", "BinOp",
                         "Neg"})
    absent = frozenset({"Proceed"})   # an extension's `proceed` is the rule's own statements (load/extend.py)

    def __init__(self, rules: _Rules, env: dict[str, Any]):
        self.r = rules
        self.env = dict(env)
        self.touch = Touch()
        self.returned: Any = _UNSET

    def trees(self, trees: list) -> Any:
        value = None
        for tree in trees:
            if isinstance(tree, n.Block):
                self.block(tree.body)
            else:
                value = self.expr(tree)
        return value

    # ---- places -------------------------------------------------------------------------------

    def read(self, key: tuple[str, str], node: n.Node) -> None:
        self.touch.reads.setdefault(key, node.loc)

    def wrote(self, key: tuple[str, str], own: bool, node: n.Node) -> None:
        (self.touch.own if own else self.touch.shared).setdefault(key, node.loc)

    def stop(self, node: n.Node, why: str) -> None:
        self.touch.stops.append((node.loc, why))

    def content(self, v: Any, node: n.Node) -> None:
        """The cards of a pile are read."""
        if isinstance(v, Pile):
            if not v.own:
                self.read(("pile", v.decl), node)
        elif v is None and isinstance(node, n.Expr) and node.typ == PILE:
            self.read(("pile", "*"), node)

    def bind(self, name: str, value: Any) -> None:
        self.env[name] = join(self.env.get(name, _UNSET), value)

    def local(self, name: str) -> Any:
        v = self.env.get(name, _UNSET)
        return None if v is _UNSET else v

    # ---- statements ---------------------------------------------------------------------------

    def block(self, stmts: list[n.Stmt]) -> None:
        for s in stmts:
            self.case(type(s))(self, s)

    def s_Let(self, s: n.Let) -> None:
        self.bind(s.name, self.expr(s.value))

    def s_Assign(self, s: n.Assign) -> None:
        self.place(s.target, self.expr(s.value), s)

    def s_AugAssign(self, s: n.AugAssign) -> None:
        self.expr(s.value)
        self.place(s.target, None, s, reads=False)

    def place(self, t: n.Expr, value: Any, s: n.Stmt, reads: bool = True) -> None:
        """An assignment to `t`: a local takes `value`; a variable of the game, a seat or a piece
        is changed (an item of one changes the whole of it)."""
        ref = t.ref
        if isinstance(t, n.Name):
            if isinstance(ref, Ref) and ref.kind is RefKind.GLOBAL:
                self.wrote(("game", t.id), False, s)
            else:
                self.bind(t.id, value)
            return
        if isinstance(t, n.Index):
            if reads:
                self.expr(t.index)
            self.place(t.obj, None, s, reads)
            return
        if isinstance(t, n.Attr) and isinstance(ref, Ref) and ref.kind is RefKind.MAP_ITEM:
            self.place(t.obj, None, s, reads)
            return
        if isinstance(t, n.Attr) and isinstance(ref, Ref):
            who = self.expr(t.obj)
            if ref.kind is RefKind.SEAT_VAR:
                self.wrote(("seat", t.name), who == SEAT, s)
                return
            if ref.kind is RefKind.CARD_VAR:   # (a card's variable is nobody's own place)
                self.wrote(("card", t.name), False, s)
                return
            if ref.kind is RefKind.PIECE_VAR:
                if t.name == "owner":
                    self.wrote(("piece", "owner"), False, s)
                    self.stop(s, "it gives a piece to a seat")
                else:
                    self.wrote(("piece", t.name), who == PIECE, s)
                return
        self.stop(s, "it changes a place the analysis does not know")

    def s_Do(self, s: n.Do) -> None:
        self.expr(s.expr, statement=True)

    def s_Move(self, s: n.Move) -> None:
        what = self.expr(s.what)
        dest = self.expr(s.dest)
        self.into(dest, s)
        if isinstance(what, Pile):
            self.content(what, s.what)
            self.wrote(("pile", what.decl), what.own, s)
        else:
            card = what.item if isinstance(what, Many) else what
            if isinstance(card, Card):
                for decl in card.decls:
                    self.wrote(("pile", decl), True, s)
            else:
                self.wrote(("pile", "*"), False, s)
        mine = what.own if isinstance(what, Pile) else isinstance(what, Card) or isinstance(item_of(what),
                                                                                          Card)
        self.wrote(("cards", ""), mine and isinstance(dest, Pile) and dest.own, s)

    def into(self, dest: Any, s: n.Stmt) -> None:
        if isinstance(dest, Pile):
            self.wrote(("pile", dest.decl), dest.own, s)
        else:
            self.wrote(("pile", "*"), False, s)

    def s_Draw(self, s: n.Draw) -> None:
        self.expr(s.count)
        src = self.expr(s.source)
        dest = self.expr(s.dest)
        self.content(src, s.source)
        self.into(dest, s)
        if isinstance(src, Pile):
            self.wrote(("pile", src.decl), src.own, s)
            for refill in self.r.refill.get(src.decl, ()):   # refills from the same seat's (piece's) piles
                if not src.own:
                    self.read(("pile", refill), s)
                self.wrote(("pile", refill), src.own, s)
        else:
            self.wrote(("pile", "*"), False, s)
        mine = isinstance(src, Pile) and src.own and isinstance(dest, Pile) and dest.own
        self.wrote(("cards", ""), mine, s)

    def s_Shuffle(self, s: n.Shuffle) -> None:
        pile = self.expr(s.pile)
        self.content(pile, s.pile)
        self.into(pile, s)

    def s_Emit(self, s: n.Emit) -> None:
        args = tuple(self.expr(a) for a in s.args)
        _v, touch = self.r.called("event", s.event, args)
        self.touch.add(touch)

    def s_Return(self, s: n.Return) -> None:
        v = self.expr(s.value) if s.value is not None else None
        self.returned = join(self.returned, v)

    def s_End(self, s: n.End) -> None:
        self.stop(s, "it may end the game")

    def s_Break(self, s: n.Break) -> None:
        pass

    def s_Pass(self, s: n.Pass) -> None:
        pass

    def s_Say(self, s: n.Say) -> None:
        self.expr(s.message)

    def s_If(self, s: n.If) -> None:
        for b in s.branches:
            self.expr(b.cond)
            self.block(b.body)
        if s.orelse is not None:
            self.block(s.orelse)

    def going(self, var: str, source: n.Expr, saved: list[tuple[str, Any]]) -> None:
        """A loop's (an option's, a comprehension's) `for VAR in SOURCE`: what it goes through is
        read, and VAR is each of its items inside it (what VAR was before is put in `saved`, for
        `gone`): two options of one block may each go through another pile with the same name."""
        item = item_of(self.read_all(source))
        saved.append((var, self.env.get(var, _UNSET)))
        self.env[var] = item

    def gone(self, saved: list[tuple[str, Any]]) -> None:
        """After a loop: its names as they were before, or as it left them (either may be read)."""
        for var, before in reversed(saved):
            self.env[var] = join(before, self.env.get(var, _UNSET))

    def read_all(self, source: n.Expr) -> Any:
        value = self.expr(source)
        self.content(value, source)
        return value

    def s_For(self, s: n.For) -> None:
        saved: list[tuple[str, Any]] = []
        self.going(s.var, s.source, saved)
        self.block(s.body)
        self.gone(saved)

    def s_While(self, s: n.While) -> None:
        self.expr(s.cond)
        self.block(s.body)

    def s_Choose(self, s: n.Choose) -> None:
        if s.prompt is not None:
            self.expr(s.prompt)
        if s.by is not None:
            self.expr(s.by)
        for o in s.options:
            saved: list[tuple[str, Any]] = []
            if o.var is not None and o.source is not None:
                self.going(o.var, o.source, saved)
            for clause in o.inner:
                self.going(clause.var, clause.source, saved)
            if o.cond is not None:
                self.expr(o.cond)
            for at in (o.board, o.place):
                if at is not None:
                    self.expr(at)
            self.expr(o.label)
            self.block(o.body)
            self.gone(saved)

    def s_Simultaneously(self, s: n.Simultaneously) -> None:
        self.stop(s, "`simultaneously` blocks cannot nest")

    # ---- expressions --------------------------------------------------------------------------

    def expr(self, e: n.Expr | None, statement: bool = False) -> Any:
        if e is None:
            return None
        fn = self.case(type(e))
        return fn(self, e, statement) if isinstance(e, n.Call) else fn(self, e)

    def generic_case(self, e: n.Node, *args: Any) -> Any:
        for child in e.children():
            if isinstance(child, n.Expr):
                self.expr(child)
        return None

    def x_Name(self, e: n.Name) -> Any:
        ref = e.ref
        kind = ref.kind if isinstance(ref, Ref) else None
        if kind is RefKind.LOCAL:
            return self.local(e.id)
        if kind is RefKind.GLOBAL:
            self.read(("game", e.id), e)
            return None
        if kind is RefKind.PILE:
            return Pile(False, e.id)
        return None

    def x_Text(self, e: n.Text) -> Any:
        for part in e.parts:
            if isinstance(part, n.Expr):
                self.expr(part)
        return None

    def x_Attr(self, e: n.Attr) -> Any:
        obj = self.expr(e.obj)
        ref = e.ref
        kind = ref.kind if isinstance(ref, Ref) else None
        if kind is RefKind.SEAT_VAR:
            if obj != SEAT:
                self.read(("seat", e.name), e)
            return None
        if kind is RefKind.PIECE_VAR:
            if e.name == "owner":
                return SEAT if obj == PIECE else None
            if obj != PIECE:
                self.read(("piece", e.name), e)
            return None
        if kind is RefKind.SEAT_PIECES:
            return Many(PIECE) if obj == SEAT else None
        if kind is RefKind.CARD_VAR:
            self.read(("card", e.name), e)
            return None
        if kind in (RefKind.CARD_PILE, RefKind.CARD_FACE_UP):
            if not isinstance(obj, Card):
                self.read(("cards", ""), e)
            if kind is RefKind.CARD_PILE:
                known = isinstance(obj, Card) and len(obj.decls) == 1
                return Pile(True, next(iter(obj.decls))) if known else None
        return None

    def x_Index(self, e: n.Index) -> Any:
        obj = self.expr(e.obj)
        self.expr(e.index)
        return obj.item if isinstance(obj, Many) else None

    def x_ListLit(self, e: n.ListLit) -> Any:
        v: Any = _UNSET
        for item in e.items:
            v = join(v, self.expr(item))
        return None if v is _UNSET or v is None else Many(v)

    def x_Comp(self, e: n.Comp) -> Any:
        saved: list[tuple[str, Any]] = []
        self.going(e.var, e.source, saved)
        for clause in e.inner:
            self.going(clause.var, clause.source, saved)
            if clause.cond is not None:
                self.expr(clause.cond)
        if e.cond is not None:
            self.expr(e.cond)
        item = self.expr(e.item)
        self.gone(saved)
        return None if item is None else Many(item)

    def x_IfExpr(self, e: n.IfExpr) -> Any:
        self.expr(e.cond)
        return join(self.expr(e.then), self.expr(e.orelse))

    def x_In(self, e: n.In) -> Any:
        self.expr(e.item)
        self.read_all(e.container)
        return None

    def x_Call(self, e: n.Call, statement: bool = False) -> Any:
        ref = e.ref
        kind = ref.kind if isinstance(ref, Ref) else None
        args = tuple(self.expr(a) for a in e.args)
        if kind is RefKind.PILE_OF:
            per = ref.extra.per
            who = args[0] if args else None
            own = per is Per.SEAT and who == SEAT or per is Per.PIECE and who == PIECE
            return Pile(own, e.name)
        if kind is RefKind.FUNCTION or kind is RefKind.PROCEDURE:
            what = "function" if kind is RefKind.FUNCTION else "procedure"
            value, touch = self.r.called(what, e.name, args)
            self.touch.add(touch)
            return value
        if kind is RefKind.BUILTIN:
            return self.builtin(e, ref.extra, args)
        self.stop(e, f"a call the analysis does not know (`{e.name}`)")
        return None

    def builtin(self, e: n.Call, b: Any, args: tuple) -> Any:
        for a, v in zip(e.args, args):
            self.content(v, a)
        if b.kind is not None:   # a board's
            if b.effect:
                self.wrote(("board", b.kind), False, e)
                self.stop(e, f"`{b.name}` changes a board")
            else:
                self.read(("board", b.kind), e)
            return None
        if b.effect:   # an effect that arranges the table (a pile from anywhere, the next rolls)
            self.wrote(("cards", ""), False, e)
            self.wrote(("pile", "*"), False, e)
            self.stop(e, f"`{b.name}` arranges the table")
            return None
        first = args[0] if args else None
        name = b.name
        if name in ("top", "bottom"):
            return item_of(first)
        if name == "cards":
            item = item_of(first)
            return None if item is None else Many(item)
        if name in ("first", "last"):
            return item_of(first)
        if name in ("distinct", "shuffled", "reversed", "sorted_by"):
            item = item_of(first)
            return None if item is None else Many(item)
        return None


def analyse(checked: Checked, rs: Any, report: Report) -> dict[int, Secrecy]:
    """Every `simultaneously` block of the game (by its node's id): its `Secrecy`; a warning (W160)
    where a block reads what the seats' blocks change."""
    rules = _Rules(checked)
    for name, pile in rs.game.piles.items():
        if pile.refill_from is not None:
            rules.refill[str(name)] = [str(r) for r in pile.refills()]
    out: dict[int, Secrecy] = {}
    for rule in checked.rules.rules.values():
        tree = rule.tree
        if tree is None:
            continue
        for node in n.walk(tree):
            if isinstance(node, n.Simultaneously):
                out[id(node)] = secrecy(rules, node)
                for read_at, what, write_at in out[id(node)].conflicts:
                    _warn(report, read_at, what, write_at)
                _asked_of_others(report, node)
    return out


def _asked_of_others(report: Report, block: n.Simultaneously) -> None:
    """W161: a `choose` written in the block asked `by` anything but the block's own seat (a rule
    error when it is another seat: asked on the seat's own copy, it would show what the seat did
    in secret)."""
    for x in n.walk(block):
        by = x.by if isinstance(x, n.Choose) else None
        if by is not None and not (isinstance(by, n.Name) and by.id == block.var):
            report.warn("W161", "a choice in each seat's block of a `simultaneously` is asked by "
                        f"something else than `{block.var}`: when it is another seat, the game stops with "
                        "a rule error (each seat's block asks its own seat only)", by.loc,
                        f"ask the others after the block, or write `by {block.var}`")


def _warn(report: Report, read_at: Loc | None, what: str, write_at: Loc | None) -> None:
    report.warn("W160", f"each seat's block reads {what} here, which the seats' blocks change: at the "
                "reveal a seat's block reads it as the blocks before it in the list left it, not as it "
                "was on the seat's own copy where the seat chose", read_at,
                (f"it is changed at {write_at}; " if write_at is not None else "") +
                "a seat's choices are safe when they read only its own seat's places (its variables, its "
                "piles, its pieces')")


def secrecy(rules: _Rules, s: n.Simultaneously) -> Secrecy:
    _v, touch = rules.run([n.Block(s.loc, s.body)], {s.var: SEAT})
    changed = {**touch.own, **touch.shared}
    conflicts = []
    for key, at in touch.reads.items():
        hit = key in changed or (key[0] == "pile" and ("pile", "*") in changed) or \
            (key == ("pile", "*") and any(k[0] == "pile" for k in changed))
        if hit:
            write_at = changed.get(key) or changed.get(("pile", "*"))
            conflicts.append((at, _place(key), write_at))
    if touch.stops:
        loc, why = touch.stops[0]
        return Secrecy(False, f"played again at the reveal: {why}", loc, conflicts)
    if touch.shared:
        key, loc = next(iter(touch.shared.items()))
        return Secrecy(False, f"played again at the reveal: it changes {_place(key)}, not only its "
                              "seat's own", loc, conflicts)
    if conflicts:
        at, what, _w = conflicts[0]
        return Secrecy(False, f"played again at the reveal: it reads {what}, which the seats' blocks change",
                       at, conflicts)
    return Secrecy(True, "played once: each seat's block changes only its own seat's places, taken into the "
                         "table from the seat's copy at the reveal", s.loc)
