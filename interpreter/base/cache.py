"""A mapping that keeps at most so many entries, dropping the least recently used: what a
process keeps of the files and rule texts it has read stays bounded however long it runs."""
from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Bounded(Generic[K, V]):
    """A dictionary that keeps at most `size` entries, the oldest dropped first."""

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def __setitem__(self, key: K, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)

    def clear(self) -> None:
        self._items.clear()

    def pop(self, key: K, default: V | None = None) -> V | None:
        """Forget `key` (a file read again must be read from its disk, not from here)."""
        return self._items.pop(key, default)
