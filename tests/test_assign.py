"""Episode assignment: agreement, precision and recall against the gold of the seeds and of the development
set (tests/gold, tests/dev/gold, made by reading), and the parts of the method on small inputs."""

from dataclasses import replace

import pytest

from edition.engine.assign import close_scenes, definition_pairs, expand, trim, viterbi
from edition.engine.model import EpisodeDef, Segment
from edition.engine.normalise import Normaliser
from edition.engine.params import Params
from edition.engine.segment import CLAUSE, PARAGRAPH, SCENE, SENTENCE
from tests.gold import DEV_GOLD, DEV_WITNESSES, agreement, gold_files, labels_by_char
from tests.support import build_folder


@pytest.fixture(scope="module")
def dev_edition():
    return build_folder(DEV_WITNESSES)


def test_a_definition_pairs_no_letters_across_a_mark():
    """聞之，曰 gives no 之曰: a pair across a mark is no word, and in a classical witness such pairs (之曰, 子曰)
    are everywhere; taken from the definition they drew 大唐新語's next anecdote into the rite."""
    rite = EpisodeDef("rite", "祭奠", 4, examples=("其父母聞之，曰：「吾兒死而天子哭之，死何所恨！」",))
    grams, _ = definition_pairs(rite, Normaliser({}), ())
    assert {"闻之", "吾儿", "哭之"} <= grams  # folded: one script
    assert not {"之曰", "曰吾", "之死"} & grams


def test_arabic_digits_are_matched_as_the_numerals_they_write():
    """A modern retelling's 步骑4万 and 9月 share 四万 and 九月 with the definition's words (its evidence for the
    withdrawal was nothing where it wrote the number in digits); two-digit numbers do not meet (18 is not 十八)."""
    from edition.engine.assign import evidence, pairs

    assert {"四万", "骑四", "九月"} <= set(pairs("步骑4万九9月")) and not {"4万", "9月"} & set(pairs("步骑4万9月"))
    profile = {"四万": 3.0, "殿后": 2.0}
    seg = Segment("X", 0, 0, 6, "步骑4万殿后", "步骑4万殿后", 0, 0, 6)
    assert evidence({"X": (seg,)}, [profile])["X"] == [[5.0]]


def test_gold_covers_every_seed(seeds_edition):
    assert gold_files() == [w.meta.file for w in seeds_edition.witnesses]


def test_seeds_agree_with_gold(seeds_edition):
    per_witness, per_episode = agreement(seeds_edition)
    # the seeds stay at 0.95 per witness or better (issue 25); measured 0.957 (B) to 0.986 (E), python -m tests.gold
    assert min(per_witness.values()) >= 0.95, per_witness
    low = {k: v for k, v in per_episode.items() if min(v) < 0.6}
    assert not low, f"episodes with recall or precision under 0.6: {low}"


