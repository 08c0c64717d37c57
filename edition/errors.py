"""One error type for bad input, so every shell (CLI, MkDocs hook) can show it the same way."""

from __future__ import annotations

from pathlib import Path


class EditionError(Exception):
    """Bad input, in one line: the file, the line in it where known, and what is wrong."""

    def __init__(self, path: Path | str | None, problem: str, line: int | None = None) -> None:
        self.path = str(path) if path is not None else None
        self.line = line
        self.problem = problem
        where = self.path or ""
        if line is not None:
            where += f", line {line}"
        super().__init__(f"{where}: {problem}" if where else problem)
