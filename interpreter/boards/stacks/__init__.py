"""The stack track: pieces that stand one on another and carry those on their backs."""
