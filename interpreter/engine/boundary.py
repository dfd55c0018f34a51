"""The one error boundary between compiled rules and the engine.

Every compiled callable that the engine (or a view, a bot, a scenario) calls is an *entry*: its
body is wrapped so that any exception leaving it passes through `fail`. `fail` reads the
traceback: the deepest frame of generated code, at the instruction that failed, gives the rule's
`file:line:col` (generated code carries the positions of the rule's sub-expressions); the frames
above it in generated code are the calls that led there. A Python error becomes a `RuleError`
said in the rule's terms; no Python traceback reaches a person.
"""
from __future__ import annotations

import weakref
from functools import partial
from types import CodeType, TracebackType

from ..lang.diagnostics import Loc
from ..lang.errors import EndGame, RuleError
from ..lang.limits import MAX_INT

# Generated code objects (and those nested in them), by identity -> (a weak reference to the
# code, the rule it comes from). Not a WeakKeyDictionary: code objects compare equal by content
# (not by file), so the code of a game compiled earlier would stand for an equal one of a later
# game, and its collection would forget the later one.
_RULES: dict[int, tuple[weakref.ref, str]] = {}


def _forget(key: int, ref: weakref.ref) -> None:
    entry = _RULES.get(key)
    if entry is not None and entry[0] is ref:
        del _RULES[key]


def register(code: CodeType, rule: str) -> None:
    """Remember a compiled rule's code objects, so that `fail` recognises their frames."""
    stack = [code]
    while stack:
        c = stack.pop()
        key = id(c)
        _RULES[key] = (weakref.ref(c, partial(_forget, key)), rule)
        stack.extend(k for k in c.co_consts if isinstance(k, CodeType))


def _rule(code: CodeType) -> str | None:
    entry = _RULES.get(id(code))
    return entry[1] if entry is not None and entry[0]() is code else None


# Positions of functions written into their callers (small ones are inlined) -> their rule.
_INLINED: dict[tuple, str] = {}


def register_inlined(locs, rule: str) -> None:
    """The positions of an inlined function's body: an error there is the function's."""
    for loc in locs:
        _INLINED[(loc.file, loc.line, loc.col)] = rule


def _position(code: CodeType, lasti: int) -> Loc:
    positions = list(code.co_positions())
    i = lasti // 2
    line = col = None
    if 0 <= i < len(positions):
        line, _end, col, _end_col = positions[i]
    if line is None:
        line, col = code.co_firstlineno, 0
    return Loc(code.co_filename, line, (col or 0) + 1)


def where(tb: TracebackType | None) -> tuple[Loc | None, str | None, list[tuple[Loc | None, str]]]:
    """(position, rule, calls) of the deepest generated frame of a traceback; `calls` are the
    generated frames above it, outermost first: where each call that led there was made."""
    frames = []
    while tb is not None:
        rule = _rule(tb.tb_frame.f_code)
        if rule is not None:
            frames.append((_position(tb.tb_frame.f_code, tb.tb_lasti), rule))
        tb = tb.tb_next
    if not frames:
        return None, None, []
    loc, rule = frames[-1]
    calls: list = frames[:-1]
    inlined = _INLINED.get((loc.file, loc.line, loc.col))
    if inlined is not None and inlined != rule:  # in a function written into this rule
        calls.append((None, rule))
        rule = inlined
    return loc, rule, calls


def describe(e: BaseException) -> str:
    """A Python error raised inside a rule, said in the rule's terms."""
    text = str(e)
    if isinstance(e, ZeroDivisionError):
        return "division by zero (`//` or `%` by 0)"
    if isinstance(e, TypeError) and "NoneType" in text:
        return ("a value is `none` here: nothing stands where a piece, card, seat or number "
                "was expected (an empty slot? a missing card?)")
    if isinstance(e, RecursionError):
        return "the rules nest too deeply here (a call inside a call ... too many times)"
    if isinstance(e, MemoryError):
        return "the rules ran out of memory here"
    if isinstance(e, (OverflowError, ValueError)) and ("integer" in text or "int" in text):
        return f"a number beyond the engine's limit ({MAX_INT}) was reached here"
    return f"a rule used a value it cannot use here ({type(e).__name__})"


def fail(e: BaseException) -> BaseException:
    """The exception an entry raises in place of `e`: `e` itself when it is already placed
    (or ends the game), else a `RuleError` at the failing sub-expression."""
    if isinstance(e, EndGame):
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
