"""The language for modules: patches on the merged game, extension points, richer data.

A small game (`MINI`, written here) is patched by variant files written in each test; what the
patched game does is read from its own rules (decisions offered, the table, what it says), and
each misuse must be one diagnostic at its place. The shipped house-rule variants that use the
same mechanisms have scenarios in rulesets/*/scenarios/variant-*.yaml.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.check import check
from interpreter.compile import compile_ruleset
from interpreter.engine.game import Game
from interpreter.base.diagnostics import Report
from interpreter.load.ruleset import load_ruleset
from test_diagnostics import find

ROOT = Path(__file__).resolve().parents[1]

CARDS = """\
source: "authored for tests/test_modules.py (not printed data)"
cards:
  - {id: low, count: 4, starts_in: deck, props: {points: 1, symbols: {boost: 1}}}
  - {id: high, count: 2, starts_in: deck, props: {points: 3, symbols: {cooldown: 2}}}
"""

MINI = """\
game: {id: mini, name: Mini, players: {min: 2, max: 2}}
include:
  - ../../cards/mini/cards.yaml
params:
  hand_size: 2
state:
  score: {of: seat}
  best_seen: {of: seat}
  tally: {type: "map[text, int]"}
  marks: {type: "list[int]", initial: [0, 0]}
piles:
  deck: {visible: nobody}
  discard: {visible: all}
  hand: {of: seat, visible: owner}
functions:
  worth:
    params: {c: card}
    value: "c.points"
procedures:
  score_card:
    params: {s: seat, c: card}
    do: |
      s.score += worth(c) as gain
      emit scored(s, worth(c))
  best:
    params: {s: seat}
    do: |
      return max([worth(c) for c in hand(s)] + [0])
setup: |
  shuffle deck
  for s in seats:
      draw hand_size from deck to hand(s)
phases:
  - id: main
    order: "seats"
    turn: s
    steps:
      - id: look
        do: |
          let b = best(s)
          s.best_seen = b
      - id: play
        do: |
          choose "play" by s as play:
              option "play {c.type}" as play_card for c in distinct(hand(s)):
                  move c to discard face up
                  score_card(s, c)
              option "pass" as pass:
                  pass
    rounds: 2
triggers:
  - id: count
    on: scored
    params: {s: seat, k: int}
    do: |
      tally["seat {s.number}"] += k
      marks[s.number] += 1
result:
  rank: "seat.score"
