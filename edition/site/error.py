"""What ``mkdocs serve`` shows while the input is broken, so an editor sees what is wrong, and where, on whatever
page they look at, and a reader never meets a dead link.

MkDocs' live-reload server keeps serving the last site whose build did not raise, so the hook does not raise
under ``serve``: it asks ``LastGoodSite`` for the files of a broken build instead. Every generated page the last
good build made comes back as it was, and every page (hand-written ones too: home, method) gets the error above
its text, a generated one marked as the last good build's; a page the nav lists that no good build has made yet
(the first build is broken) gets a stand-in of its own. The downloads are the last good build's, or none (the
links to them are then hidden).
"""

from __future__ import annotations

from pathlib import PurePosixPath

from .templating import ENV


def render_error(message: str, paths: list[str]) -> dict[str, str]:
    """Stand-in pages while the input is broken and no good build has made them: each says what is wrong and
    where, under a title of its own (its file's name), so the nav does not read 錯誤 for every page."""
    template = ENV.get_template("error.md.jinja")
    return {path: template.render(message=message, name=PurePosixPath(path).stem) for path in paths}


class LastGoodSite:
    """The generated files of the last good build, and the error of the current one (None while it builds)."""

    def __init__(self) -> None:
        self.pages: dict[str, str] = {}
        self.downloads: dict[str, str | bytes] = {}
        self.error: str | None = None
        self._stand_ins: set[str] = set()

    def good(self, pages: dict[str, str], downloads: dict[str, str | bytes]) -> None:
        """Remember a good build's files."""
        self.pages, self.downloads, self.error, self._stand_ins = dict(pages), dict(downloads), None, set()

    def broken(self, message: str, listed: list[str]) -> tuple[dict[str, str], dict[str, str | bytes]]:
        """The files of a broken build: the last good pages and downloads (the nav's sections of generated pages
        list what they list), or, before any good build, a stand-in for each page in ``listed`` (what the nav
        names and no hand-written page provides)."""
        self.error = message
        missing = [] if self.pages else listed
        self._stand_ins = set(missing)
        return {**self.pages, **render_error(message, missing)}, dict(self.downloads)

    def with_error(self, markdown: str, path: str) -> str:
        """A page's Markdown, with the error above it while the input is broken (a stand-in says it already)."""
        if self.error is None or path in self._stand_ins:
            return markdown
        banner = ENV.get_template("error_banner.md.jinja").render(message=self.error, stale=path in self.pages)
        return banner + markdown
