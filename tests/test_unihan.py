"""The engine's base variant table: derived from Unihan by scripts/unihan_variants.py, by rules a test can read."""

import importlib.util
import re

from edition.engine.resources import UNIHAN_VARIANTS, VARIANTS, engine_data, load_variants
from tests.support import ROOT, build_folder

spec = importlib.util.spec_from_file_location("unihan_variants", ROOT / "scripts" / "unihan_variants.py")
unihan_variants = importlib.util.module_from_spec(spec)
spec.loader.exec_module(unihan_variants)

# Lines as Unihan_Variants.txt writes them (and as the unihan-database files do, the ideograph after the code point)
SAMPLE = """\
U+5C05\tkSemanticVariant\tU+524B<kHKGlyph,kMatthews
U+524B 剋\tkSemanticVariant\tU+5C05<kHKGlyph,kMatthews
U+524B\tkSimplifiedVariant\tU+514B
U+5E77\tkSemanticVariant\tU+4E26<kMatthews,kMeyerWempe U+5E76<kMatthews,kMeyerWempe U+7ADD<kMatthews
U+9641\tkSemanticVariant\tU+9640<kMatthews
U+52D1\tkSemanticVariant\tU+5008<kLau U+52C5<kMatthews U+6555<kMatthews U+5FA0<kLau
U+52C5\tkSemanticVariant\tU+52D1<kMatthews U+6555<kMatthews
U+52C5\tkSpecializedSemanticVariant\tU+6555
U+9673\tkSpecializedSemanticVariant\tU+9663<kFenn
U+65BC\tkSemanticVariant\tU+4E8E<kLau U+4E8F<kMatthews
U+4E7E\tkSimplifiedVariant\tU+4E7E U+5E72
U+5DB4\tkSimplifiedVariant\tU+5C99
"""
TGH = {*"克并陀敕徕俫于亏干陈阵"}


def derive(tmp_path):
    path = tmp_path / "Unihan_Variants.txt"
    path.write_text(SAMPLE, encoding="utf-8")
    links, _ = unihan_variants.read_links([path])
    rows, excluded = unihan_variants.derive(links, TGH)
    return {v: (t, source) for v, t, source in rows}, excluded


def test_a_non_standard_form_goes_to_the_nearest_standard_form(tmp_path):
    rows, _ = derive(tmp_path)
    assert rows["尅"] == ("克", "kSemanticVariant 剋")  # 剋 is 克 in the compared script (t2s)
    assert rows["幷"][0] == rows["竝"][0] == "并"
    assert rows["陁"] == ("陀", "kSemanticVariant")
    assert rows["勅"] == ("敕", "kSemanticVariant")  # one link away; 徕 only through 勑


def test_links_that_could_make_two_words_one_are_left_out(tmp_path):
    rows, excluded = derive(tmp_path)
    assert "𠡠" not in rows  # 勑 (t2s 𠡠): 敕, 徕 and 俫 all one link away
    assert ("several", "𠡠", "俫徕敕") in excluded
    assert ("kSemanticVariant", "于", "亏") in excluded  # two standard characters
    assert "陈" not in rows and "陣" not in rows  # kSpecializedSemanticVariant is not read
    assert "乾" not in rows  # a simplified form of its own too
    assert rows["嶴"] == ("岙", "kSimplifiedVariant")  # a traditional form OpenCC does not convert


def test_the_table_names_its_source_and_licence_and_each_rows_field():
    path = engine_data(UNIHAN_VARIANTS)
    head = [line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("#")]
    assert re.search(r"Unihan \d+\.\d+\.\d+", head[0])
    assert any("Unicode License v3" in line for line in head)
    assert "UNICODE LICENSE V3" in engine_data("unihan_variants.LICENSE").read_text(encoding="utf-8")
    fields = {"kSemanticVariant", "kZVariant", "kSimplifiedVariant", "kTraditionalVariant"}
    table = load_variants([path])
    assert len(table) > 1000
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            _, _, source = line.split("\t")
            assert {step.split(" ")[0] for step in source.split(", ")} <= fields, line
    # the edition's own pairs are read over it
    assert load_variants([path, engine_data(VARIANTS)])["卭"] == "邛"


def test_a_copys_siku_forms_are_orthographic_and_a_sense_variant_a_reading(tmp_path):
    (tmp_path / "a.txt").write_text("秋九月，薛延陀真珠可汗死。上命諸將克期并進，陳兵於野。\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("秋九月，薛延陁真珠可汗死。上命諸將尅期幷進，陣兵於野。\n", encoding="utf-8")
    ed = build_folder(tmp_path)
    noted = [(n.cls, n.lemma_text, n.readings[0].text) for n in ed.notes if n.type == "collation"]
    assert noted == [
        ("orthographic", "陀", "陁"),
        ("orthographic", "克", "尅"),
        ("orthographic", "并", "幷"),
        ("substantive", "陳", "陣"),  # variants in some senses only (kSpecializedSemanticVariant): a reading
    ]
