"""The table at a terminal: lines in colour, a person at the keyboard, views drawn as text."""
