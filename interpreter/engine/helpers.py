"""What generated code calls while a game runs (named `h_...` in its namespace), beside the
machine's own (`vm.HELPERS`): the engine's limits on numbers, lists, texts and steps, lists
counted from 1, a `say`, how a value reads. The compiler only names these; a running game calls
no compiler code.
"""
from __future__ import annotations

from typing import Any, Callable, NoReturn

from ..base.errors import EndGame, RuleError
from ..base.limits import MAX_INT, MAX_LIST, MAX_TEXT, Steps, too_many
from .state import State


def big() -> NoReturn:
    raise RuleError(f"a number beyond the engine's limit ({MAX_INT})")


def checked_int(v: Any) -> Any:
    if v is not None and not -MAX_INT <= v <= MAX_INT:
        big()
    return v


def checked_ints(xs: Any) -> Any:
    for v in xs:
        if type(v) is int and not -MAX_INT <= v <= MAX_INT:
            big()
    return xs


def number_range(a: int, b: int) -> list[int]:
    if b - a >= MAX_LIST:
        raise RuleError(f"the range {a}..{b} has more than {MAX_LIST} numbers")
    return list(range(a, b + 1))


def too_many_options() -> NoReturn:
    raise RuleError(f"this choice has more than {MAX_LIST} options: nobody could choose among them; "
                    "narrow its option's `for`s (shorter lists, an `if`)")


def index(xs: list[Any], i: int) -> Any:
    if not 1 <= i <= len(xs):
        raise RuleError(f"index {i} is outside the list (1..{len(xs)}); lists count from 1")
    return xs[i - 1]


def end_game() -> NoReturn:
    raise EndGame()


def hush(st: State) -> int:
    """Before a `say`'s text is computed: the game's step count, kept aside (the text counts
    its own steps from zero, as a view does)."""
    steps, st.steps = st.steps, 0
    return steps


def said(st: State, rule: str, steps: int, text: str) -> None:
    """A `say`: its line into the game's trace (an empty line says nothing), and the game's step
    count as it was."""
    st.steps = steps
    if text and st.trace is not None:
        st.trace.append(("say", rule, text))


def peek_seat(st: State, at: int, seat: int) -> Any:
    """A seat's variable only that seat sees (`visible: owner`), read. On a copy a preview or a
    bot looks ahead on (`st.veil`, for the seat looking), read of another seat: the copy deals
    what that seat cannot see and drops its veil, so that a preview of it says nothing (as of an
    option that reads another seat's hand); the value itself is read as it is."""
    veil = st.veil
    if veil is not None and seat != veil.seat:
        veil.deal(st)
    return st.v[at + seat]


def peek_piece(st: State, at: int, owner_at: int, pc: int) -> Any:
    """A piece's variable only its owner sees, read (`peek_seat`; a piece nobody owns: nobody)."""
    veil = st.veil
    if veil is not None and st.v[owner_at + pc] != veil.seat:
        veil.deal(st)
    return st.v[at + pc]


def pieces_of(at: int, n: int) -> Callable[[State, int], list[int]]:
    """A seat's pieces: those whose `owner` (the variables from `at`, one per piece) is the seat."""
    def pieces(st: State, seat: int) -> list[int]:
        return [i for i, o in enumerate(st.v[at:at + n]) if o == seat]
    return pieces


def pile_at(name: str, board: str, base: int, places: int) -> Callable[[int | None], int]:
    """The pile `name(v)` of place `v` of a board with `places` places (its piles from `base`)."""
    def pile(v: int | None) -> int:
        if v is None or not 1 <= v <= places:
            raise RuleError(f"`{name}({v})`: `{board}` has places 1..{places}")
        return base + v - 1
    return pile


def show_int(v: int | None) -> str:
    if v is None:
        return "none"
    if not -MAX_INT <= v <= MAX_INT:
        big()
    return str(v)


def show_text(v: str | None) -> str:
    return "none" if v is None else v


def limited(limit: int) -> dict[str, Callable[..., Any]]:
    """The helpers, by name, of a game whose step limit is `limit`."""

    def each(st: State, xs: list[Any]) -> list[Any]:
        st.steps += len(xs)
        if st.steps > limit:
            raise too_many(Steps.LOOPS, limit)
        return xs

    def each_weighing(st: State, xs: list[Any], w: int) -> list[Any]:
        st.steps += len(xs) * w
        if st.steps > limit:
            raise too_many(Steps.WEIGHED, limit)
        return xs

    # Lists, texts and maps are values: `+` and storing an item copy them. A copy of n items
    # costs n/16 steps, so a loop that grows one stops at the step limit in linear time.
    def copying(st: State, n: int) -> None:
        st.steps += n >> 4
        if st.steps > limit:
            raise too_many(Steps.COPIES, limit)

    def join_list(st: State, a: list[Any], b: list[Any]) -> list[Any]:
        if len(a) + len(b) > MAX_LIST:
            raise RuleError(f"a list of more than {MAX_LIST} items")
        copying(st, len(a) + len(b))
        return a + b

    def join_text(st: State, a: str, b: str) -> str:
        if len(a) + len(b) > MAX_TEXT:
            raise RuleError(f"a text of more than {MAX_TEXT} characters")
        copying(st, len(a) + len(b))
        return a + b

    def template(st: State, parts: tuple[str, ...]) -> str:
        n = sum(map(len, parts))
        if n > MAX_TEXT:
            raise RuleError(f"a text of more than {MAX_TEXT} characters")
        copying(st, n)
        return "".join(parts)

    def put_item(st: State, xs: list[Any], i: int, v: Any) -> list[Any]:
        """A copy of list `xs` with its `i`-th item (from 1) replaced."""
        if not 1 <= i <= len(xs):
            raise RuleError(f"index {i} is outside the list (1..{len(xs)}); lists count from 1")
        copying(st, len(xs))
        xs = list(xs)
        xs[i - 1] = v
        return xs

    def put_key(st: State, m: dict[Any, Any], k: Any, v: Any) -> dict[Any, Any]:
        """A copy of map `m` with key `k` set to `v`."""
        if k not in m and len(m) >= MAX_LIST:
            raise RuleError(f"a map of more than {MAX_LIST} keys")
        copying(st, len(m))
        m = dict(m)
        m[k] = v
        return m

    return {"each": each, "each_w": each_weighing, "big": big, "int": checked_int, "ints": checked_ints,
            "range": number_range, "join_list": join_list, "join_text": join_text, "index": index,
            "options": too_many_options, "put_item": put_item, "put_key": put_key, "template": template,
            "end": end_game, "too_many": too_many, "hush": hush, "said": said, "peek_seat": peek_seat,
            "peek_piece": peek_piece}


def trace_round_of(kinds: list[Any]) -> Callable[[State, str, str], None]:
    """The trace of a round's start: where each board kind's pieces stand."""
    def trace_round(st: State, rule: str, loc: str) -> None:
        assert st.trace is not None  # called when the game is told
        st.trace.append(("round", rule, loc, st.g["round"], {k.name: k.positions(st) for k in kinds}))
    return trace_round


def board_copier(clones: list[Callable[[Any], Any]]) -> Callable[[list[Any]], list[Any]]:
    """A copy of the board kinds' data, each by its kind's `clone` (most games have one board)."""
    if len(clones) == 1:
        (one,) = clones
        return lambda bd: [one(bd[0])]
    return lambda bd: [f(d) for f, d in zip(clones, bd)]
