"""The ranking: the kind (`kind.py`), its text drawing (`text.py`) and its picture (`picture.py`)."""
