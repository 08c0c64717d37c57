"""The cache a long-running shell (``mkdocs serve``) keeps between builds.

Keys are made by the callers from the whole input of what they compute (text
digests, the resources' digest, the export fragment a page is rendered from), so
an entry can never be stale; entries not used by the last build are dropped after
it, so the cache holds one build's worth of results however long the server runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class SiteCache:
    def __init__(self) -> None:
        self._kept: dict[tuple, object] = {}
        self._used: dict[tuple, object] = {}
        self.hits = 0
        self.misses = 0

    def get(self, key: tuple, compute: Callable[[], T]) -> T:
        """``compute()``, or its result from an earlier build with the same key."""
        if key in self._used:
            self.hits += 1
            return self._used[key]  # type: ignore[return-value]
        if key in self._kept:
            self.hits += 1
            value = self._kept.pop(key)
        else:
            self.misses += 1
            value = compute()
        self._used[key] = value
        return value  # type: ignore[return-value]

    def end_build(self) -> None:
        """Keep what this build used; forget the rest."""
        self._kept = self._used
        self._used = {}
        self.hits = self.misses = 0
