"""The TEI P5 export: valid against tei_all, every witness recovered exactly, every note and register entry in it."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree

from edition.interchange.tei import TEI_NS, XML_ID, ncname, tei_document, to_tei, witness_texts
from tests.interchange_corpora import MARKUP, NAMES, ODD_SIGLA, cli_export, corpus
from tests.support import ROOT

NS = {"t": TEI_NS}
T = f"{{{TEI_NS}}}"
URL = "https://example.org/edition/"
RNG = Path(__file__).parent / "tei" / "tei_all.rng"  # TEI P5 tei_all 4.3.0, test data (see tei/README.md)


@pytest.fixture(scope="session")
def tei_valid(request):
    """``validate(data)``: "" if the document is valid against tei_all, else the first error. Compiling the schema
    takes seconds, so it is compiled only for a document not validated before: a valid document's digest (with the
    schema's and lxml's version) is kept in pytest's cache folder. One test validates every document, so a run
    compiles the schema once, on one worker, and a run after it not at all."""
    cache = getattr(request.config, "cache", None)
    folder = cache.mkdir("tei_all") if cache is not None else None
    salt = hashlib.sha256(RNG.read_bytes() + repr(etree.LXML_VERSION).encode()).digest()
    compiled: list[etree.RelaxNG] = []

    def validate(data: bytes) -> str:
        done = folder / hashlib.sha256(salt + data).hexdigest() if folder is not None else None
        if done is not None and done.exists():
            return ""
        if not compiled:
            compiled.append(etree.RelaxNG(etree.parse(str(RNG))))
        schema = compiled[0]
        if not schema.validate(etree.fromstring(data)):
            return str(schema.error_log.last_error)
        if done is not None:
            part = done.with_name(f"{done.name}.{os.getpid()}")
            part.write_text("valid\n", encoding="utf-8")
            part.replace(done)
        return ""

    return validate


_made: dict[str, tuple[dict, dict, bytes]] = {}


def _corpus(name: str, seeds_export) -> tuple[dict, dict, bytes]:
    """(export, texts, TEI bytes) of a corpus, made once per process."""
    if name not in _made:
        export, texts = seeds_export if name == "seeds" else corpus(name)[:2]
        _made[name] = export, texts, to_tei(export, texts, url=URL)
    return _made[name]


@pytest.fixture(scope="module", params=["seeds", *NAMES])
def case(request, seeds_export):
    """(name, export, texts, TEI bytes) for each corpus."""
    return request.param, *_corpus(request.param, seeds_export)


def _doc(data: bytes) -> etree._Element:
    return etree.fromstring(data)


def _without_rows(export: dict) -> dict:
    return {**export, "episodes": [{**ep, "rows": [], "description": ""} for ep in export["episodes"]]}


@pytest.mark.long(seconds=12)  # compiling tei_all, when the cache lacks a document
def test_every_document_is_valid_against_tei_all(seeds_export, tei_valid, tmp_path):
    """Every TEI document the tests make, validated in one place: each corpus's, the CLI's, and the seeds' with
    episodes that lost their rows (notes without a row)."""
    docs = {name: _corpus(name, seeds_export)[2] for name in ["seeds", *NAMES]}
    docs["cli"] = cli_export("tei", tmp_path / "e.xml")
    export, texts = seeds_export
    docs["without rows"] = to_tei(_without_rows(export), texts)
    assert {name: error for name, data in docs.items() if (error := tei_valid(data))} == {}
    assert set(witness_texts(docs["cli"])) == {"A", "B", "C", "D", "E"}


def test_round_trip_recovers_every_witness_exactly(case):
    name, _, texts, data = case
    back = witness_texts(data)
    assert set(back) == set(texts)
    for siglum, text in texts.items():
        assert back[siglum] == text, f"{name} {siglum}"


def test_every_id_unique_and_every_pointer_resolves(case):
    _, _, _, data = case
    doc = _doc(data)
    ids = [el.get(XML_ID) for el in doc.iter() if el.get(XML_ID)]
    assert len(ids) == len(set(ids))
    taken = set(ids)
    for el in doc.iter():
        for attr in ("wit", "target", "corresp", "ref", "resp"):
            for token in (el.get(attr) or "").split():
                if token.startswith("#"):
                    assert token[1:] in taken, f"{el.tag} @{attr}={token}"


def test_every_app_has_one_reading_per_witness_it_names(case):
    """Within an app no witness reads twice, so reading one witness back is never ambiguous."""
    _, _, _, data = case
    for app in _doc(data).iter(f"{{{TEI_NS}}}app"):
        readings = app.xpath("t:lem | t:rdg | t:rdgGrp/t:lem | t:rdgGrp/t:rdg", namespaces=NS)
        wits = [w for r in readings for w in r.get("wit", "").split()]
        assert len(wits) == len(set(wits)), etree.tostring(app, encoding="unicode")[:300]


def test_every_note_is_in_it(case):
    """Collation notes are apps (or, where no app can hold them, notes) with the note's id in @n; the others
    are notes with it as xml:id -- but a machine note an editor's fact supersedes, left out as on the page."""
    _, export, _, data = case
    doc = _doc(data)
    named = {n for el in doc.iter() for n in (el.get("n") or "").split()}
    ids = {el.get(XML_ID) for el in doc.iter(f"{{{TEI_NS}}}note")}
    for note in export["notes"]:
        if "superseded_by" in note:
            assert note["id"] not in ids and note["id"] not in named, note
        elif note["type"] == "collation":
            assert note["id"] in named, note
        else:
            assert note["id"] in ids, note
    # a collation note is an app at its lemma, unless the rows cannot hold it: its lemma runs over two pieces of
    # the base, or a copy's reading stands in another row than the lemma (or in none) -- then its app is in a note
    places: dict[str, list[tuple[int, int, str]]] = {}  # siglum -> (start, end, row or "unassigned")
    for ep in export["episodes"]:
        for row in ep["rows"]:
            for s, cell in row["cells"].items():
                places.setdefault(s, []).extend((x["start"], x["end"], row["id"]) for x in cell)
    for s, spans in export["unassigned"].items():
        places.setdefault(s, []).extend((x["start"], x["end"], "unassigned") for x in spans)
    notes = {n["id"]: n for n in export["notes"]}
    in_notes = [notes[el.get("n")] for el in doc.xpath("//t:note[@type='collation']", namespaces=NS)]

    def rows_of(sig: str, start: int, end: int) -> set[str]:
        return {r for a, b, r in places.get(sig, []) if a <= start and end <= b}

    def cut(n: dict) -> bool:
        lm = n["lemma"]
        common = rows_of(lm["siglum"], lm["start"], lm["end"])
        for r in n["readings"]:
            for s, (a, b) in r["spans"].items():
                common &= rows_of(s, a, b)
        return not common - {"unassigned"}

    for n in in_notes:
        assert [a.get("n") for a in doc.xpath(f"//t:note[@n='{n['id']}']/t:app", namespaces=NS)] == [n["id"]]
        # or in (or across) an app that is so: apps whose lemmas cross are one app, an app inside another stays in it
        lm = n["lemma"]
        near = [
            o
            for o in in_notes
            if o["lemma"]["siglum"] == lm["siglum"]
            and o["lemma"]["start"] <= lm["end"]
            and lm["start"] <= o["lemma"]["end"]
        ]
        assert cut(n) or any(cut(o) for o in near), lm


