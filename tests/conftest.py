"""Shared fixtures: the edition of the real seeds, once per test session (per xdist worker); the site built from
them, once per run (the workers share it); the built site served on loopback, and Chromium, for the browser
tests, with one tab per width that every browser test reuses, made as fresh as a new one before each."""

from __future__ import annotations

import contextlib
import fcntl
import os
import random
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from edition.engine.export import to_dict
from tests.support import build_folder as build

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run"]  # fmt: skip
WIDTHS = {"desktop": (1366, 900), "phone": (390, 844)}
RESET = "__reset__"  # a path the site lacks: http.server's short 404 page, a page of the site's origin


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The ``long`` tests first, spread over the workers' shares. ``--dist worksteal`` hands each worker a
    contiguous share of the collection (the first worker the first half, with two) and a worker that runs out
    takes the tail of another's queue. With every long test at the head of the first half, one worker ran them
    all while the other ran short tests; here each long test (the longest first, by its marker's ``seconds``)
    goes to the head of the share with the fewest seconds so far, and none is left for the end."""
    long = sorted(
        (item for item in items if item.get_closest_marker("long") is not None),
        key=lambda item: -item.get_closest_marker("long").kwargs.get("seconds", 1),
    )
    rest = [item for item in items if item.get_closest_marker("long") is None]
    workers = max(1, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))
    sizes, left = [], len(items)
    for k in range(workers):  # as xdist's worksteal scheduler cuts the pending tests between idle workers
        sizes.append(left // (workers - k))
        left -= sizes[-1]
    shares: list[list[pytest.Item]] = [[] for _ in sizes]
    seconds = [0.0] * workers
    for item in long:
        k = min(range(workers), key=lambda k: (seconds[k], k))
        shares[k].append(item)
        seconds[k] += item.get_closest_marker("long").kwargs.get("seconds", 1)
    for share, size in zip(shares, sizes, strict=True):
        while len(share) < size and rest:
            share.append(rest.pop(0))
    items[:] = [item for share in shares for item in share] + rest


def run_folder(factory: pytest.TempPathFactory) -> Path:
    """The folder of this test run that every xdist worker sees (each worker's basetemp is inside it)."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def once(factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """``make(folder)`` run once per test run, whichever worker asks first (the others wait for it, under a lock
    on a file); the folder it filled. A ``make`` that fails leaves nothing: the next to ask makes it again."""
    root = run_folder(factory)
    folder, done = root / name, root / f"{name}.done"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            if folder.exists():
                shutil.rmtree(folder)
            folder.mkdir()
            make(folder)
            done.touch()
    return folder


@pytest.fixture(scope="session")
def seeds_edition():
    return build(ROOT / "seeds")


@pytest.fixture(scope="session")
def seeds_export(seeds_edition):
    """The export of the seeds and the witness texts it points into, as the site renders them."""
    return to_dict(seeds_edition), {w.siglum: w.text for w in seeds_edition.witnesses}


def _build_site(folder: Path) -> None:
    from tests.test_site import mkdocs_build

    seed = str(random.randint(1, 4_294_967_295))  # PYTHONHASHSEED's range: a new one each run, and written down
    result = mkdocs_build(folder / "site", hash_seed=seed)
    (folder / "build.log").write_text(result.stderr, encoding="utf-8")
    (folder / "hashseed").write_text(seed, encoding="utf-8")
    assert result.returncode == 0, result.stderr


@pytest.fixture(scope="session")
def site_build(tmp_path_factory) -> tuple[Path, str]:
    """`mkdocs build --strict` of the seeds, once per run, in a new interpreter whose hash seed is random (in
    the ``hashseed`` file beside the site): the site's folder and the build's log. Tests read it and never change
    it."""
    folder = once(tmp_path_factory, "seeds-site", _build_site)
    return folder / "site", (folder / "build.log").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def built_site(site_build) -> Path:
    return site_build[0]


@contextlib.contextmanager
def serve_folder(folder: Path):
    """``folder`` served by Python's http.server on a free loopback port, its search index one entry long unless a
    page asks for the whole (``whole_index``; tests/site_server.py says why); yields the base URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "site_server.py"), str(port), str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(url, timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("http.server did not start")
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)


def whole_index(pg, base_url: str) -> None:
    """The page's context asks the test server (``serve_folder``) for the whole search index, as a reader's
    browser gets it (until its cookies are cleared: ``Tabs.fresh``)."""
    pg.context.add_cookies([{"name": "index", "value": "full", "url": base_url}])


@contextlib.contextmanager
def browser_session():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="session")
def base_url(built_site):
    with serve_folder(built_site) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    with browser_session() as b:
        yield b


def new_tab(browser, width: str, **options):
    """A new browser context (its own storage, as another reader's browser) with one page at ``width``; the page's
    uncaught errors collect in its ``errors``."""
    w, h = WIDTHS[width]
    context = browser.new_context(viewport={"width": w, "height": h}, **options)
    pg = context.new_page()
    pg.set_default_timeout(10_000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors
    return context, pg


class Tabs:
    """One tab per width, kept for the worker's session: a new context per test (a new renderer process, the
    site's scripts compiled again) cost about half a second a test. ``fresh(width)`` gives the tab as a new
    context gives it: on a page of the site's origin not the site's, with nothing in its local or session storage nor
    cookies, no permission granted, screen media, the mouse at the corner and no errors recorded."""

    def __init__(self, browser, base_url: str) -> None:
        self.browser, self.base_url = browser, base_url
        self.tabs: dict[str, object] = {}

    def fresh(self, width: str):
        if width not in self.tabs:  # (not page.route: a routed page keeps no HTTP cache)
            self.tabs[width] = new_tab(self.browser, width)[1]
        pg = self.tabs[width]
        pg.goto(self.base_url + RESET)  # the last test's page unloads (and whatever it stores on leaving, stored)
        left = pg.evaluate("() => { localStorage.clear(); sessionStorage.clear(); return [localStorage.length,"
                           " sessionStorage.length, location.origin]; }")  # fmt: skip
        assert left == [0, 0, self.base_url.rstrip("/")], left
        pg.context.clear_cookies()
        pg.context.clear_permissions()
        pg.emulate_media(media="null")
        pg.mouse.move(0, 0)
        pg.errors.clear()
        return pg

    def close(self) -> None:
        for pg in self.tabs.values():
            pg.context.close()


@pytest.fixture(scope="session")
def tabs(browser, base_url):
    kept = Tabs(browser, base_url)
    yield kept
    kept.close()


@pytest.fixture
def desktop(tabs):
    pg = tabs.fresh("desktop")
    yield pg
    assert pg.errors == []
