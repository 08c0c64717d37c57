"""`mkdocs gh-deploy` publishes the site to branch gh-pages of `origin` (here a local bare repository)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("mkdocs.yml", "docs", "hooks", "overrides", "seeds", "edition")  # what the site build reads

pytestmark = pytest.mark.slow


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def test_gh_deploy_pushes_the_site_to_gh_pages(tmp_path):
    remote, work = tmp_path / "remote.git", tmp_path / "work"
    git("init", "--bare", "-q", str(remote), cwd=tmp_path)
    work.mkdir()
    for part in PARTS:
        src = ROOT / part
        if src.is_dir():
            shutil.copytree(src, work / part, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, work / part)
    env = {
        **os.environ,
        "NO_MKDOCS_2_WARNING": "1",
        "GIT_AUTHOR_NAME": "test",
        "GIT_AUTHOR_EMAIL": "test@example.org",
        "GIT_COMMITTER_NAME": "test",
        "GIT_COMMITTER_EMAIL": "test@example.org",
    }
    env.pop("EDITION_SEEDS", None)
    for args in (["init", "-q", "-b", "main"], ["add", "."], ["commit", "-q", "-m", "site"]):
        subprocess.run(["git", *args], cwd=work, check=True, env=env, capture_output=True)
    git("remote", "add", "origin", str(remote), cwd=work)

    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "gh-deploy", "--force", "--strict"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr
    files = git("ls-tree", "-r", "--name-only", "gh-pages", cwd=remote).split()
    assert {"index.html", "edition.json", "episodes/anshi-dialogue/index.html", ".nojekyll"} <= set(files)
