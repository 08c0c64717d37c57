"""Folding: script, variant characters and punctuation compare equal; positions map back."""

from edition.engine.convert import detect_script
from edition.engine.model import Witness, WitnessMeta
from edition.engine.normalise import Normaliser, punct_key
from edition.engine.resources import VARIANTS, engine_data, load_variants

NORM = Normaliser(load_variants([engine_data(VARIANTS)]))
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
