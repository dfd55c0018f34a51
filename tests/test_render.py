"""`racecraft render`: every board of every game, and each game's table in the middle of a game,
drawn with labels that never overlap and never leave the picture; Heat's tracks in their printed
shapes; a scenario's table."""
import math
import re
from html import escape
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

from interpreter.agents.base import RandomAgent
from interpreter.cli import main
from interpreter.draw.text import table_lines
from interpreter.engine.game import Game
from interpreter.picture.svg import table_picture
from interpreter.session.load import load
from interpreter.session.record import header, write_record

ROOT = Path(__file__).resolve().parents[1]
GEOMETRY = ROOT.parent / "shared" / "data" / "heat" / "geometry.yaml"
SVG = "{http://www.w3.org/2000/svg}"
TRACKS = sorted((ROOT / "tracks").glob("*/*.yaml"))
GAMES = sorted(p.name for p in (ROOT / "rulesets").iterdir() if (p / "game.yaml").is_file())


def _boxes(svg: str):
    """Each text's box as a reader of the SVG would estimate it, from its attributes alone: 0.6
    font sizes a character, 0.75 above the baseline and 0.2 below; and the picture's viewBox."""
    root = ET.fromstring(svg)
    view = tuple(float(v) for v in root.get("viewBox").split())
    boxes = []
    for t in root.iter(SVG + "text"):
        text = "".join(t.itertext())
        size = float(t.get("font-size"))
        x, y = float(t.get("x")), float(t.get("y"))
        w = 0.6 * len(text) * size
        x0 = {"start": x, "middle": x - w / 2, "end": x - w}[t.get("text-anchor", "start")]
        boxes.append((text, (x0, y - 0.75 * size, x0 + w, y + 0.2 * size)))
    return view, boxes


def assert_labels_apart_and_inside(svg: str) -> int:
    (vx, vy, vw, vh), boxes = _boxes(svg)
    assert boxes, "a picture with no label"
    for text, (x0, y0, x1, y1) in boxes:
        assert vx <= x0 and x1 <= vx + vw and vy <= y0 and y1 <= vy + vh, f"`{text}` leaves the picture"
    ordered = sorted(boxes, key=lambda b: b[1][0])
    for i, (a, ba) in enumerate(ordered):
        for b, bb in ordered[i + 1:]:
            if bb[0] >= ba[2]:
                break
            assert not (ba[1] < bb[3] and bb[1] < ba[3]), f"`{a}` and `{b}` overlap"
    return len(boxes)


def render(tmp_path, *args) -> str:
    out = tmp_path / "picture.svg"
    assert main(["render", *map(str, args), "-o", str(out)]) == 0
    return out.read_text(encoding="utf-8")


