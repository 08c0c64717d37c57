"""The CollateX-compatible alignment table: CollateX's JSON shape, one column per row, every character kept."""

from __future__ import annotations

import json

import pytest

from edition.engine.normalise import is_mark
from edition.interchange.collatex import collatex_table, compared_from_tokens, witness_texts
from tests.interchange_corpora import NAMES, cli_export, corpus


@pytest.fixture(scope="module", params=["seeds", *NAMES])
def case(request, seeds_edition, seeds_export):
    if request.param == "seeds":
        export, texts = seeds_export
        edition = seeds_edition
    else:
        export, texts, edition = corpus(request.param)
    return export, texts, collatex_table(export, texts, compared_from_tokens(edition.tokens))


def test_shape_is_collatex_json(case):
    export, _, table = case
    sigla = [w["siglum"] for w in export["witnesses"]]
    assert table["witnesses"] == sigla
    assert len(table["table"]) == len(sigla)
    width = len(table["columns"])
    assert all(len(row) == width for row in table["table"])
    for siglum, row in zip(sigla, table["table"], strict=True):
        for cell in row:
            assert cell is None or (isinstance(cell, list) and cell)
            for tk in cell or ():
                assert isinstance(tk["t"], str) and tk["t"] and isinstance(tk["n"], str)
                assert tk["_sigil"] == siglum
    json.loads(json.dumps(table, ensure_ascii=False))


def test_joining_the_tokens_gives_back_every_witness(case):
    _, texts, table = case
    assert witness_texts(table) == texts
    for row in table["table"]:
        positions = sorted(tk["_token_array_position"] for cell in row if cell for tk in cell)
        assert positions == list(range(len(positions)))


def test_columns_are_rows_then_unassigned_text(case):
    export, _, table = case
    rows = [(ep["id"], r) for ep in export["episodes"] for r in ep["rows"]]
    index = {s: k for k, s in enumerate(table["witnesses"])}
    cols = table["columns"]
    assert [c.get("row") for c in cols[: len(rows)]] == [r["id"] for _, r in rows]
    for k, (_, row) in enumerate(rows):
        spanned = {s for j in range(max(0, k - 9), k) for s, n in rows[j][1].get("span", {}).items() if j + n > k}
        for s, i in index.items():
            cell = table["table"][i][k]
            if s in row["cells"]:
                got = [(tk["start"], tk["end"]) for tk in cell]
                for frag in row["cells"][s]:  # every character of its fragments is in a token of this cell
                    assert all(any(a <= x < b for a, b in got) for x in range(frag["start"], frag["end"]))
            else:
                assert cell is None, (row["id"], s, s in spanned)
    rest = cols[len(rows) :]
    assert [c["unassigned"] for c in rest] == [s for s in table["witnesses"] for _ in export["unassigned"].get(s, [])]
    for k, c in enumerate(rest, len(rows)):
        assert [s for s, row in zip(table["witnesses"], table["table"], strict=True) if row[k]] == [c["unassigned"]]


def test_tokens_are_letters_with_their_marks_and_compared_forms(seeds_edition, seeds_export):
    export, texts = seeds_export
    table = collatex_table(export, texts, compared_from_tokens(seeds_edition.tokens))
    tokens = {
        s: {tk["start"]: tk for cell in row if cell for tk in cell}
        for s, row in zip(table["witnesses"], table["table"], strict=True)
    }
    starts = {x["start"] for ep in export["episodes"] for r in ep["rows"] for c in r["cells"].values() for x in c}
    starts |= {x["start"] for spans in export["unassigned"].values() for x in spans}
    note = next(n for n in export["notes"] if n["type"] == "collation" and n["class"] == "orthographic")
    base = tokens[note["lemma"]["siglum"]][note["lemma"]["start"]]
    (copy_sig, (start, _)), *_ = note["readings"][0]["spans"].items()
    copy = tokens[copy_sig][start]
    assert base["t"][0] != copy["t"][0] and base["n"] == copy["n"]  # 儘/盡: written otherwise, compared alike
    for row in table["table"]:
        for cell in row:
            for tk in cell or ():
                letters = [ch for ch in tk["t"] if not is_mark(ch)]
                assert len(letters) <= 1  # one letter, with the punctuation and space after it
                if letters:
                    assert tk["t"].index(letters[0]) == 0 or tk["_token_array_position"] == 0 or tk["start"] in starts


def test_cli_writes_the_table(tmp_path):
    table = json.loads(cli_export("collatex", tmp_path / "t.json"))
    assert table["witnesses"] == ["A", "B", "C", "D", "E"]
    assert len({len(r) for r in table["table"]}) == 1
