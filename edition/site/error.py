"""The stand-in pages ``mkdocs serve`` shows while the input is broken, so the reader sees what is wrong and where
instead of a server that seems stuck."""

from __future__ import annotations

from .templating import ENV


def render_error(message: str, paths: list[str]) -> dict[str, str]:
    """Stand-in pages while the input is broken (``mkdocs serve``): each says what is wrong and where."""
    page = ENV.get_template("error.md.jinja").render(message=message)
    return dict.fromkeys(paths, page)
