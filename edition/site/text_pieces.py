"""Witness text cut into the pieces the ``pieces`` macro prints: at line breaks and at every note's boundary.

Each piece carries its Traditional and Simplified forms (for the reader's script switch) and the notes over it,
so a mark links to its innermost note and lights up with any of them. Episode rows and witness pages both show
text this way, so a passage reads the same wherever it stands.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from .script_forms import ScriptForms


def piece(
    forms: ScriptForms, text: str, covering: Sequence[Sequence[Any]] = (), br: bool = False, reg: Sequence | None = None
) -> dict[str, Any]:
    """A piece of witness text for the ``pieces`` macro: its Traditional and Simplified forms (None when
    both are the text itself), whether a line break comes before it, and the notes over it (``[start,
    end, id, kind, order, number]``): the innermost (then first) one it links to, all their ids and kinds.
    A gap (an omission's place) is an empty piece under a note. ``reg``: the register mention it is part of
    (``[start, end, href, name]``), or None."""
    t, s = forms.forms(text)
    out = {"text": text, "t": t, "s": s, "br": br, "note": None, "notes": "", "classes": "", "gap": False}
    out["reg"] = {"href": reg[2], "name": reg[3]} if reg and text else None
    if t == text and s == text:
        out["t"] = out["s"] = None
    if covering:
        inner = min(covering, key=lambda n: (n[1] - n[0], n[4]))
        out["note"] = inner[2]
        out["number"] = inner[5]
        out["notes"] = " ".join(n[2] for n in sorted(covering, key=lambda n: n[4]))
        out["classes"] = " ".join(f"v-{c}" for c in sorted({n[3] for n in covering}))
        out["gap"] = not text
        out["short"] = len(text) <= 1
    return out


def lines(
    forms: ScriptForms, text: str, spans: Sequence[list] = (), mentions: Sequence[list] = ()
) -> list[dict[str, Any]]:
    """A passage as pieces, split at line breaks (each piece after one says so), at the notes in it and at the
    register's ``mentions`` in it (``[start, end, href, name]``, relative to its start)."""
    out, pos = [], 0
    for i, line in enumerate(text.split("\n")):
        end = pos + len(line)
        inside = [  # the notes over this line, cut to it (a zero-width one where it stands)
            [max(a, pos) - pos, min(b, end) - pos, *rest]
            for a, b, *rest in spans
            if (a < end and b > pos) or (a == b and pos <= a <= end)
        ]
        marked = [[max(a, pos) - pos, min(b, end) - pos, *rest] for a, b, *rest in mentions if a < end and b > pos]
        pieces = _segment(forms, line, inside, marked)
        if i and pieces:
            pieces[0] = {**pieces[0], "br": True}
        elif i:
            pieces = [piece(forms, "", br=True)]
        out += pieces
        pos = end + 1
    return out


def _segment(forms: ScriptForms, text: str, spans: list[list], mentions: list[list]) -> list[dict[str, Any]]:
    """A line split at every note and mention boundary inside it; a zero-width span becomes a caret at its place.

    ``spans`` are the notes' ``[start, end, id, kind, order, number]`` inside the line, relative to its start;
    ``mentions`` the register's ``[start, end, href, name]``."""
    cuts = sorted({0, len(text), *(n[0] for n in spans), *(n[1] for n in spans), *(x for m in mentions for x in m[:2])})
    out = []
    for a, b in itertools.pairwise([*cuts, None]):
        gaps = [n for n in spans if n[0] == n[1] == a]
        if gaps:
            out.append(piece(forms, "", gaps))
        if b is not None and b > a:
            reg = next((m for m in mentions if m[0] <= a and b <= m[1]), None)
            out.append(piece(forms, text[a:b], [n for n in spans if n[0] <= a and b <= n[1] and n[0] < n[1]], reg=reg))
    return out


def other_script(forms: ScriptForms, text: str) -> str:
    """The other-script forms of ``text``, for search (empty when there are none)."""
    return " ".join(sorted(set(forms.forms(text)) - {text}))
