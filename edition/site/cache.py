"""The cache a long-running shell (``mkdocs serve``) keeps between builds.

Keys are made by the callers from the whole input of what they compute (text
digests, the resources' digest, the export fragment a page is rendered from), so
an entry can never be stale; entries not used by the last build are dropped after
it, so the cache holds one build's worth of results however long the server runs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
J = TypeVar("J")


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

    def get_all(self, keyed: Sequence[tuple[tuple, J]], run: Callable[[list[J]], list[T]]) -> list[T]:
        """Each (key, job)'s result, in order; the jobs of keys not kept from an earlier build run together."""
        missing = [(key, job) for key, job in keyed if key not in self._used and key not in self._kept]
        done = dict(zip([key for key, _ in missing], run([job for _, job in missing]) if missing else [], strict=True))
        return [self.get(key, lambda key=key: done[key]) for key, _ in keyed]

    def end_build(self) -> None:
        """Keep what this build used; forget the rest."""
        self._kept = self._used
        self._used = {}
        self.hits = self.misses = 0