def _read(el: etree._Element, wit: str) -> str:
    """What ``el`` (a lem or rdg) says witness ``wit`` reads: nested apps resolved, notes skipped."""
    out = [el.text or ""]
    for child in el:
        if child.tag == T + "app":
            found = [r for r in child if r.tag in (T + "lem", T + "rdg") and wit in r.get("wit", "").split()]
            out += [_read(found[0], wit)] if found else []
        elif child.tag == T + "g":
            out.append(chr(int(child.get("n")[2:], 16)))
        elif child.tag != T + "note":
            out.append(_read(child, wit))
        out.append(child.tail or "")
    return "".join(out)


def test_every_collation_note_is_one_app(case):
    """collate aligns each copy with its base and says what is silent; the TEI only writes it down. Every collation
    note is exactly one app (@n its id): its lem is the base's lemma, a rdg for each copy reads the note's reading.
    Notes share an app only where their lemmas overlap (one place of the text cannot hold two crossing lemmas), and
    then the app's lem is the base's words they cover. Every other app within a family is a difference the
    collation passes silently, with its cause; none is left "unnoted"."""
    name, export, texts, data = case
    doc = _doc(data)
    wit = {w.get("n"): "#" + w.get(XML_ID) for w in doc.iter(T + "witness")}
    apps: dict[str, list[etree._Element]] = {}
    for app in doc.iter(T + "app"):
        for n in (app.get("n") or "").split():
            apps.setdefault(n, []).append(app)
    notes = {n["id"]: n for n in export["notes"] if n["type"] == "collation"}
    for nid, note in notes.items():
        assert len(apps.get(nid, [])) == 1, f"{name} {nid}: {len(apps.get(nid, []))} apps"
        (app,) = apps[nid]
        together = [notes[i] for i in app.get("n").split()]
        lm = note["lemma"]
        (lem,) = app.findall(T + "lem")
        assert wit[lm["siglum"]] in lem.get("wit").split(), f"{name} {nid}"
        lo, hi = min(n["lemma"]["start"] for n in together), max(n["lemma"]["end"] for n in together)
        base = texts[lm["siglum"]]
        words = _read(lem, wit[lm["siglum"]])  # the base's words there (and a silent difference beside, if any)
        assert base[lo:hi] in words and words in base[max(0, lo - len(words)) : hi + len(words)], f"{name} {nid}"
        if len(together) == 1 and words == lm["text"]:
            for r in note["readings"]:
                for s in r["sigla"]:
                    (rdg,) = [x for x in app.findall(T + "rdg") if wit[s] in x.get("wit").split()]
                    assert _read(rdg, wit[s]) == r["text"], f"{name} {nid} {s}"
    silent = doc.xpath("//t:app[not(@n)][not(@type='row')][not(@type='lacuna')]/t:rdg", namespaces=NS)
    for rdg in silent:
        assert rdg.get("cause") in {"quote-style", "unpunctuated", "script", "silenced"} or rdg.get("type") == "layout"


