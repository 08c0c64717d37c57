"""Assign every segment to one episode or to none.

Each episode's definition (description, cues, example passages) becomes a
profile: its character pairs (in the compared form), each weighted by how much
likelier it is in the definition than in the whole corpus of witnesses, so
names and words the whole story repeats (安市, 城主) weigh next to nothing and
words of the moment itself (拜辭, 百匹, 太牢, 渤錯水) weigh much. A segment's
evidence for an episode is the weight of the profile's pairs it uses, less a
price per letter. A Viterbi pass then chooses, per witness, the labelling that
best trades evidence against the cost of each change of label, which depends on
where it falls (cheap at a scene break, dear inside a sentence, prohibitive
inside a speech), so an episode comes as a run of segments (possibly several)
and a stray shared word in a passage about other events does not pull it in.
A second pass adds to each profile the vocabulary that independent witnesses'
tellings of it share. Last, a segment at the edge of a run with no evidence of
its own goes back to no episode.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from functools import cache, lru_cache, partial
from itertools import chain
from operator import add

from .cache import Cache, NoCache
from .dates import CYCLICAL, DATE, YEAR, calendar, date_letters, month_bounds
from .glosses import glossed
from .model import EpisodeDef, Segment
from .normalise import MATCHED, Normaliser
from .params import Params
from .segment import CLAUSE, PARAGRAPH, SCENE, SENTENCE, heading_at
from .spread import in_order

Profile = dict[str, float]  # pair -> weight
CLAUSES = re.compile(r"[^\w]+")  # what parts a definition's clauses: every mark and space
# (compared forms) a heading that opens a writer's or editor's notes after the text: paratext, not the story
PARATEXT = re.compile(r"作者的话|作者有话说|作者按|后记|附记|跋|编者按|注释|参考文献|参考书目")


@lru_cache(maxsize=1 << 17)
def pairs(folded: str) -> tuple[str, ...]:
    """The character pairs of a folded text in its matched form (``normalise.MATCHED``), each once, in the order
    they first occur (computed once per text: every pass reads them). In order, not as a set: evidence is summed
    over them, and a sum of floats taken in the order of a set's hashes would differ in its last bits from one
    process to the next, and tip a tie."""
    folded = folded.translate(MATCHED)
    return tuple(dict.fromkeys(map(add, folded, folded[1:])))  # each pair made in C: letter + next letter


def definition_pairs(d: EpisodeDef, norm: Normaliser, persons: tuple[str, ...]) -> tuple[set[str], set[str]]:
    """The pairs of a definition's texts, and those of them that lie inside a person's name."""
    grams: set[str] = set()
    named: set[str] = set()
    for text in (d.description, *d.cues, *d.examples):
        for clause in CLAUSES.split(text):  # no pair across a mark: 聞之，曰 has no 之曰
            folded = norm.fold_text(clause)
            grams.update(pairs(folded))
            for name in persons:
                at = folded.find(name)
                while at >= 0:
                    named.update(pairs(name))
                    at = folded.find(name, at + 1)
    return grams, named


def profiles_of(
    defs: tuple[EpisodeDef, ...],
    norm: Normaliser,
    persons: tuple[str, ...],
    cf: Counter[str],
    total: int,
    name_weight: float,
    background: float,
) -> list[Profile]:
    """Each definition's pairs, weighted by log(share in the definition / share in the corpus).

    The corpus's shares are smoothed with ``background`` pairs seen once each, so that a small corpus (one
    short witness) does not make every pair of the definitions look common.

    A pair in several definitions tells those episodes apart less, so its weight is shared out;
    a pair of a person's name (the register's) says who, not what happened: it weighs ``name_weight``.
    """
    found = [definition_pairs(d, norm, persons) for d in defs]
    sets = [grams for grams, _ in found]
    share = Counter(g for p in sets for g in p)
    out = []
    for grams, named in found:
        prior = 1.0 / max(1, len(grams))
        weights = {}
        for g in grams:
            w = math.log(prior * (total + background) / (cf[g] + 1))
            if w > 0:
                weights[g] = w / share[g] * (name_weight if g in named else 1.0)
        out.append(weights)
    return out


def evidence(segments: dict[str, tuple[Segment, ...]], profiles: list[Profile]) -> dict[str, list[list[float]]]:
    """For each segment of each witness, the weight of each profile's pairs it uses (each pair once). A text is
    weighed once however many segments read it (copies of one text repeat every sentence of it): its segments
    share the one list, which no pass changes."""
    where: dict[str, list[tuple[int, float]]] = {}
    for k, p in enumerate(profiles):
        for g, w in p.items():
            where.setdefault(g, []).append((k, w))
    weighed: dict[str, list[float]] = {}

    def weigh(folded: str) -> list[float]:
        row = weighed.get(folded)
        if row is None:
            row = weighed[folded] = [0.0] * len(profiles)
            for g in pairs(folded):
                for k, w in where.get(g, ()):
                    row[k] += w
        return row

    return {s: [weigh(seg.folded) for seg in segs] for s, segs in segments.items()}


def breaks(segs: tuple[Segment, ...]) -> list[int]:
    """The strength of the break before each segment, -1 inside a quotation (see ``segment``)."""
    return [-1 if seg.quoted else seg.strength for seg in segs]


def trim(labels: list[int], raw: list[list[float]], strength: list[int]) -> list[int]:
    """Give back to no episode the segments at a run's edge that only their neighbours put there.

    Borrowed context must not carry an episode past its last own word: a segment
    next to text in no episode, with no pair of its own in the episode's profile,
    is in no episode either (repeated inward) -- unless the break on its outer
    side is the stronger one: the words that close a scene stay with it.
    """
    out = list(labels)
    n = len(out)
    changed = True
    while changed:
        changed = False
        for i, k in enumerate(out):
            if not k or raw[i][k - 1] > 0:
                continue
            before = out[i - 1] if i > 0 else 0
            after = out[i + 1] if i + 1 < n else 0
            gap_before = strength[i] if i > 0 else SCENE + 1
            gap_after = strength[i + 1] if i + 1 < n else SCENE + 1
            if (
                (before == 0 and after == k and gap_before <= gap_after)
                or (after == 0 and before == k and gap_after <= gap_before)
                or (before == 0 and after == 0)
            ):
                out[i] = 0
                changed = True
    return out


def peak_density(segs: tuple[Segment, ...], raw: list[list[float]], quantile: float) -> float:
    """How densely this witness words its episodes where it words them most densely: evidence per letter
    of its segments, at ``quantile`` (letters weighing). Terse chronicles and wordy novels differ by
    several times in it, so the price of a letter of text is set relative to it."""
    dens = sorted(
        (max(row) / len(seg.folded), len(seg.folded)) for seg, row in zip(segs, raw, strict=True) if seg.folded
    )
    total = sum(n for _, n in dens)
    if not total:
        return 0.0
    seen = 0
    for d, n in dens:
        seen += n
        if seen >= quantile * total:
            return d
    return dens[-1][0]


def close_scenes(
    labels: list[int], raw: list[list[float]], strength: list[int], lengths: list[int], share: float
) -> list[int]:
    """Give an episode the unclaimed words that close (or open) its scene.

    Text in no state at all (no episode, no context event) between the end of an
    episode's run and the next scene break -- the emperor's last words, his
    leaving -- stays with the episode, as do the words between a scene break and
    the first word of an episode: if they use some word of the episode's own, and
    are no longer than ``share`` of the run.
    """
    out = list(labels)
    n = len(out)

    def fits(a: int, b: int, k: int, run: int) -> bool:
        return sum(lengths[a:b]) <= share * run and any(raw[x][k - 1] > 0 for x in range(a, b))

    i = 0
    while i < n:
        if out[i] == 0:
            i += 1
            continue
        k, start = out[i], i
        while i < n and out[i] == k:
            i += 1
        run = sum(lengths[start:i])
        j = i  # forward: none up to a scene break
        while j < n and out[j] == 0 and strength[j] < SCENE:
            j += 1
        if j > i and (j == n or strength[j] >= SCENE) and fits(i, j, k, run):
            out[i:j] = [k] * (j - i)
        j = start  # backward: none since a scene break
        while j > 0 and out[j - 1] == 0 and strength[j] < SCENE:
            j -= 1
        if j < start and (j == 0 or strength[j] >= SCENE) and out[j] == 0 and fits(j, start, k, run):
            out[j:start] = [k] * (start - j)
    return out


def dated(segs: tuple[Segment, ...], params: Params) -> bool:
    """Whether a witness is written as dated entries (an annal, a chronicle's 乙酉，至遼東): enough of its
    sentences open with a date. A novel's 那年十月 is no entry: it dates a memory, not the text."""
    openings = [seg.folded for seg in segs if seg.strength >= SENTENCE and seg.folded]
    heads = sum(1 for f in openings if any(rx.match(f) for rx in (YEAR, DATE, CYCLICAL)))
    return heads >= params.dated_least and heads >= params.dated * len(openings)


def out_of_time(
    segs: tuple[Segment, ...], defs: tuple[EpisodeDef, ...], params: Params, profiles: list[Profile]
) -> list[set[int]]:
    """For each segment, the states (k: episode k-1) its date rules out. In a witness written as dated entries:
    an entry of another month or year than the episode's ``window`` (五月's crossing of the 遼澤 on the way
    out is not the withdrawal's; 二十一年's 班師 is another campaign's), its years read as counted from the reign
    it tells the episodes in (``reign_shift``). In another witness, a segment between two of its date clauses
    (``dates.month_bounds``) that leave no month of the window between them: an institutional history's 五月，…
    帝至遼澤，泥淖二百餘里 … 秋七月 is the crossing on the way out, whatever its words."""
    if not any(d.window for d in defs):
        return [set() for _ in segs]
    # a witness has few distinct bounds (or dates): each is worked out once (``cache``), not once per segment
    if not dated(segs, params):

        @cache
        def outside(lo: int | None, hi: int | None) -> set[int]:
            return {
                k
                for k, d in enumerate(defs, 1)
                if d.window and lo is not None and hi is not None and lo <= hi and not d.window.meets(lo, hi)
            }

        return [outside(*b) for b in month_bounds([seg.folded for seg in segs], params.date_clause)]
    dates = calendar([seg.folded for seg in segs], glossed(segs))
    shift = reign_shift(dates, evidence({"": segs}, profiles)[""], defs)

    @cache
    def excluded(y: int | None, m: int | None) -> set[int]:
        return {k for k, d in enumerate(defs, 1) if d.window and d.window.excludes(None if y is None else y + shift, m)}

    return [excluded(*date) for date in dates]


def reign_shift(
    dates: list[tuple[int | None, int | None]], raw: list[list[float]], defs: tuple[EpisodeDef, ...]
) -> int:
    """How many years a witness's count of years stands from the windows': an annal of another state counts
    by its own king (寶臧王四年 is 貞觀十九年), and the window's 十九年 would rule out every entry it tells the
    episodes in. Its year of the episodes is the one whose entries in the windows' months, or dated by their year
    alone (a 綱目's 十九年 headline, whose 詔班師 has no month), hold the most evidence for them (the window's own
    year on a tie); an annal of the emperor has it in that year, and the window's year rules out the other years'
    班師 as before."""
    years = Counter(d.window.year for d in defs if d.window and d.window.year is not None)
    if not years:
        return 0
    ref = min(years, key=lambda y: (-years[y], y))
    windowed = [k for k, d in enumerate(defs) if d.window]
    months = {m for d in defs if d.window for m in range(d.window.first, d.window.last + 1)}
    told: Counter[int] = Counter()
    for (year, month), row in zip(dates, raw, strict=True):
        if year is not None and (month is None or month in months):
            told[year] += max(row[k] for k in windowed)
    if not told:
        return 0
    return ref - max(told, key=lambda y: (told[y], y == ref, -y))


def afterword(segs: tuple[Segment, ...], states: int) -> list[set[int]]:
    """For each segment, every state when it lies in the witness's own paratext: from a paragraph headed
    作者的话, 后记, 附记 (or the like, ``PARATEXT``) to the end. An author's note on how the chapter departs
    from the histories (赏给城主的是蜀锦二百匹，不是缣一百匹) names the episode's words but tells no moment."""
    out: list[set[int]] = []
    every: set[int] = set()
    for seg in segs:
        if not every and seg.strength >= PARAGRAPH and PARATEXT.fullmatch(seg.folded):
            every = set(range(1, states + 1))
        out.append(every)
    return out


def rescued(
    labels: list[int],
    raw: list[list[float]],
    paid: list[int],
    price: float,
    bar: float,
    story: set[int],
    barred: list[set[int]] | None,
) -> list[int]:
    """An episode of the story a witness was given no word of, looked for again at a lower ``price`` among its
    text in no state: the best run of segments (most evidence less price), taken when it clears ``bar``."""
    out = list(labels)
    told = set(labels)
    for k in sorted(story - told):
        best, run, start, span = 0.0, 0.0, 0, None
        for i, lab in enumerate(out):
            if lab or (barred and k in barred[i]):
                run, start = 0.0, i + 1
                continue
            if run <= 0:
                run, start = 0.0, i
            run += raw[i][k - 1] - price * paid[i]
            if run > best:
                best, span = run, (start, i + 1)
        if span and best >= bar:
            out[span[0] : span[1]] = [k] * (span[1] - span[0])
    return out


def label(
    segs: tuple[Segment, ...],
    raw: list[list[float]],
    params: Params,
    peak: float,
    barred: list[set[int]] | None = None,
    story: set[int] = frozenset(),
) -> list[int]:
    """One witness's labels (0 none, k state k-1) from its segments' ``evidence``; ``peak``: the density its
    price of a letter is set from (see ``labels_of``); ``barred``: the states each segment may not take."""
    strength = breaks(segs)
    price = params.threshold * peak
    # a date pays no price: it frames the moment after it (九月癸未，班師 -- the withdrawal in a terse annal,
    # whose four letters of date would outweigh 班師's evidence) and tells no other event
    paid = [len(seg.folded) - date_letters(seg.folded) for seg in segs]
    emit = [[e - price * n for e in row] for n, row in zip(paid, raw, strict=True)]
    for row, bar in zip(emit, barred or (), strict=False):
        for k in bar:
            row[k - 1] = -math.inf
    labels = trim(viterbi(emit, strength, params), raw, strength)
    labels = close_scenes(labels, raw, strength, [len(seg.folded) for seg in segs], params.scene_share)
    if params.rescue:
        labels = rescued(labels, raw, paid, price * params.rescue, params.rescue_bar, story, barred)
    # a section heading (六、遼澤：比打仗還可怕的回家路) names what follows and tells no moment: in no episode
    heads = heading_at(segs)
    labels = titled(labels, raw, heads)
    heads = set(heads)
    return [0 if (barred and k in barred[i]) or i in heads else k for i, k in enumerate(labels)]


def titled(labels: list[int], raw: list[list[float]], heads: list[int]) -> list[int]:
    """A section the labelling left in no state at all takes the one state its heading's words hold evidence
    for, when the witness tells that episode nowhere else: a collection's 祭征遼戰亡將士文 names the rite its
    prayer tells in words no other telling uses (夫忠烈盡世，往賢明軌), as ``rescued`` looks again for an episode a
    witness was given no word of. A chapter's title (第三十一章　辽水雪) over a preface, in a witness that tells
    the marshes later in words of their own, leaves the preface as it was."""
    out = list(labels)
    told = set(labels)
    starts = [i for i in heads if i - 1 not in heads]  # each heading's first segment
    for h in starts:
        end_of_head = h
        while end_of_head + 1 in heads:
            end_of_head += 1
        body = range(end_of_head + 1, next((i for i in starts if i > h), len(labels)))
        named = [k for k, e in enumerate(raw[h], 1) if e > 0]
        if not body or len(named) != 1 or named[0] in told or any(labels[i] for i in body):
            continue
        for i in body:
            out[i] = named[0]
    return out


def labels_of(
    segments: dict[str, tuple[Segment, ...]],
    profiles: list[Profile],
    params: Params,
    barred: dict[str, list[set[int]]],
    story: set[int] = frozenset(),
    cache: Cache | None = None,
) -> dict[str, list[int]]:
    """Every witness's labels. A witness's price of a letter follows its own peak density, never less than
    ``params.floor`` of the median witness's (off by default: see its doc). The witnesses are labelled side by
    side (``spread``) and, under a ``cache``, a witness whose evidence did not change keeps its labels."""
    cache = cache or NoCache()
    raw = evidence(segments, profiles)
    peaks = {s: peak_density(segs, raw[s], params.peak) for s, segs in segments.items()}
    ranked = sorted(peaks[s] for s, segs in segments.items() if segs)
    floor = params.floor * ranked[(len(ranked) - 1) // 2] if ranked else 0.0
    story = frozenset(story)
    weights = repr([sorted(p.items()) for p in profiles])
    jobs = []
    for s, segs in segments.items():
        peak = max(peaks[s], floor)
        key = ("label", _weighed(segs, barred[s], weights), peak, story, params)
        letters = sum(len(seg.folded) for seg in segs)
        jobs.append((key, (letters, partial(label, segs, raw[s], params, peak, barred[s], story))))
    return dict(zip(segments, cache.get_all(jobs, in_order), strict=True))


def _weighed(segs: tuple[Segment, ...], barred: list[set[int]], profiles: str) -> str:
    """A digest of all ``label`` reads of a witness but the parameters: its segments' letters and breaks, their
    barred states and (``profiles``, a digest) the weights their evidence is summed from. A save under ``mkdocs
    serve`` changes one witness's text; the profiles weigh pairs by the whole corpus, which one letter seldom
    moves, so the other witnesses' labels are then taken from the last build."""
    h = hashlib.blake2b(profiles.encode(), digest_size=16)
    h.update("\0".join(seg.folded for seg in segs).encode())
    h.update(bytes(seg.strength + 8 * seg.quoted for seg in segs))
    h.update(repr([(i, sorted(bar)) for i, bar in enumerate(barred) if bar]).encode())
    return h.hexdigest()


def viterbi(scores: list[list[float]], strength: list[int], params: Params) -> list[int]:
    """Best label per segment (0 is none, k is episode k-1): evidence against the cost of each change,
    which depends on the break where it happens (cheap at a scene break, dear inside a sentence,
    prohibitive inside a quotation)."""
    costs = {
        -1: params.cost_quote,
        CLAUSE: params.cost_clause,
        SENTENCE: params.cost_sentence,
        PARAGRAPH: params.cost_paragraph,
        SCENE: params.cost_scene,
    }
    k = len(scores[0]) + 1 if scores else 1
    share = params.switch_share
    prev = [0.0] + [-params.cost_scene] * (k - 1)
    back: list[list[int]] = []
    states = range(1, k)
    for score, st in zip(scores, strength, strict=True):
        change = costs[st]
        # the two best episodes before (lowest index first on ties): the best other than j is one of them
        first, first_i, second, second_i = -math.inf, 0, -math.inf, 0
        for i in states:
            p = prev[i]
            if p > first:
                first, first_i, second, second_i = p, i, first, first_i
            elif p > second:
                second, second_i = p, i
        # staying is free, leaving or entering costs ``change``, moving between episodes its share
        best, best_i = prev[0], 0
        if first - change > best:
            best, best_i = first - change, first_i
        cur, ptr = [best], [best_i]
        enter = prev[0] - change
        moved_first, moved_second = first - change * share, second - change * share
        for j, p, s in zip(states, prev[1:], score, strict=True):  # each segment by each state: keep it lean
            best, best_i = (p, j) if p > enter else (enter, 0)
            moved, moved_i = (moved_first, first_i) if first_i != j else (moved_second, second_i)
            if moved > best or (moved == best and moved_i < best_i):
                best, best_i = moved, moved_i
            cur.append(best + s)
            ptr.append(best_i)
        prev = cur
        back.append(ptr)
    if not back:
        return []
    state = max(range(k), key=lambda j: (prev[j], -j))
    labels = []
    for ptr in reversed(back):
        labels.append(state)
        state = ptr[state]
    return labels[::-1]


def expand(
    profiles: list[Profile],
    segments: dict[str, tuple[Segment, ...]],
    labels: dict[str, list[int]],
    family: dict[str, str],
    df: Counter[str],
    n_docs: int,
    lift: float,
    uses: int,
) -> list[Profile]:
    """Add to each profile the pairs that the witnesses' own tellings of it share.

    A pair joins episode k's profile when at least ``uses`` segments labelled k, in
    at least two families of witnesses, use it (copies of one text are one family:
    they are no independent evidence) and it is at least ``lift`` times more frequent inside
    the episode than outside it: vocabulary the retellings have in common
    (杨万春's 城楼, 父皇, 战袍) but the definition did not foresee. Its weight is
    the log of that ratio, never more than the definition's own heaviest pair.
    ``df`` counts the segments using each pair in the whole corpus, of ``n_docs``.
    """
    inside: list[dict[str, set[str]]] = [{} for _ in profiles]
    count_in: list[Counter[str]] = [Counter() for _ in profiles]
    size_in = [0] * len(profiles)
    for siglum, segs in segments.items():
        for seg, k in zip(segs, labels[siglum], strict=True):
            grams = pairs(seg.folded)
            if k:
                size_in[k - 1] += 1
                count_in[k - 1].update(grams)
                for g in grams:
                    inside[k - 1].setdefault(g, set()).add(family[siglum])
    out = []
    for k, p in enumerate(profiles):
        grown = dict(p)
        ceiling = max(p.values(), default=0.0)
        for g, wits in inside[k].items():
            if len(wits) < 2 or g in p or count_in[k][g] < uses:
                continue
            rate_in = (count_in[k][g] - 1) / size_in[k]  # one use discounted: a chance pair is not vocabulary
            rate_out = (df[g] - count_in[k][g] + 1) / (n_docs - size_in[k] + 1)
            if rate_in >= lift * rate_out:
                grown[g] = min(ceiling, math.log(rate_in / rate_out))
        out.append(grown)
    return out


def assign(
    segments: dict[str, tuple[Segment, ...]],
    defs: tuple[EpisodeDef, ...],
    norm: Normaliser,
    params: Params,
    family: dict[str, str],
    persons: tuple[str, ...] = (),
    cache: Cache | None = None,
) -> dict[str, tuple[str | None, ...]]:
    """The episode id (or None) of every segment, per witness: a first pass, then refined ones.

    ``family`` gives each witness's family (``families.families``, which honours the catalogue): copies of one
    text are one voice when the profiles grow. ``cache``: where a shell keeps each witness's labels (``labels_of``)."""
    df: Counter[str] = Counter()
    cf: Counter[str] = Counter()  # no pair across segments: those with the joint "\0" are not counted in ``total``
    n_docs = total = 0
    for segs in segments.values():  # one count per witness, made in C
        folded = [seg.folded for seg in segs]
        df.update(chain.from_iterable(map(pairs, folded)))
        joined = "\0".join(folded).translate(MATCHED)
        cf.update(map(add, joined, joined[1:]))
        total += sum(len(f) - 1 for f in folded if f)
        n_docs += len(folded)
    profiles = profiles_of(defs, norm, persons, cf, total, params.name_weight, params.background)
    barred = {
        s: [t | a for t, a in zip(out_of_time(segs, defs, params, profiles), afterword(segs, len(defs)), strict=True)]
        for s, segs in segments.items()
    }
    story = {k for k, d in enumerate(defs, 1) if not d.context}
    labels = labels_of(segments, profiles, params, barred, story, cache)
    for _ in range(params.rounds):
        profiles = expand(profiles, segments, labels, family, df, n_docs, params.lift, params.uses)
        labels = labels_of(segments, profiles, params, barred, story, cache)
    return {s: tuple(defs[j - 1].id if j and not defs[j - 1].context else None for j in labels[s]) for s in segments}
