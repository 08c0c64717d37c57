"""Load witnesses: the catalogue, then every ``*.txt`` file, decoded strictly.

A witness text is the decoded file with ``\\n`` newlines; every offset in the
project points into it, so decoding never guesses and never replaces bytes.
"""

from __future__ import annotations

import codecs
import errno
import re
import string
from collections.abc import Iterator
from pathlib import Path

from ..errors import EditionError
from .convert import detect_script
from .datafile import check_keys, entries, prose, read_yaml, text_field, within
from .model import Witness, WitnessMeta

CATALOGUE = "catalogue.yaml"
_TEXT_KEYS = {"file", "siglum", "title", "description", "source", "encoding", "family"}
_CATALOGUE_KEYS = _TEXT_KEYS | {"base"}
_SURROGATE = re.compile("[\ud800-\udfff]")


def default_sigla() -> Iterator[str]:
    """A, B, … Z, then AA, AB, …: enough for any number of witnesses."""
    letters = string.ascii_uppercase
    yield from letters
    for first in letters:
        for second in letters:
            yield first + second


def read_catalogue(folder: Path, files: list[str]) -> list[WitnessMeta]:
    """Catalogue data for each file, in file order; defaults where the catalogue is silent."""
    path = folder / CATALOGUE
    given: dict[str, dict[str, str]] = {}
    lines: dict[str, int] = {}
    if path.exists():
        for n, entry in enumerate(entries(path, read_yaml(within(path, folder)), "witnesses"), 1):
            where = f"witness entry {n}"
            check_keys(path, entry, _CATALOGUE_KEYS, where)
            name = text_field(path, entry, "file", where, required=True)
            if name not in files:
                raise EditionError(
                    path, f"{where}: file '{name}' is not a .txt file in {folder}", entry.line_of("file")
                )
            if name in given:
                raise EditionError(path, f"{where}: file '{name}' is catalogued twice", entry.line_of("file"))
            encoding = text_field(path, entry, "encoding", where)
            if encoding:
                check_encoding(path, encoding, where, entry.line_of("encoding"))
            given[name] = {k: text_field(path, entry, k, where) for k in _TEXT_KEYS}
            base = entry.get("base", False)
            if not isinstance(base, bool):
                raise EditionError(path, f"{where}: 'base' must be true or false", entry.line_of("base"))
            if base and not given[name]["family"]:
                raise EditionError(path, f"{where}: 'base: true' needs a 'family:' to be the base of", entry.line)
            given[name]["base"] = "yes" if base else ""
            lines[name] = entry.line
    taken = {g["siglum"] for g in given.values() if g["siglum"]}
    free = (s for s in default_sigla() if s not in taken)
    metas: list[WitnessMeta] = []
    seen: dict[str, str] = {}
    for name in files:
        g = given.get(name, {})
        siglum = g.get("siglum") or next(free)
        if siglum in seen:
            raise EditionError(
                path, f"files '{seen[siglum]}' and '{name}' both have siglum '{siglum}'", lines.get(name)
            )
        seen[siglum] = name
        metas.append(
            WitnessMeta(
                file=name,
                siglum=siglum,
                title=g.get("title") or name,
                description=prose(g.get("description", "")),
                source=g.get("source", ""),
                encoding=g.get("encoding") or None,
                family=g.get("family") or None,
                base=bool(g.get("base")),
            )
        )
    bases: dict[str, str] = {}
    for m in metas:
        if m.base and m.family in bases:
            raise EditionError(
                path, f"family '{m.family}' has two bases: {bases[m.family]} and {m.siglum}", lines.get(m.file)
            )
        if m.base and m.family:
            bases[m.family] = m.siglum
    return metas


def check_encoding(path: Path, encoding: str, where: str, line: int) -> None:
    """An encoding Python knows that turns bytes into text: ``hex``, ``zlib`` or ``rot13`` are codecs too."""
    try:
        codec = codecs.lookup(encoding)
    except (LookupError, ValueError):  # ValueError: a NUL in the name
        raise EditionError(path, f"{where}: unknown encoding {encoding!r}", line) from None
    if not codec._is_text_encoding:  # the flag bytes.decode refuses them by
        raise EditionError(path, f"{where}: {encoding!r} is not a text encoding (e.g. gb18030, big5, utf-16)", line)


