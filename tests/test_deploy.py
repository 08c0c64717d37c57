"""`mkdocs gh-deploy` publishes the site to branch gh-pages of `origin` (here a local bare repository).

`mkdocs gh-deploy` is `mkdocs build` followed by MkDocs' own deploy step (``mkdocs.commands.gh_deploy``,
ghp-import under it). The build is the session's `mkdocs build --strict` (``built_site`` in conftest.py, which
the site tests check); here the deploy step runs on it, as the command runs it, from a git work tree of the
project whose ``origin`` is the bare repository.
"""

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from mkdocs.commands.gh_deploy import gh_deploy
from mkdocs.config import load_config

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("mkdocs.yml", "docs", "hooks", "overrides", "seeds", "edition/engine/data")  # what the config names
pytestmark = pytest.mark.slow  # it needs the built site

GIT_ENV = {
    "GIT_AUTHOR_NAME": "test",
    "GIT_AUTHOR_EMAIL": "test@example.org",
    "GIT_COMMITTER_NAME": "test",
    "GIT_COMMITTER_EMAIL": "test@example.org",
}


def git(*args: str, cwd: Path) -> str:
    env = {**os.environ, **GIT_ENV}
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout


def test_gh_deploy_pushes_the_site_to_gh_pages(tmp_path, built_site, monkeypatch):
    remote, work = tmp_path / "remote.git", tmp_path / "work"
    git("init", "--bare", "-q", str(remote), cwd=tmp_path)
    work.mkdir()
    for part in PARTS:
        src = ROOT / part
        if src.is_dir():
            shutil.copytree(src, work / part)
        else:
            shutil.copy2(src, work / part)
    for args in (["init", "-q", "-b", "main"], ["add", "."], ["commit", "-q", "-m", "site"]):
        git(*args, cwd=work)
    git("remote", "add", "origin", str(remote), cwd=work)
    head = git("rev-parse", "--short", "HEAD", cwd=work).strip()

    for name, value in GIT_ENV.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(work)  # as the command runs: from the top of the work tree
    config = load_config(str(work / "mkdocs.yml"), site_dir=str(built_site))
    gh_deploy(config, force=True)

    files = git("ls-tree", "-r", "--name-only", "gh-pages", cwd=remote).split()
    assert {"index.html", "edition.json", "episodes/anshi-dialogue/index.html", ".nojekyll"} <= set(files)
    assert {"search/search_index.json", "edition.xml", "witnesses/B/index.html"} <= set(files)
    assert head in git("log", "-1", "--format=%s", "gh-pages", cwd=remote)  # "Deployed <sha> with MkDocs …"
