"""How to install an optional part of Racecraft (an extra of its package), said so that the command
works where this Racecraft came from: a checkout installed in place (`pip install -e`), whose
folder the command names, or a package index."""
from __future__ import annotations

from pathlib import Path


def install_hint(extra: str) -> str:
    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file():   # a checkout: its own folder, in place
        return f"pip install -e '{root}[{extra}]'"
    return f"pip install 'racecraft[{extra}]'"
