"""The built site: `mkdocs build --strict` on the seeds and on made-up witnesses, checked in the HTML."""

import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import opencc
import pytest
import yaml
from mkdocs.config import load_config
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import Files

from edition.engine.convert import to_simplified, to_traditional
from edition.engine.export import to_dict
from edition.engine.pipeline import build
from edition.engine.resources import data_folders, load_resources
from edition.site import script_forms
from edition.site.cache import SiteCache
from edition.site.render import ENV, MACROS, TEMPLATES, episode_page, render_error, render_site, witness_page

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "seeds"
VOID = {"br", "input", "img", "hr", "meta", "link", "wbr", "source"}
# Witness text that Markdown or HTML would interpret if the site did not escape it.
EVIL = "<script>alert(1)</script> &amp; **x** # h [x](javascript:alert(1)) | {: .c} --8<-- [^1]"

pytestmark = pytest.mark.slow


def mkdocs_build(site: Path, seeds: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    if seeds is not None:
        env["EDITION_SEEDS"] = str(seeds)
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
    return (site / path.removesuffix(".md") / "index.html").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def edition(seeds_export):
    return seeds_export


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    result = mkdocs_build(out)
    assert result.returncode == 0, result.stderr
    assert "WARNING" not in result.stderr
    return out


def test_build_logs_stage_times(site, tmp_path):
    result = mkdocs_build(tmp_path / "again")
    for stage in ("load", "segment", "episodes", "rows", "notes", "render"):
        assert re.search(rf"INFO\s+-\s+edition: {stage}\s+\d+\.\d\d s", result.stderr), stage


def test_episode_pages_have_their_titles_in_narrative_order(site, edition):
    export, _ = edition
    html = (site / "index.html").read_text(encoding="utf-8")
    nav = [re.search(rf'href="{episode_page(e["id"]).removesuffix(".md")}/"', html) for e in export["episodes"]]
    assert all(nav) and [m.start() for m in nav] == sorted(m.start() for m in nav)
    for ep in export["episodes"]:
        assert f"<h1>{ep['title']}</h1>" in page(site, episode_page(ep["id"]))
    assert [e["title"] for e in export["episodes"]] == ["安市對話", "班師", "遼澤", "祭奠", "太子迎駕"]


def test_every_witness_with_text_has_a_column(site, edition):
    export, _ = edition
    for ep in export["episodes"]:
        html = page(site, episode_page(ep["id"]))
        head = html.split("<thead>", 1)[1].split("</thead>", 1)[0] if "<thead>" in html else ""
        columns = re.findall(r'<th data-w="([^"]+)"', head)
        carrying = [w["siglum"] for w in export["witnesses"] if any(r["cells"].get(w["siglum"]) for r in ep["rows"])]
        assert sorted(columns) == sorted(carrying)
        assert columns[:1] == ([ep["base"]] if carrying else [])


def test_notes_and_marks_link_to_existing_anchors(site, edition):
    export, _ = edition
    total = 0
    for ep in export["episodes"]:
        html = page(site, episode_page(ep["id"]))
        ids = set(re.findall(r'id="([^"]+)"', html))
        notes = re.findall(r'<li id="(n\d+)" class="ed-note[^"]*"[^>]*><a class="ed-back" href="#(r\d+)"', html)
        assert len(notes) == len(ep["notes"])
        assert re.findall(r'<tr id="(r\d+)"', html) == [f"r{i}" for i in range(1, len(ep["rows"]) + 1)]
        assert all(row in ids for _, row in notes)
        marks = set(re.findall(r'<mark class="v [^"]*" data-note="(n\d+)"', html))
        assert marks <= {n for n, _ in notes}
        assert len(marks) == len(notes)  # every note marks something in the table
        total += len(notes)
    assert total > 0


def test_witness_pages_hold_every_character(site, edition):
    export, texts = edition
    for i, w in enumerate(export["witnesses"]):
        html = page(site, witness_page(w["siglum"], i))
        shown = Text.of(html, "ed-witness-text", skip=("ed-ref", "ed-alt"))
        assert "".join(shown.split()) == "".join(texts[w["siglum"]].split())
        refs = re.findall(r'class="ed-ref" href="../../episodes/([^/]+)/#r(\d+)"', html)
        assert refs and all(episode_page(e) in {episode_page(x["id"]) for x in export["episodes"]} for e, _ in refs)


def test_cross_script_forms_are_indexed_for_search(site, edition):
    export, texts = edition
    docs = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    simplified = [i for i, w in enumerate(export["witnesses"]) if "辽泽" in texts[w["siglum"]]]
    assert simplified
    for i in simplified:
        url = witness_page(export["witnesses"][i]["siglum"], i).removesuffix(".md") + "/"
        found = [d for d in docs if d["location"].startswith(url) and "遼澤" in d["text"].replace("\u200b", "")]
        assert found, url


def test_export_is_published(site, edition):
    assert json.loads((site / "edition.json").read_text(encoding="utf-8")) == edition[0]
    assert 'href="../edition.json"' in (site / "method" / "index.html").read_text(encoding="utf-8")


def test_rendering_is_deterministic(edition):
    export, texts = edition
    assert render_site(export, texts) == render_site(export, texts)


RENDER_CHILD = """
import hashlib, json, sys
from edition.site.render import render_site
data = json.loads(open(sys.argv[1], encoding="utf-8").read())
pages = render_site(data["export"], data["texts"])
print(json.dumps({path: hashlib.sha256(page.encode()).hexdigest() for path, page in pages.items()}))
"""


def test_rendering_is_byte_identical_across_fresh_processes(edition, tmp_path):
    """Two new interpreters with different hash seeds (set and dict orders) render the same bytes."""
    export, texts = edition
    data = tmp_path / "export.json"
    data.write_text(json.dumps({"export": export, "texts": texts}, ensure_ascii=False), encoding="utf-8")
    runs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        cmd = [sys.executable, "-c", RENDER_CHILD, str(data)]
        done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=True, timeout=120)
        runs.append(json.loads(done.stdout))
    here = {path: hashlib.sha256(page.encode()).hexdigest() for path, page in render_site(export, texts).items()}
    assert runs[0] == runs[1] == here
    assert len(here) == 1 + len(export["episodes"]) + len(export["witnesses"])


