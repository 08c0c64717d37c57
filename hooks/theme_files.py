"""MkDocs hook: the theme's static files listed once while the theme is unchanged, not on every build.

MkDocs adds the theme's static files to every build by listing every file of every theme folder and testing each
name against a dozen patterns (``Files.add_files_from_theme``). Material ships some 14,000 files, nearly all of them
icons, and under ``mkdocs serve`` the listing was a fifth of a rebuild of the seeds after a save. An installed theme
does not change while the server runs; the project's own theme folder (``custom_dir``: overrides/) may, so its
files' names and modification times are read on every build (a handful), and the theme is listed again when they
change. What is added is what MkDocs' own method adds: it runs once per listing, into an empty collection, and the
files it made are made again for each build (a page of the project's own still takes precedence, as there).
"""

from __future__ import annotations

import os

from mkdocs.structure.files import File, Files

_listed: dict[tuple, list[tuple[str, str]]] = {}  # the last listing: (theme file's path, its theme folder)


def _signature(folder: str | None) -> tuple:
    """Every file under ``folder`` with its modification time (the project's theme folder: a few files)."""
    if not folder or not os.path.isdir(folder):
        return ()
    out = []
    for root, dirs, names in os.walk(folder):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(root, name)
            out.append((path, os.stat(path).st_mtime_ns))
    return tuple(out)


def _listing(add, env, config) -> list[tuple[str, str]]:
    """The theme's static files, as MkDocs' ``add`` finds them, kept while the theme folders are as they were."""
    theme = config.theme
    key = (tuple(theme.dirs), tuple(theme.static_templates), _signature(theme.custom_dir))
    if key not in _listed:
        probe = Files([])
        add(probe, env, config)
        _listed.clear()
        _listed[key] = [(f.src_uri, f.src_dir) for f in probe]
    return _listed[key]


def _patch() -> None:
    """``Files.add_files_from_theme`` through the listing (once per process, however often this file is loaded)."""
    if getattr(Files, "_edition_listed", False):
        return
    add = Files.add_files_from_theme

    def add_files_from_theme(self: Files, env, config) -> None:
        for path, folder in _listing(add, env, config):
            if self.get_file_from_path(path) is None:  # the project's own file of that name comes first
                self.append(File(path, folder, config.site_dir, config.use_directory_urls))

    Files.add_files_from_theme = add_files_from_theme
    Files._edition_listed = True


_patch()
