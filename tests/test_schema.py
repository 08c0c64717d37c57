"""The JSON Schema of edition-export/2: every export we can build validates; broken ones do not. And the
published metadata (the schema's address, CITATION.cff) agrees with the site."""

from __future__ import annotations

import copy
import datetime
import json
import re

import jsonschema
import pytest
import yaml

from edition.engine import exported
from edition.engine.vocabulary import CollationClass, EntityKind, FactClass, LacunaKind, NoteType, Script, VerdictKind
from edition.interchange import TITLE
from edition.interchange.schema import NAME, schema, schema_text
from tests.interchange_corpora import NAMES, corpus
from tests.support import ROOT

MKDOCS = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def _setting(key: str) -> str:
    return re.search(rf"^{key}:\s*(.+?)\s*$", MKDOCS, re.M).group(1)


@pytest.fixture(scope="module")
def validator():
    jsonschema.Draft202012Validator.check_schema(schema())
    return jsonschema.Draft202012Validator(schema(), format_checker=jsonschema.FormatChecker())


def _errors(validator, data) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in validator.iter_errors(data)]


@pytest.mark.parametrize("name", ["seeds", *NAMES])
def test_every_export_validates(name, validator, seeds_export):
    export = seeds_export[0] if name == "seeds" else corpus(name)[0]
    assert _errors(validator, json.loads(json.dumps(export))) == []


def test_the_corpora_exercise_the_optional_parts(seeds_export):
    """So that the schema's optional keys and nullable values are met by real exports, not only allowed."""
    exports = [seeds_export[0], *(corpus(n)[0] for n in NAMES)]
    rows = [r for x in exports for ep in x["episodes"] for r in ep["rows"]]
    frags = [f for r in rows for c in r["cells"].values() for f in c]
    notes = [n for x in exports for n in x["notes"]]
    assert any("span" in r for r in rows) and any(f.get("moved") for f in frags)
    assert {n["type"] for n in notes} == {"collation", "fact", "lacuna", "editor"}
    assert any(r.get("named") is False for n in notes for r in n["readings"])
    assert any(x["missing"] is None for e in exports for x in e["lacunae"])
    assert any(x["missing"] for e in exports for x in e["lacunae"])


def _broken(seeds_export, change) -> dict:
    data = copy.deepcopy(seeds_export[0])
    change(data)
    return data


def _first(data, kind):
    return next(n for n in data["notes"] if n["type"] == kind)


BROKEN = {
    "wrong format": lambda d: d.update(format="edition-export/1"),
    "missing top-level key": lambda d: d.pop("notes"),
    "unknown top-level key": lambda d: d.update(extra=1),
    "missing witness key": lambda d: d["witnesses"][0].pop("siglum"),
    "wrong script": lambda d: d["witnesses"][0].update(script="Latn"),
    "negative length": lambda d: d["witnesses"][0].update(length=-1),
    "wrong collation class": lambda d: _first(d, "collation").update({"class": "person"}),
    "wrong fact class": lambda d: _first(d, "fact").update({"class": "orthographic"}),
    "unknown note type": lambda d: _first(d, "collation").update(type="gloss"),
    "fact with a lemma": lambda d: _first(d, "fact").update(lemma={"siglum": "A", "start": 0, "end": 1, "text": "x"}),
    "collation without lemma": lambda d: _first(d, "collation").update(lemma=None),
    "missing note key": lambda d: _first(d, "collation").pop("tags"),
    "unknown tag": lambda d: _first(d, "collation").update(tags=["name"]),
    "bad note id": lambda d: _first(d, "collation").update(id="note-1"),
    "moved false": lambda d: d["episodes"][0]["rows"][0]["cells"]["A"][0].update(moved=False),
    "span of one row": lambda d: d["episodes"][0]["rows"][0].update(span={"A": 1}),
    "offset as text": lambda d: d["episodes"][0]["rows"][0]["cells"]["A"][0].update(start="0"),
    "reading span of three": lambda d: _first(d, "collation")["readings"][0]["spans"].update(B=[1, 2, 3]),
    "named true": lambda d: _first(d, "fact")["readings"][0].update(named=True),
    "wrong lacuna kind": lambda d: d["lacunae"][0].update(kind="middle"),
    "wrong register kind": lambda d: d["register"][0].update(kind="event"),
    "mention without named": lambda d: next(e for e in d["register"] if e["mentions"])["mentions"][0].pop("named"),
    "silenced non-class": lambda d: d["normalised"]["silenced"].update(person=1),
    "unknown normalised key": lambda d: d["normalised"].update(spaces=3),
}


