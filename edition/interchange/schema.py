"""The JSON Schema (Draft 2020-12) of ``edition-export/2``, shipped with the package as ``edition.schema.json``."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

NAME = "edition.schema.json"


def schema_text() -> str:
    """The schema as published (next to ``edition.json`` on the site)."""
    return (resources.files("edition.interchange") / NAME).read_text(encoding="utf-8")


@cache
def schema() -> dict[str, Any]:
    return json.loads(schema_text())
