"""Where each generated page lives, and how one page links to another.

Links inside the pages' raw HTML blocks are written for MkDocs' directory URLs (``use_directory_urls: true``):
MkDocs does not rewrite raw HTML, so every link is made here, relative to the depth of the page that holds it.
"""

from __future__ import annotations

import re

SEARCH_DATA = "assets/edition-search.json"
_SAFE = re.compile(r"^[A-Za-z0-9_-]+$")


def witness_page(siglum: str, index: int) -> str:
    """Page path of a witness: its siglum when that is a safe file name, else its position."""
    return f"witnesses/{siglum}.md" if _SAFE.match(siglum) else f"witnesses/w{index + 1}.md"


def episode_page(episode_id: str) -> str:
    return f"episodes/{episode_id}.md"


def url(page: str, depth: int) -> str:
    """Directory URL of a page path from a page ``depth`` folders deep (``episodes/x.md`` → ``../episodes/x/``)."""
    return "../" * depth + page.removesuffix(".md") + "/"
