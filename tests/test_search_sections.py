"""The search's parser (edition.site.search_sections.FastParser) cuts every page into the same sections as
Material's, on the plain markup it reads itself and on markup it leaves to Material's parser."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from material.plugins.search.plugin import Parser

from edition.site.search_sections import CHUNKS, FastParser

# what the parser acts on: headings with and without ids (one nested), a permalink, text left out of the
# search (nested, and by a class), kept tags (an empty one), <pre> white space, void and self-closed tags,
# character references in text and attributes, upper-case-free plain markup throughout
PLAIN = (
    '<p>before &amp; after</p>\n<h2 id="a">Title <code>x</code><a class="headerlink" href="#a">¶</a></h2>\n'
    "<p>one <span data-search-exclude>hidden <span>also</span></span> two</p><p></p><p> </p>\n"
    '<div class="linenodiv">1\n2</div><pre>  keep\n\n  this  </pre><ul><li>a<br>b<br/></li><li> </li></ul>'
    '<div><h3 id="b&amp;c">Nested</h3>text<sub>2</sub></div> after   \n<h4>no id</h4><img src="x" alt="">'
    '<p title="&lt;p&gt;" hidden>tail &copy;</p>   '
)
OTHER = (  # markup Material's parser reads: a comment, a script, upper case, an unquoted attribute
    "<h1>T</h1><!-- <p>c</p> --><P CLASS=x>up</P><script>if (a < b) {}</script><p data-x=1>z</p>"
)


def sections(parser: Parser, html: str) -> list[tuple]:
    parser.feed(html)
    parser.close()
    return [(s.el.tag, s.el.attrs, s.id, s.depth, s.title, s.text, s.is_excluded()) for s in parser.data]


@pytest.mark.parametrize("html", [PLAIN, OTHER, PLAIN + OTHER, ""])
def test_the_same_sections_as_materials_parser(html):
    fast = FastParser()
    assert sections(fast, html) == sections(Parser(), html)
    assert getattr(fast, "itself", False) == (html in (PLAIN, ""))  # the plain markup read by FastParser itself


@pytest.mark.slow
def test_every_page_of_the_site_gives_the_same_sections(built_site: Path):
    pages = sorted(built_site.rglob("index.html"))
    assert len(pages) > 10
    for page in pages:
        html = page.read_text(encoding="utf-8")
        article = html[html.index("<article") : html.index("</article>") + len("</article>")]
        assert sections(FastParser(), article) == sections(Parser(), article), page


@pytest.mark.slow
def test_a_page_read_in_parts_again_and_changed_gives_the_same_sections(built_site: Path):
    """As ``mkdocs serve`` reads the pages: a page's content (its headings at the top level), then the same again
    (its parts from the cache), then with one character changed after its last heading with an id, and one in its
    middle, inside a section (the parts before and after it from the cache): Material's sections every time."""
    reused = inside = 0
    for page in sorted(built_site.rglob("index.html")):
        html = page.read_text(encoding="utf-8")
        content = html[html.index(">", html.index("<article")) + 1 : html.index("</article>")]

        def changed(at: int, content: str = content) -> str:
            han = re.search(r"[\u4e00-\u9fff]", content[at:])
            return content[: at + han.start()] + "〇" + content[at + han.end() :] if han else content

        last = content.rindex(' id="') if ' id="' in content else 0
        for k, version in enumerate((content, content, changed(last), changed(len(content) // 2))):
            hits = CHUNKS.hits
            assert sections(FastParser(), version) == sections(Parser(), version), page
            reused += CHUNKS.hits - hits >= 2  # the first part and one after it, from the cache
            inside += k == 3 and CHUNKS.hits - hits >= 10  # parts inside a section, before and after the change
    assert reused > 10  # on the witness and episode pages
    assert inside > 5


@pytest.mark.slow
def test_a_reading_text_numbered_anew_is_read_from_the_parts_before(built_site: Path):
    """Under ``serve`` a saved character numbers every mark and note after it anew (〔七〕 → 〔八〕, ``#k7`` →
    ``#k8``): the paragraphs are still taken from the cache, and the sections are still Material's."""
    renumbered_paragraphs = 0
    for page in sorted((built_site / "witnesses").rglob("index.html")):
        html = page.read_text(encoding="utf-8")
        content = html[html.index(">", html.index("<article")) + 1 : html.index("</article>")]
        renumbered = re.sub(r'((?:id="|href="#)m?k)(\d+)', lambda m: m[1] + str(int(m[2]) + 1), content)
        renumbered = re.sub(r"(data-search-exclude>〔)", r"\1又", renumbered)
        renumbered = re.sub(r'title="校記 ', 'title="校記 又', renumbered)
        assert renumbered.count("〔又") > 10 and renumbered.count('"#k') > 10
        sections(FastParser(), content)
        hits = CHUNKS.hits
        assert sections(FastParser(), renumbered) == sections(Parser(), renumbered), page
        # the paragraphs with a mark, numbered anew, from the cache too (besides those no number changed)
        paragraphs = re.split(r"(?=<p[ >])", renumbered)
        marked = sum(1 for p in paragraphs if "〔又" in p)
        unchanged = sum(1 for p in paragraphs if "〔又" not in p and "#k" not in p)
        assert CHUNKS.hits - hits >= unchanged + marked, page
        renumbered_paragraphs += marked
    assert renumbered_paragraphs > 20
