"""The machine that runs compiled rules until the next decision.

A rule that may wait for a decision is a resumable function (`compile/statements.py`) run in a
frame `[fn, pc, env]`: `pc` is the waiting point it goes on from (0: its start), `env` holds its
locals while it waits. The state holds the frames, so a game stopped at a decision is plain data
that a copy takes along. `run` calls the top frame's function until one stops: a decision is
pending (`st.pending`), a `simultaneously` block needs its commitments (`st.simul`), the game is
over (no frames left), or a scenario asked it to stop (`Watch`). A function returns False when
it put a frame on top (a call of a procedure that waits, left to `run`: see `call_in`) or took
its own off (it ended).

The functions here are what generated code calls at its waiting points (`h_decide`, `h_call_in`...).
"""
from __future__ import annotations

import random
from typing import Any, Callable

from ..base.errors import EndGame, Outside, RuleError
from ..base.limits import Steps, too_many
from .plan import ChooseSpec, Effects, Unit, bind
from .state import State

# In a procedure's frame: the name its `return VALUE` sets in the caller's frame; in a frame
# waiting at a choice: the option taken when it goes on. Engine names: rules cannot name `__` names.
RESULT = "__result"
TAKEN = "__taken"

# Machine frames a game may stack (procedures that wait, calling each other): the checker refuses
# cycles, so only a very long chain of distinct procedures could come near.
MAX_FRAMES = 1000


class Watch:
    """What a scenario watches a game for (`State.watch`): with `forced`, a choice with a single
    option is asked like any other; with `stop`, the machine stops right after the place of that
    name (a scenario's stop: "step:ID" or "event:NAME") and says so in `stopped`."""

    __slots__ = ("forced", "stop", "stopped")

    def __init__(self, forced: bool = False, stop: str | None = None):
        self.forced = forced
        self.stop = stop
        self.stopped: str | None = None


def run(st: State) -> None:
    frames = st.frames
    try:
        while frames:
            fr = frames[-1]
            if fr[0](st, fr):
                return
    except EndGame:
        frames.clear()
        st.ended = True
    except Outside as e:
        raise e.error from None


# ---- what generated code calls at its waiting points -----------------------------------------------

def decide(st: State, spec: ChooseSpec, opts: list, env: dict, fr: list, k: int) -> int:
    """The option a choice takes without asking (a single one; at a reveal, the one committed;
    one its seat's answerer gives in place, `st.ask`), or -1 when its seat must be asked
    (`st.pending`: the choice, its options, the locals, the seat). The caller has kept its
    locals in `env`; `fr` is its frame and `k` this waiting point."""
    if not opts:
        raise RuleError("no option of this choice is allowed here")
    feed = st.feed
    if feed:  # a seat's block played at a reveal: answered from its commitments, each in turn
        pick, committed = feed.pop(0)
        if pick < 0:  # taken on the seat's copy without asking: a single option here is taken
            if len(opts) == 1:
                return 0
            pick = 0   # (several now: the one that reads as the copy's did, if it is there)
        if pick >= len(opts) or opts[pick] != committed:
            pick = _recommit(st, spec, opts, env, pick, committed)
        return pick
    if len(opts) == 1 and (st.watch is None or not st.watch.forced or feed is not None):
        taking = st.taking
        if taking is not None:  # a seat's copy: noted, -1 for "not asked" (the reveal keeps its turn)
            taking.append((-1, opts[0]))
        return 0  # taken at once
    if feed is not None and st.believe is None:
        raise RuleError(_gone(st, None), spec.loc, spec.rule)
    seat = spec.seat(st, env)
    if seat is None:
        if len(opts) > 1:
            raise RuleError("nobody is to make this choice: its seat is none", spec.loc, spec.rule)
        return 0
    if st.block_seat >= 0 and seat != st.block_seat:
        # asked on that seat's own copy, another seat would see what it has done in secret
        raise RuleError(f"a choice in seat {st.block_seat + 1}'s block of a `simultaneously` is asked of "
                        f"seat {seat + 1}: each seat's block asks its own seat only (ask the others "
                        "after the block)", spec.loc, spec.rule)
    st.pending = (spec, opts, env, seat)
    ask = st.ask
    if ask is not None:
        # answered in place: the game stands at this decision (the frame at its point, the
        # locals kept) while its answerer looks, copies or plays on copies of it
        fr[1] = k
        try:
            pick = ask(st)
        except Exception as e:
            raise Outside(e) from None
        if pick >= 0:
            st.pending = None
            return pick
    return -1


def _recommit(st: State, spec: ChooseSpec, opts: list, env: dict, pick: int, committed: tuple) -> int:
    """At a reveal, the option picked on the seat's own copy must still be there: the same
    alternative, with a value that reads the same (another card of the same kind will do). On a
    bot's belief (an imagined table, where the seats' copies were imagined too) the nearest
    option is taken instead of stopping the bot's game."""
    label = spec.label(st, env, committed)
    if pick < len(opts) and opts[pick][0] == committed[0] and spec.label(st, env, opts[pick]) == label:
        return pick
    # the options before it may be fewer now (a card another seat took before): where it went (a
    # record from before streams replays as it was played: there only, it stopped)
    for i, opt in enumerate(opts if st.streams else ()):
        if opt[0] == committed[0] and spec.label(st, env, opt) == label:
            return i
    if st.believe is not None:
        return min(pick, len(opts) - 1)
    raise RuleError(_gone(st, label), spec.loc, spec.rule)


