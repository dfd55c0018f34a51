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


def test_engine_names_no_game_word():
    hits = []
    for path, text in _engine_text():
        for n, line in enumerate(text.splitlines(), 1):
            for word in GAME_WORDS:
                if re.search(rf"\b{re.escape(word)}(s|es|_\w+|\d+)?\b", line, re.I):
                    hits.append(f"{path.relative_to(ROOT)}:{n}: {word}: {line.strip()}")
    assert not hits, "\n".join(hits)


def test_the_scan_sees_the_games_words():
    # The scan is only worth something if the rulesets do use these words.
    text = (ROOT / "rulesets" / "formula5" / "game.yaml").read_text(encoding="utf-8").lower()
    assert "pit" in text and "overtake" in text and "speed" in text
