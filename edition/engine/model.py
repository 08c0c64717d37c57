"""The plain data that flows between the pipeline's stages.

Every offset is a code-point offset into a witness text (the decoded file with
``\\n`` newlines); nothing here ever changes what a witness says.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from dataclasses import dataclass, field

from .vocabulary import LacunaKind, NoteType


@dataclass(frozen=True)
class WitnessMeta:
    """What the catalogue says about one witness file (or the defaults)."""

    file: str
    siglum: str
    title: str
    description: str = ""
    source: str = ""
    encoding: str | None = None
    family: str | None = None  # the catalogue's name of the text this witness is a copy of
    base: bool = False  # the catalogue makes it its family's base


@dataclass(frozen=True)
class Witness:
    """A decoded witness: its catalogue data, its text and its detected script."""

    meta: WitnessMeta
    text: str
    script: str  # "Hant", "Hans" or "mixed"

    @property
    def siglum(self) -> str:
        return self.meta.siglum


@dataclass(frozen=True, eq=False)
class Tokens:
    """A witness tokenised once; every later stage reads it, none folds the text again.

    As in CollateX, a token has a shown form ``t`` and a compared form ``n``. The
    tokens are the witness's letters (every character that is not punctuation or
    space): ``n[i]`` is the compared form of letter ``i`` (one script, variant
    characters folded), ``at[i]`` its offset in ``text``, so ``t`` is
    ``text[at[i]]``. Punctuation and spaces are not tokens; they stand between
    letters, at the offsets the letters skip.
    """

    siglum: str
    text: str
    n: str
    at: array  # array("i"): offsets, ascending

    def index(self, offset: int) -> int:
        """The index of the first letter at or after ``offset``."""
        return bisect_left(self.at, offset)

    def token(self, i: int) -> Token:
        return Token(self.text[self.at[i]], self.n[i], self.at[i], self.at[i] + 1)


@dataclass(frozen=True)
class Token:
    """One unit of comparison: shown form ``t`` at ``start:end`` of the witness, compared form ``n``."""

    t: str
    n: str
    start: int
    end: int
    mark: bool = False
    seg: int = -1  # index of the segment it lies in (a note never crosses segments)
    tag: str | None = None


@dataclass(frozen=True)
class Segment:
    """A clause (or a run of clauses) of one witness: ``witness.text[start:end]``."""

    siglum: str
    index: int  # position among the witness's segments
    start: int
    end: int
    text: str
    folded: str  # the compared form of its letters: tokens.n[lo:hi]
    paragraph: int
    lo: int = 0  # its letters in the witness's Tokens: lo:hi
    hi: int = 0
    sentence: int = 0  # index of the sentence it belongs to
    strength: int = 1  # of the break before it: 0 clause, 1 sentence, 2 paragraph, 3 scene (segment.CLAUSE…)
    quoted: bool = False  # inside a quotation (no episode boundary falls before it)


@dataclass(frozen=True)
class Family:
    """Witnesses that are copies of one text; collated against ``base``, which never changes."""

    id: str  # the base's siglum
    base: str
    members: tuple[str, ...]
    declared: bool = False  # named in the catalogue (else found by the text)


@dataclass(frozen=True)
class EpisodeDef:
    """An episode as the editor defines it in the episodes data file."""

    id: str
    title: str
    order: int
    description: str = ""
    cues: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()
    line: int = 0  # where the editor wrote it, for error messages
    context: bool = False  # another event told around the episodes: its text belongs to no episode
    window: Window | None = None  # when it happens, if the editor says (a dated entry outside it is not it)


@dataclass(frozen=True)
class Window:
    """An episode's time as the editor gives it (``十九年九月至十月``): a year of the reign, if given, and the
    first and last month."""

    year: int | None
    first: int
    last: int

    def excludes(self, year: int | None, month: int | None) -> bool:
        """Whether a dated entry of this year and month cannot tell the episode (what is unknown excludes
        nothing)."""
        if self.year is not None and year is not None and year != self.year:
            return True
        return (
            month is not None
            and (year is None or self.year is None or year == self.year)
            and not (self.first <= month <= self.last)
        )

    def far(self, month: int, slack: int) -> bool:
        """Whether a month lies more than ``slack`` months outside the window (as far as a year's months go)."""
        return month < self.first - slack or month > self.last + slack

    def meets(self, first: int, last: int) -> bool:
        """Whether a month from ``first`` to ``last`` (a stretch a text dates no closer) may fall in the window."""
        return first <= self.last and self.first <= last


@dataclass(frozen=True)
class Row:
    """One narrative moment of an episode: each witness's segments at that moment."""

    id: str
    cells: dict[str, tuple[Segment, ...]]
    span: dict[str, int] = field(default_factory=dict)  # witness -> rows its cell here covers (this one and below)
    moved: frozenset[tuple[str, int]] = frozenset()  # (siglum, start) of segments told elsewhere in that witness
    weak: tuple[str, ...] = ()  # witnesses whose cell here shares no evidence with another family's (``align.support``)


@dataclass(frozen=True)
class Span:
    siglum: str
    start: int
    end: int


@dataclass(frozen=True)
class Reading:
    """What some witnesses read at a note's place: the text, and where it stands in each of them."""

    sigla: tuple[str, ...]
    text: str
    spans: dict[str, tuple[int, int]]
    ref: str | None = None  # the register entry it names
    named: bool = True  # False: the witness refers to it by a title only (不名)
    value: float | None = None  # a number's value


@dataclass(frozen=True)
class Verdict:
    """The editor's verdict on a machine note (``verdicts:``): ``kind`` a VerdictKind; ``sigla`` the witnesses whose
    reading the edition adopts (adopt); ``reads`` the adopted words (adopt) or what the text should read (suspect);
    ``adopted`` where the base's reading text changes (adopt of a copy's reading: the base's lemma, shown as
    ``reads``; ``was`` its own words); ``parallels`` (source, its words): 他校; ``words`` the 校勘記's sentences
    (據B改。他校：通鑑作李世勣。); ``text`` the editor's Markdown after them."""

    kind: str
    words: str
    sigla: tuple[str, ...] = ()
    reads: str = ""
    adopted: Span | None = None
    was: str = ""
    parallels: tuple[tuple[str, str], ...] = ()
    text: str = ""


@dataclass(frozen=True)
class Note:
    """One apparatus entry.

    ``collation``: within a family, where a copy differs from the base (``lemma``), classed
    punctuation | orthographic | substantive | addition | omission. ``fact``: between independent
    witnesses, one fact they tell differently (``cls`` its kind: person | place | thing | number |
    date; ``label`` what it is about; no lemma). ``lacuna``: where a copy breaks off or begins late, or
    a witness stops mid-sentence. ``editor``: the editor's own note (Markdown in ``text``).
    """

    type: NoteType
    cls: str  # a CollationClass, a FactClass, or the note's type (lacuna, editor)
    lemma: Span | None
    lemma_text: str
    readings: tuple[Reading, ...]
    family: str | None = None
    label: str = ""
    tags: tuple[str, ...] = ()
    episode: str | None = None
    row: str | None = None
    text: str = ""  # the note in words (某本作某), or the editor's Markdown
    verdict: Verdict | None = None  # the editor's verdict on it (``verdicts:``)
    superseded: str = ""  # a machine fact note an editor's fact covers: that fact's label (the page omits it)


@dataclass(frozen=True)
class Lacuna:
    """Where a copy lacks the start or the end of its family's base (or a witness stops mid-sentence)."""

    siglum: str
    family: str
    kind: LacunaKind
    at: int  # offset in the witness where the text breaks off (or begins)
    missing: Span | None  # what the base has there, if a family's base


@dataclass(frozen=True)
class EpisodeResult:
    episode: EpisodeDef
    rows: tuple[Row, ...]


@dataclass
class Edition:
    """The whole result of one run of the pipeline."""

    witnesses: tuple[Witness, ...]
    episodes: tuple[EpisodeResult, ...]
    unassigned: dict[str, tuple[Span, ...]]
    families: tuple[Family, ...] = ()
    notes: tuple[Note, ...] = ()
    lacunae: tuple[Lacuna, ...] = ()
    register: tuple = ()  # the register's entries (register.Entry)
    mentions: tuple = ()  # where the witnesses name them (register.Mention)
    quote_styles: int = 0  # quote marks normalised silently within families
    unpunctuated: tuple[str, ...] = ()  # witnesses without punctuation of their own
    silenced: dict[str, int] = field(default_factory=dict)  # note class -> notes the editor silenced
    editorial: dict[str, int] = field(default_factory=dict)  # directive kind -> how many took effect
    tokens: dict[str, Tokens] = field(default_factory=dict)
    segments: dict[str, tuple[Segment, ...]] = field(default_factory=dict)
    assignment: dict[str, tuple[str | None, ...]] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
