"""Independent pieces of a stage run side by side in worker processes (edition/engine/spread.py): the same
edition, the same bytes, as one process makes; and a serve cache runs only the pieces it does not keep."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from edition.engine.cache import NoCache
from edition.site.cache import SiteCache
from tests.support import ROOT


def _python(code: str) -> str:
    """``code`` run in a fresh interpreter (one thread: pytest's workers may run others, and then nothing is
    spread); its standard output."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_jobs_run_in_other_processes_and_come_back_in_order():
    out = _python(
        """
        import json, os
        from functools import partial
        from edition.engine import spread
        spread.LEAST_WORK = 0
        jobs = [(work, partial(lambda k: (k * k, os.getpid()), k)) for k, work in enumerate([1, 50, 3, 20, 7])]
        print(json.dumps({"results": spread.in_order(jobs), "me": os.getpid()}))
        """
    )
    got = json.loads(out)
    assert [r for r, _ in got["results"]] == [0, 1, 4, 9, 16]
    assert got["me"] not in {pid for _, pid in got["results"]}


def test_an_edition_spread_over_processes_is_the_same_bytes_as_one_process_makes():
    out = _python(
        """
        import json
        from edition.engine import spread
        from edition.engine.export import to_dict, to_json
        from tests.kinds import edition_folder, kinds
        from tests.support import build_folder
        import tempfile, pathlib
        ran = []
        serial = spread.in_order
        def counted(jobs):
            ran.append(len(jobs))
            return serial(jobs)
        with tempfile.TemporaryDirectory() as tmp:
            # copies (the chronicles: their comparisons are spread too) and independent tellings of other kinds
            files = [f for k in ("chronicle", "novel") for f in kinds()[k]]
            folder = edition_folder(pathlib.Path(tmp) / "w", files)
            spread.LEAST_WORK = 10**12
            one = to_json(to_dict(build_folder(folder)))
            spread.LEAST_WORK = 0
            import edition.engine.pipeline as pipeline, edition.engine.notes as notes
            pipeline.in_order = notes.in_order = counted
            many = to_json(to_dict(build_folder(folder)))
        print(json.dumps({"same": one == many, "spread": ran}))
        """
    )
    got = json.loads(out)
    assert got["spread"] and got["spread"][0] == 5  # the five episodes' rows were spread
    assert got["same"]


def test_a_serve_cache_runs_only_the_jobs_it_does_not_keep_and_keeps_their_order():
    cache = SiteCache()
    ran: list[list[str]] = []

    def run(jobs):
        ran.append(list(jobs))
        return [job.upper() for job in jobs]

    assert cache.get_all([(("a",), "a"), (("b",), "b")], run) == ["A", "B"]
    cache.end_build()
    assert cache.get_all([(("c",), "c"), (("b",), "b"), (("a",), "a")], run) == ["C", "B", "A"]
    assert ran == [["a", "b"], ["c"]]
    assert cache.get_all([(("a",), "a")], run) == ["A"] and ran[-1] == ["c"]  # kept within the build too
    assert NoCache().get_all([(("x",), "x")], run) == ["X"]
