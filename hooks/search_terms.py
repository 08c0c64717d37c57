"""MkDocs hook: the register's names as single search terms.

Material's search segments Han text with jieba when it builds the index; a name jieba does not know is cut
into pieces (杨万春 → 杨 万春), and a query for the name then matches any page that shares a piece. Before
the search plugin reads its options (this ``on_config`` runs first), the register's headwords, aliases,
variants and titles, in both scripts, are written to a jieba user dictionary and handed to the plugin as
``jieba_dict_user``. The register is read afresh on every build (``mkdocs serve`` included); when the
input is broken the edition hook reports it, and the index is built without the names.
"""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path

from mkdocs.plugins import event_priority

from edition.engine.convert import to_simplified, to_traditional
from edition.engine.resources import data_folders, load_resources
from edition.errors import EditionError

log = logging.getLogger("mkdocs.plugins.edition.search")
DICTIONARY = Path(tempfile.gettempdir()) / f"edition-search-terms-{os.getpid()}.txt"


def register_terms(seeds: Path, project: Path) -> list[str]:
    """Every name of every register entry, in both scripts, sorted; [] when the input cannot be read."""
    try:
        register = load_resources(data_folders(seeds, project)).register
    except EditionError:
        return []
    names = {n for e in register.entries for n in (e.name, *e.aliases, *e.variants, *e.titles)}
    return sorted(
        {form for n in names for form in (n, to_traditional(n), to_simplified(n)) if form and " " not in form}
    )


@event_priority(100)  # before Material's search plugin loads the dictionary in its own on_config
def on_config(config):
    search = config.plugins.get("material/search")
    if search is None:
        return config
    project = Path(config.config_file_path).parent
    terms = register_terms(project / os.environ.get("EDITION_SEEDS", "seeds"), project)
    DICTIONARY.write_text("".join(f"{t}\n" for t in terms), encoding="utf-8")
    search.config.jieba_dict_user = str(DICTIONARY)
    log.debug("edition: %d register names are search terms", len(terms))
    return config
