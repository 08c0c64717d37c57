"""Every kind of input an editor may feed the engine, each with its defined outcome (issue 4).

Successful builds must keep the export contract (``contract_problems``); bad input must raise
``EditionError`` with a one-line message naming the file, and the CLI must exit 2 with
``error: …`` on stderr and no traceback. docs/inputs.md lists the same outcomes.
"""

from __future__ import annotations

import codecs
import encodings
import itertools
import json
import pkgutil
import random
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from edition.engine.export import to_dict, to_json
from edition.engine.load import load_witnesses
from edition.errors import EditionError
from tests.contract import contract_problems
from tests.support import build_folder as build

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "seeds"
SEED_FILES = sorted(SEEDS.glob("*.txt"))
A_TEXT = SEED_FILES[0].read_text(encoding="utf-8")  # 000: Traditional, “” quotes
B_TEXT = SEED_FILES[1].read_text(encoding="utf-8")  # 001: Traditional, 「」 quotes, encodable in Big5
C_TEXT = SEED_FILES[2].read_text(encoding="utf-8")  # 002: Simplified
TITLES = ["安市對話", "班師", "遼澤", "祭奠", "太子迎駕"]
# Content that means something to Markdown, HTML or MkDocs extensions; the engine must pass it through untouched.
MARKUP = [
    "<script>alert(1)</script>",
    "</div>",
    "&amp;",
    "**粗**",
    "# 標題",
    "[x](javascript:alert(1))",
    "甲|乙|丙",
    "{: .class}",
    "--8<-- 'secret.txt'",
    "正文[^1]",
    "[^1]: 腳註",
]


def folder(
    path: Path, files: dict[str, str | bytes | Path], catalogue: str | None = None, episodes: str | None = None
) -> Path:
    """A seeds folder under ``path``: text is written as UTF-8, bytes as they are, a ``Path`` as a link to it."""
    path.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        if isinstance(content, Path):
            (path / name).symlink_to(content)
        else:
            (path / name).write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    if catalogue is not None:
        (path / "catalogue.yaml").write_text(catalogue, encoding="utf-8")
    if episodes is not None:
        (path / "episodes.yaml").write_text(episodes, encoding="utf-8")
    return path


def built(seeds: Path) -> tuple[Any, dict[str, Any]]:
    """Build, check the whole export contract, and hand back the edition and its export."""
    ed = build(seeds)
    data = to_dict(ed)
    texts = {w.siglum: w.text for w in ed.witnesses}
    assert contract_problems(data, texts) == []
    assert [ep["title"] for ep in data["episodes"]] == TITLES
    return ed, data


def spans_of(data: dict[str, Any], siglum: str) -> list[dict[str, Any]]:
    """Every span of one witness, rows and unassigned together, in text order."""
    out = [sp for ep in data["episodes"] for row in ep["rows"] for sp in row["cells"].get(siglum, [])]
    out += data["unassigned"].get(siglum, [])
    return sorted(out, key=lambda sp: sp["start"])


def without_space(text: str) -> str:
    return "".join(ch for ch in text if not ch.isspace())


def shown(data: dict[str, Any], siglum: str) -> str:
    """A witness's spans joined in text order, whitespace dropped: what a reader can see of it."""
    return without_space("".join(sp["text"] for sp in spans_of(data, siglum)))


def note_count(data: dict[str, Any]) -> int:
    return len(data["notes"])


# ---------------------------------------------------------------- encodings


@pytest.mark.parametrize(
    "raw",
    [
        codecs.BOM_UTF8 + A_TEXT.encode("utf-8"),
        codecs.BOM_UTF16_LE + A_TEXT.encode("utf-16-le"),
        codecs.BOM_UTF16_BE + A_TEXT.encode("utf-16-be"),
    ],
    ids=["utf-8-bom", "utf-16-le-bom", "utf-16-be-bom"],
)
def test_bom_files_decode_to_the_text_without_the_bom(tmp_path, raw):
    ed, data = built(folder(tmp_path, {"a.txt": raw}))
    assert ed.witnesses[0].text == A_TEXT
    assert data["witnesses"][0]["length"] == len(A_TEXT)
    assert ed.warnings == []


@pytest.mark.parametrize(
    ("text", "encoding", "script"),
    [(C_TEXT, "gb18030", "Hans"), (B_TEXT, "big5", "Hant")],
    ids=["gb18030", "big5"],
)
def test_encoding_named_in_the_catalogue_decodes_exactly(tmp_path, text, encoding, script):
    raw = text.encode(encoding)
    assert raw != text.encode("utf-8")  # the test means something only if the bytes differ
    cat = f"witnesses:\n  - file: legacy.txt\n    encoding: {encoding}\n"
    ed, data = built(folder(tmp_path, {"legacy.txt": raw}, catalogue=cat))
    assert ed.witnesses[0].text == text
    assert data["witnesses"][0]["script"] == script
    assert shown(data, "A") == without_space(text)