"""


def mini_project(tmp_path: Path, game: str = MINI) -> Path:
    """A project in `tmp_path` with the small game `game` (its folder, with `variants/`) and its cards."""
    folder = tmp_path / "rulesets" / "mini"
    (folder / "variants").mkdir(parents=True)
    (tmp_path / "cards" / "mini").mkdir(parents=True)
    (tmp_path / "cards" / "mini" / "cards.yaml").write_text(CARDS, encoding="utf-8")
    (folder / "game.yaml").write_text(game, encoding="utf-8")
    return folder


@pytest.fixture
def mini(tmp_path) -> Path:
    return mini_project(tmp_path)


def variant(folder: Path, patches: str, name: str = "v") -> Path:
    path = folder / "variants" / f"{name}.yaml"
    path.write_text(f"variant: {{id: {name}, name: V, description: a test}}\npatches:\n{patches}",
                    encoding="utf-8")
    return path


def loaded(folder: Path, *variants: str, track: str | None = None):
    report = Report()
    rs = load_ruleset(folder, variants=list(variants), report=report, track=track)
    assert rs is not None and report.ok, report.render()
    return rs


def game(folder: Path, *variants: str, seed: int = 1) -> Game:
    report = Report()
    plan = compile_ruleset(loaded(folder, *variants), 2, report)
    assert plan is not None, report.render()
    return Game(plan, seed, trace=True)


def refused(folder: Path, *variants: str) -> Report:
    """The report of a ruleset that must not load or compile."""
    report = Report()
    rs = load_ruleset(folder, variants=list(variants), report=report)
    if rs is not None:
        compile_ruleset(rs, 2, report)
    assert not report.ok
    return report


def one(report: Report, code: str, path: Path | None = None, needle: str | None = None):
    errors = [d for d in report.items if d.severity == "error"]
    assert [d.code for d in errors] == [code], report.render()
    d = errors[0]
    if path is not None and needle is not None:
        line, col = find(path, needle)
        assert (d.loc.file, d.loc.line, d.loc.col) == (str(path), line, col), report.render()
    return d


def said(g: Game) -> list[str]:
    return [e[2] for e in g.st.trace if e[0] == "say"]


def play_first(g: Game, label_start: str) -> None:
    d = g.decision()
    g.choose(next(i for i, x in enumerate(d.labels()) if x.startswith(label_start)))


# ---- the base game, as written -------------------------------------------------------------------

def test_the_small_game_plays_with_its_return_value_event_params_and_maps(mini):
    g = game(mini)
    hand = [g.plan.card_types[g.plan.card_type[c]] for c in g.st.piles[g.plan.pile_base["hand"]]]
    play_first(g, "play high" if "high" in hand else "play low")
    seat1 = g.view(None)["seats"][0]
    best = 3 if "high" in hand else 1
    assert seat1["best_seen"] == best and seat1["score"] == best  # `return` gave the best card
    # the trigger got the event's values: the tally of seat 1 and its mark
    assert g.view(None)["game"]["tally"] == {"seat 1": best}
    assert g.view(None)["game"]["marks"] == [1, 0]


# ---- patches on the merged game: cards, includes, tracks ------------------------------------------

def test_a_variant_sets_the_count_and_a_property_of_an_included_card(mini):
    variant(mini, "  - set: cards.high.count\n    to: 5\n"
                  "  - set: cards.low.props.points\n    to: 2\n")
    rs = loaded(mini, "v")
    counts = {c.id: c.count for c in rs.cards}
    assert counts == {"low": 4, "high": 5}
    assert {c.id: c.props["points"] for c in rs.cards} == {"low": 2, "high": 3}
    # the base is unchanged
    assert {c.id: c.count for c in loaded(mini).cards} == {"low": 4, "high": 2}


def test_a_variant_adds_and_removes_card_types(mini):
    variant(mini, "  - add: cards\n    id: joker\n"
                  "    item: {count: 1, starts_in: deck, props: {points: 9}}\n"
                  "  - remove: cards.low\n")
    rs = loaded(mini, "v")
    assert [c.id for c in rs.cards] == ["high", "joker"]
    g = game(mini, "v")
    assert len(g.st.where) == 3


def test_a_variant_removes_an_include(mini):
    variant(mini, "  - remove: include\n    item: ../../cards/mini/cards.yaml\n"
                  "  - add: cards\n    id: blank\n"
                  "    item: {count: 6, starts_in: deck, props: {points: 0}}\n")
    rs = loaded(mini, "v")
    assert [c.id for c in rs.cards] == ["blank"]


def test_set_include_replaces_the_list_of_includes(mini):
    (mini.parent.parent / "cards" / "mini" / "other.yaml").write_text(
        'source: "authored for a test"\ncards:\n'
        '  - {id: odd, count: 6, starts_in: deck, props: {points: 5}}\n',
        encoding="utf-8")
    variant(mini, "  - set: include\n    to: [../../cards/mini/other.yaml]\n")
    assert [c.id for c in loaded(mini, "v").cards] == ["odd"]
    variant(mini, "  - add: include\n    item: ../../cards/mini/other.yaml\n", "w")
    assert [c.id for c in loaded(mini, "w").cards] == ["low", "high", "odd"]


def test_a_patch_on_a_card_the_game_does_not_have_is_placed_with_a_hint(mini):
    path = variant(mini, "  - set: cards.hihg.count\n    to: 1\n")
    d = one(refused(mini, "v"), "E042", path, "cards.hihg")
    assert "high" in (d.hint or "")


def test_a_set_to_the_value_already_there_is_a_warning(mini):
    path = variant(mini, "  - set: params.hand_size\n    to: 2\n")
    report = Report()
    assert load_ruleset(mini, variants=["v"], report=report) is not None and report.ok
    (w,) = report.items
    assert (w.severity, w.code, w.loc.line) == ("warning", "W040", find(path, "params.hand_size")[0])


@pytest.fixture
def heat_project(tmp_path) -> Path:
    for part in ("rulesets/heat", "cards/heat", "tracks/heat"):
        shutil.copytree(ROOT / part, tmp_path / part)
    return tmp_path / "rulesets" / "heat"


def test_a_set_to_a_tracks_own_value_is_no_warning(heat_project):
    """`set: boards.track.laps to: 2` does nothing on the tracks of 2 laps, but the Italian track
    has 3: what a track writes may differ on another, so it is not said to do nothing."""
    path = heat_project / "variants" / "two-laps.yaml"
    path.write_text("variant: {id: two-laps, name: Two laps, description: a test}\n"
                    "patches:\n  - set: boards.track.laps\n    to: 2\n", encoding="utf-8")
    for track in (None, "italy"):
        report = Report()
        rs = load_ruleset(heat_project, variants=["two-laps"], track=track, report=report)
        assert rs is not None and report.items == []
        assert rs.game.boards["track"].laps == 2
    # a value the game file writes (the same on every track) is still said
    path.write_text("variant: {id: two-laps, name: Two laps, description: a test}\n"
                    "patches:\n  - set: params.hand_size\n    to: 7\n", encoding="utf-8")
    report = Report()
    assert load_ruleset(heat_project, variants=["two-laps"], report=report) is not None
    assert [d.code for d in report.items] == ["W040"]


def test_validate_says_no_set_of_a_board_does_nothing_where_another_track_differs(heat_project, capsys,
                                                                                  monkeypatch):
    """`validate` plays every track: `laps: 2` set again does nothing on the USA's board, but Italy's
    track has 3 (W040 said "the patch does nothing")."""
    from interpreter.cli import main

    (heat_project / "variants" / "two-laps.yaml").write_text(
        "variant: {id: two-laps, name: Two laps, description: a test}\n"
        "patches:\n  - set: boards.track.laps\n    to: 2\n", encoding="utf-8")
    monkeypatch.chdir(heat_project.parent.parent)
    assert main(["validate", "rulesets/heat", "--variant", "two-laps"]) == 0
    assert "W040" not in capsys.readouterr().err


@pytest.mark.parametrize("track", [None, "italy", "france", "great-britain"])
def test_a_variant_patches_the_track_of_any_track_file(heat_project, track):
    """Patches apply after the includes and after `--track`: they see the track raced on."""
    variant(heat_project, "  - set: boards.track.laps\n    to: 1\n"
                          "  - set: boards.track.lines[kind=corner,name=B].limit\n    to: 9\n"
                          "  - add: boards.track.lines\n    item: {at: 1, kind: corner, name: Z, limit: 1}\n")
    board = loaded(heat_project, "v", track=track).game.boards["track"]
    base = loaded(heat_project, track=track).game.boards["track"]
    assert board.laps == 1 and base.laps in (2, 3)
    corners = {ln.name: ln.limit for ln in board.lines if ln.kind == "corner"}
    base_corners = {ln.name: ln.limit for ln in base.lines if ln.kind == "corner"}
    assert corners["B"] == 9 and corners["Z"] == 1
    assert {k: v for k, v in corners.items() if k not in ("B", "Z")} == \
        {k: v for k, v in base_corners.items() if k != "B"}


# ---- extension points: before, after, around ------------------------------------------------------

def test_extend_a_procedure_before_and_after_keeps_its_own_statements(mini):
    variant(mini, "  - extend: procedures.score_card\n    before: |\n      say \"before {c.type}\"\n"
                  "  - extend: procedures.score_card\n    after: |\n      s.score += 10\n")
    g = game(mini, "v")
    play_first(g, "play")
    seat1 = g.view(None)["seats"][0]
    assert seat1["score"] >= 11  # its own `+= worth(c)`, then the 10 after
    assert said(g)[0].startswith("before ")


def test_extend_around_runs_the_rule_where_proceed_is_and_nests(mini):
    variant(mini, "  - extend: steps.play\n    around: |\n"
                  "      say \"in\"\n      proceed\n      say \"out\"\n"
                  "  - extend: steps.play\n    around: |\n      say \"outer\"\n      proceed\n")
    g = game(mini, "v")
    assert said(g) == ["outer", "in"]  # waiting for the choice inside the first `around`
    play_first(g, "pass")
    assert said(g)[:3] == ["outer", "in", "out"]


def test_extend_setup_phases_and_triggers(mini):
    variant(mini, "  - extend: setup\n    after: |\n      say \"dealt\"\n"
                  "  - extend: triggers.count\n    after: |\n      say \"counted {k}\"\n")
    g = game(mini, "v")
    assert said(g) == ["dealt"]
    play_first(g, "play")
    assert said(g)[1].startswith("counted ")


def test_extend_a_function_around_its_own_value(mini):
    variant(mini, "  - extend: functions.worth\n    around: \"base * 10\"\n")
    g = game(mini, "v")
    play_first(g, "play")
    assert g.view(None)["seats"][0]["score"] in (10, 30)


def test_extend_a_phase_until_and_the_result_around_their_own_values(mini):
    variant(mini, "  - update: phases.main\n    with: {rounds: null, until: \"round == 2\"}\n"
                  "  - extend: phases.main.until\n    around: \"round == 1 or base\"\n"
                  "  - extend: result.rank\n    around: \"0 - base\"\n")
    g = game(mini, "v")
    while not g.over:
        play_first(g, "play")
    assert g.st.g["round"] == 1
    r = g.result()
    scores = [g.view(None)["seats"][s]["score"] for s in range(2)]
    assert r["scores"] == [-x for x in scores]


def test_extend_a_named_statement(mini):
    variant(mini, "  - extend: statements.gain\n    after: |\n      s.score += 100\n")
    g = game(mini, "v")
    play_first(g, "play")
    assert g.view(None)["seats"][0]["score"] > 100


# ---- named choices and statements -----------------------------------------------------------------

def test_an_option_is_added_to_a_named_choice_in_place(mini):
    variant(mini, "  - add: choices.play\n    before: pass\n    option: |\n"
                  "      option \"double or nothing\" as double:\n          s.score += 2\n")
    g = game(mini, "v")
    labels = g.decision().labels()
    assert labels[-2:] == ["double or nothing", "pass"]
    play_first(g, "double")
    assert g.view(None)["seats"][0]["score"] == 2


def test_an_option_is_replaced_or_removed(mini):
    variant(mini, "  - replace: choices.play.pass\n    option: |\n"
                  "      option \"skip, scoring 1\" as pass:\n          s.score += 1\n", "a")
    variant(mini, "  - remove: choices.play.pass\n", "b")
    g = game(mini, "a")
    assert g.decision().labels()[-1] == "skip, scoring 1"
    g = game(mini, "b")
    assert all(x.startswith("play ") for x in g.decision().labels())


def test_an_options_condition_is_extended_around_its_own(mini):
    # `pass` had no condition (`base` is true): now only without a high card; `play_card` had none:
    # now only a high card. Every choice then has one option, taken at once: the game plays itself.
    variant(mini, "  - extend: choices.play.pass.if\n"
                  "    around: \"base and size([x for x in hand(s) if x.type == \\\"high\\\"]) == 0\"\n"
                  "  - extend: choices.play.play_card.if\n    around: \"base and c.type == \\\"high\\\"\"\n")
    scores = []
    for seed in range(1, 8):
        g = game(mini, "v", seed=seed)
        assert g.over
        scores += [seat["score"] for seat in g.view(None)["seats"]]
    assert all(x % 3 == 0 for x in scores) and max(scores) > 0  # only high cards (3 points) scored


PAIR = """\
  - add: choices.play
    option: |
      option "play {c.type} and {d.type}" for c in distinct(hand(s)) for d in hand(s) if c.points < d.points:
          move c to discard face up
          move d to discard face up
          say "{s} plays {c.type} and {d.type}"
          score_card(s, c)
          score_card(s, d)
