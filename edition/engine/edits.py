"""The editor's directives applied: they win over the machine, and what they override is counted."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .editorial import Directives, Passage, Resolver
from .facts import words
from .model import EpisodeResult, Note, Reading, Row, Segment, Span, Tokens, Witness

# what Markdown would read as markup in a witness's words quoted in an editor's fact (Python-Markdown's
# escapable characters): escaped, shown as written; raw HTML is never read (``site.editor_notes``)
_MARKDOWN = re.compile(r"([\\`*_{}\[\]()>#+\-.!])")


@dataclass
class Edits:
    assigns: list[tuple[Passage, str | None]] = field(default_factory=list)
    groups: list[list[Passage]] = field(default_factory=list)
    comments: list[tuple[Passage, str]] = field(default_factory=list)
    facts: list[tuple[str, list[Passage], tuple[str, ...], str]] = field(default_factory=list)
    suppress: list[tuple[str, str | None, str, int]] = field(default_factory=list)
    silent: set[str] = field(default_factory=set)
    counts: dict[str, int] = field(default_factory=dict)
    silenced: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    path: str = ""

    @classmethod
    def resolve(cls, d: Directives, witnesses: tuple[Witness, ...], episodes: set[str]) -> Edits:
        """Every quote found in its witness, every episode checked: one clear error for the first bad one."""
        r = Resolver(d, witnesses, episodes)
        out = cls(path=str(d.path or ""), silent=set(d.silent))
        for q, episode in d.assign:
            if episode is not None:
                r.episode(episode, q.line)
            out.assigns.append((r.passage(q), episode))
        out.groups = [[r.passage(q) for q in group] for group in d.rows]
        out.comments = [(r.passage(q), text) for q, text in d.notes]
        for f in d.facts:
            for siglum in f.unsaid:
                r.witness(siglum, f.line)
            out.facts.append((f.label, [r.reading(q, say) for q, say in f.readings], f.unsaid, f.text))
        for episode, row, lemma, line in d.suppress:
            r.episode(episode, line)
            out.suppress.append((episode, row, lemma, line))
        return out

    @property
    def rows(self) -> bool:
        return bool(self.groups)

    @property
    def cuts(self) -> dict[str, set[int]]:
        """Where the passages of ``assign`` and ``rows`` begin and end, per witness: the segments are cut there."""
        out: dict[str, set[int]] = {}
        passages = [p for p, _ in self.assigns] + [p for g in self.groups for p in g]  # a note cuts nothing
        for p in passages:
            out.setdefault(p.witness, set()).update((p.start, p.end))
        return out

    def assign(
        self, segments: dict[str, tuple[Segment, ...]], labels: dict[str, tuple[str | None, ...]]
    ) -> dict[str, tuple[str | None, ...]]:
        """The machine's episodes with the editor's: ``assign`` passages, then each ``rows`` group in the
        episode of its first passage that has one (a row lies in one episode)."""
        out = {s: list(ls) for s, ls in labels.items()}

        def put(p: Passage, episode: str | None) -> int:
            changed = 0
            for k, seg in enumerate(segments[p.witness]):
                if p.start <= seg.start and seg.end <= p.end and out[p.witness][k] != episode:
                    out[p.witness][k] = episode
                    changed += len(seg.folded)
            return changed

        moved = sum(put(p, e) for p, e in self.assigns)
        for group in self.groups:
            episode = next((e for p in group for e in [self._label(segments, out, p)] if e), None)
            if episode:
                moved += sum(put(p, episode) for p in group)
        if self.assigns:
            self.counts["assign"] = len(self.assigns)
        if moved:
            self.counts["letters reassigned"] = moved
        return {s: tuple(ls) for s, ls in out.items()}

    @staticmethod
    def _label(segments: dict[str, tuple[Segment, ...]], labels: dict[str, list[str | None]], p: Passage) -> str | None:
        for k, seg in enumerate(segments[p.witness]):
            if p.start <= seg.start < p.end:
                return labels[p.witness][k]
        return None

    def groups_in(self, rows: tuple[Row, ...]) -> list[list[tuple[str, int, int]]]:
        """The ``rows`` groups whose passages stand in these rows."""
        here = {(w, seg.start) for r in rows for w, segs in r.cells.items() for seg in segs}
        out = []
        for group in self.groups:
            spans = [(p.witness, p.start, p.end) for p in group]
            if any(w == s and a <= start < e for s, a, e in spans for w, start in here):
                out.append(spans)
                self.counts["rows"] = self.counts.get("rows", 0) + 1
        return out

    def notes(self, tokens: dict[str, Tokens]) -> list[Note]:
        """The editor's own notes (Markdown), on their passages; and the editor's facts, each reading on the
        words it quotes (the first is the note's lemma)."""
        if self.comments or self.facts:
            self.counts["notes"] = len(self.comments) + len(self.facts)
        out = [
            Note(
                type="editor",
                cls="editor",
                lemma=Span(p.witness, p.start, p.end),
                lemma_text=tokens[p.witness].text[p.start : p.end],
                readings=(),
                text=text,
            )
            for p, text in self.comments
        ]
        order = {s: k for k, s in enumerate(tokens)}
        for label, said, unsaid, text in self.facts:
            alike: dict[str, list[Passage]] = {}
            for p in sorted(said, key=lambda p: order[p.witness]):
                alike.setdefault(tokens[p.witness].text[p.start : p.end], []).append(p)
            readings = tuple(
                Reading(tuple(p.witness for p in ps), form, {p.witness: (p.start, p.end) for p in ps})
                for form, ps in alike.items()
            ) + ((Reading(tuple(sorted(unsaid, key=order.get)), "", {}),) if unsaid else ())
            first = said[0]
            stated = words(label, readings, escape=lambda w: _MARKDOWN.sub(r"\\\1", w))
            out.append(
                Note(
                    type="editor",
                    cls="editor",
                    lemma=Span(first.witness, first.start, first.end),
                    lemma_text=tokens[first.witness].text[first.start : first.end],
                    readings=readings,
                    label=label,
                    text=stated + ("。" + text if text else ""),
                )
            )
        return out

    def judge(self, notes: list[Note], episodes: tuple[EpisodeResult, ...]) -> list[Note]:
        """The machine's notes less those the editor rejects (``suppress``) or silences (``silent``)."""
        numbers = {row.id: (ep.episode.id, str(k)) for ep in episodes for k, row in enumerate(ep.rows, 1)}
        used = [0] * len(self.suppress)
        out = []
        for n in notes:
            if n.type != "editor" and n.cls in self.silent:
                self.silenced[n.cls] = self.silenced.get(n.cls, 0) + 1
                continue
            hit = next(
                (k for k, rule in enumerate(self.suppress) if n.type != "editor" and self._matches(n, rule, numbers)),
                None,
            )
            if hit is not None:
                used[hit] += 1
                continue
            out.append(n)
        for (episode, row, lemma, line), k in zip(self.suppress, used, strict=True):
            if not k:
                self.warnings.append(
                    f"{self.path}, line {line}: suppress matches no note (episode {episode}"
                    + (f", row {row}" if row else "")
                    + f", lemma 「{lemma}」)"
                )
        if sum(used):
            self.counts["suppress"] = sum(used)
        return out

    @staticmethod
    def _matches(n: Note, rule: tuple[str, str | None, str, int], numbers: dict[str, tuple[str, str]]) -> bool:
        episode, row, lemma, _ = rule
        if n.episode != episode:
            return False
        if row and row not in (n.row, numbers.get(n.row or "", ("", ""))[1]):
            return False
        return lemma in (n.lemma_text, n.label) or (n.type == "fact" and n.text.startswith(lemma))
