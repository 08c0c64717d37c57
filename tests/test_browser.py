"""The reader's side in real Chromium (Debian's, through Playwright), at 1366 px and at 390 px.

One site is built and served for the module. Screenshots go to test-artifacts/ (git-ignored) for a person
to look at. axe-core comes from the npm registry (scripts/setup.sh --test puts it in .venv/axe; this module
installs it there itself when it is missing and npm is at hand).
"""

import itertools
import json
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.test_site import ROOT

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts"
AXE = ROOT / ".venv" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
AXE_VERSION = "4.14.1"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run"]  # fmt: skip
EPISODE = "episodes/anshi-dialogue/"
WIDTHS = {"desktop": (1366, 900), "phone": (390, 844)}
PAGES = ["", "overview/", "conventions/", EPISODE, "episodes/withdrawal/", "episodes/liao-marshes/",
         "episodes/rite/", "episodes/crown-prince/", "witnesses/A/", "witnesses/B/", "witnesses/C/",
         "witnesses/D/", "witnesses/E/", "register/", "method/", "format/", "inputs/"]  # fmt: skip
HAN = r"[\u3400-\u9fff，。、；：？！「」“”（）]"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed (/usr/bin/chromium)"),
]


@pytest.fixture(scope="module")
def site(built_site):
    return built_site  # the session's build (conftest.py)


