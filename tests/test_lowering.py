"""One lowering (issue #22): every statement written once as Python, for code that never waits
and for the resumable functions of rules that may wait; the game's flow generated like any rule;
the step limit spelled once; option lists merged on the tree; types as values; the analysis and
the compiler writing nothing on the checked trees."""
from __future__ import annotations

import ast
import inspect
import pkgutil
from pathlib import Path

import interpreter
import interpreter.compile
from interpreter.check import check
from interpreter.check.checked import Ref, RefKind
from interpreter.compile import compile_ruleset, make_compiler
from interpreter.compile.statements import Statements
from interpreter.engine.game import Game
from interpreter.lang import nodes as n
from interpreter.base.cache import Bounded
from interpreter.base.diagnostics import Report
from interpreter.lang.types import INT, TEXT, ListType, MapType, parse_type
from interpreter.load.ruleset import load_ruleset
from interpreter.session.load import load
from test_compiler import TINY, game_file, play, where

ROOT = Path(interpreter.__file__).parent


def _statement_classes() -> list[type]:
    return [c for c in vars(n).values() if isinstance(c, type) and issubclass(c, n.Stmt) and c is not n.Stmt
            and c is not n.Proceed]  # `proceed` is gone before checking (an extension's own)


def test_every_statement_is_lowered_in_one_place():
    """One method per statement, for plain code and resumable functions alike; no other
    module of the compiler lowers statements."""
    for cls in _statement_classes():
        assert f"s_{cls.__name__}" in vars(Statements), cls.__name__
    for info in pkgutil.iter_modules(interpreter.compile.__path__):
        module = __import__(f"interpreter.compile.{info.name}", fromlist=["x"])
        for name, value in vars(module).items():
            if inspect.isclass(value) and value.__module__ == module.__name__ and value is not Statements:
                assert not [m for m in vars(value) if m.startswith("s_")], (info.name, name)


def test_the_flow_is_generated_code():
    """The phases, rounds, turns and steps are the main resumable function, not machine code:
    a game's frames hold generated functions, which `explain --python` shows."""
    plan = load("formula5").plan(3, python=True)
    game = Game(plan, 1)
    assert game.st.frames[0][0] is plan.main
    main = next(g.python for g in plan.codegen.generated if g.rule == "game")
    assert "st.g['round'] += 1" in main and "h_decide(" in main
    assert not hasattr(interpreter.engine.plan, "EXEC")  # no instruction set


def test_the_step_limit_is_spelled_once():
    """Every check of the step limit raises `too_many` (base/limits.py): its messages and the
    error are made there only."""
    for path in ROOT.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if path.name != "limits.py":
            assert "steps (loops" not in text and "round their loops" not in text, path
        if path.name not in ("limits.py", "errors.py"):
            assert "GameTooLong(" not in text, path


CHOICE = TINY.replace('''          choose "pick" by s:
              option "one":
                  s.score += 1
              option "two":
                  s.score += 2''', '''          choose "pick" by s:
              option "low {k}" for k in shuffled([1, 2, 3]):
                  s.score += k
              option "high {k}" for k in shuffled([1, 2, 3]):
                  s.score += k * 10
              option "odd {k}" for k in distinct([1, 3, 1]):
                  s.score += k
              option "odd again {k}" for k in distinct([1, 3, 1]):
                  s.score += k''')


def test_sources_that_draw_chance_are_drawn_apiece(tmp_path):
    """Two options written alike over `shuffled(...)` draw twice (a draw is never shared), while
    two alike that draw nothing are computed once (merged on the tree, not on their text)."""
    plan = compile_ruleset(load_ruleset(game_file(tmp_path, CHOICE).parent), 2, python=True)
    main = next(g.python for g in plan.codegen.generated if g.rule == "game")
    assert main.count("k_shuffled") == 2 and main.count("k_distinct") == 1, main
    game = Game(plan, 1, trace=True)
    draws = [e for e in game.st.trace if e[0] == "chance" and e[1] == "shuffled list"]
    assert len(draws) == 2


def test_an_error_in_a_modules_statement_is_placed_in_the_module(capsys, tmp_path):
    """A module's statements run inside the base game's flow (one function): an error there is
    placed at the module's own line and column."""
    path = game_file(tmp_path)
    variant = path.parent / "variants" / "broken.yaml"
    variant.parent.mkdir()
    variant.write_text("variant: {id: broken, name: Broken, description: divides by zero}\n"
                       "patches:\n"
                       "  - extend: steps.go\n"
                       "    before: |\n"
                       "      s.score += 1 // zero\n", encoding="utf-8")
    rc, text = play(capsys, path, "--variant", "broken")
    assert rc == 1
    assert f"{where(variant, '1 // zero')}: division by zero" in text and "in rule `steps.go`" in text, text