"""


def test_an_option_goes_through_two_lists_and_binds_both(mini):
    # the second `for` sees the first, the `if` sees both; each pair is one option with its own
    # label, and the option's block gets both values
    variant(mini, PAIR)
    for seed in range(1, 30):
        g = game(mini, "v", seed=seed)
        d = g.decision()
        pairs = [x for x in d.labels() if " and " in x]
        if pairs:
            break
    assert pairs == ["play low and high"], d.labels()
    g.choose(d.labels().index("play low and high"))
    assert said(g) == ["seat 1 plays low and high"]
    assert g.view(None)["seats"][0]["score"] == 4 and g.decision().seat == 1


def test_an_option_of_two_fors_is_explained_as_written_and_played_by_bots(mini):
    from interpreter.agents.greedy import GreedyAgent
    from interpreter.lang import unparse
    from interpreter.session.playing import play
    variant(mini, PAIR)
    rs = loaded(mini, "v")
    text = unparse.block(rs.rules.tree("steps.play").body)
    assert 'for c in distinct(hand(s)) for d in hand(s) if c.points < d.points' in text
    for seed in range(1, 6):  # a bot's look at the option plays it alone, with both values
        g = game(mini, "v", seed=seed)
        play(g, [GreedyAgent(f"{seed}/{k}") for k in range(2)])
        assert g.over


def test_an_options_fors_need_names_of_their_own(mini):
    variant(mini, "  - add: choices.play\n    option: |\n"
                  "      option \"x\" for c in cards(hand(s)) for c in cards(hand(s)):\n          pass\n")
    one(refused(mini, "v"), "E125")


def test_a_named_statement_is_replaced_or_removed(mini):
    variant(mini, "  - replace: statements.gain\n    do: |\n      s.score += 7\n", "a")
    variant(mini, "  - remove: statements.gain\n", "b")
    g = game(mini, "a")
    play_first(g, "play")
    assert g.view(None)["seats"][0]["score"] == 7
    g = game(mini, "b")
    play_first(g, "play")
    assert g.view(None)["seats"][0]["score"] == 0
    assert g.view(None)["game"]["marks"] == [1, 0]  # the event is still raised


# ---- misuses: one diagnostic each, at the patch --------------------------------------------------

@pytest.mark.parametrize("patch, code, needle", [
    ("  - extend: procedures.scor_card\n    after: \"pass\"\n", "E050", "procedures.scor_card"),
    ("  - extend: functions.worth\n    after: \"pass\"\n", "E052", "functions.worth"),
    ("  - extend: procedures.best\n    before: \"pass\"\n    after: \"pass\"\n", "E052", "procedures.best"),
    ("  - extend: steps.look\n    around: \"pass\"\n", "E052", "around"),
    ("  - add: choices.plya\n    option: |\n      option \"x\":\n          pass\n", "E050", "choices.plya"),
    ("  - remove: choices.play.nothing\n", "E042", "choices.play.nothing"),
    ("  - replace: statements.gian\n    do: \"pass\"\n", "E050", "statements.gian"),
    ("  - replace: statements.gain\n", "E047", "statements.gain"),
])
def test_each_misuse_of_an_extension_is_one_error_at_the_patch(mini, patch, code, needle):
    path = variant(mini, patch)
    d = one(refused(mini, "v"), code)
    assert d.loc is not None and d.loc.file == str(path), d
    assert d.loc.line == find(path, needle)[0], d


def test_an_around_without_proceed_is_said_at_its_first_statement(mini):
    """Written as a block, the extension's first statement is where it is said (it was the block's
    first column)."""
    path = variant(mini, "  - extend: steps.look\n    around: |\n      pass\n")
    d = one(refused(mini, "v"), "E052")
    assert d.loc is not None and (d.loc.line, d.loc.col) == find(path, "pass"), d


def test_a_name_given_twice_must_say_which(mini):
    (mini / "game.yaml").write_text(MINI.replace("s.best_seen = b", "s.best_seen = b as gain"),
                                    encoding="utf-8")
    path = variant(mini, "  - remove: statements.gain\n")
    d = one(refused(mini, "v"), "E051", path, "statements.gain")
    assert "2 statements" in d.message


def test_proceed_outside_an_around_and_return_outside_a_procedure_are_errors(mini):
    (mini / "game.yaml").write_text(MINI.replace("let b = best(s)", "proceed\n          let b = best(s)"),
                                    encoding="utf-8")
    one(refused(mini), "E143", mini / "game.yaml", "proceed")
    (mini / "game.yaml").write_text(MINI.replace("let b = best(s)", "return 1\n          let b = best(s)"),
                                    encoding="utf-8")
    one(refused(mini), "E145", mini / "game.yaml", "return 1")


def test_a_procedure_with_a_value_is_called_on_its_own_line(mini):
    (mini / "game.yaml").write_text(MINI.replace("let b = best(s)", "let b = best(s) + 1"),
                                    encoding="utf-8")
    one(refused(mini), "E144", mini / "game.yaml", "best(s) + 1")


def test_each_trigger_of_an_event_names_its_values_as_it_likes(mini):
    # the base's trigger says `s` and `k`; this one `who` and `n`, and waits for a decision
    variant(mini, "  - add: triggers\n    item:\n      id: other\n      on: scored\n"
                  "      params: {who: seat, n: int}\n      do: |\n        say \"{who} scored {n}\"\n"
                  "        choose \"ok?\" by who:\n            option \"yes\":\n                pass\n"
                  "            option \"no\":\n                pass\n")
    g = game(mini, "v")
    play_first(g, "play low")
    assert said(g) == ["seat 1 scored 1"] and g.decision().seat == 0


def test_triggers_of_one_event_agree_on_what_it_carries(mini):
    variant(mini, "  - add: triggers\n    item:\n      id: other\n      on: scored\n"
                  "      params: {s: seat}\n      do: \"pass\"\n")
    one(refused(mini, "v"), "E146")


# ---- data: lists, maps, nested comprehensions, card properties that are maps --------------------

def test_maps_and_lists_in_state_are_values(mini):
    (mini / "game.yaml").write_text(MINI.replace("          let b = best(s)\n", """\
          let b = best(s)
          let copy = marks
          copy[1] = 99
          say "{copy} {marks} {tally.nobody} {size(tally)}"
          tally.seen += 1
          say "{tally} {\\"seen\\" in tally} {[k for k in tally]}"
          say "{[[i, j] for i in 1..2 for j in 1..i if i != j]}"
          say "{[c.symbols.boost for c in hand(s)]} {[c.symbols.cooldown for c in hand(s)]}"
