"""What each option of a decision would do, where the rules can tell before it is chosen:
`play red → lap 2, passes blue`.

Each option's own effects are played on a copy of the table as the deciding seat may believe it
(`vm.preview`, the greedy bot's look-ahead: hidden order and chance come from a generator of the
preview's own, face-down tiles are shuffled first), and the seat's pieces are compared before and
after: the facts the game shows about them, where they stand, whom they passed. An option that
meets chance (a draw from a deck nobody sees, a shuffle) is not previewed, nor one that reads
what the seat cannot see (another seat's hand: the copy deals it anew when it first reads it,
`engine/hidden.py`, and that tells it was read), nor any option of a choice whose rules took such a
card before asking: their outcome is not known until it happens."""
from __future__ import annotations

import random
import re

from ..engine import vm
from ..engine.hidden import held, veil
from ..engine.game import reading, table_view
from ..base.errors import RuleError


def _summary(plan, st, seat: int) -> dict:
    """For each piece of the seat: its facts and where it stands on each board; the boards' order."""
    view = table_view(plan, st, seat)
    mine = [name for name, info in view["pieces"].items() if info.get("owner") == seat + 1]
    where: dict[str, str] = {}
    orders: list[list[str]] = []
    for kind in plan.board_kinds:
        spots = kind.positions(st)
        orders.append([p for p, _w in spots])
        for piece, w in spots:
            where[piece] = w
    return {"mine": mine, "facts": {p: view["pieces"][p].get("facts", []) for p in mine},
            "where": where, "orders": orders}


def _passed(piece: str, before: list[list[str]], after: list[list[str]]) -> list[str]:
    """The pieces ahead of `piece` before and behind it after, on a board with an order."""
    out: list[str] = []
    for b, a in zip(before, after):
        if piece in b and piece in a:
            ahead = b[:b.index(piece)]
            out.extend(x for x in ahead if x in a and a.index(x) > a.index(piece))
    return out


def _changes(piece: str, many: bool, before: dict, after: dict, label: str) -> list[str]:
    """What changed for one piece: the facts shown about it, where it stands (unless the option's
    label says it already), whom it passed."""
    old = set(before["facts"].get(piece, []))
    out = [f for f in after["facts"].get(piece, []) if f not in old]
    w0, w1 = before["where"].get(piece), after["where"].get(piece)
    passed = _passed(piece, before["orders"], after["orders"])
    named = w1 is not None and any(len(t) > 1 and re.search(rf"\b{re.escape(t)}\b", label)
                                   for t in re.split(r"[\s,]+", w1) if not t.isalpha())
    if w1 != w0 and not named and not (passed and w1 and w1.startswith("position ")):
        # (a place that says where it lies from a line reads as it is: `past the finish`)
        out.append(("" if w1.startswith("past ") else "to ") + w1 if w1 else "off the board")
    if passed:
        out.append("passes " + ", ".join(passed))
    return [f"{piece}: {c}" if many else c for c in out]


def previews(game, decision, seed: int = 0) -> list[str]:
    """For each option of the decision, what it would change for the deciding seat ("" when
    nothing the seat can see, or when it meets chance or reads what the seat cannot see)."""
    plan = game.plan
    seat = decision.seat
    base = decision._st
    if seat is None or base.pending is None or held(base, seat):
        # (a card the rules took before asking, which the seat cannot see: any option may use it)
        return [""] * decision.count
    rng = random.Random(seed)
    base = base.clone()
    for k in plan.hiding_kinds:
        k.redeal_hidden(base, seat, rng)
    labels = decision.labels()
    before = reading(base, lambda: _summary(plan, base, seat))
    base.veil = veil(base, seat, rng)
    out = []
    for i in range(decision.count):
        try:
            st = vm.preview(base, i, rng)
            if st is not base and vm.unchanged(st, base):
                # it sets only what the next statements read (how far to go): what they do
                st = vm.play_on(base, i, rng)
            if st is base or (st.believe is not None and st.believe.chance) \
                    or (base.veil is not None and st.veil is None):   # (it dealt: it read a hidden card)
                out.append("")
                continue
            after = reading(st, lambda st=st: _summary(plan, st, seat))
        except RuleError:  # an option the rules refuse to play out shows nothing
            out.append("")
            continue
        many = len(before["mine"]) > 1
        changes = [c for p in before["mine"] for c in _changes(p, many, before, after, labels[i])]
        out.append(", ".join(changes))
    return out
