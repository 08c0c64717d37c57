"""The editor's file (editorial.yaml): every directive on the seeds and on small witnesses, every error with
its message, and the machine measured without it."""

import shutil
from pathlib import Path

import pytest

from edition.errors import EditionError
from tests.contract import contract_problems
from tests.gold import agreement
from tests.support import SEEDS, build_folder

A_TEXT = "上以遼左早寒，草枯水凍，敕班師。城主登城拜辭，上嘉其固守，賜縑百匹。\n長孫無忌將萬人翦草填道。\n"
B_TEXT = "城主登上城頭拜別。天子賜他絹百匹。\n大軍班師。遼左早寒草枯。\n"


def folder(tmp_path: Path, editorial: str, texts=(A_TEXT, B_TEXT)) -> Path:
    f = tmp_path / "w"
    f.mkdir(exist_ok=True)
    for name, text in zip(("a.txt", "b.txt"), texts, strict=False):
        (f / name).write_text(text, encoding="utf-8")
    (f / "editorial.yaml").write_text(editorial, encoding="utf-8")
    return f


def error_of(tmp_path, editorial: str) -> str:
    with pytest.raises(EditionError) as err:
        build_folder(folder(tmp_path, editorial), editorial=True)
    return str(err.value)


def label_of(ed, siglum: str, words: str):
    w = next(x for x in ed.witnesses if x.siglum == siglum)
    at = w.text.index(words)
    return next(
        lab for seg, lab in zip(ed.segments[siglum], ed.assignment[siglum], strict=True) if seg.start <= at < seg.end
    )


def test_the_seeds_file_is_read_and_the_machine_is_measured_without_it():
    machine = build_folder(SEEDS)  # never the editor's file: the figures are the machine's
    edited = build_folder(SEEDS, editorial=True)
    assert machine.editorial == {}
    assert edited.editorial["assign"] >= 1 and edited.editorial["rows"] >= 1
    assert edited.editorial["notes"] == len(_file_notes())  # each of the editor's notes is placed
    assert min(agreement(edited)[0].values()) >= min(agreement(machine)[0].values())
    assert contract_problems(_export(edited), {w.siglum: w.text for w in edited.witnesses}) == []


def _file_notes() -> list:
    """The notes and facts of the seeds' editorial file, read as plain YAML (not by the code under test)."""
    import yaml

    data = yaml.safe_load((SEEDS / "editorial.yaml").read_text(encoding="utf-8"))
    return data["notes"] + data.get("facts", [])


def _export(ed):
    from edition.engine.export import to_dict

    return to_dict(ed)


def test_assign_puts_a_passage_in_an_episode_or_in_none(tmp_path):
    plain = build_folder(folder(tmp_path, ""), editorial=True)
    assert label_of(plain, "A", "長孫無忌") == "liao-marshes"
    ed = build_folder(
        folder(tmp_path, "assign:\n  - {witness: A, from: 長孫無忌, to: 翦草填道。, episode: none}\n"), editorial=True
    )
    assert label_of(ed, "A", "長孫無忌") is None
    assert ed.editorial["assign"] == 1 and ed.editorial["letters reassigned"] == len("長孫無忌將萬人翦草填道")


def test_rows_puts_passages_in_one_row(tmp_path):
    ed = build_folder(
        folder(tmp_path, "rows:\n  - [{witness: A, at: 賜縑百匹。}, {witness: B, at: 大軍班師。}]\n"), editorial=True
    )
    (row,) = [r for ep in ed.episodes for r in ep.rows if "A" in r.cells and r.cells["A"][0].text == "賜縑百匹。"]
    assert [s.text for s in row.cells["B"]] == ["大軍班師。"]
    assert ed.editorial["rows"] == 1


def test_notes_are_the_editors_on_a_passage(tmp_path):
    ed = build_folder(
        folder(tmp_path, "notes:\n  - {witness: B, at: 絹百匹, text: '**絹** 與縑不同。'}\n"), editorial=True
    )
    (note,) = [n for n in ed.notes if n.type == "editor"]
    assert note.lemma_text == "絹百匹" and note.text == "**絹** 與縑不同。" and note.row is not None