@pytest.mark.parametrize("encoding", ["gb18030", "big5"])
def test_undeclared_legacy_encoding_names_file_and_first_bad_byte(tmp_path, encoding):
    head = "ABC 123\n"  # ASCII, valid in every encoding: the first bad byte is right after it
    raw = (head + "安市城主").encode(encoding)
    seeds = folder(tmp_path, {"a.txt": A_TEXT, "legacy.txt": raw})
    with pytest.raises(EditionError) as err:
        build(seeds)
    msg = str(err.value)
    assert "legacy.txt" in msg
    assert f"offset {len(head)}" in msg
    assert f"0x{raw[len(head)]:02x}" in msg


def test_undeclared_legacy_encoding_offset_agrees_with_python(tmp_path):
    raw = C_TEXT.encode("gb18030")
    with pytest.raises(UnicodeDecodeError) as oracle:
        raw.decode("utf-8")
    with pytest.raises(EditionError) as err:
        build(folder(tmp_path, {"c.txt": raw}))
    assert f"offset {oracle.value.start}" in str(err.value)


def test_bad_byte_offset_counts_the_utf8_bom(tmp_path):
    raw = codecs.BOM_UTF8 + "安市".encode() + b"\xff" + "城".encode()
    with pytest.raises(EditionError) as err:
        build(folder(tmp_path, {"a.txt": raw}))
    assert "offset 9" in str(err.value)  # 3 (BOM) + 6 (two characters) bytes into the file
    assert "0xff" in str(err.value)


def test_bad_byte_in_a_declared_encoding_names_its_offset(tmp_path):
    raw = "安市".encode("gb18030") + b"\xff\xff"
    cat = "witnesses:\n  - file: a.txt\n    encoding: gb18030\n"
    with pytest.raises(EditionError) as err:
        build(folder(tmp_path, {"a.txt": raw}, catalogue=cat))
    assert "a.txt" in str(err.value) and "offset 4" in str(err.value) and "gb18030" in str(err.value)


@pytest.mark.parametrize(
    "raw",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00",
        b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)),
        "安市城主".encode() + b"\x01\x02\x03\x04",
    ],
    ids=["png", "elf", "control-characters"],
)
def test_binary_file_is_a_clear_error(tmp_path, raw):
    with pytest.raises(EditionError) as err:
        build(folder(tmp_path, {"a.txt": A_TEXT, "blob.txt": raw}))
    msg = str(err.value)
    assert "blob.txt" in msg and "binary" in msg


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_bom_is_a_clear_error(tmp_path, encoding):
    # Never guessed: with ASCII in it the NUL bytes make it "binary"; without, it is not UTF-8.
    for i, text in enumerate(["第1回 安市城主", "安市城主"]):
        with pytest.raises(EditionError) as err:
            build(folder(tmp_path / str(i), {"u16.txt": text.encode(encoding)}))
        msg = str(err.value)
        assert "u16.txt" in msg and ("binary" in msg or "cannot be decoded" in msg) and "offset" in msg


@pytest.mark.parametrize(("encoding", "bom"), [("utf-8", codecs.BOM_UTF8), ("utf-16-le", codecs.BOM_UTF16_LE)])
def test_bom_is_not_text_when_the_encoding_is_named(tmp_path, encoding, bom):
    cat = f"witnesses:\n  - file: a.txt\n    encoding: {encoding}\n"
    ed, data = built(folder(tmp_path, {"a.txt": bom + A_TEXT.encode(encoding), "b.txt": A_TEXT}, catalogue=cat))
    assert ed.witnesses[0].text == A_TEXT
    assert note_count(data) == 0  # the same text as b.txt: no stray U+FEFF to note


def test_hidden_files_are_not_witnesses(tmp_path):
    files = {"a.txt": A_TEXT, "._a.txt": b"\x00\x05\x16\x07\x00\x02Mac OS X", ".#a.txt": b"root@h", "B.TXT": C_TEXT}
    _ed, data = built(folder(tmp_path, files))
    assert [w["file"] for w in data["witnesses"]] == ["a.txt"]


def test_whitespace_only_file_warns_and_is_an_empty_witness(tmp_path):
    blank = " \n\u3000\u3000\n\t\r\n"
    ed, data = built(folder(tmp_path, {"a.txt": A_TEXT, "b_blank.txt": blank}))
    assert [w["file"] for w in data["witnesses"]] == ["a.txt", "b_blank.txt"]
    assert len(ed.warnings) == 1
    assert "b_blank.txt" in ed.warnings[0] and "whitespace" in ed.warnings[0]
    assert spans_of(data, "B") == []
    assert data["witnesses"][1]["length"] == len(blank.replace("\r\n", "\n"))
    # It has no text to place anywhere, and copies nothing: no note names it.
    assert not [n for n in data["notes"] for r in n["readings"] if "B" in r["sigla"]]
    assert spans_of(data, "A")  # the other witness is untouched


