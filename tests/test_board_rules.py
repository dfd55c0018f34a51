"""The board's rules as content (issue #25, wall 1): what a board raises as its pieces move
(`piece_moved`, `piece_entered`, `piece_passed`, `piece_blocked`), the ruleset's rules of a lane
track's moves (`moves.enter`, `moves.spot`, the board's own rule their default), and the properties
a track gives its places (`space_props`, a cell's `props`, `square_props`).

A small game (`STRIP`, written here) moves its cars with the lane track's effects in a block of
its own, and notes what its triggers hear; the shipped house rules that use the same mechanisms
(`narrow-stretches` on the track `bridge`, `hard-overtakes`) have scenarios in
rulesets/heat/scenarios/variant-*.yaml.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.compile import compile_ruleset, make_compiler
from interpreter.engine.game import Game
from interpreter.base.diagnostics import Report
from interpreter.base.errors import RuleError
from interpreter.lang.parser import parse_expr
from interpreter.load.ruleset import load_ruleset
from test_diagnostics import find

ROOT = Path(__file__).resolve().parents[1]

# red stands alone at 0; blue and gray fill space 2 (blue on the race line, spot 1, ahead)
STRIP = """\
game: {id: strip, name: Strip, players: {min: 2, max: 2}}
pieces:
  cars: {count: 3, names: [red, blue, gray]}
boards:
  track:
    kind: lanes
    spaces: 20
    spots: 2
    laps: 2
    space_props:
      - {at: 5, to: 7, props: {width: 1, surface: gravel}}
      - {at: 19, to: 1, props: {pits: true}}
  hill:
    kind: cells
    finish: 30
    cells:
      - {id: a, front: 10, props: {mud: 2}}
      - {id: b, front: 20, touch: [a]}
state:
  heard: {type: "list[text]"}
setup: |
  for s in seats:
      cars[s.number].owner = s
  put_at(piece("red"), track, 0, 1)
  put_at(piece("blue"), track, 2, 1)
  put_at(piece("gray"), track, 2, 2)
phases:
  - id: race
    do: |
MOVES
result:
  rank: "0"
"""

HEAR = """\
triggers:
  - id: on_moved
    "on": piece_moved
    params: {car: piece, left: int, reached: int}
    do: |
      heard = heard + ["{car.name} moved {left}-{reached}"]
  - id: on_entered
    "on": piece_entered
    params: {p: piece, d: int}
    do: |
      heard = heard + ["{p.name} in {d}"]
  - id: on_passed
    "on": piece_passed
    params: {car: piece, other: piece}
    do: |
      heard = heard + ["{car.name} passed {other.name}"]
  - id: on_blocked
    "on": piece_blocked
    params: {car: piece, wanted: int, got: int}
    do: |
      heard = heard + ["{car.name} blocked at {got}, not {wanted}"]
"""


def strip(tmp_path: Path, moves: str, more: str = "") -> Path:
    folder = tmp_path / "rulesets" / "strip"
    (folder / "variants").mkdir(parents=True, exist_ok=True)
    body = "".join(f"      {line}\n" for line in moves.strip("\n").split("\n"))
    (folder / "game.yaml").write_text(STRIP.replace("MOVES\n", body) + more, encoding="utf-8")
    return folder


def variant(folder: Path, patches: str, name: str = "v") -> Path:
    path = folder / "variants" / f"{name}.yaml"
    path.write_text(f"variant: {{id: {name}, name: V, description: a test}}\npatches:\n{patches}",
                    encoding="utf-8")
    return path


def game(folder: Path, *variants: str) -> Game:
    report = Report()
    rs = load_ruleset(folder, variants=list(variants), report=report)
    assert rs is not None, report.render()
    plan = compile_ruleset(rs, 2, report)
    assert plan is not None, report.render()
    return Game(plan, 1, trace=True)


def refused(folder: Path, *variants: str) -> Report:
    report = Report()
    rs = load_ruleset(folder, variants=list(variants), report=report)
    if rs is not None:
        compile_ruleset(rs, 2, report)
    assert not report.ok
    return report


def codes(report: Report) -> list[str]:
    return [d.code for d in report.items if d.severity == "error"]


def where(g: Game, name: str) -> tuple[int, int]:
    p = g.plan.piece_names.index(name)
    data = g.st.bd[g.plan.board_names.index("track")]
    return data[0][p], data[1][p]


# ---- events ---------------------------------------------------------------------------------------

def test_a_move_raises_what_happened_in_order(tmp_path):
    # red wants space 2, which is full: it stops on 1 (blocked); then it goes on to 5, through
    # space 2, passing gray and then blue (the nearest first)
    g = game(strip(tmp_path, "advance(piece(\"red\"), 2)\nadvance(piece(\"red\"), 4)", HEAR))
    assert g.over and where(g, "red") == (5, 1)
    assert g.st.g["heard"] == [
        "red moved 0-1", "red in 1", "red blocked at 1, not 2",
        "red moved 1-5", "red in 2", "red in 3", "red in 4", "red in 5", "red passed gray", "red passed blue"]


def test_a_move_back_enters_one_space_and_passes_nobody(tmp_path):
    g = game(strip(tmp_path, "drop_back(piece(\"blue\"), 0)", HEAR))
    # space 0 holds red on spot 1: blue takes spot 2 there; nobody is passed going back
    assert where(g, "blue") == (0, 2)
    assert g.st.g["heard"] == ["blue moved 2-0", "blue in 0"]


def test_a_trigger_of_a_move_may_ask_and_the_rule_goes_on_after_it(tmp_path):
    ask = """\
  - id: cheer
    "on": piece_passed
    params: {car: piece, other: piece}
    do: |
      choose "{car.name} passed {other.name}: cheer?" by car.owner:
          option "cheer":
              heard = heard + ["cheer for {car.name}"]
          option "boo":
              heard = heard + ["boo {car.name}"]
