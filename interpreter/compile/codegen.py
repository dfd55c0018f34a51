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
                 "range": range, "list": list, "map": map, "Exception": Exception}


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
    # what the error boundary asks (`engine.boundary.Source`): each code object's rule, by
    # identity (the code objects are kept, so their ids stay theirs), and the positions of the
    # bodies of functions written into their callers
    _rules: dict[int, str] = field(default_factory=dict)
    _codes: list[CodeType] = field(default_factory=list)
    _inlined: dict[tuple[str, int, int], str] = field(default_factory=dict)

    def __post_init__(self):
        self.ns["h_fail"] = fail
        self.ns[SOURCE] = self

    def rule_of(self, code: CodeType) -> str | None:
        return self._rules.get(id(code))

    def inlined_at(self, loc: Loc) -> str | None:
        return self._inlined.get((loc.file, loc.line, loc.col))

    def inlined(self, locs, rule: str) -> None:
        """The positions of a function's body written into its callers: an error there is the function's."""
        for loc in locs:
            self._inlined[(loc.file, loc.line, loc.col)] = rule

    def _register(self, code: CodeType, rule: str) -> None:
        stack = [code]
        while stack:
            c = stack.pop()
            self._rules[id(c)] = rule
            self._codes.append(c)
            stack.extend(k for k in c.co_consts if isinstance(k, CodeType))

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

    def define(self, fn: ast.FunctionDef, rule: str, loc: Loc | None, entry: bool, publish: bool = False):
        """Compile one generated function. An entry turns any error into a rule error at its
        position (`engine.boundary.fail`). With `publish`, other generated code can call it by
        its name."""
        if entry:
            handler = ast.ExceptHandler(P.name("Exception"), "e",
                                        [ast.Raise(P.call(P.name("h_fail"), P.name("e")), None)])
            fn.body = [ast.Try(fn.body, [handler], [], [])]
        P.place(fn, loc)
        module = ast.Module([fn], [])
        ast.fix_missing_locations(module)
        filename = loc.file if loc is not None and loc.file else f"<rule {rule}>"
        code = compile(module, filename, "exec")
        self._register(code, rule)
        local: dict = {}
        exec(code, self.ns, local)  # noqa: S102 - an ast built by this compiler, never parsed text
        made = local[fn.name]
        if publish:
            self.ns[fn.name] = made
        self.generated.append(Generated(rule, loc, ast.unparse(fn)))
        return made


    def note(self, rule: str, loc: Loc | None, node: ast.AST) -> None:
        """Record the Python of a rule compiled inside another rule's function (a trigger's `if`)."""
        self.generated.append(Generated(rule, loc, ast.unparse(node)))


def _ident(text: str) -> str:
    """A readable, safe piece of an identifier made from a ruleset's name."""
    safe = "".join(ch if ch.isascii() and (ch.isalnum() or ch == "_") else "_" for ch in text)[:24]
    return safe.strip("_") or "x"


def ident(prefix: str, text: str) -> str:
    return f"{prefix}_{_ident(text)}"