@pytest.mark.parametrize("what", list(BROKEN))
def test_broken_exports_fail(what, validator, seeds_export):
    # the first error is enough (the validator reports them as it meets them: a broken export need not be read on)
    assert next(validator.iter_errors(_broken(seeds_export, BROKEN[what])), None) is not None, what


def test_published_with_the_site(built_site):
    assert schema()["$id"] == _setting("site_url") + NAME
    assert (built_site / NAME).read_text(encoding="utf-8") == schema_text()


def test_the_schema_speaks_the_engine_vocabulary():
    """The schema's enums are the engine's (edition/engine/vocabulary.py): a class added to one and not the
    other fails here, not in a reader's validator."""
    defs = schema()["$defs"]
    props = {name: d.get("properties", {}) for name, d in defs.items()}
    assert defs["collationClass"]["enum"] == [c.value for c in CollationClass]
    assert defs["factClass"]["enum"] == [c.value for c in FactClass]
    assert props["note"]["type"]["enum"] == [t.value for t in NoteType]
    assert props["lacuna"]["kind"]["enum"] == [k.value for k in LacunaKind]
    assert props["entry"]["kind"]["enum"] == [k.value for k in EntityKind]
    assert props["witness"]["script"]["enum"] == [s.value for s in Script]
    assert props["verdict"]["kind"]["enum"] == [k.value for k in VerdictKind]


def _objects(node: dict, where: str = "") -> dict[str, dict]:
    """Every object the schema describes with properties, by where it stands (``note``, ``verdict/adopted``)."""
    out = {where: node} if "properties" in node else {}
    for name, sub in {**node.get("$defs", {}), **node.get("properties", {})}.items():
        out |= _objects(sub, f"{where}/{name}".lstrip("/"))
    for sub in [node.get("items"), *node.get("oneOf", [])]:
        if isinstance(sub, dict):
            out |= _objects(sub, where)
    return out


# each object of the schema (where it stands) and the TypedDict that describes it
TYPED = {
    "": exported.EditionJson,
    "normalised": exported.NormalisedJson,
    "witness": exported.WitnessJson,
    "family": exported.FamilyJson,
    "episode": exported.EpisodeJson,
    "row": exported.RowJson,
    "slice": exported.SliceJson,
    "fragment": exported.FragmentJson,
    "lemma": exported.LemmaJson,
    "reading": exported.ReadingJson,
    "note": exported.NoteJson,
    "lacuna": exported.LacunaJson,
    "lacuna/missing": exported.MissingJson,
    "entry": exported.EntryJson,
    "verdict": exported.VerdictJson,
    "verdict/adopted": exported.AdoptedJson,
    "verdict/parallels": exported.ParallelJson,
    "mention": exported.MentionJson,
}


def test_the_export_types_are_the_schema():
    """The site and the interchange formats read the export through ``edition/engine/exported.py``'s TypedDicts:
    each has the keys of its object in the schema, required where the schema requires them, so a key added to
    one and not the other fails here. Every object of the schema has its TypedDict."""
    objects = _objects(schema())
    assert set(objects) == set(TYPED)
    for where, typed in TYPED.items():
        obj = objects[where]
        required = set(obj.get("required", []))
        assert (where, typed.__required_keys__) == (where, required)
        assert (where, typed.__optional_keys__) == (where, set(obj["properties"]) - required)


def test_citation_cff():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert cff["cff-version"] == "1.2.0"
    for key in ("message", "title", "authors", "type", "url", "version", "date-released"):
        assert cff.get(key), key
    assert cff["type"] in {"software", "dataset"}
    assert all(isinstance(a, dict) and (a.get("name") or a.get("family-names")) for a in cff["authors"])
    datetime.date.fromisoformat(str(cff["date-released"]))
    assert cff["title"] == TITLE == _setting("site_name")
    assert cff["url"] == _setting("site_url")
    allowed = {
        "cff-version",
        "message",
        "title",
        "abstract",
        "type",
        "authors",
        "url",
        "version",
        "date-released",
        "keywords",
        "license",
        "repository-code",
        "doi",
        "identifiers",
        "preferred-citation",
        "references",
    }
    assert set(cff) <= allowed