def decode(path: Path, raw: bytes, encoding: str | None) -> str:
    """Bytes to a witness text: a named encoding, or UTF-8 / UTF-16 by their BOM."""
    if encoding is None:
        if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            encoding = "utf-16"
        else:
            encoding = "utf-8-sig"
            if b"\x00" in raw:
                at = raw.index(b"\x00")
                raise EditionError(path, f"binary data, not text (a NUL byte at offset {at})")
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as exc:
        hint = (
            ""
            if encoding not in ("utf-8-sig", "utf-16")
            else ("; if it is another encoding, name it in catalogue.yaml (e.g. encoding: gb18030)")
        )
        # utf-8-sig reports positions after the BOM it skipped; offsets here are into the file.
        at = exc.start
        if codecs.lookup(encoding).name == "utf-8-sig" and raw.startswith(codecs.BOM_UTF8):
            at += len(codecs.BOM_UTF8)
        raise EditionError(
            path, f"cannot be decoded as {exc.encoding}: bad byte 0x{raw[at]:02x} at offset {at}{hint}"
        ) from None
    except UnicodeError as exc:  # codecs that name no position: idna, punycode, undefined
        raise EditionError(path, f"cannot be decoded as {encoding}: {exc}") from None
    bad = next((i for i, ch in enumerate(text) if ch < " " and ch not in "\n\r\t\f\v"), None)
    if bad is not None:
        raise EditionError(path, f"binary data, not text (control character U+{ord(text[bad]):04X} at character {bad})")
    # unicode_escape, raw_unicode_escape and utf-7 decode "\ud800" or "+2AA-" to half a UTF-16 pair: no character
    half = _SURROGATE.search(text)
    if half:
        raise EditionError(
            path,
            f"decoded as {encoding} it holds U+{ord(half.group()):04X}, half of a UTF-16 pair and no character, "
            f"at character {half.start()}",
            text.count("\n", 0, half.start()) + 1,
        )
    if text.startswith("\ufeff"):  # a BOM left by a named encoding (utf-8, utf-16-le…) is not text
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n")


def witness_files(folder: Path, warn: list[str]) -> list[str]:
    """The names of the witness files in ``folder``, sorted; each a file in it, or a link to one in it.

    A link is followed only within the folder (``within``); a dangling link or a loop is skipped with a
    warning, as the editor may have left it there on purpose."""
    if not folder.is_dir():
        raise EditionError(folder, "is not a folder")
    try:
        names = sorted(p.name for p in folder.iterdir())
    except OSError as exc:
        raise EditionError(folder, f"cannot be listed ({exc.strerror})") from None
    # Hidden files (macOS "._x.txt" resource forks, editors' ".#x.txt" locks) are not witnesses.
    return [n for n in names if n.endswith(".txt") and not n.startswith(".") and _is_file(folder / n, folder, warn)]


def _is_file(path: Path, folder: Path, warn: list[str]) -> bool:
    """Whether ``path`` is a file once every link is followed (a link out of ``folder`` is an error)."""
    try:
        path.resolve(strict=True)
    except (OSError, RuntimeError) as exc:  # RuntimeError: a loop, before Python 3.13
        loop = isinstance(exc, RuntimeError) or exc.errno == errno.ELOOP
        warn.append(f"{path}: {'a loop of links' if loop else 'a link to nothing'}; skipped, not a witness")
        return False
    return within(path, folder).is_file()


def load_witnesses(folder: Path, warn: list[str]) -> tuple[Witness, ...]:
    """Every ``*.txt`` in ``folder``, in file-name order; a clear error for the first bad one."""
    files = witness_files(folder, warn)
    if not files:
        raise EditionError(folder, "holds no witness (*.txt) files")
    witnesses = []
    for meta in read_catalogue(folder, files):
        path = folder / meta.file
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise EditionError(path, f"cannot be read ({exc.strerror})") from None
        text = decode(path, raw, meta.encoding)
        if not text.strip():
            warn.append(f"{path}: holds no text (only whitespace); it is kept as an empty witness")
        witnesses.append(Witness(meta=meta, text=text, script=detect_script(text)))
    return tuple(witnesses)
