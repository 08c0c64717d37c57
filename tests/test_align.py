"""Row alignment: the gold rows of the seeds (tests/gold/rows.yaml) and order within witnesses."""

from itertools import combinations
from pathlib import Path

import yaml

from edition.engine.align import align
from edition.engine.model import Segment
from edition.engine.normalise import Normaliser
from edition.engine.params import Params

GOLD_ROWS = Path(__file__).parent / "gold" / "rows.yaml"


def row_index(edition):
    where = {}
    for ep in edition.episodes:
        for row in ep.rows:
            for siglum, segs in row.cells.items():
                for seg in segs:
                    where[(siglum, seg.index)] = (ep.episode.id, row.id)
    return where


def gold_segment(edition, words):
    """The segment holding ``words`` (in the one witness that has them, leaving out copies)."""
    hits = [(w, w.text.index(words)) for w in edition.witnesses if words in w.text]
    w, at = hits[0]
    return next(s for s in edition.segments[w.siglum] if s.start <= at < s.end)


def test_gold_rows(seeds_edition):
    where = row_index(seeds_edition)
    same = total = 0
    for group in yaml.safe_load(GOLD_ROWS.read_text(encoding="utf-8")):
        segs = [gold_segment(seeds_edition, words) for words in group]
        for a, b in combinations(segs, 2):
            ra, rb = where.get((a.siglum, a.index)), where.get((b.siglum, b.index))
            if ra and rb and ra[0] == rb[0]:  # both assigned to one episode
                total += 1
                same += ra == rb
    print(f"{same} of {total} gold pairs share a row")
    assert total >= 30
    assert same / total >= 0.6


def test_each_witness_keeps_its_order(seeds_edition):
    for ep in seeds_edition.episodes:
        for w in seeds_edition.witnesses:
            starts = [s.start for row in ep.rows for s in row.cells.get(w.siglum, ())]
            assert starts == sorted(starts)


def seg(siglum, index, text):
    return Segment(siglum, index, index * 100, index * 100 + len(text), text, Normaliser({}).fold_text(text), 0)


def test_parallel_sentences_share_rows_and_strays_get_their_own():
    a = [
        seg("A", 0, "大軍渡過遼水。"),
        seg("A", 1, "特賜縑一百匹以示獎賞。"),
        seg("A", 2, "李世勣、道宗將步騎四萬殿後。"),
    ]
    b = [
        seg("B", 0, "英雄惜英雄。"),
        seg("B", 1, "赐给他绸缎一百匹。"),
        seg("B", 2, "李世勣和李道宗领着四万步骑殿后。"),
    ]
    rows = align("x", ["A", "B"], {"A": a, "B": b}, Params().match)
    cells = [{s: [x.index for x in segs] for s, segs in r.cells.items()} for r in rows]
    assert {"A": [1], "B": [1]} in cells
    assert {"A": [2], "B": [2]} in cells
    assert {"B": [0]} in cells  # no counterpart: a row of its own
    assert [r.id for r in rows] == [f"x-{i}" for i in range(1, len(rows) + 1)]