def test_cli_prints_the_whitespace_warning(tmp_path):
    seeds = folder(tmp_path, {"a.txt": A_TEXT, "blank.txt": "\u3000\n"})
    done = run_cli("check", seeds)
    assert done.returncode == 0, done.stderr
    assert "warning:" in done.stderr and "blank.txt" in done.stderr


# ---------------------------------------------------------------- layout


@pytest.mark.parametrize("newline", ["\r\n", "\r"], ids=["crlf", "cr"])
def test_crlf_and_cr_give_the_same_edition_as_lf(tmp_path, newline):
    lf = built(folder(tmp_path / "lf", {"a.txt": A_TEXT, "c.txt": C_TEXT}))[1]
    other = {"a.txt": A_TEXT.replace("\n", newline), "c.txt": C_TEXT.replace("\n", newline)}
    ed, data = built(folder(tmp_path / "other", other))
    assert ed.witnesses[0].text == A_TEXT
    assert data == lf


def test_one_megabyte_line_without_punctuation_loses_nothing(tmp_path):
    # About 1 MB of UTF-8 (333,334 Han characters from the seeds, 3 bytes each) on a single line.
    han = sorted({ch for ch in A_TEXT + C_TEXT if "\u4e00" <= ch <= "\u9fff"})
    rng = random.Random(645)
    line = "".join(rng.choice(han) for _ in range(333_334))
    assert len(line.encode("utf-8")) >= 1_000_000
    _ed, data = built(folder(tmp_path, {"a.txt": A_TEXT, "big.txt": line}))
    spans = spans_of(data, "B")
    assert "".join(sp["text"] for sp in spans) == line
    assert all(a["end"] <= b["start"] for a, b in itertools.pairwise(spans))


def test_lines_of_only_ellipsis_marks_are_kept(tmp_path):
    text = "。。。。。。\n" + A_TEXT[:600] + "\n。。。。。。\n……\n" + A_TEXT[600:1200] + "\n。。。。。。"
    _ed, data = built(folder(tmp_path, {"a.txt": A_TEXT, "dots.txt": text}))
    assert shown(data, "B") == without_space(text)


def test_a_witness_of_only_punctuation_is_valid(tmp_path):
    text = "。。。。。。\n，，，\n「」“”！？\n"
    _ed, data = built(folder(tmp_path, {"a.txt": A_TEXT, "marks.txt": text}))
    assert shown(data, "B") == without_space(text)


HALF = str.maketrans({"，": ",", "！": "!", "？": "?", "：": ":", "；": ";", "“": '"', "”": '"'})


def test_half_width_punctuation_differs_only_in_punctuation(tmp_path):
    half = A_TEXT.translate(HALF)
    assert half != A_TEXT
    ed, data = built(folder(tmp_path, {"a.txt": A_TEXT, "b.txt": half}))
    assert ed.witnesses[1].text == half
    classes = {n["class"] for n in data["notes"]}
    assert classes <= {"punctuation"}, classes


def test_full_width_spaces_are_whitespace_not_text(tmp_path):
    indented = "\n".join("\u3000\u3000" + line if line else line for line in A_TEXT.split("\n"))
    ed, data = built(folder(tmp_path, {"a.txt": A_TEXT, "b.txt": indented}))
    assert ed.witnesses[1].text == indented
    assert all(not sp["text"][0].isspace() for sp in spans_of(data, "B"))
    assert note_count(data) == 0  # same words, same punctuation: nothing to note


def test_witness_with_no_episode_is_all_unassigned(tmp_path):
    text = "今天天氣很好，我們去公園散步。\n公園裏有很多花，紅的、黃的、白的。\n回家以後，我寫了一篇日記。\n"
    _ed, data = built(folder(tmp_path, {"a.txt": A_TEXT, "diary.txt": text}))
    assert all(row["cells"].get("B", []) == [] for ep in data["episodes"] for row in ep["rows"])
    assert without_space("".join(sp["text"] for sp in data["unassigned"]["B"])) == without_space(text)


def test_alone_a_witness_with_no_episode_still_lists_every_episode(tmp_path):
    text = "今天天氣很好，我們去公園散步。"
    _ed, data = built(folder(tmp_path, {"diary.txt": text}))
    assert all(ep["rows"] == [] for ep in data["episodes"]) and data["notes"] == []
    assert [sp["text"] for sp in data["unassigned"]["A"]] == [text]


# ---------------------------------------------------------------- names


def test_file_names_with_spaces_and_cjk(tmp_path):
    files = {"第一本 安市 城.txt": A_TEXT, "b c d.txt": C_TEXT}
    cat = "witnesses:\n  - file: 第一本 安市 城.txt\n    siglum: 甲\n    title: 第一本\n"
    ed, data = built(folder(tmp_path, files, catalogue=cat))
    assert [(w["file"], w["siglum"]) for w in data["witnesses"]] == [("b c d.txt", "A"), ("第一本 安市 城.txt", "甲")]
    assert ed.witnesses[1].text == A_TEXT


