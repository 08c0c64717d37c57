"""Reading the editor's YAML data files, with errors that name the file and line."""

from __future__ import annotations

import codecs
from pathlib import Path
from typing import Any

import yaml

from .errors import EditionError


def read_yaml(path: Path) -> Any:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise EditionError(path, f"cannot be read ({exc.strerror})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        at = exc.start + (len(codecs.BOM_UTF8) if raw.startswith(codecs.BOM_UTF8) else 0)  # offsets into the file
        raise EditionError(path, f"not valid UTF-8 at byte {at}") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise EditionError(path, f"broken YAML at {where}{problem}") from None


def entries(path: Path, data: Any, key: str) -> list[dict[str, Any]]:
    """The list under ``key`` (a mapping at the top), each entry a mapping."""
    if data is None:
        return []
    if not isinstance(data, dict) or key not in data:
        raise EditionError(path, f"expected a mapping with a '{key}:' list at the top")
    unknown = sorted(set(data) - {key})
    if unknown:
        raise EditionError(path, f"unknown top-level key(s) {', '.join(unknown)}; only '{key}' is allowed")
    items = data[key] or []
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise EditionError(path, f"'{key}' must be a list of mappings")
    return items


def check_keys(path: Path, entry: dict[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(str(k) for k in set(entry) - allowed)
    if unknown:
        raise EditionError(path, f"{where}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(allowed))}")


def text_field(path: Path, entry: dict[str, Any], key: str, where: str, required: bool = False) -> str:
    value = entry.get(key)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise EditionError(path, f"{where}: '{key}' is missing or empty")
        return ""
    if not isinstance(value, (str, int, float)):
        raise EditionError(path, f"{where}: '{key}' must be text")
    return str(value).strip()