"""), encoding="utf-8")
    g = game(mini)
    lines = said(g)
    # what `say` shows reads as a sentence: lists as `a and b`, maps as `key: value`
    assert lines[0] == "99 and 0 0 and 0 0 0"    # a copy changed, the state not; absent key: 0
    assert lines[1] == "seen: 1 yes seen"
    assert lines[2] == "2 and 1"
    hand = [g.plan.card_types[g.plan.card_type[c]] for c in g.st.piles[g.plan.pile_base["hand"]]]
    boosts = [1 if t == "low" else 0 for t in hand]
    cools = [0 if t == "low" else 2 for t in hand]
    def sentence(xs):
        return ", ".join(map(str, xs[:-1])) + f" and {xs[-1]}" if len(xs) > 1 else str(xs[0])
    assert lines[3] == f"{sentence(boosts)} {sentence(cools)}"


def test_map_literals_and_empty_defaults(mini):
    (mini / "game.yaml").write_text(MINI.replace("          let b = best(s)\n", """\
          let b = best(s)
          let m = {1: [2], 3: []}
          m[5] = m[9] + [1]
          tally = {"x": 2}
          let e = size({})
          say "{m} {tally} {e}"
"""), encoding="utf-8")
    assert said(game(mini))[0] == "1: 2, 3: none, 5: 1 x: 2 0"


@pytest.mark.parametrize("text, code", [
    ("let m = {1: 2, \"a\": 3}", "E120"),      # keys of one type
    ("let m = {1: 2, 3: \"a\"}", "E120"),      # values of one type
    ("let m = {[1]: 2}", "E120"),              # a list is not a key
    ("tally = {1: 2}", "E120"),                # the declared keys are text
])
def test_map_literals_are_typed(mini, text, code):
    (mini / "game.yaml").write_text(MINI.replace("let b = best(s)", f"{text}\n          let b = best(s)"),
                                    encoding="utf-8")
    d = one(refused(mini), code)
    assert d.loc.line == find(mini / "game.yaml", text)[0], d


@pytest.mark.parametrize("line, code", [
    ("tally[1] = 2", "E120"),                 # the keys are text
    ("marks[\"a\"] = 2", "E120"),             # a list index is an int
    ("tally.x = \"a\"", "E120"),               # the values are ints
    ("s.number[1] = 2", "E110"),              # not a state of the seat
    ("hand_size[1] = 2", "E126"),             # a parameter cannot change
])
def test_wrong_uses_of_lists_and_maps_are_type_errors(mini, line, code):
    (mini / "game.yaml").write_text(MINI.replace("let b = best(s)", f"{line}\n          let b = best(s)"),
                                    encoding="utf-8")
    d = one(refused(mini), code)
    assert d.loc.line == find(mini / "game.yaml", line)[0], d


def test_an_item_outside_a_list_is_a_rule_error_when_played(mini):
    from interpreter.base.errors import RuleError

    text = MINI.replace("let b = best(s)", "marks[3] = 1\n          let b = best(s)")
    (mini / "game.yaml").write_text(text, encoding="utf-8")
    report = Report()
    plan = compile_ruleset(load_ruleset(mini, report=report), 2, report)
    assert plan is not None, report.render()
    with pytest.raises(RuleError, match="index 3 is outside the list"):
        Game(plan, 1)


def test_a_state_type_that_is_not_one_is_refused(mini):
    (mini / "game.yaml").write_text(MINI.replace('"map[text, int]"', '"map[list[int], int]"'),
                                    encoding="utf-8")
    one(refused(mini), "E111")


def test_an_option_of_two_long_lists_stops_at_the_step_limit(mini):
    # each list inside is counted each time round the loop outside it: a hundred thousand squared
    # options stop within the game's steps, not after 10**10 of them
    from interpreter.base.errors import RuleError
    variant(mini, "  - add: choices.play\n    option: |\n"
                  "      option \"{a}, {b}\" for a in 1..100000 for b in 1..100000 if a == b:\n"
                  "          pass\n")
    with pytest.raises(RuleError, match="max_steps"):
        game(mini, "v").decision()


def test_an_option_of_a_product_past_the_list_limit_stops_as_it_grows(mini):
    # a thousand by a thousand, every pair allowed: stopped when the options pass the list limit,
    # not a million options in memory and then the step limit ("the game does not end")
    from interpreter.base.errors import RuleError
    variant(mini, "  - add: choices.play\n    option: |\n"
                  "      option \"{a}, {b}\" for a in 1..1000 for b in 1..1000:\n"
                  "          pass\n")
    with pytest.raises(RuleError, match="more than 100000 options") as e:
        game(mini, "v").decision()
    assert e.value.loc is not None and e.value.loc.file.endswith("v.yaml")


def test_a_name_the_base_game_has_already_is_said_at_both(heat_project):
    """A designer's file that adds a name the base game has (one it added since, say): E045 at the
    new one, naming where the game's is, with a rename hint."""
    path = heat_project / "variants" / "clash.yaml"
    path.write_text("variant: {id: clash, name: Clash, description: a test}\npatches:\n"
                    "  - add: params\n    id: hand_size\n    item: 5\n"
                    "  - add: phases.race.steps\n    item: {id: discard, do: \"pass\"}\n", encoding="utf-8")
    report = Report()
    assert load_ruleset(heat_project, variants=["clash"], report=report) is None
    game = heat_project / "game.yaml"
    param, step = [d for d in report.items if d.code == "E045"]
    assert (param.loc.file, param.loc.line) == (str(path), 4)
    assert f"(declared at {game}:{find(game, 'hand_size:')[0]}:3)" in param.message
    assert "`my_hand_size`" in param.hint and "`replace`" in param.hint
    assert step.loc.line == 7 and f"(declared at {game}:{find(game, 'id: discard')[0]}:" in step.message


