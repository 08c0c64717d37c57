"""The cache protocol every stage result goes through, and the digest its keys are made of.

A shell that rebuilds often (``mkdocs serve``) passes a cache whose keys are the whole input of a stage (texts,
segments, resources), so a remembered result is never stale; one build passes ``NoCache``. The site keeps its
own results behind the same protocol (``edition.site.cache``), keyed by the same digest.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")
J = TypeVar("J")


class Cache(Protocol):
    """Where a shell keeps results between builds."""

    def get(self, key: tuple, compute: Callable[[], T]) -> T: ...

    def get_all(self, keyed: Sequence[tuple[tuple, J]], run: Callable[[list[J]], list[T]]) -> list[T]:
        """The result of each (key, job), in order: those not kept computed together by ``run`` (which may
        spread them over processes, ``spread.in_order``)."""
        ...


class NoCache:
    """One build, nothing kept: every stage runs."""

    def get(self, key: tuple, compute: Callable[[], T]) -> T:
        return compute()

    def get_all(self, keyed: Sequence[tuple[tuple, J]], run: Callable[[list[J]], list[T]]) -> list[T]:
        return run([job for _, job in keyed])


def digest(text: str) -> str:
    """A short fingerprint of a text, for cache keys."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()
