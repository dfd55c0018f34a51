"""The size of a program (issue #28, points 9, 10, 13): a ruleset under the 2 MB file limit can no
longer take minutes to read, expand or compile, nor overflow the compiler's stack. Each limit is
checked once, early, and said at the file, line and column of what passes it; each hostile case is
built here and refused within a second or two."""
from __future__ import annotations

import textwrap
import time
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.lang.limits import (MAX_CALL_DEPTH, MAX_CALL_NESTING, MAX_ELIF, MAX_GAME_RULES,
                                     MAX_LOOP_DEPTH, MAX_RULE_CHARS)

PICK = """\
choose "pick" by s:
    option "one":
        s.score += 1
    option "two":
        s.score += 2
"""


def game(body: str = "", functions: str = "", procedures: str = "", triggers: str = "") -> str:
    """A two-seat game of two rounds whose step runs `body` and then asks each seat to pick."""
    step = textwrap.indent(body + PICK, " " * 10)
    return (
        'game: {id: tiny, name: "Tiny", players: {min: 2, max: 2}}\n'
        "state:\n  score: {of: seat}\n"
        + (f"functions:\n{functions}" if functions else "")
        + (f"procedures:\n{procedures}" if procedures else "")
        + "phases:\n  - id: main\n    order: \"seats\"\n    turn: s\n    steps:\n"
        + "      - id: go\n        do: |\n"
        + step + "    rounds: 2\n"
        + (f"triggers:\n{triggers}" if triggers else "")
        + 'result:\n  rank: "seat.score"\n')


def refused(capsys, tmp_path: Path, text: str, code: str, words: str, variant: str | None = None):
    """Validate the game (with the variant, if given): refused within seconds with one `code` error
    holding `words`, at a line of one of its files; the error line."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    target = folder
    if variant is not None:
        (folder / "variants").mkdir()
        target = folder / "variants" / "v.yaml"
        target.write_text("variant: {id: v, name: V, description: x}\npatches:\n" + variant, encoding="utf-8")
    start = time.monotonic()
    rc = main(["validate", str(target)])
    took = time.monotonic() - start
    out, err = capsys.readouterr()
    assert rc == 1 and "Traceback" not in err and "internal error" not in err, err[:3000]
    errors = [line for line in err.splitlines() if "error[" in line]
    assert len(errors) == 1 and f"error[{code}]" in errors[0] and words in errors[0], err[:3000]
    assert f"{folder}/" in errors[0] and errors[0].split(": error[")[0].count(":") == 2, errors[0]
    assert took < 10, took
    return errors[0]


# ---- 9. expansions that double: counted as they grow -------------------------------------------

def test_forty_arounds_that_each_proceed_twice_stop_at_the_limit(capsys, tmp_path):
    patches = "".join('  - extend: steps.go\n    around: "proceed\\nproceed"\n' for _ in range(40))
    line = refused(capsys, tmp_path, game(), "E053", "with this extension the rule would have", patches)
    assert "v.yaml:" in line and "at most 20,000 parts" in line


def test_forty_values_of_base_plus_base_stop_at_the_limit(capsys, tmp_path):
    functions = '  f:\n    params: {x: int}\n    value: "x + 1"\n'
    patches = "".join('  - extend: functions.f\n    around: "base + base"\n' for _ in range(40))
    refused(capsys, tmp_path, game("s.score += f(1)\n", functions), "E053",
            "with this extension the rule would have", patches)


def test_arounds_that_nest_the_rule_a_hundred_deep_are_refused(capsys, tmp_path):
    patches = "".join('  - extend: steps.go\n    around: "if true:\\n    proceed"\n' for _ in range(60))
    refused(capsys, tmp_path, game(), "E053", "parts nested 10", patches)


def test_a_thousand_extensions_are_more_than_a_game_changes(capsys, tmp_path):
    patches = "".join('  - extend: steps.go\n    around: "s.score += 0\\nproceed"\n' for _ in range(1000))
    refused(capsys, tmp_path, game(), "E053", "with 1,000 patches (`extend`, named choices and statements): "
            "at most 500", patches)


# ---- 10. rules that would take minutes to read: refused before they are read ------------------

def test_a_rule_longer_than_the_limit_is_refused_before_it_is_parsed(capsys, tmp_path):
    body = "let x = 0\n" + "x = 1\n" * (MAX_RULE_CHARS // 6)
    refused(capsys, tmp_path, game(body), "E106", f"a rule has at most {MAX_RULE_CHARS:,}")


def test_a_list_literal_of_a_hundred_thousand_items_is_refused(capsys, tmp_path):
    refused(capsys, tmp_path, game("let xs = [" + ", ".join(["1"] * 100_000) + "]\n"), "E106",
            "characters long: a rule has at most")


def test_an_elif_chain_past_the_limit_is_refused_at_its_first_extra_branch(capsys, tmp_path):
    chain = "let x = s.score\nif x == 0:\n    pass\n" + "".join(f"elif x == {i}:\n    pass\n"
                                                              for i in range(1, MAX_ELIF + 2))
    line = refused(capsys, tmp_path, game(chain), "E103",
                   f"an `if` with more than {MAX_ELIF} `elif` branches")
    assert f":{12 + 2 * (MAX_ELIF + 1)}:11:" in line  # the first branch past the limit (`if` on line 12)


def test_more_rules_than_a_game_has_are_refused(capsys, tmp_path):
    triggers = "".join(f"  - {{id: t{i}, on: round_end, do: pass}}\n" for i in range(MAX_GAME_RULES + 10))
    refused(capsys, tmp_path, game(triggers=triggers), "E106", f"more than {MAX_GAME_RULES:,} rules")


def test_rules_together_longer_than_the_limit_are_refused(capsys, tmp_path):
    body = textwrap.indent("s.score += 0\n" * 1400, "      ")
    procedures = "".join(f"  q{k}:\n    params: {{s: seat}}\n    do: |\n{body}" for k in range(12))
    refused(capsys, tmp_path, game(procedures=procedures), "E106", "rules more than 200,000 characters long")


def test_a_module_of_thousands_of_patches_is_refused_before_they_are_read(capsys, tmp_path):
    patches = "".join(f"  - add: triggers\n    item: {{id: t{i}, on: round_end, do: pass}}\n"
                      for i in range(1500))
    refused(capsys, tmp_path, game(), "E026", "`patches` has 1,500 items: at most 1,000", patches)


def test_adding_a_thousand_triggers_takes_no_time_per_trigger(tmp_path):
    """Each added item's id is checked against a set, not the whole list again."""
    from interpreter.lang.diagnostics import Report
    from interpreter.load.patches import apply_patches, prepare

    data = {"triggers": []}
    patches = prepare([{"add": "triggers", "item": {"id": f"t{i}", "on": "x", "do": "pass"}}
                       for i in range(20_000)], Report())
    report = Report()
    start = time.monotonic()
    out = apply_patches(data, patches, report)
    assert time.monotonic() - start < 2 and report.ok and len(out["triggers"]) == 20_000
    again = apply_patches(out, prepare([{"add": "triggers", "item": {"id": "t7", "on": "x"}}], Report()),
                          report)
    assert len(again["triggers"]) == 20_000 and "E045" in report.render()


