"""Interchange formats built from the ``edition-export/2`` dict: TEI P5, a CollateX table, the JSON Schema.

Each takes the export (``edition.engine.export.to_dict``) and, where the format must carry the
whitespace the export leaves out, the witness texts (siglum -> text); none builds the edition again.
"""

from __future__ import annotations

from ..engine.exported import EditionJson

TITLE = "安市班師 · 校本"  # the site's ``site_name`` and CITATION.cff's title (a test keeps them equal)


def published(
    export: EditionJson, texts: dict[str, str], title: str = TITLE, url: str | None = None
) -> dict[str, bytes]:
    """The files the site publishes next to ``edition.json``: the TEI (``edition.xml``) and the schema."""
    from .schema import NAME, schema_text
    from .tei import to_tei

    return {"edition.xml": to_tei(export, texts, title, url), NAME: schema_text().encode("utf-8")}
