"""The words the site shows for the export's codes: note kinds, fact tags, register kinds, scripts, lacunae.

One table per code, so every page (episode filters, 凡例, register, witness catalogue) names a thing the same way.
"""

from __future__ import annotations

# Note kinds, in the order the filters and the legend show them: the collation classes, then the other types.
KINDS = (
    "substantive",
    "addition",
    "omission",
    "commentary",
    "orthographic",
    "punctuation",
    "fact",
    "lacuna",
    "editor",
)
KIND_LABELS = {
    "substantive": "異文",
    "addition": "增文",
    "omission": "脫文",
    "commentary": "注文",
    "orthographic": "異體",
    "punctuation": "標點",
    "fact": "事實",
    "lacuna": "闕文",
    "editor": "編者按",
}
KIND_MEANINGS = {
    "substantive": "同一本系之內，抄本與底本用字不同",
    "addition": "抄本有而底本無的文字",
    "omission": "底本有而抄本無的文字（‸ 標其所缺之處）",
    "commentary": "一本有、一本無的夾注（括號中的雙行小注）：無注之本與有注之本相較，每條注文一條",
    "orthographic": "同一字的不同寫法（異體字）",
    "punctuation": "標點不同",
    "fact": "不同本系之間的事實（人名、地名、名物、數目、時日）：同一事實的不同說法，或數個本系所記相同（所記同）",
    "lacuna": "抄本殘缺：始於此以上闕，止於此以下闕，或文未完",
    "editor": "編者的按語（人寫的，有別於程式生成的校記）",
}
TAG_LABELS = {"person": "人名", "place": "地名", "thing": "名物", "number": "數目", "date": "時日"}
REGISTER_KINDS = {"person": "人名", "place": "地名", "thing": "名物"}
SCRIPT_LABELS = {"Hant": "繁體", "Hans": "簡體", "mixed": "繁簡混"}
LANGS = {"Hant": "zh-Hant", "Hans": "zh-Hans"}  # mixed: plain zh
LACUNA_LABELS = {"start": "以上闕", "end": "以下闕", "unfinished": "文未完"}


def emended(verdict: dict) -> str:
    """A verdict that changes the base's reading text, as that text's 校勘記 says it: 「通」原作「透」，據B改。
    (「某」原脫，據B補。 / 原衍「某」，據B刪。); empty for any other verdict. The rest of the verdict's words
    (他校) follow."""
    adopted = verdict.get("adopted")
    if not adopted:
        return ""
    words = verdict["words"]
    how, rest = words[: words.index("。") + 1], words[words.index("。") + 1 :]
    new, was = adopted["text"], adopted["was"]
    said = (
        f"原衍「{was}」，{how}" if not new else f"「{new}」原脫，{how}" if not was else f"「{new}」原作「{was}」，{how}"
    )
    return said + rest


def script_label(script: str) -> str:
    """A witness's script as the catalogue names it (an unknown code as it is)."""
    return SCRIPT_LABELS.get(script, script)


def kind_filters() -> list[dict[str, str]]:
    """The note kinds as the pages' filters and legend list them."""
    return [{"id": c, "label": KIND_LABELS[c]} for c in KINDS]
