"""The rule language's syntax tree: one class per form, each node with its file position.

The parser builds these from rule text once, when a ruleset is loaded; every later pass (the
checker, the compiler, `explain`) reads them and never the text. The checker returns a typed
copy (`clone`) with `typ` filled in on expressions and `ref` (what a name, attribute or call
refers to); the parsed trees stay as they were.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, TypeVar, Union

from ..base.diagnostics import Loc
from .types import ANY, Type


@dataclass(eq=False)
class Node:
    """A node of a rule's tree: its position in its file (`loc`); the checker adds what a name
    refers to (`ref`) and an expression's type (`typ`)."""
    loc: Loc | None   # where it is written (None: a node the compiler made, written nowhere)

    def children(self) -> list["Node"]:
        """The nodes directly inside this one, in source order."""
        names = _FIELDS.get(self.__class__)
        if names is None:
            names = _FIELDS[self.__class__] = _node_fields(self.__class__)
        fields = self.__dict__
        out: list[Node] = []
        for name in names:
            value = fields[name]
            if isinstance(value, Node):
                out.append(value)
            elif value.__class__ is list:
                out.extend([item for item in value if isinstance(item, Node)])
        return out


# each kind of node's fields that may hold nodes: all but its position, type and reference and
# those declared to hold only words, numbers or yes/no (every pass walks trees: a third of compiling)
_FIELDS: dict[type, tuple[str, ...]] = {}
_SCALAR = frozenset({"str", "str | None", "int", "int | None", "bool", "Loc | None", "Type",
                     "tuple[tuple[str, int, int], ...]"})


def _node_fields(cls: Any) -> tuple[str, ...]:
    fields = cls.__dataclass_fields__
    return tuple(f for f, spec in fields.items()
                 if f not in ("loc", "typ", "ref") and str(spec.type) not in _SCALAR)


N = TypeVar("N", bound="Node")


def clone(node: N) -> N:
    """A copy of a tree, node by node (positions are shared: they never change). The checker
    types its own copy: the trees of a loaded ruleset stay as parsed."""
    c = object.__new__(type(node))
    fields = c.__dict__
    fields.update(node.__dict__)
    for name, value in fields.items():
        if isinstance(value, Node):
            fields[name] = clone(value)
        elif isinstance(value, list):
            fields[name] = [clone(x) if isinstance(x, Node) else x for x in value]
    return c


