"""Racecraft: check."""
