"""The built site: `mkdocs build --strict` on the seeds and on made-up witnesses, checked in the HTML."""

import html as html_lib
import json
import os
import random
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import nh3
import opencc
import pytest
import yaml
from markupsafe import Markup
from mkdocs.config import load_config
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

from edition.engine.convert import to_simplified, to_traditional
from edition.engine.export import to_dict
from edition.engine.pipeline import build
from edition.engine.resources import data_folders, load_resources
from edition.site import script_forms
from edition.site.cache import SiteCache
from edition.site.cjk import join_lines
from edition.site.editor_notes import ATTRIBUTES, SCHEMES, TAGS, editor_html
from edition.site.error import LastGoodSite
from edition.site.paths import episode_page, witness_page
from edition.site.render import render_error, render_site
from edition.site.templating import ENV, MACROS, TEMPLATES
from tests.conftest import once

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "seeds"
VOID = {"br", "input", "img", "hr", "meta", "link", "wbr", "source"}
# Witness text that Markdown or HTML would interpret if the site did not escape it.
EVIL = "<script>alert(1)</script> &amp; **x** # h [x](javascript:alert(1)) | {: .c} --8<-- [^1]"

pytestmark = pytest.mark.slow


def mkdocs_build(site: Path, seeds: Path | None = None, hash_seed: str | None = None) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` in a new interpreter (``hash_seed``: its PYTHONHASHSEED, which orders its sets)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    if seeds is not None:
        env["EDITION_SEEDS"] = str(seeds)
    if hash_seed is not None:
        env["PYTHONHASHSEED"] = hash_seed
    cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "-d", str(site)]
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


class Text(HTMLParser):
    """Text (unescaped) inside elements of class ``root``, skipping subtrees of the classes in ``skip``."""

    def __init__(self, root: str, skip: tuple[str, ...] = ()):
        super().__init__(convert_charrefs=True)
        self.root, self.skip = root, skip
        self.stack: list[str] = []  # per open element: "root", "skip" or ""
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        classes = (dict(attrs).get("class") or "").split()
        self.stack.append("root" if self.root in classes else "skip" if set(classes) & set(self.skip) else "")

    def handle_endtag(self, tag):
        if tag not in VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if "root" in self.stack and "skip" not in self.stack[self.stack.index("root") :]:
            self.parts.append(data)

    @classmethod
    def of(cls, html: str, root: str, skip: tuple[str, ...] = ()) -> str:
        parser = cls(root, skip)
        parser.feed(html)
        return "".join(parser.parts)


def page(site: Path, path: str) -> str:
    folder = site if path == "index.md" else site / path.removesuffix(".md")
    return (folder / "index.html").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def edition(site):
    """The export the site was built from (its own edition.json: the hook reads the editor's file too) and
    the witness texts."""
    export = json.loads((site / "edition.json").read_text(encoding="utf-8"))
    built = build(SEEDS, load_resources(data_folders(SEEDS, ROOT)))
    return export, {w.siglum: w.text for w in built.witnesses}


@pytest.fixture(scope="module")
def site(site_build):
    """The session's `mkdocs build --strict` of the seeds (conftest.py), without a warning."""
    out, log = site_build
    assert "WARNING" not in log
    return out


def test_build_logs_stage_times(site_build):
    for stage in ("load", "segment", "episodes", "rows", "notes", "render"):
        assert re.search(rf"INFO\s+-\s+edition: {stage}\s+\d+\.\d\d s", site_build[1]), stage


def test_episode_pages_have_their_titles_in_narrative_order(site, edition):
    export, _ = edition
    html = (site / "index.html").read_text(encoding="utf-8")
    nav = [re.search(rf'href="{episode_page(e["id"]).removesuffix(".md")}/"', html) for e in export["episodes"]]
    assert all(nav) and [m.start() for m in nav] == sorted(m.start() for m in nav)
    for ep in export["episodes"]:
        assert f"<h1>{ep['title']}</h1>" in page(site, episode_page(ep["id"]))
    assert [e["title"] for e in export["episodes"]] == ["安市對話", "班師", "遼澤", "祭奠", "太子迎駕"]


def test_every_witness_with_text_has_a_column_in_catalogue_order_bases_flagged(site, edition):
    export, _ = edition
    bases = {f["base"] for f in export["families"]}
    for ep in export["episodes"]:
        html = page(site, episode_page(ep["id"]))
        head = html.split("<thead>", 1)[1].split("</thead>", 1)[0] if "<thead>" in html else ""
        columns = re.findall(r'<th data-w="([^"]+)"[^>]*>[^<]*(<span class="ed-base">底本</span>)?', head)
        carrying = [w["siglum"] for w in export["witnesses"] if any(r["cells"].get(w["siglum"]) for r in ep["rows"])]
        assert [c for c, _ in columns] == carrying
        assert [c for c, base in columns if base] == [s for s in carrying if s in bases]


def table_rows(html: str) -> list[str]:
    return re.findall(r'<tr id="r\d+".*?</tr>', html)


def test_rowspans_cover_each_column_once_per_row(site, edition):
    """A spanning cell covers its rows; the rows below it have no cell of that witness, every other row one."""
    export, _ = edition
    spans = 0
    for ep in export["episodes"]:
        rows = table_rows(page(site, episode_page(ep["id"])))
        assert len(rows) == len(ep["rows"])
        covered: dict[str, int] = {}
        for row in rows:
            for w, span in re.findall(r'<td [^>]*?data-w="([^"]+)"(?:[^>]*? rowspan="(\d+)")?', row):
                covered[w] = covered.get(w, 0) + int(span or 1)
                spans += bool(span)
        assert set(covered.values()) <= {len(rows)}, (ep["id"], covered)
        for k, row in enumerate(ep["rows"]):
            for w, n in row.get("span", {}).items():
                assert f'data-w="{w}" lang="' in rows[k] and f'rowspan="{n}"' in rows[k]
    assert spans == sum(len(r.get("span", {})) for ep in export["episodes"] for r in ep["rows"]) > 0


def test_a_row_the_machine_is_unsure_of_is_marked_and_explained(site, edition):
    """The export's ``weak`` cells: the row gets a "？" naming them, their cells are outlined; no other row is."""
    export, _ = edition
    marked = 0
    for ep in export["episodes"]:
        rows = table_rows(page(site, episode_page(ep["id"])))
        for k, row in enumerate(ep["rows"]):
            weak = row.get("weak", [])
            outlined = re.findall(r'<td data-w="([^"]+)"[^>]*? class="ed-weak"', rows[k])
            assert outlined == weak, row["id"]
            assert ('class="ed-weak-mark"' in rows[k]) == bool(weak), row["id"]
            if weak:
                assert f"把握不大：{'、'.join(weak)} 此格" in rows[k]
                marked += 1
    assert marked  # the seeds have such rows
    assert "程式對此行把握不大" in page(site, "conventions.md")


def test_cells_carry_the_language_of_their_script(site, edition):
    export, _ = edition
    langs = {"Hant": "zh-Hant", "Hans": "zh-Hans"}
    for w in export["witnesses"]:
        html = page(site, episode_page("anshi-dialogue"))
        cells = re.findall(rf'<td data-w="{w["siglum"]}" lang="([^"]+)"', html)
        assert cells and set(cells) == {langs.get(w["script"], "zh")}
        assert f'class="ed-witness-text ed-text" lang="{langs.get(w["script"], "zh")}"' in page(
            site, f"witnesses/{w['siglum']}.md"
        )


def test_notes_and_marks_link_to_existing_anchors(site, edition):
    export, _ = edition
    rows = {r["id"]: (ep["id"], i) for ep in export["episodes"] for i, r in enumerate(ep["rows"], 1)}
    total = 0
    for ep in export["episodes"]:
        html = page(site, episode_page(ep["id"]))
        ids = set(re.findall(r'id="([^"]+)"', html))
        listed = re.findall(
            r'<li id="(n\d+)" class="ed-note[^"]*"[^>]*><span class="ed-no"[^>]*>(\d+)</span>'
            r'<a class="ed-back" href="#(r\d+)"',
            html,
        )
        mine = [n for n in export["notes"] if n["row"] in rows and rows[n["row"]][0] == ep["id"]]
        mine = [n for n in mine if n["id"] not in repeats(mine) and "superseded_by" not in n]  # the editor's instead
        # the apparatus, then the variant forms and missing commentary after it, under their own heading
        mine = [n for n in mine if not is_form(n)] + [n for n in mine if is_form(n)]
        assert [n for n, _, _ in listed] == [n["id"] for n in mine]
        apparatus, _, forms = html.partition('<h2 id="forms">')
        assert all(f'<li id="{n["id"]}"' in (forms if is_form(n) else apparatus) for n in mine)
        assert [no for _, no, _ in listed] == [str(k) for k in range(1, len(listed) + 1)]  # numbered per page
        assert [f"r{rows[n['row']][1]}" for n in mine] == [r for _, _, r in listed]
        assert all(r in ids for _, _, r in listed)
        marked = {n for group in re.findall(r'<mark class="v [^"]*" data-notes="([^"]+)"', html) for n in group.split()}
        assert marked <= {n for n, _, _ in listed}
        assert all(
            link in ids for link in re.findall(r'<mark class="v [^"]*" data-notes="[^"]+"><a href="#(n\d+)"', html)
        )
        total += len(listed)
    assert total > 0


def test_overlapping_marks_carry_all_their_notes(site, edition):
    """A piece under two notes links to the innermost and names both (the popover shows them all)."""
    html = "".join(page(site, episode_page(ep["id"])) for ep in edition[0]["episodes"])
    assert re.search(r'data-notes="n\d+ n\d+', html)


def test_notes_outside_the_episodes_are_on_their_family_base_page(site, edition):
    export, _ = edition
    rows = {r["id"] for ep in export["episodes"] for r in ep["rows"]}
    bases = {f["id"]: f["base"] for f in export["families"]}
    outside = [n for n in export["notes"] if n["row"] not in rows]
    assert outside
    again = repeats(outside)
    for note in outside:
        if note["id"] in again:  # stated by the first of its kind (下同)
            continue
        # a family's note on its base's page; an editor's note on the page of the witness it annotates: it quotes
        # that witness, whose reading text lists every note that quotes it, one numbered entry each
        home = bases[note["family"]] if note["family"] else note["lemma"]["siglum"]
        assert (note["lemma"] and note["lemma"]["siglum"] == home) or any(home in r["spans"] for r in note["readings"])
        html = page(site, f"witnesses/{home}.md")
        quoting = [
            n
            for n in export["notes"]
            if (n["lemma"] and n["lemma"]["siglum"] == home) or any(home in r["spans"] for r in n["readings"])
        ]
        assert len(re.findall(r'<li id="k\d+" class="ed-note', html)) == len(quoting), home
        if note["type"] == "lacuna":
            assert escape_text(note["text"]) in html


def test_an_editors_fact_marks_each_witness_words(site, edition):
    """The editor's facts (陳賜物者: A、B 作長孫無忌；D 作侍臣) mark the words of every witness they quote, in
    that witness's cell of the episode page, as the machine's fact notes do (words another episode tells, as A's
    and B's 九月十八日 of 班師之日 in the dialogue, are on that page); the note itself reads 某本作某."""
    export, _ = edition
    episodes = {e["id"] for e in export["episodes"]}
    facts = [n for n in export["notes"] if n["type"] == "editor" and n["readings"] and n["episode"] in episodes]
    assert len(facts) >= 5
    for note in facts:
        html = page(site, episode_page(note["episode"]))
        cells = re.findall(r'<td data-w="(\w+)"[^>]*>(.*?)</td>', html)
        marked = {w for w, cell in cells if re.search(rf'data-notes="[^"]*\b{note["id"]}\b', cell)}
        (ep,) = [e for e in export["episodes"] if e["id"] == note["episode"]]
        here = {(s, x["start"], x["end"]) for row in ep["rows"] for s, cell in row["cells"].items() for x in cell}
        quoted = {
            s
            for r in note["readings"]
            for s, (a, b) in r["spans"].items()
            if any(t == s and c <= a and b <= d for t, c, d in here)
        }
        assert quoted <= marked, (note["text"], quoted, marked)
        item = re.search(rf'<li id="{note["id"]}" .*?</li>', html).group()
        assert escape_text(note["text"].split("。")[0]) in item


def test_a_verdict_round_trips_from_the_editors_file_to_the_page(site, edition):
    """YAML -> JSON -> TEI -> page: the seeds' verdict on A's 透 (adopt: B) is in the site's edition.json with
    the words and the adopted text, in the TEI as the adopted rdg with @resp and a verdict note, and on the
    episode page after the 某本作某; every verdict of the file is on its note's line."""
    from edition.interchange.tei import to_tei

    export, texts = edition
    written = yaml.safe_load((SEEDS / "editorial.yaml").read_text(encoding="utf-8"))["verdicts"]
    judged = [n for n in export["notes"] if "verdict" in n]
    assert len(judged) == len(written)
    (note,) = [n for n in judged if n["verdict"]["kind"] == "adopt"]
    assert (note["lemma"]["text"], note["readings"][0]["text"], note["verdict"]["words"]) == ("透", "通", "據B改。")
    assert note["verdict"]["adopted"] == {
        **{k: note["lemma"][k] for k in ("siglum", "start", "end")},
        "text": "通",
        "was": "透",
    }
    tei = to_tei(export, texts).decode()
    rdg = f'<rdg wit="#B" type="substantive" n="{note["id"]}" resp="#editor">通</rdg>'
    verdict = f'<note type="verdict" subtype="adopt" resp="#editor" n="{note["id"]}">據B改。</note>'
    assert rdg + verdict in tei
    for n in judged:
        item = re.search(rf'<li id="{n["id"]}" .*?</li>', page(site, episode_page(n["episode"]))).group()
        assert f'<span class="ed-verdict">{escape_text(n["verdict"]["words"])}</span>' in item
    item = re.search(rf'<li id="{note["id"]}" .*?</li>', page(site, episode_page(note["episode"]))).group()
    assert '<span class="rdg">通</span> <span class="sig">B</span>。<span class="ed-verdict">據B改。</span>' in item


def test_the_machine_never_contradicts_the_editor_on_the_page(site, edition):
    """The machine's 時日 note on the day of 班師 (所記同日) is superseded by the editor's 班師之日 fact: kept in the
    export, marked, and shown on no page (its marks neither); the 凡例 says so and how many."""
    export, _ = edition
    by_id = {n["id"]: n for n in export["notes"]}
    superseded = [n for n in export["notes"] if "superseded_by" in n]
    day = next(n for n in superseded if n["label"].startswith("時日"))
    assert (
        by_id[day["superseded_by"]]["label"] == "班師之日" and by_id[day["superseded_by"]]["episode"] == day["episode"]
    )
    for n in superseded:
        html = page(site, episode_page(n["episode"]))
        assert f'id="{n["id"]}"' not in html and not re.search(rf'data-notes="[^"]*\b{n["id"]}\b', html)
        assert f'<li id="{n["superseded_by"]}" ' in html
    conventions = page(site, "conventions.md")
    assert f"以編者為準，程式的校記不出（本版 {len(superseded)} 條" in conventions


def is_form(note) -> bool:
    """A variant form or a missing interlinear note: listed apart from the apparatus (異體字不出校)."""
    return note["type"] == "collation" and (note["class"] == "orthographic" or note["label"] == "注文")


def repeats(notes):
    """The notes of a page that say again what an earlier one says: the same variant form of a copy (the same
    lemma, the same readings), or a copy's lacking an interlinear note again (the same witnesses)."""
    seen, out = set(), set()
    for n in notes:
        if n["type"] != "collation":
            continue
        if n["class"] == "orthographic" and n["label"] != "注文":
            key = ("form", n["family"], n["lemma"]["text"], str([(r["sigla"], r["text"]) for r in n["readings"]]))
        elif n["label"] == "注文":
            key = ("注文", n["family"], n["class"], str([r["sigla"] for r in n["readings"]]))
        else:
            continue
        if key in seen:
            out.add(n["id"])
        seen.add(key)
    return out


def test_a_copys_recurring_variant_form_is_stated_once_per_page(site, edition):
    """B writes 岩 for A's 巖 three times in the withdrawal: one note, 下同, and each place marked with it."""
    export, _ = edition
    ep = next(e for e in export["episodes"] if e["id"] == "withdrawal")
    rows = {r["id"] for r in ep["rows"]}
    same = [n for n in export["notes"] if n["row"] in rows and n["lemma"] and n["lemma"]["text"] == "巖"]
    assert len(same) >= 2 and all(n["class"] == "orthographic" for n in same)
    html = page(site, episode_page("withdrawal"))
    first = same[0]["id"]
    item = re.search(rf'<li id="{first}" class="ed-note.*?</li>', html).group()
    assert f"下同（又 {len(same) - 1} 處" in item
    assert not any(f'<li id="{n["id"]}"' in html for n in same[1:])
    marked = re.findall(
        r'<mark class="v [^"]*" data-notes="([^"]+)"[^>]*><a href="#(n\d+)"[^>]*><span[^>]*>[巖岩]<', html
    )
    assert len(marked) == 2 * len(same)  # A's 巖 and B's 岩 at each place
    # each marked with the first note alone of the recurring ones (a fact note on the town, 白巖城，所記同, may
    # mark the letter too)
    ids = {n["id"] for n in same}
    assert {a for _, a in marked} == {first} and {tuple(set(n.split()) & ids) for n, _ in marked} == {(first,)}


def escape_text(text: str) -> str:
    return str(ENV.from_string("{{ t }}").render(t=text))


def test_witness_pages_hold_every_character(site, edition):
    export, texts = edition
    skip = ("ed-ref", "ed-alt", "ed-lacuna", "ed-outside-tag", "ed-nm")
    for i, w in enumerate(export["witnesses"]):
        html = page(site, witness_page(w["siglum"], i))
        # a reading the editor adopts stands in the text; what the witness reads is its title (and its 校勘記)
        emended = r'<ins class="ed-emended" title="(?:原作「(.*?)」|原脫)">.*?</ins>'
        read = re.sub(emended, lambda m: m.group(1) or "", html)
        shown = Text.of(read, "ed-witness-text", skip=skip)
        assert "".join(shown.split()) == "".join(texts[w["siglum"]].split())
        refs = re.findall(r'class="ed-ref"[^>]*href="../../episodes/([^/]+)/#r(\d+)"', html)
        assert refs and all(episode_page(e) in {episode_page(x["id"]) for x in export["episodes"]} for e, _ in refs)
        anchors = set(re.findall(r'<span class="ed-(?:run|outside)[^"]*" id="o(\d+)"', html))
        cells = {
            str(x["start"]) for ep in export["episodes"] for r in ep["rows"] for x in r["cells"].get(w["siglum"], [])
        }
        assert cells <= anchors  # every run of the witness can be linked to (#o<start>)


def test_lacunae_are_shown_in_the_witness_text(site, edition):
    export, _ = edition
    assert export["lacunae"]
    for x in export["lacunae"]:
        html = page(site, f"witnesses/{x['siglum']}.md")
        label = {"start": "以上闕", "end": "以下闕", "unfinished": "文未完"}[x["kind"]]
        assert re.search(rf'class="ed-lacuna"[^>]*>〔{label}〕', html), x


def test_cross_script_forms_are_indexed_for_search(site, edition):
    export, texts = edition
    docs = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    simplified = [i for i, w in enumerate(export["witnesses"]) if "辽泽" in texts[w["siglum"]]]
    assert simplified
    for i in simplified:
        url = witness_page(export["witnesses"][i]["siglum"], i).removesuffix(".md") + "/"
        found = [d for d in docs if d["location"].startswith(url) and "遼澤" in d["text"].replace("\u200b", "")]
        assert found, url


def test_export_is_published_and_linked_from_every_page(site, edition):
    assert edition[0]["format"] == "edition-export/2"
    assert 'href="../edition.json"' in (site / "method" / "index.html").read_text(encoding="utf-8")
    pages = built_pages(site)
    for path, html in pages.items():
        if path == "404.html" or "search" in path:
            continue
        for name in ("edition.xml", "edition.json", "edition.schema.json"):
            assert re.search(rf'class="ed-downloads".*?href="[./]*/{re.escape(name)}"', html, re.S), (path, name)


def test_nav_lists_the_new_pages(site):
    html = (site / "index.html").read_text(encoding="utf-8")
    for href, title in (("conventions/", "凡例"), ("register/", "人名・地名索引"), ("format/", "資料格式")):
        assert re.search(rf'href="{href}"[^>]*>\s*<span class="md-ellipsis">\s*{title}', html), title


def tree_bytes(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_site_is_byte_identical_across_fresh_processes(site, tmp_path):
    """Two new interpreters with different hash seeds build the same bytes, file for file (pages, downloads,
    search index): the session's build (conftest.py: a new process, its seed random, written beside the site)
    and one more here with another seed."""
    seed = int((site.parent / "hashseed").read_text(encoding="utf-8"))
    other = str(seed % 4_294_967_295 + 1)  # any other seed of PYTHONHASHSEED's range
    result = mkdocs_build(tmp_path / "other", hash_seed=other)
    assert result.returncode == 0, result.stderr
    again, first = tree_bytes(tmp_path / "other"), tree_bytes(site)
    assert again.keys() == first.keys()
    different = [path for path in first if again[path] != first[path]]
    assert different == []
    assert {"edition.json", "overview/index.html", "search/search_index.json"} <= first.keys()


# --- templates and escaping -------------------------------------------------------------------------------------


def test_templates_autoescape_every_variable():
    assert ENV.from_string("<p title='{{ x }}'>{{ x }}</p>").render(x="<b>'&\"") == (
        "<p title='&lt;b&gt;&#39;&amp;&#34;'>&lt;b&gt;&#39;&amp;&#34;</p>"
    )
    assert ENV.autoescape is True  # for every template, whatever its name
    piece = {
        "text": "<b>x</b>",
        "t": "<i>",
        "s": '"',
        "br": False,
        "note": None,
        "notes": "",
        "classes": "",
        "reg": None,
    }
    expected = '<span class="t" data-t="&lt;i&gt;" data-s="&#34;">&lt;b&gt;x&lt;/b&gt;</span>'
    assert str(MACROS.pieces([{**piece, "gap": False}])) == expected
    page = render_error("<script>alert(1)</script> **x**", ["overview.md"])["overview.md"]
    assert "<code>&lt;script&gt;alert(1)&lt;/script&gt; **x**</code>" in page


def test_no_template_turns_escaping_off():
    """Nothing marks data as safe: no |safe, no autoescape false, no Markup() of data in the site code."""
    for path in TEMPLATES.glob("*.jinja"):
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"\|\s*safe\b|autoescape\s+false|\bMarkup\b", source), path.name
    exempt = {"editor_notes.py", "search_sections.py"}
    code = "\n".join(
        p.read_text(encoding="utf-8") for p in (ROOT / "edition" / "site").glob("*.py") if p.name not in exempt
    )
    assert not re.search(r"\bescape\(|\bMarkup\(|markupsafe|from html import|import html\b", code)
    # the exceptions: editor_notes.py, an editor's note, Markdown made HTML and sanitised by nh3 before it is marked
    # safe (what that gives is asserted in test_editor_notes_are_sanitised); search_sections.py renders no page: it
    # reads the pages for the search index as Material's parser does, html.escape and all (test_search_sections)


def test_front_matter_title_is_escaped_yaml():
    """MkDocs' themes print page titles as HTML: the title goes into the front matter HTML-escaped."""
    for title in ['<b>T</b> & "q" \'a\' \\"', "a: b # c\n- d\t \r", "\u2028\u0085\x7fx\U00020000", EVIL]:
        page = ENV.from_string('{% import "macros.html.jinja" as m %}{{ m.front(title) }}').render(title=title)
        meta = yaml.safe_load(page.split("---\n")[1])
        assert meta == {"title": str(ENV.from_string("{{ t }}").render(t=title)), "hide": ["toc"]}


# --- script conversion ------------------------------------------------------------------------------------------


def test_script_forms_equal_opencc_on_any_slice(edition):
    """Converting run by run gives exactly what OpenCC gives for the whole string, wherever it is cut."""
    _, texts = edition
    forms = script_forms.ScriptForms(SiteCache())
    rng = random.Random(0)
    samples = [*texts.values(), "", "　 \n", "乾隆，後來\n里面。裡面 干涉「發」"]
    for text in list(texts.values()) * 200:
        start = rng.randrange(len(text))
        samples.append(text[start : start + rng.randrange(1, 120)])
    for text in samples:
        assert forms.forms(text) == (to_traditional(text), to_simplified(text)), text


def test_script_forms_split_only_where_opencc_splits():
    split = opencc.OpenCC("t2s").split_chars_re
    separators = re.findall(r"\[([^\]]+)\]", script_forms._BREAK.pattern)[0]
    assert all(split.fullmatch(ch) for ch in separators)
    assert all(split.fullmatch(ch) for ch in " \t\n\u3000")


# --- render cache -----------------------------------------------------------------------------------------------


class CountingCache(SiteCache):
    """A SiteCache that records which pages came from it and which were rendered."""

    def __init__(self):
        super().__init__()
        self.pages = {}

    def get(self, key, compute):
        hit = []
        value = super().get(key, lambda: hit.append(False) or compute())
        if key[0] == "site-page":
            self.pages[key[1]] = not hit
        return value

    def end_build(self):
        super().end_build()
        self.pages = {}


def hook_build(seeds: Path, cache: SiteCache) -> tuple[dict, dict[str, str], dict[str, str]]:
    """One build as the hook makes it: engine and render through the same cache."""
    edition = build(seeds, load_resources(data_folders(seeds, ROOT)), cache)
    export, texts = to_dict(edition), {w.siglum: w.text for w in edition.witnesses}
    return export, texts, render_site(export, texts, cache)


def carriers(ep: dict) -> set[str]:
    return {s for row in ep["rows"] for s, segs in row["cells"].items() if segs}


def test_an_edit_re_renders_only_the_pages_it_reaches(tmp_path):
    seeds = tmp_path / "seeds"
    shutil.copytree(SEEDS, seeds)
    cache = CountingCache()
    export, _, first = hook_build(seeds, cache)
    assert not any(cache.pages.values())  # a cold build renders every page
    cache.end_build()
    i, w = next((i, w) for i, w in enumerate(export["witnesses"]) if w["siglum"] == "C")
    absent = [ep["id"] for ep in export["episodes"] if "C" not in carriers(ep)]
    assert absent  # C tells only some episodes
    path = seeds / w["file"]
    text = path.read_text(encoding="utf-8")
    assert text.count("二位大将略一提示") == 1  # in 班師, in no note (a note elsewhere would renumber the notes)
    path.write_text(text.replace("二位大将略一提示", "二位大将稍一提示"), encoding="utf-8")

    export2, texts2, second = hook_build(seeds, cache)
    hits = dict(cache.pages)
    cache.end_build()
    assert [n["id"] for n in export2["notes"]] == [n["id"] for n in export["notes"]]
    assert [ep["id"] for ep in export2["episodes"] if "C" not in carriers(ep)] == absent
    assert all(hits[episode_page(e)] for e in absent), hits  # taken from the cache
    assert not hits[witness_page("C", i)] and "二位大将稍一提示" in second[witness_page("C", i)]
    assert not hits[episode_page("withdrawal")]  # C's episode re-rendered
    assert hits[witness_page("A", 0)]
    assert second == render_site(export2, texts2)  # the same as a cold render
    assert second != first


def mini_export(texts: dict[str, str], rows: list[dict], notes: list[dict], **extra) -> dict:
    """A small edition-export/2: one family per witness unless ``families`` is given, one episode."""
    witnesses = [
        {
            "siglum": s,
            "file": f"{s}.txt",
            "title": s,
            "description": "",
            "source": "",
            "script": "Hant",
            "length": len(t),
            "family": s,
        }
        for s, t in texts.items()
    ]
    export = {
        "format": "edition-export/2",
        "witnesses": witnesses,
        "families": [{"id": s, "base": s, "members": [s], "declared": False} for s in texts],
        "episodes": [{"id": "e", "title": "E", "description": "", "rows": rows}],
        "unassigned": {s: [] for s in texts},
        "notes": notes,
        "lacunae": [],
        "register": [],
        "normalised": {"quote_styles": 0, "unpunctuated": [], "scripts": [], "silenced": {}},
        "editorial": {},
    }
    export.update(extra)
    for w in export["witnesses"]:
        w["family"] = next(f["id"] for f in export["families"] if w["siglum"] in f["members"])
    return export


def note(nid, kind, lemma=None, readings=(), ntype="collation", row="e-1", text="", family="A"):
    return {
        "id": nid,
        "type": ntype,
        "class": kind,
        "episode": "e" if row else None,
        "row": row,
        "family": family,
        "label": "",
        "tags": [],
        "lemma": lemma,
        "readings": list(readings),
        "text": text,
    }


def test_overlapping_notes_split_into_pieces():
    text = "甲乙丙丁戊"
    rows = [{"id": "e-1", "cells": {"A": [{"start": 0, "end": 5, "text": text}]}}]
    notes = [
        note("n1", "substantive", {"siglum": "A", "start": 1, "end": 4, "text": "乙丙丁"}),
        note("n2", "punctuation", {"siglum": "A", "start": 2, "end": 3, "text": "丙"}),
        note("n3", "omission", {"siglum": "A", "start": 5, "end": 5, "text": ""}),
    ]
    html = render_site(mini_export({"A": text}, rows, notes), {"A": text})["episodes/e.md"]
    marks = re.findall(r'<mark class="([^"]+)" data-notes="([^"]+)"><a href="#(n\d)"[^>]*>([^<]*)</a></mark>', html)
    assert marks == [
        ("v v-substantive v-short", "n1", "n1", "乙"),  # a one-character mark is a 24 px target
        ("v v-punctuation v-substantive v-short", "n1 n2", "n2", "丙"),  # innermost note gets the link, both ids
        ("v v-substantive v-short", "n1", "n1", "丁"),
        ("v v-omission v-gap", "n3", "n3", "‸"),
    ]
    assert "甲" in html and "戊" in html


def apparatus_of(html: str, nid: str) -> str:
    item = re.search(rf'<li id="{nid}" .*?</li>', html).group()
    return "".join(Text.of(f'<div class="x">{item}</div>', "ed-body").split())


def test_apparatus_forms_of_each_note_type():
    texts = {"A": "甲乙丙丁", "B": "甲乙丁戊", "C": "甲子"}
    rows = [{"id": "e-1", "cells": {s: [{"start": 0, "end": len(t), "text": t}] for s, t in texts.items()}}]
    families = [
        {"id": "A", "base": "A", "members": ["A", "B"], "declared": True},
        {"id": "C", "base": "C", "members": ["C"], "declared": False},
    ]
    a = {"siglum": "A", "start": 2, "end": 3, "text": "丙"}
    notes = [
        note("n1", "omission", a, [{"sigla": ["B"], "text": "", "spans": {"B": [2, 2]}}]),
        note(
            "n2",
            "addition",
            {"siglum": "A", "start": 4, "end": 4, "text": ""},
            [{"sigla": ["B"], "text": "戊", "spans": {"B": [3, 4]}}],
        ),
        note(
            "n3",
            "substantive",
            {"siglum": "A", "start": 1, "end": 2, "text": "乙"},
            [{"sigla": ["B"], "text": "乙", "spans": {"B": [1, 2]}}],
        ),
        note(
            "n4",
            "person",
            None,
            [
                {"sigla": ["A"], "text": "乙", "spans": {"A": [1, 2]}},
                {"sigla": ["C"], "text": "子", "spans": {"C": [1, 2]}},
            ],
            ntype="fact",
            text="某人：A 作乙；C 作子",
            family=None,
        ),
        note(
            "n5",
            "lacuna",
            {"siglum": "A", "start": 4, "end": 4, "text": ""},
            [{"sigla": ["B"], "text": "", "spans": {"B": [4, 4]}}],
            ntype="lacuna",
            text="B 止於此，以下闕",
            row=None,
        ),
        note(
            "n6", "editor", a, [], ntype="editor", text="此字**可疑**，見[方法](../../method/)。\n<script>x()</script>"
        ),
        note("n7", "editor", a, [], ntype="editor", text="段落之外的按語。", row=None),
    ]
    export = mini_export(texts, rows, notes, families=families)
    pages = render_site(export, texts)
    html = pages["episodes/e.md"]
    assert apparatus_of(html, "n1") == "丙A]om.B"
    assert apparatus_of(html, "n2") == "A]add.戊B"
    assert apparatus_of(html, "n3") == "乙A]乙B"
    assert apparatus_of(html, "n4") == "某人：A作乙；C作子"
    assert re.search(r'<li id="n4" [^>]*data-sides="A\|C" data-need="2"', html)
    assert re.search(r'<li id="n1" [^>]*data-sides="A\|B" data-need="2"', html)
    editor = re.search(r'<li id="n6" .*?</li>', html).group()
    assert '<span class="cls k-editor">編者按</span>' in editor
    assert "<strong>可疑</strong>" in editor and '<a href="../../method/" rel="noopener noreferrer">方法</a>' in editor
    assert "<script" not in editor and "&lt;script&gt;x()&lt;/script&gt;" in editor  # raw HTML stays text
    assert "B 止於此，以下闕" in pages["witnesses/A.md"] and "B 止於此" not in html  # outside the episodes
    assert "段落之外的按語" in pages["witnesses/A.md"] and "段落之外的按語" not in html  # on its lemma's witness


def test_an_editors_fact_shows_the_witness_words_as_written():
    """The export quotes an editor's fact's words as the witnesses write them; the page shows them so (縑*百*匹,
    no emphasis; [絹](x), no link) while the editor's label and words after the 某本作某 are Markdown."""
    texts = {"A": "賜縑*百*匹", "B": "賜[絹](x)", "C": "賜物"}
    rows = [{"id": "e-1", "cells": {s: [{"start": 0, "end": len(t), "text": t}] for s, t in texts.items()}}]
    fact = note(
        "n1",
        "editor",
        {"siglum": "A", "start": 1, "end": 6, "text": "縑*百*匹"},
        [
            {"sigla": ["A"], "text": "縑*百*匹", "spans": {"A": [1, 6]}},
            {"sigla": ["B"], "text": "[絹](x)", "spans": {"B": [1, 7]}},
            {"sigla": ["C"], "text": "物", "spans": {"C": [1, 2]}, "named": False},
        ],
        ntype="editor",
        text="**賜物**：A 作縑*百*匹；B 作[絹](x)；C 不名。*縑* 與絹不同。",
    )
    fact["label"] = "**賜物**"
    html = render_site(mini_export(texts, rows, [fact]), texts)["episodes/e.md"]
    item = re.search(r'<li id="n1" .*?</li>', html).group()
    shown = re.search(r'<span class="ed-editor">(.*?)</span>', item).group(1)
    assert shown == "<p><strong>賜物</strong>：A 作縑*百*匹；B 作[絹](x)；C 不名。<em>縑</em> 與絹不同。</p>"


def test_editor_notes_are_sanitised():
    evil = (
        "[x](javascript:alert(1)) <img src=x onerror=alert(1)> <a href='javascript:alert(2)'>y</a>\n\n"
        '<div onclick=alert(3)>z</div>\n\n[ok](https://example.org/ "t") `code` *em*\n一行\n二行'
    )
    safe = editor_html(evil)
    html = str(safe)
    # what is marked safe is what the sanitiser keeps: sanitised again, it is the same but for its line breaks
    again = nh3.clean(html, tags=TAGS, attributes=ATTRIBUTES, url_schemes=SCHEMES, link_rel="noopener noreferrer")
    assert isinstance(safe, Markup) and again.replace("\n", "&#10;") == html
    assert 'href="javascript' not in html and "<img" not in html and "<div" not in html and "<script" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html  # an editor's raw HTML is shown as text
    assert '<a href="https://example.org/" title="t" rel="noopener noreferrer">ok</a>' in html
    assert "<code>code</code>" in html and "<em>em</em>" in html and "一行二行" in html and "\n" not in html


def test_an_image_in_an_editor_note_is_its_alt_text():
    # Nothing is loaded from the note (a tracking pixel, a picture that moves), but the editor's words stay.
    text = (
        '見![城圖<b>](http://x.org/a.png "t")，又![](x.png)與[![連結圖](i.png)在此](https://e.org/)。\n\n'
        "![甲][r]乙\n\n[r]: b.png"
    )
    html = str(editor_html(text))
    assert "<img" not in html and "png" not in html
    assert html == (
        '<p>見城圖&lt;b&gt;，又與<a href="https://e.org/" rel="noopener noreferrer">連結圖在此</a>。</p>'
        "&#10;<p>甲乙</p>"
    )


def test_an_editor_note_nested_too_deep_for_markdown_is_shown_as_typed():
    text = "".join("  " * i + f"- <{i}>\n" for i in range(600))  # a RecursionError in Python-Markdown
    html = str(editor_html(text))
    assert html.startswith("<p>- &lt;0&gt;&#10;  - &lt;1&gt;") and "&lt;599&gt;" in html and "<li>" not in html


def test_moved_segments_link_to_their_place_in_their_witness():
    texts = {"A": "甲乙。丙丁。", "B": "丙丁。甲乙。"}
    rows = [
        {
            "id": "e-1",
            "cells": {
                "A": [{"start": 0, "end": 3, "text": "甲乙。"}],
                "B": [{"start": 3, "end": 6, "text": "甲乙。", "moved": True}],
            },
        },
        {
            "id": "e-2",
            "cells": {"A": [{"start": 3, "end": 6, "text": "丙丁。"}], "B": [{"start": 0, "end": 3, "text": "丙丁。"}]},
        },
    ]
    pages = render_site(mini_export(texts, rows, []), texts)
    html = pages["episodes/e.md"]
    assert html.count('<a class="ed-moved-link"') == 1
    assert '<span class="ed-moved"><a class="ed-moved-link" data-search-exclude href="../../witnesses/B/#o3"' in html
    witness = pages["witnesses/B.md"]
    assert '<span class="ed-run ed-run-moved" id="o3">' in witness and '<span class="ed-run" id="o0">' in witness
    assert witness.index('id="o0"') < witness.index('id="o3"')  # in the witness's own order


def test_conventions_page_says_what_is_normalised(site, edition):
    export, _ = edition
    html = page(site, "conventions.md")
    for f in export["families"]:
        assert re.search(rf'<th scope="row">{f["id"]}</th>', html)
        assert re.search(rf'href="../witnesses/{f["base"]}/">{f["base"]}</a><span class="ed-base">底本</span>', html)
    assert f"共 {export['normalised']['quote_styles']} 處" in html
    for label in ("異文", "增文", "脫文", "異體", "標點", "事實", "闕文", "編者按"):
        assert f'<th scope="row">{label}</th>' in html
    texts = {"P": "甲", "Q": "甲", "R": "甲"}
    families = [
        {"id": "P", "base": "P", "members": ["P", "Q"], "declared": False},
        {"id": "R", "base": "R", "members": ["R"], "declared": True},
    ]
    other = mini_export(texts, [], [], families=families)
    other["witnesses"][1]["script"] = "Hans"
    other["normalised"] = {
        "quote_styles": 3,
        "unpunctuated": ["P", "R"],
        "scripts": ["P"],
        "silenced": {"punctuation": 7},
    }
    text = render_site(other, texts)["conventions.md"]
    assert "P、R 無標點" in text and "本系 P 的成員字體不同（P 繁體、Q 簡體）" in text and "共 3 處" in text
    assert "目錄指定" in text and "程式發現" in text and "編者略去的校記：標點 7 條" in text


def test_register_page_links_every_mention_to_its_row(site, edition):
    export, _ = edition
    html = page(site, "register.md")
    rows = {r["id"]: (ep["id"], i) for ep in export["episodes"] for i, r in enumerate(ep["rows"], 1)}
    assert export["register"]
    for e in export["register"]:
        entry = re.search(rf'<h3 id="{e["id"]}">.*?</section>', html, re.S)
        assert entry, e["id"]
        for m in e["mentions"]:
            if m["row"] in rows:
                ep, no = rows[m["row"]]
                assert f'href="../episodes/{ep}/#r{no}"' in entry.group(), (e["id"], m)
        for name in (*e["variants"], *e["titles"]):
            assert escape_text(name) in entry.group()


def test_register_names_are_single_search_terms(site, edition):
    docs = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    terms = {t for d in docs for t in re.split(r"[\u200b\s]+", d["text"])}
    for name in ("楊萬春", "杨万春", "長孫無忌", "渤錯水"):
        assert name in terms, name


def test_chinese_line_breaks_leave_no_spaces(site):
    assert join_lines("見[此](x)。\n[彼](y)在\n- 列表") == "見[此](x)。[彼](y)在\n- 列表"
    assert join_lines("班師。\n臨行前\n- 列表\nLatin\n中文\n```\n甲\n乙\n```\n**重**\n點") == (
        "班師。臨行前\n- 列表\nLatin\n中文\n```\n甲\n乙\n```\n**重**點"
    )
    han = r"[\u3400-\u9fff，。、；：？！「」“”（）]"
    for path in ("index.md", "method.md", "inputs.md", "format.md"):
        text = Text.of(
            page(site, path).replace("<article", '<article class="md-content__article"'), "md-content__article"
        )
        assert not re.search(rf"{han}\s+{han}", text), (path, re.search(rf".{{8}}{han}\s+{han}.{{8}}", text))


def test_heat_map_strip_and_similarity_matrix(site, edition):
    export, _ = edition
    overview = page(site, "overview.md")
    heat = overview.split('class="ed-heat"', 1)[1].split("</table>", 1)[0]
    assert len(re.findall(r"<tr><th scope=\"row\">", heat)) == len(export["witnesses"])
    assert re.search(
        r'<td class="h[0-4]"><a href="../episodes/[^"]+/" title="[^"]+"><span class="ed-pct">\d+%</span>', heat
    )
    matrix = overview.split('class="ed-matrix"', 1)[1].split("</table>", 1)[0]
    assert matrix.count('<td class="ed-self"') == len(export["witnesses"])
    for ep in export["episodes"]:
        html = page(site, episode_page(ep["id"]))
        strip = re.findall(
            r'<a class="h([0-4])" href="#r(\d+)"', html.split('class="ed-strip"', 1)[1].split("</nav>", 1)[0]
        )
        assert [int(r) for _, r in strip] == list(range(1, len(ep["rows"]) + 1))
        assert len(re.findall(r'<th class="ed-rowno h[0-4]" scope="row"', html)) == len(ep["rows"])


def test_episodes_link_to_their_neighbours(site, edition):
    ids = [ep["id"] for ep in edition[0]["episodes"]]
    for k, ep in enumerate(ids):
        html = page(site, episode_page(ep))
        assert ('class="ed-prev"' in html) == (k > 0) and ('class="ed-next"' in html) == (k + 1 < len(ids))
        assert k == 0 or f'href="../../episodes/{ids[k - 1]}/" rel="prev"' in html
        assert k + 1 == len(ids) or f'href="../../episodes/{ids[k + 1]}/" rel="next"' in html


EVIL_IN_STORY = "朕征戰一生"  # the evil text goes into this sentence (安市對話) too, so an episode's table shows it


def _build_evil_site(folder: Path) -> None:
    seeds = folder / "seeds"
    seeds.mkdir()
    real = (SEEDS / "000_f5ad1a405610c3bb.txt").read_text(encoding="utf-8")[:1500]
    assert EVIL_IN_STORY in real
    real = real.replace(EVIL_IN_STORY, EVIL_IN_STORY[:3] + EVIL + EVIL_IN_STORY[3:], 1)
    (seeds / "000_evil.txt").write_text(EVIL + "\n" + real + "\n" + EVIL + "\n", encoding="utf-8")
    entry = {"file": "000_evil.txt", "siglum": "A", "title": EVIL, "description": EVIL, "source": EVIL}
    (seeds / "catalogue.yaml").write_text(yaml.safe_dump({"witnesses": [entry]}), encoding="utf-8")
    result = mkdocs_build(folder / "site", seeds)
    assert result.returncode == 0, result.stderr


@pytest.fixture(scope="session")
def evil_site(tmp_path_factory):
    """A site built from one witness and a catalogue full of markup, once per run (conftest.once)."""
    return once(tmp_path_factory, "evil-site", _build_evil_site) / "site"


def built_pages(site: Path) -> dict[str, str]:
    return {str(p.relative_to(site)): p.read_text(encoding="utf-8") for p in sorted(site.rglob("*.html"))}


def assert_inert(html: str, where: str) -> None:
    """No element, link or Markdown construct came out of the evil text."""
    assert "<script>alert" not in html and 'href="javascript' not in html, where
    article = html.split("<article", 1)[1].split("</article>", 1)[0] if "<article" in html else html
    assert "<strong>x</strong>" not in article and '<h1 id="h"' not in article, where
    assert 'class="footnote' not in article and 'class="c"' not in article, where


def test_markup_in_a_witness_shows_literally(evil_site):
    html = page(evil_site, "witnesses/A.md")
    shown = Text.of(html, "ed-witness-text", skip=("ed-ref", "ed-alt", "ed-nm"))
    assert shown.count(EVIL) == 3
    assert_inert(html, "witnesses/A")
    in_tables = 0
    for path in ("anshi-dialogue", "withdrawal", "liao-marshes", "rite", "crown-prince"):
        html = page(evil_site, episode_page(path))
        assert_inert(html, path)
        table = Text.of(html, "ed-parallel", skip=("ed-alt", "ed-rowno"))  # one column: the text in order
        in_tables += "".join(table.split()).count("".join(EVIL.split()))
    assert in_tables >= 1  # the passage that carries it is in an episode (over several rows), shown literally


def test_markup_in_the_catalogue_shows_literally(evil_site):
    witness = page(evil_site, "witnesses/A.md")
    assert Text.of(witness, "ed-catalogue").count(EVIL) == 3  # title, description, source
    assert Text.of(page(evil_site, "overview.md"), "ed-witness-list").count(EVIL) == 2  # title, source
    title = f"A · {EVIL}"
    assert Text.of(witness.replace("<h1>", '<h1 class="h1">'), "h1") == title  # the page title, as text
    assert f"<title>{ENV.from_string('{{ t }}').render(t=title)} - " in witness
    for path, html in built_pages(evil_site).items():
        assert_inert(html, path)  # nav, titles and search data on every page


def test_no_markdown_attribute_reaches_the_html(site, evil_site):
    for built in (site, evil_site):
        pages = built_pages(built)
        assert len(pages) > 10
        for path, html in pages.items():
            assert 'markdown="' not in html, path


def test_nav_follows_the_witnesses_built(evil_site):
    html = (evil_site / "index.html").read_text(encoding="utf-8")
    assert 'href="witnesses/A/"' in html and 'href="witnesses/B/"' not in html


def test_bad_input_fails_the_build_naming_the_file(tmp_path):
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "a.txt").write_bytes(b"\xff\xfe\x00bad")
    (seeds / "catalogue.yaml").write_text("witnesses: [\n", encoding="utf-8")
    result = mkdocs_build(tmp_path / "site", seeds)
    assert result.returncode != 0
    assert "catalogue.yaml" in result.stderr and "Traceback" not in result.stderr


class Served:
    """The hook as `mkdocs serve` drives it, in this process: each build's files, its nav and its pages' Markdown."""

    def __init__(self, monkeypatch, seeds: Path):
        monkeypatch.setenv("EDITION_SEEDS", str(seeds))

    def build(self) -> dict[str, str | bytes]:
        self.config = config = load_config(str(ROOT / "mkdocs.yml"))
        config.plugins.on_startup(command="serve", dirty=False)  # the hook module is shared by the process
        try:
            docs = Files([File(p.relative_to(ROOT / "docs").as_posix(), str(ROOT / "docs"), "/tmp/x", True)
                          for p in (ROOT / "docs").glob("*.md")])  # fmt: skip
            files = config.plugins.on_files(docs, config=config)
            return {f.src_uri: f.content_string if f.generated_by else "" for f in files}
        finally:
            config.plugins.on_startup(command="build", dirty=False)

    def markdown(self, path: str, text: str = "本文。") -> str:
        """A page's Markdown as the hook hands it on (``text``: the page's own)."""
        page = type("Page", (), {"file": type("F", (), {"src_uri": path})()})()
        return self.config.plugins.on_page_markdown(text, page=page, config=self.config, files=None)


def test_serve_shows_the_error_and_recovers(tmp_path, monkeypatch):
    """Under `mkdocs serve` bad input becomes pages naming the file; the next good save gives the edition back."""
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "a.txt").write_text("李世民下令班師。", encoding="utf-8")
    (seeds / "catalogue.yaml").write_text("witnesses: [\n", encoding="utf-8")
    serve = Served(monkeypatch, seeds)
    config = load_config(str(ROOT / "mkdocs.yml"))
    # the hook module MkDocs loaded (one per process, named by its path): no good build of an earlier test in this
    # worker may stand in for this one's (patching "hooks.edition_hook" reached another copy of the module)
    monkeypatch.setattr(config.hooks["hooks/edition_hook.py"], "_last_good", LastGoodSite())
    with pytest.raises(PluginError, match=r"catalogue\.yaml"):
        config.plugins.on_files(Files([]), config=config)

    # broken from the start: a stand-in of its own for every page the nav lists and docs/ lacks, no downloads
    broken = serve.build()
    listed = ["overview.md", "conventions.md", episode_page("anshi-dialogue"), "witnesses/A.md", "register.md"]
    assert set(listed) <= set(broken) and "edition.json" not in broken
    assert all("catalogue.yaml" in broken[p] and 'title: "' in broken[p] for p in listed)
    assert 'title: "anshi-dialogue（無法生成）"' in broken[episode_page("anshi-dialogue")]
    assert serve.config.extra["edition_downloads"] is False  # overrides/main.html links to none
    assert "catalogue.yaml" in serve.markdown("index.md") and "catalogue.yaml" in serve.markdown("method.md")
    assert serve.markdown("overview.md", broken["overview.md"]) == broken["overview.md"]  # said once

    (seeds / "catalogue.yaml").unlink()
    good, nav = serve.build(), serve.config.nav
    assert "edition.json" in good and "catalogue.yaml" not in good[episode_page("withdrawal")]
    assert serve.markdown("index.md") == "本文。"

    # broken after a good build: the last good pages and downloads, each page marked, the error on every page
    (seeds / "editorial.yaml").write_text('notes:\n  - {witness: A, at: "李世民, text: 按}\n', encoding="utf-8")
    stale = serve.build()
    assert {p: stale[p] for p in good} == good  # every page and download the nav or a link may ask for
    assert serve.config.nav == nav  # and the nav lists them as the good build did
    for path in ("index.md", "method.md", "overview.md", "conventions.md", "register.md", episode_page("withdrawal")):
        shown = serve.markdown(path)
        assert "editorial.yaml, line 2" in shown and shown.endswith("本文。"), path
        assert ("上次成功生成" in shown) == bool(good.get(path)), path  # a generated page is the last good one
    (seeds / "editorial.yaml").unlink()
    serve.build()
    assert serve.markdown("index.md") == "本文。"


def test_the_method_page_lists_every_parameter_with_its_value(site):
    """Every tuned value of the engine (edition/engine/params.py) is on the method page, with the edition's value
    and its default: a number behind the figures that a reader cannot find is a number nobody can check."""
    from dataclasses import fields

    from edition.engine.params import Params

    html = (site / "method" / "index.html").read_text(encoding="utf-8")
    assert "edition:parameters" not in html
    for f in fields(Params):
        assert re.search(rf"<code>{f.name}</code></td>\s*<td>", html), f.name  # and a value beside it


# --- reading texts, register mentions, two witnesses compared (issue 27, items 1, 4, 5) -----------------------------


def test_chinese_note_numbers():
    from edition.site.witnesses import chinese_number

    numbers = {
        1: "一",
        7: "七",
        10: "十",
        11: "十一",
        20: "二十",
        47: "四十七",
        100: "一百",
        105: "一百零五",
        110: "一百一十",
    }
    assert {k: chinese_number(k) for k in numbers} == {k: f"〔{v}〕" for k, v in numbers.items()}


def test_a_reading_text_marks_each_note_after_its_words_and_lists_it_in_reading_order():
    """B's page: the notes quoting B (a reading of A's note, an editor's note on B, a lacuna) are numbered in B's
    order, each mark right after the words it concerns (a lacuna's where B stops), paragraphs as B's lines."""
    texts = {"A": "甲乙丙。\n丁戊己。", "B": "甲丙。\n丁戊"}
    families = [{"id": "A", "base": "A", "members": ["A", "B"], "declared": True}]
    rows = [
        {
            "id": "e-1",
            "cells": {
                "A": [{"start": 0, "end": 9, "text": texts["A"]}],
                "B": [{"start": 0, "end": 6, "text": texts["B"]}],
            },
        }
    ]
    notes = [
        note(
            "n1",
            "omission",
            {"siglum": "A", "start": 1, "end": 2, "text": "乙"},
            [{"sigla": ["B"], "text": "", "spans": {"B": [1, 1]}}],
        ),
        note("n2", "editor", {"siglum": "B", "start": 4, "end": 6, "text": "丁戊"}, ntype="editor", text="按語。"),
        note(
            "n3",
            "lacuna",
            {"siglum": "A", "start": 7, "end": 9, "text": "己。"},
            [{"sigla": ["B"], "text": "", "spans": {"B": [6, 6]}}],
            ntype="lacuna",
            row=None,
            text="B 止於此，以下闕",
        ),
    ]
    lacunae = [{"siglum": "B", "family": "A", "kind": "end", "at": 6, "missing": {"siglum": "A", "start": 7, "end": 9}}]
    export = mini_export(texts, rows, notes, families=families, lacunae=lacunae)
    pages = render_site(export, texts)
    b = pages["witnesses/B.md"]

    def shown(html: str) -> str:  # the text with its marks, paragraphs kept, the row tags left out
        text = re.sub(r'<a class="ed-ref".*?</a>', "", re.search(r'<div class="ed-witness-text.*?</div>', html).group())
        return re.sub(r"<(?!/?p[ >])[^>]*>", "", text)

    assert shown(b) == '<p class="ed-para">甲〔一〕丙。</p><p class="ed-para">丁戊〔二〕〔以下闕〕〔三〕</p>'
    # anchored by the page's own numbers (k1 for 〔一〕), not the export's note ids
    assert re.findall(r'<a class="ed-nm" id="m(k\d)" href="#(k\d)"', b) == [("k1", "k1"), ("k2", "k2"), ("k3", "k3")]
    item = r'<li id="(k\d)" [^>]*><span class="ed-no"[^>]*>([^<]+)</span><a class="ed-back" href="#m(k\d)"'
    listed = re.findall(item, b)
    assert listed == [("k1", "〔一〕", "k1"), ("k2", "〔二〕", "k2"), ("k3", "〔三〕", "k3")]
    assert '<a class="ed-lacuna" href="#k3">〔以下闕〕</a>' in b
    a = pages["witnesses/A.md"]  # the family's base: its reading text, the copy's readings in its 校勘記
    assert "本頁是本系（A、B）的讀本" in a
    assert shown(a) == (
        '<p class="ed-para">甲乙〔一〕丙。</p><p class="ed-para">丁戊〔二〕己。</p>'  # n3 where B's lack begins
    )
    assert re.search(r'<li id="k1" .*?<a class="ed-row-link" href="../../episodes/e/#r1"', a)  # n1, A's 〔一〕


def test_register_mentions_link_to_their_entries_in_witness_and_episode_texts():
    texts = {"A": "太宗至安市。", "B": "前言。太宗還。"}
    rows = [
        {
            "id": "e-1",
            "cells": {
                "A": [{"start": 0, "end": 6, "text": texts["A"]}],
                "B": [{"start": 3, "end": 7, "text": "太宗還。"}],
            },
        }
    ]
    mention = {"named": True, "episode": "e", "row": "e-1"}
    register = [
        {"id": "taizong", "kind": "person", "name": "李世民", "aliases": [], "variants": [], "titles": [], "note": "",
         "mentions": [{"siglum": "A", "start": 0, "end": 2, "text": "太宗", **mention},
                      {"siglum": "B", "start": 3, "end": 5, "text": "太宗", **mention}]},
        {"id": "anshi", "kind": "place", "name": "安市", "aliases": [], "variants": [], "titles": [], "note": "",
         "mentions": [{"siglum": "A", "start": 3, "end": 5, "text": "安市", **mention},
                      {"siglum": "B", "start": 0, "end": 2, "text": "前言", **mention, "episode": None, "row": None}]},
    ]  # fmt: skip
    export = mini_export(
        texts, rows, [], register=register, unassigned={"A": [], "B": [{"start": 0, "end": 3, "text": "前言。"}]}
    )
    pages = render_site(export, texts)
    assert '<a class="ed-m" href="../../register/#taizong" title="李世民">太宗</a>' in pages["witnesses/A.md"]
    assert '<a class="ed-m" href="../../register/#anshi">安市</a>' in pages["episodes/e.md"]  # no title: its name
    # outside the episodes: the mention is an anchor, and the register labels it by the row before it, or 篇首
    assert '<a class="ed-m" href="../../register/#anshi" title="安市" id="g0">前言</a>' in pages["witnesses/B.md"]
    register_page = pages["register.md"]
    assert '<a href="../witnesses/B/#g0" class="ed-named" title="前言">篇首</a>' in register_page
    assert '<a href="#taizong">李世民</a>' in register_page and '<a href="#anshi">安市</a>' in register_page  # contents


def test_episode_pages_carry_the_collations_folding(site, edition):
    """The comparison of two witnesses folds as the collation does: the page's pairs are exactly the engine's
    Normaliser.fold_char of every letter of the page's cells that it changes; its marks, the punctuation."""
    from edition.engine.normalise import Normaliser, is_mark

    resources = load_resources(data_folders(SEEDS, ROOT))
    norm = Normaliser(resources.variants)
    export, _ = edition
    for ep in export["episodes"]:
        html = page(site, episode_page(ep["id"]))
        found = re.search(r'<table class="ed-parallel ed-text" data-fold="([^"]*)" data-marks="([^"]*)"', html)
        fold, marks = map(html_lib.unescape, found.groups())
        letters = {c for r in ep["rows"] for segs in r["cells"].values() for x in segs for c in x["text"]}
        want = {c + norm.fold_char(c) for c in letters if not is_mark(c) and norm.fold_char(c) != c}
        assert {fold[i : i + 2] for i in range(0, len(fold), 2)} == want
        assert set(marks) == {c for c in letters if is_mark(c) and not c.isspace()}


def test_an_adopted_reading_stands_in_the_reading_text_and_its_note_says_what_the_witness_reads(site, edition):
    """A verdict adopting another witness's reading (editorial.yaml: adopt) changes the reading text of the
    witness whose lemma it is: the adopted words stand there, and its 校勘記 says 「通」原作「透」，據B改 -- the
    witness's own words are on the page, in the note."""
    export, texts = edition
    adopted = [n["verdict"]["adopted"] for n in export["notes"] if (n.get("verdict") or {}).get("adopted")]
    assert adopted  # the seeds' editor's file adopts at least one reading
    for a in adopted:
        html = (site / "witnesses" / a["siglum"] / "index.html").read_text(encoding="utf-8")
        assert texts[a["siglum"]][a["start"] : a["end"]] == a["was"]
        assert f'<ins class="ed-emended" title="原作「{a["was"]}」">{a["text"]}</ins>' in html
        assert f"「{a['text']}」原作「{a['was']}」" in html
