"""The search index's hook (hooks/search_terms.py) on its own: the segmenter and the fences (no site built)."""

from __future__ import annotations

import pytest

from hooks.search_terms import FENCE, SEGMENTER, Segmenter, fence, register_terms
from tests.support import ROOT, SEEDS

pytest.importorskip("rjieba")


def test_register_names_are_cut_whole_in_both_scripts():
    terms = register_terms(SEEDS, ROOT)
    assert {"楊萬春", "杨万春", "長孫無忌", "长孙无忌", "臨渝關", "梁修元"} <= set(terms)
    seg = Segmenter()
    seg.use(terms)
    for text, name in [("片刻后梁修元登上城头", "梁修元"), ("李世民嘉许杨万春不肯屈服", "杨万春"),
                       ("長孫無忌將手一揮", "長孫無忌"), ("皇帝從飛騎馳入臨渝關", "臨渝關")]:  # fmt: skip
        assert name in seg.cut(text.encode("utf-8")), (text, seg.cut(text))


def test_the_segmenter_is_kept_and_forgets_a_dropped_name():
    seg = Segmenter()
    seg.use(["梁修元"])
    first = seg._jieba
    seg.use(["梁修元", "校驗新名"])  # a name added: the same segmenter
    assert seg._jieba is first and "校驗新名" in seg.cut("今校驗新名至")
    seg.use(["校驗新名"])  # a name dropped: a new one, which no longer knows it
    assert seg._jieba is not first and seg._words == frozenset({"校驗新名"})
    assert SEGMENTER is not seg


def test_other_script_copies_and_the_catalogue_are_fenced():
    html = (
        '<h1>E</h1><table class="ed-catalogue"><tr><th>文件</th><td>004.txt</td></tr></table>'
        '<ul class="ed-episodes"><li>班師：147 字</li></ul>'
        '<p><span class="t">长孙无忌</span><span class="ed-alt" hidden> 長孫無忌</span></p>'
    )
    out = fence(html)
    hidden = f"<span hidden>{FENCE}</span>"
    assert f'<span class="ed-alt" hidden>{FENCE} 長孫無忌{FENCE}</span>' in out
    assert f"{hidden}<table" in out and f"</table>{hidden}" in out
    assert f'{hidden}<ul class="ed-episodes">' in out and f"</ul>{hidden}" in out
    assert out.replace(FENCE, "").replace("<span hidden></span>", "") == html
    assert fence("<p>no fence</p>") == "<p>no fence</p>"


def test_a_rebuild_reuses_the_entries_of_an_unchanged_page_only():
    from types import SimpleNamespace

    from hooks.search_terms import Entries

    calls = []

    def add(index, page):
        calls.append(page.url)
        index.entries.append({"location": page.url, "title": str(page.title), "text": page.content})

    entries = Entries()
    pages = [SimpleNamespace(url=u, title=u, meta={}, content=f"<p>{u}</p>") for u in ("a/", "b/")]
    first = SimpleNamespace(entries=[])
    for page in pages:
        entries.add(first, page, lambda p, i=first: add(i, p))
    entries.end_build()
    pages[1].content = "<p>b, changed</p>"
    second = SimpleNamespace(entries=[])
    for page in pages:
        entries.add(second, page, lambda p, i=second: add(i, p))
    entries.end_build()
    assert calls == ["a/", "b/", "b/"]  # a/ came from the first build
    assert second.entries == [first.entries[0], {"location": "b/", "title": "b/", "text": "<p>b, changed</p>"}]
    second.entries[0]["text"] = "edited by Material later"
    assert entries.kept[entries.key(pages[0])][0]["text"] == "<p>a/</p>"  # a copy is handed out, not the kept one


def test_material_s_stripping_of_search_attributes_is_the_same():
    from types import SimpleNamespace

    from material.plugins.search import plugin as material_search

    from hooks.search_terms import _cached_indexing

    _cached_indexing(material_search)
    ours = material_search.SearchPlugin.on_page_context
    indexed = []
    plugin = SimpleNamespace(config=SimpleNamespace(enabled=True), search_index=SimpleNamespace())
    plugin.search_index.add_entry_from_context = indexed.append
    pages = [
        '<h2 data-search-exclude id="x">甲</h2><p data-search-boost="2">乙</p>\n<span\tdata-search-a="b=c">丙</span>',
        '<a data-search-exclude href="#r1">1</a>data-search-x="1"<b  data-search-y="a"data-search-z="b">',
        'no attribute <i data-search-exclude>丁</i> data-search-="x" data-search-w=""',
    ]
    out = []
    for html in pages:
        mine, theirs = SimpleNamespace(content=html), SimpleNamespace(content=html)
        ours(plugin, {}, page=mine, config=None, nav=None)
        ours.material(plugin, {}, page=theirs, config=None, nav=None)
        assert mine.content == theirs.content, html
        out.append(mine.content)
    assert out[0] == '<h2 data-search-exclude id="x">甲</h2><p>乙</p>\n<span>丙</span>'
    assert out[1] == '<a data-search-exclude href="#r1">1</a><b >'
    assert len(indexed) == 2 * len(pages)  # Material indexes the page either way
