"""Racecraft: load."""
