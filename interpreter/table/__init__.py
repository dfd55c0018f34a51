"""A game at a table: what a seat sees (its view, the narrated log, what each option would do),
replays; the terminal front end is `table/terminal/`."""
