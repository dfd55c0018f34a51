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
import time
from pathlib import Path

import pytest

from conftest import TWO_GAMES, stepping_game
from interpreter.cli import main
from interpreter.base.files import CannotWrite, write_atomic

ROOT = Path(__file__).resolve().parents[1]

# A small two-seat game of six decisions a game, that carries its score from game to game.
GAME = stepping_game("tiny", "Tiny", (2, 2), prompt="pick") + "carry:\n  seat: [score]\n"


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A project folder with the tiny game (rulesets/tiny) and its season `two`, as the current folder."""
    game = tmp_path / "rulesets" / "tiny"
    (game / "seasons").mkdir(parents=True)
    (game / "game.yaml").write_text(GAME, encoding="utf-8")
    (game / "seasons" / "two.yaml").write_text(TWO_GAMES, encoding="utf-8")
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

@pytest.mark.parametrize("option", ["--log", "--save", "--export", "--csv", "render"])
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
              "from interpreter.base.files import write_atomic, CannotWrite\n"
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


# ---- 2, 3. a game record is a journal: a failed write or a stop keeps every decision taken -------

def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _wait_for_lines(path: Path, n: int, proc: subprocess.Popen) -> None:
    """Until the file has `n` lines (the game is waiting for the person's next decision)."""
    end = time.monotonic() + 30
    while time.monotonic() < end:
        if path.exists() and path.read_text(encoding="utf-8").count("\n") >= n:
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.02)
    raise AssertionError(f"{path} never had {n} lines")


def _started(argv: list, cwd: Path, typed: str) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "interpreter.cli", *map(str, argv)], cwd=cwd,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdin is not None
    proc.stdin.write(typed)
    proc.stdin.flush()
    return proc


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM, signal.SIGKILL])
def test_a_game_stopped_by_a_signal_keeps_every_decision_and_resumes(project, capsys, sig):
    log = project / "game.jsonl"
    # the person takes two decisions, the bot answers each; then the person is asked the third
    proc = _started(["play", "tiny", "--seats", "human,random", "--log", log], project, "a\nb\n")
    _wait_for_lines(log, 5, proc)
    time.sleep(0.1)  # the person's screen is up, reading the next line
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    kept = _records(log)
    assert [r["type"] for r in kept] == ["game"] + ["decision"] * 4
    assert [r["pick"] for r in kept[1:] if r["seat"] == 0] == [0, 1]
    if sig != signal.SIGKILL:  # ended as Ctrl-C ends a game: said where to go on from
        assert proc.returncode == 1 and f"game abandoned (go on with: racecraft play --resume {log})" in err
    rc, out, err = run(capsys, "play", "--resume", log, "--seats", "random,random")
    assert rc == 0 and "resumed after 4 decisions" in out, err
    again = _records(log)
    assert again[1:5] == kept[1:5] and again[-1]["type"] == "result" and len(again) == 8
    assert run(capsys, "replay", log)[0] == 0


def test_a_resumed_game_appends_to_its_record_and_a_full_disk_leaves_it_whole(project, capsys, monkeypatch):
    import io

    log = project / "game.jsonl"
    monkeypatch.setattr("sys.stdin", io.StringIO("a\n"))
    assert run(capsys, "play", "tiny", "--seats", "human,random", "--log", log)[0] == 1
    before = log.read_bytes()
    inode = os.stat(log).st_ino
    # a disk with no room left for the record: the resumed game fails, naming it, and the record is whole
    for seats in ("human,random", "random,random"):  # appended to; written again (other seats)
        done = racecraft("play", "--resume", log, "--seats", seats, cwd=project, stdin="b\n" * 6,
                         file_limit=len(before))
        assert done.returncode == 1 and f"cannot write {log}: File too large" in done.stderr, done.stderr
        assert log.read_bytes() == before and leftovers(project) == []
    # with room, the same seats: appended in place (the same file, its first lines untouched)
    monkeypatch.setattr("sys.stdin", io.StringIO("b\n" * 6))
    assert run(capsys, "play", "--resume", log)[0] == 0
    assert os.stat(log).st_ino == inode and log.read_bytes().startswith(before)
    assert _records(log)[-1]["type"] == "result"