"""
    g = game(strip(tmp_path, "advance(piece(\"red\"), 5)\nheard = heard + [\"after\"]", "triggers:\n" + ask))
    d = g.decision()
    assert d.prompt == "red passed gray: cheer?" and d.seat == 0
    g.choose(d.labels().index("boo"))
    d = g.decision()
    assert d.prompt == "red passed blue: cheer?"
    g.choose(d.labels().index("cheer"))
    assert g.over and g.st.g["heard"] == ["boo red", "cheer for red", "after"]


def test_a_game_that_waits_for_no_event_calls_the_plain_effects(tmp_path):
    """Events nobody waits for cost nothing: the game's code calls the effect as it always did."""
    from interpreter.boards.lanes.track import Lanes
    advance = next(b for b in Lanes.builtins if b.name == "advance")
    quiet = game(strip(tmp_path, "advance(piece(\"red\"), 4)"))
    assert not any(v is advance.heard for v in quiet.plan.codegen.ns.values())
    listening = game(strip(tmp_path, "advance(piece(\"red\"), 4)", HEAR))
    assert any(v is advance.heard for v in listening.plan.codegen.ns.values())
    assert where(quiet, "red") == where(listening, "red") == (4, 1)


def test_triggers_of_a_board_event_take_its_values(tmp_path):
    folder = strip(tmp_path, "pass", "triggers:\n  - id: t\n    \"on\": piece_passed\n"
                                      "    params: {car: piece, n: int}\n    do: \"pass\"\n")
    report = refused(folder)
    assert codes(report) == ["E146"]
    assert "params: {piece: piece, other: piece}" in report.render()


def test_a_board_event_is_not_emitted_by_a_rule(tmp_path):
    assert codes(refused(strip(tmp_path, "emit piece_moved(piece(\"red\"), 1, 2)", HEAR))) == ["E129"]


def test_a_trigger_that_moves_a_piece_again_on_its_own_event_is_a_cycle(tmp_path):
    loop = ("triggers:\n  - id: again\n    \"on\": piece_entered\n    params: {p: piece, d: int}\n"
            "    do: |\n      advance(p, 1)\n")
    report = refused(strip(tmp_path, "advance(piece(\"red\"), 1)", loop))
    assert codes(report) == ["E141"] and "`again`" in report.render()
    # going back raises no `piece_passed`: a trigger of it may drop a car back
    back = ("triggers:\n  - id: push\n    \"on\": piece_passed\n    params: {car: piece, other: piece}\n"
            "    do: |\n      drop_back(other, 0)\n")
    g = game(strip(tmp_path, "advance(piece(\"red\"), 3)", back))
    assert where(g, "red") == (3, 1) and where(g, "blue")[0] == 0 and where(g, "gray")[0] <= 0
    # lining a piece up puts it on the track from nowhere: it enters, and passes nobody
    grid = ("triggers:\n  - id: regrid\n    \"on\": piece_passed\n    params: {car: piece, other: piece}\n"
            "    do: |\n      take_off(other)\n      line_up(other, track)\n")
    report = Report()
    rs = load_ruleset(strip(tmp_path, "advance(piece(\"red\"), 3)", grid), report=report)
    assert rs is not None and compile_ruleset(rs, 2, report) is not None, report.render()


