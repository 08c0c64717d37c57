"""The engine's tuned parameters as a table for the method page: each with the value this edition uses, its
default and what it means, so a reader of the figures knows every number behind them (edition.engine.params)."""

from __future__ import annotations

from dataclasses import fields

from ..engine.params import Params

MARKER = "<!-- edition:parameters -->"  # where docs/method.md takes the table


def parameters_table(params: Params) -> str:
    """A Markdown table of every parameter: name, this edition's value (bold, with the default, where
    parameters.yaml sets it), and its doc; three columns, which a phone's width holds."""
    lines = ["| 參數 | 值 | 意義 |", "| --- | --- | --- |"]
    for f in fields(Params):
        value = getattr(params, f.name)
        shown = f"**{_number(value)}**（預設 {_number(f.default)}）" if value != f.default else _number(value)
        lines.append(f"| `{f.name}` | {shown} | {f.metadata['doc']} |")
    return "\n".join(lines) + "\n"


def _number(value: object) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)
