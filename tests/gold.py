"""The gold annotation of the seeds (tests/gold/episodes.yaml), as character labels."""

from __future__ import annotations

from pathlib import Path

import yaml

GOLD = Path(__file__).parent / "gold" / "episodes.yaml"


def gold_labels(file: str, text: str) -> list[str | None]:
    """The gold episode id of every character of ``text`` (None outside every range)."""
    ranges = yaml.safe_load(GOLD.read_text(encoding="utf-8"))[file]
    labels: list[str | None] = [None] * len(text)
    pos = 0
    for episode, first, last in ranges:
        start = text.index(first, pos)
        end = text.index(last, start) + len(last)
        labels[start:end] = [episode] * (end - start)
        pos = end
    return labels


def gold_files() -> list[str]:
    return sorted(yaml.safe_load(GOLD.read_text(encoding="utf-8")))