def test_a_module_and_a_variant_of_one_name_are_said_at_both(heat_project, capsys):
    """Modules and variants are one namespace: a designer's module `two-laps` beside the variant
    `two-laps` is an error at both files (validate), and a `requires:` naming it cannot say which."""
    body = ("{id: two-laps, name: Two laps, description: a test}\n"
            "patches:\n  - set: boards.track.laps\n    to: 2\n")
    variant_file = heat_project / "variants" / "two-laps.yaml"
    module_file = heat_project / "modules" / "two-laps.yaml"
    variant_file.write_text("variant: " + body, encoding="utf-8")
    module_file.write_text("module: " + body, encoding="utf-8")
    (heat_project / "variants" / "needs.yaml").write_text(
        "variant: {id: needs, name: Needs, description: a test, requires: [two-laps]}\n"
        "patches:\n  - set: params.hand_size\n    to: 6\n",
        encoding="utf-8")
    report = Report()
    assert load_ruleset(heat_project, variants=["needs"], report=report) is None
    (d,) = report.items
    assert d.code == "E054" and d.loc.file == str(heat_project / "variants" / "needs.yaml")
    from interpreter.authoring.validate import validate_path
    said = validate_path(module_file, play=0, cache=False).report.items
    clashes = sorted(d.loc.file for d in said if d.code == "E054")
    assert clashes == sorted([str(module_file), str(variant_file)])


