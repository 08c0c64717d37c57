"""`mkdocs gh-deploy` publishes the site to branch gh-pages of `origin` (here a local bare repository); the README
tells a new user how to set up, serve and test it.

`mkdocs gh-deploy` is `mkdocs build` followed by MkDocs' own deploy step (``mkdocs.commands.gh_deploy``,
ghp-import under it). The build is the session's `mkdocs build --strict` (``built_site`` in conftest.py, which
the site tests check); here the deploy step runs on it, as the command runs it, from a git work tree of the
project whose ``origin`` is the bare repository.
"""

import os
import re
import shutil
import subprocess
import urllib.parse
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
            shutil.copytree(src, work / part, ignore=shutil.ignore_patterns("__pycache__"))
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


def test_readme_first_screen_is_two_commands_and_names_where_serve_serves():
    """The README's first code block is the two commands a new user runs; the serve line's comment gives the
    address MkDocs really serves (the path of site_url), and the test line's says what --test adds."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", readme, re.S).group(1)
    commands = [line for line in block.splitlines() if line.strip()]
    assert len(commands) == 2 and readme.index("```sh") < 1000
    site_url = re.search(r"^site_url:\s*(\S+)", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M).group(1)
    path = urllib.parse.urlsplit(site_url).path
    serve, test = commands
    assert "mkdocs serve" in serve and f"http://127.0.0.1:8000{path}" in serve.split("#", 1)[1]
    assert "--test" in test and all(word in test.split("#", 1)[1] for word in ("test tools", "Chromium", "axe-core"))
