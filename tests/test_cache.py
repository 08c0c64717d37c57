"""The site's cache under `mkdocs serve`: never stale, and an edit redoes only what it reaches."""

import json
import shutil
from pathlib import Path

from edition.engine.export import to_dict, to_json
from edition.engine.pipeline import build
from edition.engine.resources import data_folders, load_resources
from edition.site.cache import SiteCache
from tests.support import ROOT
from tests.test_export import cli_export

WITNESS = "000_f5ad1a405610c3bb.txt"


def cached_build(seeds: Path, cache: SiteCache) -> str:
    """One build as the hook makes it: resources read afresh, stage results from the cache."""
    try:
        return to_json(to_dict(build(seeds, load_resources(data_folders(seeds, ROOT)), cache)))
    finally:
        cache.end_build()


def test_a_changed_witness_is_never_served_stale_and_the_rest_is_reused(tmp_path):
    seeds = tmp_path / "seeds"
    shutil.copytree(ROOT / "seeds", seeds)
    cache = SiteCache()
    first = cached_build(seeds, cache)
    assert "特賜縑一百匹" in first

    witness = seeds / WITNESS
    witness.write_text(witness.read_text(encoding="utf-8").replace("特賜縑一百匹", "特賜縑二百匹"), encoding="utf-8")
    counted = {}

    def spy(end=cache.end_build):
        counted.update(hits=cache.hits, misses=cache.misses)
        end()

    cache.end_build = spy
    second = cached_build(seeds, cache)
    assert "特賜縑二百匹" in second and second != first
    assert second == cli_export(seeds)  # the same as a fresh process
    # the four unchanged witnesses' tokens and segments came from the cache
    assert counted["hits"] >= 8 and counted["misses"] >= 1


def test_an_edited_data_file_changes_the_next_build(tmp_path):
    """variants.tsv and episodes.yaml in the edition folder are read on every build."""
    seeds = tmp_path / "seeds"
    shutil.copytree(ROOT / "seeds", seeds)
    cache = SiteCache()
    first = cached_build(seeds, cache)
    assert '"title":"遼澤"' in first

    episodes = seeds / "episodes.yaml"
    episodes.write_text(episodes.read_text(encoding="utf-8").replace("title: 遼澤", "title: 遼澤泥淖"), "utf-8")
    second = cached_build(seeds, cache)
    assert '"title":"遼澤泥淖"' in second
    assert second == cli_export(seeds)

    # 透 and 通 differ between A and B (得以透過 / 得以通過): a substantive reading, until an editor's
    # variant pair folds them, when it is a variant form of one word (orthographic)
    assert classes_of(second, "透") == {"substantive"}
    (seeds / "variants.tsv").write_text("# the editor's own pairs\n透\t通\n", encoding="utf-8")
    third = cached_build(seeds, cache)
    assert classes_of(third, "透") == {"orthographic"}
    assert third == cli_export(seeds)


def classes_of(export: str, lemma: str) -> set[str]:
    data = json.loads(export)
    return {n["class"] for n in data["notes"] if n["lemma"] and n["lemma"]["text"] == lemma}


def test_a_family_the_catalogue_changes_is_never_served_stale(tmp_path):
    """Families, the episodes and the fact notes depend on the catalogue's family:/base:, which is not a data
    file of the resources: declaring C and D one family makes D a copy collated against C, and back."""
    seeds = tmp_path / "seeds"
    shutil.copytree(ROOT / "seeds", seeds)
    cache = SiteCache()
    first = cached_build(seeds, cache)
    catalogue = seeds / "catalogue.yaml"
    original = catalogue.read_text(encoding="utf-8")
    declared = original.replace("    siglum: C\n", "    siglum: C\n    family: cd\n    base: true\n").replace(
        "    siglum: D\n", "    siglum: D\n    family: cd\n"
    )
    assert declared != original
    catalogue.write_text(declared, encoding="utf-8")
    second = cached_build(seeds, cache)
    assert second == cli_export(seeds)
    assert [f["members"] for f in json.loads(second)["families"] if "C" in f["members"]] == [["C", "D"]]
    catalogue.write_text(original, encoding="utf-8")
    assert cached_build(seeds, cache) == first


def test_a_witness_whose_evidence_did_not_change_keeps_its_episodes(tmp_path, monkeypatch):
    """One letter of D replaced by another that no definition and no other witness uses: the profiles weigh the
    same, so only D is labelled again (``assign.labels_of``); the edition is still a fresh process's."""
    import edition.engine.assign as assign

    seeds = tmp_path / "seeds"
    shutil.copytree(ROOT / "seeds", seeds)
    cache = SiteCache()
    labelled: list[int] = []
    real = assign.label
    monkeypatch.setattr(assign, "label", lambda segs, *a: labelled.append(len(segs)) or real(segs, *a))
    cached_build(seeds, cache)
    first = len(labelled)
    others = "".join(p.read_text(encoding="utf-8") for p in seeds.iterdir() if p.name[:3] != "003")
    witness = next(seeds.glob("003_*.txt"))
    text = witness.read_text(encoding="utf-8")
    # a letter between two letters (none of them, nor the new one, anywhere else in the seeds' files)
    at = next(k for k in range(1, len(text) - 1) if all(c.isalpha() and c not in others for c in text[k - 1 : k + 2]))
    new = next(c for c in "鼈鼇鼉黿" if c not in text and c not in others)
    witness.write_text(text[:at] + new + text[at + 1 :], encoding="utf-8")
    labelled.clear()
    second = cached_build(seeds, cache)
    assert second == cli_export(seeds)
    assert 0 < len(labelled) < first


def test_what_a_witness_text_states_is_found_again_only_for_the_changed_witness(tmp_path, monkeypatch):
    """Every number and date of a witness's whole text (``said.Whole``) is kept across serve's rebuilds by the
    witness's text: a save reads again only the witness saved."""
    import edition.engine.notes as notes

    seeds = tmp_path / "seeds"
    shutil.copytree(ROOT / "seeds", seeds)
    read: list[str] = []
    real = notes.whole_text
    monkeypatch.setattr(
        notes, "whole_text", lambda tokens, calendar: read.append(tokens.siglum) or real(tokens, calendar)
    )
    cache = SiteCache()
    cached_build(seeds, cache)
    assert sorted(read) == ["A", "B", "C", "D", "E"]

    read.clear()
    witness = seeds / WITNESS
    witness.write_text(witness.read_text(encoding="utf-8").replace("特賜縑一百匹", "特賜縑二百匹"), encoding="utf-8")
    second = cached_build(seeds, cache)
    assert read == ["A"]
    assert second == cli_export(seeds)
