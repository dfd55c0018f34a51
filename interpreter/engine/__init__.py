"""Racecraft: engine."""
