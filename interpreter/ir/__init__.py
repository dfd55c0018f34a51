"""Racecraft: ir."""