def test_a_game_without_a_board_that_raises_it_has_no_such_event(tmp_path):
    from test_modules import CARDS, MINI
    folder = tmp_path / "rulesets" / "mini"
    folder.mkdir(parents=True)
    (tmp_path / "cards" / "mini").mkdir(parents=True)
    (tmp_path / "cards" / "mini" / "cards.yaml").write_text(CARDS, encoding="utf-8")
    text = MINI.replace("triggers:\n", "triggers:\n  - id: t\n    \"on\": piece_moved\n    do: \"pass\"\n", 1)
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    assert "E131" in codes(refused(folder))


@pytest.mark.parametrize("ruleset, effect, heard", [
    # a ranking: `swap` takes a car past the one it changes slots with (the one now ahead first)
    ("formula5", "swap", ["piece_moved", "piece_entered", "piece_passed", "piece_moved", "piece_entered"]),
])
def test_other_kinds_raise_what_changed(tmp_path, ruleset, effect, heard):
    from interpreter.boards.ranking.kind import Ranking
    b = next(x for x in Ranking.builtins if x.name == effect)
    g = Game(compile_ruleset(load_ruleset(ROOT / "rulesets" / ruleset), 3), 1)
    grid = g.st.bd[g.plan.board_names.index("grid")]
    first, second = grid[0][0], grid[0][1]
    out = b.heard(g.st, second, first)
    assert [e[0] for e in out] == heard
    assert out[2] == ("piece_passed", second, first) and out[0][2:] == (2, 1)


def test_a_cell_step_and_a_tile_put_raise_moved_and_entered(tmp_path):
    from interpreter.boards.cells.kind import Cells
    from interpreter.boards.tiles.kind import Tiles
    step = next(x for x in Cells.builtins if x.name == "cell_step")
    g = game(strip(tmp_path, "cell_place(hill, piece(\"red\"), \"a\")"))
    hill = g.plan.board_names.index("hill")
    assert step.heard(g.st, hill, 0, "b") == [("piece_moved", 0, "a", "b"), ("piece_entered", 0, "b")]
    put = next(x for x in Tiles.builtins if x.name == "tile_put")
    t = Game(compile_ruleset(load_ruleset(ROOT / "rulesets" / "tilerace"), 2), 1)
    board = next(i for i, k in enumerate(t.plan.board_kinds) if isinstance(k, Tiles))
    was = t.st.bd[board][1][0]
    out = put.heard(t.st, board, 0, 9)
    assert out == ([("piece_moved", 0, was, 9)] if was else []) + [("piece_entered", 0, 9)]


# ---- the ruleset's move rules -----------------------------------------------------------------------

NARROW = """\
functions:
  narrow:
    params: {d: int}
    value: 'space_prop(track, d, "width", 2) == 1'
  held:
    params: {car: piece, d: int}
    value: 'size([x for x in pieces_in_space(track, d) if x != car]) > 0'
moves:
  enter: 'not (narrow(space) and held(piece, space))'
  spot: 'if narrow(space) then (if held(piece, space) then 0 else 1) else free_spot(piece, space)'
"""


def test_the_move_rules_stop_a_car_behind_a_narrow_space_that_holds_another(tmp_path):
    moves = "advance(piece(\"blue\"), 4)\nadvance(piece(\"gray\"), 4)\nadvance(piece(\"red\"), 6)"
    g = game(strip(tmp_path, moves, NARROW + HEAR))
    # blue goes 2 -> 6 (narrow, spot 1); gray 2 -> 6 would end beside it, and stops on 5; red,
    # from 0 for 6, would go through 5 and 6: it cannot go into 5, and stops on 4 (wide: spot 1)
    assert where(g, "blue") == (6, 1) and where(g, "gray") == (5, 1) and where(g, "red") == (4, 1)
    heard = g.st.g["heard"]
    assert "gray blocked at 5, not 6" in heard and heard[-1] == "red blocked at 4, not 6"
    # without the rules: side by side in 6, and red ends in 5, behind the full space
    g = game(strip(tmp_path, moves))
    assert where(g, "blue") == (6, 1) and where(g, "gray") == (6, 2) and where(g, "red") == (5, 1)


