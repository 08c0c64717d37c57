"""The engine's tuned parameters, with their defaults, and the editor's overrides.

Every number that was chosen by measuring (on the seeds and on the development set
in ``tests/dev``) lives here rather than as a module constant, so an edition can
set its own in ``parameters.yaml`` and the tests can vary them. The defaults are the
values the closing notes report figures for.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field, fields
from pathlib import Path

from ..errors import EditionError
from .datafile import YamlMap, read_yaml


def p(default: float, doc: str):
    """A parameter: its default and what it means (shown on the method page)."""
    return field(default=default, metadata={"doc": doc})


@dataclass(frozen=True)
class Params:
    # segment: how a witness is cut into sentences and clauses
    marks_per: int = p(
        30, "A witness with fewer sentence or clause marks than one per this many letters is unpunctuated."
    )
    bare_run: int = p(12, "A run of more letters than this with no mark is cut where other witnesses break or at cues.")
    key_len: int = p(3, "Letters on each side of another witness's break that must match for it to cut a bare run.")
    opening_len: int = p(5, "...or first letters of another witness's sentence that must match.")
    wrapped: float = p(0.5, "Share of a witness's lines ending with no final mark for its line breaks to be layout.")
    short_line: float = p(2 / 3, "In such a witness, a line shorter than this share of the median ends its paragraph.")
    indented: float = p(0.5, "...as does a line before an indented one, where fewer than this share are indented.")

    # assign: which episode each segment tells
    threshold: float = p(0.12, "Price of a letter, as a share of the witness's peak evidence density (see peak).")
    peak: float = p(0.95, "Quantile of a witness's segments' evidence density taken as its peak.")
    dated: float = p(0.1, "Share of a witness's sentences a date must open for it to be read as dated entries.")
    dated_least: int = p(3, "...and the fewest such sentences (an episode's window applies to each dated entry).")
    date_clause: int = p(
        3,
        "Letters besides its dates a clause may hold to be a date a narrative moves on by (十九年二月, 冬十月), in a"
        " witness not written as dated entries: a stretch between two such clauses that leave no month of an"
        " episode's window is not that episode.",
    )
    floor: float = p(
        0.0,
        "Least peak a price is set from, as a share of the median witness's peak (0: off; 0.5 rescued an anecdote"
        " collection but, where chronicles are most witnesses, took a wordy retelling's episodes).",
    )
    cost_scene: float = p(1.0, "Cost (characters of evidence) of entering or leaving an episode at a scene break.")
    cost_paragraph: float = p(8.0, "...at a paragraph break.")
    cost_sentence: float = p(12.0, "...between two sentences of a paragraph.")
    cost_clause: float = p(16.0, "...between two clauses of a sentence.")
    cost_quote: float = p(40.0, "...inside a quotation.")
    switch_share: float = p(0.5, "Share of those costs that moving straight from one episode to another costs.")
    scene_share: float = p(
        0.5, "Unclaimed text closing or opening an episode's scene joins it, up to this share of its run."
    )
    rescue: float = p(
        0.5,
        "Share of the price at which an episode a witness tells nothing of is looked for again (0: never). Left out"
        " in turn, no kind but flashback (and all together) moved from 0 to 0.3, 0.5 or 0.75.",
    )
    rescue_bar: float = p(
        16.0,
        "Least evidence (less that price) the run so found must hold. Left out in turn, every kind chose 10 or 12"
        " by its episodes (the alternate history 0.740 -> 0.797, none lower) but 16 by its rows (the alternate's"
        " moments in one row 24 -> 22, its rescued gift in a row of its own; 8 and 6 lowered the memorials).",
    )
    background: float = p(5000.0, "Pairs of a notional corpus that smooth the corpus's pair shares (small corpora).")
    name_weight: float = p(
        0.5,
        "Weight, in an episode's profile, of the pairs of a person's name (who, not what). Left out in turn, every"
        " kind chose 0.5 over 0.25, 0.75 and 1 by its rows; by its episodes over 0.25 (1 did better on three).",
    )
    lift: float = p(
        16.0,
        "How much likelier inside an episode a pair must be to join its profile. Left out in turn, every kind chose 12"
        " over 16 and 8 (31 witnesses: flashback 0.838 -> 0.846, biography 0.941 -> 0.949), but the seeds' E then fell"
        " to 0.947, below 0.95 a witness: kept at 16.",
    )
    uses: int = p(3, "...and the fewest segments of the episode, in two families at least, that must use it.")
    rounds: int = p(1, "Refinement passes of the episode profiles.")
    copy: float = p(0.8, "Share of character pairs two witnesses must share to count as copies of one text.")

    # align: rows
    match: float = p(0.06, "Similarity a segment (or a run of them) needs to join a row in its witness's order.")
    merge: float = p(0.02, "Similarity each further segment of a several-to-one (or two-to-two) pairing must add.")
    moved: float = p(0.3, "Similarity a segment needs to join a row out of its witness's order (shown as moved).")
    part: float = p(
        0.2,
        "Similarity a sentence's first or last clauses need to a row apart to be parted to it. Left out in turn,"
        " every kind chose 0.2 over 0.3 (moved's, used until stop 43); 0.15, chosen by most, lowered all together.",
    )
    floor_share: float = p(0.75, "Share of the lesser of match and moved below which no text is a candidate at all.")
    support: float = p(
        1.5,
        "Weight (support.rarity) of the pairs a cell must share with another family's cell beside it not to be named"
        " weak (0: any pair). Chosen from 0, 0.5, 0.75, 1, 1.25, 1.5, 2 by leaving one of four blind readings of 40"
        " rows out (two of the edition of every kind, two readers of the classical one; the score: the share of the"
        " rows read wrong or partly right that are named, less the share of the right ones): 1.5 in every fold,"
        " held out 0.44, 0.35, 0.57, 0.31 (any pair: 0.06, 0.02, 0.20, 0.11).",
    )
    longest: int = p(8, "Rows a segment may answer, and segments one row may take, at most.")
    reach: int = p(4, "Rows either side, in units of longest, that a sentence's parted clauses may go to.")
    candidates: int = p(32, "Rows one segment is weighed against at most (the likeliest, where a text repeats).")
    common: int = p(64, "Texts of an episode a gram may be in and still find candidates (a stop word beyond).")

    # collate: copies of one text, character by character
    anchor: int = p(12, "Letters of a stretch found once in a copy and its base that anchors the two.")
    chunk: int = p(400, "Letters between anchors at least (the stretches between are compared whole).")
    unanchored: int = p(
        20000,
        "Letters a stretch with no anchor may have on both sides before it is cut at the lines the two share"
        " (a copy whose paragraphs are moved about and repeated).",
    )
    lacuna: int = p(20, "Letters a copy must lack at its start or end for the gap to be a lacuna, not an omission.")

    # notes
    date_slack: int = p(
        1,
        "Months outside an episode's window (episodes.yaml) a date in its text may lie and still be its date (an"
        " alternate history's 八月); further off it dates another moment, or is no date (比中原早寒一月: a month's"
        " time) -- no date note reads it.",
    )
    agree: int = p(
        3,
        "Independent families that must agree on a number or a date for a note to say so (two on a place or thing),"
        " and that name a place at a second stretch of rows for it to be named at two moments, not agreed on.",
    )
    apart: float = p(10.0, "Numbers of one measure in one row further apart than this many times count two things.")
    role: int = p(
        2,
        "Character pairs a cell must share with the pairs the agreeing families' cells of a count share for its own"
        " count, rows away, to be read as that count (Z's 殿后 … 步骑三万 beside the others' 步骑四万殿后); and a"
        " man's sentence with the others' sentences naming another, to stand in for him by the row (D's 李祐, 李世勣).",
    )
    close: float = p(0.75, "Similarity of two cells above which every difference is noted (copies of one text).")
    short: int = p(4, "A substitution of at most this many characters a side is noted even untagged.")


def load_params(path: Path | None) -> Params:
    """The defaults, with the values ``parameters.yaml`` sets (each checked for its type)."""
    if path is None:
        return Params()
    data = read_yaml(path)
    if data is None:
        return Params()
    if not isinstance(data, YamlMap):
        raise EditionError(path, "expected a mapping of parameter names to values", 1)
    known = {f.name: f for f in fields(Params)}
    values = {}
    for key, value in data.items():
        line = data.line_of(str(key))
        if key not in known:
            raise EditionError(path, f"unknown parameter '{key}'; known: {', '.join(sorted(known))}", line)
        kind = type(known[key].default)
        ok = (
            isinstance(value, (int, float))
            and not isinstance(value, bool)
            and (kind is float or isinstance(value, int))
        )
        if not ok:
            raise EditionError(path, f"parameter '{key}' must be a {'whole ' if kind is int else ''}number", line)
        if value < 0:
            raise EditionError(path, f"parameter '{key}' must not be negative", line)
        values[key] = kind(value)
    return dataclasses.replace(Params(), **values)
