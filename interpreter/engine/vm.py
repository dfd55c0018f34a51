"""The machine that runs compiled rules until the next decision.

Frames are `[code, pc, env]`; the state holds them, so a game stopped at a decision is plain
data. `run` returns when a decision is pending (`st.pending`), when a `simultaneously` block
needs its commits (`st.simul`), when the game is over (no frames left), or where a scenario
asked it to stop (`Watch`).
"""
from __future__ import annotations

from ..lang.errors import EndGame, GameTooLong, RuleError
from .boundary import fail
from .plan import CALL, CHOOSE, EXEC, FOR_INIT, FOR_NEXT, HALT, JMP, JMPF, RET, SIMUL, STOP, TRACE


class SimulRun:
    """A `simultaneously` block collecting each seat's choices before anything is revealed."""

    __slots__ = ("seats", "var", "body", "env", "idx", "answers", "start", "done")

    def __init__(self, seats, var, body, env):
        self.seats = seats
        self.var = var
        self.body = body
        self.env = env
        self.idx = 0
        self.answers: list[tuple[int, tuple]] = []  # (pick, the option picked) in commit order
        self.start = 0  # where the answers of the seat now committing begin
        self.done = False

    def clone(self) -> "SimulRun":
        c = SimulRun(self.seats, self.var, self.body, self.env)
        c.idx, c.answers, c.start, c.done = self.idx, self.answers[:], self.start, self.done
        return c


class Watch:
    """What a scenario watches a game for (`State.watch`): with `forced`, a choice with a single
    option is asked like any other; with `stop`, the machine stops right after the place of that
    name (a `STOP` instruction: "step:ID" or "event:NAME") and says so in `stopped`."""

    __slots__ = ("forced", "stop", "stopped")

    def __init__(self, forced: bool = False, stop: str | None = None):
        self.forced = forced
        self.stop = stop
        self.stopped: str | None = None


def _end_feed(st, env):
    if st.feed:
        raise RuleError("simultaneous choices no longer fit when revealed (a seat's options "
                        "changed because of another seat's choice)")
    st.feed = None


# In a procedure's frame: the name its `return VALUE` sets in the caller's frame (an engine name:
# rules cannot name `__` names).
RESULT = "__result"

# Machine frames a game may stack (procedures that wait, calling each other): the checker refuses
# cycles, so only a very long chain of distinct procedures could come near.
MAX_FRAMES = 1000

_FEED_END = [(EXEC, (None, "simultaneously"), _end_feed), (RET, (None, "simultaneously"))]


