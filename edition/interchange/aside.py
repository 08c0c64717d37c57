"""The TEI of a large edition made in a process of its own, while the calling one renders the site's pages.

The TEI of ten witnesses of 50,000 characters takes over a second, all of it in Python, and the site's pages
(their HTML, their search index) as long again; a machine has two CPUs. A ``mkdocs serve`` process runs the
server's threads, so the engine's ``spread`` (which copies the process) is not to be had there. One worker, a
new interpreter running this module (not ``multiprocessing``'s ``spawn``, which would run the caller's main
script again), is started the first time it is needed and kept for the life of the process; it is sent the
export as the JSON the site publishes anyway, through its standard input, and answers through its output,
where its answer waits until it is collected (``Aside.result``): no thread of the caller's is involved.

A small edition's TEI is made in the calling process, where the worker would cost more than it saves (the
seeds' takes a tenth of a second). The bytes are the same either way: the worker runs the same code on the
same export (``tests/test_tei.py``).
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import traceback
from collections.abc import Callable
from functools import partial
from pathlib import Path

from ..engine.exported import EditionJson
from . import TITLE
from .tei import to_tei

# characters of the export's JSON below which the TEI is made in the calling process (the seeds' is 220,000;
# ten witnesses of 50,000 characters, 7,600,000). Not a parameter of the edition: it changes how fast, never what.
LEAST = 2_000_000

Request = tuple[str, dict[str, str], str, "str | None"]  # the export's JSON, the texts, the title, the site's URL


class _Worker:
    """The one worker process: a request written, its answer read back later, in turn."""

    def __init__(self) -> None:
        self.pending: Aside | None = None  # the request whose answer is not read yet
        package_root = str(Path(__file__).resolve().parents[2])  # where ``edition`` is found, installed or not
        path = os.pathsep.join([package_root, *filter(None, [os.environ.get("PYTHONPATH")])])
        self.process = subprocess.Popen(
            [sys.executable, "-m", __name__],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": path},
        )

    def send(self, request: Request) -> None:
        assert self.process.stdin is not None
        pickle.dump(request, self.process.stdin, protocol=pickle.HIGHEST_PROTOCOL)
        self.process.stdin.flush()

    def receive(self) -> bytes | None:
        """The answer to the request sent last, or None when the worker stopped before it answered."""
        assert self.process.stdout is not None
        try:
            ok, answer = pickle.load(self.process.stdout)
        except (EOFError, OSError, pickle.UnpicklingError):
            self.process.kill()
            return None
        if not ok:
            raise RuntimeError(f"the worker making the TEI failed:\n{answer}")
        return answer


_worker: list[_Worker] = []


class Aside:
    """A TEI document being made: ``result()`` waits for it (once; later calls return it again). The worker answers
    its requests in turn: one not collected when the next is made is collected then."""

    def __init__(self, here: Callable[[], bytes], worker: _Worker | None = None) -> None:
        self._here, self._worker = here, worker  # ``here``: the document made in this process
        self._made = here() if worker is None else None

    def result(self) -> bytes:
        if self._made is None:
            assert self._worker is not None
            worker, self._worker = self._worker, None
            worker.pending = None
            made = worker.receive()
            self._made = self._here() if made is None else made  # a worker that stopped (killed): made here
        return self._made


def tei_aside(
    export: EditionJson, data: str, texts: dict[str, str], title: str = TITLE, url: str | None = None
) -> Aside:
    """``to_tei``'s document, to be collected with ``result()``: made in the worker when the export's JSON
    (``data``) holds ``LEAST`` characters, else here and now."""
    here = partial(to_tei, export, texts, title, url)
    if len(data) < LEAST:
        return Aside(here)
    if _worker and _worker[0].pending is not None:  # its answer first: the worker writes it before it reads again
        _worker[0].pending.result()
    if not _worker or _worker[0].process.poll() is not None:
        _worker[:] = [_Worker()]
    worker = _worker[0]
    try:
        worker.send((data, texts, title, url))
    except OSError:  # it stopped since (its pipe is closed): made here
        worker.process.kill()
        return Aside(here)
    worker.pending = Aside(here, worker)
    return worker.pending


def _serve() -> None:
    """The worker's loop: each request answered with (True, the document) or (False, the traceback), until the caller
    closes its end."""
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    while True:
        try:
            data, texts, title, url = pickle.load(inp)
        except EOFError:
            return
        try:
            answer: tuple[bool, object] = (True, to_tei(json.loads(data), texts, title, url))
        except Exception:  # sent back, raised in the caller
            answer = (False, traceback.format_exc())
        pickle.dump(answer, out, protocol=pickle.HIGHEST_PROTOCOL)
        out.flush()


if __name__ == "__main__":
    _serve()
