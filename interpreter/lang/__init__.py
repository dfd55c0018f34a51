"""Racecraft: lang."""
