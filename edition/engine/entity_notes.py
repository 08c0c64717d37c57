"""Fact notes on the register's persons, places and things: how each witness names an entry in an episode.

Only readings of the same kind and role are paired: one register entry named in several ways; entries that
share a title (李治 and 李承乾, both 太子); or, where a witness never names an entry the others name, the one
entry of the kind it alone names in the same row (李世勣 / 李祐).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from .quoting import Found, Quoting
from .register import Entry, Mention, Register
from .said import Said, wording


class Told:
    """Which families name an entry in each group of rows, and in each form (for choosing whom to quote)."""

    def __init__(self, group: dict[str, str], cover: dict[tuple[str, str], tuple[str, ...]]) -> None:
        self.group = group
        self.cover = cover  # (witness, row) -> the rows its cell there covers
        self.at: defaultdict[tuple[str, str], set[str]] = defaultdict(set)  # (entry, row covered) -> families
        self.where: defaultdict[tuple[str, str], set[str]] = defaultdict(set)  # (entry, group) -> families
        self.forms: defaultdict[tuple[str, str], set[str]] = defaultdict(set)  # (entry, compared form) -> families
        self.rows: defaultdict[tuple[str, str], set[str]] = defaultdict(set)  # (witness, row) -> entries named

    def add(self, x: Said, e: str, family: str) -> None:
        self.where[(e, self.group[x.row])].add(family)
        for r in self.cover[(x.siglum, x.row)]:
            self.at[(e, r)].add(family)
        self.forms[(e, x.value)].add(family)
        self.rows[(x.siglum, x.row)].add(e)

    def together(self, e: str, least: int) -> bool:
        """Whether ``least`` families name the entry in cells that cover one row: the same moment, not only
        the same group of rows (A's coats wait at 營州 two rows before E's soldiers wear theirs)."""
        return any(len(families) >= least for (f, _), families in self.at.items() if f == e)

    def stretches(self, e: str) -> list[set[str]]:
        """The families naming the entry in each stretch of rows -- consecutive rows, each covered by a cell
        naming it: the moments it may be named at (定州 where the prince sets out, where the emperor vowed his
        robe in spring, and where the two talk of it: three)."""
        order = {row: k for k, row in enumerate(self.group)}
        named = sorted((order[r], families) for (f, r), families in self.at.items() if f == e and families)
        runs: list[set[str]] = []
        last, run = -2, set()
        for k, families in [*named, (len(order) + 2, set())]:
            if k > last + 1 and run:
                runs.append(run)
                run = set()
            run |= families
            last = k
        return runs

    def moments(self, e: str, least: int) -> int:
        """At how many moments ``least`` families or more name the entry: its widest stretch of rows
        (``stretches``), and each other stretch where at least half as many families name it, two or more of
        them naming it at the widest too -- texts that tell it twice. Where a score of texts name 太牢 at the
        rite, five more naming it a few rows on are no second moment; nor are fourteen families naming the moved
        people's 蓋州 in one stretch and fifteen in the next, one of them in both (each text tells it once; the
        rows of many witnesses parted the moment in two); the prince's 定州 -- fifteen families where he sets
        out, eleven where the two talk of the robe vowed there, six in both -- is two."""
        runs = self.stretches(e)
        if not runs:
            return 0
        widest = max(runs, key=len)
        bar = max(least, (len(widest) + 1) // 2)
        return sum(1 for r in runs if len(r) >= bar and (r is widest or len(r & widest) >= 2))

    def beside(self, x: Said, e: str) -> set[str]:
        """The families naming the entry in the rows the mention's cell covers."""
        return set().union(*(self.at[(e, r)] for r in self.cover[(x.siglum, x.row)]))

    def company(self, x: Said, e: str, family: str) -> int:
        """How many other entries named in the mention's row other texts name in that group too: of A's two
        李道宗 in the rows C, D and E span, the one beside 李世 (李世勣) at the rearguard, as theirs are."""
        g = self.group[x.row]
        return sum(1 for f in self.rows[(x.siglum, x.row)] if f != e and self.where[(f, g)] - {family})