# --- templates and escaping -------------------------------------------------------------------------------------


def test_templates_autoescape_every_variable():
    assert ENV.from_string("<p title='{{ x }}'>{{ x }}</p>").render(x="<b>'&\"") == (
        "<p title='&lt;b&gt;&#39;&amp;&#34;'>&lt;b&gt;&#39;&amp;&#34;</p>"
    )
    assert ENV.autoescape is True  # for every template, whatever its name
    piece = {"text": "<b>x</b>", "t": "<i>", "s": '"', "br": False, "note": None, "notes": "", "classes": ""}
    expected = '<span class="t" data-t="&lt;i&gt;" data-s="&#34;">&lt;b&gt;x&lt;/b&gt;</span>'
    assert str(MACROS.pieces([{**piece, "gap": False}])) == expected
    page = render_error("<script>alert(1)</script> **x**", ["overview.md"])["overview.md"]
    assert "<code>&lt;script&gt;alert(1)&lt;/script&gt; **x**</code>" in page


def test_no_template_turns_escaping_off():
    """Nothing marks data as safe: no |safe, no autoescape false, no Markup() of data in the site code."""
    for path in TEMPLATES.glob("*.jinja"):
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"\|\s*safe\b|autoescape\s+false|\bMarkup\b", source), path.name
    code = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "edition" / "site").glob("*.py"))
    assert not re.search(r"\bescape\(|\bMarkup\(|markupsafe|from html import|import html\b", code)


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
    i, w = next((i, w) for i, w in enumerate(export["witnesses"]) if w["siglum"] == "B")
    absent = [ep["id"] for ep in export["episodes"] if "B" not in carriers(ep)]
    assert absent  # B is fragmentary
    path = seeds / w["file"]
    text = path.read_text(encoding="utf-8")
    assert text.count("特賜縑一百匹") == 1  # in 安市對話
    path.write_text(text.replace("特賜縑一百匹", "特賜縑二百匹"), encoding="utf-8")

    export2, texts2, second = hook_build(seeds, cache)
    hits = dict(cache.pages)
    cache.end_build()
    assert [ep["id"] for ep in export2["episodes"] if "B" not in carriers(ep)] == absent
    assert all(hits[episode_page(e)] for e in absent), hits  # taken from the cache
    assert not hits[witness_page("B", i)] and "特賜縑二百匹" in second[witness_page("B", i)]
    assert not all(hits[episode_page(ep["id"])] for ep in export2["episodes"])  # B's episodes re-rendered
    assert second == render_site(export2, texts2)  # the same as a cold render
    assert second != first


