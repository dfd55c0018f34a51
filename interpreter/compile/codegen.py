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
from ..lang.diagnostics import Loc
from . import pyast as P

# The Python built-ins generated code may call (and nothing else of Python's).
SAFE_BUILTINS = {"len": len, "sum": sum, "min": min, "max": max, "any": any, "all": all, "abs": abs,
                 "range": range, "list": list, "dict": dict, "map": map, "Exception": Exception}


@dataclass
class Generated:
    rule: str
    loc: Loc | None
    python: str


@dataclass
class Codegen:
    ns: dict = field(default_factory=lambda: {"__builtins__": dict(SAFE_BUILTINS)})
    generated: list[Generated] = field(default_factory=list)
    _consts: dict = field(default_factory=dict)   # id(obj) -> name
    _keep: list = field(default_factory=list)     # keeps constants alive (their ids stay theirs)
    _names: set = field(default_factory=set)
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
    # rules compiled inside a function not yet defined: written out with it (`note`)
    _notes: list[tuple[Generated, ast.AST]] = field(default_factory=list)

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

    def _number(self, node: ast.AST, main: str, file: str) -> None:
        """Lines of another file than the function's own get numbers of their own (`_lines`)."""
        file = getattr(node, "rc_file", None) or file
        line = getattr(node, "lineno", None)
        if line is not None and file != main:
            n = self._numbered.get((file, line))
            if n is None:
                n = self._numbered[(file, line)] = _FOREIGN + len(self._numbered)
                self._lines[n] = (file, line)
            node.lineno = node.end_lineno = n  # type: ignore[attr-defined]
        for child in ast.iter_child_nodes(node):
            self._number(child, main, file)

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
        """A new global name of the namespace, readable: `base`, `base_2`, ..."""
        ident = base
        k = 1
        while ident in self._names or ident in self.ns:
            k += 1
            ident = f"{base}_{k}"
        self._names.add(ident)
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
        P.place(fn, loc)
        module = ast.Module([fn], [])
        filename = loc.file if loc is not None and loc.file else f"<rule {rule}>"
        self._number(module, filename, filename)
        ast.fix_missing_locations(module)
        code = compile(module, filename, "exec")
        self._register(code, rule, unit)
        local: dict = {}
        exec(code, self.ns, local)  # noqa: S102 - an ast built by this compiler, never parsed text
        made = local[fn.name]
        if publish:
            self.ns[fn.name] = made
        self.generated.append(Generated(rule, loc, ast.unparse(fn)))
        return made


    def note(self, rule: str, loc: Loc | None, node: ast.AST) -> None:
        """Record the Python of a rule compiled inside another rule's function (a step's block,
        a trigger's `if`), for `explain --python`: written out when the game is compiled
        (`write_notes`), when what the function holding it keeps at its waiting points is known."""
        g = Generated(rule, loc, "")
        self.generated.append(g)
        self._notes.append((g, node))

    def write_notes(self) -> None:
        """Write out the rules `note` recorded (the game compiled: every function is complete)."""
        for g, node in self._notes:
            g.python = ast.unparse(node)
        self._notes.clear()


# the first line number given to code from another file than its function's (`Codegen._lines`)
_FOREIGN = 10_000_000


def _ident(text: str) -> str:
    """A readable, safe piece of an identifier made from a ruleset's name."""
    safe = "".join(ch if ch.isascii() and (ch.isalnum() or ch == "_") else "_" for ch in text)[:24]
    return safe.strip("_") or "x"


def ident(prefix: str, text: str) -> str:
    return f"{prefix}_{_ident(text)}"

