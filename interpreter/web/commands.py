"""`racecraft serve`: the web table, for browsers on this machine (or, told so, on the network).

The command line imports this module to list its commands: a command imports what it runs
when it runs (inside its function), so that `racecraft --help` and any command start in
tens of milliseconds (tests/test_layout.py keeps the start small)."""
from __future__ import annotations

import ipaddress
import sys
from pathlib import Path

from ..session.args import Usage, bounded


def add_serve(sub) -> None:
    sv = sub.add_parser("serve", help="serve every game to browsers: a lobby, a table per seat, replays")
    sv.add_argument("--host", default="127.0.0.1",
                    help="the address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: every "
                         "network the machine is on)")
    sv.add_argument("--port", type=bounded(0, 65535), default=8000, help="the port (default 8000)")
    sv.add_argument("--db", metavar="FILE",
                    help="the SQLite file the tables are kept in (default: tables.db in the user's data "
                         "folder, $XDG_DATA_HOME/racecraft or ~/.local/share/racecraft)")
    sv.add_argument("--max-open", type=bounded(1, 100_000), default=500, metavar="N",
                    help="tables in play at once, at most (default 500): past it, creating one is refused")
    sv.add_argument("--per-minute", type=bounded(1, 100_000), default=30, metavar="N",
                    help="tables or records one address may open in a minute (default 30)")
    sv.add_argument("--archive-after", type=bounded(0, 36_500), default=30, metavar="DAYS",
                    help="an unfinished table nobody touched for this many days is archived at the start: "
                         "kept, not rebuilt until a seat's link opens it (default 30; 0: never)")
    sv.set_defaults(fn=cmd_serve)


COMMANDS = {"serve": add_serve}


def loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def cmd_serve(args) -> int:
    from .store import default_path

    db = Path(args.db) if args.db else default_path()
    if db.is_dir():
        raise Usage(f"--db {db}: that is a folder; give the database's file name")
    try:
        import uvicorn

        from .app import create_app
    except ImportError as e:  # pragma: no cover - a partial install
        raise Usage(f"the web table needs FastAPI and uvicorn ({e.name} is missing): "
                    "pip install fastapi uvicorn") from None
    # on loopback, only requests addressed to this machine by name (not another site's DNS name)
    from .registry import Limits
    from .store import StoreError
    limits = Limits(args.max_open, args.per_minute, args.archive_after * 86400)
    hosts = ["127.0.0.1", "localhost", "::1", "[::1]"] if loopback(args.host) else None
    try:
        app = create_app(db, hosts=hosts, limits=limits)
    except StoreError as e:
        print(f"racecraft serve: {e}", file=sys.stderr)
        return 1
    where = f"http://{'localhost' if loopback(args.host) else args.host}:{args.port}/"
    print(f"racecraft serve: the lobby is at {where} (tables kept in {db}); Ctrl-C stops", file=sys.stderr)
    if not loopback(args.host):
        print("racecraft serve: listening beyond this machine: anybody who can reach it can create "
              "tables; a seat's link is its key", file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", timeout_graceful_shutdown=2)
    return 0