def test_a_record_whose_last_line_was_cut_short_is_read_without_it(project, capsys):
    log = project / "game.jsonl"
    assert run(capsys, "play", "tiny", "--seats", "random,random", "--log", log)[0] == 0
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    log.write_text("".join(lines[:4]) + lines[4][:30], encoding="utf-8")  # killed while writing line 5
    rc, out, err = run(capsys, "replay", log)
    assert rc == 1 and "the record ends before the game does" in out
    assert "last line was cut short" in err
    rc, out, err = run(capsys, "play", "--resume", log, "--seats", "random,random")
    assert rc == 0 and "resumed after 3 decisions" in out
    assert [r["type"] for r in _records(log)] == ["game"] + ["decision"] * 6 + ["result"]


# ---- 12, 14. a record is checked once, the same way, by every command that reads one -------------

def _recorded(project: Path, capsys) -> tuple[Path, list[str]]:
    log = project / "game.jsonl"
    assert run(capsys, "play", "tiny", "--seats", "random,random", "--log", log)[0] == 0
    return log, log.read_text(encoding="utf-8").splitlines()


READERS = [["replay", "{}"], ["play", "--resume", "{}"], ["render", "{}"]]


def _refused_by_every_reader(capsys, log: Path, *words: str) -> None:
    for argv in READERS:
        rc, out, err = run(capsys, *[a.format(log) for a in argv])
        # nothing played: at most the first line, naming the game
        assert rc == 1 and out.count("\n") <= 1 and "Result" not in out, (argv, out)
        for w in words:
            assert w in err, (argv, err)
        assert len(err) < 2000 and "internal error" not in err


@pytest.mark.parametrize("key, value, words", [
    ("players", 10**12, ["`players` is not a whole number from 1 to 16", "game.jsonl:1:1"]),
    ("players", 10**9, ["`players` is not a whole number from 1 to 16"]),
    ("seed", -1, ["`seed` is not a whole number from 0 to 2**63-1"]),
    ("variants", ["../../etc"], ["`variants` is not a list of at most 100 names"]),
    ("seed", "DIGITS", ["its first line holds a number of 5,000 digits (at most 20)"]),
])
def test_a_header_no_game_has_is_refused_at_its_line(project, capsys, key, value, words):
    log, lines = _recorded(project, capsys)
    head = json.loads(lines[0])
    head[key] = 0 if value == "DIGITS" else value
    text = json.dumps(head)
    if value == "DIGITS":
        text = text.replace('"seed": 0', '"seed": ' + "7" * 5000)
    log.write_text("\n".join([text, *lines[1:]]) + "\n", encoding="utf-8")
    _refused_by_every_reader(capsys, log, *words)


def test_a_decision_no_game_has_is_refused_at_its_line(project, capsys):
    log, lines = _recorded(project, capsys)
    d = json.loads(lines[2])
    for pick, words in [("9" * 5000, "a number of 5,000 digits"),
                        ("true", "its `pick` is not an option's number"),
                        ("-3", "its `pick` is not an option's number")]:
        bad = json.dumps({**d, "pick": 0}).replace('"pick": 0', f'"pick": {pick}')
        log.write_text("\n".join([*lines[:2], bad, *lines[3:]]) + "\n", encoding="utf-8")
        _refused_by_every_reader(capsys, log, "game.jsonl:3:", words)


def test_a_recorded_label_the_game_does_not_offer_is_refused_by_replay_and_resume_alike(project, capsys):
    log, lines = _recorded(project, capsys)
    d = json.loads(lines[1])
    d["label"] = "three" if d["label"] != "three" else "four"
    log.write_text("\n".join([lines[0], json.dumps(d), *lines[2:]]) + "\n", encoding="utf-8")
    _refused_by_every_reader(capsys, log, "error[E306]: decision 1: recorded \"three\" but the game offers")


# ---- 7, 8. a file given to read: its kind and size first, its content never shown ---------------

READS = [["replay"], ["play", "--resume"], ["render"], ["championship", "--resume"]]
SECRET = "root:$6$secret-hash-never-shown:19000:0:99999:7:::"


