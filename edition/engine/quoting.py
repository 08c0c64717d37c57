"""How a fact note quotes the witnesses: readings grouped by what they say and how each is written, the
witnesses counted by family, and the note's words in the 某本作某 manner. Shared by the notes on entries
(``entity_notes``) and on values (``value_notes``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable

from .model import Reading
from .said import Said

Found = tuple[str, str, tuple[Reading, ...]]  # a fact note before it is placed: (kind, label, readings)


def unbroken(text: str) -> str:
    """Words as a reader quotes them: without the line breaks and brackets a printed page's layout put inside
    them (江夏\n王, a small-character note split at a column, 遼)(澤)."""
    return "".join(c for c in text if not c.isspace() and unicodedata.category(c) not in ("Ps", "Pe"))


def words(label: str, readings: tuple[Reading, ...], escape=str) -> str:
    """A fact in the 某本作某 manner: ``安市城主：A、B、D 不名；C 作杨万春；E 作梁修元`` (a reading with no
    place is the witnesses that do not tell it, 不記). The export holds the witnesses' words as written; the site
    passes ``escape``, applied to each of them, where it reads an editor's fact as Markdown (``editor_notes``)."""
    parts = [
        f"{'、'.join(r.sigla)} {'不記' if not r.spans else '作' + escape(r.text) if r.named else '不名'}"
        for r in readings
    ]
    return f"{label}：" + "；".join(parts)


class Quoting:
    """The witnesses' families (independent tellings are counted by family) and their compared forms."""

    def __init__(self, family_of: dict[str, str], fold: Callable[[str], str]) -> None:
        self.family_of = family_of
        self.fold = fold

    def family(self, siglum: str) -> str:
        """A witness's family (a witness in none is its own)."""
        return self.family_of.get(siglum, siglum)

    def families(self, sigla: Iterable[str]) -> set[str]:
        return {self.family(s) for s in sigla}

    def readings(self, slot: dict[str, Said], forms: dict[str, str] | None = None) -> tuple[Reading, ...]:
        """Witnesses that read alike grouped, in witness order; ``forms`` says what "alike" is. Inside a group
        each wording is its own reading, quoted as its witnesses write it: 褐衣 and 褐袍 may name one thing,
        臨渝闗 and 临渝关 one place, but a reader is shown what each text has (a layout's break inside a name is no
        wording: ``unbroken``). Witnesses that do not name it (不名) are one reading, whatever their words."""
        groups: dict[str, dict[str, list[Said]]] = {}
        for s in sorted(slot):
            x = slot[s]
            form = forms[s] if forms else x.value
            written = unbroken(x.text) if form != "untitled" else ""
            groups.setdefault(form, {}).setdefault(written, []).append(x)
        out = []
        for form, wordings in groups.items():
            for written, xs in wordings.items():
                text = written or unbroken(xs[0].text)
                ref = xs[0].entries[0] if len(xs[0].entries) == 1 else None
                named = form != "untitled"
                spans = {x.siglum: (x.start, x.end) for x in xs}
                out.append(Reading(tuple(x.siglum for x in xs), text, spans, ref, named))
        return tuple(out)

    def worded(self, slot: dict[str, Said]) -> tuple[Reading, ...]:
        """The readings of witnesses compared by their words' compared forms (each wording still quoted)."""
        return self.readings(slot, {s: self.fold(x.text) for s, x in slot.items()})
