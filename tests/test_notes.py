"""Variant notes: every difference between the close copies A and B, and the salient ones between retellings."""

from collections import Counter

from edition.engine.notes import word_tag as tag_with
from edition.engine.resources import SURNAMES, engine_data, load_surnames
from tests.support import build_folder as build


def notes_between(edition, a, b):
    out = []
    for ep in edition.episodes:
        for n in ep.notes:
            if n.lemma.siglum == a:
                for r in n.readings:
                    if b in r.sigla:
                        out.append((n, r))
    return out


def test_close_copies_every_difference_located(seeds_edition):
    found = Counter()
    for note, reading in notes_between(seeds_edition, "A", "B"):
        if reading.spans:
            found[(note.cls, note.lemma_text, reading.text)] += 1
    # known differences between 000 and 001 inside the episodes, read off the two files
    assert found[("orthographic", "巖", "岩")] >= 2
    assert found[("orthographic", "週", "周")] >= 1
    assert found[("orthographic", "儘", "盡")] >= 1
    assert found[("orthographic", "佈", "布")] == 1
    assert found[("orthographic", "迴", "回")] == 1
    assert found[("punctuation", "“", "「")] >= 5
    assert found[("substantive", "透", "通")] == 1  # 得以透過 / 得以通過


def test_every_character_difference_of_a_close_pair_is_noted(tmp_path):
    (tmp_path / "a.txt").write_text(
        "大軍渡過遼水之後，又遇到那片泥淖。長孫無忌號令數萬人打草，遇到水深處將車輛填入水中。", encoding="utf-8"
    )
    (tmp_path / "b.txt").write_text(
        "大軍渡過遼水之后，又遇到那片泥淖。長孫無忌號令數千人打草，遇到水深處將車輛填入水中", encoding="utf-8"
    )
    ed = build(tmp_path)
    notes = [(n.cls, n.lemma_text, n.readings[0].text) for ep in ed.episodes for n in ep.notes if n.lemma.siglum == "A"]
    assert ("orthographic", "後", "后") in notes
    assert ("substantive", "萬", "千") in notes
    assert ("punctuation", "。", "") in notes


def test_retellings_get_tagged_names_and_numbers(seeds_edition):
    tagged = [
        (n.cls, n.tags, n.lemma_text, r.text) for ep in seeds_edition.episodes for n in ep.notes for r in n.readings
    ]
    assert any("name" in tags and "杨万春" in rd for _, tags, _, rd in tagged)
    assert any("number" in tags and lemma == "一百匹" and rd == "百匹" for _, tags, lemma, rd in tagged)


def test_no_character_soup_between_retellings(seeds_edition):
    """Between loose retellings, notes name words: no reading longer than a short phrase."""
    for ep in seeds_edition.episodes:
        for n in ep.notes:
            for r in n.readings:
                close = {n.lemma.siglum, *r.sigla} <= {"A", "B"}
                if r.spans and not close and n.cls == "substantive":
                    assert len(r.text) <= 12, r.text


def word_tag(word, flag):
    return tag_with(word, flag, load_surnames(engine_data(SURNAMES)))


def test_word_tags():
    assert word_tag("杨万春", "nr") == "name"
    assert word_tag("托大", "nr") is None  # jieba's guess, but no surname starts it
    assert word_tag("九月", "t") == word_tag("十八日", "m") == "date"
    assert word_tag("四万", "m") == word_tag("二万人", "nrt") == word_tag("一百匹", "m") == "number"
    assert word_tag("豪情万丈", "i") is None  # an idiom, not a count
    assert word_tag("一番", "m") is None  # a lone 一 is no count
    assert word_tag("渤错", "ns") == "place"
