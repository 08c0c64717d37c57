"""The engine's tuned parameters as a table for the method page: each with the value this edition uses, its
default and what it means, so a reader of the figures knows every number behind them (edition.engine.params)."""

from __future__ import annotations

from dataclasses import fields

from ..engine.params import Params

MARKER = "<!-- edition:parameters -->"  # where docs/method.md takes the table


def parameters_table(params: Params) -> str:
    """A Markdown table of every parameter: name, this edition's value (marked where parameters.yaml sets it),
    the default, and its doc."""
    lines = ["| 參數 | 此書之值 | 預設 | 意義 |", "| --- | --- | --- | --- |"]
    for f in fields(Params):
        value = getattr(params, f.name)
        shown = f"**{_number(value)}**" if value != f.default else _number(value)
        lines.append(f"| `{f.name}` | {shown} | {_number(f.default)} | {f.metadata['doc']} |")
    return "\n".join(lines) + "\n"


def _number(value: object) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)
