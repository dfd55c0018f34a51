"""Racecraft's plumbing, under every stage: files a person names read and written safely
(`files.py`), diagnostics at `file:line:col` (`diagnostics.py`), the errors rules raise while a game
is played (`errors.py`), the engine's ceilings (`limits.py`), a bounded cache (`cache.py`), and the
garbage collector run rarely while a game is compiled (`collect.py`). None of it knows the language."""
