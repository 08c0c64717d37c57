"""Dated entries: the calendar a witness written as entries keeps, and an episode's window (episodes.yaml)."""

import shutil
from itertools import pairwise

import pytest

from edition.engine.convert import to_simplified
from edition.engine.dates import calendar, counted_day, months_in_force, numeral
from edition.engine.episodes import load_calendar, load_episodes
from edition.errors import EditionError
from tests.support import ROOT, build_folder


def test_numerals_of_years_and_months():
    assert [numeral(x) for x in ("九", "十", "十九", "二十", "二十一", "廿", "正", "百")] == [
        9,
        10,
        19,
        20,
        21,
        20,
        1,
        None,
    ]


def test_the_calendar_follows_the_entries():
    """A year heading an entry resets the month; a smaller month with no year turns the year; a year inside a
    narrative (三年之后) heads nothing."""
    heads = [
        "十九年春二月庚戌",
        "上自将",
        "三年之后",
        "九月癸未",
        "冬十月丙申朔",
        "二十年三月",
        "贞观二十一年",
        "五月",
        "正月",
    ]
    assert calendar(heads) == [(19, 2), (19, 2), (19, 2), (19, 9), (19, 10), (20, 3), (21, None), (21, 5), (22, 1)]


def test_a_year_standing_alone_heads_an_entry():
    """A 綱目 commentary heads each year with its cyclical name and the year alone ((乙巳)十九年帝攻安市城不下…):
    the year is in force from its name on (丙午 is 二十年's, not a day of 十九年) and the month of a quoted earlier
    event (六月四日事) is not; cut as one clause (丙午二十年) it heads the entry too."""
    heads = ["六月四日事", "乙巳", "十九年", "帝攻安市城不下诏班师", "丙午", "二十年", "冬十月贬萧瑀", "在位二十三年"]
    assert calendar(heads) == [
        (None, 6),
        (19, None),
        (19, None),
        (19, None),
        (20, None),
        (20, None),
        (20, 10),
        (20, 10),  # a year inside a clause heads nothing
    ]
    assert calendar(["十九年冬十月", "丙午二十年", "秋八月"]) == [(19, 10), (20, None), (20, 8)]
    assert calendar(["十九年冬十月", "丙午", "至营州"]) == [(19, 10), (19, 10), (19, 10)]  # a day, no year after it


def test_a_month_in_a_gloss_dates_no_entry():
    """A reference's cross-reference (〔此事下文见十月下旬条〕) names a month without being dated by it: read as the
    entry's, the next entry's 四月 turned the year (326's entries all stood a year after the episodes' windows)."""
    heads = ["三月壬辰", "太宗离定州东进", "此事下文见十月下旬条", "四月戊戌朔", "九月癸未", "诏令班师"]
    assert calendar(heads, [False, False, True, False, False, False]) == [
        (None, 3),
        (None, 3),
        (None, 3),
        (None, 4),
        (None, 9),
        (None, 9),
    ]
    # a 考異 in brackets that opens on a month (P: 九月而此云冬來寇必非真珠也) leaves the entry's month as it was
    heads = ["十九年十二月", "九月而此云冬来寇", "薛延陀来寇"]
    assert calendar(heads) == [(19, 12), (20, 9), (20, 9)]  # read as a date, it turns the year
    assert calendar(heads, [False, True, False]) == [(19, 12), (19, 12), (19, 12)]


def test_a_month_dates_a_clause_only_at_its_head():
    """The chronology's 十月下旬 entry tells of the vow made in spring, 太宗自三月于定州与太子分别: its 三月 turned the
    year, and the rest of the entry stood in 二十年, outside the prince's window. A month dates a clause at its head,
    after a year, a season, 閏 or the first month of a range at most."""
    assert calendar(["十九年十月下旬", "太宗自三月于定州与太子分别", "十一月"]) == [(19, 10), (19, 10), (19, 11)]
    heads = ["十九年春二月", "冬十月丙申朔", "七月至九月", "同年十二月", "元年冬十月", "上以三月至"]
    heads += ["贞观十九年645年九月"]
    assert [m for _, m in calendar(heads)] == [2, 10, 9, 12, 10, 10, 9]
    assert calendar(["公元645年十月", "二十一日至营州"]) == [(None, 10), (None, 10)]


def test_a_gloss_is_a_stretch_in_brackets_unless_brackets_are_the_layout():
    from edition.engine.glosses import Glosses, glossed
    from edition.engine.model import Segment

    text = "三月壬辰（二十四日）　太宗离定州。〔此事下文见十月下旬条〕四月，至幽州。"
    glosses = Glosses(text)
    assert [text[i] for i in range(len(text)) if i in glosses] == list("二十四日）此事下文见十月下旬条〕")
    cuts = [0, 10, 17, 29, len(text)]
    segs = tuple(Segment("X", k, a, b, text[a:b], text[a:b], 0) for k, (a, b) in enumerate(pairwise(cuts)))
    assert glossed(segs) == [False, False, True, False]
    # a 綱目 printing its 目 in brackets: half its letters and more are bracketed, and the brackets are its layout
    layout = "（乙巳）十九年（帝攻安市城不下，詔班師。）書法"
    assert not any(i in Glosses(layout) for i in range(len(layout)))


