"""The editor's directives applied: they win over the machine, and what they override is counted."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .editorial import Directives, Passage, Resolver
from .facts import words
from .model import EpisodeResult, Note, Reading, Row, Segment, Span, Tokens, Witness
from .vocabulary import NoteType

# what Markdown would read as markup in a witness's words quoted in an editor's fact (Python-Markdown's
# escapable characters): escaped, shown as written; raw HTML is never read (``site.editor_notes``)
_MARKDOWN = re.compile(r"([\\`*_{}\[\]()>#+\-.!])")


Counts = dict[str, int]  # directive kind -> how many took effect (the export's ``editorial``)


@dataclass(frozen=True)
class Judged:
    """The machine's notes the editor keeps, and what ``suppress`` and ``silent`` took away."""

    notes: list[Note]
    silenced: dict[str, int]  # note class -> notes not shown
    counts: Counts
    warnings: list[str]


@dataclass(frozen=True)
class Edits:
    """The editor's directives, every quote found in its witness: each step below returns its result and what it
    changed, so the pipeline sums the counts instead of a stage changing them on the side."""

    assigns: tuple[tuple[Passage, str | None], ...] = ()
    groups: tuple[tuple[Passage, ...], ...] = ()
    comments: tuple[tuple[Passage, str], ...] = ()
    facts: tuple[tuple[str, tuple[Passage, ...], tuple[str, ...], str], ...] = ()
    suppress: tuple[tuple[str, str | None, str, int], ...] = ()
    silent: frozenset[str] = frozenset()
    path: str = ""

    @classmethod
    def resolve(cls, d: Directives, witnesses: tuple[Witness, ...], episodes: set[str]) -> Edits:
        """Every quote found in its witness, every episode checked: one clear error for the first bad one."""
        r = Resolver(d, witnesses, episodes)
        assigns = []
        for q, episode in d.assign:
            if episode is not None:
                r.episode(episode, q.line)
            assigns.append((r.passage(q), episode))
        groups = tuple(tuple(r.passage(q) for q in group) for group in d.rows)
        comments = tuple((r.passage(q), text) for q, text in d.notes)
        facts = []
        for f in d.facts:
            for siglum in f.unsaid:
                r.witness(siglum, f.line)
            facts.append((f.label, tuple(r.reading(q, say) for q, say in f.readings), f.unsaid, f.text))
        for episode, _row, _lemma, line in d.suppress:
            r.episode(episode, line)
        return cls(
            assigns=tuple(assigns),
            groups=groups,
            comments=comments,
            facts=tuple(facts),
            suppress=tuple(d.suppress),
            silent=frozenset(d.silent),
            path=str(d.path or ""),
        )

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
    ) -> tuple[dict[str, tuple[str | None, ...]], Counts]:
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
        counts = {"assign": len(self.assigns), "letters reassigned": moved}
        return {s: tuple(ls) for s, ls in out.items()}, {k: n for k, n in counts.items() if n}

    @staticmethod
    def _label(segments: dict[str, tuple[Segment, ...]], labels: dict[str, list[str | None]], p: Passage) -> str | None:
        for k, seg in enumerate(segments[p.witness]):
            if p.start <= seg.start < p.end:
                return labels[p.witness][k]
        return None

    def groups_in(self, rows: tuple[Row, ...]) -> list[list[tuple[str, int, int]]]:
        """The ``rows`` groups whose passages stand in these rows (each one a ``rows`` directive that took
        effect)."""
        here = {(w, seg.start) for r in rows for w, segs in r.cells.items() for seg in segs}
        out = []
        for group in self.groups:
            spans = [(p.witness, p.start, p.end) for p in group]
            if any(w == s and a <= start < e for s, a, e in spans for w, start in here):
                out.append(spans)
        return out

    def notes(self, tokens: dict[str, Tokens]) -> tuple[list[Note], Counts]:
        """The editor's own notes (Markdown), on their passages; and the editor's facts, each reading on the
        words it quotes (the first is the note's lemma)."""
        out = [
            Note(
                type=NoteType.EDITOR,
                cls=NoteType.EDITOR,
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
                    type=NoteType.EDITOR,
                    cls=NoteType.EDITOR,
                    lemma=Span(first.witness, first.start, first.end),
                    lemma_text=tokens[first.witness].text[first.start : first.end],
                    readings=readings,
                    label=label,
                    text=stated + ("。" + text if text else ""),
                )
            )
        return out, ({"notes": len(out)} if out else {})

    def judge(self, notes: list[Note], episodes: tuple[EpisodeResult, ...]) -> Judged:
        """The machine's notes less those the editor rejects (``suppress``) or silences (``silent``)."""
        silenced: dict[str, int] = {}
        warnings: list[str] = []
        numbers = {row.id: (ep.episode.id, str(k)) for ep in episodes for k, row in enumerate(ep.rows, 1)}
        used = [0] * len(self.suppress)
        out = []
        for n in notes:
            machine = n.type != NoteType.EDITOR
            if machine and n.cls in self.silent:
                silenced[n.cls] = silenced.get(n.cls, 0) + 1
                continue
            hit = next(
                (
                    k
                    for k, rule in enumerate(self.suppress)
                    if n.type != NoteType.EDITOR and self._matches(n, rule, numbers)
                ),
                None,
            )
            if hit is not None:
                used[hit] += 1
                continue
            out.append(n)
        for (episode, row, lemma, line), k in zip(self.suppress, used, strict=True):
            if not k:
                warnings.append(
                    f"{self.path}, line {line}: suppress matches no note (episode {episode}"
                    + (f", row {row}" if row else "")
                    + f", lemma 「{lemma}」)"
                )
        return Judged(out, silenced, {"suppress": sum(used)} if sum(used) else {}, warnings)

    @staticmethod
    def _matches(n: Note, rule: tuple[str, str | None, str, int], numbers: dict[str, tuple[str, str]]) -> bool:
        episode, row, lemma, _ = rule
        if n.episode != episode:
            return False
        if row and row not in (n.row, numbers.get(n.row or "", ("", ""))[1]):
            return False
        return lemma in (n.lemma_text, n.label) or (n.type == NoteType.FACT and n.text.startswith(lemma))
