"""Search in real Chromium: the same first results at a fraction of the cost (issue 26), and what a result shows
(issue 28): no sentence twice, no zero-width characters, no file metadata, a name matching the name.

The answers are the search worker's own (docs/assets/javascripts/workers/edition-search.js, Material's worker
behind it), asked directly with the site's search_index.json as Material's page asks it, so every result
counts, not only the ten the page draws first. ``tests/search_before.json`` holds the answers of the site as it
was before the segmenter changed (jieba, Material's worker with the phrase pass putting phrase holders first),
recorded from that commit's built site with::

    .venv/bin/python -m tests.test_search --record SITE_DIR    # SITE_DIR: a site built by `mkdocs build`
"""

from __future__ import annotations

import functools
import json
import re
import sys
import urllib.parse
from pathlib import Path

import pytest

from edition.engine.convert import to_simplified
from tests.conftest import whole_index

BEFORE = Path(__file__).with_name("search_before.json")
# Names (a person, a place, a thing; in both scripts) and phrases (a word, a clause of the witnesses).
QUERIES = ["長孫無忌", "长孙无忌", "臨渝關", "褐袍", "梁修元", "班師", "燃火於道", "楊萬春", "渤錯水"]
CHROMIUM = Path("/usr/bin/chromium")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed (/usr/bin/chromium)"),
]

ASK = """async (queries) => {
  const config = JSON.parse(document.getElementById("__config").textContent);
  const base = new URL(config.base + "/", location.href);
  const index = await (await fetch(new URL("search/search_index.json", base))).json();
  const worker = new Worker(new URL(config.search, base));
  const next = (type) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no answer from the search worker")), 20000);
    worker.onmessage = (ev) => { if (ev.data.type === type) { clearTimeout(timer); resolve(ev.data.data); } };
  });
  let ready = next(1);
  worker.postMessage({type: 0, data: {...index, options: {suggest: false}}});
  await ready;
  const out = {};
  for (const query of queries) {
    const answer = next(3);
    worker.postMessage({type: 2, data: query});
    out[query] = (await answer).items.map((group) => group.map((item) =>
      ({location: item.location, title: item.title, text: item.text})));
  }
  worker.terminate();
  return out;
}"""


def ask(pg, base_url: str, queries: list[str]) -> dict[str, list[list[dict]]]:
    """The worker's answer to each query: groups (one per page) of results (the page, its sections)."""
    whole_index(pg, base_url)
    pg.goto(base_url)
    return pg.evaluate(ASK, queries)


def page_of(location: str) -> str:
    return location.split("?")[0].split("#")[0]


def holders(groups: list[list[dict]]) -> list[str]:
    """The pages with a result holding the whole phrase (linked with ?h=), in the order given."""
    return [page_of(g[0]["location"]) for g in groups if any("?h=" in item["location"] for item in g)]


def plain(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html or "")


@functools.cache
def article_simplified(site: Path, path: str) -> str:
    """A built page's text from its article on, without tags, in simplified characters (read once a page)."""
    html = (site / path / "index.html").read_text(encoding="utf-8")
    return to_simplified(plain(html.split("<article", 1)[1]))


def record(site: Path) -> None:
    """Write search_before.json from the built site in ``site``: each query's pages and phrase holders."""
    from tests.conftest import browser_session, serve_folder

    with serve_folder(site) as url, browser_session() as browser:
        pg = browser.new_page()
        answers = ask(pg, url, QUERIES)
    data = {q: {"pages": [page_of(g[0]["location"]) for g in groups], "holders": holders(groups)}
            for q, groups in answers.items()}  # fmt: skip
    BEFORE.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