def test_a_link_to_a_file_outside_the_folder_is_refused(tmp_path):
    secret = tmp_path / "home" / "id_rsa"
    secret.parent.mkdir()
    secret.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n", encoding="utf-8")
    for target in (secret, Path("../home/id_rsa")):  # absolute or relative, the file it reaches is outside
        seeds = folder(tmp_path / f"seeds{len(str(target))}", {"a.txt": A_TEXT, "005_key.txt": target})
        with pytest.raises(EditionError) as err:
            build(seeds)
        assert str(err.value) == (
            f"{seeds / '005_key.txt'}: is a link to {secret}, outside {seeds}: "
            "the edition reads only what is in its folder"
        )


@pytest.mark.parametrize("data_file", ["catalogue.yaml", "episodes.yaml", "register.yaml", "variants.tsv"])
def test_a_link_to_a_data_file_outside_the_folder_is_refused(tmp_path, data_file):
    outside = folder(tmp_path / "elsewhere", {}, catalogue="witnesses: []\n", episodes=EPISODE)
    (outside / "register.yaml").write_text("persons: []\n", encoding="utf-8")
    (outside / "variants.tsv").write_text("# root:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    seeds = folder(tmp_path / "seeds", {"a.txt": A_TEXT, data_file: outside / data_file})
    with pytest.raises(EditionError) as err:
        build(seeds)
    assert str(err.value).startswith(f"{seeds / data_file}: is a link to {outside / data_file}, outside {seeds}")


def test_links_within_the_folder_are_read(tmp_path):
    seeds = folder(tmp_path, {"a.txt": A_TEXT, "b.txt": Path("a.txt"), "c.txt": Path("kept/c.txt")})
    folder(seeds / "kept", {"c.txt": C_TEXT})
    ed, _data = built(seeds)
    assert [w.text for w in ed.witnesses] == [A_TEXT, A_TEXT, C_TEXT]
    assert ed.warnings == []


def test_dangling_links_and_loops_warn_and_are_skipped(tmp_path):
    links = {"b.txt": Path("gone.txt"), "c.txt": Path("c.txt"), "d1.txt": Path("d2.txt"), "d2.txt": Path("d1.txt")}
    ed, data = built(folder(tmp_path, {"a.txt": A_TEXT, **links}))
    assert [w["file"] for w in data["witnesses"]] == ["a.txt"]
    assert ed.warnings == [
        f"{tmp_path / 'b.txt'}: a link to nothing; skipped, not a witness",
        f"{tmp_path / 'c.txt'}: a loop of links; skipped, not a witness",
        f"{tmp_path / 'd1.txt'}: a loop of links; skipped, not a witness",
        f"{tmp_path / 'd2.txt'}: a loop of links; skipped, not a witness",
    ]


def test_a_folder_that_cannot_be_listed_is_a_clear_error(tmp_path, monkeypatch):
    # As root every folder can be listed: the refusal is simulated, the message is the real one.
    def refuse(self):
        raise PermissionError(13, "Permission denied", str(self))

    seeds = folder(tmp_path, {"a.txt": A_TEXT})
    monkeypatch.setattr(Path, "iterdir", refuse)
    with pytest.raises(EditionError) as err:
        build(seeds)
    assert str(err.value) == f"{seeds}: cannot be listed (Permission denied)"


def test_two_files_with_one_siglum_is_a_clear_error(tmp_path):
    cat = "witnesses:\n  - file: a.txt\n    siglum: X\n  - file: b.txt\n    siglum: X\n"
    with pytest.raises(EditionError) as err:
        build(folder(tmp_path, {"a.txt": A_TEXT, "b.txt": C_TEXT}, catalogue=cat))
    msg = str(err.value)
    assert "catalogue.yaml" in msg and "a.txt" in msg and "b.txt" in msg and "'X'" in msg


def test_catalogued_siglum_is_never_reused_as_a_default(tmp_path):
    cat = "witnesses:\n  - file: a.txt\n    siglum: B\n"
    _ed, data = built(folder(tmp_path, {"a.txt": A_TEXT, "b.txt": C_TEXT}, catalogue=cat))
    assert [w["siglum"] for w in data["witnesses"]] == ["B", "A"]


# ---------------------------------------------------------------- catalogue and episode data

EPISODE = "episodes:\n  - id: x\n    title: X\n    cues: [城主]\n"


@pytest.mark.parametrize(
    ("data_file", "text", "line"),
    [
        ("catalogue.yaml", "witnesses:\n  - file: a.txt\n   siglum: [X\n", 3),
        ("catalogue.yaml", "witnesses:\n  - file: a.txt\n\ttitle: T\n", 3),
        ("episodes.yaml", "episodes:\n  - id: x\n    title: X\n    cues: [城主\n  - id: y\n", 4),
        ("episodes.yaml", "episodes:\n  - id: x\n    title: 'X\n", 3),
        # a quote left open runs on to the next quote, here in a comment far below: the line of the mistake
        ("register.yaml", 'persons:\n  - id: a\n    name: "甲\n    aliases: [甲]\n' + "# x\n" * 50 + '# "q" a: b\n', 3),
    ],
    ids=["catalogue-indent", "catalogue-tab", "episodes-bracket", "episodes-quote", "register-quote"],
)
def test_malformed_yaml_names_the_file_and_line(tmp_path, data_file, text, line):
    msg = data_file_error(tmp_path, data_file, text)
    assert data_file in msg and f", line {line}:" in msg


def test_a_python_tag_runs_nothing(tmp_path):
    made = tmp_path / "made"
    msg = data_file_error(tmp_path, "catalogue.yaml", f"witnesses: !!python/object/apply:os.system [touch {made}]\n")
    assert "catalogue.yaml, line 1: broken YAML at column 12: could not determine a constructor" in msg
    assert not made.exists()


def data_file_error(tmp_path, data_file: str, text: str) -> str:
    """The error message of a build whose data file ``data_file`` holds ``text``."""
    seeds = folder(tmp_path, {"a.txt": A_TEXT})
    (seeds / data_file).write_text(text, encoding="utf-8")
    with pytest.raises(EditionError) as err:
        build(seeds)
    return str(err.value)


@pytest.mark.parametrize("bom", [b"", codecs.BOM_UTF8], ids=["plain", "bom"])
@pytest.mark.parametrize("data_file", ["catalogue.yaml", "episodes.yaml"])
def test_data_file_not_in_utf8_names_the_first_bad_byte(tmp_path, data_file, bom):
    seeds = folder(tmp_path, {"a.txt": A_TEXT})
    head = b"# ok\n"
    (seeds / data_file).write_bytes(bom + head + "# 安市\n".encode("gb18030"))
    with pytest.raises(EditionError) as err:
        build(seeds)
    msg = str(err.value)
    assert data_file in msg and f"byte {len(bom) + len(head) + 2}" in msg  # after "# ", the GB18030 安


@pytest.mark.parametrize(
    ("data_file", "text", "key"),
    [
        ("catalogue.yaml", "witnesses:\n  - file: a.txt\n    sigil: X\n", "sigil"),
        ("catalogue.yaml", "witnesses:\n  - file: a.txt\nwitness:\n  - file: a.txt\n", "witness"),
        ("episodes.yaml", "episodes:\n  - id: x\n    title: X\n    cue: [城主]\n", "cue"),
        ("episodes.yaml", EPISODE + "extra: 1\n", "extra"),
    ],
    ids=["catalogue-entry", "catalogue-top", "episodes-entry", "episodes-top"],
)
def test_unknown_keys_are_a_clear_error(tmp_path, data_file, text, key):
    msg = data_file_error(tmp_path, data_file, text)
    assert data_file in msg and "unknown" in msg and key in msg


@pytest.mark.parametrize(
    ("data_file", "text", "message"),
    [
        (
            "catalogue.yaml",
            "witnesses:\n  - file: a.txt\n    siglum: C\n    siglum: Z\n",
            "line 4: key 'siglum' is given twice in one mapping (lines 3 and 4)",
        ),
        (
            "catalogue.yaml",
            "witnesses:\n  - file: a.txt\nwitnesses:\n  - file: b.txt\n",
            "line 3: key 'witnesses' is given twice in one mapping (lines 1 and 3)",
        ),
        (
            "episodes.yaml",
            EPISODE + "    title: Y\n",
            "line 5: key 'title' is given twice in one mapping (lines 3 and 5)",
        ),
        (
            "editorial.yaml",
            'notes:\n  - {witness: A, at: 城主, text: "first", text: "second"}\n',
            "line 2: key 'text' is given twice in one mapping (line 2, columns 26 and 41)",
        ),
        (
            "register.yaml",
            "persons:\n  - id: li\n    name: 李世民\n    aliases: [太宗]\n    name: 李世勣\n",
            "line 5: key 'name' is given twice in one mapping (lines 3 and 5)",
        ),
        (
            "parameters.yaml",
            "match: 0.5\nmatch: 0.6\n",
            "line 2: key 'match' is given twice in one mapping (lines 1 and 2)",
        ),
    ],
    ids=["catalogue-entry", "catalogue-top", "episodes", "editorial", "register", "parameters"],
)
def test_a_key_given_twice_is_a_clear_error(tmp_path, data_file, text, message):
    seeds = folder(tmp_path, {"a.txt": A_TEXT})
    (seeds / data_file).write_text(text, encoding="utf-8")
    with pytest.raises(EditionError) as err:
        build(seeds, editorial=True)
    assert str(err.value) == f"{seeds / data_file}, {message}; YAML would keep only the last"


# A kilobyte or less each: merge keys of merge keys (the issue's), aliases of aliases (the "billion laughs"),
# and nesting deeper than libyaml's composer survives (it recurses on the C stack and crashes the process).
BOMBS = {
    "merge-keys": (
        "m0: &m0 {a: 1, b: 2}\n"
        + "".join(f"m{i}: &m{i} {{<<: [{', '.join([f'*m{i - 1}'] * 9)}]}}\n" for i in range(1, 12)),
        "line 2: merge key '<<' at column 10",
    ),
    "aliases": (
        "l0: &l0 [安, 市, 城, 主, 楊, 萬, 春, 唐, 太]\n"
        + "".join(f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]\n" for i in range(1, 12)),
        "line 2: alias '*l0' at column 10",
    ),
    "nesting": ("a: " + "[" * 50_000 + "]" * 50_000 + "\n", "line 1: lists and mappings nested more than 50 deep"),
}
YAML_FILES = ["catalogue.yaml", "episodes.yaml", "editorial.yaml", "register.yaml"]


@pytest.mark.parametrize("bomb", sorted(BOMBS))
def test_a_yaml_bomb_is_refused_in_a_second_and_a_few_megabytes(tmp_path, bomb):
    text, where = BOMBS[bomb]
    path = tmp_path / "register.yaml"
    path.write_text(text, encoding="utf-8")
    # In a child: a bomb that went off would take the machine's memory, a hang the test's time, a crash pytest.
    child = textwrap.dedent(
        f"""
        import json, resource, sys, time, tracemalloc
        from pathlib import Path
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
        from edition.engine.datafile import read_yaml
        from edition.errors import EditionError
        tracemalloc.start()
        t0 = time.perf_counter()
        try:
            read_yaml(Path({str(path)!r}))
        except EditionError as err:
            print(json.dumps([str(err), time.perf_counter() - t0, tracemalloc.get_traced_memory()[1]]))
        """
    )
    done = subprocess.run([sys.executable, "-c", child], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    message, seconds, peak = json.loads(done.stdout)
    assert message.startswith(f"{path}, {where}")
    assert seconds < 1.0 and peak < 4_000_000, (seconds, peak)


@pytest.mark.parametrize("data_file", YAML_FILES)
def test_the_cli_refuses_a_bomb_in_any_data_file(tmp_path, data_file):
    seeds = folder(tmp_path, {"a.txt": A_TEXT})
    (seeds / data_file).write_text(BOMBS["merge-keys"][0], encoding="utf-8")
    done = run_cli("check", seeds)  # within its timeout
    assert done.returncode == 2 and done.stdout == ""
    refused = "aliases (*name) and merge keys (<<) are not allowed in the edition's files"
    assert done.stderr.startswith(f"error: {seeds / data_file}, {BOMBS['merge-keys'][1]}: {refused}")
    assert done.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("episodes:\n  - id: x\n    cues: [城主]\n", ["'x'", "title"]),
        ("episodes:\n  - id: x\n    title: '  '\n", ["'x'", "title"]),
        ("episodes:\n  - id: x\n    title: X\n  - id: x\n    title: Y\n", ["duplicate", "'x'"]),
        ("episodes:\n  - id: x\n    title: X\n    base: Q\n", ["unknown key", "base"]),
        ("episodes:\n  - title: X\n", ["'id'"]),
        ("episodes: []\n", ["no episode"]),
    ],
    ids=["no-title", "blank-title", "duplicate-id", "base-is-not-an-episode-key", "no-id", "empty"],
)
def test_bad_episode_definitions_are_clear_errors(tmp_path, text, words):
    with pytest.raises(EditionError) as err:
        build(folder(tmp_path, {"a.txt": A_TEXT}, episodes=text))
    msg = str(err.value)
    assert "episodes.yaml" in msg
    for word in words:
        assert word in msg


