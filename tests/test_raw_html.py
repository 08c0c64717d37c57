"""The raw HTML stand-ins (``edition.site.raw_html``) never change what Python-Markdown makes of a page, and a
page taken as HTML without Markdown (``as_html``) is what Markdown makes of it."""

from __future__ import annotations

import markdown
import pytest
from mkdocs.utils import meta

from edition.site import raw_html

EXTENSIONS = ["edition.site.cjk", "toc", "admonition"]
LONG = '<span class="t" data-t="甲&amp;乙">長文字</span>' * 20  # makes an element long enough for a stand-in

CASES = {
    "one element": f'<div class="a">{LONG}</div>\n\n段落。\n',
    "elements over lines": f'<div class="a">\n{LONG}\n<p>乙\n丙</p>\n</div>\n\n<ol><li>{LONG}</li>\n<li>丁</li></ol>\n',
    "two on a line": f"<div>{LONG}</div><div>{LONG}</div>\n\n文\n",
    "text after it": f"<div>{LONG}</div> *強調*\n\n文\n",
    "no blank line after": f"<div>{LONG}</div>\n下一行\n",
    "inside an open block": f"<section>\n\n<div>{LONG}</div>\n\n</section>\n",
    "closes an outer element": f"<section>\n\n<div>{LONG}</section></div>\n\n文\n",
    "an inner element left open": f"<div><p>{LONG}</div>\n\n文\n",
    "void and self-closed tags": f"<div>{LONG}<br><hr><img src='x'/><br/></div>\n\n文\n",
    "a bare ampersand": f"<div>{LONG} & &amp x</div>\n\n文\n",
    "a comment elsewhere": f"<!-- note -->\n\n<div>{LONG}</div>\n",
    "inline first tag": f"<span>{LONG}</span>\n\n文\n",
    "in a list": f"- 項\n\n    <div>{LONG}</div>\n\n<div>{LONG}</div>\n",
    "upper-case tags": f"<DIV>{LONG}</Div>\n\n文\n",
    "a heading between": f"## 標題\n<div>{LONG}</div>\n## 又\n",
    "a code fence": f"```\n<div>{LONG}</div>\n```\n\n<div>{LONG}</div>\n",
    "a tag over two lines": f'<div class="a"\ntitle="b>c">{LONG}<span\n>乙</span></div>\n\n<p>{LONG} < </p>\n文\n',
    "a bare less-than inside": f"<div>{LONG} 甲 < 乙 <span>丙</span></div>\n\n文\n",
    "a less-than in a value": f'<div title="a<b">{LONG}</div>\n\n文\n',
    "an ill-formed reference in a value": f'<div title="a&b">{LONG}</div>\n\n文\n',
    "a script after": f"<div>{LONG}</div>\n\n<script>var a = '<div>';</script>\n",
    "raw HTML only": f'<div class="a">{LONG}</div>\n\n\n<p>甲\n乙</p>\n  \n<ol><li>{LONG}</li>\n<li>丁</li></ol>\n',
    "a tag over two lines only": f'<div class="a"\ntitle="b>c">{LONG}<span\n>乙</span></div>\n',
    "an inner element left open only": f"<div><p>{LONG}</div>\n",
    "a bare less-than only": f"<div>{LONG} 甲 < 乙</div>\n",
    "a bare ampersand only": f"<div>{LONG} & &amp x</div>\n",
    "void tags only": f"<div>{LONG}<br><hr><img src='x'/></div>\n\n<hr>\n",
    "text after the closing tag": f"<div>{LONG}</div>\n\n<p>甲</p>乙\n",
    "a blank line inside": f"<div>\n\n<p>{LONG}</p>\n\n</div>\n",
    "leading blank lines": f"\n\n<div>{LONG}</div>\n\n",
    "a tab inside": f"<div>{LONG}\t甲</div>\n",
}


def convert(text: str, stand_ins: bool) -> str:
    extensions = [*EXTENSIONS, "edition.site.raw_html"] if stand_ins else EXTENSIONS
    return markdown.Markdown(extensions=extensions, extension_configs={"toc": {"permalink": True}}).convert(text)


@pytest.mark.parametrize("name", CASES)
def test_stand_ins_convert_to_the_same_html(name):
    assert convert(CASES[name], True) == convert(CASES[name], False)


def test_a_generated_page_converts_to_the_same_html_through_stand_ins(site_pages):
    for path, text in site_pages.items():
        if path.endswith(".md"):
            assert convert(text, True) == convert(text, False), path


@pytest.mark.parametrize("name", CASES)
def test_a_page_taken_as_html_is_what_markdown_makes_of_it(name):
    html = raw_html.as_html(CASES[name])
    assert html is None or html == convert(CASES[name], False)


def test_pages_of_raw_html_only_are_taken_as_html():
    taken = {name for name in CASES if raw_html.as_html(CASES[name]) is not None}
    assert taken == {
        "elements over lines",
        "raw HTML only",
        "a tag over two lines only",
        "an inner element left open only",
        "leading blank lines",
    }


def test_a_generated_episode_or_witness_page_is_taken_as_html_and_is_what_markdown_makes_of_it(site_pages):
    for path, text in site_pages.items():
        if path.endswith(".md"):
            body = meta.get_data(text)[0]  # as MkDocs hands a page's Markdown to the converter
            html = raw_html.as_html(body)
            assert (html is not None) == path.startswith(("episodes/", "witnesses/")), path
            assert html is None or html == convert(body, False), path


def test_a_long_element_is_stashed_through_a_stand_in(monkeypatch):
    seen: list[int] = []
    run = raw_html._StandIns.run

    def counting(self, lines):
        out = run(self, lines)
        seen.append(len(self.originals))
        return out

    monkeypatch.setattr(raw_html._StandIns, "run", counting)
    convert(CASES["elements over lines"], True)
    assert seen == [2]


@pytest.fixture(scope="module")
def site_pages(seeds_export):
    from edition.site.render import render_site

    return render_site(*seeds_export)