def test_development_set_agrees_with_gold(dev_edition):
    """Real classical accounts, never tuned on alone: unpunctuated, hard-wrapped, both scripts."""
    per_witness, per_episode = agreement(dev_edition, DEV_GOLD / "episodes.yaml")
    # measured 0.968 (S) to 1.000 (U), medians of recall and precision per episode 1.00 (python -m tests.gold):
    # the floors leave a margin for a change that trades a little here for another kind
    assert min(per_witness.values()) >= 0.92, per_witness
    recall = sorted(r for r, _ in per_episode.values())
    precision = sorted(p for _, p in per_episode.values())
    assert recall[len(recall) // 2] >= 0.95 and precision[len(precision) // 2] >= 0.9


@pytest.mark.parametrize(
    "siglum, words",
    [
        ("A", "蓋蘇文設盛宴招待安市城主"),  # the Anshi lord in Pyongyang: says 安市城主 again and again
        ("A", "易州司馬陳元壽進獻碧綠的蔬菜"),  # the vegetables of Yizhou
        ("A", "可讓大理卿孫伏伽帶人巡查四方"),  # the purge
        ("A", "共攻破玄菟、橫山、蓋牟"),  # the campaign's tally
        ("C", "江夏王李道宗督促将士在安市东南角堆筑土山"),  # the siege
        ("D", "高延寿、高惠真垂头丧气"),  # the surrender
        ("D", "计拔玄菟、盖牟、磨米"),  # the tally
        ("E", "亲征之役犹如一幕大戏"),  # commentary at the end (which says 班师 too)
        ("E", "一是李世民在严寒之前果断地下令班师"),
    ],
)
def test_other_events_are_in_no_episode(seeds_edition, siglum, words):
    w = next(x for x in seeds_edition.witnesses if x.siglum == siglum)
    assert labels_by_char(seeds_edition, siglum, len(w.text))[w.text.index(words)] is None


@pytest.mark.parametrize("siglum, words", [("R", "冬十月遣使祀魏徴"), ("S", "冬十月遣使祀魏徵")])
def test_an_event_the_chronicles_tell_between_the_episodes_is_in_none(dev_edition, siglum, words):
    """The 綱目 (R) and the 輯覽 (S) tell the envoys sent to 魏徵's tomb in the tenth month, between the march
    through the marsh and the rite: 十月 and the march's words around it drew it into 遼澤 until the editor's
    episodes.yaml described it (context: wei-zheng)."""
    w = next(x for x in dev_edition.witnesses if x.siglum == siglum)
    assert labels_by_char(dev_edition, siglum, len(w.text))[w.text.index(words)] is None


@pytest.fixture(scope="module")
def annals(tmp_path_factory):
    """The seeds with two annals of dated entries: an emperor's (貞觀 years, 干支 days) and a 高句麗 king's,
    whose years are his own (四年 is 貞觀十九年)."""
    from tests.kinds import edition_folder

    files = ["251_benji_taizong.txt", "252_wangji_gaogouli.txt"]
    return build_folder(edition_folder(tmp_path_factory.mktemp("annals") / "w", files))


@pytest.mark.parametrize(
    "file, words, episode",
    [
        # the king's annal: its 四年 is the windows' 十九年, its 九月 and 冬十月 the episodes' (read as 四年 against
        # 十九年, every entry of that year was ruled out, and the lord's farewell was in no episode)
        ("252", "城主登城再拜", "anshi-dialogue"),
        ("252", "唐帝以遼左寒早", "withdrawal"),
        ("252", "渡渤錯水，遇大風雪", "liao-marshes"),
        ("252", "唐水軍", None),  # 六年九月: another year's withdrawal
        # the emperor's annal: its own years against the windows, as before
        ("251", "城主登陴拜辭", "anshi-dialogue"),
        ("251", "青丘道軍班師", None),  # 二十一年九月: another campaign's 班師
    ],
)
def test_an_annal_is_read_in_the_years_it_counts(annals, file, words, episode):
    w = next(x for x in annals.witnesses if x.meta.file.startswith(file))
    assert labels_by_char(annals, w.siglum, len(w.text))[w.text.index(words)] == episode


def test_a_chronologys_cross_reference_dates_no_entry(tmp_path):
    """The unseen chronology 326 (a reference's 大事年表; no longer blind: this was changed on reading it) refers
    the reader on in brackets (〔此事下文见十月下旬条〕, in the 三月 entry): read as the entry's month, the 四月 after
    it turned the year, and the 九月癸未 entry of the withdrawal and the lord's farewell stood in 二十年, outside every
    window, in no episode."""
    from tests.dev.check_gold import UNSEEN
    from tests.kinds import edition_folder

    folders = [UNSEEN / "chronology" / "witnesses"]
    edition = build_folder(edition_folder(tmp_path / "w", ["326_chronology.txt"], folders=folders))
    w = next(x for x in edition.witnesses if x.meta.file.startswith("326"))
    labels = labels_by_char(edition, w.siglum, len(w.text))
    assert labels[w.text.index("诏令班师")] == "withdrawal"
    assert labels[w.text.index("登城拜辞")] == "anshi-dialogue"
    assert labels[w.text.index("割草填道")] == "liao-marshes"


def test_a_commentarys_years_standing_alone_head_its_entries(tmp_path):
    """A 綱目 commentary (續麟) beside the 綱目 it comments on heads each year with its cyclical name and the year
    alone, cut off as the 綱目 cuts it ((乙巳)十九年 │ 帝攻安市城不下詔班師): read as years, the 十九年 headline tells
    the withdrawal (the 六月 of a quoted 六月四日事 had ruled it out, and the commentary after it took its place),
    and 二十年's 冬十月 is another year's, not the marshes' (it was read one year back, as the year the evidence for
    the windows' months was in, when a headline's year with no month counted for nothing)."""
    from tests.kinds import edition_folder

    edition = build_folder(edition_folder(tmp_path / "w", ["103_gangmu_skqs.txt", "204_gangmu_xulin.txt"]))
    w = next(x for x in edition.witnesses if x.meta.file.startswith("204"))
    labels = labels_by_char(edition, w.siglum, len(w.text))
    assert labels[w.text.index("草枯水凍")] == "withdrawal"
    assert labels[w.text.index("乃耀兵於安市城下")] == "withdrawal"
    assert labels[w.text.index("書班師羙也")] is None  # the commentary's verdict on the headline
    assert labels[w.text.index("冬十月貶蕭瑀")] is None


def test_the_year_an_annal_tells_the_episodes_in_is_where_their_evidence_is():
    from edition.engine.assign import reign_shift
    from edition.engine.model import Window

    defs = tuple(EpisodeDef(id=k, title=k, order=n, window=Window(19, 9, 10)) for n, k in enumerate("ab"))
    dates = [(3, 9), (4, 9), (4, 10), (5, 9), (None, 9), (4, None)]
    raw = [[1.0, 0.0], [5.0, 0.0], [0.0, 4.0], [2.0, 2.0], [50.0, 0.0], [50.0, 0.0]]
    assert reign_shift(dates, raw, defs) == 15  # 四年 holds 9 (in 九月 and 十月), 五年 2, 三年 1
    assert reign_shift([(19, 9), (21, 9)], [[3.0, 0.0], [3.0, 0.0]], defs) == 0  # a tie: the window's own year
    assert reign_shift([(None, 9)], [[3.0, 0.0]], defs) == 0  # no year said: none to shift
    # a year's headline with no month (a 綱目's 十九年 … 詔班師) may tell the windows' months: its evidence counts
    assert reign_shift([(19, None), (20, 10)], [[40.0, 0.0], [0.0, 3.0]], defs) == 0


def test_a_narrative_falls_between_the_dates_it_moves_on_by():
    from edition.engine.dates import month_bounds

    texts = ["十九年二月", "帝发洛阳", "五月", "帝至辽泽泥淖二百余里", "比中原早寒一月", "三月危城奈若何"]
    texts += ["秋七月", "移营", "九月"]
    assert month_bounds(texts, 3) == [
        (2, 2),
        (2, 5),
        (5, 5),
        (5, 7),  # 五月 … 秋七月: the crossing on the way out
        (5, 7),  # a month's time (一月) and three months (三月) are no dates the text moves on by
        (5, 7),
        (7, 7),
        (7, 9),
        (9, 9),
    ]
    assert month_bounds(["辽东早寒", "九月十八日", "班师"], 3) == [(None, 9), (9, 9), (9, None)]


def test_a_narratives_crossing_on_the_way_out_is_not_the_withdrawals(tmp_path):
    """An institutional history's 高句麗 account tells the campaign in one paragraph of dated clauses: 五月，…帝至遼澤，
    泥淖二百餘里 … is the crossing of the marsh on the way out, before 秋七月 and the siege; its words are the
    withdrawal's 遼澤 (the twelfth reading's F10 and F12 quoted it there). 冬十月，次蒲溝 is the return."""
    from tests.kinds import edition_folder

    ed = build_folder(edition_folder(tmp_path / "w", ["241_siyi_gaogouli.txt"]))
    (w,) = [x for x in ed.witnesses if x.meta.file.startswith("241")]
    labels = labels_by_char(ed, w.siglum, len(w.text))
    assert labels[w.text.index("泥淖二百餘里")] is None
    assert labels[w.text.index("次蒲溝")] == "liao-marshes"


def test_a_date_is_counted_in_letters_that_pay_no_price():
    from edition.engine.dates import date_letters

    assert date_letters("九月癸未班师") == 4  # month and cyclical day
    assert date_letters("十月十一日御驾至营州") == 5
    assert date_letters("二十一日又顺利进至辽水") == 4
    assert date_letters("唐军算是基本完成了撤军任务") == 0


def test_a_scene_stays_whole(seeds_edition):
    """The second half of the dialogue at the wall (A: 伸手搖了一搖 … 迴歸中軍帳) stays with it."""
    w = seeds_edition.witnesses[0]
    labels = labels_by_char(seeds_edition, "A", len(w.text))
    start, end = w.text.index("李世民伸手搖了一搖"), w.text.index("緩緩迴歸中軍帳") + 7
    assert {labels[i] for i in range(start, end) if not w.text[i].isspace()} == {"anshi-dialogue"}


def test_missing_episodes_stay_missing(seeds_edition):
    """C ends in the marshes: no rite, no crown prince; B stops mid-sentence before the rite."""
    assert not {"rite", "crown-prince"} & set(seeds_edition.assignment["C"])
    assert "rite" not in set(seeds_edition.assignment["B"])


# --- the parts, on small inputs -----------------------------------------------------------------------------

P = Params()


def test_viterbi_trades_evidence_against_the_cost_of_a_change():
    # one episode; evidence per segment; the middle segment alone has none
    scores = [[5.0], [-1.0], [5.0]]
    assert viterbi(scores, [PARAGRAPH, SENTENCE, SENTENCE], P) == [1, 1, 1]  # leaving and coming back costs more
    assert viterbi([[5.0], [-30.0], [5.0]], [PARAGRAPH, SCENE, SCENE], P) == [1, 0, 1]  # unless it pays
    # inside a quotation no change is worth it; at a scene break a small one is
    assert viterbi([[25.0], [-P.cost_quote / 2]], [PARAGRAPH, -1], P) == [1, 1]
    assert viterbi([[-0.5], [5.0]], [PARAGRAPH, SCENE], P) == [0, 1]


def test_viterbi_moves_between_episodes_more_cheaply_than_in_and_out():
    cheap = replace(P, switch_share=0.1)
    dear = replace(P, switch_share=1.0)
    scores = [[4.0, -9.0], [-9.0, 4.0]]
    assert viterbi(scores, [PARAGRAPH, PARAGRAPH], cheap) == [1, 2]
    assert viterbi([[1.0, -1.0], [-1.0, 1.0]], [PARAGRAPH, PARAGRAPH], dear) == [0, 0]


def test_trim_gives_back_borrowed_edges_but_keeps_the_words_that_close_a_scene():
    # the run's first segment has no evidence of its own and a weaker break outside than inside: given back
    assert trim([0, 1, 1, 0], [[0.0], [0.0], [3.0], [0.0]], [SCENE, SENTENCE, PARAGRAPH, PARAGRAPH]) == [0, 0, 1, 0]
    # its last one, followed by a scene break, closes the scene: kept
    assert trim([1, 1, 0], [[3.0], [0.0], [0.0]], [PARAGRAPH, CLAUSE, SCENE]) == [1, 1, 0]
    # the same segment followed by a mere clause break is borrowed context: given back
    assert trim([1, 1, 0], [[3.0], [0.0], [0.0]], [PARAGRAPH, SENTENCE, CLAUSE]) == [1, 0, 0]


def test_close_scenes_extends_a_run_to_the_scene_break_only_with_its_own_words():
    labels = [1, 1, 0, 0, 0]
    strength = [SCENE, SENTENCE, PARAGRAPH, PARAGRAPH, SCENE]
    lengths = [10, 10, 3, 3, 10]
    with_word = [[5.0], [5.0], [0.0], [0.5], [0.0]]
    assert close_scenes(labels, with_word, strength, lengths, 0.5) == [1, 1, 1, 1, 0]
    without = [[5.0], [5.0], [0.0], [0.0], [0.0]]
    assert close_scenes(labels, without, strength, lengths, 0.5) == labels
    assert close_scenes(labels, with_word, strength, lengths, 0.2) == labels  # too long for the run


def seg(siglum, i, folded):
    return Segment(siglum, i, i * 10, i * 10 + len(folded), folded, folded, 0, 0, len(folded))


def test_expand_learns_words_independent_tellings_share():
    segments = {
        "A": tuple(seg("A", i, t) for i, t in enumerate(["大雪纷飞士卒冻死", "点燃火堆", "他事他事", "大雪纷飞冻死"])),
        "B": tuple(seg("B", i, t) for i, t in enumerate(["天降大雪纷飞", "火堆取暖", "另有他事"])),
        "C": tuple(seg("C", i, t) for i, t in enumerate(["大雪纷飞", "其余他事"])),
    }
    labels = {"A": [1, 1, 0, 1], "B": [1, 1, 0], "C": [1, 0]}
    family = {"A": "A", "B": "B", "C": "C"}
    from collections import Counter

    from edition.engine.assign import pairs

    df = Counter(g for segs in segments.values() for s in segs for g in pairs(s.folded))
    (grown,) = expand([{"冻死": 2.0}], segments, labels, family, df, 9, 2.0, 3)
    assert "纷飞" in grown and grown["纷飞"] <= 2.0  # 3 segments, 3 families; never above the heaviest
    assert "火堆" not in grown  # in two segments only
    assert "他事" not in grown  # outside the episode
    family_ab = {"A": "A", "B": "A", "C": "A"}  # one family: no independent evidence
    (alone,) = expand([{"冻死": 2.0}], segments, labels, family_ab, df, 9, 2.0, 3)
    assert "纷飞" not in alone
