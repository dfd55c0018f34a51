"""Racecraft: check, where a problem is said. Stage: during the typing pass and after all the
passes. The typing pass says each problem through `Problems`, which gives it the declarations
its tree reads (`Diagnostic.about`) and, for the first ones, a "did you mean" hint. Then
`blame_patches` (`load/patches.py`, which uses it for the merged game's form too), the last thing
checking does, moves the problems a patch caused to the patch: its one output is the report's
problems, said where they were made.

A module, a variant, a season or `--param` that gives a declaration a value the rules cannot use
(`set: params.hand_size` to a text) makes the base rules wrong where they read it, in another
file. Each problem knows the declarations it is about (the params, state variables, functions,
piles and cards its expression reads, through the functions it calls and the locals it was
computed from); `blame_patches` moves each problem about a declaration a patch changed to the
patch's own line, with the rule's line second, and says it once per patch: the other places that
read it are counted, not listed.
"""
from __future__ import annotations

from typing import Iterable

from ..lang import nodes as n
from ..lang import versions
from ..base.diagnostics import Loc, Report, did_you_mean
from ..lang.types import ANY, Type
from ..load.ruleset import Ruleset
from ..load.yamlsrc import loc_of
from ..ir.sites import FUNCTION
from .checked import Local, Ref, RefKind

# the declarations a bare name, an attribute or a call may be (a name is resolved by the checker
# in this order; a patch changed one of them)
_NAME_KINDS = ("params", "state", "piles", "boards", "pieces")


def names_in(tree: n.Node) -> set[str]:
    """The declarations the names of a tree may stand for, by their spelling (`hand_size` is
    `params.hand_size` or `state.hand_size`, ...; `s.score` is `state.score` or a card's property
    `props.score`; `f(x)` is
    `functions.f`, `procedures.f` or `piles.f`)."""
    out: set[str] = set()
    for x in n.walk(tree):
        if isinstance(x, n.Name):
            out.update(f"{k}.{x.id}" for k in _NAME_KINDS)
        elif isinstance(x, n.Attr):
            out.update((f"state.{x.name}", f"props.{x.name}"))
        elif isinstance(x, n.Call):
            out.update((f"functions.{x.name}", f"procedures.{x.name}", f"piles.{x.name}"))
    return out


def _articles(msg: str) -> str:
    """`a int` and `a any` as a person says them."""
    return msg.replace(" a int", " an int").replace(" a any", " any value")


class Problems:
    """How the typing pass says a problem of the rules: at its place, about the declarations its
    tree reads (when a patch changed any: `blame_patches`), with a "did you mean" hint for the
    first ones. `report` is where they go; finding a type without its problems swaps it for a
    while (`Expressions.peek`), and so does a test checking more rules."""

    def __init__(self, rs: Ruleset, report: Report):
        self.rs = rs
        self.report = report
        self.clashed: set[str] = set()   # names declared twice (`Symbols.clashed`), set by the checker
        self._hints = 200
        # what a patch changed: each local's declarations (by the `Local`'s id), each function's
        self._local_reads: dict[int, set[str]] = {}
        self._function_reads: dict[str, set[str]] = {}

    def error(self, code: str, msg: str, node_or_loc: n.Node | Loc | None, hint: str | None = None,
              of: n.Node | None = None) -> None:
        """`of`: the tree the problem is about, when it is said at a part of it (an argument)."""
        loc = node_or_loc.loc if isinstance(node_or_loc, n.Node) else node_or_loc
        about: frozenset[str] = frozenset()
        tree = of if of is not None else node_or_loc
        if isinstance(tree, n.Node) and self.rs.changed:
            about = self.reads(tree)
        self.report.add(code, msg, loc, hint, about=about)
        param = self._param_read(tree)
        if param is not None:   # the value is the param's: where it is written is the other place
            self.report.items[-1].also = param

    def _param_read(self, tree: object) -> tuple[str, Loc] | None:
        """Where the game's params write the one param `tree` reads by its name (`size - k` where
        the param `size` is written `ten`), if it reads one: its value may be what is wrong."""
        if not isinstance(tree, n.Node):
            return None
        names: set[str] = set()
        stack = [tree]
        while stack and len(names) < 2:
            x = stack.pop()
            ref = getattr(x, "ref", None)
            if isinstance(x, n.Name) and isinstance(ref, Ref) and ref.kind is RefKind.PARAM:
                names.add(x.id)
            stack.extend(x.children())
        if len(names) != 1:
            return None
        (name,) = names
        params = self.rs.game.params
        for key, value in params.items():
            if str(key) == name:
                at = loc_of(value) or loc_of(key)
                return (f"`{name}` is the param written here", at) if at is not None else None
        return None

    def unknown(self, name: str, msg: str, node: n.Node, hint: str | None = None) -> None:
        """E110 for a name nothing declares, unless a patch that would have declared it could not
        be made (said at the patch: a rule using it is no second mistake)."""
        if name not in self.rs.left_out and name not in self.clashed:
            self.error("E110", msg, node, hint)

    def type_error(self, msg: str, node: n.Node | Loc | None, hint: str | None = None,
                   of: n.Node | None = None) -> Type:
        self.error("E120", "type error: " + _articles(msg), node, hint, of)
        return ANY

    def suggest(self, name: str, candidates: Iterable[object]) -> str | None:
        """A "did you mean" hint, for the first problems only: a file with thousands of unknown
        names is checked in linear time (only the first 200 problems are shown anyway)."""
        if self._hints <= 0:
            return None
        self._hints -= 1
        return did_you_mean(name, candidates)

    def refused_from_2(self, code: str, warning: str, message: str, node: n.Node, hint: str) -> None:
        """What the engine let through before language 2 (a file that says none still runs as it
        did): a warning in a file of language 1, an error from 2."""
        loc = node.loc
        if loc is not None and versions.of(loc.file) < 2:
            self.report.warn(warning, _articles(message) + " (an error from language 2)", loc, hint)
        else:
            self.error(code, _articles(message), node, hint)

    def local_reads(self, local: Local, value: n.Expr) -> None:
        """`local` is given `value`: a problem reading the local is about what the value reads."""
        if self.rs.changed:
            self._local_reads[id(local)] = set(self.reads(value))

    def reads(self, tree: n.Node) -> frozenset[str]:
        """The declarations a tree reads, as far as a patch's change matters to it: those its
        names may be, those of the functions it calls, and those the locals it reads were
        computed from."""
        out = names_in(tree)
        for x in n.walk(tree):
            if isinstance(x, n.Name) and isinstance(x.ref, Ref) and x.ref.kind is RefKind.LOCAL:
                out |= self._local_reads.get(id(x.ref.extra), set())
            elif isinstance(x, n.Call):
                out |= self._function_reads_of(x.name, set())
        return frozenset(out)

    def _function_reads_of(self, name: str, seen: set[str]) -> set[str]:
        if name in self._function_reads:
            return self._function_reads[name]
        tree = self.rs.rules.tree(FUNCTION.rule(name))
        if tree is None or name in seen:
            return set()
        seen.add(name)
        out = names_in(tree)
        for x in n.walk(tree):
            if isinstance(x, n.Call):
                out |= self._function_reads_of(x.name, seen)
        self._function_reads[name] = out
        return out
