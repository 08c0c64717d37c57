"""Folding: script, variant characters and punctuation compare equal; positions map back."""

from pathlib import Path

from edition.engine.convert import char_to_simplified, char_to_traditional, detect_script
from edition.engine.model import Witness, WitnessMeta
from edition.engine.normalise import Normaliser, punct_key
from edition.engine.resources import UNIHAN_VARIANTS, engine_data, engine_variants, load_variants

NORM = Normaliser(load_variants(engine_variants()))
fold_text = NORM.fold_text


def test_variants_and_scripts_fold_alike():
    # pairs that differ between 000 and 001, and between the Traditional and Simplified witnesses
    for a, b in [
        ("巖", "岩"),
        ("溼", "濕"),
        ("週", "周"),
        ("儘", "盡"),
        ("佈", "布"),
        ("脣", "唇"),
        ("卹", "恤"),
        ("迴", "回"),
        ("颳", "刮"),
        ("屛", "屏"),
        ("塡", "填"),
        ("遼澤", "辽泽"),
        ("縑", "缣"),
    ]:
        assert fold_text(a) == fold_text(b), (a, b)
    assert fold_text("安市") != fold_text("平壤")
    # two words, not two forms of one: 姊 (elder sister, as in 姊妹) is no variant of 姐, whatever its use today
    assert fold_text("姊") != fold_text("姐")


def test_the_siku_forms_fold_to_their_standard_forms():
    # the 四庫 forms the development set carries: Unihan's links (尅 -> 剋 -> 克 by t2s; 幷, 竝 -> 並),
    # then the edition's own pairs for those Unihan lacks (乆, 㧞, 僃) or links to several words (勑)
    for a, b in [
        ("尅", "克"),
        ("尅", "剋"),
        ("幷", "并"),
        ("竝", "並"),
        ("陁", "陀"),
        ("乆", "久"),
        ("㧞", "拔"),
        ("葢", "蓋"),
        ("髙", "高"),
        ("僃", "備"),
        ("勑", "敕"),
        ("勅", "敕"),
        ("闗", "關"),
        ("栁", "柳"),
        ("夀", "壽"),
        ("寳", "寶"),
        ("徃", "往"),
        ("宻", "密"),
        ("卭", "邛"),  # the edition's pair over Unihan's 卭 -> 卬: in these texts 卭州 is 邛州
        ("薛延陁", "薛延陀"),
    ]:
        assert fold_text(a) == fold_text(b), (a, b)


def test_unihan_alone_folds_what_the_editions_table_lacked():
    unihan = Normaliser(load_variants([engine_data(UNIHAN_VARIANTS)]))
    for a, b in [("尅", "克"), ("幷", "并"), ("陁", "陀"), ("闗", "关"), ("栁", "柳"), ("葢", "盖"), ("髙", "高")]:
        assert unihan.fold_char(a) == unihan.fold_char(b), (a, b)
    assert unihan.fold_char("卭") == "卬"  # Unihan's, which the edition's table overrides


def test_two_words_stay_two():
    # linked in Unihan, but as two standard characters (两个规范字), or only in some senses
    # (kSpecializedSemanticVariant), or to several words at once (勑: 敕, 徠, 倈): never folded
    for a, b in [
        ("于", "亏"),
        ("沈", "沉"),
        ("他", "她"),
        ("予", "余"),
        ("乃", "迺"),
        ("關", "寡"),
        ("子", "只"),
        ("陳", "陣"),
        ("間", "閒"),
        ("速", "跡"),
        ("應", "硬"),
        ("坐", "座"),
        ("勑", "徠"),
        ("埶", "藝"),  # the old form of 勢 too: the edition's table keeps it as written
        ("姊", "姐"),
    ]:
        assert fold_text(a) != fold_text(b), (a, b)


def test_the_editions_pairs_override_and_chain_with_unihans(tmp_path):
    own = tmp_path / "variants.tsv"
    own.write_text("陁\t陁\n透\t夀\n", encoding="utf-8")
    norm = Normaliser(load_variants([*engine_variants(), own]))
    assert norm.fold_char("陁") != norm.fold_char("陀")  # a character paired with itself is taken out of Unihan's
    assert norm.fold_char("透") == norm.fold_char("壽") == norm.fold_char("夀")  # 透 -> 夀, which Unihan folds on
    # a loop between the tables (寿 -> 夀 here, 夀 -> 寿 there) folds alike from wherever it is entered
    loop = tmp_path / "loop.tsv"
    loop.write_text("寿\t夀\n", encoding="utf-8")
    norm = Normaliser(load_variants([*engine_variants(), loop]))
    assert norm.fold_char("寿") == norm.fold_char("夀") == norm.fold_char("壽")


def test_punctuation_is_set_aside_and_positions_map_back():
    text = "他說道：“遼東早寒。”"
    tokens = NORM.tokenise(Witness(WitnessMeta("x.txt", "A", "x"), text, "Hant"))
    assert tokens.n == fold_text("他说道辽东早寒")
    assert [text[i] for i in tokens.at] == list("他說道遼東早寒")
    assert [tokens.token(i).t for i in range(len(tokens.n))] == list("他說道遼東早寒")
    assert tokens.index(3) == 3 and tokens.index(4) == 3  # the letter at or after an offset


def test_quote_styles_and_widths_fold_to_one_key():
    assert punct_key("“") == punct_key("「") == punct_key('"')
    assert punct_key("，") == punct_key(",")
    assert punct_key("。") != punct_key("，")


def test_script_detection():
    assert detect_script("遼東之地向來比內地早寒") == "Hant"
    assert detect_script("辽东之地向来比内地早寒") == "Hans"
    assert detect_script("遼東之地向來 辽东之地向来") == "mixed"
    # a few traditional forms kept by a typesetter do not make a simplified text mixed (004 has 裏, 衞)
    assert detect_script("从这裏可以看出，吐蕃肯定一直密切关注着辽东战事，韩衞说") == "Hans"


def test_characters_convert_as_opencc_converts_them_alone():
    """The character tables stand in for OpenCC's converters (whose phrase tables cost a cold start): every
    character they list, and the CJK letters around them, converts as OpenCC converts it standing alone.
    (Checked offline for every code point.)"""
    import opencc

    t2s, s2t = opencc.OpenCC("t2s"), opencc.OpenCC("s2t")
    folder = Path(opencc.__file__).parent / "dictionary"
    listed = {
        line.split("\t")[0]
        for f in ("TSCharacters", "STCharacters")
        for line in (folder / f"{f}.txt").open(encoding="utf-8")
    }
    for ch in sorted(listed | {chr(c) for c in range(0x4E00, 0x9FFF, 7)} | set("，。A1 〇")):
        a, b = t2s.convert(ch), s2t.convert(ch)
        assert char_to_simplified(ch) == (a if len(a) == 1 else ch), ch
        assert char_to_traditional(ch) == (b if len(b) == 1 else ch), ch
