"""Segmentation: clauses with the strength of the break before them, whatever the layout."""

from edition.engine.model import EpisodeDef, Witness, WitnessMeta
from edition.engine.normalise import Normaliser
from edition.engine.params import Params
from edition.engine.segment import CLAUSE, PARAGRAPH, SCENE, SENTENCE, definition_keys, paragraphs, segment

NORM = Normaliser({})


def cut(*texts, params=None, definitions=None):
    """The segments of each text, cut together (a bare run may be cut where another text breaks, or where the
    editor's ``definitions`` do: ``segment.definition_keys``)."""
    tokens = {
        chr(65 + i): NORM.tokenise(Witness(WitnessMeta(f"{i}.txt", chr(65 + i), "x"), t, "Hant"))
        for i, t in enumerate(texts)
    }
    out = segment(tokens, params or Params(), definitions)
    for siglum, segs in out.items():
        t = tokens[siglum]
        assert all(t.text[s.start : s.end] == s.text and t.n[s.lo : s.hi] == s.folded for s in segs)
        assert "".join(s.text for s in segs).replace("\n", "") == "".join(t.text.split())  # nothing lost
    return [out[chr(65 + i)] for i in range(len(texts))]


def texts(segs):
    return [s.text for s in segs]


def test_quotes_stay_with_their_sentence_and_clauses_are_cut_at_commas():
    (segs,) = cut("他召來眾將，說道：“遼東早寒。我們必須立刻班師。”說完，他躬身相謝。")
    assert texts(segs) == ["他召來眾將，", "說道：", "“遼東早寒。", "我們必須立刻班師。”", "說完，", "他躬身相謝。"]
    assert [s.strength for s in segs] == [PARAGRAPH, CLAUSE, CLAUSE, SENTENCE, SENTENCE, CLAUSE]
    # no episode begins between 說道： and the words said, nor inside them
    assert [s.quoted for s in segs] == [False, False, True, True, False, False]
    assert [s.sentence for s in segs] == [0, 0, 0, 1, 2, 2]


def test_a_paragraph_that_opens_with_a_new_time_is_a_scene_break():
    (segs,) = cut("李世民不再說話，轉身登上輅車。\n第二日，依舊是一個晴天。\n李世民令李世殿後。")
    starts = {s.text: s.strength for s in segs}
    assert starts["第二日，"] == SCENE and starts["李世民令李世殿後。"] == PARAGRAPH


def test_a_sentence_saying_time_has_passed_is_a_scene_break():
    """Not only a paragraph's dates: 日子一天天地過去 or 轉眼 at a sentence's head move the story on."""
    (segs,) = cut("雙方又在城牆內外相持爭奪。日子一天天地過去，遼東早寒。轉眼已到九月，北風颳過。")
    starts = {s.text: s.strength for s in segs}
    assert starts["日子一天天地過去，"] == SCENE and starts["轉眼已到九月，"] == SCENE
    assert starts["遼東早寒。"] == CLAUSE


def test_hard_wrapped_unpunctuated_lines_run_on():
    lines = [
        "上以遼左早寒草枯水凍士馬難久留",
        "且糧食將盡癸未敕班師先拔遼蓋二",
        "州戶口渡遼乃耀兵於安市城下而旋",
        "城中皆屏跡不出",
    ]
    wrapped = "\n".join(lines) + "\n"
    assert len(paragraphs(wrapped, Params())) == 1  # four printed lines, one paragraph
    (segs,) = cut(wrapped)
    # cut before the cyclical day 癸未, never inside 蓋二州 where the line breaks
    assert any(s.text.startswith("癸未") for s in segs)
    assert all(not s.text.startswith("州戶口") for s in segs)


