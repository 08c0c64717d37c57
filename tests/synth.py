"""A deterministic synthetic corpus: N witnesses of about L characters each, made from the seeds.

Each witness retells the seeds' story again and again (one telling per seed
witness, in turn, until it is long enough), with the changes real witnesses
show:

- script conversion (a whole witness in Traditional or Simplified script),
- variant characters (巖/岩, 屛/屏 …) and punctuation (quote styles, half-width commas),
- words substituted, sentences dropped, inserted and moved,
- long passages about other events: the seeds' own non-episode sentences
  (from the gold annotation) shuffled and recombined.

All witnesses share one archetype, so their episodes line up and every stage
of the engine (episode assignment, row alignment, notes) has work to do. The
output depends only on the seed folder and the arguments.

    python -m tests.synth OUT_DIR --witnesses 5 --length 20000 [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from edition.engine.convert import to_simplified, to_traditional
from tests.gold import gold_labels

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "seeds"
_SENTENCE = re.compile(r"[^。！？；…\n]*(?:[。！？；…]+[”」』’\"]*|$)")
# Pairs of forms one witness writes and another does not (comparison folds them).
VARIANTS = [("巖", "岩"), ("濕", "溼"), ("周", "週"), ("盡", "儘"), ("布", "佈"), ("唇", "脣"), ("回", "迴")]
VARIANTS += [("刮", "颳"), ("屏", "屛"), ("填", "塡"), ("眾", "衆"), ("群", "羣"), ("床", "牀")]
# Words a copyist or a reteller swaps for one another.
SYNONYMS = [
    ("皇帝", "陛下", "天子", "聖上"),
    ("將士", "兵士", "士卒", "軍士"),
    ("說道", "言道", "說"),
    ("立刻", "即刻", "馬上"),
    ("百匹", "一百匹", "五十匹"),
    ("四萬", "三萬", "四千"),
    ("大雪", "暴雪", "風雪"),
    ("城主", "守將", "城守"),
    ("於是", "因此", "故而"),
    ("十月", "九月", "冬月"),
]


@dataclass(frozen=True)
class Sentence:
    text: str
    episode: str | None
    para_end: bool  # the sentence ends a paragraph


def _sentences(file: str, text: str) -> list[Sentence]:
    """The seed's sentences, each labelled with the gold episode of most of its characters."""
    labels = gold_labels(file, text)
    out = []
    for m in _SENTENCE.finditer(text):
        s, e = m.span()
        body = text[s:e].strip()
        if not body:
            continue
        counts: dict[str | None, int] = {}
        for lab in labels[s:e]:
            counts[lab] = counts.get(lab, 0) + 1
        episode = max(counts, key=lambda k: (counts[k], k is not None))
        out.append(Sentence(body, episode, text[e : e + 1] in ("\n", "")))
    return out


@cache
def _convert(text: str, script: str) -> str:
    return to_traditional(text) if script == "Hant" else to_simplified(text)


def _recombine(rng: random.Random, pool: list[Sentence]) -> str:
    """Two non-episode sentences spliced at a comma: text about other events no seed contains."""
    a, b = rng.choice(pool).text, rng.choice(pool).text
    i, j = a.find("，"), b.find("，")
    return a[: i + 1] + b[j + 1 :] if i > 0 and j > 0 else a


def _other_events(rng: random.Random, pool: list[Sentence], size: int) -> list[str]:
    return [_recombine(rng, pool) if rng.random() < 0.3 else rng.choice(pool).text for _ in range(size)]


