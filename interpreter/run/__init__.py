"""Racecraft: run."""