def test_every_row_is_an_ab_with_a_reading_for_every_witness(case):
    _, export, _, data = case
    doc = _doc(data)
    sigla = [w["siglum"] for w in export["witnesses"]]
    wit_id = {w.get("n"): w.get(XML_ID) for w in doc.iter(f"{{{TEI_NS}}}witness")}
    assert set(wit_id) == set(sigla)
    for ep in export["episodes"]:
        div = doc.xpath(f"//t:div[@type='episode'][@n='{ep['id']}']", namespaces=NS)
        assert len(div) == 1
        abs_ = div[0].xpath("t:ab[@type='row']", namespaces=NS)
        assert [ab.get("n") for ab in abs_] == [r["id"] for r in ep["rows"]]
        for ab, row in zip(abs_, ep["rows"], strict=True):
            (app,) = ab.xpath("t:app[@type='row']", namespaces=NS)
            wits = [w[1:] for r in app.xpath(".//t:lem | .//t:rdg", namespaces=NS) for w in r.get("wit").split()]
            top = app.xpath("t:rdgGrp/t:lem | t:rdgGrp/t:rdg | t:rdg", namespaces=NS)
            top_wits = sorted(w[1:] for r in top for w in r.get("wit").split())
            assert top_wits == sorted(wit_id[s] for s in sigla), row["id"]  # each witness once: told, spanned, absent
            assert {wit_id[s] for s in row["cells"]} <= set(wits)
            weak = app.xpath("t:note[@type='weak']/text()", namespaces=NS)
            assert (ab.get("cert"), weak) == (
                ("low", [f"{'、'.join(row['weak'])} 此格與旁邊他本各格少有相同而不常見的字，多憑次序在此行"])
                if row.get("weak")
                else (None, [])
            ), row["id"]


def test_register_in_standoff_and_referenced_from_the_text(case):
    _, export, _, data = case
    doc = _doc(data)
    kinds = {"person": "listPerson/t:person", "place": "listPlace/t:place", "thing": "listObject/t:object"}
    for kind, path in kinds.items():
        found = doc.xpath(f"//t:standOff/t:{path}[@xml:id]", namespaces=NS)
        assert len(found) == sum(e["kind"] == kind for e in export["register"])
    refs = doc.xpath("//t:text//*[@ref]", namespaces=NS)
    mentioned = sum(1 for e in export["register"] if e["mentions"])
    if mentioned:
        assert refs
        assert {el.tag.split("}")[1] for el in refs} <= {"persName", "placeName", "objectName", "rs"}