def archetype(length: int, seed: int, seeds: Path = SEEDS) -> tuple[list[list[str]], list[str]]:
    """Paragraphs of sentences, about ``length`` characters: the seeds' tellings in turn, other events between.

    Also the pool of sentences about other events (the seeds' non-episode ones) for the witnesses to insert.
    """
    rng = random.Random(f"archetype-{seed}")
    files = sorted(p.name for p in seeds.glob("*.txt"))
    tellings = [_sentences(f, (seeds / f).read_text(encoding="utf-8-sig")) for f in files]
    pool = [s for t in tellings for s in t if s.episode is None]
    paragraphs: list[list[str]] = []
    size = 0
    k = 0
    while size < length:
        telling = tellings[k % len(tellings)]
        k += 1
        para: list[str] = []
        for sent in telling:
            text = sent.text if sent.episode else _recombine(rng, pool) if rng.random() < 0.3 else sent.text
            para.append(text)
            size += len(text)
            if sent.para_end:
                paragraphs.append(para)
                para = []
            if size >= length:
                break
        if para:
            paragraphs.append(para)
        if size < length:  # a long passage about other events between two tellings
            passage = _other_events(rng, pool, rng.randint(5, 25))
            paragraphs.append(passage)
            size += sum(map(len, passage))
    return paragraphs, [s.text for s in pool]


def _substitute(rng: random.Random, text: str, script: str) -> str:
    for group in rng.sample(SYNONYMS, len(SYNONYMS)):
        forms = [_convert(w, script) for w in group]
        hit = next((w for w in forms if w in text), None)
        if hit:
            return text.replace(hit, rng.choice([w for w in forms if w != hit]), 1)
    if len(text) > 6:  # no known word: another two characters from the sentence itself
        i = rng.randrange(len(text) - 2)
        j = rng.randrange(len(text) - 2)
        return text[:i] + text[j : j + 2] + text[i + 2 :]
    return text


def witness(paragraphs: list[list[str]], index: int, seed: int, pool: list[str], length: int) -> str:
    """One witness: the archetype converted, spelt, punctuated and edited its own way, cut after ``length``."""
    rng = random.Random(f"witness-{seed}-{index}")
    script = "Hant" if index % 2 == 0 else "Hans"
    rate = 0.3 + rng.random()  # how freely this witness treats its exemplar
    spelling = {a: b for a, b in VARIANTS if rng.random() < 0.5}
    quotes = rng.choice([("“", "”"), ("「", "」")])
    half_width = rng.random() < 0.3
    out: list[str] = []
    size = 0
    for para in paragraphs:
        if size >= length:
            break
        sents = [_convert(s, script) for s in para if rng.random() >= 0.04 * rate]  # dropped
        for i in range(len(sents) - 1):  # moved
            if rng.random() < 0.03 * rate:
                sents[i], sents[i + 1] = sents[i + 1], sents[i]
        edited = []
        for s in sents:
            if rng.random() < 0.03 * rate:  # inserted
                edited.append(_convert(rng.choice(pool), script))
            if rng.random() < 0.15 * rate:
                s = _substitute(rng, s, script)
            edited.append(s)
        texts = ["".join(edited)]
        if rng.random() < 0.02 * rate:  # a long passage about other events
            passage = rng.sample(pool, min(len(pool), rng.randint(10, 40)))
            texts.insert(0, "".join(_convert(s, script) for s in passage))
        for text in texts:
            for a, b in spelling.items():
                text = text.replace(a, b)
            text = text.replace("“", quotes[0]).replace("”", quotes[1])
            if half_width:
                text = text.replace("，", ",")
            out.append(text)
            size += len(text)
    return "\n".join(p for p in out if p) + "\n"


def generate(out: Path, witnesses: int, length: int, seed: int = 0, seeds: Path = SEEDS) -> list[Path]:
    """Write ``witnesses`` files ``NNN_synth.txt`` of about ``length`` characters each into ``out``."""
    paragraphs, pool = archetype(length, seed, seeds)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(witnesses):
        path = out / f"{i:03d}_synth.txt"
        path.write_text(witness(paragraphs, i, seed, pool, length), encoding="utf-8")
        paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--witnesses", type=int, default=5)
    parser.add_argument("--length", type=int, default=20_000, help="characters per witness (about)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for path in generate(args.out, args.witnesses, args.length, args.seed):
        print(path, len(path.read_text(encoding="utf-8")))


if __name__ == "__main__":
    main()
