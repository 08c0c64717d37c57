"""The plain data that flows between the pipeline's stages.

Every offset is a code-point offset into a witness text (the decoded file with
``\\n`` newlines); nothing here ever changes what a witness says.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class WitnessMeta:
    """What the catalogue says about one witness file (or the defaults)."""

    file: str
    siglum: str
    title: str
    description: str = ""
    source: str = ""
    encoding: str | None = None


@dataclass(frozen=True)
class Witness:
    """A decoded witness: its catalogue data, its text and its detected script."""

    meta: WitnessMeta
    text: str
    script: str  # "Hant", "Hans" or "mixed"

    @property
    def siglum(self) -> str:
        return self.meta.siglum


@dataclass(frozen=True)
class Folded:
    """A comparison form of some text: ``text[i]`` stands for the original ``origin[i]``.

    Folding drops punctuation and whitespace and unifies script and variant
    characters, so two readings compare equal exactly when they differ only in
    those respects.
    """

    text: str
    origin: tuple[int, ...]


@dataclass(frozen=True)
class Segment:
    """A sentence or clause of one witness: ``witness.text[start:end]``."""

    siglum: str
    index: int  # position among the witness's segments
    start: int
    end: int
    text: str
    folded: str  # comparison form (see normalise.fold)
    paragraph: int  # index of the line/paragraph the segment starts in


@dataclass(frozen=True)
class EpisodeDef:
    """An episode as the editor defines it in the episodes data file."""

    id: str
    title: str
    order: int
    description: str = ""
    cues: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()
    base: str | None = None


@dataclass(frozen=True)
class Row:
    """One narrative moment of an episode: each witness's segments at that moment."""

    id: str
    cells: dict[str, tuple[Segment, ...]]


@dataclass(frozen=True)
class Span:
    siglum: str
    start: int
    end: int


@dataclass(frozen=True)
class Reading:
    sigla: tuple[str, ...]
    text: str
    spans: dict[str, tuple[int, int]]


@dataclass(frozen=True)
class Note:
    """One apparatus entry: where the readings of ``readings`` differ from the lemma."""

    row: str
    cls: str  # punctuation | orthographic | substantive | addition | omission
    tags: tuple[str, ...]
    lemma: Span
    lemma_text: str
    readings: tuple[Reading, ...]


@dataclass(frozen=True)
class EpisodeResult:
    episode: EpisodeDef
    base: str | None
    rows: tuple[Row, ...]
    notes: tuple[Note, ...]


@dataclass
class Edition:
    """The whole result of one run of the pipeline."""

    witnesses: tuple[Witness, ...]
    episodes: tuple[EpisodeResult, ...]
    unassigned: dict[str, tuple[Span, ...]]
    segments: dict[str, tuple[Segment, ...]] = field(default_factory=dict)
    assignment: dict[str, tuple[str | None, ...]] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
