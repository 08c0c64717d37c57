"""The editor's directives applied: they win over the machine, and what they override is counted."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..errors import EditionError
from .editorial import Directives, Passage, Resolver, Ruling
from .model import EpisodeResult, Note, Reading, Row, Segment, Span, Tokens, Verdict, Witness
from .quoting import words
from .vocabulary import NoteType, VerdictKind

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
    rulings: tuple[tuple[Passage, Ruling], ...] = ()  # each verdict's place (the words it quotes) and the verdict
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
        rulings = []
        for v in d.verdicts:
            if v.episode:
                r.episode(v.episode, v.line)
            if v.kind == VerdictKind.ADOPT:
                r.witness(v.reading, v.line)
            rulings.append((r.reading(v.quote, v.say), v))
        return cls(
            assigns=tuple(assigns),
            groups=groups,
            comments=comments,
            facts=tuple(facts),
            suppress=tuple(d.suppress),
            silent=frozenset(d.silent),
            rulings=tuple(rulings),
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
            stated = words(label, readings)  # the witnesses' words as written: the site escapes them for Markdown
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
        """The machine's notes less those the editor rejects (``suppress``) or silences (``silent``), with the
        editor's verdicts on them (``verdicts``) and marked where an editor's fact covers them (``superseded``)."""
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
        out, ruled = self.rule(out)
        out = supersede(out)
        counts = {"suppress": sum(used), "verdicts": ruled}
        return Judged(out, silenced, {k: n for k, n in counts.items() if n}, warnings)

    def rule(self, notes: list[Note]) -> tuple[list[Note], int]:
        """Each verdict on the one machine note (collation or fact) with a place in its witness inside the words it
        quotes; a verdict that names no note, or several, or a note another verdict names, is an error (a verdict
        lost would silently take a correction out of the edition's text)."""
        out = list(notes)
        first: dict[int, int] = {}  # note index -> line of its verdict
        for p, v in self.rulings:
            where = [k for k, n in enumerate(out) if _judged(n) and any(_inside(p, x) for x in _places(n, p.witness))]
            if v.episode:
                where = [k for k in where if out[k].episode == v.episode]
            q = v.quote
            words = v.say or (q.first if q.first == q.last else f"{q.first}…{q.last}")
            quoted = f"「{words}」 of witness {p.witness}" + (f" in episode {v.episode}" if v.episode else "")
            if not where:
                near = _nearest(out, p)
                raise EditionError(
                    self.path,
                    f"the verdict names no collation or fact note: none lies in {quoted}"
                    + (f"; closest notes: {near}" if near else ""),
                    v.line,
                )
            if len(where) > 1:
                named = "、".join(_words(out[k], p.witness) for k in where)
                raise EditionError(
                    self.path,
                    f"the verdict names {len(where)} notes in {quoted} ({named}): quote fewer words or give say:",
                    v.line,
                )
            k = where[0]
            if k in first:
                raise EditionError(
                    self.path,
                    f"a second verdict on the note {_words(out[k], p.witness)} (the first at line {first[k]}): "
                    "one verdict a note",
                    v.line,
                )
            first[k] = v.line
            out[k] = replace(out[k], verdict=self._verdict(out[k], v, p.witness))
        return out, len(first)

    def _verdict(self, n: Note, v: Ruling, siglum: str) -> Verdict:
        """The verdict on ``n`` in the 校勘記's words (a suspicion names the witnesses of the words it quotes,
        unless they are a collation note's lemma: 透 A ] 通 B。疑當作某)."""
        tail = "".join(f"他校：{source}作{reads}。" for source, reads in v.parallels)
        if v.kind != VerdictKind.ADOPT:
            lemma = n.lemma is not None and n.lemma.siglum == siglum
            sigla = () if lemma else next((r.sigla for r in n.readings if siglum in r.sigla), ())
            said = {
                VerdictKind.SUSPECT: f"{'、'.join(sigla)}{' ' if sigla else ''}疑當作{v.reading}。",
                VerdictKind.UNDECIDED: "未知孰是。",
                VerdictKind.DOUBT: "存疑。",
            }
            if v.kind != VerdictKind.SUSPECT:
                sigla = ()
            return Verdict(v.kind, said.get(v.kind, "") + tail, sigla, v.reading, parallels=v.parallels, text=v.text)
        if n.type != NoteType.COLLATION or n.lemma is None:
            raise EditionError(
                self.path,
                f"adopt: a reading is adopted within a family (a collation note); {_words(n, siglum)} is a {n.type} "
                "note: give suspect, undecided or doubt",
                v.line,
            )
        base = n.lemma.siglum
        if v.reading == base:  # the base's reading stands: the copies' are errors
            others = "、".join(s for r in n.readings for s in r.sigla)
            return Verdict(v.kind, f"{others} 誤。{tail}", (base,), n.lemma_text, parallels=v.parallels, text=v.text)
        r = next((r for r in n.readings if v.reading in r.sigla), None)
        if r is None:
            sigla = ", ".join([base, *(s for r in n.readings for s in r.sigla)])
            raise EditionError(self.path, f"adopt: {v.reading} is none of the note's witnesses ({sigla})", v.line)
        how = "補" if not n.lemma_text else "刪" if not r.text else "改"
        return Verdict(
            v.kind,
            f"據{'、'.join(r.sigla)}{how}。{tail}",
            r.sigla,
            r.text,
            n.lemma,
            n.lemma_text,
            v.parallels,
            v.text,
        )

    @staticmethod
    def _matches(n: Note, rule: tuple[str, str | None, str, int], numbers: dict[str, tuple[str, str]]) -> bool:
        episode, row, lemma, _ = rule
        if n.episode != episode:
            return False
        if row and row not in (n.row, numbers.get(n.row or "", ("", ""))[1]):
            return False
        return lemma in (n.lemma_text, n.label) or (n.type == NoteType.FACT and n.text.startswith(lemma))


def _judged(n: Note) -> bool:
    """A note the editor may give a verdict: the machine's collation and fact notes."""
    return n.type in (NoteType.COLLATION, NoteType.FACT)


def _places(n: Note, siglum: str) -> list[tuple[int, int]]:
    """Where a note stands in one witness: its lemma and its readings' spans there."""
    out = [(n.lemma.start, n.lemma.end)] if n.lemma and n.lemma.siglum == siglum else []
    return out + [r.spans[siglum] for r in n.readings if siglum in r.spans]


def _inside(p: Passage, place: tuple[int, int]) -> bool:
    return p.start <= place[0] and place[1] <= p.end


def _words(n: Note, siglum: str) -> str:
    """A note as an error message names it: its words in that witness, or its label."""
    if n.lemma and n.lemma.siglum == siglum:
        shown = n.lemma_text
    else:
        shown = next((r.text for r in n.readings if siglum in r.sigla), n.lemma_text)
    return f"「{shown}」" + (f" ({n.label})" if n.label else "")


def _nearest(notes: list[Note], p: Passage, k: int = 3) -> str:
    """The notes standing nearest the quoted words in their witness (for an error message)."""
    placed = [
        (min(abs(a - p.start), abs(b - p.end)), i)
        for i, n in enumerate(notes)
        if _judged(n)
        for a, b in _places(n, p.witness)
    ]
    seen: list[int] = []
    for _, i in sorted(placed):
        if i not in seen:
            seen.append(i)
    return "、".join(
        _words(notes[i], p.witness) + (f" in {notes[i].episode}" if notes[i].episode else "") for i in seen[:k]
    )


def _spans(n: Note) -> set[tuple[str, int, int]]:
    return {(s, a, b) for r in n.readings for s, (a, b) in r.spans.items()}


def _covers(editor: set[tuple[str, int, int]], machine: set[tuple[str, int, int]]) -> bool:
    """Whether the editor's readings overlap every place the machine's note quotes (one witness in common is not
    enough: 李承乾 is both who asks the emperor to change his robe and whom E calls the crown prince)."""
    return bool(machine) and all(any(s == t and a < d and c < b for t, c, d in editor) for s, a, b in machine)


def supersede(notes: list[Note]) -> list[Note]:
    """Machine fact notes an editor's fact covers -- in the same episode, the same label (before its 「，所記同」) or
    each of the note's readings overlapping the editor's words in that witness -- marked ``superseded`` by that
    fact's label: the machine never contradicts the editor on the page (the site and the TEI leave them out; the
    export keeps them, marked)."""
    stated = [n for n in notes if n.type == NoteType.EDITOR and n.label and n.readings]
    if not stated:
        return notes
    out = []
    for n in notes:
        by = next(
            (
                f
                for f in stated
                if n.type == NoteType.FACT
                and n.episode is not None
                and f.episode == n.episode
                and (n.label.split("，")[0] == f.label or _covers(_spans(f), _spans(n)))
            ),
            None,
        )
        out.append(n if by is None else replace(n, superseded=by.label))
    return out