def run(st, EXEC=EXEC, JMPF=JMPF, FOR_NEXT=FOR_NEXT, JMP=JMP, CHOOSE=CHOOSE, CALL=CALL,
        TRACE=TRACE) -> None:
    # The op codes are bound as locals: this loop is the interpreter's innermost one.
    frames = st.frames
    max_steps = st.plan.max_steps
    while frames:
        fr = frames[-1]
        code, pc, env = fr
        ins = code[pc]
        try:
            while True:
                ins = code[pc]
                op = ins[0]
                if op == EXEC:
                    ins[2](st, env)
                    pc += 1
                elif op == JMPF:
                    pc = pc + 1 if ins[2](st, env) else ins[3]
                elif op == FOR_NEXT:
                    items, i = env[ins[3]]
                    if i < len(items):
                        env[ins[2]] = items[i]
                        env[ins[3]] = (items, i + 1)
                        pc += 1
                    else:
                        pc = ins[4]
                elif op == JMP:
                    pc = ins[2]
                elif op == CHOOSE:
                    spec = ins[2]
                    opts = spec.list_options(st, env)
                    if not opts:
                        raise RuleError("no option of this choice is allowed here")
                    if len(opts) == 1 and (st.watch is None or not st.watch.forced or st.feed is not None):
                        pick = 0  # taken at once (at a reveal too: a commitment never records it)
                    elif st.feed:
                        pick, committed = st.feed.pop(0)
                        if pick >= len(opts) or opts[pick] != committed:
                            _recommit(st, spec, opts, env, pick, committed)
                    elif spec.seat(st, env) is None:
                        if len(opts) > 1:
                            raise RuleError("nobody is to make this choice: its seat is none",
                                            spec.loc, spec.rule)
                        pick = 0
                    else:
                        fr[1] = pc
                        st.pending = (spec, opts, env)
                        return
                    pc = _take(st, spec, opts, env, pick)
                elif op == FOR_INIT:
                    items = list(ins[3](st, env))
                    st.steps += len(items)
                    if st.steps > max_steps:
                        raise GameTooLong(f"the rules went round their loops more than {max_steps} times "
                                          "(`limits.max_steps`)")
                    env[ins[2]] = (items, 0)
                    pc += 1
                elif op == CALL:
                    body, names, arg_fns = ins[2], ins[3], ins[4]
                    values = [f(st, env) for f in arg_fns]
                    if callable(body):
                        value = body(st, *values)
                        if len(ins) > 5:  # its value, for the statement after it
                            env[ins[5]] = value
                        pc += 1
                    else:
                        if len(frames) > MAX_FRAMES:
                            raise RuleError("procedures call each other too deeply")
                        st.steps += 1  # a call is a step (a procedure that runs as Python counts itself)
                        if st.steps > max_steps:
                            raise GameTooLong(f"the rules made more than {max_steps} steps (loops and calls) "
                                              "without ending (`limits.max_steps`)")
                        fr[1] = pc + 1
                        local = dict(zip(names, values))
                        if len(ins) > 5:
                            local[RESULT] = ins[5]  # where its `return VALUE` goes in this frame
                        frames.append([body, 0, local])
                        break
                elif op == RET:
                    frames.pop()
                    if len(ins) > 2 and RESULT in env:  # `return VALUE` to a `let x = proc(...)`
                        frames[-1][2][env[RESULT]] = ins[2](st, env) if ins[2] is not None else None
                    break
                elif op == TRACE:
                    # kinds: "rule" (a rule starts), "phase", "count" (a named statement: statistics only)
                    if st.trace is not None and ins[2] != "count":
                        st.trace.append((ins[2], ins[1][1], str(ins[1][0]) if ins[1][0] else ""))
                    if st.tally is not None and ins[2] != "phase":
                        st.tally.count(ins[1][1])
                    pc += 1
                elif op == SIMUL:
                    sim = st.simul
                    if sim is not None and sim.done:
                        # Every seat has committed: reveal by running the bodies in seat order,
                        # answering their choices from what was committed.
                        st.simul = None
                        st.feed = list(sim.answers)
                        fr[1] = pc + 1
                        frames.append([_FEED_END, 0, {}])
                        for seat in reversed(sim.seats):
                            local = dict(env)
                            local[sim.var] = seat
                            frames.append([sim.body, 0, local])
                        break
                    seats = list(ins[3](st, env))
                    if not seats:
                        pc += 1
                        continue
                    st.simul = SimulRun(seats, ins[2], ins[4], dict(env))
                    fr[1] = pc
                    return
                elif op == HALT:
                    frames.clear()
                    st.ended = True
                    return
                elif op == STOP:
                    w = st.watch
                    pc += 1
                    if w is not None and w.stop == ins[2]:
                        w.stop = None
                        w.stopped = ins[2]
                        fr[1] = pc
                        return
        except EndGame:
            frames.clear()
            st.ended = True
            return
        except Exception as e:  # noqa: BLE001 - the error boundary: every error is a rule's
            err = fail(e)
            if isinstance(err, RuleError):
                if err.loc is None:
                    err.loc = ins[1][0]
                if err.rule is None:
                    err.rule = ins[1][1]
            raise err from None


def _recommit(st, spec, opts, env, pick, committed) -> None:
    """At a reveal, the option picked on the seat's own copy must still be there: the same
    alternative, with a value that reads the same (another card of the same kind will do)."""
    label = spec.label(st, env, committed)
    if pick >= len(opts) or opts[pick][0] != committed[0] or spec.label(st, env, opts[pick]) != label:
        raise RuleError(f"the committed choice \"{label}\" is no longer an option when revealed "
                        "(another seat's choice changed it)")


def _take(st, spec, opts, env, pick: int) -> int:
    i, v = opts[pick]
    alt = spec.alts[i]
    if st.trace is not None:
        seat = spec.seat(st, env)
        st.trace.append(("choice", spec.rule, str(spec.loc) if spec.loc else "",
                         seat, spec.label(st, env, opts[pick]), len(opts)))
    if st.tally is not None:
        st.tally.choice(st, spec, alt, v, env)
    if alt.var is not None:
        env[alt.var] = v
    return alt.target


def answer(st, pick: int) -> None:
    """Resume after the pending decision with option `pick`."""
    spec, opts, env = st.pending
    st.pending = None
    st.frames[-1][1] = _take(st, spec, opts, env, pick)
    run(st)


def preview(st, pick: int, rng=None):
    """The table right after the pending option `pick` has had its own effects (its afterstate),
    for a bot to score: `st` itself when the option does nothing, else a copy. An option that
    needs the machine (it decides again, or branches in machine code) is played on the copy up
    to the next decision instead. With `rng`, the copy is the bot's belief (`state.Belief`): its
    generator stands in for chance and for the order of unseen piles. `st` is left as it was."""
    spec, opts, env = st.pending
    i, v = opts[pick]
    alt = spec.alts[i]
    fx = alt.effects
    if fx is not None and not fx:
        return st
    if fx is None:
        c = st.clone(rng)
        answer(c, pick)
        return c
    c = st.scratch(rng) if rng is not None else st.clone()
    local = dict(env)  # the copy has no frames: the option's locals go in a copy of its own
    if alt.var is not None:
        local[alt.var] = v
    try:
        for f in fx:
            f(c, local)
    except EndGame:
        c.frames = []
        c.ended = True
    except Exception as e:  # noqa: BLE001 - the error boundary
        err = fail(e)
        if isinstance(err, RuleError) and err.loc is None:
            err.loc, err.rule = spec.loc, spec.rule
        raise err from None
    return c