def test_header_declares_the_method_and_the_witnesses(case):
    _, export, _, data = case
    doc = _doc(data)
    (ve,) = doc.xpath("//t:encodingDesc/t:variantEncoding", namespaces=NS)
    assert (ve.get("method"), ve.get("location")) == ("parallel-segmentation", "internal")
    for w in export["witnesses"]:
        (el,) = doc.xpath("//t:listWit//t:witness[@n=$s]", s=w["siglum"], namespaces=NS)
        assert re.fullmatch(r"[A-Za-z_\u4e00-\u9fa5][A-Za-z0-9_.\-\u4e00-\u9fa5]*", el.get(XML_ID))
        assert el.xpath("t:bibl/t:title", namespaces=NS)[0].text == (w["title"] or w["siglum"])
        assert el.xpath("t:bibl/t:textLang/@mainLang", namespaces=NS)
        fam = el.getparent()
        assert fam.tag == f"{{{TEI_NS}}}listWit" and fam.get("n") == w["family"]
    assert doc.xpath("//t:titleStmt/t:respStmt[@xml:id='editor']", namespaces=NS)


def test_seeds_collation_facts_lacunae_and_names(seeds_export):
    export, texts = seeds_export
    doc = _doc(to_tei(export, texts))
    # a collation note: a nested app in the family's shared reading, the base as lem
    coll = next(n for n in export["notes"] if n["type"] == "collation")
    (rdg,) = doc.xpath("//t:app/t:rdg[contains(concat(' ', @n, ' '), $n)]", n=f" {coll['id']} ", namespaces=NS)
    assert rdg.get("type") == coll["class"]
    app = rdg.getparent()
    assert app.xpath("t:lem", namespaces=NS)[0].get("wit").split()[0] == "#" + coll["lemma"]["siglum"]
    # a fact note: a note in its row's app, pointing at the places the witnesses tell it
    fact = next(n for n in export["notes"] if n["type"] == "fact")
    (el,) = doc.xpath("//t:note[@xml:id=$i]", i=fact["id"], namespaces=NS)
    assert el.get("subtype") == fact["class"] and el.text == fact["text"]
    assert el.getparent().getparent().get("n") == fact["row"]
    assert len(el.get("target").split()) >= 2
    # B breaks off: lacunaStart in B's reading, with the lacuna note
    lac = next(x for x in export["lacunae"] if x["kind"] == "end")
    starts = doc.xpath("//t:app[@type='lacuna']/t:rdg[@wit=$w]/t:lacunaStart", w="#" + lac["siglum"], namespaces=NS)
    assert len(starts) == 1
    assert starts[0].getparent().getparent().xpath("t:note[@type='lacuna']", namespaces=NS)
    # the lord of Anshi, unnamed in A: a reference string to the register's person
    assert doc.xpath("//t:rs[@type='person'][@ref='#anshi-lord']", namespaces=NS)
    assert doc.xpath("//t:standOff/t:listPerson/t:person[@xml:id='anshi-lord']", namespaces=NS)


def test_editor_notes_carry_the_editor():
    export, texts, _ = corpus("seeds-editorial")
    editor = [n for n in export["notes"] if n["type"] == "editor"]
    assert editor, "the seeds' editorial.yaml has notes"
    doc = _doc(to_tei(export, texts))
    for n in editor:
        (el,) = doc.xpath("//t:note[@xml:id=$i]", i=n["id"], namespaces=NS)
        assert el.get("resp") == "#editor" and el.text == n["text"]
        # an editor's note points to its lemma; an editor's fact to each witness's words it quotes (a family
        # whose copies read alike there is one reading, so A's and B's 護城河橋側 is one place)
        quoted = {texts[s][a:b] for r in n["readings"] for s, (a, b) in r["spans"].items()}
        targets = el.get("target").split()
        said = set(
            "".join(seg.itertext()) for t in targets for seg in doc.xpath("//t:seg[@xml:id=$i]", i=t[1:], namespaces=NS)
        )
        assert said == (quoted or {n["lemma"]["text"]})
    assert any(len(n["readings"]) >= 2 for n in editor)


