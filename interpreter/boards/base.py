"""What every board kind provides to the engine."""
from __future__ import annotations

KINDS: dict[str, type["BoardKind"]] = {}


def register(cls):
    KINDS[cls.kind] = cls
    return cls


class BoardKind:
    """One board of a game. Subclasses set `kind` and `Model` (the pydantic model of its
    declaration, with `kind: Literal[...]`), and may offer built-ins:

    - `functions`: name -> builder(compiler, args, node, scope) -> (python source, type), like
      the entries of `interpreter.engine.builtins.BUILTINS`;
    - `effects`: name -> builder(compiler, args, node, scope) -> fn(st, env), like `EFFECTS`.

    Run-time data (where pieces stand, tiles' faces, ...) is plain data kept in `st.bd[index]`;
    `clone` copies it cheaply. Static data (the layout) stays on this object.
    """

    kind = ""
    Model = None
    functions: dict = {}
    effects: dict = {}

    def __init__(self, name: str, index: int, decl, plan):
        self.name = name
        self.index = index
        self.decl = decl
        self.plan = plan

    @property
    def places(self) -> int:
        """How many places have a pile each when a pile is declared `of:` this board."""
        return 0

    def init(self, st):
        return None

    def clone(self, data):
        return data

    def view(self, st, seat):
        """What a seat sees of this board (plain data for the terminal and for bots)."""
        return None

    def redeal_hidden(self, st, seat, rng) -> None:
        """Rearrange, on a copy of the state, what `seat` cannot see (a bot that looks ahead
        plays on a table it could believe in, not on the hidden truth)."""
        return None

    def svg(self) -> str | None:
        """A picture of the board for a designer to check by eye, or None."""
        return None