def test_a_flush_line_among_indented_ones_opens_a_paragraph():
    """A hanging indent: each entry's first line flush, the lines it runs on to indented (as 四庫 texts are set)."""
    hanging = (
        "太宗破髙麗於安市城東南斬首二萬餘級降者三萬\n"
        "\u3000餘人俘獲牛馬十萬餘疋因名所幸山為駐蹕山許\n"
        "\u3000敬宗為文刻石紀功焉中書舍人敬播曰聖人與天\n"
        "魏王泰有寵於太宗所給月料逾於太子褚遂良諫曰\n"
        "\u3000聖人制禮尊嫡卑庶故立嫡以長謂之儲君其所承\n"
        "\u3000也重矣俾用物不計與王者共之庶子雖賢不是正\n"
    )
    found = [hanging[s:e].split("\n")[0] for s, e in paragraphs(hanging, Params())]
    assert found == ["太宗破髙麗於安市城東南斬首二萬餘級降者三萬", "魏王泰有寵於太宗所給月料逾於太子褚遂良諫曰"]


def test_punctuated_lines_are_paragraphs():
    assert len(paragraphs("班師。\n片刻後，梁修元登上城頭。\n又賜絹百匹。\n", Params())) == 3


def test_a_bare_run_is_cut_where_another_witness_breaks():
    bare = "城主登城拜辭上嘉其固守賜縑百匹以勵事君命李世勣江夏王道宗將步騎四萬為殿"
    marked = "城主登城拜辭，上嘉其固守，賜縑百匹，以勵事君。命李世勣、江夏王道宗將步騎四萬為殿。"
    segs, _ = cut(bare, marked)
    assert texts(segs) == ["城主登城拜辭", "上嘉其固守", "賜縑百匹", "以勵事君", "命李世勣江夏王道宗將步騎四萬為殿"]
    assert segs[4].strength == SENTENCE and segs[1].strength == CLAUSE


def test_a_bare_run_is_cut_where_the_editors_example_breaks_but_only_into_clauses():
    """The same run alone, and the episode's example in the editor's file, punctuated: cut inside where the example
    breaks (3 letters on each side), as clauses of one sentence -- not before its first words, not after its last."""
    example = EpisodeDef("anshi-dialogue", "安市對話", 1, examples=("城主登城拜辭，上嘉其固守，賜縑百匹，以勵事君。",))
    keys = definition_keys([example], NORM, Params())
    assert set(keys.values()) == {CLAUSE} and len(keys) == 3
    bare = "城主登城拜辭上嘉其固守賜縑百匹以勵事君命李世勣江夏王道宗將步騎四萬為殿"
    (segs,) = cut(bare, definitions=keys)
    assert texts(segs) == ["城主登城拜辭", "上嘉其固守", "賜縑百匹", "以勵事君命李世勣江夏王道宗將步騎四萬為殿"]
    assert {s.strength for s in segs[1:]} == {CLAUSE} and len({s.sentence for s in segs}) == 1


def test_a_bare_run_no_other_witness_shares_is_cut_where_speech_and_sentences_open():
    """An unpunctuated account of its own (no other witness breaks between its words): a speech opens after
    曰, a sentence at 於是 and at the days a story counts (次日) -- in the classical and the modern manner."""
    bare = (
        "高延壽高惠真請於上曰奴既委身大國不敢不獻其誠欲天子早成大功奴得與妻子相見於是上召群臣議之"
        "眾皆以為安市城堅兵勇未易猝拔次日大軍班師回朝李世民令李勣與李道宗率步騎四萬殿後緩緩而退"
    )
    (segs,) = cut(bare)
    heads = {s.text[:4]: s.strength for s in segs}
    assert heads["奴既委身"] == CLAUSE and heads["於是上召"] == SENTENCE and heads["次日大軍"] >= SENTENCE
    assert not any(s.text.startswith(("曰", "是上")) for s in segs)


def test_no_cut_at_a_fixed_length():
    bare = "班" * 500
    (segs,) = cut(bare)
    assert texts(segs) == [bare]


def test_the_seeds_lose_nothing(seeds_edition):
    for w in seeds_edition.witnesses:
        segments = seeds_edition.segments[w.siglum]
        assert all(s.text == w.text[s.start : s.end] for s in segments)
        assert "".join(s.text for s in segments).replace("\n", "") == "".join(w.text.split())
