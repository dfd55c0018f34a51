"""Nothing lost, nothing exposed (issue #28): what every command writes, reads and keeps when things go
wrong. Writes are atomic and never replace what is not a regular file; a full disk (a file-size limit
in a child process, `/dev/full`) fails naming the file and leaves the old one whole; records and saves
are journals that survive real signals sent to a real process; a file given to read is checked for
its kind and size first, and its content never echoed beyond a short excerpt."""
from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.lang.files import CannotWrite, write_atomic

ROOT = Path(__file__).resolve().parents[1]

# A small two-seat game of six decisions a game, that carries its score from game to game.
GAME = """\
game: {id: tiny, name: "Tiny", players: {min: 2, max: 2}}
state:
  score: {of: seat}
phases:
  - id: main
    order: "seats"
    turn: s
    steps:
      - id: go
        do: |
          choose "pick" by s:
              option "one":
                  s.score += 1
              option "two":
                  s.score += 2
    rounds: 3
result:
  rank: "seat.score"
carry:
  seat: [score]
"""
SEASON = """\
season: {name: Two, description: two games}
races:
  - {}
  - {}
standings: {by: [score]}
"""


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A project folder with the tiny game (rulesets/tiny) and its season `two`, as the current folder."""
    game = tmp_path / "rulesets" / "tiny"
    (game / "seasons").mkdir(parents=True)
    (game / "game.yaml").write_text(GAME, encoding="utf-8")
    (game / "seasons" / "two.yaml").write_text(SEASON, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(capsys, *argv) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out, err


def _limited(size: int):
    """In the child: files of at most `size` bytes (a full disk), a write past it an error (EFBIG)
    rather than the signal that would kill the process."""
    def limit():
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return limit


def racecraft(*argv, cwd: Path, stdin: str = "", file_limit: int | None = None):
    """The command in a process of its own (a file-size limit applies to it alone)."""
    return subprocess.run([sys.executable, "-m", "interpreter.cli", *map(str, argv)], cwd=cwd, input=stdin,
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)},
                          preexec_fn=_limited(file_limit) if file_limit is not None else None)


def leftovers(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.endswith(".part")]


# ---- 1. a target that is not a regular file is refused; every write is atomic ---------------------

@pytest.mark.parametrize("option", ["--log", "--export", "--csv", "render"])
def test_a_named_pipe_or_a_device_is_never_replaced(project, capsys, option):
    fifo = project / "pipe"
    os.mkfifo(fifo)
    link = project / "null"
    link.symlink_to("/dev/null")
    for target in (fifo, link):
        if option == "--log":
            argv = ["play", "tiny", "--seats", "random,random", "--log", target]
        elif option == "--save":
            argv = ["championship", "tiny", "--season", "two", "--seats", "random,random", "--save", target]
        elif option == "render":
            argv = ["render", "rulesets/tiny", "-o", target]
        else:
            argv = ["simulate", "tiny", "--games", "2", "--jobs", "1", option, target]
        rc, out, err = run(capsys, *argv)
        assert rc in (1, 2) and str(target) in err, err
        assert "named pipe" in err or "device" in err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and os.path.islink(link)
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_regular_file_is_replaced_whole_keeping_its_permissions(project, capsys):
    log = project / "game.jsonl"
    log.write_text("old\n", encoding="utf-8")
    os.chmod(log, 0o640)
    rc, out, err = run(capsys, "play", "tiny", "--seats", "random,random", "--log", log)
    assert rc == 0, err
    lines = log.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["type"] == "game" and json.loads(lines[-1])["type"] == "result"
    assert stat.S_IMODE(os.stat(log).st_mode) == 0o640
    assert leftovers(project) == []


def test_a_link_to_a_file_writes_the_file_it_points_to(project, capsys):
    real = project / "real.jsonl"
    real.write_text("", encoding="utf-8")
    (project / "link.jsonl").symlink_to(real)
    rc, out, err = run(capsys, "play", "tiny", "--seats", "random,random", "--log", project / "link.jsonl")
    assert rc == 0, err
    assert os.path.islink(project / "link.jsonl") and real.read_text(encoding="utf-8").count("\n") == 8


def test_a_write_that_fails_leaves_the_old_file_and_names_it(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("the old content\n", encoding="utf-8")
    script = ("import sys; from pathlib import Path\n"
              "from interpreter.lang.files import write_atomic, CannotWrite\n"
              "try:\n    write_atomic(Path(sys.argv[1]), 'x' * 100_000)\n"
              "except CannotWrite as e:\n    print(e)\n")
    done = subprocess.run([sys.executable, "-c", script, str(target)], capture_output=True, text=True,
                          timeout=30, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          preexec_fn=_limited(50_000))
    assert f"cannot write {target}: File too large" in done.stdout, done.stderr
    assert target.read_text(encoding="utf-8") == "the old content\n"
    assert leftovers(tmp_path) == []


def test_a_write_to_a_full_device_is_refused_naming_it():
    with pytest.raises(CannotWrite, match="cannot write /dev/full: it is a device"):
        write_atomic(Path("/dev/full"), "x")


# ---- 4. one output that fails keeps none of the others from being written -----------------------

def test_a_full_disk_for_one_output_still_writes_the_others_and_names_the_failed_one(project):
    export, csv = project / "games.jsonl", project / "games.csv"
    export.write_text("the old export\n", encoding="utf-8")
    # 40 games: the JSON lines take about 9 kB, the CSV about 2 kB; files of at most 5 kB
    done = racecraft("simulate", "tiny", "--games", "40", "--jobs", "1", "--export", export, "--csv", csv,
                     cwd=project, file_limit=5_000)
    assert done.returncode == 1, done.stderr
    assert f"racecraft simulate: error: cannot write {export}: File too large" in done.stderr
    assert export.read_text(encoding="utf-8") == "the old export\n"
    assert csv.read_text(encoding="utf-8").count("\n") == 41 and f"40 games written to {csv}" in done.stderr
    assert leftovers(project) == []


def test_dev_full_is_refused_before_anything_is_played(project, capsys):
    rc, out, err = run(capsys, "simulate", "tiny", "--games", "2", "--export", "/dev/full", "--csv", "c.csv")
    assert rc == 2 and "--export /dev/full: it is a device" in err and out == ""
