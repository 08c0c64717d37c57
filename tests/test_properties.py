"""Property tests: the export contract holds for any Chinese-like witnesses (issue 4, "Properties").

Witnesses are generated from the seeds' own characters (Traditional and Simplified mixed), episode
cue phrases (so that rows and notes appear), full- and half-width punctuation, quotes, newlines and
full-width spaces. Later witnesses are edited copies of the first, as real witnesses are, so that
rows hold several witnesses and notes are made.
"""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from edition.engine.export import to_dict, to_json
from tests.contract import contract_problems
from tests.support import build_folder as build

ROOT = Path(__file__).resolve().parents[1]
SEED_TEXT = "".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "seeds").glob("*.txt")))
HAN = sorted({ch for ch in SEED_TEXT if "\u4e00" <= ch <= "\u9fff"})
# Phrases of every episode, in both scripts, so that generated text is often assigned to one.
CUES = [
    "城主登城拜辭",
    "城主登城拜辞",
    "賜縑百匹",
    "赐绢百匹",
    "上嘉其固守",
    "敕班師",
    "下令班师",
    "步騎四萬殿後",
    "遼澤泥潦",
    "辽泽泥潦",
    "翦草填道",
    "風雪",
    "渤錯水",
    "收戰亡士卒骸骨",
    "設太牢致祭",
    "皇帝哭之盡哀",
    "太子迎駕",
    "太子出迎",
    "舊袍",
    "安市城",
    "杨万春",
    "梁修元",
    "一百匹",
    "四万",
]
MARKS = list("。，！？、：；“”「」‘’") + list(",.!?:;\"'") + ["。。。。。。", "……"]
SPACE = ["\n", "\n", "\n\n", "\u3000", "\u3000\u3000", " ", "\t"]

tokens = st.one_of(
    st.sampled_from(HAN),
    st.sampled_from(HAN),
    st.sampled_from(CUES),
    st.sampled_from(MARKS),
    st.sampled_from(SPACE),
)
texts = st.lists(tokens, min_size=0, max_size=120)


@st.composite
def witnesses(draw: st.DrawFn) -> list[str]:
    """One to four witness texts: a first one, then copies of it with tokens dropped, changed or added."""
    first = draw(st.lists(tokens, min_size=1, max_size=120))
    out = ["".join(first)]
    for _ in range(draw(st.integers(0, 3))):
        if draw(st.booleans()):
            out.append("".join(draw(texts)))  # an unrelated witness
            continue
        copy = list(first)
        for _ in range(draw(st.integers(0, 8))):
            at = draw(st.integers(0, len(copy)))
            action = draw(st.sampled_from(["drop", "change", "add"]))
            if action == "drop" and at < len(copy):
                del copy[at]
            elif action == "change" and at < len(copy):
                copy[at] = draw(tokens)
            else:
                copy.insert(at, draw(tokens))
        out.append("".join(copy))
    return out


def export_of(texts: list[str], newline: str = "\n") -> tuple[dict[str, Any], dict[str, str], str]:
    """Write the witnesses to a fresh folder, build, and return the export, the witness texts and the JSON."""
    with tempfile.TemporaryDirectory() as tmp:
        seeds = Path(tmp)
        for i, text in enumerate(texts):
            (seeds / f"w{i:02d}.txt").write_bytes(text.replace("\n", newline).encode("utf-8"))
        ed = build(seeds)
        return to_dict(ed), {w.siglum: w.text for w in ed.witnesses}, to_json(to_dict(ed))


# Derandomised and without an example database: the same examples on every run and machine.
PROPS = settings(
    max_examples=40, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow]
)


@PROPS
@given(witnesses())
def test_export_keeps_the_contract(texts):
    data, by_siglum, _ = export_of(texts)
    # What was written is what is read, and the contract's checker finds nothing wrong:
    # spans partition the non-whitespace text, each span's text is its slice, notes lie in their row's cells.
    assert list(by_siglum.values()) == texts
    assert contract_problems(data, by_siglum) == []


@PROPS
@given(witnesses())
def test_rows_keep_each_witness_order(texts):
    data, by_siglum, _ = export_of(texts)
    for ep in data["episodes"]:
        for siglum in by_siglum:
            spans = [(sp["start"], sp["end"]) for row in ep["rows"] for sp in row["cells"].get(siglum, [])]
            assert all(a_end <= b_start for (_, a_end), (b_start, _) in itertools.pairwise(spans)), (
                ep["id"],
                siglum,
                spans,
            )


@PROPS
@given(witnesses())
def test_note_readings_are_their_slices(texts):
    data, by_siglum, _ = export_of(texts)
    rows = {row["id"] for ep in data["episodes"] for row in ep["rows"]}
    for note in data["notes"]:
        assert note["row"] is None or note["row"] in rows
        for reading in note["readings"]:
            if note["type"] == "collation":
                assert note["lemma"]["siglum"] not in reading["sigla"]
            for siglum, (start, end) in reading["spans"].items():
                assert siglum in reading["sigla"]
                if note["type"] == "collation":
                    assert by_siglum[siglum][start:end] == reading["text"]


@settings(max_examples=25, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(witnesses(), st.sampled_from(["\n", "\r\n", "\r"]))
def test_two_runs_give_identical_json(texts, newline):
    # Two builds in two different folders, the second with other newlines: the same bytes out.
    _, _, first = export_of(texts)
    _, _, second = export_of(texts, newline)
    assert first == second
