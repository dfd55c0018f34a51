"""The engine names no game: no game, card, symbol or track word in interpreter/."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Words that belong to the games we ship (their names, components, symbols, tracks).
GAME_WORDS = [
    "formula", "heat", "downforce", "stress", "slipstream", "adrenaline", "cooldown", "boost",
    "pit", "pitstop", "sponsor", "legend", "gear", "corner", "overtake", "tilerace", "auction",
    "usa", "italy", "france", "britain", "lakeshore", "river station", "speed",
]


def _engine_text():
    for path in sorted((ROOT / "interpreter").rglob("*")):
        if path.suffix in (".py", ".lark"):
            yield path, path.read_text(encoding="utf-8")


# any of the words, alone or as the start of a name (`gears`, `pit_stop`, `corner2`)
WORD = re.compile(r"\b(" + "|".join(map(re.escape, GAME_WORDS)) + r")(s|es|_\w+|\d+)?\b", re.I)


def test_engine_names_no_game_word():
    hits = []
    for path, text in _engine_text():
        for n, line in enumerate(text.splitlines(), 1):
            for m in WORD.finditer(line):
                hits.append(f"{path.relative_to(ROOT)}:{n}: {m.group(1).lower()}: {line.strip()}")
    assert not hits, "\n".join(hits)


def test_the_scan_finds_a_word_alone_and_as_the_start_of_a_name():
    found = [m.group(1).lower() for m in WORD.finditer("the gears, pit_stop and Corner2 of a speedway")]
    assert found == ["gear", "pit", "corner"]


def test_the_scan_sees_the_games_words():
    # The scan is only worth something if the rulesets do use these words.
    text = (ROOT / "rulesets" / "formula5" / "game.yaml").read_text(encoding="utf-8").lower()
    assert "pit" in text and "overtake" in text and "speed" in text