def _gone(st: State, label: str | None) -> str:
    """Why a seat's committed choice (`label`; None: one choice more than it committed) is not
    there when its block is played at a reveal: the block being revealed says
    (`secret.SimulRun.gone`)."""
    revealing = st.revealing
    if revealing is not None:
        return revealing.gone(st, label)
    return ("a block asks a choice it did not commit" if label is None
            else f"the committed choice \"{label}\" is no longer an option when revealed")


def take(st: State, spec: ChooseSpec, opts: list, env: dict, pick: int) -> tuple:
    """The option `pick` taken: traced, counted for statistics, its value in `env` under its name."""
    opt = opts[pick]
    alt = spec.alts[opt[0]]
    if st.trace is not None or st.tally is not None:
        # telling and counting only look: they count no steps of the game (a label is read once
        # and kept, so a label that counted would count in a process's first game only)
        steps = st.steps
        if st.trace is not None:
            seat = spec.seat(st, env)
            st.trace.append(("choice", spec.rule, str(spec.loc) if spec.loc else "",
                             seat, spec.label(st, env, opt), len(opts)))
        if st.tally is not None:
            st.tally.choice(st, spec, alt, opt[1], env)
        st.steps = steps
    var = alt.var
    if var is not None:
        if var.__class__ is str:
            env[var] = opt[1]
        else:  # several `for`s
            bind(env, var, opt[1])
    return opt


def call(st: State, fn: Unit, local: dict, result: str | None) -> None:
    """A procedure or trigger that waits, called: its frame on top (a step); `result`: where
    its `return VALUE` goes in the caller's frame."""
    frames = st.frames
    if len(frames) > MAX_FRAMES:
        raise RuleError("procedures call each other too deeply")
    st.steps += 1  # a call is a step (a procedure that runs as Python counts itself)
    if st.steps > st.plan.max_steps:
        raise too_many(Steps.CALLS, st.plan.max_steps)
    if result is not None:
        local[RESULT] = result
    frames.append([fn, 0, local])


def call_in(st: State, fn: Unit, local: dict, result: str | None, fr: list) -> bool | None:
    """`call`, then run the called frame here, from inside the caller (frame `fr`, its locals
    kept and its point noted as for `call`): None when it has ended and the caller goes on in
    place, as `run` would have resumed it; True when the machine stops (a decision pending, a
    `simultaneously` block, the game over, a scenario's stop): the caller returns it. Saves the
    trip through `run` and the caller's resumption for a call that runs to its end. Deep chains
    of calls (`INLINE_DEPTH`) are left to `run` (False) to keep Python's own stack short."""
    call(st, fn, local, result)
    frames = st.frames
    if len(frames) > INLINE_DEPTH:
        return False
    while frames:
        top = frames[-1]
        if top is fr:
            return None
        if top[0](st, top):
            return True
    return True


# frames deeper than this are run by `run`, not from inside their caller (`call_in`)
INLINE_DEPTH = 64


def ret(st: State, env: dict, value: Any) -> None:
    """A frame ends: its value (`return VALUE`) to the caller's frame that asked for one."""
    frames = st.frames
    frames.pop()
    if RESULT in env:
        frames[-1][2][env[RESULT]] = value


def halt(st: State) -> None:
    st.frames.clear()
    st.ended = True


HELPERS: dict[str, Callable[..., Any]] = {
    "decide": decide, "take": take, "call_in": call_in, "ret": ret, "halt": halt}


# ---- driving --------------------------------------------------------------------------------------

def answer(st: State, pick: int) -> None:
    """Resume after the pending decision with option `pick`."""
    spec, opts, env, _seat = st.pending
    st.pending = None
    env[TAKEN] = take(st, spec, opts, env, pick)
    run(st)


def unchanged(st: State, base: State) -> bool:
    """Whether an option's table (`preview`) is `base`'s as it was: no card moved or turned, no
    variable or board changed (it set only the rules' own local names, which the next statements
    read: `play_on` shows what they do)."""
    return st is base or (st.mine == 0 and not st.cards_mine and st.g == base.g and st.v == base.v
                          and st.bd == base.bd)


def play_on(st: State, pick: int, rng: random.Random | None = None) -> State:
    """A copy of the game with option `pick` taken, played on up to the next decision (or its
    end); with `rng`, the copy is the bot's belief (see `preview`). `st` is left as it was."""
    c = st.clone(rng)
    answer(c, pick)
    return c


def preview(st: State, pick: int, rng: random.Random | None = None) -> State:
    """The table right after the pending option `pick` has had its own effects (its afterstate),
    for a bot to score: `st` itself when the option does nothing, else a copy. An option that
    needs the machine (it decides again, or branches in the flow) is played on the copy up to
    the next decision instead. With `rng`, the copy is the bot's belief (`state.Belief`): its
    generator stands in for chance and for the order of unseen piles. `st` is left as it was."""
    spec, opts, env, _seat = st.pending
    opt = opts[pick]
    effects = spec.alts[opt[0]].effects
    if effects is Effects.NONE:
        return st
    if effects is Effects.PLAY:
        return play_on(st, pick, rng)
    c = st.scratch(rng) if rng is not None else st.clone()
    local = dict(env)  # the option's locals in a copy of their own (the copy has no frames)
    alt = spec.alts[opt[0]]
    var = alt.var
    if var is not None:
        if var.__class__ is str:
            local[var] = opt[1]
        else:  # several `for`s
            bind(local, var, opt[1])
    try:
        alt.run(c, local)
    except EndGame:
        c.frames = []
        c.ended = True
    return c
