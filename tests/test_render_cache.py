"""The render under `mkdocs serve`: pages assembled from cached pieces are exactly the pages a cold render makes,
and an edit renders again only the pieces it reaches."""

import shutil
from collections import Counter
from pathlib import Path

import pytest

from edition.engine.export import to_dict
from edition.engine.pipeline import build
from edition.engine.resources import data_folders, load_resources
from edition.site.cache import SiteCache
from edition.site.render import render_site
from tests.support import ROOT
from tests.synth import generate

WITNESS = "000_f5ad1a405610c3bb.txt"  # A


class CountingCache(SiteCache):
    """A site cache that counts, per kind of fragment or page, what it had to compute in the current build."""

    def __init__(self) -> None:
        super().__init__()
        self.computed: Counter = Counter()

    def get(self, key, compute):
        def counted():
            self.computed[key[1] if key[0] in ("site-fragment", "site-page") else key[0]] += 1
            return compute()

        return super().get(key, counted)

    def end_build(self) -> None:
        super().end_build()
        self.computed = Counter()


def render(folder: Path, cache: SiteCache | None = None) -> dict[str, str]:
    """The pages of ``folder`` as the hook renders them (the editor's file read, as the hook reads it)."""
    resources = load_resources(data_folders(folder, ROOT))
    edition = build(folder, resources)
    texts = {w.siglum: w.text for w in edition.witnesses}
    return render_site(to_dict(edition), texts, cache, resources.variants)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8-sig")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def rebuilt(folder: Path, change) -> tuple[dict, dict, dict, Counter]:
    """The pages of a first build with a fresh cache; after ``change(folder)``, the pages of the rebuild with that
    cache and of a cold render; and what the rebuild had to compute."""
    cache = CountingCache()
    first = render(folder, cache)
    assert first == render(folder)  # a fresh cache renders what no cache renders
    cache.end_build()
    change(folder)
    warm = render(folder, cache)
    computed = cache.computed
    cache.end_build()
    return first, warm, render(folder), computed


@pytest.fixture
def seeds(tmp_path) -> Path:
    folder = tmp_path / "seeds"
    shutil.copytree(ROOT / "seeds", folder)
    assert (folder / "editorial.yaml").exists()
    return folder


def test_a_rebuild_after_one_character_is_the_cold_render_and_renders_few_paragraphs(seeds):
    first, warm, cold, computed = rebuilt(seeds, lambda f: edit(f / WITNESS, "特賜縑一百匹", "特賜縑二百匹"))
    assert warm == cold
    changed = [p for p in cold if cold[p] != first[p]]
    assert "witnesses/A.md" in changed
    assert "二百匹" in cold["witnesses/A.md"] and "二百匹" not in first["witnesses/A.md"]
    paragraphs = first["witnesses/A.md"].count('<p class="ed-para">')
    assert 0 < computed["paragraph"] < paragraphs / 4  # only the paragraphs the edit reaches


def test_renumbered_notes_and_marks_are_filled_in_afresh(tmp_path):
    """A note added early in a witness renumbers every later note and mark on the pages that list them: the cached
    pieces are filled with the new ids and numbers (a stale piece fails the comparison with the cold render)."""
    folder = tmp_path / "synth"
    generate(folder, 3, 3000)

    def add_a_variant(f: Path) -> None:
        path = sorted(f.glob("*.txt"))[-1]
        text = path.read_text(encoding="utf-8")
        at = text.find("，") + 1
        path.write_text(text[:at] + "又" + text[at:], encoding="utf-8")  # one character more: a new note, offsets move

    first, warm, cold, computed = rebuilt(folder, add_a_variant)
    assert warm == cold
    changed = [p for p in cold if cold[p] != first.get(p)]
    assert sum(p.startswith("witnesses/") for p in changed) >= 2  # the other witnesses' notes renumbered too
    assert computed["note"] < sum(page.count('class="ed-note ') for page in cold.values()) / 4


def test_a_changed_note_shows_its_new_text(seeds):
    """The edit changes the reading a fact note quotes: the episode's apparatus and the witness's 校勘記 show the new
    reading (a note kept from the first build would show the old one)."""
    first, warm, cold, _ = rebuilt(seeds, lambda f: edit(f / WITNESS, "特賜縑一百匹", "特賜縑五十匹"))
    assert warm == cold

    def apparatus(pages: dict[str, str], path: str) -> str:
        return pages[path].split('<h2 id="notes">', 1)[1]

    for path in ("episodes/anshi-dialogue.md", "witnesses/A.md"):
        assert "A、B 作縑一百匹" in apparatus(first, path)
        assert "縑五十匹" in apparatus(warm, path) and "A、B 作縑一百匹" not in apparatus(warm, path)