def test_a_module_extends_the_boards_own_rule(tmp_path):
    # the game writes no move rule: `base` is the board's own (`free_spot`, `true`)
    folder = strip(tmp_path, "advance(piece(\"red\"), 2)\ndrop_back(piece(\"blue\"), 0)")
    variant(folder, "  - extend: moves.spot\n"
                    "    around: 'if space % 2 == 1 and base > 0 then 0 else base'\n"
                    "  - extend: moves.enter\n    around: 'base and space != 9'\n")
    g = game(folder, "v")
    # red: space 2 is full, space 1 odd: back to its own start; blue: back to 0 (red left it)
    assert where(g, "red") == (0, 1) and where(g, "blue") == (0, 2)
    g = game(folder)
    assert where(g, "red") == (1, 1)


def test_a_spot_the_rule_gives_must_be_free(tmp_path):
    folder = strip(tmp_path, "advance(piece(\"red\"), 2)", "moves:\n  spot: '1'\n")
    with pytest.raises(RuleError) as err:
        game(folder)
    assert "gives `red` spot 1 at progress 2, where `blue` stands" in str(err.value)
    line, _col = find(folder / "game.yaml", "'1'")
    assert (err.value.loc.line, err.value.rule) == (line, "moves.spot")


def test_move_rules_need_a_board_that_moves_pieces_itself(tmp_path):
    from test_modules import CARDS, MINI
    folder = tmp_path / "rulesets" / "mini"
    folder.mkdir(parents=True)
    (tmp_path / "cards" / "mini").mkdir(parents=True)
    (tmp_path / "cards" / "mini" / "cards.yaml").write_text(CARDS, encoding="utf-8")
    (folder / "game.yaml").write_text(MINI + "moves:\n  enter: 'true'\n", encoding="utf-8")
    report = refused(folder)
    assert codes(report) == ["E150"] and "moves.enter" in report.render()


def test_an_extension_of_the_boards_own_move_rule_is_said_at_the_patch(tmp_path):
    # `base` alone is the engine's own rule, written in no file: the error is the extension's
    from test_modules import CARDS, MINI
    folder = tmp_path / "rulesets" / "mini"
    (folder / "variants").mkdir(parents=True)
    (tmp_path / "cards" / "mini").mkdir(parents=True)
    (tmp_path / "cards" / "mini" / "cards.yaml").write_text(CARDS, encoding="utf-8")
    (folder / "game.yaml").write_text(MINI, encoding="utf-8")
    path = variant(folder, "  - extend: moves.spot\n    around: 'base'\n")
    report = refused(folder, "v")
    assert codes(report) == ["E150"]
    (loc,) = [d.loc for d in report.items if d.code == "E150"]
    assert loc is not None and (Path(loc.file).name, loc.line) == (path.name, 3), report.render()


# ---- what a track says of its places ------------------------------------------------------------------

def value(folder: Path, text: str):
    report = Report()
    comp = make_compiler(load_ruleset(folder, report=report), 2, report)
    assert comp is not None, report.render()
    g = Game(comp.plan, 1)
    expr = comp.ck.checker.expectation(parse_expr(text, report))
    assert report.ok, report.render()
    return comp.expectation(expr)(g.st, {})


def test_a_rule_reads_a_places_property_or_its_default(tmp_path):
    folder = strip(tmp_path, "pass")
    assert value(folder, 'space_prop(track, 6, "width", 2) == 1 and space_prop(track, 8, "width", 2) == 2')
    assert value(folder, 'space_prop(track, 26, "surface", "") == "gravel"')     # progress: lap 2
    assert value(folder, 'space_prop(track, 0, "pits", false) and space_prop(track, 19, "pits", false)')
    assert value(folder, 'not space_prop(track, 2, "pits", false)')  # the stretch wraps: 19, 0, 1
    assert value(folder, 'cell_prop(hill, "a", "mud", 0) == 2 and cell_prop(hill, "b", "mud", 0) == 0')


def test_a_property_read_as_another_type_is_a_rule_error(tmp_path):
    folder = strip(tmp_path, "pass")
    said = (r'space 5 of `track` has `surface: "gravel"`, a text, but the rule reads it as a number '
            r"\(its default is 0\)")
    with pytest.raises(RuleError, match=said):
        value(folder, 'space_prop(track, 5, "surface", 0) == 0')


