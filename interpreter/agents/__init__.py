"""Racecraft: agents."""
