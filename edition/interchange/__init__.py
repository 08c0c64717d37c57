"""Interchange formats built from the ``edition-export/2`` dict: TEI P5, a CollateX table, the JSON Schema.

Each takes the export (``edition.engine.export.to_dict``) and, where the format must carry the
whitespace the export leaves out, the witness texts (siglum -> text); none builds the edition again.
"""

from __future__ import annotations

TITLE = "安市班師 · 校本"  # the site's ``site_name`` and CITATION.cff's title (a test keeps them equal)
