"""Segmentation on real seed lines and on made-up layouts."""

from edition.engine.model import Witness, WitnessMeta
from edition.engine.normalise import Normaliser
from edition.engine.params import Params
from edition.engine.segment import segment

HARD_LEN = Params().hard_len


def segs(text):
    tokens = Normaliser({}).tokenise(Witness(WitnessMeta("x.txt", "A", "x"), text, "Hans"))
    out = segment(tokens, Params())
    assert all(tokens.n[s.lo : s.hi] == s.folded for s in out)
    return [s.text for s in out]


def test_quotes_stay_with_their_sentence():
    assert segs("他召來眾將，說道：“遼東早寒。我們必須立刻班師。”說完，他躬身相謝。") == [
        "他召來眾將，說道：“遼東早寒。",
        "我們必須立刻班師。”",
        "說完，他躬身相謝。",
    ]
    assert segs("“你怎么如此消瘦？”“我偷偷摸摸走小道。”") == ["“你怎么如此消瘦？”", "“我偷偷摸摸走小道。”"]


def test_ellipsis_line_dialogue_lines_and_half_width():
    assert segs("凯旋仪式。\n。。。。。。\n亲征之役犹如一幕大戏。") == [
        "凯旋仪式。",
        "。。。。。。",
        "亲征之役犹如一幕大戏。",
    ]
    assert segs('"辽水之险，尽被国师建筑的石桥所破。"\n“我有国师,幸甚。”') == [
        '"辽水之险，尽被国师建筑的石桥所破。"',
        "“我有国师,幸甚。”",
    ]


def test_classical_and_unpunctuated_text():
    classical = "上以遼左早寒草枯水凍士馬難久留且糧食將盡敕班師。先拔遼蓋二州戶口渡遼。"
    assert segs(classical) == ["上以遼左早寒草枯水凍士馬難久留且糧食將盡敕班師。", "先拔遼蓋二州戶口渡遼。"]
    bare = "班" * (HARD_LEN * 2 + 5)
    pieces = segs(bare)
    assert "".join(pieces) == bare and max(map(len, pieces)) <= HARD_LEN


def test_long_sentences_are_cut_at_clauses_and_nothing_is_lost(seeds_edition):
    for w in seeds_edition.witnesses:
        segments = seeds_edition.segments[w.siglum]
        assert all(s.text == w.text[s.start : s.end] for s in segments)
        covered = "".join(s.text for s in segments)
        assert covered == "".join(w.text.split())  # every non-space character, in order, once
        assert max(len(s.text) for s in segments) <= HARD_LEN