@dataclass(frozen=True)
class _Named:
    """What the notes on one kind of entry in one episode are made from, passed to each step."""

    kind: str  # person | place | thing
    said: dict[str, list[Said]]  # witness -> its mentions of this kind in the episode
    in_episode: dict[str, set[str]]  # witness -> the entries it names anywhere in the episode
    told: Told
    rows_of: dict[tuple[str, str], set[str]]  # (witness, entry) -> rows it is named in
    best: dict[str, dict[str, Said]]  # witness -> entry -> its mention that stands for it (``_rank``)
    taken: set[tuple[str, str]]  # (witness, entry): already standing in another entry's place
    called: Callable[[str, str], Said | None]  # (witness, name) -> where it writes that name in the episode
    defines: Callable[[str], bool]  # whether the editor's definition of the episode names entry e


class EntityNotes:
    """The notes on how the witnesses name the register's entries."""

    def __init__(
        self,
        register: Register,
        mentions: tuple[Mention, ...],
        quoting: Quoting,
        agree: int,
        glossed: Callable[[Said], bool] = lambda x: False,
        naming: Callable[[str, str], str | None] = lambda s, e: None,
        wording: Callable[[Said], set[str]] | None = None,
        role: int = 0,
        spoken_of: Callable[[Said], bool] = lambda x: False,
    ) -> None:
        self.entries = {e.id: e for e in register.entries}
        self.glossed = glossed  # whether a mention is inside a commentary's brackets
        self.spoken_of = spoken_of  # whether a name is only a word the text reports, in its own quotation marks
        self.naming = naming  # the name a witness gives, where it gives e's title, to someone unknown (``said``)
        self.wording = wording  # how the sentence of a mention words it (``said.Gathering.wording``), if known
        self.role = role  # the fewest pairs of that wording a stand-in's sentence must share (``_part``)
        self.named = Counter(m.entries[0] for m in mentions if m.how != "title" and len(m.entries) == 1)
        self.q = quoting
        self.agree = agree

    def notes(
        self,
        kind: str,
        said: dict[str, list[Said]],
        group: dict[str, str],
        cover: dict[tuple[str, str], tuple[str, ...]],
        in_episode: dict[str, set[str]],
        called: Callable[[str, str], Said | None] = lambda s, name: None,
        defines: Callable[[str], bool] = lambda e: True,
    ) -> list[Found]:
        """Per register entry named here: do the witnesses name it alike (a standard name, a variant, or
        -- for an entry with no standard name -- not at all)? An entry another witness names in its place
        (sharing a title with it, or the one entry of the kind that witness alone names in the same row,
        where it never names the first) is its reading there. ``said``: what each witness of the episode says
        of this kind; ``in_episode``: the entries each names anywhere in the episode; ``called``: where a witness
        writes a name the register does not know in the episode (``Gathering.called``). The entries most
        witnesses name come first: an entry standing in for one is not taken again for another. ``defines``:
        whether the editor's definition of the episode names an entry (``_stated``)."""
        here = self._gather(kind, said, Told(group, cover), in_episode, called, defines)
        who: dict[str, set[str]] = {}
        for s, mine in here.best.items():
            for e in mine:
                who.setdefault(e, set()).add(s)
        out = []
        for e in sorted(who, key=lambda e: (-len(who[e]), e)):
            entry = self.entries.get(e)
            found = None if entry is None else self._note(here, e, entry, {s: here.best[s][e] for s in who[e]})
            if found is not None:
                out.append(found)
        return out

    def _gather(
        self,
        kind: str,
        said: dict[str, list[Said]],
        told: Told,
        in_episode: dict[str, set[str]],
        called: Callable[[str, str], Said | None],
        defines: Callable[[str], bool],
    ) -> _Named:
        """Where each witness names each entry, and which of its mentions stands for it: the choice (``_rank``)
        looks at what all the witnesses name, so every mention is counted first."""
        rows_of: dict[tuple[str, str], set[str]] = {}
        for s, xs in said.items():
            for x in xs:
                if len(x.entries) == 1:  # a title several entries share (太子) names none of them
                    rows_of.setdefault((s, x.entries[0]), set()).add(x.row)
                    told.add(x, x.entries[0], self.q.family(s))
        best = {s: self._best(xs, told) for s, xs in said.items()}
        return _Named(kind, said, in_episode, told, rows_of, best, set(), called, defines)

    def _best(self, xs: list[Said], told: Told) -> dict[str, Said]:
        """A witness's mention of each entry that stands for it (``_rank``): a witness is quoted once an entry."""
        mine: dict[str, Said] = {}
        for x in xs:
            if len(x.entries) > 1:
                continue
            (e,) = x.entries
            if e not in mine or self._rank(x, e, told) < self._rank(mine[e], e, told):
                mine[e] = x
        for e, x in mine.items():
            # a text that names a place, thing or man in the episode is quoted by the name, not by a description or
            # title it also gives (CD's 再一次走進遼澤 at the crossing, not the 沼澤 of its recalled spring; the
            # lecture's 杨万春上了城楼, not 城主): 作沼澤, 不名 would say it does not name it. A name in a gloss (AA's
            # （按：…後世小說或稱楊萬春，未詳所據）) is the commentator's, and one in quotation marks of its own
            # (V's 后来朝鲜半岛的文人称他为“杨万春”) a word reported: neither is the text's naming
            named = [
                y
                for y in xs
                if y.entries == (e,) and y.how != "title" and not self.glossed(y) and not self.spoken_of(y)
            ]
            if x.how == "title" and named and self.entries.get(e) is not None:
                mine[e] = x = min(named, key=lambda y: self._rank(y, e, told))
            # a man quoted by one of his standard names is quoted by the one the others use, wherever the text
            # writes it in the episode: which of them a text uses is no fact (A's 李治 where it meets the prince,
            # not the emperor's 治兒 on the road, though more texts name him beside the road)
            if x.how == "name" and self.entries.get(e) is not None and self.entries[e].kind == "person":
                names = [y for y in xs if y.entries == (e,) and y.how == "name"]
                me = self.q.family(x.siglum)
                mine[e] = min(names, key=lambda y: (-len(told.forms[(e, y.value)] - {me}), y is not x))
        return mine

    def _note(self, here: _Named, e: str, entry: Entry, slot: dict[str, Said]) -> Found | None:
        """The note on entry ``e`` (``slot``: the witnesses naming it, each by its mention), or None: when only
        one text names it and none describes it instead, nothing stands against it (an alternative needs a
        pair); when fewer than two families tell it, there is nothing to compare."""
        if here.kind != "person" and not self._mostly_here(e, here.said):
            # a place or thing named all through the texts (長安) is read here only where another text names it
            # too, at the same moment: CA's 離開長安, E's 回到长安 and F's 問及京師 are three moments, no fact
            slot = {s: x for s, x in slot.items() if here.told.beside(x, e) - {self.q.family(s)}}
        rows = {r for s in slot for r in here.rows_of[(s, e)]}
        namers = self.q.families(s for s, x in slot.items() if x.how != "title")
        # one text names it, and two others only describe it (遼澤: C; 泥淖 A/B, 沼泽 D/E): who names it is the fact
        described = bool(entry.names) and len(namers) == 1 and len(self.q.families(slot)) >= self.agree
        if len(namers) < 2 and entry.names and not described:
            return None
        role, standing = self._stand_ins(here, e, entry, slot, rows)
        here.taken.update((s, x.entries[0]) for s, x in standing.items())
        slot = {**slot, **standing}
        untold = self._by_role(here, e, role, slot) if role else {}
        slot.update(untold)
        readings = {s: "untitled" if s in untold else self._form(e, entry, x, described) for s, x in slot.items()}
        for s, r in readings.items():
            # a title whose sentence names a man the register does not know (他叫乙支承德): named, not 不名 -- by
            # that name where the witness writes it in the episode (乙支承德在城楼上又拜了一拜), else left out
            name = self.naming(s, e) if r == "untitled" else None
            if name is not None:
                x = here.called(s, name) if name else None
                readings[s] = None if x is None else "called:" + x.value
                slot[s] = x or slot[s]
        forms = {s: r for s, r in readings.items() if r is not None}
        if len(self.q.families(forms)) < 2:
            return None
        return self._stated(here, e, entry, slot, forms, role)

    def _stand_ins(
        self, here: _Named, e: str, entry: Entry, slot: dict[str, Said], rows: set[str]
    ) -> tuple[str, dict[str, Said]]:
        """Witnesses that never name ``e`` in the episode but name another entry in its place: one sharing a
        title with it (the title is then the note's label, 太子), or -- a person or a thing (李祐 for 李世勣, 绢
        for 縑) -- the one such entry in the rows ``e`` is named in; a place only under a shared title, as places
        in one row are as often where it happens as where from. Returns the shared title and, per witness, its
        mention of the entry standing in."""
        role, standing = "", {}
        for s in here.said:
            if s in slot or e in here.in_episode.get(s, ()):
                continue
            alts = self._alternatives(here, s, e)
            shared = [x for x in alts if set(self.entries[x.entries[0]].titles) & set(entry.titles)]
            if len(shared) == 1:
                role = sorted(set(self.entries[shared[0].entries[0]].titles) & set(entry.titles))[0]
            # by the row alone only where the entry holds no title: one known by a role (太子 李治) is stood in
            # for by another holder of it, not by whoever its rows name (the novel's 李世勣 beside the prince)
            same_row = [
                x for x in alts if here.rows_of[(s, x.entries[0])] & rows and here.kind != "place" and not entry.titles
            ]
            pick = shared or (same_row if len(same_row) == 1 else [])
            if len(pick) == 1:
                f = pick[0].entries[0]
                mine = [x for x in here.said[s] if x.entries == (f,)]
                part = self._part(here, e) if not shared and here.kind == "person" else None
                if part is not None:  # by the row alone: a man of the part, worded as theirs
                    mine = [x for x in mine if len(part & self.wording(x)) >= self.role]
                if mine:  # its mention where the others name the entry it stands in for (李祐 at the rearguard)
                    standing[s] = min(mine, key=lambda x: self._rank(x, e, here.told))
        return role, standing

    def _by_role(self, here: _Named, e: str, role: str, slot: dict[str, Said]) -> dict[str, Said]:
        """Witnesses that call the holder of the note's role by that title alone (太子; 皇太子), naming no one who
        holds it anywhere in the episode, where the others name ``e``: they tell the same moment and do not say
        who -- 不名, as the town's lord is. A role's note (太子：A 作李治；E 作李承乾) is about who held it: the
        novel's 太子 迎駕 is that moment told without the name."""
        holders = {f for f, entry in self.entries.items() if role in entry.titles}
        out = {}
        for s, xs in here.said.items():
            if s in slot or holders & here.in_episode.get(s, set()):
                continue
            mine = [
                x for x in xs if x.how == "title" and e in x.entries and here.told.beside(x, e) - {self.q.family(s)}
            ]
            if mine:
                out[s] = min(mine, key=lambda x: x.start)
        return out

    def _part(self, here: _Named, e: str) -> set[str] | None:
        """How the others word ``e``'s part: the character pairs that the sentences of ``agree`` families naming
        ``e`` share, its names' own pairs aside -- a man standing in for him by the row shares ``role`` of them.
        D's 李祐、李道宗率步骑兵四万殿后 shares the others' 道宗, 步骑, 殿后 and stands in for 李世勣; the alternate
        history's 李世勣带着先头部队探路 shares nothing of 长孙无忌率万人刈草填道 and does not stand in for him (its
        road-cutters are 阎立德's, a man the register does not know). None where it cannot be told: no wording
        known, or too few tellings to hold a stand-in to."""
        if self.wording is None:
            return None
        shared: defaultdict[str, set[str]] = defaultdict(set)
        for s, xs in here.said.items():
            for y in xs:
                if y.entries == (e,):
                    shared[self.q.family(s)] |= self.wording(y)
        if len(shared) < self.agree:
            return None
        entry = self.entries[e]
        own = {p for name in (*entry.names, *entry.variants) for p in wording(self.q.fold(name))}
        return {p for p, n in Counter(p for ps in shared.values() for p in ps).items() if n >= self.agree} - own

    def _alternatives(self, here: _Named, s: str, e: str) -> list[Said]:
        """The entries witness ``s`` names that could stand in for ``e``: by name, not yet standing in for
        another, named by no other family where ``s`` names it (an entry several families name at one moment is
        itself), and by fewer families in the episode than ``e`` (the others' entry is the fact, the lone
        witness's name its reading: E's 李承乾 for the others' prince 李治, not the lecture's slip 李承乾 the
        others' reading of E's prince). Another holder of ``e``'s title may be named by several families there:
        texts agreeing on another prince (E's and an alternate history's 承乾) each give the role's reading.
        Counting other families anywhere in the episode instead lost E's
        prince to that slip, in a digression of another witness. Of an entry holding ``e``'s title, a family
        that names ``e`` too where ``s`` names it does not count: one role has one holder at a moment, and a
        text naming both there corrects or contrasts (the lecture's 李承乾——哎，说错了……这时候的太子是李治, in the
        rows E's 李承乾 meets the prince), it does not tell a second prince."""

        def families(f: str) -> int:
            return len(self.q.families(w for w, es in here.in_episode.items() if f in es))

        def others(x: Said, f: str) -> set[str]:
            beside = here.told.beside(x, f)
            if set(self.entries[f].titles) & set(self.entries[e].titles):
                beside -= here.told.beside(x, e)
            return beside

        least = families(e)
        return [
            x
            for f, x in here.best.get(s, {}).items()
            if f != e
            and f in self.entries
            and x.how != "title"
            and (s, f) not in here.taken
            and (len(others(x, f)) == 1 or bool(set(self.entries[f].titles) & set(self.entries[e].titles)))
            and families(f) < least
        ]

    def _stated(
        self, here: _Named, e: str, entry: Entry, slot: dict[str, Said], forms: dict[str, str], role: str
    ) -> Found | None:
        """The note, once the witnesses' forms (``_form``) are known: where they differ, each form; where they
        agree, a note only if the others describe a place or thing they name, or the agreement is worth stating
        (``_belongs``)."""
        kind = here.kind
        if len(set(forms.values())) >= 2:
            label = role or (entry.titles[0] if not entry.names and entry.titles else entry.name)
            return (kind, label, self.q.readings({s: slot[s] for s in forms}, forms))
        others_describe = any(x.how == "title" and s not in forms for s, x in slot.items())
        if others_describe and entry.names and kind != "person":
            # the texts naming a place or thing agree, and others only describe it (遼澤 in C and the
            # chronicles; A/B's 泥淖, D/E's 沼泽): not "the same" -- each wording listed, as where one text
            # alone names it (a person's title, 父皇 or 太宗 for 李世民, is no fact)
            return (kind, entry.name, self.q.worded(slot))
        if kind == "person" and not here.defines(e):
            return None  # a man the episode's definition does not name: agreeing on him may be of another moment
        if self._belongs(kind, e, slot, here):
            return (kind, f"{entry.name}，所記同", self.q.worded(slot))
        return None

    def _belongs(self, kind: str, e: str, slot: dict[str, Said], here: _Named) -> bool:
        """Whether independent tellings agreeing on an entry is worth a note. A place or a thing: two families
        name it at one moment of the episode (棉衣; 營州 of the rite, told by the seeds' E and a new retelling where
        A names it only on the road), it is named at no other moment (for a place: where three families name it
        at another stretch of rows too, as 定州 where the prince sets out and where the emperor vowed his robe;
        ``Told.moments``), and it belongs to this episode: most of its mentions in all the witnesses are here
        (太牢 at the rite), or at least half the families telling the episode name it where another family names
        it too (營州 of the rite, named also where the prince waits and the coats are stored; 安市城 where the army
        parades as it leaves; 遼州 and 蓋州 whose people are moved: the rows of 37 witnesses part that one moment
        in two) -- not 安市 in passing (named all through the siege). A person recurs in every scene: only one that
        three families name at one moment of the episode, and at no other, who acts there (長孫無忌 clearing the
        road over the marsh; 李道宗 in the rearguard) -- never the one named most in the edition, who is in every
        scene."""
        told = here.told
        if kind == "person":
            moments = [g for (f, g), families in told.where.items() if f == e and len(families) >= self.agree]
            return len(moments) == 1 and e != self.named.most_common(1)[0][0] and told.together(e, self.agree)
        if len(self.q.families(slot)) < 2 or not told.together(e, 2):
            return False
        if told.moments(e, 2 if kind == "thing" else self.agree) > 1:
            return False  # the name is said at several moments: which one would the agreement be of?
        return self._mostly_here(e, here.said) or 2 * len(self.q.families(slot)) >= len(
            self.q.families(here.in_episode)
        )

    def _mostly_here(self, e: str, said: dict[str, list[Said]]) -> bool:
        """Whether most of the mentions of entry ``e`` in all the witnesses are in this episode (``said``)."""
        here = sum(1 for xs in said.values() for x in xs if x.entries == (e,) and x.how != "title")
        return 2 * here > self.named[e]

    def _rank(self, x: Said, e: str, told: Told) -> tuple:
        """Which of a witness's mentions of an entry is its reading: one of the text's own before one in a
        commentary's brackets (P's 遼澤泥潦, not 胡注's 蒲溝渤錯水皆在遼澤中); then the one told where most other
        texts name it too, in its group of rows (the people moved from 蓋州, not 蓋牟城 among the cities taken);
        then the one named with what the others name there (``Told.company``); then the one most other texts name in the
        rows its own cell covers (A's coats put on, as E's are worn, not those waiting at 營州); then a
        variant; then the name most other texts use (蓋州 as C and E, of A's 蓋牟城 and 蓋州 in one moment); then as
        ``_prefer`` says."""
        me = self.q.family(x.siglum)
        how, *rest = self._prefer(x, e)
        beside = -len(told.beside(x, e) - {me})
        # a person is who he is in every row: of his names, the one the others use (A's 李治 where it meets the
        # prince, not the emperor's 治兒 on the road, though another text names him beside that)
        person = e in self.entries and self.entries[e].kind == "person"
        return (
            self.glossed(x) or self.spoken_of(x),  # a name only reported goes after the text's own naming
            -len(told.where[(e, told.group[x.row])] - {me}),
            -told.company(x, e, me),
            0 if person else beside,
            how,
            -len(told.forms[(e, x.value)] - {me}),
            beside,
            *rest,
        )

    def _prefer(self, x: Said, e: str) -> tuple:
        """Which of a witness's mentions of an entry stands for it: a variant, then a name (its headword,
        then the longest), then a title."""
        entry = self.entries.get(e)
        headword = entry is not None and x.value == self.q.fold(entry.name)
        return ({"variant": 0, "name": 1, "title": 2}[x.how], not headword, -len(x.text), x.start)

    @staticmethod
    def _form(e: str, entry: Entry, x: Said, described: bool = False) -> str | None:
        """How a witness names entry ``e`` here, as compared: another entry, a variant, its name, 不名 --
        or, where only one text names it (``described``), the words a witness uses instead (泥淖)."""
        if e not in x.entries:
            return "other:" + x.entries[0]
        if x.how == "variant":
            return "variant:" + x.value
        if x.how == "name":
            return "name"
        if described:
            return "title:" + x.value
        return None if entry.names else "untitled"