@pytest.mark.parametrize(
    "catalogue, named",
    [
        ("witnesses:\n  - file: a.txt\n    encoding: klingon-8\n", "klingon-8"),  # an unknown encoding
        ("witnesses:\n  - file: nowhere.txt\n    siglum: N\n", "nowhere.txt"),  # an entry for a missing file
    ],
)
def test_catalogue_mistakes_are_clear_errors(tmp_path, catalogue, named):
    with pytest.raises(EditionError) as err:
        build(folder(tmp_path, {"a.txt": A_TEXT}, catalogue=catalogue))
    assert "catalogue.yaml" in str(err.value) and named in str(err.value)


@pytest.mark.parametrize("encoding", ["hex", "rot13", "zlib", "base64", "uu", "bz2", "quopri"])
def test_a_codec_that_is_not_a_text_encoding_is_a_clear_error(tmp_path, encoding):
    cat = f"witnesses:\n  - file: a.txt\n    title: T\n    encoding: {encoding}\n"
    with pytest.raises(EditionError) as err:
        build(folder(tmp_path, {"a.txt": b"616263"}, catalogue=cat))
    assert str(err.value).endswith(
        f"catalogue.yaml, line 4: witness entry 1: '{encoding}' is not a text encoding (e.g. gb18030, big5, utf-16)"
    )


