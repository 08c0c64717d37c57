"""`mkdocs serve` survives an editor's mistakes and recovers on the next good save (issues 3 and 4).

One real server (``test_serve_rebuilds_on_a_save_shows_bad_input_and_recovers``) runs on a free loopback port
against a copy of the site (mkdocs.yml, docs/, hooks/, seeds/, edition/engine/data/) in a temporary folder; the
real seeds are never touched; every wait is bounded, and the server is always stopped. It checks what only a
server shows: a save triggers a rebuild, the pages show a broken input's error while the server keeps answering,
the next good save brings the edition back (its new words in the pages and in the search index, built by the
same process's segmenter).

The rest of what a rebuild does with the other kinds of mistake is checked through the hook itself, as MkDocs calls it
under `serve` (``on_startup("serve")``, then ``on_files`` once per rebuild in one process, so with the cache a
server keeps): faster, and each mistake on its own.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
STARTUP = 180.0  # seconds allowed for the first build (jieba, the whole edition)
REBUILD = 120.0  # seconds allowed for each rebuild after a save
BROKEN_FILE = "001_32476c0f85278ec0.txt"  # witness B
B_TITLE = "長篇歷史小說（繁體另本，殘）"  # its title in seeds/catalogue.yaml
NEW_WORD = "校驗新詞甲乙丙丁"  # in no seed: it can only come from the fixed file
NEW_TITLE = "校驗題名戊己庚"

pytestmark = [
    pytest.mark.skipif(not (ROOT / "mkdocs.yml").exists(), reason="the site (mkdocs.yml) is not there yet"),
]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def site_copy(dest: Path) -> Path:
    """The parts of the project `mkdocs serve` reads, copied and made writable."""
    for name in ["docs", "hooks", "seeds", "overrides", "edition/engine/data"]:
        if (ROOT / name).exists():
            shutil.copytree(ROOT / name, dest / name, copy_function=shutil.copyfile)
    shutil.copyfile(ROOT / "mkdocs.yml", dest / "mkdocs.yml")
    for path in [dest, *dest.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return dest


def mount_path(config: Path) -> str:
    """`mkdocs serve` serves the site under the path of its ``site_url`` (e.g. ``/anshi-edition``)."""
    found = re.search(r"^site_url:\s*['\"]?([^'\"\s#]+)", config.read_text(encoding="utf-8"), re.M)
    return urllib.parse.urlsplit(found.group(1)).path.rstrip("/") if found else ""


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as resp:
            return resp.status, resp.read().decode("utf-8", errors="replace")
    except urllib.error.HTTPError as err:
        return err.code, ""
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
        return 0, ""


class Server:
    def __init__(self, site: Path, log: Path, seeds: Path) -> None:
        self.addr = f"127.0.0.1:{free_port()}"
        self.base = f"http://{self.addr}{mount_path(site / 'mkdocs.yml')}"
        self.log = log
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "EDITION_SEEDS": str(seeds)}
        with log.open("wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "mkdocs", "serve", "-f", str(site / "mkdocs.yml"), "-a", self.addr],
                cwd=site.parent,  # not the site copy: its edition/ folder must not shadow the package
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    def wait_for(self, path: str, ok: Callable[[str], bool], timeout: float, what: str) -> str:
        """Poll ``path`` until its page satisfies ``ok``; fail (with the server's log) after ``timeout`` s."""
        deadline = time.monotonic() + timeout
        body = ""
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, f"the server stopped while waiting for {what}:\n{self.tail()}"
            status, body = get(self.base + path)
            if status == 200 and ok(body):
                return body
            time.sleep(0.1)
        pytest.fail(f"no {what} at {path} within {timeout:.0f} s; last page:\n{body[-2000:]}\nlog:\n{self.tail()}")

    def answers(self) -> None:
        assert self.proc.poll() is None, self.tail()
        status, body = get(self.base + "/")
        assert status == 200 and "<html" in body.lower()

    def tail(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")[-3000:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=15)


def note_classes(export: str, lemma: str) -> set[str]:
    data = json.loads(export)
    return {n["class"] for n in data["notes"] if n["lemma"] and n["lemma"]["text"] == lemma}


def indexed(body: str) -> str:
    """The text of a search_index.json, without the segmenter's word breaks."""
    try:
        docs = json.loads(body)["docs"]
    except (ValueError, KeyError):
        return ""
    return "".join(d["text"] for d in docs).replace("\u200b", "")


def error_on_screen(browser, base: str, words: str) -> None:
    """In Chromium at 1366 and 390 px: the error is on the first screen of the home page and of an episode, and
    the episode (the last good page, the error above it) passes axe-core (no serious or critical violation).
    ``browser``: the session's (conftest.py): a second Playwright in one process is refused."""
    from tests.test_browser import AXE, WIDTHS, axe_violations, shot

    for name, (w, h) in WIDTHS.items():
        pg = browser.new_context(viewport={"width": w, "height": h}).new_page()
        try:
            for path in ("/", "/episodes/rite/"):
                pg.goto(base + path)
                banner = pg.locator(".ed-failure")
                assert banner.is_visible() and words in banner.inner_text(), (name, path)
                assert banner.bounding_box()["y"] < h, (name, path)
                if AXE.exists() and path != "/":  # axe on one page of the two, the generated one under its banner
                    found = axe_violations(pg, AXE.read_text(encoding="utf-8"))
                    assert found == [], (name, path, found)
                shot(pg, f"serve-error-{path.strip('/').replace('/', '-') or 'home'}")
        finally:
            pg.context.close()


@pytest.mark.slow
@pytest.mark.long(seconds=10)
def test_serve_rebuilds_on_a_save_shows_bad_input_and_recovers(tmp_path, request):
    """The edition is served from a folder outside the site (EDITION_SEEDS), which the server watches as it does
    ``seeds``; a broken save shows its error on every page the nav lists while the last good pages and downloads
    stay; the next good save brings the edition back, with its new words in the pages and the search index."""
    site = site_copy(tmp_path / "site")
    seeds = shutil.copytree(site / "seeds", tmp_path / "elsewhere")
    witness = seeds / BROKEN_FILE
    good_witness = witness.read_bytes()
    episodes = seeds / "episodes.yaml"
    good_episodes = episodes.read_text(encoding="utf-8")
    assert NEW_WORD.encode() not in good_witness and "title: 遼澤\n" in good_episodes

    server = Server(site, tmp_path / "serve.log", seeds)
    try:
        page_b = "/witnesses/B/"
        server.wait_for(page_b, lambda body: B_TITLE in body, STARTUP, "witness B's page")
        # "Watching paths for changes: 'site/docs', …, 'elsewhere'" (relative to the server's working folder)
        assert f"'{seeds.relative_to(site.parent)}'" in server.log.read_text(encoding="utf-8")

        # A witness file that cannot be decoded: its name and the bad byte's offset on the pages; the server answers.
        witness.write_bytes(good_witness + b"\xff\xfe")
        offset = f"offset {len(good_witness)}"
        for page in [page_b, "/witnesses/A/", "/overview/"]:
            server.wait_for(page, lambda body: BROKEN_FILE in body and offset in body, REBUILD, "the decoding error")
        server.answers()
        # every page the nav lists answers, with the error: generated (the last good build's) and hand-written
        for page in ["/", "/method/", "/conventions/", "/register/", "/episodes/rite/", "/witnesses/E/"]:
            status, body = get(server.base + page)
            assert status == 200 and BROKEN_FILE in body, page
        assert get(server.base + "/edition.json")[0] == 200  # the last good downloads
        assert get(server.base + "/edition.xml")[0] == 200
        if CHROMIUM.exists():
            error_on_screen(request.getfixturevalue("browser"), server.base, BROKEN_FILE)

        # ...fixed, with a new word, and an episode retitled in the same save: the edition comes back with both,
        # in the pages and in the search index.
        witness.write_bytes(good_witness + f"\n{NEW_WORD}。\n".encode())
        episodes.write_text(good_episodes.replace("title: 遼澤\n", "title: 遼澤泥淖\n"), encoding="utf-8")
        body = server.wait_for(page_b, lambda body: NEW_WORD in body, REBUILD, "the fixed witness")
        assert BROKEN_FILE + ": cannot be decoded" not in body and B_TITLE in body
        server.wait_for("/episodes/liao-marshes/", lambda body: "遼澤泥淖" in body, REBUILD, "the new episode title")
        server.wait_for("/search/search_index.json", lambda body: NEW_WORD in indexed(body), REBUILD, "the index")
        server.answers()
    finally:
        server.stop()
    assert server.proc.returncode is not None


# --- each kind of mistake, through the hook as `mkdocs serve` calls it ------------------------------------------


class Rebuilds:
    """The edition hook as `mkdocs serve` drives it: one config, ``on_startup("serve")``, then one ``on_files``
    per rebuild (the hook's cache kept between them, as in the server's process)."""

    def __init__(self, seeds: Path, monkeypatch) -> None:
        from mkdocs.config import load_config

        monkeypatch.setenv("EDITION_SEEDS", str(seeds))
        self.config = load_config(str(ROOT / "mkdocs.yml"))
        self.config.plugins.on_startup(command="serve", dirty=False)

    def files(self) -> dict[str, str]:
        """One rebuild: every generated file's content (under a broken input, the last good build's)."""
        from mkdocs.structure.files import Files

        self._files = self.config.plugins.on_files(Files([]), config=self.config)
        return {f.src_uri: f.content_string for f in self._files}

    def page(self, path: str) -> str:
        """One rebuild, and the Markdown of the generated page ``path`` as MkDocs renders it (the hook's
        ``on_page_markdown`` puts a broken input's error above it)."""
        from types import SimpleNamespace

        markdown = self.files()[path]
        page = SimpleNamespace(file=SimpleNamespace(src_uri=path))
        return self.config.plugins.on_page_markdown(markdown, page=page, config=self.config, files=self._files)

    def close(self) -> None:
        self.config.plugins.on_startup(command="build", dirty=False)  # the hook module is shared by the process


@pytest.fixture
def rebuilds(tmp_path, monkeypatch):
    seeds = tmp_path / "seeds"
    shutil.copytree(ROOT / "seeds", seeds, copy_function=shutil.copyfile)
    for path in seeds.iterdir():
        path.chmod(0o644)
    hook = Rebuilds(seeds, monkeypatch)
    try:
        yield seeds, hook
    finally:
        hook.close()


PAGE_B = "witnesses/B.md"


def test_a_broken_catalogue_names_its_line_and_the_fix_brings_the_new_title(rebuilds):
    seeds, hook = rebuilds
    catalogue = seeds / "catalogue.yaml"
    good = catalogue.read_text(encoding="utf-8")
    assert B_TITLE in good
    hook.files()  # a good build first: its pages are what a broken one keeps
    catalogue.write_text(good + "  - file: [oops\n", encoding="utf-8")
    body = hook.page(PAGE_B)
    assert re.search(r"catalogue.yaml, line \d+: broken YAML", body) and "上次成功生成" in body
    catalogue.write_text(good.replace(B_TITLE, NEW_TITLE), encoding="utf-8")
    body = hook.page(PAGE_B)
    assert NEW_TITLE in body and "broken YAML" not in body


def test_the_data_files_are_read_on_every_rebuild(rebuilds):
    """An episode title (episodes.yaml) and a variant pair (variants.tsv) take effect on the next rebuild."""
    seeds, hook = rebuilds
    files = hook.files()
    # 透 / 通 (A 得以透過, B 得以通過) is a substantive reading until the editor's table folds the pair
    assert note_classes(files["edition.json"], "透") == {"substantive"}
    episodes = seeds / "episodes.yaml"
    episodes.write_text(episodes.read_text(encoding="utf-8").replace("title: 遼澤", "title: 遼澤泥淖"), "utf-8")
    (seeds / "variants.tsv").write_text("透\t通\n", encoding="utf-8")
    files = hook.files()
    assert "遼澤泥淖" in files["episodes/liao-marshes.md"]
    assert note_classes(files["edition.json"], "透") == {"orthographic"}


def test_an_editorial_quote_not_in_the_witness_shows_the_closest_words_then_the_note(rebuilds):
    seeds, hook = rebuilds
    editorial = seeds / "editorial.yaml"
    good = editorial.read_text(encoding="utf-8")
    editorial.write_text("notes:\n  - {witness: E, at: 梁修元登上城樓, text: 校驗按語}\n", encoding="utf-8")
    body = hook.page(PAGE_B)
    assert "editorial.yaml, line 2" in body and "梁修元登上城头" in body
    editorial.write_text(good.replace("notes:\n", "notes:\n  - {witness: E, at: 片刻后, text: 校驗按語}\n"), "utf-8")
    assert "校驗按語" in hook.files()["edition.json"]


# --- what a rebuild renders again ---------------------------------------------------------------------------------


E_FILE, PAGE_E = "004_daa25951d5202fd2.txt", "witnesses/E.md"


def _one_character_changed(seeds: Path, name: str) -> None:
    """The first character after the first "，" past the middle of a witness replaced, as an editor's save would."""
    path = seeds / name
    text = path.read_text(encoding="utf-8-sig")
    mid = text.find("，", len(text) // 2) + 1
    path.write_text(text[:mid] + ("又" if text[mid] != "又" else "亦") + text[mid + 1 :], encoding="utf-8")


def test_a_rebuild_after_a_save_changes_the_pages_that_show_the_witness_and_only_them(rebuilds, tmp_path):
    """Through the hook's cache (pages, rows, notes, script forms kept from the first build): after one character
    of witness E changes, E's page changes, every page is what a build from nothing makes of the new seeds, and a
    page that does not show E (witness C's: E has no copy, and the change adds no note to renumber C's) is the
    same as before."""
    from edition.engine.export import to_dict
    from edition.engine.pipeline import build
    from edition.engine.resources import data_folders, load_resources
    from edition.site.render import render_site

    seeds, hook = rebuilds
    before = hook.files()
    _one_character_changed(seeds, E_FILE)
    after = hook.files()
    resources = load_resources(data_folders(seeds, ROOT))
    edition = build(seeds, resources)
    cold = render_site(to_dict(edition), {w.siglum: w.text for w in edition.witnesses}, None, resources.variants)
    assert after[PAGE_E] != before[PAGE_E]
    assert {path: after[path] for path in cold} == cold
    assert after["witnesses/C.md"] == before["witnesses/C.md"]


class _Collect(logging.Handler):
    def __init__(self, into: list[str]) -> None:
        super().__init__()
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        self.into.append(record.getMessage())


@pytest.mark.slow
@pytest.mark.long(seconds=4)
def test_a_served_rebuild_converts_again_only_changed_pages_and_says_their_warnings_again(tmp_path, monkeypatch):
    """Two builds in one process, as `mkdocs serve` makes them (MkDocs' Markdown conversion of a page kept by
    the hook while its Markdown and the site's files are unchanged): after one character of witness E changes,
    E's page is what a new process builds, C's page is the same as before, and a hand-written page with a broken
    link warns on every build, converted or not; of its links to anchors on a generated page, the one to an anchor
    the page's raw HTML lacks warns, the one to an anchor it has does not (``hooks/anchor_ids.py``). The theme's
    static files are listed once while the theme is unchanged (``hooks/theme_files.py``): a file added to the
    project's theme folder between the builds is published by the second, which holds the files the cold one does."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    site = site_copy(tmp_path / "site")
    (site / "docs" / "index.md").write_text(
        (site / "docs" / "index.md").read_text(encoding="utf-8")
        + "\n[校驗](nowhere.md) [甲](witnesses/A.md#o0) [乙](witnesses/A.md#no-such-anchor)\n",
        encoding="utf-8",
    )
    seeds = site / "seeds"
    monkeypatch.setenv("EDITION_SEEDS", str(seeds))
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")

    def served(out: str, messages: list[str]) -> Path:
        config = load_config(str(site / "mkdocs.yml"), site_dir=str(tmp_path / out))
        config.plugins.on_startup(command="serve", dirty=False)
        handler = _Collect(messages)
        logging.getLogger("mkdocs").addHandler(handler)
        try:
            build(config, serve_url="http://127.0.0.1:8000/")
        finally:
            logging.getLogger("mkdocs").removeHandler(handler)
            config.plugins.on_startup(command="build", dirty=False)
        return tmp_path / out

    warned: list[list[str]] = [[], []]
    first = served("first", warned[0])
    _one_character_changed(seeds, E_FILE)
    (site / "overrides" / "assets").mkdir(exist_ok=True)
    (site / "overrides" / "assets" / "probe.txt").write_text("校驗", encoding="utf-8")
    second = served("second", warned[1])
    cold = tmp_path / "cold"
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(site / "mkdocs.yml"), "-d", str(cold)],
        cwd=tmp_path,
        env={**os.environ, "EDITION_SEEDS": str(seeds), "PYTHONPATH": str(ROOT)},
        check=True,
        capture_output=True,
    )
    page_e, page_c = Path("witnesses/E/index.html"), Path("witnesses/C/index.html")
    assert (second / page_e).read_bytes() != (first / page_e).read_bytes()
    assert (second / page_e).read_bytes() == (cold / page_e).read_bytes()
    assert (second / page_c).read_bytes() == (first / page_c).read_bytes() == (cold / page_c).read_bytes()
    listing = lambda d: sorted(str(p.relative_to(d)) for p in d.rglob("*") if p.is_file())  # noqa: E731
    assert "assets/probe.txt" in listing(second) and "assets/probe.txt" not in listing(first)
    assert listing(second) == listing(cold)
    for messages in warned:
        assert any("nowhere.md" in m for m in messages), messages
        assert any("'#no-such-anchor'" in m for m in messages), messages
        assert not any("'#o0'" in m for m in messages), messages
