"""The docs say what the program does: the README's quick start works as written on a Python that
refuses to install outside a virtual environment, and CI runs the README's own test command."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent


def quick_start() -> list[str]:
    """The commands of the README's quick start (its `sh` blocks), in order."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return [c.strip() for c in re.findall(r"```sh\n(.*?)```", section, re.S)]


def test_the_quick_start_is_two_commands_in_a_virtual_environment(capsys):
    commands = quick_start()
    assert len(commands) == 2
    for command in commands:
        assert "\n" not in command
        steps = [shlex.split(s) for s in command.split("&&")]
        # a virtual environment made first, then only its own programs: never a bare pip or python
        assert steps[0] == ["python3", "-m", "venv", ".venv"]
        for step in steps[1:]:
            assert step[0].startswith(".venv/bin/"), step
    play = shlex.split(commands[0].split("&&")[-1])
    assert play[0] == ".venv/bin/racecraft" and play[1] == "play"
    assert main(play[1:]) == 0
    assert "Result:" in capsys.readouterr().out
    assert shlex.split(commands[1].split("&&")[-1])[1:4] == ["-m", "pytest", "-q"]


def test_ci_runs_the_readmes_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert quick_start()[1] in ci
