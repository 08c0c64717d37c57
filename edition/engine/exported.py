"""The ``edition-export/2`` JSON as Python types: what ``export.to_dict`` writes and the site and the
interchange formats read.

One ``TypedDict`` per object of ``edition/interchange/edition.schema.json``, with its keys required or not as
the schema says (tests/test_schema.py holds the two together): the schema tells other tools what the export
holds, these tell a reader of the code what a ``note`` or a ``row`` is where the site used to say
``dict[str, Any]``. The values are the export's plain JSON (lists, not tuples; the vocabulary's ``StrEnum``s
are strings).

Not ``from __future__ import annotations``: Python 3.11's ``TypedDict`` reads ``NotRequired`` only from
annotations it can see, not from strings.
"""

from typing import Literal, NotRequired, TypedDict

Sigla = list[str]
Offsets = list[int]  # [start, end] of a reading in one witness


class SliceJson(TypedDict):
    """A stretch of a witness's text (outside every episode): ``text`` is ``witness[start:end]``."""

    start: int
    end: int
    text: str


class FragmentJson(SliceJson):
    """A witness's words in one cell of a row; ``moved``: told elsewhere in the witness."""

    moved: NotRequired[Literal[True]]


class WitnessJson(TypedDict):
    siglum: str
    file: str
    title: str
    description: str
    source: str
    script: str  # vocabulary.Script
    length: int
    family: str


class FamilyJson(TypedDict):
    id: str
    base: str
    members: Sigla
    declared: bool


class RowJson(TypedDict):
    """One moment of an episode: siglum -> its fragments; ``span``: siglum -> rows its cell covers (2 or more);
    ``weak``: the witnesses whose cell here nothing beside it supports (``edition.engine.align.support``)."""

    id: str
    cells: dict[str, list[FragmentJson]]
    span: NotRequired[dict[str, int]]
    weak: NotRequired[list[str]]


class EpisodeJson(TypedDict):
    id: str
    title: str
    description: str
    rows: list[RowJson]


class LemmaJson(TypedDict):
    siglum: str
    start: int
    end: int
    text: str


class ReadingJson(TypedDict):
    """A reading of a note; ``spans``: siglum -> [start, end] (none: the witnesses that do not tell it, 不記)."""

    sigla: Sigla
    text: str
    spans: dict[str, Offsets]
    ref: NotRequired[str]  # the register entry it names
    named: NotRequired[Literal[False]]  # a title only (不名)


class AdoptedJson(TypedDict):
    """The base's words a reading text replaces with the adopted reading (``text``; ``was``: 原作某)."""

    siglum: str
    start: int
    end: int
    text: str
    was: str


class ParallelJson(TypedDict):
    """A 他校 parallel: a source outside the edition and its words."""

    source: str
    reads: str


class VerdictJson(TypedDict):
    kind: str  # vocabulary.VerdictKind
    words: str
    sigla: NotRequired[Sigla]
    reads: NotRequired[str]
    adopted: NotRequired[AdoptedJson]
    parallels: NotRequired[list[ParallelJson]]
    text: NotRequired[str]  # the editor's Markdown


# "class" is a keyword: the functional form
NoteJson = TypedDict(
    "NoteJson",
    {
        "id": str,  # n1, n2, ...
        "type": str,  # vocabulary.NoteType
        "class": str,  # vocabulary.CollationClass or FactClass, or the type
        "episode": str | None,
        "row": str | None,
        "family": str | None,
        "label": str,
        "tags": list[str],  # vocabulary.FactClass
        "lemma": LemmaJson | None,
        "readings": list[ReadingJson],
        "text": str,
        "verdict": NotRequired[VerdictJson],
        "superseded_by": NotRequired[str],
    },
)


class MissingJson(TypedDict):
    """What the base has where a copy breaks off or begins late."""

    siglum: str
    start: int
    end: int


class LacunaJson(TypedDict):
    siglum: str
    family: str
    kind: str  # vocabulary.LacunaKind
    at: int
    missing: MissingJson | None


class MentionJson(TypedDict):
    siglum: str
    start: int
    end: int
    text: str
    named: bool
    episode: str | None
    row: str | None


class EntryJson(TypedDict):
    id: str
    kind: str  # vocabulary.EntityKind
    name: str
    aliases: list[str]
    variants: list[str]
    titles: list[str]
    note: str
    mentions: list[MentionJson]


class NormalisedJson(TypedDict):
    quote_styles: int
    unpunctuated: Sigla
    scripts: list[str]  # family ids
    silenced: dict[str, int]


class EditionJson(TypedDict):
    """The whole export."""

    format: str
    witnesses: list[WitnessJson]
    families: list[FamilyJson]
    episodes: list[EpisodeJson]
    unassigned: dict[str, list[SliceJson]]
    notes: list[NoteJson]
    lacunae: list[LacunaJson]
    register: list[EntryJson]
    normalised: NormalisedJson
    editorial: dict[str, int]