def test_compiling_writes_nothing_on_the_checked_trees():
    """The analysis and the lowering return what they find: the checked trees' types and
    references are as the checker left them, and compiling twice gives the same code."""
    report = Report()
    rs = load_ruleset(ROOT.parent / "rulesets" / "heat", report=report)
    checked = check(rs, report)
    assert checked is not None
    before = [(id(x), x.typ, x.ref) for r in checked.rules.rules.values() for x in n.walk(r.tree)
              if isinstance(x, n.Expr)]
    first = make_compiler(rs, 3, python=True)
    after = [(id(x), x.typ, x.ref) for r in checked.rules.rules.values() for x in n.walk(r.tree)
             if isinstance(x, n.Expr)]
    assert before == after
    second = make_compiler(rs, 3, python=True)
    assert first is not None and second is not None
    assert [g.python for g in first.cg.generated] == [g.python for g in second.cg.generated]


def test_types_are_values_read_once():
    assert parse_type("map[text, list[int]]") == MapType(TEXT, ListType(INT))
    assert str(parse_type(" list [ map[ seat ,int ] ] ")) == "list[map[seat,int]]"
    for bad in ("list[", "map[list[int], int]", "list[int]]", "thing", "map[text]"):
        assert parse_type(bad) is None, bad


def test_every_reference_has_a_kind_of_the_enum():
    for game in ("heat", "formula5", "downforce", "tilerace"):
        report = Report()
        checked = check(load_ruleset(ROOT.parent / "rulesets" / game, report=report), report)
        assert checked is not None
        refs = [x.ref for r in checked.rules.rules.values() for x in n.walk(r.tree)
                if isinstance(getattr(x, "ref", None), Ref)]
        assert refs and all(isinstance(ref.kind, RefKind) for ref in refs)


def test_a_bounded_cache_forgets_the_least_recently_used():
    cache: Bounded[str, int] = Bounded(2)
    cache["a"], cache["b"] = 1, 2
    assert cache.get("a") == 1   # `a` used: `b` is now the oldest
    cache["c"] = 3
    assert (cache.get("a"), cache.get("b"), cache.get("c"), len(cache)) == (1, None, 3, 2)


def test_generated_code_is_what_the_lowering_wrote():
    """`explain --python` shows each unit as compiled: it parses back as Python. A game compiled
    to be played keeps no Python text (nor the trees it is written from)."""
    plan = load("heat").plan(3, python=True)
    for g in plan.codegen.generated:
        ast.parse(g.python)
    played = load("heat").plan(3)
    assert [g.rule for g in played.codegen.generated] == [g.rule for g in plan.codegen.generated]
    assert all(g._tree is None for g in played.codegen.generated)


# A comprehension whose filter asks the same of every item: `lead()` is one value for the whole
# list; `pos_of(x)` is each item's own. `nothing` filters with a part that fails when computed.
SAME = """\
language: 2
game: {id: same, name: Same, players: {min: 3, max: 3}}
dice:
  d6: [1, 2, 3, 4, 5, 6]
state:
  pos: {of: seat, type: int}
  ahead: {type: "list[int]"}
  empty: {type: "list[int]"}
  rolls: {type: "list[int]"}
  thrown: {type: "list[int]"}
functions:
  lead:
    value: "max([x.pos for x in seats])"
  pos_of:
    params: {x: seat}
    value: "x.pos"
  throw:
    # a roll inside a function: each call a roll of its own
    value: "roll(d6)"
setup: |
  seat(1).pos = 3
  seat(2).pos = 5
  seat(3).pos = 5
phases:
  - id: main
    do: |
      ahead = [pos_of(x) for x in seats if pos_of(x) == lead()]
      empty = [x.pos for x in seats if x.pos > 99 and [1, 2][lead()] > 0]
      rolls = [roll(d6) for k in 1..30 if lead() > 0]
      thrown = [throw() for k in 1..30]
result:
  rank: "0"
"""


def test_what_a_comprehension_asks_the_same_each_time_round_is_computed_once(tmp_path):
    """Computed the first time it is needed and kept: the values as before; never when not
    needed (a part that would fail is still not reached); a roll is rolled each time round;
    a list is never kept (it would be one list in each place)."""
    plan = compile_ruleset(load_ruleset(game_file(tmp_path, SAME).parent), 3, python=True)
    main = next(g.python for g in plan.codegen.generated if g.rule == "phases.main")
    # each of the three asks `lead()` once, kept (the second and third keep the largest part
    # that reads no item); the roll is the comprehension's item as written
    assert main.count(":= f_lead(st)") == 1 and ":= (f_lead(st) > 0)" in main, main
    assert "[k_roll(st, 0) for" in main and ":= (h_index([1, 2], f_lead(st)) > 0)" in main, main
    g = Game(plan, 1).st.g
    assert g["ahead"] == [5, 5] and g["empty"] == []
    assert len(g["rolls"]) == 30 and len(set(g["rolls"])) > 1
    assert len(g["thrown"]) == 30 and len(set(g["thrown"])) > 1   # a function that rolls: not kept