def test_verdicts_carry_the_editor():
    """The seeds' verdicts: the adopted reading's rdg with @resp, a note type="verdict" in the app (or after a
    fact's note, pointing to it) in the 校勘記's words."""
    export, texts, _ = corpus("seeds-editorial")
    judged = [n for n in export["notes"] if "verdict" in n]
    assert {n["verdict"]["kind"] for n in judged} >= {"adopt", "suspect", "undecided"}
    doc = _doc(to_tei(export, texts))
    for n in judged:
        (el,) = doc.xpath("//t:note[@type='verdict'][@n=$i]", i=n["id"], namespaces=NS)
        assert el.get("resp") == "#editor" and el.get("subtype") == n["verdict"]["kind"]
        assert el.text == n["verdict"]["words"] + (" " + n["verdict"]["text"] if "text" in n["verdict"] else "")
        if n["type"] == "fact":
            assert el.get("target") == "#" + n["id"] and el.getprevious().get(XML_ID) == n["id"]
            continue
        app = el.getparent()
        assert app.tag == T + "app" and n["id"] in app.get("n").split()
        resp = [r for r in app if r.tag in (T + "lem", T + "rdg") and r.get("resp") == "#editor"]
        if n["verdict"]["kind"] == "adopt":
            (rdg,) = resp
            assert rdg.get("wit") == " ".join("#" + s for s in n["verdict"]["sigla"])
            assert "".join(rdg.itertext()) == n["verdict"]["reads"]
        else:
            assert resp == []
    adopted = next(n for n in judged if n["verdict"]["kind"] == "adopt")
    assert adopted["verdict"]["words"] == "據B改。"  # 透 A ] 通 B


def test_moved_passages_link_to_where_the_witness_tells_them():
    export, texts, _ = corpus("seeds-editorial")  # the editor's rows directives place passages out of order
    moved = [
        (r["id"], s)
        for ep in export["episodes"]
        for r in ep["rows"]
        for s, c in r["cells"].items()
        if any(x.get("moved") for x in c)
    ]
    assert moved, "the editor places passages out of their witness's order"
    doc = _doc(to_tei(export, texts))
    segs = doc.xpath("//t:seg[@type='moved']", namespaces=NS)
    assert segs
    for seg in segs:
        for ref in seg.get("corresp").split():
            (ptr,) = doc.xpath("//t:ptr[@xml:id=$i]", i=ref[1:], namespaces=NS)
            assert ptr.get("type") == "moved" and ptr.get("target") == "#" + seg.get(XML_ID)
            assert ptr.getparent().get("type") == "witness-order"


def test_markup_characters_come_out_escaped():
    export, texts, _ = corpus("markup")
    data = to_tei(export, texts)
    assert b"]]>" not in data and b"<b>" not in data and b"<!-- \xe6" not in data
    assert b"&lt;b&gt;" in data and b"]]&gt;" in data and b"&amp;amp;" in data
    assert all(any(m in t for t in texts.values()) for m in MARKUP)
    assert b'<g type="char" n="U+000C"/>' in data  # XML 1.0 has no form feed: a g element stands for it
    assert {w.get("n") for w in _doc(data).iter(f"{{{TEI_NS}}}witness")} == set(ODD_SIGLA)


def test_ncname_makes_valid_distinct_names():
    assert ncname("A") == "A" and ncname("宋") == "宋" and ncname("【宋】") == "宋"
    assert ncname("1", "w") == "w1" and ncname("A:B") == "A_B" and ncname("", "w") == "w"
    assert ncname("a b") != ncname("ab")


TEI_CHILD = """
import hashlib, json, sys
from edition.interchange.tei import to_tei
data = json.loads(open(sys.argv[1], encoding="utf-8").read())
made = {k: to_tei(v["export"], v["texts"], url=v["url"]) for k, v in data.items()}
print(json.dumps({k: hashlib.sha256(tei).hexdigest() for k, tei in made.items()}))
"""