@pytest.mark.parametrize("reader", READS)
def test_a_link_to_another_file_shows_nothing_of_it(project, capsys, reader):
    secret = project / "shadow"
    secret.write_text(SECRET + "\n", encoding="utf-8")
    link = project / "record.jsonl"
    link.symlink_to(secret)
    rc, out, err = run(capsys, *reader, link)
    assert rc in (1, 2) and "secret" not in out + err, err
    huge = project / "huge.jsonl"
    huge.write_text("x" * 10_000_000, encoding="utf-8")  # a 10 MB line
    rc, out, err = run(capsys, *reader, huge)
    assert rc in (1, 2) and len(out + err) < 1000, err[:2000]


class _Hung(Exception):
    pass


def _hung(signum, frame):
    raise _Hung


@pytest.mark.parametrize("reader", READS)
def test_a_named_pipe_or_an_endless_device_is_refused_unread(project, capsys, reader):
    os.mkfifo(project / "pipe")
    (project / "zero").symlink_to("/dev/zero")
    old = signal.signal(signal.SIGALRM, _hung)  # a read that blocks or never ends fails the test
    try:
        for name, why in (("pipe", "named pipe"), ("zero", "device")):
            signal.alarm(10)
            rc, out, err = run(capsys, *reader, name)
            signal.alarm(0)
            assert rc in (1, 2) and why in err, err
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


# ---- 3, 5, 13. a season's save: journaled, named portably, checked ------------------------------

def _save(path: Path) -> tuple[dict, list[dict]]:
    first, *rest = path.read_text(encoding="utf-8").splitlines()
    return json.loads(first), [json.loads(x) for x in rest]


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGHUP])
def test_a_season_with_a_person_killed_mid_game_resumes_from_its_last_decision(project, sig):
    save = project / "season.json"
    proc = _started(["championship", "tiny", "--season", "two", "--seats", "human,random", "--save", save],
                    project, "b\na\n")
    _wait_for_lines(save, 5, proc)  # the series, then the four decisions taken
    time.sleep(0.1)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    series, journaled = _save(save)
    if sig == signal.SIGKILL:  # the decisions are journaled lines after the series
        assert series["played"] == []
        assert [(p["game"], p["n"]) for p in journaled] == [(0, k) for k in range(4)]
        picks = [p["pick"] for p in journaled]
    else:  # stopped as by Ctrl-C: saved whole, the game under way with its decisions
        assert "season saved to" in out and journaled == []
        picks = series["played"][0]["picks"]
    assert picks[0::2] == [1, 0]  # the person's: option two, then option one
    # resumed: the person is asked only what is left of game 1 (one decision), then game 2 (three)
    done = racecraft("championship", "--resume", save, cwd=project, stdin="b\n" * 4)
    assert done.returncode == 0 and "Champion:" in done.stdout, done.stderr
    assert done.stdout.count("Choose a or b") == 4
    series, journaled = _save(save)
    assert series["played"][0]["picks"][:4] == picks and journaled == []


def test_a_season_killed_after_an_undo_resumes_from_the_decisions_kept(project):
    """An undo in a season's race writes the save again with the decisions kept: the journal's
    lines of the decisions taken back would disagree with those taken instead."""
    save = project / "season.json"
    # option two, the bot answers; then undo (taking back option two), and option one instead
    proc = _started(["championship", "tiny", "--season", "two", "--seats", "human,random", "--save", save],
                    project, "b\nu\na\n")
    end = time.monotonic() + 30
    while True:
        series, journaled = _save(save) if save.exists() else ({}, [])
        if [p["n"] for p in journaled] == [0, 1] and journaled[0]["pick"] == 0:
            break  # the person is asked decision 3 after the undo
        assert proc.poll() is None and time.monotonic() < end, proc.communicate()
        time.sleep(0.02)
    time.sleep(0.1)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    series, journaled = _save(save)
    assert series["played"] == [{"picks": [], "digest": series["played"][0]["digest"]}]
    picks = [p["pick"] for p in journaled]
    done = racecraft("championship", "--resume", save, cwd=project, stdin="b\n" * 5)
    assert done.returncode == 0 and "Champion:" in done.stdout, done.stderr
    assert "resumed after 2 decisions" in done.stdout
    series, journaled = _save(save)
    assert series["played"][0]["picks"][:2] == picks and journaled == []