@pytest.mark.parametrize(
    ("encoding", "half"),
    [("unicode_escape", rb"\ud800"), ("raw_unicode_escape", rb"\udfff"), ("utf-7", b"+2AA-")],
)
def test_a_decoded_half_surrogate_is_a_clear_error(tmp_path, encoding, half):
    # Such a "character" cannot be written as UTF-8: it used to escape as a UnicodeEncodeError from the digest.
    raw = "安市\n".encode(encoding) + b"xy" + half
    cat = f"witnesses:\n  - file: a.txt\n    encoding: {encoding}\n"
    with pytest.raises(EditionError) as err:
        build(folder(tmp_path, {"a.txt": raw}, catalogue=cat))
    assert str(err.value).startswith(f"{tmp_path / 'a.txt'}, line 2: decoded as {encoding} it holds U+D")
    assert str(err.value).endswith("half of a UTF-16 pair and no character, at character 5")


@pytest.mark.parametrize(("encoding", "raw"), [("idna", b"xn--zz"), ("punycode", b"a b"), ("undefined", b"a")])
def test_a_codec_failing_without_a_position_is_a_clear_error(tmp_path, encoding, raw):
    cat = f"witnesses:\n  - file: a.txt\n    encoding: {encoding}\n"
    with pytest.raises(EditionError) as err:
        build(folder(tmp_path, {"a.txt": raw}, catalogue=cat))
    assert str(err.value).startswith(f"{tmp_path / 'a.txt'}: cannot be decoded as {encoding}: ")