@pytest.fixture(scope="session")
def answers(tmp_path_factory, browser, base_url):
    """The worker's answers to every query, asked once per run (conftest.once: the workers share them)."""
    from tests.conftest import once

    def asked(folder: Path) -> None:
        pg = browser.new_page()
        try:
            data = ask(pg, base_url, QUERIES)
        finally:
            pg.close()
        (folder / "answers.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")

    return json.loads((once(tmp_path_factory, "search-answers", asked) / "answers.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def before():
    return json.loads(BEFORE.read_text(encoding="utf-8"))


@pytest.mark.parametrize("query", QUERIES)
def test_a_query_gives_the_same_first_results_as_before(answers, before, query):
    """The first result is the page it was before; the pages holding the whole phrase are the pages they were,
    and are now the whole answer (before, pages sharing only a character of the query followed them). Their
    order after the first may change: a sentence is now counted once, not once per script; and pages written
    since (a witness page's 校勘記, the inputs page's examples) may hold the phrase too."""
    pages = [page_of(g[0]["location"]) for g in answers[query]]
    assert pages and pages[0] == before[query]["pages"][0] == before[query]["holders"][0]
    assert holders(answers[query]) == pages
    assert set(before[query]["holders"]) <= set(pages)


def test_a_name_matches_the_name_in_either_script(answers, built_site):
    """梁修元 gives the pages holding 梁修元, not those sharing 梁; 長孫無忌 and 长孙无忌 give the same results."""
    for query in QUERIES:
        for group in answers[query]:
            for item in group:
                if "?h=" not in item["location"]:
                    assert "#" not in item["location"], (query, item)  # only a page's own entry heads its group
                    continue
                path = page_of(item["location"])
                assert to_simplified(query) in article_simplified(built_site, path), (query, path)
    # the same results (in either script a page ranks by how often its own text has the name, so the order of
    # pages that tie may differ)
    assert sorted(i["location"] for g in answers["長孫無忌"] for i in g) == sorted(
        i["location"].replace(urllib.parse.quote("长孙无忌"), urllib.parse.quote("長孫無忌"))
        for g in answers["长孙无忌"]
        for i in g
    )


def test_results_show_no_zero_width_characters_nor_a_sentence_twice(answers):
    for query in QUERIES:
        for group in answers[query]:
            for item in group:
                for field in ("title", "text"):
                    assert not re.search("[\u200b\u2063]", item[field] or ""), (query, item)
                text = plain(item["text"])
                for clause in re.findall(r"[\u3400-\u9fff]{6,}", text):
                    other = to_simplified(clause)
                    assert to_simplified(text).count(other) == 1 or text.count(clause) > 1, (query, clause, text)


def test_a_witness_snippet_starts_in_its_text(answers):
    """Not in the catalogue above it (…fd2.txt題名網絡歷史敘事…), nor in its list of episodes."""
    snippets = [
        plain(item["text"])
        for query in QUERIES
        for group in answers[query]
        for item in group
        if "witnesses/" in item["location"] and "?h=" in item["location"]
    ]
    assert len(snippets) > 10
    for text in snippets:
        assert not re.search(r"\.txt|題名|說明|來源|長度|字元|本系|：\d+ 字", text), text


def test_an_episode_is_indexed_without_its_neighbours_titles(built_site):
    """A snippet of 遼澤 read 師下一段：祭奠 → 大軍至遼東: the links to the episodes before and after are the page's
    navigation, not its words, and stay out of the index (a query for 祭奠 does not find 遼澤 by its link)."""
    index = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    # each page's words, without the word breaks and fences the search writes between them
    episodes = {d["location"]: re.sub("[\u200b\u2063]", "", d["text"]) for d in index["docs"]}
    episodes = {where: text for where, text in episodes.items() if where.startswith("episodes/")}
    assert len(episodes) >= 5
    for where, text in episodes.items():
        assert "上一段" not in text and "下一段" not in text, where
    assert any("大軍至遼東" in text for text in episodes.values())  # the description, right after it, is indexed


def test_the_page_shows_the_results_clean(desktop, base_url):
    """What the reader sees and copies: titles and snippets without zero-width characters, the name marked."""
    from tests.test_browser import search

    hits = search(desktop, base_url, "梁修元")
    assert hits and all("?h=" in h or "#" not in h for h in hits)
    shown = desktop.locator(".md-search-result").inner_text()
    assert "\u200b" not in shown and "\u2063" not in shown
    assert "人名・地名索引" in shown
    assert desktop.locator(".md-search-result__link mark").first.inner_text() == "梁修元"
    assert ".txt" not in shown


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--record":
        record(Path(sys.argv[2]))
    else:
        sys.exit(__doc__)
