"""The one error boundary between compiled rules and the engine.

Every compiled callable that the engine (or a view, a bot, a scenario) calls is an *entry*: its
body is wrapped so that any exception leaving it passes through `fail`. `fail` reads the
traceback: the deepest frame of generated code, at the instruction that failed, gives the rule's
`file:line:col` (generated code carries the positions of the rule's sub-expressions); the frames
above it in generated code are the calls that led there. A Python error becomes a `RuleError`
said in the rule's terms; no Python traceback reaches a person.
"""
from __future__ import annotations

from types import CodeType, FrameType, TracebackType
from typing import Protocol

from ..base.diagnostics import Loc
from ..base.errors import EndGame, Outside, RuleError
from ..base.limits import MAX_INT

# Generated code runs in a namespace of its own (`compile/codegen.py`), which holds under this
# name what was generated there: the `Source` that knows each code object's rule. Only frames of
# generated code have it, so no registry outlives the code it describes.
SOURCE = "__source__"


class Source(Protocol):
    def locate(self, code: CodeType, line: int, col: int) -> tuple[Loc, str] | None:
        """The position in the rules and the rule of this line and column of a generated code
        object (or of one nested in it); None for code that is not generated there."""

    def inlined_at(self, loc: Loc) -> str | None:
        """The function whose body, written into a caller, is at this position."""


def _source(frame: FrameType) -> Source | None:
    return frame.f_globals.get(SOURCE)


def _position(code: CodeType, lasti: int) -> tuple[int, int]:
    """(line, column from 1) of the instruction at `lasti`."""
    positions = list(code.co_positions())
    i = lasti // 2
    line = col = None
    if 0 <= i < len(positions):
        line, _end, col, _end_col = positions[i]
    if line is None:
        line, col = code.co_firstlineno, 0
    return line, (col or 0) + 1


def where(tb: TracebackType | None) -> tuple[Loc | None, str | None, list[tuple[Loc | None, str]]]:
    """(position, rule, calls) of the deepest generated frame of a traceback; `calls` are the
    generated frames above it, outermost first: where each call that led there was made."""
    frames = []
    source = None
    while tb is not None:
        found = _source(tb.tb_frame)
        code = tb.tb_frame.f_code
        at = found.locate(code, *_position(code, tb.tb_lasti)) if found is not None else None
        if at is not None:
            frames.append(at)
            source = found
        tb = tb.tb_next
    if not frames or source is None:
        return None, None, []
    loc, rule = frames[-1]
    calls: list = frames[:-1]
    inlined = source.inlined_at(loc)
    if inlined is not None and inlined != rule:  # in a function written into this rule
        calls.append((None, rule))
        rule = inlined
    return loc, rule, calls


# A Python error inside a rule, by its class, said in the rule's terms. Rules are typed before
# they run, so a TypeError is a value that is `none` where something else was expected (the
# one value every type has); numbers are checked where they are kept and shown (`MAX_INT`), so an
# OverflowError is a number that grew past it on the way.
_SAID: tuple[tuple[type[BaseException], str], ...] = (
    (ZeroDivisionError, "division by zero (`//` or `%` by 0)"),
    (TypeError, "a value is `none` here: nothing stands where a piece, card, seat or number "
                "was expected (an empty slot? a missing card?)"),
    (RecursionError, "the rules nest too deeply here (a call inside a call ... too many times)"),
    (MemoryError, "the rules ran out of memory here"),
    (OverflowError, f"a number beyond the engine's limit ({MAX_INT}) was reached here"),
)


def describe(e: BaseException) -> str:
    """A Python error raised inside a rule, said in the rule's terms (by its class)."""
    for cls, said in _SAID:
        if isinstance(e, cls):
            return said
    return f"a rule used a value it cannot use here ({type(e).__name__})"


def fail(e: BaseException) -> BaseException:
    """The exception an entry raises in place of `e`: `e` itself when it is already placed
    (or ends the game, or is not the rules' own: `Outside`), else a `RuleError` at the failing
    sub-expression."""
    if isinstance(e, (EndGame, Outside)):
        return e
    if isinstance(e, RuleError) and e.loc is not None:
        return e
    loc, rule, calls = where(e.__traceback__)
    if isinstance(e, RuleError):
        err = e
        err.loc = loc
        err.rule = err.rule or rule
    else:
        err = RuleError(describe(e), loc, rule)
        err.__cause__ = None
        err.__suppress_context__ = True
    err.calls = [c for c in calls if c[1] != rule or c[0] != loc]
    return err