CODECS = sorted(m.name for m in pkgutil.iter_modules(encodings.__path__))
# Bytes that trip one codec or another: escapes of half a UTF-16 pair, punycode, a UTF-16 BOM and a lone half.
TRICKY = [rb"\ud800 +2AA- xn--zz a..b \\", "安市城主。\n".encode(), b"\xff\xfe\x00\xd8", b"plain\n"]


@pytest.mark.parametrize("encoding", [*CODECS, "utf\\0"])
def test_every_codec_python_has_gives_a_text_or_a_clear_error(tmp_path, encoding):
    """No codec name, on no bytes, lets another exception out of loading (it would be a traceback, or stop `serve`)."""
    cat = f'witnesses:\n  - file: a.txt\n    encoding: "{encoding}"\n'
    for i, raw in enumerate(TRICKY):
        seeds = folder(tmp_path / str(i), {"a.txt": raw}, catalogue=cat)
        try:
            (witness,) = load_witnesses(seeds, [])
        except EditionError as err:
            assert str(err).startswith(str(seeds))
        else:
            assert witness.text.encode("utf-8")  # a text every later stage can write


def test_editor_episodes_replace_the_packaged_ones(tmp_path):
    ed = build(folder(tmp_path, {"a.txt": A_TEXT}, episodes=EPISODE))
    data = to_dict(ed)
    assert contract_problems(data, {"A": A_TEXT}) == []
    assert [ep["title"] for ep in data["episodes"]] == ["X"]


# ---------------------------------------------------------------- content that is markup elsewhere


