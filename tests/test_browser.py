"""The site in real Chromium: reader controls, permalinks, cross-script search, phone width.

Screenshots go to test-artifacts/ (git-ignored) for a person to look at.
"""

import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.test_site import ROOT, mkdocs_build

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run"]  # fmt: skip
EPISODE = "episodes/anshi-dialogue/"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed (/usr/bin/chromium)"),
]


@pytest.fixture(scope="module")
def base_url(tmp_path_factory):
    site = tmp_path_factory.mktemp("site")
    result = mkdocs_build(site)
    assert result.returncode == 0, result.stderr
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(port), "--directory", str(site)],
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


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})  # fresh localStorage per test
    pg = context.new_page()
    pg.set_default_timeout(10_000)
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert errors == []


def test_hiding_a_witness_hides_its_column_on_every_page(page, base_url):
    page.goto(base_url + EPISODE)
    page.screenshot(path=ARTIFACTS / "anshi-dialogue.png", full_page=False)
    assert page.locator('th[data-w="C"]').is_visible()
    page.uncheck('input[data-witness="C"]')
    assert page.locator('.ed-parallel [data-w="C"]:visible').count() == 0
    assert page.locator('th[data-w="A"]').is_visible()
    page.screenshot(path=ARTIFACTS / "anshi-dialogue-without-C.png")
    page.goto(base_url + "episodes/withdrawal/")  # the choice persists across pages
    assert page.locator('.ed-parallel [data-w="C"]:visible').count() == 0
    assert not page.is_checked('input[data-witness="C"]')
    page.check('input[data-witness="C"]')
    assert page.locator('th[data-w="C"]').is_visible()


def test_hiding_a_note_class_hides_its_marks_and_notes(page, base_url):
    page.goto(base_url + EPISODE)
    only = "mark.v-punctuation:not(.v-substantive):not(.v-orthographic):not(.v-addition):not(.v-omission)"
    background = f"getComputedStyle(document.querySelector('{only}')).backgroundColor"
    assert page.evaluate(background) != "rgba(0, 0, 0, 0)"
    assert page.locator("li.ed-note.c-punctuation:visible").count() > 0
    page.uncheck('input[data-class="punctuation"]')
    assert page.evaluate(background) == "rgba(0, 0, 0, 0)"
    assert page.locator("li.ed-note.c-punctuation:visible").count() == 0
    assert page.locator("li.ed-note:not(.c-punctuation):visible").count() > 0
    page.locator("#notes").scroll_into_view_if_needed()
    page.screenshot(path=ARTIFACTS / "anshi-dialogue-notes-no-punctuation.png")


def test_script_switch_changes_the_displayed_text_not_the_notes(page, base_url):
    page.goto(base_url + EPISODE)
    cells = page.locator('.ed-parallel td[data-w="C"]:has(.t)')  # a Simplified cell that converts
    before = cells.first.inner_text()
    notes = page.locator("ol.ed-notes").inner_text()
    page.check('input[name="ed-script"][value="t"]')
    after = cells.first.inner_text()
    assert after != before
    assert page.locator("ol.ed-notes").inner_text() == notes
    page.screenshot(path=ARTIFACTS / "anshi-dialogue-traditional.png")
    page.goto(base_url + "witnesses/C/")  # persists, and applies to witness pages too
    assert page.is_checked('input[name="ed-script"][value="t"]')
    page.check('input[name="ed-script"][value="orig"]')
    page.goto(base_url + EPISODE)
    assert cells.first.inner_text() == before


def test_row_permalink_lands_on_its_row(page, base_url):
    page.goto(base_url + EPISODE + "#r12")
    page.wait_for_function("document.getElementById('r12').getBoundingClientRect().top < window.innerHeight")
    top = page.evaluate("document.getElementById('r12').getBoundingClientRect().top")
    assert 0 <= top < 900
    assert page.evaluate("window.scrollY") > 0
    page.screenshot(path=ARTIFACTS / "anshi-dialogue-r12.png")


def search(page, base_url, term):
    page.goto(base_url)
    page.click(".md-search__input")
    page.fill(".md-search__input", term)
    page.keyboard.press("End")  # Material searches on a real key press
    page.wait_for_selector(".md-search-result__item")
    return [a.get_attribute("href") for a in page.locator(".md-search-result__link").all()]


def test_search_finds_names_and_crosses_scripts(page, base_url, seeds_export):
    export, by_siglum = seeds_export
    hits = search(page, base_url, "杨万春")
    holder = next(i for i, w in enumerate(export["witnesses"]) if "杨万春" in by_siglum[w["siglum"]])
    assert any(f"witnesses/{export['witnesses'][holder]['siglum']}/" in h for h in hits), hits
    hits = search(page, base_url, "遼澤")
    page.screenshot(path=ARTIFACTS / "search-traditional-finds-simplified.png")
    simplified = [w["siglum"] for w in export["witnesses"] if "辽泽" in by_siglum[w["siglum"]]]
    assert simplified and any(f"witnesses/{s}/" in h for h in hits for s in simplified), hits


@pytest.mark.parametrize("path", ["", "overview/", EPISODE, "episodes/withdrawal/", "witnesses/A/", "method/"])
def test_phone_width_has_no_horizontal_overflow(browser, base_url, path):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(base_url + path)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    name = re.sub(r"\W+", "-", path).strip("-") or "home"
    page.screenshot(path=ARTIFACTS / f"phone-{name}.png")
    context.close()
