"""What every command shares: a game loaded for a command, agents for its seats, a game played
with them, game records, and the budget of a run."""
