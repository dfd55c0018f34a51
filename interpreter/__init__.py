"""Racecraft: a rules engine for racing board games; games are content in rulesets/."""
