"""Reading the editor's data files (YAML, TSV) with errors that name the file and the line.

YAML mappings are read as ``YamlMap`` objects, dictionaries that remember the line
they start on and the line of each key, so a check made long after parsing can
still point the editor at the right place.

These files are plain lists and mappings, so the YAML that can only hurt is refused before a
node is built: aliases and merge keys (a kilobyte of nested ``<<: [*m, *m, …]`` expands to
gigabytes), nesting deeper than any of them needs (libyaml's composer recurses on the C stack
and crashes the process), and a key given twice in one mapping (YAML keeps the last silently).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from ..errors import EditionError


class YamlMap(dict):
    """A YAML mapping with the (1-based) line it starts on and the line of each of its keys."""

    line: int = 0
    key_lines: dict[str, int]

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """SafeLoader whose mappings are ``YamlMap`` objects (libyaml's when present: five times faster)."""


MAX_DEPTH = 50  # levels of nested lists and mappings; the edition's files use at most five


class _Refused(yaml.YAMLError):
    """YAML the edition's files do not accept, at a (1-based) line."""

    def __init__(self, problem: str, line: int) -> None:
        super().__init__(problem)
        self.problem = problem
        self.line = line


def _refuse_expansion(text: str) -> None:
    """Refuse aliases, merge keys and deep nesting, from libyaml's event stream: before any node is composed.

    One pass in constant memory (a seventh of the load's own time); a syntax error on the way is
    raised as the parser's own, so it reads as it would from the load."""
    depth = 0
    for event in yaml.parse(text, Loader=_Loader):
        mark = event.start_mark
        if isinstance(event, yaml.AliasEvent):
            raise _Refused(_expands(f"alias '*{event.anchor}'", mark), mark.line + 1)
        if isinstance(event, yaml.ScalarEvent) and event.value == "<<" and event.implicit[0]:
            raise _Refused(_expands("merge key '<<'", mark), mark.line + 1)
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                raise _Refused(
                    f"lists and mappings nested more than {MAX_DEPTH} deep at column {mark.column + 1}", mark.line + 1
                )
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def _expands(what: str, mark: yaml.Mark) -> str:
    return (
        f"{what} at column {mark.column + 1}: aliases (*name) and merge keys (<<) are not allowed in the edition's "
        "files, as a few lines of them can expand without bound; write the values out"
    )


def _mapping(loader: _Loader, node: yaml.MappingNode) -> YamlMap:
    entry = YamlMap()
    entry.line = node.start_mark.line + 1
    entry.key_lines = {}
    marks: dict[object, yaml.Mark] = {}  # of each key, to name both places of a key given twice
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            raise yaml.constructor.ConstructorError(
                None, None, "a key must be plain text", key_node.start_mark
            ) from None
        if key in marks:
            raise _Refused(_twice(key, marks[key], key_node.start_mark), key_node.start_mark.line + 1)
        entry[key] = loader.construct_object(value_node, deep=True)
        entry.key_lines[str(key)] = key_node.start_mark.line + 1
        marks[key] = key_node.start_mark
    return entry


def _twice(key: object, first: yaml.Mark, again: yaml.Mark) -> str:
    if first.line == again.line:
        where = f"line {first.line + 1}, columns {first.column + 1} and {again.column + 1}"
    else:
        where = f"lines {first.line + 1} and {again.line + 1}"
    return f"key '{key}' is given twice in one mapping ({where}); YAML would keep only the last"


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def within(path: Path, folder: Path) -> Path:
    """``path``, which must stay in ``folder`` once every link is followed, or a clear error.

    Whatever the edition reads is published, or quoted in its messages: a link in the seeds folder to
    ``/etc/passwd`` or a key in the builder's home must not bring that file in."""
    target, home = path.resolve(), folder.resolve()
    if home not in target.parents:
        raise EditionError(path, f"is a link to {target}, outside {home}: the edition reads only what is in its folder")
    return path


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
        _refuse_expansion(text)
        return yaml.load(text, Loader=_Loader)
    except _Refused as exc:
        raise EditionError(path, exc.problem, exc.line) from None
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


def entries(path: Path, data: Any, key: str) -> list[YamlMap]:
    """The list under ``key`` (a mapping at the top), each entry a mapping."""
    return sections(path, data, {key})[key]


def sections(path: Path, data: Any, keys: set[str]) -> dict[str, list[YamlMap]]:
    """The lists under the top-level ``keys`` (each optional), each entry a mapping."""
    if data is None:
        return {k: [] for k in keys}
    if not isinstance(data, YamlMap):
        raise EditionError(path, f"expected a mapping with {_listing(keys)} at the top", 1)
    unknown = sorted(str(k) for k in set(data) - keys)
    if unknown:
        raise EditionError(
            path, f"unknown top-level key(s) {', '.join(unknown)}; allowed: {_listing(keys)}", data.line_of(unknown[0])
        )
    out = {}
    for k in keys:
        items = data.get(k) or []
        if not isinstance(items, list) or not all(isinstance(i, YamlMap) for i in items):
            raise EditionError(path, f"'{k}' must be a list of mappings", data.line_of(k))
        out[k] = items
    return out


def _listing(keys: set[str]) -> str:
    return ", ".join(f"'{k}:'" for k in sorted(keys))


def check_keys(path: Path, entry: YamlMap, allowed: set[str], where: str) -> None:
    unknown = sorted(str(k) for k in set(entry) - allowed)
    if unknown:
        raise EditionError(
            path,
            f"{where}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(allowed))}",
            entry.line_of(unknown[0]),
        )


def text_field(path: Path, entry: YamlMap, key: str, where: str, required: bool = False) -> str:
    value = entry.get(key)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise EditionError(path, f"{where}: '{key}' is missing or empty", entry.line_of(key))
        return ""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise EditionError(path, f"{where}: '{key}' must be text", entry.line_of(key))
    return str(value).strip()


# a run of white space between two Chinese characters (letters, marks, full-width forms)
_CJK = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
_CJK_GAP = re.compile(rf"(?<=[{_CJK}])\s+(?=[{_CJK}])")


def prose(text: str) -> str:
    """An editor's prose as the reader is to see it: YAML folds a long value's lines (``>-``) with a space between
    them, which Chinese does not have (遼州、蓋州、巖州戶口入內地， 耀兵於安市城下): a space between two Chinese
    characters is dropped. For the texts an editor writes about the edition (an episode's description, a witness's
    description), not for quotations of a witness, which must match it as written."""
    return _CJK_GAP.sub("", text)


def texts_field(path: Path, entry: YamlMap, key: str, where: str) -> tuple[str, ...]:
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