@pytest.mark.parametrize("track", TRACKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_track_draws_with_its_labels_apart(track, tmp_path):
    svg = render(tmp_path, track)
    # a ranking (Formula 5's house track) has a label a slot; the other kinds many more
    assert assert_labels_apart_and_inside(svg) > (5 if "kind: ranking" in track.read_text("utf-8") else 10)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_board_draws_with_its_labels_apart(game, tmp_path):
    assert_labels_apart_and_inside(render(tmp_path, game))


def test_the_ranking_shows_the_piles_under_its_slots(tmp_path):
    svg = render(tmp_path, "formula5")
    assert svg.count('class="slot"') == 5 and svg.count('data-pile="column"') == 5


# a game in the middle: (ruleset, modules, players, decisions played)
MIDGAMES = [("heat", [], 3, 120), ("heat", ["weather"], 4, 150), ("downforce", [], 3, 160),
            ("formula5", [], 3, 40), ("tilerace", [], 3, 200)]


@pytest.mark.parametrize("game,modules,players,moves", MIDGAMES, ids=lambda v: str(v))
def test_a_game_in_the_middle_draws_its_table(game, modules, players, moves, tmp_path):
    loaded = load(game, modules=modules)
    plan = loaded.plan(players)
    g = Game(plan, 7)
    bots = [RandomAgent(f"7/{s}") for s in range(players)]
    decisions = []
    while not g.over and len(decisions) < moves:
        d = g.decision()
        pick = bots[d.seat].choose(g, d)
        decisions.append({"type": "decision", "n": len(decisions) + 1, "seat": d.seat, "pick": pick})
        g.choose(pick)
    record = tmp_path / "game.jsonl"
    write_record(record, header(loaded, plan, 7, ["random"] * players), decisions, None)
    svg = render(tmp_path, record, "--at", len(decisions))
    assert_labels_apart_and_inside(svg)
    view = g.view(None)
    on_board = {p["piece"] for b in view["boards"].values() for p in b.get("pieces", [])}
    assert on_board, "the game has pieces on a board by now"
    for piece in on_board:
        assert f'data-piece="{piece}"' in svg
    # the key speaks as the screen does (the game's `view:`): no name a designer wrote for the engine
    key = " ".join(re.findall(r">([^<>]+)</text>", svg.split('data-piece="')[-1]))
    assert "seats: seat 1 random" in key
    for line in table_lines(view, plan):
        assert escape(line) in key
    names = {n for n in set(plan.pile_decl) | {k[1] for k in plan.var_types} | set(plan.card_types)
             if "_" in n and n not in plan.card_names}
    assert names and not [n for n in names if re.search(rf"\b{n}\b", key)]
    assert not re.search(r"\b(yes|no)\b,", key)
    if modules == ["weather"]:  # the road tokens lie by the lines of their names
        assert ">road A: " in svg


def test_a_record_drawn_at_a_decision_it_does_not_have(tmp_path, capsys):
    loaded = load("formula5")
    plan = loaded.plan(2)
    record = tmp_path / "game.jsonl"
    write_record(record, header(loaded, plan, 1, ["random", "random"]), [], None)
    assert main(["render", str(record), "--at", "3", "-o", str(tmp_path / "x.svg")]) == 2
    assert "--at 3: the record has 0 decisions" in capsys.readouterr().err
    svg = render(tmp_path, record, "--at", 0)  # as set up: the cars on the grid, 1 to 5
    assert svg.count('class="piece"') == 5 and "after 0 of 0 decisions" in svg
    assert main(["render", "formula5", "--at", "1"]) == 2


def test_a_scenario_draws_its_situation_and_its_script(tmp_path):
    scenario = ROOT / "rulesets" / "heat" / "scenarios" / "blocking.yaml"
    before = render(tmp_path, scenario, "--at", 0)
    assert "after 0 of 7 choices of the script" in before
    for piece in ("blue", "green", "red", "black"):
        assert f'data-piece="{piece}"' in before
    assert_labels_apart_and_inside(before)
    after = render(tmp_path, scenario)
    assert "after 7 of 7 choices of the script" in after
    assert _car_at(before, "black") != _car_at(after, "black")  # black moved from 16 to 19


def test_a_scenario_is_drawn_as_check_plays_it_its_random_setup_too(tmp_path, capsys):
    """A scenario whose setup's questions random players answer (`setup: random`) is drawn after
    them (render played its script from the first question: "not an option now"); one whose script
    fails on the way is said as `check` says it."""
    scenario = ROOT / "rulesets" / "heat" / "scenarios" / "garage-free-boost-before-heat-cost.yaml"
    assert "setup: random" in scenario.read_text(encoding="utf-8")
    svg = render(tmp_path, scenario, "--at", 1)
    assert "after 1 of" in svg and "choices of the script" in svg
    broken = tmp_path / "broken.yaml"
    broken.write_text(scenario.read_text(encoding="utf-8").replace("stay in gear 1", "stay in gear 9")
                      .replace("ruleset: ..", f"ruleset: {ROOT / 'rulesets' / 'heat'}"), encoding="utf-8")
    assert main(["render", str(broken), "-o", str(tmp_path / "b.svg")]) == 1
    err = capsys.readouterr().err
    assert "\"stay in gear 9\" is not an option now" in err and "Traceback" not in err


def _car_at(svg: str, piece: str):
    m = re.search(rf'<polygon points="([^"]+)"[^>]*data-piece="{piece}"', svg)
    pts = [tuple(map(float, p.split(","))) for p in m.group(1).split()]
    return round(sum(x for x, _y in pts) / 4), round(sum(y for _x, y in pts) / 4)


@pytest.mark.skipif(not GEOMETRY.is_file(), reason="the printed data is not beside the project")
@pytest.mark.parametrize("track", ["usa", "great-britain", "italy", "france"])
def test_heat_tracks_lie_where_the_printed_board_has_them(track, tmp_path):
    """Each spot's centre in the picture is the board's data, scaled and moved as one (the
    picture is a screen's size): within 2 pixels after the best such fit."""
    data = next(t for t in yaml.safe_load(GEOMETRY.read_text(encoding="utf-8"))["tracks"] if t["id"] == track)
    svg = render(tmp_path, ROOT / "tracks" / "heat" / f"{track}.yaml")
    drawn = {}
    for m in re.finditer(r'<polygon points="([^"]+)"[^>]*data-space="(\d+)" data-spot="(\d+)"', svg):
        pts = [tuple(map(float, p.split(","))) for p in m.group(1).split()]
        drawn[(int(m.group(2)), int(m.group(3)))] = (sum(x for x, _ in pts) / 4, sum(y for _, y in pts) / 4)
    printed = {(s, k): (x, y) for s, k, x, y, _a in data["spots"]}
    assert set(drawn) == set(printed)
    keys = sorted(printed)
    px = [printed[k] for k in keys]
    dx = [drawn[k] for k in keys]
    n = len(keys)
    mx, my = sum(p[0] for p in px) / n, sum(p[1] for p in px) / n
    ux, uy = sum(p[0] for p in dx) / n, sum(p[1] for p in dx) / n
    scale = (sum((p[0] - mx) * (q[0] - ux) + (p[1] - my) * (q[1] - uy) for p, q in zip(px, dx))
             / sum((p[0] - mx) ** 2 + (p[1] - my) ** 2 for p in px))
    assert 0.5 < scale <= 1.0
    worst = max(math.dist(((p[0] - mx) * scale + ux, (p[1] - my) * scale + uy), q) for p, q in zip(px, dx))
    assert worst <= 2.0


def test_a_lane_track_without_a_picture_is_an_oval_with_its_cars(tmp_path):
    data = yaml.safe_load((ROOT / "tracks" / "heat" / "italy.yaml").read_text(encoding="utf-8"))
    del data["boards"]["track"]["picture"]
    oval = tmp_path / "oval.yaml"
    oval.write_text(yaml.safe_dump(data), encoding="utf-8")
    svg = render(tmp_path, oval)
    assert svg.count('class="spot"') == 54 * 2
    assert_labels_apart_and_inside(svg)
    # a game on it: the plan's track drawn without its picture, the cars on their spots
    plan = load("heat", track="italy").plan(4)
    kind = plan.board_kinds[0]
    kind.decl = kind.decl.model_copy(update={"picture": None})
    g = Game(plan, 3)
    bots = [RandomAgent(f"3/{s}") for s in range(4)]
    for _ in range(60):
        d = g.decision()
        g.choose(bots[d.seat].choose(g, d))
    svg = table_picture(g.view(None), plan, "Italy as an oval", "after 60 decisions")
    assert svg.count('class="piece"') == 4
    assert_labels_apart_and_inside(svg)
    # its caption in any game's words: how many laps, the pieces (no game's cars), lines it has
    assert f"{kind.decl.laps} laps" in svg and "lap(s)" not in svg and "the pieces on their spots" in svg
    assert "lines: kind, name" in svg


def test_the_key_lists_the_cars_in_the_race_and_no_colour_nobody_drives():
    """Heat has six cars; two people race two of them: the key under the track names those two.
    A legend's car, nobody's but on the track, is in it."""
    import re

    def keyed(plan) -> list[str]:
        svg = table_picture(Game(plan, 5).view(None), plan, "a race")
        return re.findall(r">(black|blue|green|red|gray|yellow) \(", svg)

    assert sorted(keyed(load("heat").plan(2))) == ["black", "blue"]
    with_legends = keyed(load("heat", modules=["legends"]).plan(2))
    assert len(with_legends) > 2 and {"black", "blue"} <= set(with_legends)


def test_each_tag_of_a_cell_board_has_its_own_tint_named_in_the_legend(tmp_path, capsys):
    """A designer's track tags cells for two rules (curves, cobbles): each tag is shaded in its own
    tint, which the legend names (they were all one blue)."""
    import shutil

    for part in ("rulesets", "cards", "tracks"):
        shutil.copytree(ROOT / part / "downforce", tmp_path / part / "downforce")
    track = tmp_path / "tracks" / "downforce" / "lakeshore-bay.yaml"
    text = track.read_text(encoding="utf-8")
    plain = re.search(r"      - \{id: (\w+), front: \d+, lane: \d+, touch:", text)
    assert plain is not None
    tagged = plain.group(0).replace("touch:", "tags: [cobbles], touch:")
    track.write_text(text.replace(plain.group(0), tagged), encoding="utf-8")
    out = tmp_path / "t.svg"
    assert main(["render", str(track), "-o", str(out)]) == 0, capsys.readouterr().err
    svg = out.read_text(encoding="utf-8")
    from interpreter.boards.cells.picture import TINTS

    named = dict(re.findall(r"(\w+): (curve|cobbles)[,;]", svg))
    assert set(named) == {"blue", "orange"}, named   # two tags, two tints
    cobbles = dict(TINTS)[next(tint for tint, tag in named.items() if tag == "cobbles")]
    cell = re.search(rf'<polygon [^>]*fill="([^"]+)"[^>]*data-cell="{plain.group(1)}"', svg)
    assert cell is not None and cell.group(1) == cobbles, cell
