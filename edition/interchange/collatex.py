"""A CollateX-compatible alignment table, from the ``edition-export/2`` dict and the witness texts.

The JSON CollateX writes (``collate(..., output="json")``): ``witnesses`` (the sigla, in the export's
order) and ``table``, one list per witness, all of the same length; a cell is a list of tokens or
``null`` where the witness has nothing in that column. Here:

- **Columns.** One column per row, episodes in narrative order and rows in order; a witness's cell is
  its fragments in that row (in its own order). A cell that spans rows stands in the first of them;
  the rows it covers are ``null`` for that witness, as are rows it does not tell. Then one column per
  stretch of text outside the episodes (``unassigned``), witness by witness, each with only that
  witness's tokens. Every character of every witness is in exactly one token. ``columns`` (an extra
  key CollateX readers ignore) names each column: ``{"episode", "row"}`` or ``{"unassigned": siglum}``.
- **Tokens** are ``{"t", "n", "_sigil", "_token_array_position", "start", "end"}``. As the engine
  compares, a token is one letter (a character that is not punctuation or space) with the marks that
  follow it; marks before a fragment's first letter go with that letter, and a fragment with no letter
  is one token. ``t`` is the witness's text exactly (``start``:``end``, code points), including the
  whitespace after it up to the next token (so, as in CollateX, ``t`` carries trailing whitespace; the
  witness's leading whitespace goes with its first token). ``n`` is the compared form: the letter in
  one script with variant characters folded (the engine's, when given), or the marks of a letterless
  token with quote styles and widths folded. ``_token_array_position`` numbers a witness's tokens in
  its own order, so joining its ``t`` in that order gives back its text character for character
  (:func:`witness_texts`); only a witness with no characters but whitespace loses it.
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_left
from collections.abc import Callable, Mapping
from typing import Any

from ..engine.convert import char_to_simplified
from ..engine.exported import EditionJson
from ..engine.normalise import is_mark, punct_key

Compared = Callable[[str, int], str]  # (siglum, offset of a letter) -> its compared form


def compared_from_tokens(tokens: Mapping[str, Any]) -> Compared:
    """The engine's compared forms (``Edition.tokens``: per siglum, ``at`` offsets and ``n`` forms)."""

    def n_of(siglum: str, offset: int) -> str:
        tk = tokens[siglum]
        i = bisect_left(tk.at, offset)
        if i < len(tk.at) and tk.at[i] == offset:
            return tk.n[i]
        return _fold(tk.text[offset])

    return n_of


def _fold(ch: str) -> str:
    return char_to_simplified(unicodedata.normalize("NFKC", ch)[:1] or ch)


def _tokens(text: str, start: int, end: int) -> list[tuple[int, int, int | None]]:
    """(start, end, offset of its letter or None) of each token of ``text[start:end]``."""
    letters = [i for i in range(start, end) if not is_mark(text[i])]
    if not letters:
        return [(start, end, None)] if end > start else []
    cuts = [start, *letters[1:], end]
    return [(a, b, k) for a, b, k in zip(cuts[:-1], cuts[1:], letters, strict=True)]


def collatex_table(export: EditionJson, texts: dict[str, str], compared: Compared | None = None) -> dict[str, Any]:
    """The alignment table (see the module's docstring)."""
    sigla = [w["siglum"] for w in export["witnesses"]]
    n_of = compared or (lambda s, i: _fold(texts[s][i]))
    columns: list[dict[str, Any]] = []
    pieces: dict[str, list[tuple[int, int, int]]] = {s: [] for s in sigla}  # (start, end, column)
    for ep in export["episodes"]:
        for row in ep["rows"]:
            col = len(columns)
            columns.append({"episode": ep["id"], "row": row["id"]})
            for s, cell in row["cells"].items():
                pieces[s] += [(x["start"], x["end"], col) for x in cell]
    for s in sigla:
        for sp in export["unassigned"].get(s, []):
            pieces[s].append((sp["start"], sp["end"], len(columns)))
            columns.append({"unassigned": s})
    table: list[list[list[dict[str, Any]] | None]] = []
    for s in sigla:
        text = texts[s]
        row: list[list[dict[str, Any]] | None] = [None] * len(columns)
        toks: list[tuple[int, int, int | None, int]] = []
        for a, b, col in sorted(pieces[s]):
            toks += [(x, y, k, col) for x, y, k in _tokens(text, a, b)]
        out: list[dict[str, Any]] = []
        for pos, (a, b, k, col) in enumerate(toks):
            a = 0 if pos == 0 else a  # leading whitespace: with the first token
            b = toks[pos + 1][0] if pos + 1 < len(toks) else len(text)  # trailing: with the token before
            t = text[a:b]
            n = n_of(s, k) if k is not None else "".join(punct_key(ch) for ch in t if not ch.isspace())
            token = {"t": t, "n": n, "_sigil": s, "_token_array_position": pos, "start": a, "end": b}
            out.append(token)
            cell = row[col]
            if cell is None:
                row[col] = cell = []
            cell.append(token)
        for cell in row:
            if cell:
                cell.sort(key=lambda tk: tk["_token_array_position"])
        table.append(row)
    return {"witnesses": sigla, "table": table, "columns": columns}


def witness_texts(table: dict[str, Any]) -> dict[str, str]:
    """Each witness's text from the table: its tokens' ``t`` in ``_token_array_position`` order."""
    out = {}
    for s, row in zip(table["witnesses"], table["table"], strict=True):
        toks = sorted((tk for cell in row if cell for tk in cell), key=lambda tk: tk["_token_array_position"])
        out[s] = "".join(tk["t"] for tk in toks)
    return out
