"""A ruleset (or a game record) from a stranger can never make racecraft read a file outside it.

Each test reproduces one attack on a small project in a temporary folder (tmp/rulesets/formula5
and tmp/cards/formula5, as in test_diagnostics.py) and checks that it is refused with a clear
diagnostic: its code and message, exit 1, no traceback, within seconds (an alarm fails a test
that would hang), and nothing of a file outside printed.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
from pathlib import Path

import pytest
from test_diagnostics import edit, find, parse

import interpreter.load.yamlsrc as yamlsrc
from interpreter.cli import main
from interpreter.base.diagnostics import Loc, Report

ROOT = Path(__file__).resolve().parents[1]
SECRET = "hunter2-do-not-print"
SEATS = ("--seats", "random,random")
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
needs_dev_zero = pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")


@pytest.fixture
def unless_it_hangs():
    """Fail, rather than hang for ever, a test whose failure is to block (a FIFO opened) or to read
    without end (/dev/zero, a huge file): refused, these return at once; only a hang meets this."""
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def timeout(signum, frame):
        raise TimeoutError("still reading after 120 seconds: the attack was not refused")

    old = signal.signal(signal.SIGALRM, timeout)
    signal.alarm(120)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@pytest.fixture
def project(tmp_path) -> Path:
    shutil.copytree(ROOT / "rulesets" / "formula5", tmp_path / "rulesets" / "formula5")
    shutil.copytree(ROOT / "cards" / "formula5", tmp_path / "cards" / "formula5")
    return tmp_path


@pytest.fixture
def ruleset(project) -> Path:
    return project / "rulesets" / "formula5"


@pytest.fixture
def game(ruleset) -> Path:
    return ruleset / "game.yaml"


@pytest.fixture
def secret(tmp_path_factory) -> Path:
    """A file outside the project: not YAML, so reading it would print it in a snippet."""
    path = tmp_path_factory.mktemp("home") / "credentials.yaml"
    path.write_text(f"[default]\npassword = {SECRET}\n", encoding="utf-8")
    return path


def link(at: Path, to: Path) -> None:
    at.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.symlink(to, at)
    except OSError:
        pytest.skip("no symlinks here")


def refused(capsys, argv, code: str, *words: str, file: Path | None = None):
    """Run the command: exit 1, one diagnostic with `code` (and in `file`, unplaced), its message
    holding `words`, no traceback and no secret."""
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert SECRET not in out + err
    assert rc == 1, out + err
    diags = parse(err)
    assert [d.code for d in diags] == [code], err
    d = diags[0]
    for w in words:
        assert w in d.message, err
    if file is not None:
        assert (d.file, d.line) == (str(file), None), err
    return d


# ---- 1. a file's kind and size are checked before it is read --------------------------------

@needs_fifo
@pytest.mark.usefixtures("unless_it_hangs")
def test_a_fifo_is_refused_without_blocking(capsys, tmp_path, ruleset):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)  # opening it for reading would wait for a writer for ever
    refused(capsys, ["validate", fifo], "E001", "named pipe (FIFO), not a regular file", file=fifo)
    # as a variant of a ruleset, too
    os.mkfifo(ruleset / "variants" / "piped.yaml")
    refused(capsys, ["play", ruleset, "--variant", "piped", *SEATS], "E001", "named pipe",
            file=ruleset / "variants" / "piped.yaml")


@needs_dev_zero
@pytest.mark.usefixtures("unless_it_hangs")
def test_dev_zero_is_refused_without_reading(capsys):
    refused(capsys, ["validate", "/dev/zero"], "E001", "a device, not a regular file",
            file=Path("/dev/zero"))


def test_a_folder_named_like_a_file_is_refused(capsys, ruleset):
    (ruleset / "variants" / "folder.yaml").mkdir()
    refused(capsys, ["play", ruleset, "--variant", "folder", *SEATS], "E001", "a folder")


@pytest.mark.usefixtures("unless_it_hangs")
def test_a_sparse_file_over_the_limit_is_refused_by_its_size(capsys, tmp_path, game):
    big = tmp_path / "big.yaml"
    with big.open("wb") as f:
        f.truncate(5 * 1024**3)  # sparse: 5 GB that take no disk, and would take long to read
    refused(capsys, ["validate", big], "E002", f"too large ({5 * 1024**3} bytes", file=big)
    # a ruleset's game file
    with game.open("r+b") as f:
        f.truncate(5 * 1024**3)
    refused(capsys, ["validate", game.parent], "E002", "too large", file=game)


@pytest.mark.usefixtures("unless_it_hangs")
def test_a_file_that_grows_after_its_size_was_checked_is_read_no_further(tmp_path, monkeypatch):
    grown = tmp_path / "grown.yaml"
    grown.write_text("game:\n" + "# padding\n" * 300_000)  # 3 MB, but os.stat said 100 bytes
    real_stat = os.stat

    class Before:  # what os.stat saw before the file grew
        def __init__(self, st):
            self.st_mode, self.st_size = st.st_mode, 100

    class Counted:  # the opened file, counting what is read of it
        def __init__(self, f):
            self.f, self.sizes = f, []
            opened.append(self)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def fileno(self):
            return self.f.fileno()

        def read(self, n=-1):
            assert n is not None and n >= 0, "a read without a limit"
            data = self.f.read(n)
            self.sizes.append(len(data))
            return data

    opened: list[Counted] = []
    from interpreter.base import files  # where every file a person names is read

    monkeypatch.setattr(files.os, "stat", lambda p, *a, **k: Before(real_stat(p, *a, **k)))
    monkeypatch.setattr(files, "open", lambda *a, **k: Counted(open(*a, **k)), raising=False)
    report = Report()
    assert yamlsrc.read_bytes(grown, report) is None
    monkeypatch.undo()
    [d] = report.items
    assert (d.code, d.loc) == ("E002", Loc(str(grown))) and "too large" in d.message
    assert opened and sum(opened[0].sizes) <= yamlsrc.MAX_BYTES + 1


# ---- 2. no link leads out of the ruleset ----------------------------------------------------

def test_a_variant_linked_to_a_file_outside_is_refused_unread(capsys, ruleset, secret):
    leak = ruleset / "variants" / "leak.yaml"
    link(leak, secret)
    d = refused(capsys, ["play", ruleset, "--variant", "leak", *SEATS], "E035",
                "variant `leak` is a link to a file outside the ruleset's folder", file=leak)
    assert "own folder" in (d.hint or "")
    # validating the ruleset (which tries each variant) and the variant file itself: the same
    edit(ruleset / "game.yaml", "players: {min: 2, max: 5}", "players: {min: 2, max: 2}")
    for name in os.listdir(ruleset / "variants"):
        if name != "leak.yaml":
            os.remove(ruleset / "variants" / name)
    refused(capsys, ["validate", ruleset], "E035", "variant `leak`", file=leak)
    refused(capsys, ["validate", leak], "E035", "is a link to a file outside", file=leak)


def test_a_module_game_file_or_scenario_linked_outside_is_refused_unread(capsys, ruleset, secret):
    link(ruleset / "modules" / "leak.yaml", secret)
    refused(capsys, ["play", ruleset, "--module", "leak", *SEATS], "E035", "module `leak` is a link")
    scenario = ruleset / "scenarios" / "leak.yaml"
    link(scenario, secret)
    refused(capsys, ["check", scenario], "E035", "is a link to a file outside")
    game = ruleset / "game.yaml"
    game.unlink()
    link(game, secret)
    refused(capsys, ["play", ruleset, *SEATS], "E035", "the game file is a link", file=game)


def test_a_track_linked_outside_the_projects_tracks_is_refused_unread(capsys, project, ruleset, secret):
    track = project / "tracks" / "formula5" / "leak.yaml"
    link(track, secret)
    refused(capsys, ["play", ruleset, "--track", "leak", *SEATS], "E035",
            "track `leak` is a link to a file outside the project's tracks/ folder", file=track)


# ---- 3. a ruleset reads its folder, and the project's cards/ and tracks/ only ------------------

def test_an_include_inside_the_project_but_outside_cards_and_tracks_is_refused(capsys, project, game):
    # `/home/me/rulesets/x/game.yaml` including `../../.ssh/...`: inside the folder above
    # `rulesets/`, which is no project's cards or tracks
    private = project / ".ssh" / "id.yaml"
    private.parent.mkdir()
    private.write_text(f"cards: [{SECRET}\n", encoding="utf-8")
    entry = "../../.ssh/id.yaml"
    edit(game, "  - ../../cards/formula5/cards.yaml", f"  - {entry}")
    d = refused(capsys, ["validate", game], "E030",
                f"include `{entry}` is outside the ruleset's project folder")
    assert (d.file, (d.line, d.col)) == (str(game), find(game, entry)), d
    assert d.hint and "must be inside" in d.hint and "cards/ or tracks/" in d.hint


def test_includes_from_cards_and_tracks_still_work(capsys, project, ruleset, game):
    # the same cards file, included from the project's tracks/ folder and the ruleset's own
    shutil.copy(project / "cards" / "formula5" / "cards.yaml", ruleset / "own-cards.yaml")
    edit(game, "  - ../../cards/formula5/cards.yaml", "  - own-cards.yaml")
    assert main(["explain", str(ruleset), "--players", "2"]) == 0
    (project / "tracks").mkdir()
    shutil.move(project / "cards" / "formula5" / "cards.yaml", project / "tracks" / "cards.yaml")
    edit(game, "  - own-cards.yaml", "  - ../../tracks/cards.yaml")
    assert main(["explain", str(ruleset), "--players", "2"]) == 0
    capsys.readouterr()


def test_a_ruleset_in_no_project_includes_only_its_own_files(capsys, tmp_path, project, game):
    alone = tmp_path / "alone" / "formula5"
    shutil.copytree(game.parent, alone)
    entry = "../../cards/formula5/cards.yaml"  # the project's cards, but this ruleset has no project
    assert (tmp_path / "cards" / "formula5" / "cards.yaml").is_file()  # there, but not for it
    d = refused(capsys, ["validate", alone], "E030", f"include `{entry}` is outside the ruleset's folder")
    assert d.hint and "must be inside" in d.hint


# ---- 4. variants, modules and tracks are names, not paths -------------------------------------

@pytest.mark.parametrize("option, name, code", [
    ("--variant", "../../x", "E040"),
    ("--variant", "a/b", "E040"),
    ("--variant", "x\ny", "E040"),
    ("--variant", "x\x00y", "E040"),
    ("--module", "/etc/passwd", "E040"),
    ("--module", "..", "E040"),
    ("--track", "../x", "E033"),
    ("--track", "/etc/passwd", "E033"),
    ("--track", "-x", "E033"),
])
def test_a_path_given_as_a_name_is_refused(capsys, project, ruleset, option, name, code):
    # each would reach a file of the attacker's choosing if it were joined into a path
    (project / "rulesets" / "x.yaml").write_text(f"variant: {{name: {SECRET}}}\npatches: []\n")
    (project / "tracks").mkdir()
    (project / "tracks" / "x.yaml").write_text(f"track: {{id: {SECRET}}}\n")
    what = {"--variant": "variant", "--module": "module", "--track": "track"}[option]
    d = refused(capsys, ["play", ruleset, f"{option}={name}", *SEATS], code, f"is not a {what} name")
    assert "\n" not in d.message and "\x00" not in d.message
    assert d.hint and "letters, digits" in d.hint


def test_a_scenario_naming_a_path_as_a_variant_is_refused(capsys, ruleset):
    scenario = ruleset / "scenarios" / "empty-hand-sits-out.yaml"
    edit(scenario, "players: 2\n", "players: 2\nvariants: ['../../x']\n")
    rc = main(["check", str(scenario)])
    out, err = capsys.readouterr()
    assert rc == 1 and "Traceback" not in out + err
    assert "E025" in err or "E040" in err, err  # refused by the scenario's structure, or by name


# ---- 5. a game record names its game, never a folder ------------------------------------------

def _record(tmp_path, capsys, ruleset: Path | str = "formula5") -> Path:
    log = tmp_path / "game.jsonl"
    assert main(["play", str(ruleset), *SEATS, "--seed", "3", "--log", str(log)]) == 0
    capsys.readouterr()
    return log


def _edit_head(log: Path, **changes) -> None:
    lines = log.read_text().splitlines()
    head = json.loads(lines[0])
    head.update(changes)
    lines[0] = json.dumps(head)
    log.write_text("\n".join(lines) + "\n")


def test_a_record_names_the_game_not_a_folder(tmp_path, capsys):
    log = _record(tmp_path, capsys)
    head = json.loads(log.read_text().splitlines()[0])
    assert head["game"] == "formula5" and "/" not in head["ruleset"]


def test_a_record_naming_another_folder_is_replayed_from_the_game_of_its_name(tmp_path, capsys,
                                                                             monkeypatch, secret):
    log = _record(tmp_path, capsys)
    # the folder an (older, or crafted) record names holds a ruleset of the attacker's choosing
    other = tmp_path / "other" / "rulesets" / "formula5"
    other.mkdir(parents=True)
    link(other / "game.yaml", secret)
    _edit_head(log, ruleset=str(other))
    monkeypatch.chdir(tmp_path)
    assert main(["replay", str(log)]) == 0
    out, err = capsys.readouterr()
    assert "replayed exactly" in out and SECRET not in out + err and "Traceback" not in out + err


@pytest.mark.parametrize("game", ["../../etc", "/etc", "formula5/../x", "a\nb"])
def test_a_record_whose_game_is_a_path_is_refused(tmp_path, capsys, monkeypatch, game):
    log = _record(tmp_path, capsys)
    _edit_head(log, game=game)
    monkeypatch.chdir(tmp_path)
    d = refused(capsys, ["replay", log], "E303", "the `game` line's `game` is not the game's name")
    assert d.file == str(log)


def test_a_record_of_a_game_not_here_asks_for_ruleset(tmp_path, capsys, monkeypatch):
    log = _record(tmp_path, capsys)
    _edit_head(log, game="nosuchgame")
    monkeypatch.chdir(tmp_path)
    d = refused(capsys, ["replay", log], "E001", "no ruleset of the game `nosuchgame` here")
    assert d.hint and "--ruleset" in d.hint


@pytest.mark.parametrize("key, value, code, words", [
    # refused where every record is read (session/record.py), before the loader sees them
    ("variants", ["../../x"], "E303", "`variants` is not a list of at most 100 names"),
    ("modules", ["/etc/passwd"], "E303", "`modules` is not a list of at most 100 names"),
    ("track", "../x", "E303", "`track` is not a name"),
    ("variants", "short-race", "E303", "`variants` is not a list"),
    ("players", "2", "E303", "`players` is not a whole number"),
])
def test_a_record_naming_paths_is_refused(tmp_path, capsys, monkeypatch, key, value, code, words):
    log = _record(tmp_path, capsys)
    _edit_head(log, **{key: value})
    monkeypatch.chdir(tmp_path)
    refused(capsys, ["replay", log], code, words)


def test_replay_with_a_ruleset_given_by_the_person_replaying(tmp_path, capsys, monkeypatch, ruleset, game):
    edit(game, "  name: Formula 5\n", "  name: Formula 5 (my copy)\n")  # another digest
    log = _record(tmp_path, capsys, ruleset)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")  # no rulesets/ here: the name finds the project's
    # found by its name, the project's formula5 is not the rules it was played by
    refused(capsys, ["replay", log], "E304", "the ruleset has changed")
    assert main(["replay", str(log), "--ruleset", str(ruleset)]) == 0
    assert "replayed exactly" in capsys.readouterr().out


@needs_fifo
@needs_dev_zero
@pytest.mark.usefixtures("unless_it_hangs")
def test_a_record_that_is_a_device_or_a_fifo_is_refused(tmp_path, capsys):
    refused(capsys, ["replay", "/dev/zero"], "E301", "a device")
    fifo = tmp_path / "game.jsonl"
    os.mkfifo(fifo)
    refused(capsys, ["replay", fifo], "E301", "named pipe")


def test_a_text_overlaid_on_a_file_is_read_in_its_place_only_inside(tmp_path):
    """`overlaid`: a file read as an edit not written would make it (an upgrade's next round)."""
    from interpreter.base.files import overlaid, read_limited

    path = tmp_path / "game.yaml"
    path.write_text("on disk\n", encoding="utf-8")
    with overlaid({tmp_path / "." / "game.yaml": "in memory\n"}):
        assert read_limited(path, 100) == b"in memory\n"
        assert path.read_text(encoding="utf-8") == "on disk\n"   # nothing written
    assert read_limited(path, 100) == b"on disk\n"
