"""The edition's vocabulary: every kind of note, class, lacuna and script, named once.

The engine, the site, the TEI and the JSON Schema all speak of these; each used to spell them as its own string
literals, so a new class could reach one and not the others. They are ``StrEnum``s: equal to their strings, so
the export writes them as plain JSON strings and the schema's enums are tested against them
(tests/test_schema.py).
"""

from __future__ import annotations

from enum import StrEnum


class NoteType(StrEnum):
    COLLATION = "collation"  # within a family: where a copy differs from its base
    FACT = "fact"  # between independent witnesses: one fact told differently
    LACUNA = "lacuna"  # where a witness breaks off or begins late
    EDITOR = "editor"  # the editor's own note or fact


class VerdictKind(StrEnum):
    """The editor's verdict on a note (``verdicts:`` in the editor's file), as a 校勘記 words it."""

    ADOPT = "adopt"  # the edition adopts a reading: 據B改 (the base's reading text shows it, 原作某)
    SUSPECT = "suspect"  # 疑當作某
    UNDECIDED = "undecided"  # 未知孰是
    DOUBT = "doubt"  # 存疑
    PARALLEL = "parallel"  # no decision of these, a 他校 parallel alone (他校：通鑑作某)


class CollationClass(StrEnum):
    """What a difference between a copy and its base is (the order is the 凡例's)."""

    PUNCTUATION = "punctuation"
    ORTHOGRAPHIC = "orthographic"  # the same letter written otherwise: 巖/岩
    SUBSTANTIVE = "substantive"  # another letter
    ADDITION = "addition"
    OMISSION = "omission"


class FactClass(StrEnum):
    """What a fact note is about."""

    PERSON = "person"
    PLACE = "place"
    THING = "thing"
    NUMBER = "number"
    DATE = "date"


class EntityKind(StrEnum):
    """A register entry's kind (what a collation note touching its name is tagged)."""

    PERSON = "person"
    PLACE = "place"
    THING = "thing"


class LacunaKind(StrEnum):
    START = "start"  # a copy begins late
    END = "end"  # a copy breaks off
    UNFINISHED = "unfinished"  # a witness stops mid-sentence


class Script(StrEnum):
    TRADITIONAL = "Hant"
    SIMPLIFIED = "Hans"
    MIXED = "mixed"
