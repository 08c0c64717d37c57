"""Reading the editor's data files (YAML, TSV) with errors that name the file and the line.

YAML mappings are read as ``Entry`` objects, dictionaries that remember the line
they start on and the line of each key, so a check made long after parsing can
still point the editor at the right place.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from ..errors import EditionError


class Entry(dict):
    """A YAML mapping with the (1-based) line it starts on and the line of each of its keys."""

    line: int = 0
    key_lines: dict[str, int]

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """SafeLoader whose mappings are ``Entry`` objects (libyaml's when present: five times faster)."""


def _mapping(loader: _Loader, node: yaml.MappingNode) -> Entry:
    loader.flatten_mapping(node)
    entry = Entry()
    entry.line = node.start_mark.line + 1
    entry.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            raise yaml.constructor.ConstructorError(
                None, None, "a key must be plain text", key_node.start_mark
            ) from None
        entry[key] = loader.construct_object(value_node, deep=True)
        entry.key_lines[str(key)] = key_node.start_mark.line + 1
    return entry


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def read_text(path: Path) -> str:
    """A data file as text (UTF-8, BOM allowed), or a clear error."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise EditionError(path, f"cannot be read ({exc.strerror})") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        at = exc.start + (len(codecs.BOM_UTF8) if raw.startswith(codecs.BOM_UTF8) else 0)  # offsets into the file
        line = raw[:at].count(b"\n") + 1
        raise EditionError(path, f"not valid UTF-8 at byte {at}", line) from None


def read_yaml(path: Path) -> Any:
    text = read_text(path)
    try:
        return yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        where = f"column {mark.column + 1}: " if mark else ""
        opened = _left_open(text, exc) if mark else None
        if opened is None:
            raise EditionError(path, f"broken YAML at {where}{problem}", mark.line + 1 if mark else None) from None
        line, what = opened
        stopped = f"line {mark.line + 1}, {where}{problem}"
        raise EditionError(path, f"broken YAML: {what} opened on this line is not closed ({stopped})", line) from None


def _left_open(text: str, exc: yaml.YAMLError) -> tuple[int, str] | None:
    """The line (1-based) of a quote or bracket left open, when that is what broke the YAML, and which it is.

    The parser notices such a mistake only where it gives up: an open bracket on the next line, an open quote
    at the next quote, maybe a hundred lines down, or at the end of the file. The editor needs the line of the
    mistake itself: the start of the quoted text that ran on to where the parser stopped, or of the unclosed
    bracket or quote the parser names as its context."""
    mark, context, where = exc.problem_mark, getattr(exc, "context_mark", None), getattr(exc, "context", "") or ""
    if context is not None and context.line < mark.line:
        if "quoted scalar" in where:
            return context.line + 1, "a quote"
        if "flow" in where:
            return context.line + 1, "a bracket"
    runaway = None
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            quoted = isinstance(token, yaml.ScalarToken) and token.style in ("'", '"')
            if quoted and token.start_mark.line < token.end_mark.line == mark.line:
                runaway = token.start_mark.line + 1
    except yaml.YAMLError:
        pass
    return (runaway, "a quote") if runaway else None


def entries(path: Path, data: Any, key: str) -> list[Entry]:
    """The list under ``key`` (a mapping at the top), each entry a mapping."""
    return sections(path, data, {key})[key]


def sections(path: Path, data: Any, keys: set[str]) -> dict[str, list[Entry]]:
    """The lists under the top-level ``keys`` (each optional), each entry a mapping."""
    if data is None:
        return {k: [] for k in keys}
    if not isinstance(data, Entry):
        raise EditionError(path, f"expected a mapping with {_listing(keys)} at the top", 1)
    unknown = sorted(str(k) for k in set(data) - keys)
    if unknown:
        raise EditionError(
            path, f"unknown top-level key(s) {', '.join(unknown)}; allowed: {_listing(keys)}", data.line_of(unknown[0])
        )
    out = {}
    for k in keys:
        items = data.get(k) or []
        if not isinstance(items, list) or not all(isinstance(i, Entry) for i in items):
            raise EditionError(path, f"'{k}' must be a list of mappings", data.line_of(k))
        out[k] = items
    return out


def _listing(keys: set[str]) -> str:
    return ", ".join(f"'{k}:'" for k in sorted(keys))


def check_keys(path: Path, entry: Entry, allowed: set[str], where: str) -> None:
    unknown = sorted(str(k) for k in set(entry) - allowed)
    if unknown:
        raise EditionError(
            path,
            f"{where}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(allowed))}",
            entry.line_of(unknown[0]),
        )


def text_field(path: Path, entry: Entry, key: str, where: str, required: bool = False) -> str:
    value = entry.get(key)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise EditionError(path, f"{where}: '{key}' is missing or empty", entry.line_of(key))
        return ""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise EditionError(path, f"{where}: '{key}' must be text", entry.line_of(key))
    return str(value).strip()


def texts_field(path: Path, entry: Entry, key: str, where: str) -> tuple[str, ...]:
    """A list of texts (a single text is a list of one)."""
    value = entry.get(key) or []
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in value):
        raise EditionError(path, f"{where}: '{key}' must be a list of texts", entry.line_of(key))
    return tuple(str(v).strip() for v in value if str(v).strip())


def tsv_rows(path: Path, columns: int) -> Iterator[tuple[int, list[str]]]:
    """(line number, fields) of a tab-separated file; blank lines and ``#`` comments skipped."""
    for n, line in enumerate(read_text(path).splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = [f.strip() for f in line.split("\t")]
        if len(fields) != columns or not all(fields):
            shown = line if len(line) <= 40 else line[:40] + "…"
            raise EditionError(path, f"expected {columns} fields separated by a tab, got {shown!r}", n)
        yield n, fields
