"""``assets/edition-search.json``: the character folding the search and its highlighter use, so a reader who
types either script finds both (遼澤 finds 辽泽 and the other way round).
"""

from __future__ import annotations

import json
import re

from ..engine.exported import EditionJson
from .script_forms import ScriptForms

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff]")


def search_folding(forms: ScriptForms, texts: dict[str, str], export: EditionJson) -> str:
    """Each character of the edition (texts and register) that reads differently in the other script,
    mapped to its Simplified form: search and its highlighter fold both sides with it, char by char."""
    chars = set()
    for text in (
        *texts.values(),
        *(a for e in export["register"] for a in (e["name"], *e["aliases"], *e["variants"])),
    ):
        chars.update(_HAN.findall(text))
    fold = {}
    for c in sorted(chars):
        t, s = forms.forms(c)
        for form in (c, t):
            one_unit = max(ord(form), ord(s)) < 0x10000  # one UTF-16 unit each, as the highlighter reads them
            if len(form) == 1 and len(s) == 1 and form != s and one_unit:
                fold[form] = s
    return json.dumps({"fold": "".join(k + v for k, v in sorted(fold.items()))}, ensure_ascii=False)