def test_a_season_started_from_a_path_is_saved_by_name_or_relative_path_and_resumes(project, capsys):
    import shutil

    elsewhere = project / "games" / "mine"
    shutil.copytree(project / "rulesets" / "tiny", elsewhere)
    for given, named in (("./rulesets/tiny", "tiny"), (str(elsewhere), "games/mine")):
        save = project / "s.json"
        rc, out, err = run(capsys, "championship", given, "--season", "two", "--seats", "random,random",
                           "--save", save, "--stop-after", "1")
        assert rc == 0, err
        series, _ = _save(save)
        assert series["game"] == named and str(project) not in save.read_text(encoding="utf-8")
        rc, out, err = run(capsys, "championship", "--resume", save)
        assert rc == 0 and "Champion:" in out, err


@pytest.mark.parametrize("change, words", [
    (lambda s: s["played"][0]["result"].pop("order"), "game 1: its result's `order` is not a list of seats"),
    (lambda s: s["played"].extend([{"picks": []}, {"picks": []}, {"picks": []}]),
     "game 2 is unfinished, but a game after it was played"),
    (lambda s: s.update(seats=["random"] * 10**6), "`seats` are 1 to 16 of human"),
    (lambda s: s.update(seed="DIGITS"), "not a saved season: a number of 5,000 digits (at most 20)"),
    (lambda s: s.update(game="/etc"), "`game` is not a game's name or a relative path"),
])
def test_a_save_no_season_has_is_refused(project, capsys, change, words):
    save = project / "s.json"
    assert run(capsys, "championship", "tiny", "--season", "two", "--seats", "random,random", "--save", save,
               "--stop-after", "1")[0] == 0
    series, _ = _save(save)
    change(series)
    save.write_text(json.dumps(series).replace('"DIGITS"', "7" * 5000) + "\n", encoding="utf-8")
    rc, out, err = run(capsys, "championship", "--resume", save)
    assert rc == 1 and "E173" in err and words in err and len(err) < 1000, err


# ---- 9, 14. seasons that include each other: counted as they grow, cycles found by validate -------

def test_seasons_that_double_at_each_include_stop_at_the_games_limit_at_once(project, capsys):
    seasons = project / "rulesets" / "tiny" / "seasons"
    for k in range(30):  # season k includes season k+1 twice: 2**30 games
        body = "races:\n  - {}\n" if k == 29 else f"include: [s{k + 1}, s{k + 1}]\n"
        (seasons / f"s{k}.yaml").write_text(f"season: {{name: S{k}, description: x}}\n{body}"
                                            "standings: {by: [score]}\n", encoding="utf-8")
    start = time.monotonic()
    rc, out, err = run(capsys, "championship", "tiny", "--season", "s0", "--seats", "random,random")
    assert rc == 1 and "E172" in err and "more than 100 games" in err and "s22.yaml:2:" in err, err
    assert time.monotonic() - start < 5
    # seasons that add no game but read each other over and over: the reads are counted too
    for k in range(30):
        body = "races: []\n" if k == 29 else f"include: [e{k + 1}, e{k + 1}]\n"
        (seasons / f"e{k}.yaml").write_text(f"season: {{name: E{k}, description: x}}\n{body}"
                                            "standings: {by: [score]}\n", encoding="utf-8")
    rc, out, err = run(capsys, "championship", "tiny", "--season", "e0", "--seats", "random,random")
    assert rc == 1 and "reads more than 1000 season files" in err, err


def test_validate_finds_seasons_that_include_each_other(project, capsys):
    seasons = project / "rulesets" / "tiny" / "seasons"
    tail = "standings: {by: [score]}\n"
    (seasons / "a.yaml").write_text("season: {name: A, description: x}\ninclude: [b]\n" + tail)
    (seasons / "b.yaml").write_text("season: {name: B, description: x}\ninclude: [a]\n" + tail)
    rc, out, err = run(capsys, "validate", "rulesets/tiny")
    assert rc == 1 and "error[E171]: season `b` includes `a`, which includes it (a → b → a)" in err
    assert "b.yaml:2:11" in err
    (seasons / "b.yaml").write_text("season: {name: B, description: x}\nraces: [{}]\n" + tail)
    rc, out, err = run(capsys, "validate", "rulesets/tiny")
    assert rc == 0 and "seasons: a (1 game), b (1 game), two (2 games)" in out, err


