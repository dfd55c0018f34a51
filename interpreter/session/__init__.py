"""What every command shares: a game loaded for a command (`load.py`), agents for its seats
(`agents.py`), a game played with them (`playing.py`), game records (`record.py`), the budget of
a run (`budget.py`), and the command line's shared arguments (`args.py`)."""