def test_overlapping_notes_split_into_pieces():
    text = "甲乙丙丁戊"
    export = {
        "witnesses": [
            {
                "siglum": "A",
                "file": "a.txt",
                "title": "a",
                "description": "",
                "source": "",
                "script": "Hant",
                "length": 5,
            }
        ],
        "episodes": [
            {
                "id": "e",
                "title": "E",
                "description": "",
                "base": "A",
                "rows": [{"id": "e-1", "cells": {"A": [{"start": 0, "end": 5, "text": text}]}}],
                "notes": [
                    {
                        "row": "e-1",
                        "class": "substantive",
                        "tags": [],
                        "lemma": {"siglum": "A", "start": 1, "end": 4, "text": "乙丙丁"},
                        "readings": [],
                    },
                    {
                        "row": "e-1",
                        "class": "punctuation",
                        "tags": [],
                        "lemma": {"siglum": "A", "start": 2, "end": 3, "text": "丙"},
                        "readings": [],
                    },
                    {
                        "row": "e-1",
                        "class": "omission",
                        "tags": [],
                        "lemma": {"siglum": "A", "start": 5, "end": 5, "text": ""},
                        "readings": [],
                    },
                ],
            }
        ],
        "unassigned": {"A": []},
    }
    html = render_site(export, {"A": text})["episodes/e.md"]
    marks = re.findall(r'<mark class="([^"]+)" data-note="(n\d)"[^>]*><a href="#\2"[^>]*>([^<]*)</a></mark>', html)
    assert marks == [
        ("v v-substantive", "n1", "乙"),
        ("v v-punctuation v-substantive", "n2", "丙"),  # innermost note gets the link, both classes
        ("v v-substantive", "n1", "丁"),
        ("v v-omission v-gap", "n3", "‸"),
    ]
    assert "甲" in html and "戊" in html


EVIL_IN_STORY = "朕征戰一生"  # the evil text goes into this sentence (安市對話) too, so an episode's table shows it


@pytest.fixture(scope="module")
def evil_site(tmp_path_factory):
    seeds = tmp_path_factory.mktemp("seeds")
    real = (SEEDS / "000_f5ad1a405610c3bb.txt").read_text(encoding="utf-8")[:1500]
    assert EVIL_IN_STORY in real
    real = real.replace(EVIL_IN_STORY, EVIL_IN_STORY[:3] + EVIL + EVIL_IN_STORY[3:], 1)
    (seeds / "000_evil.txt").write_text(EVIL + "\n" + real + "\n" + EVIL + "\n", encoding="utf-8")
    entry = {"file": "000_evil.txt", "siglum": "A", "title": EVIL, "description": EVIL, "source": EVIL}
    (seeds / "catalogue.yaml").write_text(yaml.safe_dump({"witnesses": [entry]}), encoding="utf-8")
    out = tmp_path_factory.mktemp("evil-site")
    result = mkdocs_build(out, seeds)
    assert result.returncode == 0, result.stderr
    return out


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
    shown = Text.of(html, "ed-witness-text", skip=("ed-ref", "ed-alt"))
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


def test_serve_shows_the_error_and_recovers(tmp_path, monkeypatch):
    """Under `mkdocs serve` bad input becomes pages naming the file; the next good save gives the edition back."""
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "a.txt").write_text("李世民下令班師。", encoding="utf-8")
    (seeds / "catalogue.yaml").write_text("witnesses: [\n", encoding="utf-8")
    monkeypatch.setenv("EDITION_SEEDS", str(seeds))

    def files(command: str) -> dict[str, str]:
        config = load_config(str(ROOT / "mkdocs.yml"))
        config.plugins.on_startup(command=command, dirty=False)  # the hook module is shared by the process
        try:
            return {f.src_uri: f.content_string for f in config.plugins.on_files(Files([]), config=config)}
        finally:
            config.plugins.on_startup(command="build", dirty=False)

    with pytest.raises(PluginError, match=r"catalogue\.yaml"):
        files("build")
    broken = files("serve")
    assert episode_page("anshi-dialogue") in broken and "edition.json" not in broken
    assert all("catalogue.yaml" in content for content in broken.values())
    (seeds / "catalogue.yaml").unlink()
    fixed = files("serve")
    assert "edition.json" in fixed and "catalogue.yaml" not in fixed[episode_page("withdrawal")]