def test_a_misspelt_board_event_gets_a_did_you_mean(heat_project):
    """A trigger on an event no rule emits: the hint names the events the game has, its boards'
    (`piece_moved`) among them, not only the built-in ones."""
    (heat_project / "variants" / "ev.yaml").write_text(
        "variant: {id: ev, name: Ev, description: a test}\npatches:\n  - add: triggers\n    item:\n"
        "      id: hello\n      on: piece_moevd\n      do: pass\n", encoding="utf-8")
    report = Report()
    rs = load_ruleset(heat_project, variants=["ev"], report=report)
    assert rs is not None and check(rs, report) is None
    (d,) = [d for d in report.items if d.code == "E131"]
    assert d.hint is not None and d.hint.startswith("did you mean `piece_moved`")


def test_a_variant_adds_a_fact_to_a_view_the_game_has_not_written_and_a_die(mini):
    """`add: view.game` in a game with no `view:` (it said `game` does not exist there), and `add:
    dice` (a section a game may not have) work as other mapping sections do."""
    variant(mini, "  - add: view.game\n    id: bonus\n    item: {value: \"3 + 4\", label: \"bonus\"}\n"
                  "  - add: dice\n    id: d3\n    item: [1, 2, 3]\n")
    assert loaded(mini, "v").game.dice == {"d3": [1, 2, 3]}
    g = game(mini, "v")
    assert g.view(None)["game_facts"] == ["bonus 7"]