def same(a: Any, b: Any) -> bool:
    """Do two trees say the same, wherever they are written: the same forms with the same values,
    their names resolved alike (the checker's `ref`)?"""
    if type(a) is not type(b):
        return False
    if isinstance(a, Node):
        return all(same(getattr(a, f), getattr(b, f)) for f in a.__dataclass_fields__
                   if f != "loc" and not f.endswith("_loc"))
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def walk(node: Node) -> Iterator[Node]:
    """Every node of a tree, parents before children (no recursion: trees may be deep)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        kids = n.children()
        kids.reverse()
        stack.extend(kids)


# ---- expressions ---------------------------------------------------------------------------

@dataclass(eq=False)
class Expr(Node):
    typ: Type = field(default=ANY, kw_only=True)  # set by the checker
    ref: Any = field(default=None, kw_only=True)  # what a name, attribute or call refers to


@dataclass(eq=False)
class Num(Expr):
    value: int


@dataclass(eq=False)
class Text(Expr):
    """A string; `{expr}` inside it is an expression whose value is shown for a person."""
    parts: list[Union[str, Expr]]

    @property
    def constant(self) -> str | None:
        """The text itself when it has no `{...}`."""
        if all(isinstance(p, str) for p in self.parts):
            return "".join(self.parts)  # type: ignore[arg-type]
        return None


@dataclass(eq=False)
class Bool(Expr):
    value: bool


@dataclass(eq=False)
class NoneLit(Expr):
    pass


@dataclass(eq=False)
class Name(Expr):
    id: str


@dataclass(eq=False)
class Attr(Expr):
    obj: Expr
    name: str


@dataclass(eq=False)
class Index(Expr):
    obj: Expr
    index: Expr


@dataclass(eq=False)
class Call(Expr):
    name: str
    args: list[Expr]


@dataclass(eq=False)
class ListLit(Expr):
    items: list[Expr]


@dataclass(eq=False)
class MapLit(Expr):
    """`{k: v, ...}`; `{}` is the empty map."""
    keys: list[Expr]
    values: list[Expr]


@dataclass(eq=False)
class CompFor(Node):
    """One more `for VAR in SOURCE [if COND]` of a comprehension (`[a * b for a in xs for b in ys]`)."""
    var: str
    source: Expr
    cond: Expr | None
    ref: Any = field(default=None, kw_only=True)


@dataclass(eq=False)
class Comp(Expr):
    """`[item for var in source if cond]`, with `inner` clauses for nested loops."""
    item: Expr
    var: str
    source: Expr
    cond: Expr | None
    var_loc: Loc | None = None
    inner: list[CompFor] = field(default_factory=list)


@dataclass(eq=False)
class IfExpr(Expr):
    cond: Expr
    then: Expr
    orelse: Expr


@dataclass(eq=False)
class And(Expr):
    left: Expr
    right: Expr


@dataclass(eq=False)
class Or(Expr):
    left: Expr
    right: Expr


@dataclass(eq=False)
class Not(Expr):
    operand: Expr


@dataclass(eq=False)
class Compare(Expr):
    op: str          # == != < <= > >=
    left: Expr
    right: Expr


@dataclass(eq=False)
class In(Expr):
    item: Expr
    container: Expr


@dataclass(eq=False)
class Range(Expr):
    lo: Expr
    hi: Expr


@dataclass(eq=False)
class BinOp(Expr):
    op: str          # + - * // %
    left: Expr
    right: Expr


@dataclass(eq=False)
class Neg(Expr):
    operand: Expr


# ---- statements ----------------------------------------------------------------------------

@dataclass(eq=False)
class Stmt(Node):
    # a statement's own name (`... as NAME`), by which a module reaches it: `statements.NAME`
    name_tag: str | None = field(default=None, kw_only=True)


@dataclass(eq=False)
class Let(Stmt):
    name: str
    value: Expr
    ref: Any = field(default=None, kw_only=True)  # the local it binds
    rebinds: bool = field(default=False, kw_only=True)  # the name was already a local here
    # `let visible NAME = ...`: extensions of the rule may read it (`load/extend.py`)
    visible: bool = field(default=False, kw_only=True)
    # where the extensions wrapped around the rule are written (file, first line, last line): they
    # may not read it (it is not visible)
    hidden_from: tuple[tuple[str, int, int], ...] = field(default=(), kw_only=True)
    # the type it must have: a parameter of a rule given a new value by `proceed(...)`
    declared: Any = field(default=None, kw_only=True)


@dataclass(eq=False)
class Assign(Stmt):
    target: Expr
    value: Expr


@dataclass(eq=False)
class AugAssign(Stmt):
    target: Expr
    op: str          # += -=
    value: Expr


@dataclass(eq=False)
class Do(Stmt):
    """A line that is an expression: a call of a procedure or a built-in effect."""
    expr: Expr


@dataclass(eq=False)
class Move(Stmt):
    what: Expr
    dest: Expr
    face_up: bool = True
    bottom: bool = False


@dataclass(eq=False)
class Draw(Stmt):
    count: Expr
    source: Expr
    dest: Expr
    face_up: bool = True


@dataclass(eq=False)
class Shuffle(Stmt):
    pile: Expr


@dataclass(eq=False)
class Emit(Stmt):
    event: str
    args: list[Expr] = field(default_factory=list)


@dataclass(eq=False)
class Return(Stmt):
    """Leaves a procedure (with its value, when it gives one)."""
    value: Expr | None = None


@dataclass(eq=False)
class Proceed(Stmt):
    """In an `around:` extension: where the rule it wraps runs; with `args`, with new values of its
    parameters (`proceed(car, n + 1)`)."""
    args: list[Expr] | None = None


@dataclass(eq=False)
class End(Stmt):
    pass


@dataclass(eq=False)
class Break(Stmt):
    pass


@dataclass(eq=False)
class Pass(Stmt):
    pass


@dataclass(eq=False)
class Say(Stmt):
    message: Text


@dataclass(eq=False)
class Branch(Node):
    """One `if`/`elif` test and its block."""
    cond: Expr
    body: list[Stmt]


@dataclass(eq=False)
class If(Stmt):
    branches: list[Branch]
    orelse: list[Stmt] | None = None
    else_loc: Loc | None = None


@dataclass(eq=False)
class For(Stmt):
    var: str
    source: Expr
    body: list[Stmt]
    ref: Any = field(default=None, kw_only=True)
    rebinds: bool = field(default=False, kw_only=True)


@dataclass(eq=False)
class While(Stmt):
    cond: Expr
    body: list[Stmt]


@dataclass(eq=False)
class Option(Node):
    """`option "LABEL" [as NAME] [for VAR in SOURCE ...] [if COND] [at BOARD, PLACE]:` and its
    block; `inner`: the `for`s after the first (each sees the ones before; the `if` and the `at`
    see them all); `board`, `place`: the place of a board the option is made for (a place to
    click on the board as well as the option's words)."""
    label: Text
    var: str | None
    source: Expr | None
    inner: list[CompFor] = field(kw_only=True)
    cond: Expr | None
    board: Expr | None = field(default=None, kw_only=True)
    place: Expr | None = field(default=None, kw_only=True)
    body: list[Stmt]
    ref: Any = field(default=None, kw_only=True)
    name_tag: str | None = field(default=None, kw_only=True)


@dataclass(eq=False)
class Choose(Stmt):
    """`choose ["PROMPT"] [by SEAT] [as NAME]:` and its options."""
    prompt: Text | None
    by: Expr | None
    options: list[Option]


@dataclass(eq=False)
class Simultaneously(Stmt):
    var: str
    seats: Expr
    body: list[Stmt]
    ref: Any = field(default=None, kw_only=True)


@dataclass(eq=False)
class Block(Node):
    """A rule that is a block of statements (a `do:`, `setup:`, a scenario's situation)."""
    body: list[Stmt]


def block_children(stmt: Stmt) -> list[list[Stmt]]:
    """The blocks directly inside a statement."""
    if isinstance(stmt, If):
        return [b.body for b in stmt.branches] + ([stmt.orelse] if stmt.orelse is not None else [])
    if isinstance(stmt, (For, While, Simultaneously)):
        return [stmt.body]
    if isinstance(stmt, Choose):
        return [o.body for o in stmt.options]
    return []
