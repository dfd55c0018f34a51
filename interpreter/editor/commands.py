"""`racecraft lsp`: the language server for editors (`server.py`). The command line imports this
module to list the command; the server, and pygls with it, are imported when it runs."""
from __future__ import annotations

import argparse
import sys
from typing import Any


def add_lsp(sub: Any) -> None:
    p = sub.add_parser("lsp", help="a language server for editors: checks as you type, completion, "
                                   "hover, definitions")
    p.add_argument("--stdio", action="store_true",
                   help="talk over standard input and output (the only way; editors that pass it may)")
    p.set_defaults(fn=cmd_lsp)


COMMANDS = {"lsp": add_lsp}


def cmd_lsp(args: argparse.Namespace) -> int:
    try:
        from .server import serve
    except ImportError as e:
        if e.name not in ("pygls", "lsprotocol") and not str(e.name).startswith(("pygls.", "lsprotocol.")):
            raise
        from ..lab.extras import install_hint

        print("racecraft lsp: the language server needs pygls and lsprotocol, which Racecraft's editor extra "
              f"installs: {install_hint('editor')}", file=sys.stderr)
        return 1
    return serve()