def test_facts_are_the_editors_in_the_manner_of_the_apparatus(tmp_path):
    """Who lays out the gift is no fact the machine can state; the editor quotes each witness's words inside a
    passage (``say``), and the note reads as the machine's do, each reading on its words. A witness's words
    are data, never Markdown: A's 縑*百*匹 stays as written."""
    editorial = (
        "facts:\n  - fact: 賜物\n    readings:\n      - {witness: B, at: 天子賜他絹百匹, say: 絹}\n"
        "      - {witness: A, at: 賜縑*百*匹, say: 縑*百*匹}\n    text: '*縑* 與絹不同。'\n"
    )
    ed = build_folder(folder(tmp_path, editorial, (A_TEXT.replace("縑百匹", "縑*百*匹"), B_TEXT)), editorial=True)
    (note,) = [n for n in ed.notes if n.type == "editor"]
    assert note.text == "賜物：A 作縑*百*匹；B 作絹。*縑* 與絹不同。"  # the export quotes the words as written
    texts = {w.siglum: w.text for w in ed.witnesses}
    assert {s: texts[s][a:b] for r in note.readings for s, (a, b) in r.spans.items()} == {"A": "縑*百*匹", "B": "絹"}
    assert note.lemma_text == "絹" and note.row is not None  # the first reading as written is its place
    from edition.engine.export import to_dict
    from edition.site.editor_notes import editor_html, editor_markdown

    (exported,) = [n for n in to_dict(ed)["notes"] if n["type"] == "editor"]
    assert editor_markdown(exported) == "賜物：A 作縑\\*百\\*匹；B 作絹。*縑* 與絹不同。"  # the site escapes them
    shown = str(editor_html(editor_markdown(exported)))
    assert "縑*百*匹" in shown and "<em>縑</em>" in shown  # the witness's words as written; the editor's Markdown
    assert ed.editorial["notes"] == 1


def test_suppress_drops_a_machine_note_and_silent_a_class(tmp_path):
    copy = A_TEXT.replace("縑", "絹").replace("。", "，", 1)
    base = build_folder(folder(tmp_path, "", (A_TEXT, copy)), editorial=True)
    assert {n.cls for n in base.notes} == {"substantive", "punctuation"}
    episode = next(n.episode for n in base.notes if n.cls == "substantive")
    ed = build_folder(
        folder(tmp_path, f"suppress:\n  - {{episode: {episode}, lemma: 縑}}\nsilent: [punctuation]\n", (A_TEXT, copy)),
        editorial=True,
    )
    assert ed.notes == ()
    assert ed.editorial["suppress"] == 1 and ed.silenced == {"punctuation": 1}


def test_a_suppress_that_matches_nothing_is_a_warning_naming_its_line(tmp_path):
    ed = build_folder(folder(tmp_path, "suppress:\n  - {episode: rite, lemma: 無此字}\n"), editorial=True)
    assert any("editorial.yaml, line 2" in w and "無此字" in w for w in ed.warnings)


@pytest.mark.parametrize(
    ("editorial", "words"),
    [
        ("assign:\n  - {witness: A, at: 城主登城拜别, episode: none}\n", ["line 2", "不在", "城主登城拜辭"]),
        ("assign:\n  - {witness: A, at: 上, episode: none}\n", ["line 2", "occurs 1", "quote more words"]),
        ("assign:\n  - {witness: A, at: 敕班師, episode: nowhere}\n", ["line 2", "unknown episode 'nowhere'"]),
        ("assign:\n  - {witness: Z, at: 敕班師, episode: none}\n", ["line 2", "unknown witness 'Z'"]),
        ("rows:\n  - [{witness: A, from: 長孫無忌, to: 敕班師}]\n", ["line 2", "comes before"]),
        ("notes:\n  - {witness: A, at: 敕班師}\n", ["line 2", "'text' is missing"]),
        ("assign: [{witness: A, at: 敕班師\n", ["editorial.yaml, line", "broken YAML"]),
        ("silent: [typos]\n", ["line 1", "'typos' is no note class"]),
        (
            "facts:\n  - fact: 賜物\n    readings:\n      - {witness: A, at: 賜縑百匹, say: 絹}\n",
            ["line 4", "「絹」 is not in the passage 「賜縑百匹」 of witness A"],
        ),
        (
            "facts:\n  - fact: 賜物\n    readings:\n      - {witness: A, at: 賜縑百匹}\n    unsaid: [Z]\n",
            ["line 2", "unknown witness 'Z'"],
        ),
        ("facts:\n  - fact: 賜物\n", ["line 2", "'readings' must list"]),
        ("nonsense: []\n", ["line 1", "unknown section"]),
    ],
    ids=[
        "missing",
        "ambiguous",
        "episode",
        "witness",
        "order",
        "no-text",
        "yaml",
        "silent",
        "fact-words",
        "fact-witness",
        "fact-readings",
        "section",
    ],
)
def test_bad_directives_are_one_clear_error(tmp_path, editorial, words):
    msg = error_of(tmp_path, editorial)
    assert "editorial.yaml" in msg
    for word in words:
        if word == "不在":
            assert "is not in witness A" in msg
        elif word == "occurs 1":
            assert "occurs 2 times" in msg
        else:
            assert word in msg, msg