def test_an_options_condition_is_extended_by_its_name_and_a_missing_name_is_said(tmp_path, capsys):
    """`extend: choices.pit_discard.discard.if` (Formula 5's pit stop discards, named): a variant
    allows at most two discards without copying the procedure; aiming at an option the choice has
    not is E042 with the options' names (it was E050 "names no value of the game")."""
    import shutil

    from interpreter.cli import main

    root = Path(__file__).resolve().parents[1]
    folder = tmp_path / "rulesets" / "formula5"
    shutil.copytree(root / "rulesets" / "formula5", folder)
    shutil.copytree(root / "cards" / "formula5", tmp_path / "cards" / "formula5")
    variant = folder / "variants" / "short-pit.yaml"
    patch = ("variant: {id: short-pit, name: Short pit, description: two discards}\npatches:\n"
             "  - extend: choices.pit_discard.OPTION.if\n    around: \"base and n < 2\"\n")
    variant.write_text(patch.replace("OPTION", "discard"), encoding="utf-8")
    assert main(["validate", str(variant)]) == 0
    capsys.readouterr()
    variant.write_text(patch.replace("OPTION", "discrad"), encoding="utf-8")
    assert main(["validate", str(variant)]) == 1
    err = capsys.readouterr().err
    assert "error[E042]: choice `pit_discard` has no option named `discrad`" in err and "`discard`" in err
