"""Episode assignment against the gold annotation of the seeds (tests/gold/episodes.yaml)."""

import pytest

from tests.gold import agreement, gold_files, labels_by_char


def test_gold_covers_every_seed(seeds_edition):
    assert gold_files() == [w.meta.file for w in seeds_edition.witnesses]


def test_agreement_with_gold(seeds_edition):
    per_witness, per_episode = agreement(seeds_edition)
    assert min(per_witness.values()) >= 0.75
    assert sum(per_witness.values()) / len(per_witness) >= 0.85
    # every episode a witness tells is found in it, at least in good part
    assert min(recall for recall, _ in per_episode.values()) >= 0.45


@pytest.mark.parametrize(
    "siglum, words",
    [
        ("A", "蓋蘇文設盛宴招待安市城主"),  # the Anshi lord in Pyongyang: says 安市城主 again and again
        ("A", "易州司馬陳元壽進獻碧綠的蔬菜"),  # the vegetables of Yizhou
        ("A", "可讓大理卿孫伏伽帶人巡查四方"),  # the purge
        ("C", "江夏王李道宗督促将士在安市东南角堆筑土山"),  # the siege
        ("D", "高延寿、高惠真垂头丧气"),  # the surrender
        ("E", "亲征之役犹如一幕大戏"),  # commentary at the end (which says 班师 too)
        ("E", "一是李世民在严寒之前果断地下令班师"),
    ],
)
def test_other_events_are_in_no_episode(seeds_edition, siglum, words):
    w = next(x for x in seeds_edition.witnesses if x.siglum == siglum)
    at = w.text.index(words)
    assert labels_by_char(seeds_edition, siglum, len(w.text))[at] is None


def test_an_episode_can_come_in_pieces(seeds_edition):
    """In A, 班師 is decided, then the dialogue at the wall happens, then the army leaves."""
    labels = [e for e in seeds_edition.assignment["A"] if e]
    runs = [e for i, e in enumerate(labels) if i == 0 or labels[i - 1] != e]
    assert runs.count("withdrawal") >= 2
    assert runs.index("withdrawal") < runs.index("anshi-dialogue")


def test_missing_episodes_stay_missing(seeds_edition):
    """C ends in the marshes: no rite, no crown prince; B stops mid-sentence before the rite."""
    assert not {"rite", "crown-prince"} & set(seeds_edition.assignment["C"])
    assert "rite" not in set(seeds_edition.assignment["B"])
