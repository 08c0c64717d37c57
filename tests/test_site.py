"""The built site: `mkdocs build --strict` on the seeds and on made-up witnesses, checked in the HTML."""

import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from mkdocs.config import load_config
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import Files

from edition.site.render import episode_page, render_site, witness_page

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


@pytest.fixture(scope="module")
def evil_site(tmp_path_factory):
    seeds = tmp_path_factory.mktemp("seeds")
    real = (SEEDS / "000_f5ad1a405610c3bb.txt").read_text(encoding="utf-8")
    (seeds / "000_evil.txt").write_text(EVIL + "\n" + real[:1500] + "\n" + EVIL + "\n", encoding="utf-8")
    out = tmp_path_factory.mktemp("evil-site")
    result = mkdocs_build(out, seeds)
    assert result.returncode == 0, result.stderr
    return out


def test_markup_in_a_witness_shows_literally(evil_site):
    html = page(evil_site, "witnesses/A.md")
    shown = Text.of(html, "ed-witness-text", skip=("ed-ref", "ed-alt"))
    assert shown.count(EVIL) == 2
    article = html.split("<article", 1)[1].split("</article>", 1)[0]
    assert "<script>alert" not in article and 'href="javascript' not in article
    assert "<strong>x</strong>" not in article and '<h1 id="h"' not in article and 'class="footnote' not in article
    for ep in ("anshi-dialogue", "withdrawal"):
        assert "<script>alert" not in page(evil_site, episode_page(ep))


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
