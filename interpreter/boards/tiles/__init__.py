"""The tile grid: the kind (`kind.py`), its text drawing (`text.py`) and its picture (`picture.py`)."""
