"""Python `ast` to functions: the namespace generated code sees, entries, and the record of
what was generated (`racecraft explain --python`).

Generated code sees only names the compiler chose: its parameters (`st`, `env`), locals it
named (`v_...`, `t_...`), and the entries of its namespace (constants `k...`, helpers `h_...`,
other rules `f_...`, `p_...`). A ruleset's names reach it only as string constants or through
that mapping, so no text in a ruleset can become code, whatever path it came by.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, Callable

from types import CodeType

from ..engine.boundary import SOURCE, fail
from ..base.diagnostics import Loc, Report, RulesetError
from . import pyast as P

# The Python built-ins generated code may call (and nothing else of Python's).
SAFE_BUILTINS = {"len": len, "sum": sum, "min": min, "max": max, "any": any, "all": all, "abs": abs,
                 "range": range, "list": list, "dict": dict, "map": map, "Exception": Exception}


class Uncompilable(RulesetError):
    """A rule Python would not compile (E108): more than the limits checked before compiling
    (`base/limits.py`) foresaw. Said to the designer as a diagnostic at the rule, never as an
    internal error; `make_compiler` adds it to its report."""


class Generated:
    """A rule compiled, and where: with its Python for `explain --python` when the compiler was
    asked to keep it (`Codegen.keep_python`), written out as text only when read. Most games are
    compiled to be played: the text cost as much as the code, and the trees kept for it would
    stay in memory, where the garbage collector walks them, as long as the game."""

    __slots__ = ("rule", "loc", "_tree", "_python")

    def __init__(self, rule: str, loc: Loc | None, tree: ast.AST | None):
        self.rule = rule
        self.loc = loc
        self._tree = tree
        self._python: str | None = None

    @property
    def python(self) -> str:
        if self._python is None:
            if self._tree is None:
                raise ValueError("the Python of a rule is kept only when compiling with python=True")
            self._python = ast.unparse(self._tree)
            self._tree = None
        return self._python


@dataclass
class Codegen:
    """What the compiler writes into: the namespace every generated function shares (safe
    built-ins, the engine's helpers, the plan's entries), each function compiled from its Python
    `ast` with the rule's positions (`_locate`), and where each line of generated code comes from."""
    ns: dict = field(default_factory=lambda: {"__builtins__": dict(SAFE_BUILTINS)})
    keep_python: bool = False   # keep each rule's Python for `explain --python` (`Generated`)
    generated: list[Generated] = field(default_factory=list)
    _consts: dict = field(default_factory=dict)   # id(obj) -> name
    _keep: list = field(default_factory=list)     # keeps constants alive (their ids stay theirs)
    _names: set = field(default_factory=set)
    _last: dict[str, int] = field(default_factory=dict)  # the number of the last name given of each base
    # What the error boundary asks (`engine.boundary.Source`). Each code object's rule, by
    # identity (the code objects are kept, so their ids stay theirs); a resumable function (a
    # unit) holds several rules, told apart by position (`_at`). The positions of the bodies of
    # functions written into their callers are the functions' (`_inlined`), and, in a unit, the
    # rule they were written into is where they were called from (`_called`). A function holding
    # code of another file (a module's statements) gives those lines numbers of their own, kept
    # in `_lines`.
    _rules: dict[int, str] = field(default_factory=dict)
    _units: set[int] = field(default_factory=set)
    _codes: list[CodeType] = field(default_factory=list)
    _inlined: dict[tuple[str, int, int], str] = field(default_factory=dict)
    _called: dict[tuple[str, int, int], str] = field(default_factory=dict)
    _at: dict[tuple[str, int, int], str] = field(default_factory=dict)
    _lines: dict[int, tuple[str, int]] = field(default_factory=dict)
    _numbered: dict[tuple[str, int], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.ns["h_fail"] = fail
        self.ns[SOURCE] = self

    def locate(self, code: CodeType, line: int, col: int) -> tuple[Loc, str] | None:
        rule = self._rules.get(id(code))
        if rule is None:
            return None
        file, line = self._lines.get(line, (code.co_filename, line))
        key = (file, line, col)
        if id(code) in self._units:
            rule = self._called.get(key) or self._at.get(key) or rule
        return Loc(file, line, col), rule

    def inlined_at(self, loc: Loc) -> str | None:
        return self._inlined.get((loc.file, loc.line, loc.col))

    def inlined(self, locs: list[Loc], rule: str) -> None:
        """The positions of a function's body written into its callers: an error there is the function's."""
        for loc in locs:
            self._inlined[(loc.file, loc.line, loc.col)] = rule

    def called_from(self, locs: list[Loc], rule: str) -> None:
        """A function's body written into `rule`, in a unit: an error there was called from `rule`."""
        for loc in locs:
            self._called[(loc.file, loc.line, loc.col)] = rule

    def attribute(self, rule: str, tree: Any) -> None:
        """The positions of a rule's tree: in a unit, an error there is this rule's."""
        from ..lang import nodes as n
        for node in n.walk(tree):
            loc = node.loc
            if loc is not None:
                self._at[(loc.file, loc.line, loc.col)] = rule

    def _register(self, code: CodeType, rule: str, unit: bool) -> None:
        stack = [code]
        while stack:
            c = stack.pop()
            self._rules[id(c)] = rule
            if unit:
                self._units.add(id(c))
            self._codes.append(c)
            stack.extend(k for k in c.co_consts if isinstance(k, CodeType))

    def _locate(self, root: ast.AST, loc: Loc | None, main: str) -> None:
        """Positions for a function about to be compiled, in one walk of its tree. A node the
        lowering left without one (`pyast.place` stops at nodes it finds placed) takes the
        position of the nearest node above it that has one, the function's own being the rule's
        `loc`; with no `loc`, its parent's as `ast.fix_missing_locations` gives. Lines of another
        file than the function's own (`main`) get numbers of their own (`_lines`)."""
        fill = loc is not None and bool(loc.line)
        above: Any = None  # the position a node without one takes: (line, col, end line, end col, file)
        if fill:
            assert loc is not None
            col = max((loc.col or 1) - 1, 0)
            above = (loc.line, col, loc.line, col + 1, loc.file)
        numbered, lines = self._numbered, self._lines
        shapes, shape, kids = P.SHAPES, P.shape, P.kids
        # (node, what it takes from above: (its parent's file, lineno, col_offset, end_lineno,
        # end_col_offset, the position above it as written by the lowering)), one tuple for siblings
        stack: list[tuple[Any, tuple]] = [(root, (main, 1, 0, 1, 0, above))]
        pop, push = stack.pop, stack.append
        while stack:
            node, context = pop()
            placed, fields, _ = shapes.get(node.__class__) or shape(node.__class__)
            if placed:
                file, pl, pc, pel, pec, above = context
                at = getattr(node, "lineno", None)
                if at is None and above is not None:
                    at, node.col_offset, node.end_lineno, node.end_col_offset, node.rc_file = above
                    node.lineno = at
                elif at is not None and at >= _FOREIGN:
                    # a node shared with a function compiled before, which numbered its line
                    at = node.lineno = node.end_lineno = lines[at][1]
                file = getattr(node, "rc_file", None) or file
                if at is not None:
                    above = (at, node.col_offset, node.end_lineno, node.end_col_offset, file)
                    if file != main:
                        n = numbered.get((file, at))
                        if n is None:
                            n = numbered[(file, at)] = _FOREIGN + len(numbered)
                            lines[n] = (file, at)
                        node.lineno = node.end_lineno = n
                else:
                    node.lineno = pl
                if not hasattr(node, "col_offset"):
                    node.col_offset = pc
                if getattr(node, "end_lineno", None) is None:
                    node.end_lineno = pel
                if getattr(node, "end_col_offset", None) is None:
                    node.end_col_offset = pec
                context = (file, node.lineno, node.col_offset, node.end_lineno, node.end_col_offset, above)
            for x in reversed(kids(node, fields)):
                push((x, context))

    def const(self, obj: Any, hint: str = "") -> ast.expr:
        """A reference to `obj` in generated code: a literal when it is one, else a constant."""
        if obj is None or isinstance(obj, (bool, int, str)):
            return P.const(obj)
        key = id(obj)
        ident = self._consts.get(key)
        if ident is None:
            ident = self.fresh("k_" + _ident(hint) if hint else "k")
            self._consts[key] = ident
            self._keep.append(obj)
            self.ns[ident] = obj
        return P.name(ident)

    def named(self, value: Any, hint: str) -> ast.expr:
        """A constant under a name of its own, even a text or a number."""
        ident = self.fresh("k_" + _ident(hint))
        self.ns[ident] = value
        return P.name(ident)

    def helper(self, ident: str, fn: Callable) -> ast.expr:
        """A runtime helper under a fixed name (`h_...`)."""
        key = "h_" + ident
        self.ns.setdefault(key, fn)
        return P.name(key)

    def fresh(self, base: str) -> str:
        """A new global name of the namespace, readable: `base`, `base_2`, ... Counted on from the
        last given for `base` (the names before it are all taken): a rule with a thousand `choose`s
        makes thousands of names of one base, and trying each from `base` took minutes."""
        k = self._last.get(base, 1)
        ident = base if k == 1 else f"{base}_{k}"
        while ident in self._names or ident in self.ns:
            k += 1
            ident = f"{base}_{k}"
        self._names.add(ident)
        self._last[base] = k
        return ident

    def define(self, fn: ast.FunctionDef, rule: str, loc: Loc | None, entry: bool, publish: bool = False,
               unit: bool = False) -> Callable[..., Any]:
        """Compile one generated function. An entry turns any error into a rule error at its
        position (`engine.boundary.fail`). With `publish`, other generated code can call it by
        its name. A unit (a resumable function) holds several rules, known by position."""
        if entry:
            handler = ast.ExceptHandler(P.name("Exception"), "e",
                                        [ast.Raise(P.call(P.name("h_fail"), P.name("e")), None)])
            fn.body = [ast.Try(fn.body, [handler], [], [])]
        module = ast.Module([fn], [])
        filename = loc.file if loc is not None and loc.file else f"<rule {rule}>"
        self._locate(module, loc, filename)
        try:
            code = compile(module, filename, "exec")
        except (SyntaxError, RecursionError, MemoryError) as e:
            raise self._uncompilable(e, rule, loc) from None
        self._register(code, rule, unit)
        local: dict = {}
        exec(code, self.ns, local)  # noqa: S102 - an ast built by this compiler, never parsed text
        made = local[fn.name]
        if publish:
            self.ns[fn.name] = made
        self.generated.append(Generated(rule, loc, fn if self.keep_python else None))
        return made

    def _uncompilable(self, e: Exception, rule: str, loc: Loc | None) -> "Uncompilable":
        """What Python refused of a rule, said to the designer: at the line Python names when it
        is one of the designer's (a loop inside too many blocks), else at the rule."""
        line = getattr(e, "lineno", None) if isinstance(e, SyntaxError) else None
        placed = False
        if line:
            file, line = self._lines.get(line, (getattr(e, "filename", None) or "", line))
            if file and not file.startswith("<"):
                loc, placed = Loc(file, line, max(getattr(e, "offset", None) or 1, 1)), True
        what = ("the game's flow (its setup, phases and steps, compiled together)" if rule == "game"
                else f"rule `{rule}`")
        split = "split it into procedures and functions: each is compiled on its own"
        if isinstance(e, MemoryError):
            message, hint = f"the engine cannot compile {what}: it is too large", split
        elif isinstance(e, RecursionError):
            message = f"the engine cannot compile {what}: it is nested too deeply"
            hint = ("move inner blocks into procedures and parts of long expressions into functions: each "
                    "is compiled on its own")
        elif "nested" in str(e):
            message = (f"the engine cannot compile this loop: it is inside too many others in {what}"
                       if placed else f"the engine cannot compile {what}: its loops are nested too deeply")
            hint = "move the inner loops into a procedure: each procedure is compiled on its own"
        else:
            message, hint = f"the engine cannot compile {what}", split
        report = Report()
        report.add("E108", message, loc, hint)
        return Uncompilable(report)

    def note(self, rule: str, loc: Loc | None, node: ast.AST) -> None:
        """Record the Python of a rule compiled inside another rule's function (a step's block,
        a trigger's `if`), for `explain --python`: written out when asked, once the game is
        compiled and what the function holding it keeps at its waiting points is known."""
        self.generated.append(Generated(rule, loc, node if self.keep_python else None))


# the first line number given to code from another file than its function's (`Codegen._lines`)
_FOREIGN = 10_000_000


def _ident(text: str) -> str:
    """A readable, safe piece of an identifier made from a ruleset's name."""
    safe = "".join(ch if ch.isascii() and (ch.isalnum() or ch == "_") else "_" for ch in text)[:24]
    return safe.strip("_") or "x"


def ident(prefix: str, text: str) -> str:
    return f"{prefix}_{_ident(text)}"

