"""How a built-in is declared: its name, the types of its parameters and of its value, and the
Python function that runs it. The checker reads the signature (arity and types are checked in
one place for every built-in); the compiler calls `run`, or a specialised function from `bind`.

Parameter types are the language's types (`int`, `pile`, `list[int]`, ...) and three more:
- `items`: a list, or a pile standing for its cards (bottom to top); `T` is then its item type;
  `items[int]` asks for items of one type;
- `T`: any value, whose type becomes `T` (`first(items) -> T`, `reversed(items) -> list[T]`);
- a board kind's name (`lanes`): a board of that kind.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Param:
    type: str
    what: str               # what the argument is, for error messages: "the pile `top` looks at"
    optional: bool = False  # may be left out (only at the end): `run` then has a default for it


@dataclass
class Builtin:
    name: str
    params: tuple[Param, ...]
    returns: str | None                  # None: an effect, written as a statement
    run: Callable[..., Any]              # run(st, *args)
    doc: str = ""
    # Reads only its arguments and the game's fixed data (never the table): with constant
    # arguments it is computed once when compiling.
    pure: bool = False
    # bind(plan, consts) -> a function of (st, *args) made for this game and these constant
    # arguments (a board named in the rule, a kind of line written out), a `Read`, or None.
    # `consts[i]` is the value of argument i when it is known when compiling, else NOT_CONST.
    bind: Callable[..., Any] | None = None
    kind: str | None = None              # the board kind that brings it (None: the core language)
    # typed(arg_types) -> the `run` to use for arguments of these types (an overload), or None
    typed: Callable[..., Any] | None = None
    chance: bool = False                 # may draw from a random generator (the game's or a bot's)
    rng: bool = False                    # draws from the game's own generator, on the real table too

    @property
    def effect(self) -> bool:
        return self.returns is None


@dataclass(frozen=True)
class Read:
    """What `bind` may return instead of a function: the value is `st.bd[board][field][arg]`,
    one entry of a board's run-time data read by the built-in's only argument (the compiler
    writes it as that read, with no call). With `absent`: when the entry holds that value (the
    piece is not on the board), the built-in's `run` is called instead (it says what is wrong)."""
    board: int
    field: int
    absent: Any = NotImplemented   # NotImplemented: the entry is the value, whatever it holds


class _NotConst:
    def __repr__(self) -> str:
        return "NOT_CONST"


NOT_CONST: Any = _NotConst()


def builtin(name: str, params: list[tuple], returns: str | None, doc: str = "", **kw):
    """A decorator declaring the function below it as built-in `name`; a parameter is (type,
    what) or (type, what, True) for one that may be left out."""
    def wrap(fn):
        return Builtin(name, tuple(Param(*p) for p in params), returns, fn, doc, **kw)
    return wrap