def test_document_is_byte_identical_across_fresh_processes(seeds_export, tmp_path):
    """Two new interpreters with different hash seeds (set and dict orders) write the same bytes as this one, on the
    seeds and on the 30 witnesses (whose crossing lemmas make apps of several notes)."""
    made = {name: _corpus(name, seeds_export) for name in ("seeds", "thirty")}
    data = tmp_path / "exports.json"
    payload = {name: {"export": e, "texts": t, "url": URL} for name, (e, t, _) in made.items()}
    data.write_text(json.dumps(payload, ensure_ascii=False), encoding="utf-8")
    runs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        cmd = [sys.executable, "-c", TEI_CHILD, str(data)]
        done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=True, timeout=120)
        runs.append(json.loads(done.stdout))
    here = {name: hashlib.sha256(tei).hexdigest() for name, (_, _, tei) in made.items()}
    assert runs[0] == runs[1] == here


def test_missing_text_is_an_error(seeds_export):
    export, texts = seeds_export
    with pytest.raises(ValueError, match="no text"):
        tei_document(export, {k: v for k, v in texts.items() if k != "A"})


def test_an_episode_without_rows_keeps_every_note(seeds_export):
    """(test_every_document_is_valid_against_tei_all validates this document too.)"""
    export, texts = seeds_export
    doc = _doc(to_tei(_without_rows(export), texts))
    ids = {el.get(XML_ID) for el in doc.iter(f"{{{TEI_NS}}}note")}
    named = {n for el in doc.iter() for n in (el.get("n") or "").split()}
    assert all(n["id"] in ids or n["id"] in named for n in export["notes"])  # kept in the witnesses' parts


def test_reading_types_and_causes_are_declared(case):
    _, _, _, data = case
    doc = _doc(data)
    declared = {c.get("n") for c in doc.xpath("//t:classDecl//t:category", namespaces=NS)}
    for el in doc.xpath("//t:text//t:rdg | //t:text//t:lem", namespaces=NS):
        assert {el.get("type"), el.get("cause")} - {None, "family"} <= declared, etree.tostring(el)[:200]


def test_silent_differences_are_marked_with_their_cause(seeds_export):
    seeds = _doc(to_tei(*seeds_export))
    assert seeds.xpath("//t:rdg[@cause='quote-style'][@type='punctuation']", namespaces=NS)
    export, texts, _ = corpus("dev")  # P unpunctuated, in Traditional script, U its Simplified copy
    dev = _doc(to_tei(export, texts))
    for cause in ("script", "unpunctuated"):
        assert dev.xpath("//t:rdg[@cause=$c][not(@n)]", c=cause, namespaces=NS), cause
    assert dev.xpath("//t:rdg[@type='layout']", namespaces=NS)  # P's printed line breaks


def test_the_worker_makes_the_same_document(seeds_export, monkeypatch):
    """A large edition's TEI is made in a worker process (``interchange.aside``) while the site renders: the same
    bytes as in the calling process, and the worker answers request after request."""
    from edition.engine.export import to_json
    from edition.interchange import aside

    export, texts, _ = _corpus("seeds", seeds_export)
    here = to_tei(export, texts, "題", URL)
    monkeypatch.setattr(aside, "LEAST", 0)
    first = aside.tei_aside(export, to_json(export), texts, "題", URL)
    second = aside.tei_aside(export, to_json(export), texts, "他題", None)
    assert first.result() == here
    assert second.result() == to_tei(export, texts, "他題", None) != here
    assert aside._worker[0].process.poll() is None  # kept for the next build


def test_a_worker_that_stops_leaves_the_document_made_here(seeds_export, monkeypatch):
    """The worker killed after a request (or before one) is no lost TEI: it is made in the calling process, and the
    next request starts a new worker."""
    from edition.engine.export import to_json
    from edition.interchange import aside

    export, texts, _ = _corpus("seeds", seeds_export)
    monkeypatch.setattr(aside, "LEAST", 0)
    sent = aside.tei_aside(export, to_json(export), texts, "題", URL)
    killed = aside._worker[0].process
    killed.kill()
    killed.wait()
    assert sent.result() == to_tei(export, texts, "題", URL)
    again = aside.tei_aside(export, to_json(export), texts, "題", URL)
    assert aside._worker[0].process is not killed
    assert again.result() == to_tei(export, texts, "題", URL)
