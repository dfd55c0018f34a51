"""The cell board: the kind (`kind.py`), its text drawing (`text.py`) and its picture (`picture.py`)."""