@pytest.fixture(scope="module")
def base_url(site):
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
def export(site):
    return json.loads((site / "edition.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def axe_source():
    if not AXE.exists() and shutil.which("npm"):
        AXE.parents[2].mkdir(parents=True, exist_ok=True)
        cmd = ["npm", "install", "--prefix", str(AXE.parents[2]), "--no-audit", "--no-fund", f"axe-core@{AXE_VERSION}"]
        subprocess.run(cmd, check=True, capture_output=True, timeout=300)
    assert AXE.exists(), "axe-core is missing: run scripts/setup.sh --test"
    return AXE.read_text(encoding="utf-8")


def open_page(browser, width: str, **options):
    w, h = WIDTHS[width]
    context = browser.new_context(viewport={"width": w, "height": h}, **options)  # fresh localStorage each
    pg = context.new_page()
    pg.set_default_timeout(10_000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors
    return context, pg


@pytest.fixture(params=list(WIDTHS))
def width(request):
    return request.param


@pytest.fixture
def page(browser, width):
    context, pg = open_page(browser, width)
    yield pg
    context.close()
    assert pg.errors == []


@pytest.fixture
def desktop(browser):
    context, pg = open_page(browser, "desktop")
    yield pg
    context.close()
    assert pg.errors == []


def shot(pg, name: str, full: bool = False) -> None:
    width = pg.viewport_size["width"]
    pg.screenshot(path=ARTIFACTS / f"{name}-{width}.png", full_page=full)


def box(locator) -> dict:
    return locator.evaluate("el => { const r = el.getBoundingClientRect(); return {w: r.width, h: r.height}; }")


# --- filters ---------------------------------------------------------------------------------------------------


def test_hiding_a_witness_hides_its_column_at_every_width(page, base_url):
    page.goto(base_url + "episodes/withdrawal/")
    assert page.locator('.ed-parallel td[data-w="B"]:visible').count() > 0
    page.uncheck('input[data-witness="B"]')
    page.uncheck('input[data-witness="C"]')
    assert page.locator('.ed-parallel [data-w="B"]:visible, .ed-parallel [data-w="C"]:visible').count() == 0
    assert page.locator('.ed-parallel td[data-w="A"]:visible').count() > 0
    shot(page, "withdrawal-without-B-C")
    page.goto(base_url + EPISODE)  # the choice persists across pages
    assert page.locator('.ed-parallel [data-w="B"]:visible').count() == 0
    assert not page.is_checked('input[data-witness="B"]')
    page.check('input[data-witness="B"]')
    assert page.locator('.ed-parallel td[data-w="B"]:visible').count() > 0


def test_column_header_sticks_under_the_site_header(desktop, base_url):
    desktop.goto(base_url + EPISODE + "#r12")
    desktop.wait_for_function("document.getElementById('r12').getBoundingClientRect().top < innerHeight")
    head = desktop.evaluate("document.querySelector('.md-header').getBoundingClientRect().bottom")
    th = desktop.locator('.ed-parallel thead th[data-w="A"]')
    top = th.evaluate("el => el.getBoundingClientRect().top")
    assert th.is_visible() and abs(top - head) <= 1, (top, head)
    assert desktop.evaluate("window.scrollY") > 1000
    shot(desktop, "anshi-dialogue-sticky-header-r12")


def note_numbers(pg) -> dict[str, str]:
    return pg.evaluate(
        "Object.fromEntries([...document.querySelectorAll('li.ed-note')]"
        ".map(li => [li.id, li.querySelector('.ed-no').textContent]))"
    )


def test_hiding_a_kind_never_renumbers_the_notes(page, base_url, export):
    page.goto(base_url + EPISODE)
    before = note_numbers(page)
    marks = page.evaluate("[...document.querySelectorAll('mark.v > a')].map(a => a.title)")
    assert before and all(no == nid[1:] for nid, no in before.items())
    kind = page.evaluate("document.querySelector('li.ed-note').dataset.kind")
    page.uncheck(f'input[data-kind="{kind}"]')
    assert page.locator(f'li.ed-note[data-kind="{kind}"]:visible').count() == 0
    assert note_numbers(page) == before
    assert page.evaluate("[...document.querySelectorAll('mark.v > a')].map(a => a.title)") == marks
    visible = page.evaluate("[...document.querySelectorAll('li.ed-note')].filter(li => !li.hidden).map(li => li.id)")
    assert all(before[n] == n[1:] for n in visible)
    page.locator("#notes").scroll_into_view_if_needed()
    shot(page, "anshi-dialogue-notes-one-kind-hidden")


def test_variant_forms_stand_apart_and_their_marks_wait_until_the_reader_asks(desktop, base_url):
    """異體 notes (儘/盡, 迴/回 in 安市對話) are not in the apparatus but listed after it (異體字不出校); their
    marks in the text are off at first, and one tick lights them."""
    desktop.goto(base_url + EPISODE)
    apparatus, forms = desktop.locator("#notes + ol.ed-notes"), desktop.locator("ol.ed-forms")
    assert apparatus.locator('li[data-kind="orthographic"]').count() == 0
    assert apparatus.locator('li[data-kind="fact"]:visible').count() > 0
    variants = forms.locator('li[data-kind="orthographic"]')
    assert variants.count() >= 2 and forms.locator('li[data-kind="orthographic"]:visible').count() == variants.count()
    assert apparatus.bounding_box()["y"] < forms.bounding_box()["y"]
    first = variants.first.get_attribute("id")
    marks = desktop.locator(f'mark.v[data-notes~="{first}"]')
    assert marks.count() >= 2  # the lemma in A and the reading in B
    assert marks.evaluate_all("ms => ms.every(m => m.classList.contains('v-off'))")
    assert not desktop.is_checked('input[data-kind="orthographic"]')
    desktop.check('input[data-kind="orthographic"]')
    assert marks.evaluate_all("ms => ms.every(m => !m.classList.contains('v-off'))")
    desktop.goto(base_url + "episodes/withdrawal/")  # the choice is kept across pages
    assert desktop.is_checked('input[data-kind="orthographic"]')


def test_notes_whose_difference_is_hidden_are_hidden(desktop, base_url, export):
    desktop.goto(base_url + EPISODE)
    pairs = desktop.locator('li.ed-note[data-sides="A|B"]')
    facts = desktop.locator('li.ed-note[data-kind="fact"]')
    assert pairs.count() > 0 and facts.count() > 0
    desktop.uncheck('input[data-witness="B"]')
    assert desktop.locator('li.ed-note[data-sides="A|B"]:visible').count() == 0  # A against nothing shown
    assert desktop.locator('li.ed-note[data-kind="fact"]:visible').count() == facts.count()  # A, C, D, E still differ
    for w in "ACDE":
        desktop.uncheck(f'input[data-witness="{w}"]')
    assert desktop.locator("li.ed-note:visible").count() == 0  # nothing left to compare
    off = desktop.evaluate("[...document.querySelectorAll('mark.v')].every(m => m.classList.contains('v-off'))")
    assert off


# --- notes in place, parallels -----------------------------------------------------------------------------------


def test_a_mark_opens_all_its_notes_beside_it(page, base_url):
    page.goto(base_url + EPISODE)
    mark = page.locator('mark.v[data-notes*=" "]').first  # a piece under two notes
    ids = mark.get_attribute("data-notes").split()
    mark.scroll_into_view_if_needed()
    y, url = page.evaluate("scrollY"), page.url
    mark.locator("a").click()
    pop = page.locator(".ed-pop")
    assert pop.is_visible()
    assert pop.locator("li.ed-note").count() == len(ids) >= 2
    for nid in ids:
        assert pop.locator(f'.ed-no a[href="#{nid}"]').count() == 1
    assert page.url == url and page.evaluate("scrollY") == y  # the table stays where it was
    link, card = box(mark.locator("a")), pop.bounding_box()
    anchor = mark.locator("a").bounding_box()
    assert 0 <= card["y"] - (anchor["y"] + link["h"]) < 40  # right under the mark
    assert card["x"] >= 0 and card["x"] + card["width"] <= page.viewport_size["width"]
    shot(page, "anshi-dialogue-note-in-place")
    page.keyboard.press("Escape")
    assert pop.is_hidden()


def test_notes_in_place_from_the_keyboard(desktop, base_url):
    desktop.goto(base_url + EPISODE)
    link = desktop.locator("mark.v > a").first
    link.focus()
    desktop.keyboard.press("Enter")
    pop = desktop.locator(".ed-pop")
    assert pop.is_visible() and desktop.evaluate("document.activeElement.classList.contains('ed-pop')")
    desktop.keyboard.press("Tab")
    assert desktop.evaluate("document.activeElement.classList.contains('ed-pop-close')")
    desktop.keyboard.press("Escape")
    assert pop.is_hidden() and desktop.evaluate("document.activeElement === document.querySelector('mark.v > a')")


def test_hover_and_focus_light_the_parallels(desktop, base_url):
    desktop.goto(base_url + EPISODE)
    row = desktop.locator("tr:has(mark.v-fact)").first
    cell = row.locator("td:not(.ed-empty)").first
    cell.hover()
    others = row.locator("td.ed-row-hl")
    assert others.count() == row.locator("td").count() - 1
    mark = desktop.locator("mark.v-fact").first
    nid = mark.get_attribute("data-notes").split()[0]
    mark.locator("a").focus()
    lit = desktop.evaluate(
        f"[...document.querySelectorAll('mark.ed-hl')].every(m => m.dataset.notes.split(' ').includes('{nid}'))"
    )
    assert desktop.locator("mark.ed-hl").count() > 0 and lit
    shot(desktop, "anshi-dialogue-parallels-lit")


def test_spanning_cells_light_with_every_row_they_cover(desktop, base_url, export):
    ep, k, siglum, n = next(
        (ep["id"], k, s, n)
        for ep in export["episodes"]
        for k, r in enumerate(ep["rows"], 1)
        for s, n in r.get("span", {}).items()
    )
    desktop.goto(base_url + f"episodes/{ep}/")
    desktop.locator(f"#r{k + n - 1} td:not(.ed-empty)").first.hover()
    assert desktop.locator(f'#r{k} td[data-w="{siglum}"]').get_attribute("class") == "ed-row-hl"


# --- script, language, text ---------------------------------------------------------------------------------------


def test_script_switch_changes_text_and_lang_not_the_notes(page, base_url):
    page.goto(base_url + EPISODE)
    cell = page.locator('.ed-parallel td[data-w="C"]:has(.t)').first
    assert cell.get_attribute("lang") == "zh-Hans"
    assert page.locator('.ed-parallel td[data-w="A"]').first.get_attribute("lang") == "zh-Hant"
    before, notes = cell.inner_text(), page.locator("#notes + ol.ed-notes").inner_text()
    page.check('input[name="ed-script"][value="t"]')
    assert cell.inner_text() != before and cell.get_attribute("lang") == "zh-Hant"
    assert page.locator("#notes + ol.ed-notes").inner_text() == notes
    shot(page, "anshi-dialogue-traditional")
    page.goto(base_url + "witnesses/C/")  # persists, and applies to witness pages too
    assert page.is_checked('input[name="ed-script"][value="t"]')
    assert page.locator(".ed-witness-text").get_attribute("lang") == "zh-Hant"
    page.check('input[name="ed-script"][value="orig"]')
    assert page.locator(".ed-witness-text").get_attribute("lang") == "zh-Hans"


def test_no_stray_spaces_where_chinese_markdown_breaks_a_line(desktop, base_url):
    joins = 0
    for name in ("index", "method", "inputs", "format"):
        source = (ROOT / "docs" / f"{name}.md").read_text(encoding="utf-8").split("\n")
        pairs = [
            (a[-2:], b.lstrip()[:2])
            for a, b in itertools.pairwise(source)
            if re.fullmatch(f"{HAN}{{2}}", a[-2:]) and re.fullmatch(f"{HAN}{{2}}", b.lstrip()[:2])
        ]
        desktop.goto(base_url + ("" if name == "index" else f"{name}/"))
        text = desktop.locator("article").inner_text()
        for tail, head in pairs:
            assert tail + head in text, (name, tail, head)
            joins += 1
    assert joins > 10


def test_out_of_episode_text_and_lacunae_on_witness_pages(page, base_url):
    page.goto(base_url + "witnesses/B/")
    outside = page.locator(".ed-outside").first
    fg, bg = outside.evaluate("el => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]")
    assert fg != bg and "rgb(31, 31, 31)" in fg  # the text's own ink, on a light tint
    lacuna = page.locator(".ed-lacuna")
    assert lacuna.count() >= 1 and "以下闕" in lacuna.last.inner_text()
    lacuna.last.scroll_into_view_if_needed()
    shot(page, "witness-B-lacuna")


def test_episodes_have_previous_and_next(page, base_url, export):
    titles = [e["title"] for e in export["episodes"]]
    page.goto(base_url + EPISODE)
    assert page.locator(".ed-pager .ed-prev").count() == 0
    page.locator(".ed-pager .ed-next").first.click()
    assert page.locator("h1").inner_text() == titles[1]
    assert titles[0] in page.locator(".ed-pager .ed-prev").first.inner_text()
    assert box(page.locator(".ed-pager .ed-next").first)["h"] >= 24


def test_counts_never_break_mid_number(page, base_url):
    page.goto(base_url + "overview/")
    numbers = page.locator(".ed-heat .ed-pct, .ed-heat .ed-chars, .ed-matrix .ed-pct, .ed-witness-list .ed-num")
    assert numbers.count() > 20
    lines = numbers.evaluate_all(
        "els => els.map(el => { const r = document.createRange(); r.selectNodeContents(el);"
        " return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; })"
    )
    assert set(lines) == {1}, lines
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    page.locator(".ed-heat").scroll_into_view_if_needed()
    shot(page, "overview-heat-map")
    page.locator(".ed-matrix").scroll_into_view_if_needed()
    shot(page, "overview-similarity")


def test_legend_shows_every_mark_style(page, base_url):
    page.goto(base_url + EPISODE)
    samples = page.locator(".ed-kinds .ed-sample")
    kinds = page.locator(".ed-kinds input[type=checkbox]").count()
    assert samples.count() == kinds >= 8
    styles = samples.evaluate_all(
        "els => els.map(el => { const s = getComputedStyle(el);"
        " return [s.backgroundColor, s.borderBottomStyle, s.borderBottomColor, s.textDecorationLine].join(); })"
    )
    assert len(set(styles)) == kinds  # each kind looks different
    mark = page.locator("mark.v-fact > a").first
    sample = page.locator(".ed-kinds .ed-sample.v-fact")
    prop = "el => getComputedStyle(el).backgroundColor"
    assert mark.evaluate(prop) == sample.evaluate(prop)
    assert page.locator(".ed-legend").is_visible()
    shot(page, "anshi-dialogue-legend")


def test_tap_targets_are_at_least_24_px(page, base_url):
    small = []
    for path in (EPISODE, "episodes/withdrawal/", "witnesses/B/", "overview/"):
        page.goto(base_url + path)
        targets = page.locator(
            ".ed-rowno a, .ed-cite, mark.v-gap > a, mark.v-short > a, .ed-controls label, .ed-strip a, .ed-pager a, "
            ".ed-moved-link, .ed-ref, .ed-heat td a, a.ed-lacuna, .ed-back"
        )
        assert targets.count() > 0
        sizes = targets.evaluate_all(
            "els => els.filter(el => el.offsetParent).map(el => { const r = el.getBoundingClientRect();"
            " return [el.className || el.tagName, el.textContent.slice(0, 6), r.width, r.height]; })"
        )
        small += [(path, *s) for s in sizes if s[2] < 24 or s[3] < 24]
    assert small == []


# --- search ----------------------------------------------------------------------------------------------------


def search(pg, base_url, term, paste=False):
    pg.goto(base_url)
    if pg.viewport_size["width"] < 1220:  # the phone's header shows a search button, not the field
        pg.click('label.md-header__button[for="__search"]')
    pg.click(".md-search__input")
    pg.fill(".md-search__input", term)  # an input event and no key: as a paste gives
    if not paste:
        pg.keyboard.press("End")
    pg.wait_for_function(
        "t => [...document.querySelectorAll('.md-search-result__link')]"
        ".some(a => a.href.includes(encodeURIComponent(t)))",
        arg=term,
    )
    return [a.get_attribute("href") for a in pg.locator(".md-search-result__link").all()]


def pages_of(hits: list[str]) -> list[str]:
    return list(dict.fromkeys(h.split("?")[0].split("#")[0] for h in hits))


def folded_text(site: Path, href: str) -> str:
    path = href.split("?")[0].split("#")[0].split("://", 1)[1].split("/", 1)[1]
    html = (site / path / "index.html").read_text(encoding="utf-8")
    return re.sub(r"<[^>]+>", "", html.split("<article", 1)[1].split("</article>", 1)[0])


@pytest.mark.parametrize("term", ["渤錯水", "長孫無忌", "不喜得遼東"])
def test_a_phrase_ranks_the_pages_holding_it_first(desktop, base_url, site, term):
    from edition.engine.convert import to_simplified

    hits = search(desktop, base_url, term)
    holders = pages_of([h for h in hits if "?h=" in h])
    assert pages_of(hits)[: len(holders)] == holders  # every page with the phrase before any without it
    for page in holders:
        assert to_simplified(term) in to_simplified(folded_text(site, page)), page
    snippet = desktop.locator('.md-search-result__link[href*="?h="] mark').first.inner_text()
    assert to_simplified(snippet) == to_simplified(term)  # the hit, in context
    shot(desktop, f"search-{term}")


def test_search_crosses_scripts_works_on_paste_and_highlights_the_whole_phrase(page, base_url, export):
    hits = search(page, base_url, "楊萬春", paste=True)
    assert any("witnesses/C/" in h for h in hits), hits
    shot(page, "search-pasted-楊萬春")
    target = next(h for h in hits if "witnesses/C/" in h)
    page.goto(target)
    page.wait_for_selector("mark.ed-hit")
    marked = page.evaluate("[...document.querySelectorAll('mark.ed-hit')].map(m => m.textContent).join('')")
    assert "杨万春" in marked  # the whole name, in the page's script, across element boundaries
    assert page.locator("mark.ed-hit").first.is_visible()
    shot(page, "witness-C-highlight-楊萬春")


# --- cite and print ------------------------------------------------------------------------------------------------


def test_copy_citation_restores_the_view(browser, base_url, width):
    context, pg = open_page(browser, width, permissions=["clipboard-read", "clipboard-write"])
    pg.goto(base_url + EPISODE)
    pg.uncheck('input[data-witness="D"]')
    pg.check('input[name="ed-script"][value="s"]')
    pg.locator("#r12 .ed-cite").click()
    citation = pg.locator(".ed-live").inner_text().removeprefix("已複製引文：")
    assert pg.evaluate("navigator.clipboard.readText()") == citation
    assert citation.startswith("《安市班師 · 校本》，安市對話，第 12 行")
    assert "傳本 A、B、C、E" in citation
    url = citation.rsplit("，", 1)[1]
    assert url.endswith("/episodes/anshi-dialogue/?w=A,B,C,E&s=s#r12")
    shot(pg, "anshi-dialogue-citation")
    context.close()
    context, fresh = open_page(browser, width)  # another reader, another browser
    fresh.goto(base_url + url.split("/anshi-edition/", 1)[1])
    assert fresh.locator('.ed-parallel [data-w="D"]:visible').count() == 0
    assert fresh.locator('.ed-parallel td[data-w="C"]:visible').count() > 0
    assert fresh.is_checked('input[name="ed-script"][value="s"]')
    assert fresh.locator('.ed-parallel td[data-w="A"]').first.get_attribute("lang") == "zh-Hans"
    assert fresh.evaluate("document.getElementById('r12').getBoundingClientRect().top") < WIDTHS[width][1]
    context.close()


def test_print_gives_the_table_then_its_apparatus(desktop, base_url):
    desktop.goto(base_url + EPISODE)
    desktop.emulate_media(media="print")
    for hidden in (".md-header", ".md-sidebar--primary", ".ed-controls", ".ed-strip", ".ed-cite", ".ed-downloads"):
        assert not desktop.locator(hidden).first.is_visible(), hidden
    table, notes = desktop.locator(".ed-parallel"), desktop.locator("#notes + ol.ed-notes")
    assert table.is_visible() and notes.is_visible()
    assert table.bounding_box()["y"] < notes.bounding_box()["y"]
    assert table.bounding_box()["width"] > 0.8 * desktop.viewport_size["width"]
    assert desktop.locator("thead th").first.evaluate("el => getComputedStyle(el).position") == "static"
    shot(desktop, "anshi-dialogue-print", full=True)


# --- whole pages ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", PAGES)
def test_every_page_passes_axe_and_fits_the_width(browser, base_url, axe_source, width, path):
    context, pg = open_page(browser, width)
    pg.goto(base_url + path)
    assert pg.evaluate("document.documentElement.scrollWidth") <= WIDTHS[width][0]
    pg.add_script_tag(content=axe_source)
    violations = pg.evaluate(
        """async () => (await axe.run(document, {runOnly: {type: "tag",
             values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]}})).violations
           .filter(v => v.impact === "serious" || v.impact === "critical")
           .map(v => [v.id, v.nodes.length, v.nodes[0].target.join(" ")])"""
    )
    assert violations == [], violations
    name = re.sub(r"\W+", "-", path).strip("-") or "home"
    shot(pg, f"page-{name}")
    context.close()
    assert pg.errors == []


def test_controls_work_from_the_keyboard(desktop, base_url):
    desktop.goto(base_url + EPISODE)
    desktop.locator('input[data-witness="A"]').focus()
    desktop.keyboard.press("Tab")
    assert desktop.evaluate("document.activeElement.dataset.witness") == "B"
    desktop.keyboard.press("Space")
    assert desktop.locator('.ed-parallel [data-w="B"]:visible').count() == 0
    desktop.locator("#r3 .ed-rowno a").focus()
    desktop.keyboard.press("Tab")
    assert desktop.evaluate("document.activeElement.classList.contains('ed-cite')")
    desktop.keyboard.press("Enter")
    assert "第 3 行" in desktop.locator(".ed-live").inner_text()
