"""One error type for bad input, so every shell (CLI, MkDocs hook) can show it the same way."""

from __future__ import annotations

from pathlib import Path


class EditionError(Exception):
    """Bad input: names the file and says what is wrong with it, in one line."""

    def __init__(self, path: Path | str | None, problem: str) -> None:
        self.path = str(path) if path is not None else None
        self.problem = problem
        super().__init__(f"{self.path}: {problem}" if self.path else problem)