def test_a_day_given_without_its_month_falls_in_the_month_last_named():
    """E: 十月十一日，御驾至营州 … 二十一日，他在归途上与前来迎接的太子李承乾相遇 -- the 21st of the tenth month, as V's
    十月二十一日. A day earlier than the last one given has left that month for one the text does not name."""
    e = next(p for p in (ROOT / "seeds").glob("004_*.txt")).read_text(encoding="utf-8")
    folded = to_simplified(e)
    at = folded.index("二十一日，他在归途上")
    assert months_in_force(folded)[at] == "十月"
    text = "十月二十一日至营州。十一日，太子来迎。二十日，还。"
    assert months_in_force(text) == {}  # 十一日 after the 21st: the month is unknown, and so is the next one's
    text = "九月十八日班师。二十日至辽东。"
    assert months_in_force(text) == {text.index("二十日"): "九月"}


def test_a_window_that_is_no_month_is_an_error_with_its_line(tmp_path):
    path = tmp_path / "episodes.yaml"
    path.write_text("episodes:\n  - id: a\n    title: A\n    window: 九月至七月\n", encoding="utf-8")
    with pytest.raises(EditionError) as err:
        load_episodes(path)
    assert "line 4" in str(err.value) and "九月至七月" in str(err.value)
    path.write_text("episodes:\n  - id: a\n    title: A\n    window: 十九年九月至十月\n", encoding="utf-8")
    ((episode,), _) = load_episodes(path)
    assert (episode.window.year, episode.window.first, episode.window.last) == (19, 9, 10)


def test_a_cyclical_day_is_counted_in_its_month_from_the_month_s_first_day():
    """貞觀十九年九月丙寅朔, 十月丙申朔: 癸未 is the 18th of the ninth month, 丙午 and 丙辰 the 11th and 21st of the
    tenth; a month the calendar does not give, or a day more than thirty after the first, is not counted."""
    months = {9: 2, 10: 32}  # 丙寅, 丙申 (甲子 is 0)
    assert counted_day("九月", "癸未", months) == "九月十八日"
    assert counted_day("十月", "丙午", months) == "十月十一日"
    assert counted_day("十月", "丙辰", months) == "十月二十一日"
    assert counted_day("十月", "丙申", months) == "十月一日"
    assert counted_day("八月", "癸未", months) is None
    assert counted_day("十月", "乙未", months) is None  # 丙申's eve: the 60th day after it


def test_the_editor_s_calendar_and_its_mistakes(tmp_path):
    """The seeds' calendar, and each mistake named with its line."""
    assert load_calendar(ROOT / "seeds" / "episodes.yaml") == {9: 2, 10: 32}
    path = tmp_path / "episodes.yaml"
    head = "episodes:\n  - id: a\n    title: A\ncalendar:\n"
    for entry, said in (
        ("  - {month: 九月, first: 丙寅}\n  - {month: 九月, first: 丙申}\n", "line 6"),
        ("  - {month: 九旬, first: 丙寅}\n", "'九旬' is not a month"),
        ("  - {month: 九月, first: 丙子丑}\n", "'丙子丑' is not a cyclical day"),
        ("  - {month: 九月, day: 丙寅}\n", "day"),
    ):
        path.write_text(head + entry, encoding="utf-8")
        with pytest.raises(EditionError) as err:
            load_calendar(path)
        assert said in str(err.value) and "episodes.yaml" in str(err.value), str(err.value)
    path.write_text(head + "  - {month: 十月, first: 丙申朔}\n", encoding="utf-8")
    assert load_calendar(path) == {10: 32}  # 丙申朔 as a table writes it
    assert load_episodes(path)[0][0].id == "a"  # the episodes read past it


