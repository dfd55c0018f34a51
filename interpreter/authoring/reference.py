"""The built-ins of each board kind as a designer reads them: docs/builtins.md, written from the
kinds' own declarations (a test checks it is current; `python -m interpreter.authoring.reference`
writes it again), so that a signature in the docs is the one the checker holds."""
from __future__ import annotations

import sys
from pathlib import Path

from ..boards import KINDS
from ..library.api import Builtin

DOCS = Path(__file__).resolve().parents[2] / "docs" / "builtins.md"


def _row(b: Builtin) -> str:
    returns = "effect" if b.returns is None else str(b.returns)
    args = "; ".join(f"{p.type}{' (may be left out)' if p.optional else ''}: {p.what}" for p in b.params)
    doc = " ".join((b.doc or "").split())
    return f"| `{b.call_form}` | {returns} | {doc}" + (f" ({args})" if args else "") + " |"


def reference() -> str:
    out = ["# The built-ins of each board kind", "",
           "Written from the board kinds' own declarations (`python -m interpreter.authoring.reference`"
           " writes this file again; a test checks it is current). A board kind's built-ins exist in a "
           "game that has a board of that kind. The core language's functions and effects are in "
           "[dsl-reference.md](dsl-reference.md).", ""]
    for kind in sorted(KINDS.values(), key=lambda k: k.kind):
        out += [f"## `{kind.kind}`", "", "| call | gives | what it does (its arguments) |", "|---|---|---|"]
        out += [_row(b) for b in sorted(kind.builtins, key=lambda b: b.name)]
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    DOCS.write_text(reference(), encoding="utf-8")
    print(f"wrote {DOCS}", file=sys.stderr)
