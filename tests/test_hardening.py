"""A ruleset from a stranger: `validate` finds what a game would do wrong (labels, views,
results, the greedy bot's `evaluate`), numbers that are too large never crash the loader, board
built-ins given absurd numbers stop at once, and the time and memory budgets hold."""
from __future__ import annotations

import pytest

from interpreter.cli import main
from interpreter.base.diagnostics import Report
from interpreter.load.yamlsrc import parse_yaml
from test_compiler import TINY, game_file, where


def validate(capsys, path) -> tuple[int, str]:
    rc = main(["validate", str(path.parent)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert "time budget" not in out + err  # found by what the rules do, not by running out of time
    return rc, out + err


@pytest.mark.parametrize("old, new, needle", [
    # an option's label, computed only when a person (or a record) reads it
    ('option "one":', 'option "one {10 // zero}":', "10 // zero"),
    # the prompt
    ('choose "pick" by s:', 'choose "pick {1 % zero}" by s:', "1 % zero"),
    # what every seat sees of a piece
    ("result:\n", 'pieces:\n  cars: {count: 2}\nshow:\n  odd: "3 // zero"\nresult:\n', "3 // zero"),
    # the result
    ('rank: "seat.score"', 'rank: "seat.score // zero"', "seat.score // zero"),
    # the greedy bot's evaluation (validate plays a game with greedy bots)
    ("result:\n", 'evaluate: "seat.score // zero"\nresult:\n', "seat.score // zero"),
])
def test_validate_finds_an_error_a_game_would_meet_outside_its_rules(capsys, tmp_path, old, new, needle):
    path = game_file(tmp_path, TINY.replace(old, new))
    rc, text = validate(capsys, path)
    assert rc == 1, text
    assert f"{where(path, needle)}: error[E202]" in text, text
    assert "division by zero" in text and "seed" in text, text


def test_the_engines_own_names_cannot_be_read_by_rules(capsys, tmp_path):
    """Loop slots of the machine (`__it7`) and every name starting with `__` are the engine's."""
    path = game_file(tmp_path, TINY.replace("s.score += 1", "let __it7 = 0\n                  s.score += 1"))
    rc, text = validate(capsys, path)
    assert rc == 1 and "E125" in text and "`__it7`" in text, text


@pytest.mark.parametrize("text", ["a: " + "9" * 5000 + "\n", "a: 0b" + "1" * 300 + "\n",
                                  "a: [" + "1" * 4400 + "]\n"])
def test_a_huge_number_in_yaml_is_a_diagnostic(text):
    report = Report()
    assert parse_yaml(text, "x.yaml", report) is None
    assert report.items[0].code == "E026"


def test_a_huge_span_of_a_lane_track_stops_at_once(tmp_path):
    """`lines_between` over 10^17 spaces (a number a rule may hold) is refused, not computed."""
    from pathlib import Path

    from interpreter.authoring.scenario import run_scenario

    heat = Path(__file__).resolve().parents[1] / "rulesets" / "heat"
    scenario = tmp_path / "span.yaml"
    scenario.write_text(f"scenario: {{name: span, source: test}}\nruleset: {heat}\nplayers: 2\nexpect:\n"
                        '  - \'size(lines_between(track, 0, 100000000000000000, "corner")) == 0\'\n',
                        encoding="utf-8")
    out = run_scenario(scenario)
    # refused by the size of the span, before any line is looked at (not by the time budget)
    assert not out.passed and "more than 100000 lines" in out.report.render()


def test_the_time_budget_stops_a_run_that_takes_too_long():
    import signal

    from interpreter.session.budget import OutOfTime, budget

    with pytest.raises(OutOfTime, match="seconds"):
        with budget(seconds=0.2):
            # the budget is a timer of the process's own processor time, set to what was asked
            assert 0.1 < signal.getitimer(signal.ITIMER_PROF)[0] < 0.5  # (the clock counts in ticks)
            while True:
                pass
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)  # and it is gone afterwards


def test_the_memory_budget_stops_a_run_that_takes_too_much():
    from interpreter.session.budget import budget

    with pytest.raises(MemoryError):
        with budget(megabytes=64):
            bytearray(1024 ** 3)
    bytearray(128 * 1024 ** 2)  # the budget is gone afterwards


def test_an_interactive_game_runs_the_rules_under_the_budget_but_never_a_persons_answer(tmp_path):
    """`play` guards each run of the rules (a bot's look-ahead, the game going on), one at a time
    (so a long game never adds up to the budget), and never the time a person takes."""
    from contextlib import contextmanager

    from interpreter.agents.base import RandomAgent
    from interpreter.engine.game import Game
    from interpreter.session.load import load_from
    from interpreter.session.playing import play

    inside = [False]
    runs = []

    @contextmanager
    def guard():
        assert not inside[0], "runs are guarded one at a time"
        inside[0] = True
        runs.append(1)
        try:
            yield
        finally:
            inside[0] = False

    class Person(RandomAgent):
        person = True

        def choose(self, game, decision):
            assert not inside[0], "a person's answer is not under the budget"
            return super().choose(game, decision)

    plan = load_from(game_file(tmp_path, TINY).parent).plan(2)
    game = Game(plan, 1)
    result = play(game, [Person(0), RandomAgent(1)], guard=guard)
    assert result["ended"]
    # each decision: the game goes on (and the bot's choice, for seat 2), then the result
    assert len(runs) == len(game.answers) + len(game.answers) // 2 + 1
