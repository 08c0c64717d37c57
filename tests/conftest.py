"""Shared fixtures: the edition of the real seeds, and the site built from them, once per test session (per
xdist worker); the built site served on loopback, and Chromium, for the browser tests."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from edition.engine.export import to_dict
from tests.support import build_folder as build

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run"]  # fmt: skip


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The ``long`` tests first. Collected in file order, the TEI validation (half a minute) came near the end
    and kept one worker busy after the other had run out; first, the other worker steals (``--dist worksteal``)
    what is left of the busy one's queue."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


@pytest.fixture(scope="session")
def seeds_edition():
    return build(ROOT / "seeds")


@pytest.fixture(scope="session")
def seeds_export(seeds_edition):
    """The export of the seeds and the witness texts it points into, as the site renders them."""
    return to_dict(seeds_edition), {w.siglum: w.text for w in seeds_edition.witnesses}


@pytest.fixture(scope="session")
def site_build(tmp_path_factory) -> tuple[Path, str]:
    """`mkdocs build --strict` of the seeds, once per session: the site's folder and the build's log. Tests
    read it and never change it."""
    from tests.test_site import mkdocs_build

    out = tmp_path_factory.mktemp("site")
    result = mkdocs_build(out)
    assert result.returncode == 0, result.stderr
    return out, result.stderr


@pytest.fixture(scope="session")
def built_site(site_build) -> Path:
    return site_build[0]


@contextlib.contextmanager
def serve_folder(folder: Path):
    """``folder`` served by Python's http.server on a free loopback port; yields the base URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(port), "--directory", str(folder)],
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


@pytest.fixture
def desktop(browser):
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(10_000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert errors == []