def test_the_seeds_file_survives_a_change_elsewhere_in_a_witness(tmp_path):
    seeds = tmp_path / "seeds"
    shutil.copytree(SEEDS, seeds)
    witness = seeds / "000_f5ad1a405610c3bb.txt"
    witness.write_text("一段新加的文字。\n" + witness.read_text(encoding="utf-8"), encoding="utf-8")
    ed = build_folder(seeds, editorial=True)  # quotes, not offsets: nothing to update
    assert ed.editorial["notes"] == len(_file_notes())


def test_register_suggest_proposes_the_names_of_an_unseen_corpus(tmp_path):
    """With an empty register, the development set's persons and places are proposed for the editor."""
    import subprocess
    import sys

    from tests.gold import DEV_WITNESSES, ROOT

    folder = tmp_path / "dev"
    shutil.copytree(DEV_WITNESSES, folder)
    (folder / "register.yaml").write_text("persons: []\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "edition", "register", "--suggest", "--seeds", str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    out = done.stdout
    for name in ("李世勣", "薛仁貴", "營州", "幽州", "臨渝闗"):
        assert name in out, name
    import yaml

    data = yaml.safe_load(out)
    assert set(data) == {"persons", "places"} and all("id" in e for e in data["persons"] + data["places"])


COPY = A_TEXT.replace("縑", "絹").replace("草枯", "草黃")  # B a copy of A: 縑 A ] 絹 B, and 枯 A ] 黃 B


def _verdict_of(tmp_path, verdicts: str, texts=(A_TEXT, COPY)):
    ed = build_folder(folder(tmp_path, "verdicts:\n" + verdicts, texts), editorial=True)
    (note,) = [n for n in ed.notes if n.verdict is not None]
    return ed, note


def test_a_verdict_adopts_a_copys_reading_and_says_so(tmp_path):
    """adopt: B on 縑 A ] 絹 B -- 據B改; the export gives the base's words the reading text replaces."""
    ed, note = _verdict_of(tmp_path, "  - {witness: A, at: 賜縑百匹, adopt: B, text: '*絹*，見通鑑。'}\n")
    assert (note.lemma_text, note.verdict.words, note.verdict.sigla) == ("縑", "據B改。", ("B",))
    assert ed.editorial["verdicts"] == 1
    export = _export(ed)
    (x,) = [n for n in export["notes"] if "verdict" in n]
    at = A_TEXT.index("縑")
    assert x["verdict"] == {
        "kind": "adopt",
        "words": "據B改。",
        "sigla": ["B"],
        "reads": "絹",
        "adopted": {"siglum": "A", "start": at, "end": at + 1, "text": "絹", "was": "縑"},
        "text": "*絹*，見通鑑。",
    }
    assert contract_problems(export, {w.siglum: w.text for w in ed.witnesses}) == []
    from edition.site.labels import emended

    assert emended(x["verdict"]) == "「絹」原作「縑」，據B改。"  # as the base's reading text's 校勘記 says it


@pytest.mark.parametrize(
    ("verdict", "words"),
    [
        ("{witness: B, at: 賜絹百匹, adopt: A}", "B 誤。"),  # the base's reading stands
        ("{witness: B, at: 賜絹百匹, suspect: 縑}", "B 疑當作縑。"),
        ("{witness: A, at: 賜縑百匹, suspect: 縑帛}", "疑當作縑帛。"),  # the lemma: no sigla
        ("{witness: A, at: 賜縑百匹, undecided: true}", "未知孰是。"),
        ("{witness: A, at: 賜縑百匹, doubt: true, parallel: {source: 通鑑, reads: 縑}}", "存疑。他校：通鑑作縑。"),
        (
            "{witness: A, at: 賜縑百匹, parallel: [{source: 通鑑, reads: 縑}, {source: 舊唐書, reads: 絹}]}",
            "他校：通鑑作縑。他校：舊唐書作絹。",
        ),
    ],
    ids=["base", "suspect-copy", "suspect-lemma", "undecided", "doubt-parallel", "parallels"],
)
def test_each_verdict_in_the_words_of_a_collation_note(tmp_path, verdict, words):
    _, note = _verdict_of(tmp_path, f"  - {verdict}\n")
    assert note.verdict.words == words
    assert note.verdict.adopted is None


def _bad_verdict(tmp_path, verdicts: str) -> str:
    with pytest.raises(EditionError) as err:
        build_folder(folder(tmp_path, "verdicts:\n" + verdicts, (A_TEXT, COPY)), editorial=True)
    return str(err.value)


BAD_VERDICTS = {  # id: (the verdicts section, what its one error message says)
    "witness": (
        "  - {witness: Z, at: 賜縑百匹, adopt: B}\n",
        ["line 2", "unknown witness 'Z'; the witnesses are A, B"],
    ),
    "words": (
        "  - {witness: A, at: 賜縑千匹, adopt: B}\n",
        ["line 2", "「賜縑千匹」 is not in witness A; closest: 「賜縑百匹」"],
    ),
    "adopt-witness": ("  - {witness: A, at: 賜縑百匹, adopt: Q}\n", ["line 2", "unknown witness 'Q'"]),
    "twice": (
        "  - {witness: A, at: 賜縑百匹, adopt: B}\n  - {witness: B, at: 賜絹百匹, undecided: true}\n",
        ["line 3", "a second verdict on the note 「絹」 (the first at line 2)"],
    ),
    "no-note": (
        "  - {witness: A, at: 長孫無忌, undecided: true}\n",
        ["line 2", "names no collation or fact note: none lies in 「長孫無忌」 of witness A", "closest notes: 「縑」"],
    ),
    "several": (
        "  - {witness: A, from: 草枯, to: 賜縑, undecided: true}\n",
        [
            "line 2",
            "the verdict names 2 notes in 「草枯…賜縑」 of witness A (「枯」、「縑」): quote fewer words or give say:",
        ],
    ),
    "two-kinds": (
        "  - {witness: A, at: 賜縑百匹, adopt: B, doubt: true}\n",
        ["line 2", "one verdict a note; it gives adopt, doubt"],
    ),
    "not-true": ("  - {witness: A, at: 賜縑百匹, undecided: yes please}\n", ["line 2", "'undecided' must be true"]),
    "nothing": ("  - {witness: A, at: 賜縑百匹}\n", ["line 2", "no verdict; give one of adopt"]),
    "parallel": ("  - {witness: A, at: 賜縑百匹, parallel: {source: 通鑑}}\n", ["line 2", "'reads' is missing"]),
    "key": ("  - {witness: A, at: 賜縑百匹, verdict: adopt}\n", ["line 2", "unknown key(s) verdict"]),
}


@pytest.mark.parametrize(("verdicts", "words"), BAD_VERDICTS.values(), ids=BAD_VERDICTS)
def test_bad_verdicts_are_one_clear_error(tmp_path, verdicts, words):
    """Each bad verdict: one message with the file, the line and the closest words (or notes)."""
    msg = _bad_verdict(tmp_path, verdicts)
    assert "editorial.yaml" in msg and "\n" not in msg
    for word in words:
        assert word in msg, msg


def test_a_verdict_adopts_only_within_a_family():
    """A fact note between independent witnesses is judged (suspect, undecided, doubt), never adopted from."""
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        seeds = Path(tmp) / "seeds"
        shutil.copytree(SEEDS, seeds)
        yaml = (seeds / "editorial.yaml").read_text(encoding="utf-8")
        line = '  - {witness: A, at: "令李世、李道宗", say: "李世", suspect: 李世勣'
        assert line in yaml
        (seeds / "editorial.yaml").write_text(
            yaml.replace(line, '  - {witness: A, at: "令李世、李道宗", say: "李世", adopt: C'), encoding="utf-8"
        )
        with pytest.raises(EditionError) as err:
            build_folder(seeds, editorial=True)
    assert "adopt: a reading is adopted within a family" in str(err.value) and "「李世」 (李世勣)" in str(err.value)
