"""Racecraft: check, the old forms of the rules. Stage: inside the typing pass, where a name it
cannot resolve otherwise may be an old form. Reads what the game's board kinds replaced and the
game's own `renamed:`; its one output is the old form rewritten in the tree as its new form
(`piece.slot` becomes `slot_of(piece)`), said where it is written: W107 in a file of a language
or game older than the change, E107 from it (`Report.old_form`, with the edit `upgrade` makes).

The data of a file in an older language is read by `load/oldforms.py`; this is the same for the
expressions of the rules, which only the checker can tell apart (`p.slot` is an old form only
when `p` is a piece that has no variable `slot`).
"""
from __future__ import annotations

from typing import Any, Callable

from ..boards import KINDS
from ..lang import nodes as n
from ..lang import unparse
from ..lang import versions
from ..lang.parser import parse_expr
from ..lang.types import CARD, PIECE, SEAT, Type, compatible
from ..load.ruleset import Ruleset
from ..load.yamlsrc import loc_of
from .blame import Problems


class OldForms:
    """The old forms a game's rules may still write, by what they look like: attributes of a
    seat, piece or card (`attrs`, by (owner, name)) and calls (`calls`, by name); and the
    rewriting of one into its new form. A form that is neither is refused here (E117)."""

    def __init__(self, rs: Ruleset, problems: Problems):
        self.problems = problems
        self.attrs: dict[tuple[str, str], versions.OldForm] = {}
        self.calls: dict[str, versions.OldForm] = {}
        self._trees: dict[versions.OldForm, n.Expr | None] = {}   # each new form, parsed once
        self._renaming: set[int] = set()   # calls of piles being read as their new forms (`old_args`)
        kinds = sorted({str(b.kind) for b in rs.game.boards.values()})
        forms = [f for kind in kinds for f in KINDS[kind].old_forms]
        forms += [versions.OldForm(str(k), v.to, v.since) for k, v in rs.game.renamed.items()]
        for form in forms:
            if form.attribute is not None and form.attribute[0] in ("seat", "piece", "card"):
                self.attrs[form.attribute] = form
            elif form.call is not None:
                self.calls[form.call[0]] = form
            else:
                where = loc_of(next((k for k in rs.game.renamed if str(k) == form.old), None))
                problems.error("E117", f"`renamed: {form.old}`: an old form is `seat.NAME`, `piece.NAME`, "
                               "`card.NAME` or a call `NAME(a, b)`", where)

    def _template(self, form: versions.OldForm) -> n.Expr | None:
        if form not in self._trees:
            self._trees[form] = parse_expr(form.new, self.problems.report)
        return self._trees[form]

    def rewrite(self, e: n.Expr, form: versions.OldForm, values: dict[str, n.Expr]) -> bool:
        """`e`, an old form, becomes its new form (`form.new` with `values` for its names), said
        where it is (a warning in a file of an older version, else an error): True when it did."""
        template = self._template(form)
        if template is None:
            return False
        new = n.clone(template)
        for x in n.walk(new):  # placed where the old form is written
            x.loc = e.loc
        new = _put(new, values)
        old_text, new_text = unparse.expr(e), unparse.expr(new)
        file = e.loc.file if e.loc is not None else None
        self.problems.report.old_form(versions.of(file), form.since, f"`{old_text}`", e.loc, new_text,
                                      ((e.loc, old_text, new_text),) if e.loc is not None else ())
        e.__class__, e.__dict__ = new.__class__, new.__dict__   # the node is the new form from now on
        return True

    def old_args(self, e: n.Call, params: dict, peek: Callable[[n.Expr], Type]) -> bool:
        """A call written with the arguments of an older form of the game (`hand(s)` of a pile that
        was each seat's and is each piece's now, `cards_in_hand(s)` of a function that takes a piece
        now): read as its new form, the same call, as the game's `renamed:` says (`hand(seat)` is
        `hand(car_of(seat))`), with its warning. The old form's parameters named `seat`, `piece` or
        `card` say what the old call was given (`peek`: an argument's type, found without its
        problems); True when the call was read as its new form."""
        form = self.calls.get(e.name)
        call = form.call if form is not None else None
        if form is None or call is None or len(call[1]) != len(e.args) or len(params) != len(e.args) \
                or id(e) in self._renaming:
            return False
        new = self._template(form)
        if not (isinstance(new, n.Call) and new.name == e.name):
            return False
        types = [peek(a) for a in e.args]
        if all(compatible(t, p) for t, p in zip(types, params.values())):
            return False   # it fits as it is written
        said = {"seat": SEAT, "piece": PIECE, "card": CARD}
        if not all(compatible(t, said[p]) for t, p in zip(types, call[1]) if p in said):
            return False
        return self.rewrite(e, form, dict(zip(call[1], e.args)))

    def renamed(self, e: n.Call, check: Callable[[], Any]) -> Any:
        """`check` of a call just read as its new form (which is not read as one again)."""
        self._renaming.add(id(e))
        try:
            return check()
        finally:
            self._renaming.discard(id(e))


def _put(tree: n.Expr, values: dict[str, n.Expr]) -> n.Expr:
    """`tree` with each name of `values` replaced by (a copy of) its value."""
    if isinstance(tree, n.Name) and tree.id in values:
        return n.clone(values[tree.id])
    for name in tree.__dataclass_fields__:
        if name in ("loc", "typ", "ref"):
            continue
        value = getattr(tree, name)
        if isinstance(value, n.Expr):
            setattr(tree, name, _put(value, values))
        elif isinstance(value, list):
            setattr(tree, name, [_put(v, values) if isinstance(v, n.Expr) else v for v in value])
    return tree
