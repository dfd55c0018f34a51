"""The rule compiler: trees parsed once, one checking pass, Python `ast` with the rules' own
positions, one error boundary, and limits that hold.

Each runtime failure is a tiny game played through the CLI: it must exit 1 within seconds,
print no traceback, and place the error at the failing sub-expression (line and column
computed from the file's text, never from the tool's output).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import stepping_game
from interpreter.cli import main
from interpreter.compile import compile_ruleset, forget_compiled
from interpreter.ir.models import GameFile
from interpreter.lang import nodes as n
from interpreter.lang import unparse
from interpreter.base.diagnostics import Report
from interpreter.lang.parser import parse_block, parse_expr
from interpreter.load.rules import blocks, parse_rules
from interpreter.load.ruleset import Ruleset, load_ruleset
from test_diagnostics import find

TINY = stepping_game("tiny", "Tiny", (2, 2), prompt="pick", rounds=2, before_phases="""\
params:
  zero: 0
  big: 1000000000000
functions:
  half:
    params: {x: int}
    value: "10 // x"
  twice:
    params: {x: int}
    value: "half(x) + half(x)"
  square:
    params: {x: int}
    value: "x * x"
""")


def game_file(tmp_path: Path, text: str = TINY, **replace: str) -> Path:
    for old, new in replace.items():
        old = old.replace("__", " ")
        assert old in text, old
        text = text.replace(old, new)
    folder = tmp_path / "rulesets" / "tiny"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def where(path: Path, needle: str, nth: int = 1) -> str:
    """`path:line:col` of the nth occurrence of `needle` in the file (from its text, never from
    the tool's output)."""
    line, col = find(path, needle, nth)
    return f"{path}:{line}:{col}"


def play(capsys, path: Path, *more: str) -> tuple[int, str]:
    rc = main(["play", str(path.parent), "--seats", "random,random", "--seed", "1", *more])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    # stopped by what the rules did (a limit, a rule error), never by the time budget: so at once
    assert "time budget" not in out + err
    return rc, out + err


# ---- the error boundary: a Python error is a rule error at the failing sub-expression ------

@pytest.mark.parametrize("section, old, new, needle", [
    ("result.rank", 'rank: "seat.score"', 'rank: "seat.score // zero"', "seat.score // zero"),
    ("record", 'result:\n', 'record:\n  odd: "1 % zero"\nresult:\n', "1 % zero"),
    ("step", "s.score += 1", "s.score += 1 // zero", "1 // zero"),
    ("evaluate", 'result:\n', 'evaluate: "seat.score // zero"\nresult:\n', "seat.score // zero"),
    ("show", 'result:\n', 'pieces:\n  cars: {count: 2}\nshow:\n  odd: "3 // zero"\nresult:\n', "3 // zero"),
])
def test_a_division_by_zero_anywhere_is_a_rule_error_at_its_position(capsys, tmp_path, section, old, new,
                                                                      needle):
    path = game_file(tmp_path, TINY.replace(old, new))
    seats = ["--seats", "greedy,greedy"] if section == "evaluate" else []
    rc, text = play(capsys, path, *seats)
    assert rc == 1, text
    assert f"{where(path, needle)}: division by zero" in text, text


def test_a_game_compiled_and_dropped_earlier_does_not_hide_where_a_later_game_fails(capsys, tmp_path):
    """Two games with the same rules compile to equal code objects (Python compares code by
    content, not by file): dropping the first must not make the second's frames unknown."""
    import gc

    text = TINY.replace("s.score += 1", "s.score += twice(zero)")
    first = game_file(tmp_path / "a", text)
    report = Report()
    plan = compile_ruleset(load_ruleset(first.parent, report=report), 2, report)
    assert plan is not None, report.render()
    second = game_file(tmp_path / "b", text)
    rc, out = play(capsys, second)  # compiles the second game while the first lives
    assert rc == 1 and "in rule `functions.half`" in out, out
    forget_compiled()
    del plan
    gc.collect()
    rc, out = play(capsys, second)
    assert rc == 1
    assert f"{where(second, '10 // x')}: division by zero" in out and "in rule `functions.half`" in out, out


def test_an_error_inside_a_function_is_placed_in_its_body_with_the_call_as_context(capsys, tmp_path):
    path = game_file(tmp_path, TINY.replace("s.score += 1", "s.score += twice(zero)"))
    rc, text = play(capsys, path)
    assert rc == 1
    # `half` is small: it is written into `twice`, whose call from the step is the context
    assert f"{where(path, '10 // x')}: division by zero (`//` or `%` by 0) (in rule `functions.half`, " \
           f"called from `functions.twice`, from `steps.go` at {where(path, 'twice(zero)')})" in text, text


def test_the_context_of_an_error_in_a_function_names_where_it_was_called(capsys, tmp_path):
    path = game_file(tmp_path, TINY.replace('value: "10 // x"', 'value: "10 // abs(x)"')
                     .replace("s.score += 1", "s.score += twice(zero)"))
    rc, text = play(capsys, path)
    assert rc == 1
    assert f"{where(path, '10 // abs(x)')}: division by zero (`//` or `%` by 0) (in rule `functions.half`, " \
           f"called from `functions.twice` at {where(path, 'half(x) + half(x)')}, from `steps.go` at " \
           f"{where(path, 'twice(zero)')})" in text, text


def test_a_rule_error_names_its_callers_nearest_first_and_counts_the_rest():
    from interpreter.base.diagnostics import Loc
    from interpreter.base.errors import RuleError

    e = RuleError("boom", Loc("g.yaml", 9, 1), "functions.f")
    e.calls = [(Loc("g.yaml", n, 5), f"functions.c{n}") for n in range(1, 6)]
    assert str(e) == ("g.yaml:9:1: boom (in rule `functions.f`, called from `functions.c5` at g.yaml:5:5, "
                      "from `functions.c4` at g.yaml:4:5, from `functions.c3` at g.yaml:3:5 (and 2 more))")


def test_a_scenario_expectation_that_fails_is_placed_in_the_scenario(tmp_path):
    from interpreter.authoring.scenario import run_scenario

    path = game_file(tmp_path)
    scenario = path.parent / "broken.yaml"
    scenario.write_text("scenario: {name: broken, source: test}\nplayers: 2\n"
                        "expect:\n  - \"1 // zero == 1\"\n",
                        encoding="utf-8")
    out = run_scenario(scenario)
    assert not out.passed
    text = out.report.render()
    assert f"{where(scenario, '1 // zero')}: error[E405]: the expectation failed with a rule error: " \
           "division by zero" in text, text


# ---- limits ------------------------------------------------------------------------------------

@pytest.mark.parametrize("code, needle, words", [
    # a range too large to build
    ("let xs = 1..big", "1..big", "has more than"),
    # a comprehension over a comprehension: counted, item by item, against max_steps
    ("let n = size([[a for a in 1..50000] for b in 1..50000])", "1..50000] for b", "loops more than"),
    # three nested loops
    ("for a in 1..1000:\n                      for b in 1..1000:\n"
     "                          for c in 1..1000:\n"
     "                              pass", "for c in", "loops more than"),
    # squaring a number in a loop
    ("let x = 2\n                  while true:\n                      x = x * x", "x = x * x", "beyond"),
    # squaring it through a function (each call's value is checked)
    ("let x = 2\n                  for i in 1..200:\n                      x = square(x)", "x * x", "beyond"),
    # a text that doubles
    ('let t = "ab"\n                  for i in 1..100:\n'
     '                      t = t + t', "t + t", "characters"),
])
def test_limits_stop_a_runaway_rule_quickly_with_a_clear_error(capsys, tmp_path, code, needle, words):
    path = game_file(tmp_path, TINY.replace("s.score += 1", code))
    rc, text = play(capsys, path)
    assert rc == 1, text
    assert words in text, text
    assert where(path, needle).rsplit(":", 1)[0] in text, text  # the line of the runaway part


def test_an_exponential_tree_of_calls_stops_at_once(capsys, tmp_path):
    """f30 calls f29 twice, which calls f28 twice...: 2^31 calls, refused when the tree starts."""
    fns = "".join(f"  f{i}:\n    params: {{x: int}}\n    value: \"f{i - 1}(x) + f{i - 1}(x)\"\n"
                  for i in range(1, 31))
    text = TINY.replace("functions:\n", "functions:\n  f0:\n    params: {x: int}\n    value: \"x\"\n" + fns)
    path = game_file(tmp_path, text.replace("s.score += 1", "s.score += f30(1)"))
    rc, out = play(capsys, path)
    assert rc == 1 and "steps (loops and calls)" in out, out
    assert where(path, "s.score += f30(1)").rsplit(":", 1)[0] in out


def test_a_rulesets_own_step_limit_cannot_exceed_the_engines(tmp_path):
    from interpreter.base.limits import MAX_STEPS

    path = game_file(tmp_path, TINY + "limits:\n  max_steps: 1000000000000\n")
    rs = load_ruleset(path.parent)
    plan = compile_ruleset(rs, 2)
    assert plan.max_steps == MAX_STEPS


def test_a_number_in_a_rule_beyond_the_limit_is_refused(capsys, tmp_path):
    path = game_file(tmp_path, TINY.replace('value: "10 // x"', 'value: "' + "9" * 5000 + '"'))
    rc = main(["validate", str(path.parent)])
    err = capsys.readouterr().err
    assert rc == 1 and "E105" in err and "Traceback" not in err


# ---- checking: reserved names, cycles ------------------------------------------------------------

@pytest.mark.parametrize("decl, code", [
    ("state:\n  round: {}\n", "E118"), ("state:\n  __x: {}\n", "E119"),
    ("params:\n  seats: 3\n", "E118"), ("params:\n  size: 3\n", "E118"),
])
def test_reserved_names_cannot_be_declared(capsys, tmp_path, decl, code):
    text = TINY.replace("params:\n", decl.split("\n")[0] + "\n" + "\n".join(decl.split("\n")[1:]), 1) \
        if decl.startswith("params") else TINY.replace("state:\n", decl, 1)
    path = game_file(tmp_path, text)
    rc = main(["validate", str(path.parent)])
    err = capsys.readouterr().err
    assert rc == 1 and f"[{code}]" in err, err


def test_functions_that_call_each_other_in_a_cycle_are_an_error_naming_it(capsys, tmp_path):
    path = game_file(tmp_path, TINY.replace('value: "10 // x"', 'value: "twice(x)"'))
    rc = main(["validate", str(path.parent)])
    err = capsys.readouterr().err
    assert rc == 1
    assert "E141" in err and ("`half` → `twice` → `half`" in err or "`twice` → `half` → `twice`" in err), err


# ---- hostile names in a game built in Python: a clear error or an inert game, never code ----------

HOSTILE = ["a'); open('/tmp/pwned', 'w') #", "x\nimport os", "__import__", "__builtins__", "a b", "é",
           "'\"", "1abc", "f(st)"]


def _ruleset(game: dict) -> Ruleset:
    gf = GameFile.model_construct(**GameFile.model_validate(game).__dict__)  # a valid base ...
    return Ruleset(game=gf, folder=Path("."), cards=[], rules=parse_rules(gf, Report()))


@pytest.mark.parametrize("where_", ["function", "parameter", "state", "pile", "board", "procedure"])
@pytest.mark.parametrize("bad", HOSTILE)
def test_hostile_names_in_a_game_built_in_python_are_refused(tmp_path, monkeypatch, where_, bad):
    import yaml

    monkeypatch.chdir(tmp_path)
    base = yaml.safe_load(TINY)
    gf = GameFile.model_validate(base)
    data = dict(gf.__dict__)  # ... with one name made hostile, past the schema
    if where_ == "function":
        data["functions"] = {**gf.functions, bad: gf.functions["half"]}
    elif where_ == "parameter":
        fn = gf.functions["half"]
        data["functions"] = {**gf.functions, "half": fn.model_construct(params={bad: "int"}, value=fn.value)}
    elif where_ == "state":
        data["state"] = {**gf.state, bad: gf.state["score"]}
    elif where_ == "pile":
        from interpreter.ir.models import Pile
        data["piles"] = {bad: Pile()}
    elif where_ == "board":
        from interpreter.boards.ranking.kind import RankingModel
        data["boards"] = {bad: RankingModel(kind="ranking", slots=2)}
    else:
        from interpreter.ir.models import Procedure
        data["procedures"] = {bad: Procedure(do="pass")}
    hostile = GameFile.model_construct(**data)
    rs = Ruleset(game=hostile, folder=tmp_path, cards=[], rules=parse_rules(hostile, Report()))
    report = Report()
    plan = compile_ruleset(rs, 2, report)
    assert not (tmp_path / "pwned").exists() and not Path("/tmp/pwned").exists()
    assert plan is None
    assert any(d.code == "E119" for d in report.items), report.render()


@pytest.mark.parametrize("bad", HOSTILE)
def test_hostile_card_names_are_data_and_the_game_plays(tmp_path, monkeypatch, bad):
    """A card type's id is never a name in rules: any text is taken as data, inert."""
    import yaml

    from interpreter.engine.game import Game
    from interpreter.ir.models import CardType

    monkeypatch.chdir(tmp_path)
    gf = GameFile.model_validate(yaml.safe_load(TINY.replace(
        "s.score += 1", "move top(deck) to deck\n"
                        "                  s.score += size([c for c in deck if c.type == \"x\"])")
        .replace("state:\n", "piles:\n  deck: {}\nstate:\n")))
    card = CardType.model_construct(id=bad, count=2, props={}, starts_in="deck", per_seat=False)
    rs = Ruleset(game=gf, folder=tmp_path, cards=[card], rules=parse_rules(gf, Report()))
    report = Report()
    plan = compile_ruleset(rs, 2, report)
    assert plan is not None, report.render()
    game = Game(plan, 1)
    while not game.over:
        game.choose(0)
    assert plan.card_types == [bad] and not (tmp_path / "pwned").exists() and not Path("/tmp/pwned").exists()


def test_hostile_text_in_values_is_data_never_code(capsys, tmp_path):
    """Strings reach generated code as constants: a card name or a label holding Python is text."""
    sneaky = "x'); open('pwned', 'w'); ('"
    path = game_file(tmp_path, TINY.replace('option "one":', f'option "{sneaky}":')
                     .replace("params:\n", f"params:\n  label: \"{sneaky}\"\n"))
    rc, text = play(capsys, path, "--verbose")
    assert rc == 0, text
    assert sneaky in text
    assert not (tmp_path / "pwned").exists() and not Path("pwned").exists()


# ---- strings, trees, generated code -----------------------------------------------------------

@pytest.mark.parametrize("written, value", [
    (r'"a\\n"', "a\\n"), (r'"a\nb"', "a\nb"), (r'"tab\there"', "tab\there"), (r'"say \"hi\""', 'say "hi"'),
    (r'"\\\\"', "\\\\"), (r'"\\"', "\\"),
])
def test_string_escapes_are_read_left_to_right_and_round_trip(written, value):
    report = Report()
    expr = parse_expr(written, report)
    assert report.ok and isinstance(expr, n.Text) and expr.constant == value
    again = parse_expr(unparse.expr(expr), report)
    assert again.constant == value


def test_an_unknown_escape_is_a_syntax_error_at_it():
    report = Report()
    assert parse_expr(r'"a\qb"', report) is None
    d = report.items[0]
    assert (d.code, d.loc.col) == ("E104", 3)


def test_every_shipped_rule_reads_back_to_the_same_tree():
    """unparse(parse(text)) parses to a tree that unparses the same: the printer loses nothing."""
    from interpreter.session.load import load

    for name in ("formula5", "heat", "downforce", "tilerace"):
        rules = load(name).ruleset.rules
        for _rule, body in blocks(rules):
            text = unparse.block(body)
            again = parse_block(text, Report())
            assert again is not None and unparse.block(again.body) == text, text


def test_the_compiler_never_parses_text(monkeypatch, tmp_path):
    """After loading, compiling reads trees only: a parser that fails does not matter."""
    import interpreter.lang.parser as parser

    path = game_file(tmp_path)
    rs = load_ruleset(path.parent)

    def refuse(*a, **k):
        raise AssertionError("the compiler parsed text")
    monkeypatch.setattr(parser, "_lark_tree", refuse)
    assert compile_ruleset(rs, 2) is not None


def test_a_comment_does_not_change_what_a_rule_compiles_to(tmp_path):
    plain = compile_ruleset(load_ruleset(game_file(tmp_path / "a").parent), 2, python=True)
    commented = compile_ruleset(load_ruleset(game_file(
        tmp_path / "b", TINY.replace("s.score += 1\n", "s.score += 1  # s.score += 100\n")).parent), 2,
        python=True)
    assert [g.python for g in plain.codegen.generated] == [g.python for g in commented.codegen.generated]


def test_generated_code_carries_the_rules_positions(tmp_path):
    path = game_file(tmp_path)
    plan = compile_ruleset(load_ruleset(path.parent), 2)
    fn = plan.codegen.ns["f_half"]
    code = fn.__code__
    assert Path(code.co_filename).resolve() == path.resolve()
    line, col = map(int, where(path, "10 // x").rsplit(":", 2)[1:])
    assert (line, col - 1) in {(p[0], p[2]) for p in code.co_positions() if p[0] is not None}


def test_a_rule_from_no_file_shows_its_text_in_a_traceback():
    """A game built in Python: its rules' generated code names a source a debugger can show."""
    import linecache

    report = Report()
    expr = parse_expr("10 // x", report)
    assert expr is not None and expr.loc.file.startswith("<rule ")
    assert linecache.getline(expr.loc.file, 1) == "10 // x"


def test_explain_prints_a_rule_and_its_python(capsys, tmp_path):
    path = game_file(tmp_path)
    assert main(["explain", str(path.parent), "half"]) == 0
    out = capsys.readouterr().out
    assert "function half(x: int) -> int" in out and "10 // x" in out
    assert main(["explain", str(path.parent), "half", "--python"]) == 0
    out = capsys.readouterr().out
    assert "def f_half(st, v_x):" in out and "10 // v_x" in out and f"from {path}" in out.replace("\\", "/")


def test_checking_and_compiling_leave_the_loaded_rules_as_parsed(tmp_path):
    """Each pass returns its result: the checker types a copy, nothing is written back onto the
    ruleset, and checking again gives the same."""
    from interpreter.lang import nodes as n
    from interpreter.lang.types import ANY

    rs = load_ruleset(game_file(tmp_path, TINY.replace("s.score += 1", "s.score += twice(1)")).parent)
    first, second = compile_ruleset(rs, 2, python=True), compile_ruleset(rs, 2, python=True)
    assert [g.python for g in first.codegen.generated] == [g.python for g in second.codegen.generated]
    for rule in rs.rules.rules.values():
        for node in n.walk(rule.tree):
            assert getattr(node, "ref", None) is None and getattr(node, "typ", ANY) == ANY, node
    assert not hasattr(rs, "checked")


def test_a_dropped_game_leaves_nothing_behind(tmp_path):
    """What the error boundary knows of generated code lives with that code: a plan no longer
    used is collected whole (no registry in the engine keeps it, or its positions)."""
    import gc
    import weakref

    from interpreter.engine import boundary

    plan = compile_ruleset(load_ruleset(game_file(tmp_path, TINY.replace(
        "s.score += 1", "s.score += twice(zero)")).parent), 2)
    gone = weakref.ref(plan.codegen)
    forget_compiled()  # (a process keeps the games it compiled: forgotten, a game is dropped)
    del plan
    gc.collect()
    assert gone() is None
    assert not [k for k, v in vars(boundary).items() if isinstance(v, dict) and not k.startswith("__")]


def test_compiling_runs_the_garbage_collector_rarely_and_puts_it_back(tmp_path, monkeypatch):
    """While a game is loaded, checked and compiled the collector runs after 100,000 new objects
    rather than 700 (`base/collect.py`); after, as it was, also when a pass fails."""
    import gc

    from interpreter.compile.program import Compiler

    during = []
    main_flow = Compiler._main

    def watched(self):
        during.append(gc.get_threshold())
        return main_flow(self)
    monkeypatch.setattr(Compiler, "_main", watched)
    before = gc.get_threshold()
    assert compile_ruleset(load_ruleset(game_file(tmp_path).parent), 2) is not None
    assert during and during[0][0] >= 100_000 and gc.get_threshold() == before

    def broken(self):
        raise RuntimeError("a pass failing")
    monkeypatch.setattr(Compiler, "_main", broken)
    forget_compiled()
    with pytest.raises(RuntimeError):
        compile_ruleset(load_ruleset(game_file(tmp_path / "again").parent), 2)
    assert gc.get_threshold() == before


# ---- games compiled once in a process ------------------------------------------------------------

def test_a_game_is_compiled_once_in_a_process_and_what_checking_it_said_is_said_again(tmp_path):
    path = game_file(tmp_path, TINY.replace("  zero: 0\n", "  zero: 0\n  bonus: 7\n")
                     .replace("s.score += 2", "s.score += 7"))
    plans, said = [], []
    for _ in range(2):
        report = Report()
        plans.append(compile_ruleset(load_ruleset(path.parent, report=report), 2, report))
        said.append([d.code for d in report.items])
    assert plans[0] is plans[1] and said == [["W109"], ["W109"]]
    # ... again when a file changes (by its bytes), when params are given, for another seat count
    path.write_text(path.read_text(encoding="utf-8").replace("bonus: 7", "bonus: 8"), encoding="utf-8")
    changed = compile_ruleset(load_ruleset(path.parent), 2)
    given = compile_ruleset(load_ruleset(path.parent, params={"bonus": 9}), 2)
    assert changed is not None and given is not None and len({id(plans[0]), id(changed), id(given)}) == 3
    assert compile_ruleset(load_ruleset(path.parent, params={"bonus": 9}), 2) is given
    # the same rules in another folder: their positions name that folder's file
    other = game_file(tmp_path / "b", path.read_text(encoding="utf-8"))
    assert compile_ruleset(load_ruleset(other.parent), 2) is not changed


def test_scenarios_of_one_game_share_its_rules_and_each_has_its_own_flow(tmp_path):
    from interpreter.authoring.scenario import load_scenario

    path = game_file(tmp_path)

    def scenario(name: str, situation: str, expect: str):
        file = path.parent / f"{name}.yaml"
        file.write_text(f"scenario: {{name: {name}, source: test}}\nplayers: 2\nsituation: |\n  {situation}\n"
                        f"expect:\n  - \"{expect}\"\n", encoding="utf-8")
        loaded, out = load_scenario(file)
        return loaded, out

    one, _ = scenario("one", "seat(1).score = 5", "seat(1).score >= 5")
    two, _ = scenario("two", "seat(2).score = 9", "seat(2).score >= 9 and seat(1).score < 5")
    assert one is not None and two is not None
    assert one.comp.compiler is two.comp.compiler and one.comp.plan is not two.comp.plan
    assert one.play().passed and two.play().passed and one.play(seed=3).passed
    # a mistake in a third scenario's situation is its own, said in its report only
    bad, out = scenario("bad", 'seat(1).score = "five"', "true")
    assert bad is None and "type error" in out.report.render()
    assert one.play().passed


def test_a_running_game_calls_no_compiler_code():
    """What generated code and the engine call while a game runs lives in `engine/` (or is
    generated): nothing in a compiled game's namespace or plan is a function of `compile/`."""
    import functools

    from interpreter.session.load import load

    def compiler_code(value) -> bool:
        f = value.func if isinstance(value, functools.partial) else value
        return callable(f) and str(getattr(f, "__module__", "") or "").startswith("interpreter.compile")

    for game, modules in (("heat", ["garage", "weather"]), ("downforce", []), ("formula5", []),
                          ("tilerace", []), ("leapfrog", [])):
        plan = load(game, [], modules).plan(3)
        found = [k for k, v in plan.codegen.ns.items() if compiler_code(v)]
        for name, value in vars(plan).items():
            inner = value.values() if isinstance(value, dict) else value if isinstance(value, list) \
                else [value]
            found += [f"plan.{name}" for v in inner if compiler_code(v)]
        assert not found, f"{game}: {found}"


ITEM_IN_OPTION = """\
language: 2
game: {id: itemset, name: Item set, players: {min: 1, max: 1}}
state:
  out: {type: "list[int]"}
  nested: {type: "list[list[int]]"}
phases:
  - id: p
    do: |
      let xs = [1, 2, 3]
      let grid = [[0, 0], [0, 0]]
      let n = 0
      choose "pick" by seat(1):
          option "a":
              xs[1] = 9
              grid[2][1] = 5
              n += 1
          option "b":
              xs[1] = 8
              n += 1
      out = xs + [n]
      nested = grid
result:
  rank: "0"
"""


@pytest.mark.parametrize("pick, out, nested", [(0, [9, 2, 3, 1], [[0, 0], [5, 0]]),
                                                (1, [8, 2, 3, 1], [[0, 0], [0, 0]])])
def test_an_item_of_a_list_given_a_value_in_an_option_is_kept_after_the_choice(tmp_path, pick, out, nested):
    """`xs[1] = 9` in an option's statements: the list the rule goes on with has it (the option's
    statements, compiled on their own for the bots' looks ahead, gave back the locals they assign,
    not those they give an item: the change was lost, silently)."""
    from interpreter.engine.game import Game

    folder = tmp_path / "rulesets" / "itemset"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(ITEM_IN_OPTION, encoding="utf-8")
    rs = load_ruleset(folder, report=Report())
    assert rs is not None
    game = Game(compile_ruleset(rs, 1, Report()), 1)
    game.choose(pick)
    assert game.over
    view = game.view(None)["game"]
    assert (view["out"], view["nested"]) == (out, nested), view