@pytest.mark.parametrize("default, typ", [("none", "none"), ("[1]", "list[int]")])
def test_a_default_a_place_cannot_hold_is_refused_before_play(tmp_path, default, typ):
    """A place holds a number, a text or true/false: a `none` default let any of them through
    untyped, a list one was a rule error quoting `[1]`, only where a place had the name."""
    folder = strip(tmp_path, f'let w = space_prop(track, 5, "width", {default})')
    [d] = [d for d in refused(folder).items if d.severity == "error"]
    assert d.code == "E120" and d.message.endswith(f"must be a number, a text or true/false, not {typ}")
    assert (d.loc.line, d.loc.col) == find(folder / "game.yaml", f"{default})")


def test_a_tracks_properties_are_checked_where_written(tmp_path):
    folder = strip(tmp_path, "pass")
    text = (folder / "game.yaml").read_text()
    (folder / "game.yaml").write_text(text.replace("{at: 19, to: 1,", "{at: 6, to: 30,"), encoding="utf-8")
    [d] = refused(folder).items
    # said at the value itself, in the file's words (no pydantic prefix, no board kind in the path)
    assert d.message == "invalid value for `boards.track.space_props.1.to`: space 30 is outside the 20 spaces"
    assert (d.loc.line, d.loc.col) == find(folder / "game.yaml", "to: 30")
    (folder / "game.yaml").write_text(text.replace("{at: 19, to: 1, props: {pits: true}}",
                                                   "{at: 7, props: {width: 2}}"), encoding="utf-8")
    [d] = refused(folder).items
    assert "space 7 is given `width` twice" in d.message and "Value error" not in d.message
    assert (d.loc.line, d.loc.col) == find(folder / "game.yaml", "width: 2}")


def test_a_tile_grids_squares_have_properties(tmp_path):
    for part in ("rulesets/tilerace", "cards/tilerace"):
        shutil.copytree(ROOT / part, tmp_path / part)
    folder = tmp_path / "rulesets" / "tilerace"
    text = (folder / "game.yaml").read_text()
    (folder / "game.yaml").write_text(text.replace("    pile: square\n",
                                                   "    pile: square\n    square_props: {C3: {mud: 2}}\n"),
                                      encoding="utf-8")
    board = next(k for k in load_ruleset(folder).game.boards)
    assert value(folder, f'tile_prop({board}, tile_square({board}, "C3"), "mud", 0) == 2 '
                         f'and tile_prop({board}, 1, "mud", 0) == 0')


@pytest.mark.parametrize("old, new, words", [
    ("width: 1, surface", "width: 10000000000000000000, surface", "greater than the maximum"),
    ("mud: 2", "mud: " + "x" * 100_001, "at most 100,000"),
])
def test_a_place_property_beyond_what_a_rule_holds_is_refused_at_its_line(tmp_path, old, new, words):
    """A number past the engine's limit, a text longer than a rule may hold: refused where the
    track file says it, not handed to the rules."""
    folder = strip(tmp_path, "pass")
    path = folder / "game.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    [d] = refused(folder).items
    assert d.code == "E026" and words in d.message
    assert (d.loc.file, d.loc.line) == (str(path), find(path, new[:12])[0])


def test_a_lapped_car_fills_its_spot_in_the_space(tmp_path):
    # blue and gray stand in space 2, red a lap ahead wants the same space (progress 22): it is
    # full (a lapped car fills its spot as any car does), so red stops in space 1 of its lap
    g = game(strip(tmp_path, 'advance(piece("red"), 22)\n'
                             'heard = heard + ["{pieces_in_space(track, 22)}"]', HEAR))
    assert where(g, "red") == (21, 1)
    assert g.st.g["heard"][-2:] == ["red blocked at 21, not 22", "blue and gray"]


@pytest.mark.parametrize("grid, said", [
    ("[[19, 1], [19, 3]]", "grid place [19, 3] is not a spot of the track"),
    ("[[19, 1], [18, 1], [19, 1]]", "the grid names the spot [19, 1] twice"),
])
def test_a_grid_place_that_does_not_fit_is_said_at_it(tmp_path, grid, said):
    folder = strip(tmp_path, "pass")
    path = folder / "game.yaml"
    text = path.read_text(encoding="utf-8").replace("    laps: 2\n", f"    laps: 2\n    grid: {grid}\n")
    path.write_text(text, encoding="utf-8")
    (d,) = [d for d in refused(folder).items if d.code == "E026"]
    line = text.splitlines().index(f"    grid: {grid}") + 1
    place = grid.rindex("[19, 3]" if "3]" in grid else "[19, 1]")
    assert said in d.message and (d.loc.line, d.loc.col) == (line, len("    grid: ") + place + 1)
