"""A stage's independent pieces of work (an episode's rows, a copy's collation) run side by side in worker
processes when they are large enough to pay for it.

The engine is pure Python and one process uses one CPU; a large edition (20 witnesses of 100,000 characters)
spends most of its time in pieces that read nothing of each other. Each piece is a picklable call of a
module-level function; the results come back in the pieces' order, computed by the same code from the same
input, so the edition is the same bytes one process makes (a worker has another hash seed: no stage depends
on the order of a set's hashes, which ``tests/test_export.py`` checks across hash seeds).

Small work stays in the process, where starting the workers would cost more than it saves (the seeds). The
workers are copies of the calling process (``fork``): they find the jobs where the caller left them, and only
the results travel back. A process that runs other threads (``mkdocs serve``'s server, a test runner's) is not
copied: a copy could inherit a lock one of them held, which no thread of the copy would ever release; there
the jobs run one after the other, as they do where ``fork`` is not to be had.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

T = TypeVar("T")

# the least work (letters read, times the texts each is compared with) the pieces must hold between them to be
# spread: below it the workers' start costs more than it saves (the seeds' rows are 45,000; the development
# set's, 22 witnesses, 350,000). Not a parameter of the edition: it changes how fast, never what.
LEAST_WORK = 150_000


def workers() -> int:
    """The CPUs this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


Job = tuple[int, Callable[[], T]]  # how much work a piece is (see ``LEAST_WORK``), and the call that does it


def in_order(jobs: Sequence[Job[T]]) -> list[T]:
    """Each job's result, in the jobs' order: in worker processes when the jobs hold ``LEAST_WORK`` between them
    and there are two of them and two CPUs, the largest first (so the last to finish is a small one)."""
    n = min(workers(), len(jobs))
    if (
        n < 2
        or sum(work for work, _ in jobs) < LEAST_WORK
        or threading.active_count() > 1
        or "fork" not in multiprocessing.get_all_start_methods()
    ):
        return [job() for _, job in jobs]
    _pending[:] = [job for _, job in jobs]
    try:
        with ProcessPoolExecutor(n, mp_context=multiprocessing.get_context("fork")) as pool:
            largest_first = sorted(range(len(jobs)), key=lambda i: -jobs[i][0])
            futures = {i: pool.submit(_run, i) for i in largest_first}
            return [futures[i].result() for i in range(len(jobs))]
    finally:
        _pending.clear()


_pending: list[Callable] = []  # the jobs of the call under way, where the workers (copies) find them


def _run(i: int):
    return _pending[i]()