def test_markup_in_witness_text_comes_through_the_export_byte_exact(tmp_path):
    # Each piece on its own line, and all of them inside an episode passage of a copy of A.
    cut = A_TEXT.index("\n", len(A_TEXT) // 3)
    marked = A_TEXT[:cut] + "".join(MARKUP) + "\n" + "\n".join(MARKUP) + A_TEXT[cut:]
    raw = marked.encode("utf-8")
    ed, data = built(folder(tmp_path, {"a.txt": A_TEXT, "b.txt": raw}))
    assert ed.witnesses[1].text.encode("utf-8") == raw
    text_b = shown(data, "B")
    for piece in MARKUP:
        assert without_space(piece) in text_b
        assert any(without_space(piece) in without_space(sp["text"]) for sp in spans_of(data, "B")), piece
    back = json.loads(to_json(to_dict(ed)))
    assert back == data
    assert "<script>alert(1)</script>" in to_json(to_dict(ed))  # JSON, not HTML: nothing escaped
    texts = {w.siglum: w.text for w in ed.witnesses}
    assert contract_problems(data, texts) == []


# ---------------------------------------------------------------- counts


def test_zero_witnesses_is_a_clear_error(tmp_path):
    seeds = folder(tmp_path, {"notes.md": "no witness here"}, catalogue="witnesses: []\n")
    with pytest.raises(EditionError) as err:
        build(seeds)
    assert str(tmp_path) in str(err.value) and "no witness" in str(err.value)


def test_missing_seeds_folder_is_a_clear_error(tmp_path):
    with pytest.raises(EditionError) as err:
        build(tmp_path / "nowhere")
    assert "nowhere" in str(err.value)


def test_one_witness_is_valid_with_no_notes(tmp_path):
    _ed, data = built(folder(tmp_path, {"a.txt": A_TEXT}))
    assert note_count(data) == 0
    assert any(ep["rows"] for ep in data["episodes"])
    assert all(set(row["cells"]) <= {"A"} for ep in data["episodes"] for row in ep["rows"])


def thirty_witnesses() -> dict[str, str]:
    """Thirty witnesses made from the five seeds by simple, text-preserving or text-cutting transforms."""
    transforms = [
        lambda t: t,
        lambda t: t.replace("\n", "\r\n"),
        lambda t: "\n".join("\u3000\u3000" + line for line in t.split("\n")),
        lambda t: t.translate(HALF),
        lambda t: t[: len(t) * 2 // 3],
        lambda t: t.replace("。", "。\n"),
    ]
    out = {}
    for i, path in enumerate(SEED_FILES):
        text = path.read_text(encoding="utf-8")
        for j, transform in enumerate(transforms):
            out[f"{i:02d}_{j}.txt"] = transform(text)
    return out


def test_thirty_witnesses_make_a_valid_export(tmp_path):
    files = thirty_witnesses()
    assert len(files) == 30
    _ed, data = built(folder(tmp_path, files))
    sigla = [w["siglum"] for w in data["witnesses"]]
    assert sigla == [*"ABCDEFGHIJKLMNOPQRSTUVWXYZ", "AA", "AB", "AC", "AD"]
    assert [w["file"] for w in data["witnesses"]] == sorted(files)
    assert note_count(data) > 0


# ---------------------------------------------------------------- the CLI around bad input


def run_cli(command: str, seeds: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "edition", command, "--seeds", str(seeds)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


BAD = {
    "undeclared-gb18030": ({"a.txt": A_TEXT, "g.txt": C_TEXT.encode("gb18030")}, None, None, "g.txt"),
    "binary": ({"a.txt": A_TEXT, "blob.txt": b"\x00\x01\x02PK"}, None, None, "blob.txt"),
    "broken-catalogue": ({"a.txt": A_TEXT}, "witnesses:\n - file: [a.txt\n", None, "catalogue.yaml"),
    "duplicate-siglum": (
        {"a.txt": A_TEXT, "b.txt": C_TEXT},
        "witnesses:\n  - file: a.txt\n    siglum: X\n  - file: b.txt\n    siglum: X\n",
        None,
        "catalogue.yaml",
    ),
    "duplicate-episode": (
        {"a.txt": A_TEXT},
        None,
        "episodes:\n  - id: x\n    title: X\n  - id: x\n    title: Y\n",
        "episodes.yaml",
    ),
    "zero-witnesses": ({}, None, None, ""),
    "hex-encoding": ({"a.txt": b"e5ae89"}, "witnesses:\n  - file: a.txt\n    encoding: hex\n", None, "catalogue.yaml"),
    "half-surrogate": (
        {"a.txt": rb"\u5b89\ud800"},
        "witnesses:\n  - file: a.txt\n    encoding: unicode_escape\n",
        None,
        "a.txt",
    ),
    "link-out": ({"a.txt": A_TEXT, "b.txt": SEED_FILES[1]}, None, None, "b.txt"),
    "duplicate-key": (
        {"a.txt": A_TEXT},
        "witnesses:\n  - file: a.txt\n    title: X\n    title: Y\n",
        None,
        "catalogue.yaml",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD))
@pytest.mark.parametrize("command", ["check", "export"])
def test_cli_bad_input_exits_2_with_one_clear_line(tmp_path, case, command):
    files, cat, eps, name = BAD[case]
    seeds = folder(tmp_path / "seeds", files, catalogue=cat, episodes=eps)
    done = run_cli(command, seeds)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("error: ")
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert str(seeds / name) in done.stderr


def test_an_editors_folded_description_shows_no_space_between_chinese_characters(tmp_path):
    """YAML folds a long value's lines with a space (``>-``), which Chinese does not have: the seeds' episodes.yaml
    breaks 班師's description after 內地， and the page showed 內地， 耀兵. An editor's description reads as one line
    of Chinese; a space beside a Latin letter stays, and a witness's text is untouched (its spaces are its own)."""
    from edition.engine.episodes import load_episodes

    path = tmp_path / "episodes.yaml"
    path.write_text(
        "episodes:\n  - id: a\n    title: 班師\n    description: >-\n"
        "      先遷戶口入內地，\n      耀兵於城下；與 A 同\n",
        encoding="utf-8",
    )
    ((episode,), _) = load_episodes(path)
    assert episode.description == "先遷戶口入內地，耀兵於城下；與 A 同"
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "a.txt").write_text("甲乙， 丙丁。\n", encoding="utf-8")
    (folder / "catalogue.yaml").write_text(
        "witnesses:\n  - file: a.txt\n    description: >-\n      簡體字本；\n      城主不具名\n", encoding="utf-8"
    )
    (witness,) = load_witnesses(folder, [])
    assert witness.meta.description == "簡體字本；城主不具名"
    assert witness.text == "甲乙， 丙丁。\n"