# ---- 13. what overflowed the compiler's stack: a limit checked before compiling ---------------

def test_twenty_five_nested_loops_are_refused_at_the_seventeenth(capsys, tmp_path):
    loops = "".join("    " * k + f"for i{k} in 1..1:\n" for k in range(25)) + "    " * 25 + "s.score += 0\n"
    line = refused(capsys, tmp_path, game(loops), "E103", f"loops nested more than {MAX_LOOP_DEPTH} deep")
    assert f":{11 + MAX_LOOP_DEPTH}:" in line  # the first loop on line 11


@pytest.mark.parametrize("kind", ["procedures", "functions", "emits"])
def test_a_chain_of_calls_past_the_limit_is_refused_at_the_call_that_passes_it(capsys, tmp_path, kind):
    n = MAX_CALL_DEPTH + 50
    if kind == "procedures":
        chain = "".join(f"  p{i}:\n    params: {{s: seat}}\n    do: \"p{i + 1}(s)\"\n" for i in range(n - 1))
        text = game("p0(s)\n", procedures=chain + f'  p{n - 1}:\n    params: {{s: seat}}\n    do: "pass"\n')
    elif kind == "functions":
        chain = "".join(f"  f{i}:\n    params: {{x: int}}\n    value: \"f{i + 1}(x) + 1\"\n"
                        for i in range(n - 1))
        last = f'  f{n - 1}:\n    params: {{x: int}}\n    value: "x"\n'
        text = game("s.score += f0(1)\n", functions=chain + last)
    else:
        chain = "".join(f"  - {{id: t{i}, on: e{i}, do: \"emit e{i + 1}\"}}\n" for i in range(n - 1))
        text = game("emit e0\n", triggers=chain + f"  - {{id: t{n - 1}, on: e{n - 1}, do: pass}}\n")
    line = refused(capsys, tmp_path, text, "E148", f"{n} rules inside each other")
    first = "p" if kind == "procedures" else "f" if kind == "functions" else "t"
    assert f"`{first}0` → `{first}1`" in line and f"at most {MAX_CALL_DEPTH}" in line
    # at the call from the 100th rule of the chain to the 101st
    called = f"{'e' if kind == 'emits' else first}{MAX_CALL_DEPTH}"
    assert called in (tmp_path / "tiny" / "game.yaml").read_text().splitlines()[int(line.split(":")[1]) - 1]


def test_procedures_each_deep_in_loops_are_counted_by_their_blocks_too(capsys, tmp_path):
    loops = "".join("    " * k + f"for i{k} in 1..1:\n" for k in range(16)) + "    " * 16
    n = MAX_CALL_NESTING // 17 + 1
    chain = "".join(f"  p{i}:\n    params: {{s: seat}}\n    do: |\n"
                    + textwrap.indent(loops + f"p{i + 1}(s)\n", "      ") for i in range(n))
    text = game("p0(s)\n", procedures=chain + f'  p{n}:\n    params: {{s: seat}}\n    do: "pass"\n')
    refused(capsys, tmp_path, text, "E148",
            f"levels inside each other (the rules and the blocks inside them); at most {MAX_CALL_NESTING}")


def test_the_largest_programs_under_every_limit_still_compile_and_play(capsys, tmp_path):
    """Just under the limits the compiler does not overflow: a chain of procedures as deep as the
    nesting limit allows, each 16 loops deep; 16 loops deep with a `move` inside; 100 `elif`s."""
    loops = "".join("    " * k + f"for i{k} in 1..1:\n" for k in range(16)) + "    " * 16
    n = MAX_CALL_NESTING // 17 - 1
    chain = "".join(f"  p{i}:\n    params: {{s: seat}}\n    do: |\n"
                    + textwrap.indent(loops + f"p{i + 1}(s)\n", "      ") for i in range(n))
    elifs = "let x = s.score\nif x == 0:\n    pass\n" + "".join(f"elif x == {i}:\n    pass\n"
                                                              for i in range(1, MAX_ELIF + 1))
    text = game("p0(s)\n" + elifs, procedures=chain + f'  p{n}:\n    params: {{s: seat}}\n    do: "pass"\n')
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    rc = main(["validate", str(folder)])
    out, err = capsys.readouterr()
    assert rc == 0 and "tiny (Tiny): ok" in out, err[:3000]
