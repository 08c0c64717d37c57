"""A packet for a reader: the edition of the seeds and every development witness (machine alone), 40 of its rows
drawn at random (seed 2025, or the one given: a new reading reads other rows) among those with two witnesses or more,
and every fact note with each reading in 30 characters of its witness's text. Quality is judged by reading
(tests/dev/READING.md was read from such packets). With KINDS (comma-separated kinds of tests/dev/kinds.yaml), the
edition of the seeds and those kinds' witnesses only: a classical edition, as a scholar would make one, is
``chronicle,annal,memorial,leishu,anecdote,institutional``.

    .venv/bin/python -m tests.reading_packet OUT.md [SEED [KINDS]]
"""

import random
import sys
import tempfile
from pathlib import Path

from tests.kinds import edition_folder, kinds
from tests.support import build_folder


def packet(seed: int = 2025, chosen: str = "") -> str:
    """The packet as Markdown; ``chosen``: the kinds whose witnesses join the seeds (all, if empty)."""
    allf = [f for k, fs in kinds().items() if not chosen or k in chosen.split(",") for f in fs]
    with tempfile.TemporaryDirectory() as tmp:
        ed = build_folder(edition_folder(Path(tmp) / "w", allf))
    wit = {w.siglum: w for w in ed.witnesses}
    out = ["# Witnesses", ""]
    for w in ed.witnesses:
        out.append(f"- {w.siglum}: {w.meta.file} — {w.meta.title}")
    rows = [(ep, k, r) for ep in ed.episodes for k, r in enumerate(ep.rows) if len(r.cells) >= 2]
    random.Random(seed).shuffle(rows)
    out += ["", "# 40 rows (rows with two witnesses or more, drawn at random)", ""]
    for n, (ep, k, r) in enumerate(sorted(rows[:40], key=lambda x: (x[0].episode.order, x[1])), 1):
        out.append(
            f"## R{n}: {ep.episode.title} ({ep.episode.id}), row {k + 1}"
            + (f" — spans {dict(r.span)}" if r.span else "")
        )
        for s, segs in r.cells.items():
            out.append(f"- **{s}**: " + " ｜ ".join(x.text.replace(chr(10), " ").replace("\u3000", "") for x in segs))
        out.append("")
    facts = [n for n in ed.notes if n.type == "fact"]
    out += ["", f"# Every fact note ({len(facts)})", ""]
    for n, note in enumerate(facts, 1):
        ep = next((e for e in ed.episodes if e.episode.id == note.episode), None)
        out.append(f"## F{n}: [{note.cls}] {note.label} — {ep.episode.title if ep else '-'}")
        out.append(f"note as shown: {note.text}")
        for rd in note.readings:
            for s in rd.sigla:
                sp = rd.spans.get(s)
                if sp:
                    t = wit[s].text
                    a, b = sp
                    ctx = t[max(0, a - 30) : a] + "【" + t[a:b] + "】" + t[b : b + 30]
                    out.append(f"- {s} reads 「{rd.text}」: …{ctx.replace(chr(10), ' ').replace(chr(12288), '')}…")
                else:
                    out.append(f"- {s}: (does not say)")
        out.append("")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 2025
    Path(sys.argv[1]).write_text(packet(seed, sys.argv[3] if len(sys.argv) > 3 else ""), encoding="utf-8")
