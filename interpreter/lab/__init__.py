"""The lab: many seeded games and their statistics (simulate, compare, metrics, charts, export,
a cluster backend), and seasons of games in a row."""