def test_an_annal_s_cyclical_day_is_the_others_counted_day_by_the_calendar(tmp_path):
    """An emperor's annal dates the order to return 癸未 where the seeds write 九月十八日: with the seeds' calendar
    the note of the day quotes 癸未 as written among those that agree; without it, the annal's day is not theirs."""
    from tests.kinds import edition_folder

    folder = edition_folder(tmp_path / "w", ["251_benji_taizong.txt"])
    plain = tmp_path / "episodes.yaml"
    text = (ROOT / "seeds" / "episodes.yaml").read_text(encoding="utf-8")
    plain.write_text(text[: text.index("\ncalendar:")] + "\n", encoding="utf-8")
    for episodes, annal in ((None, {"BA": "癸未"}), (plain, {})):
        ed = build_folder(folder, episodes)
        texts = {w.siglum: w.text for w in ed.witnesses}
        order = [n for n in ed.notes if n.episode == "withdrawal" and n.label.startswith("時日")]
        quoted = [{s: texts[s][a:b] for r in n.readings for s, (a, b) in r.spans.items()} for n in order]
        assert [n.label for n in order] == ["時日，所記同日"], quoted
        assert quoted == [{"A": "九月十八日", "B": "九月十八日", "C": "九月十八日", "E": "九月十八日", **annal}]


def test_a_cyclical_day_with_no_month_named_is_of_its_episode_s_month(tmp_path):
    """The 四庫 通鑑's excerpt names no 九月 before its 癸未勑班師: the withdrawal's window (十九年九月) and the
    calendar make it the 18th, and the note of the day quotes it among the seeds' 九月十八日."""
    from tests.kinds import edition_folder

    ed = build_folder(edition_folder(tmp_path / "w", ["101_tongjian_skqs.txt"]))
    texts = {w.siglum: w.text for w in ed.witnesses}
    assert "九月" not in texts["P"][: texts["P"].index("癸未")]
    order = [n for n in ed.notes if n.episode == "withdrawal" and n.label.startswith("時日")]
    quoted = [{s: texts[s][a:b] for r in n.readings for s, (a, b) in r.spans.items()} for n in order]
    assert [n.label for n in order] == ["時日，所記同日"], quoted
    assert quoted == [{"A": "九月十八日", "B": "九月十八日", "C": "九月十八日", "E": "九月十八日", "P": "癸未"}]


# An annal in the manner of the dynastic annals, written for this test (not copied from any): the whole campaign
# a line a month, the outward crossing of the 遼澤 in the fifth month, and two later campaigns that withdraw
# (班師) and freeze (凍死) too.
ANNAL = """十九年春二月庚戌，上自將諸軍發洛陽。
三月丁丑，車駕至定州，命皇太子監國，上指所服褐袍曰：「俟見汝乃易之。」
夏四月癸卯，李世勣拔蓋牟城。
五月丁丑，車駕渡遼，遼澤泥淖二百餘里，人馬不可通，將作大匠閻立德布土作橋，軍不留行。
六月丁酉，次安市城，高延壽、高惠真以眾降。
九月癸未，以遼左早寒，草枯水凍，班師，城主登城拜辭，賜縑百匹。
冬十月丙申朔，次蒲溝，大風雪，士卒多凍死，命燃火於道以待之。
丙午，次營州，詔集戰亡士卒骸骨於柳城東南，設太牢，上臨哭盡哀。
丙辰，太子迎謁於臨渝關，上乃易褐袍。
十一月辛未，次幽州。
二十一年三月，命李世勣、牛進達伐高麗，秋七月，班師，冬大寒，士卒多凍死者，上為之流涕。
二十二年正月，命薛萬徹伐高麗，九月，班師。
"""


def labels(edition, siglum):
    w = next(x for x in edition.witnesses if x.siglum == siglum)
    return {
        w.text[s.start : s.end]: lab
        for s, lab in zip(edition.segments[siglum], edition.assignment[siglum], strict=True)
    }


@pytest.mark.parametrize("windows", [True, False])
def test_entries_outside_an_episodes_window_tell_no_episode(tmp_path, windows):
    """With the seeds' windows the fifth month's crossing, the third month's vow at 定州 and the later
    campaigns' withdrawals are in no episode; the months of the story keep theirs. Without them (an
    episodes.yaml with no window) the fifth month's mud is the 遼澤's and the vow the prince's."""
    folder = tmp_path / "seeds"
    shutil.copytree(ROOT / "seeds", folder, ignore=shutil.ignore_patterns("catalogue.yaml", "editorial.yaml"))
    if not windows:
        text = (folder / "episodes.yaml").read_text(encoding="utf-8")
        (folder / "episodes.yaml").write_text(
            "\n".join(line for line in text.splitlines() if not line.startswith("    window:")), encoding="utf-8"
        )
    (folder / "005_annal.txt").write_text(ANNAL, encoding="utf-8")
    got = labels(build_folder(folder), "F")
    assert got["遼澤泥淖二百餘里，"] == (None if windows else "liao-marshes")
    assert got["命皇太子監國，"] == (None if windows else "crown-prince")
    assert got["草枯水凍，"] == "withdrawal"
    assert got["設太牢，"] == "rite"
    assert got["太子迎謁於臨渝關，"] == "crown-prince"
    assert got["士卒多凍死者，"] is None and got["上為之流涕。"] is None  # 二十一年's frost
    assert got["命薛萬徹伐高麗，"] is None
