"""Results remembered between builds (for `mkdocs serve`) are never stale."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

from edition.episodes import default_path
from edition.export import to_json
from edition.pipeline import build

ROOT = Path(__file__).resolve().parents[1]


def fresh_export(seeds: Path) -> str:
    """The export from a new process, which remembers nothing."""
    done = subprocess.run(
        [sys.executable, "-m", "edition", "export", "--seeds", str(seeds)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
    )
    return done.stdout


def test_a_changed_witness_or_episode_file_is_never_served_stale(tmp_path):
    seeds = tmp_path / "seeds"
    shutil.copytree(ROOT / "seeds", seeds)
    first = to_json(build(seeds))
    assert "特賜縑一百匹" in first

    witness = seeds / "000_f5ad1a405610c3bb.txt"
    witness.write_text(witness.read_text(encoding="utf-8").replace("特賜縑一百匹", "特賜縑二百匹"), encoding="utf-8")
    second = to_json(build(seeds))
    assert "特賜縑二百匹" in second and second != first
    assert second == fresh_export(seeds)

    episodes = seeds / "episodes.yaml"
    episodes.write_text(
        default_path().read_text(encoding="utf-8").replace("title: 遼澤", "title: 遼澤泥淖"), encoding="utf-8"
    )
    third = to_json(build(seeds))
    assert "遼澤泥淖" in [ep["title"] for ep in json.loads(third)["episodes"]]
    assert third == fresh_export(seeds)
