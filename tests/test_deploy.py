"""`mkdocs gh-deploy` publishes the site to branch gh-pages of `origin` (here a local bare repository); the README
tells a new user how to set up, serve and test it."""

import os
import re
import shutil
import subprocess
import sys
import urllib.parse
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
