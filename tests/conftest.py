import gc
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# Where PYTHONDONTWRITEBYTECODE is set (as on this project's machines), no process keeps the
# bytecode of what it imports: each test worker, and each process a test starts (a simulation's
# workers, a killed `play`, the web table's bot workers, some 150 in all), compiled the engine's
# source again, 0.5 s each (a clean clone's suite took 190 s where a checkout with its bytecode
# took 152 s; kept, 177 s against the checkout's 178 s in the same, slower, hour). The suite
# keeps it: here, and for the processes it starts.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def pytest_configure(config):
    """Once, before the workers start: the engine's bytecode written (each worker reads it)."""
    if not hasattr(config, "workerinput"):
        import compileall

        compileall.compile_dir(str(ROOT / "interpreter"), quiet=1)

# The suite compiles and plays thousands of games, each making millions of small lists and
# dictionaries that rarely form cycles: Python's collector, run every 700 new objects, took a
# sixth of the suite's processor time (4m43s -> 3m55s), most of it scanning the many compiled
# games a test process keeps. Every 50,000 it finds the same garbage (a game's table is freed by
# its counts); nothing a test checks depends on when it runs (compiling sets its own,
# `base/collect.py`).
gc.set_threshold(50_000, 50, 50)

# What a test process keeps grows to ~2M objects (the games compiled once per process, and the
# cyclic garbage of the compilers' trees), and each full collection walks all of them: ~15 s of a
# worker's processor time. At each new test file what is alive so far is frozen (`gc.freeze`):
# later collections walk only what the file makes (five of the largest test files in one process:
# the collector 6.6 s -> 2.1 s, the run's CPU 54.1 s -> 49.6 s; a worker's memory ~0.8 GB at its
# peak in the whole suite). Garbage frozen so is never freed, which a test process can afford.
_frozen_at = [""]


def pytest_runtest_setup(item):
    if item.path.name != _frozen_at[0]:
        _frozen_at[0] = item.path.name
        gc.freeze()


def stepping_game(game_id: str, name: str, players: tuple[int, int], prompt: str = "step",
                  rounds: int = 3, before_phases: str = "") -> str:
    """A small race for the tests: `rounds` rounds, each seat asked `prompt`, picking one step or
    two (its score ranks it); `before_phases`: sections of the game's own (params, functions)."""
    return f"""\
game: {{id: {game_id}, name: "{name}", players: {{min: {players[0]}, max: {players[1]}}}}}
state:
  score: {{of: seat}}
{before_phases}phases:
  - id: main
    order: "seats"
    turn: s
    steps:
      - id: go
        do: |
          choose "{prompt}" by s:
              option "one":
                  s.score += 1
              option "two":
                  s.score += 2
    rounds: {rounds}
result:
  rank: "seat.score"
"""


# a season of two games of the game beside it, its standings by each seat's `score`
TWO_GAMES = """\
season: {name: Two, description: two games}
races:
  - {}
  - {}
standings: {by: [score]}
"""


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    """A racecraft command run here: its exit code, output and error stream (never a traceback)."""
    from interpreter.cli import main

    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out, err


def serve_in_thread(db):
    """The web table on a free port of 127.0.0.1, in a thread of this process: (its address, a
    function that stops it)."""
    import socket
    import threading
    import time

    import uvicorn

    from interpreter.web.app import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(create_app(db), host="127.0.0.1", port=port, log_level="warning",
                            timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    end = time.monotonic() + 15
    while not server.started:
        assert time.monotonic() < end, "the web table did not start"
        time.sleep(0.02)

    def stop():
        server.should_exit = True
        thread.join(5)

    return f"http://127.0.0.1:{port}", stop


# the packages a loaded or compiled game is made by: a patch of one of them may change what is made
_MAKERS = tuple(f"interpreter.{p}" for p in ("base", "lang", "library", "draw", "boards", "ir", "load",
                                             "check", "engine", "compile"))


def _module_of(target) -> str:
    if isinstance(target, str):
        return target
    return getattr(target, "__module__", None) or getattr(target, "__name__", None) or type(target).__module__


class _Patches(pytest.MonkeyPatch):
    """`monkeypatch`, which also knows whether a test patched how games are loaded or compiled
    (`_MAKERS`): games loaded and compiled once are kept in the process (`load_ruleset`,
    `compile_ruleset`), so such a test loads and compiles its games afresh from its first such
    patch on, and leaves none made under its patches. A patch of anything else (the environment,
    the working folder, a terminal's input, a command's progress bar: what most tests patch) keeps
    them, as the files they were made from are checked each time they are asked for."""
    patched_makers = False

    def _touch(self, target) -> None:
        if not self.patched_makers and _module_of(target).startswith(_MAKERS):
            _forget()
            self.patched_makers = True

    def setattr(self, target, *args, **kwargs):
        self._touch(target)
        return super().setattr(target, *args, **kwargs)

    def delattr(self, target, *args, **kwargs):
        self._touch(target)
        return super().delattr(target, *args, **kwargs)


def _forget() -> None:
    from interpreter.compile import forget_compiled
    from interpreter.load.ruleset import forget_loaded
    forget_compiled()
    forget_loaded()


@pytest.fixture
def monkeypatch():
    mp = _Patches()
    yield mp
    mp.undo()
    if mp.patched_makers:
        _forget()


@pytest.fixture(autouse=True, scope="session")
def _own_user_folders(tmp_path_factory):
    """`validate` keeps its verdicts in the user's cache folder, `play` its games in the user's data
    folder: the suite's go to folders of its own (one per test process), so that the suite leaves
    nothing in the user's."""
    old = {name: os.environ.get(name) for name in ("XDG_CACHE_HOME", "XDG_DATA_HOME")}
    for name in old:
        os.environ[name] = str(tmp_path_factory.mktemp(name.split("_")[1].lower()))
    yield
    for name, value in old.items():
        if value is None:
            del os.environ[name]
        else:
            os.environ[name] = value