def test_a_ten_megabyte_line_in_a_record_is_shown_as_a_short_excerpt(project, capsys):
    log, lines = _recorded(project, capsys)
    log.write_text("\n".join([lines[0], "{" + "x" * 10_000_000, *lines[1:]]) + "\n", encoding="utf-8")
    rc, out, err = run(capsys, "replay", log)
    assert rc == 1 and "game.jsonl:2:2: error[E302]: not a JSON line" in err and len(err) < 1000, err[:3000]


# ---- 14. the search bot's budget: capped, and a bot out of time is said as the bot's --------------

def test_a_search_bot_out_of_time_is_said_as_the_bots_not_as_a_rules(project):
    from interpreter.agents.kinds import BOTS
    from interpreter.engine.game import Game
    from interpreter.base.errors import RuleError
    from interpreter.session.budget import budget
    from interpreter.session.load import load
    from interpreter.session.playing import play

    plan = load("formula5").plan(2)
    bots = [BOTS["mcts:1000"]("1/0"), BOTS["random"]("1/1")]
    with pytest.raises(RuleError) as e:  # 0.02 s of processor time in place of 10 s
        play(Game(plan, 1), bots, guard=lambda: budget(seconds=0.02))
    assert str(e.value).startswith("the search bot of seat 1 took more than 10 seconds")
    assert e.value.loc is None
    assert "give it a smaller budget, e.g. mcts:100" in str(e.value)


# ---- 13. a cell's outline that `render` cannot draw is refused by `validate` ---------------------

@pytest.mark.parametrize("shape", ["0,45 0,15 1.2.3,15 33,45", "0,45 0,15 " + "9" * 400 + ",15 33,45"])
def test_an_outline_render_cannot_draw_is_refused_by_validate_and_render_alike(tmp_path, capsys, shape):
    track = tmp_path / "track.yaml"
    text = (ROOT / "tracks" / "downforce" / "lakeshore-bay.yaml").read_text(encoding="utf-8")
    first = text.index('shape: "') + len('shape: "')
    track.write_text(text[:first] + shape + text[text.index('"', first):], encoding="utf-8")
    for argv in (["validate", track], ["render", track, "-o", tmp_path / "t.svg"]):
        rc, out, err = run(capsys, *argv)
        assert rc == 1 and "track.yaml:" in err and "shape" in err and "internal error" not in err, err
        assert len(err) < 2000
    assert not (tmp_path / "t.svg").exists()


# ---- 11. the screen caps what it draws -----------------------------------------------------------

BIG = """\
game: {id: big, name: "Big", players: {min: 2, max: 2}}
state:
  grid: {of: game, type: "list[list[int]]"}
phases:
  - id: main
    order: "seats"
    turn: s
    steps:
      - id: go
        do: |
          let row = [0 for i in 1..20000]
          grid = [row for i in 1..20000]
          choose "pick" by s:
              option "one":
                  pass
              option "two":
                  pass
    rounds: 1
result:
  rank: "0"
"""


def test_a_table_holding_four_hundred_million_values_is_drawn_at_once(tmp_path, capsys, monkeypatch):
    import io

    game = tmp_path / "big"
    game.mkdir()
    (game / "game.yaml").write_text(BIG, encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO("a\n"))
    start = time.monotonic()
    rc, out, err = run(capsys, "play", game, "--seats", "human,random")
    assert rc == 0 and time.monotonic() - start < 10, err
    line = out.split("Final table:\n")[1].splitlines()[0]
    assert line.startswith("Big · round 1 · grid 0, 0, 0")
    assert line.endswith("... (20,000 in all), ... (20,000 in all)")
    assert len(line) < 400


def test_a_diagnostic_never_reads_a_named_pipe_to_show_its_line(tmp_path):
    """The error display quotes a file's line: it reads it only as any file is read (its kind and
    size first), so a diagnostic placed in a named pipe or /dev/zero prints at once, without a line."""
    from interpreter.base.diagnostics import SOURCES, Loc, Report

    os.mkfifo(tmp_path / "pipe")
    report = Report()
    for name in (str(tmp_path / "pipe"), "/dev/zero"):
        SOURCES.pop(name, None)
        report.add("E001", "refused", Loc(name, 1, 1))
    old = signal.signal(signal.SIGALRM, _hung)
    try:
        signal.alarm(10)
        text = report.render()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert text.count("error[E001]: refused") == 2 and " | " not in text
