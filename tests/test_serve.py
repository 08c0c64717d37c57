"""`mkdocs serve` survives an editor's mistakes and recovers on the next good save (issues 3 and 4).

The server runs on a free loopback port against a copy of the site (mkdocs.yml, docs/, hooks/,
seeds/, edition/engine/data/) in a temporary folder; the real seeds are never touched. Every wait is
bounded, and the server is always stopped.
"""

from __future__ import annotations

import json
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
    pytest.mark.slow,
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
    def __init__(self, site: Path, log: Path, seeds: Path | None = None) -> None:
        self.addr = f"127.0.0.1:{free_port()}"
        self.base = f"http://{self.addr}{mount_path(site / 'mkdocs.yml')}"
        self.log = log
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "EDITION_SEEDS": str(seeds or site / "seeds")}
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
            time.sleep(0.5)
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


def classes_of(server: Server, lemma: str) -> set[str]:
    status, body = get(server.base + "/edition.json")
    assert status == 200
    return note_classes(body, lemma)


def error_on_screen(base: str) -> None:
    """In Chromium at 1366 and 390 px: the error is on the first screen of the home page and of an episode, and
    the page passes axe-core (no serious or critical violation)."""
    from playwright.sync_api import sync_playwright

    from tests.test_browser import ARGS, ARTIFACTS, AXE, WIDTHS

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        try:
            for name, (w, h) in WIDTHS.items():
                pg = browser.new_context(viewport={"width": w, "height": h}).new_page()
                for path in ("/", "/episodes/rite/"):
                    pg.goto(base + path)
                    banner = pg.locator(".ed-failure")
                    assert banner.is_visible() and "editorial.yaml, line 2" in banner.inner_text(), (name, path)
                    assert banner.bounding_box()["y"] < h, (name, path)
                    if AXE.exists():
                        pg.add_script_tag(content=AXE.read_text(encoding="utf-8"))
                        found = pg.evaluate(
                            """async () => (await axe.run(document, {runOnly: {type: "tag",
                                 values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]}})).violations
                               .filter(v => v.impact === "serious" || v.impact === "critical").map(v => v.id)"""
                        )
                        assert found == [], (name, path, found)
                    pg.screenshot(path=ARTIFACTS / f"serve-error-{path.strip('/').replace('/', '-') or 'home'}-{w}.png")
                pg.context.close()
        finally:
            browser.close()


def test_serve_shows_bad_input_and_recovers(tmp_path):
    site = site_copy(tmp_path / "site")
    seeds = site / "seeds"
    witness = seeds / BROKEN_FILE
    good_witness = witness.read_bytes()
    catalogue = seeds / "catalogue.yaml"
    good_catalogue = catalogue.read_text(encoding="utf-8")
    assert B_TITLE in good_catalogue and NEW_WORD.encode() not in good_witness

    server = Server(site, tmp_path / "serve.log")
    try:
        page_b = "/witnesses/B/"
        server.wait_for(page_b, lambda body: B_TITLE in body, STARTUP, "witness B's page")

        # 1. A witness file that cannot be decoded: its name and the bad byte's offset appear on the pages.
        witness.write_bytes(good_witness + b"\xff\xfe")
        offset = f"offset {len(good_witness)}"
        for page in [page_b, "/witnesses/A/", "/overview/"]:
            server.wait_for(page, lambda body: BROKEN_FILE in body and offset in body, REBUILD, "the decoding error")
        server.answers()

        # ...fixed, with a new word: the witness page comes back and shows it.
        witness.write_bytes(good_witness + f"\n{NEW_WORD}。\n".encode())
        body = server.wait_for(page_b, lambda body: NEW_WORD in body, REBUILD, "the fixed witness")
        assert BROKEN_FILE + ": cannot be decoded" not in body

        # 2. A broken catalogue: the pages name it and the line of the problem.
        catalogue.write_text(good_catalogue + "  - file: [oops\n", encoding="utf-8")
        body = server.wait_for(
            page_b, lambda body: re.search(r"catalogue.yaml, line \d+: broken YAML", body), REBUILD, "the YAML error"
        )
        assert "上次成功生成" in body  # the last good page, marked as such under the error
        server.answers()

        # ...fixed, with a new title for B: the page comes back with it, and with the new word.
        catalogue.write_text(good_catalogue.replace(B_TITLE, NEW_TITLE), encoding="utf-8")
        body = server.wait_for(page_b, lambda body: NEW_TITLE in body, REBUILD, "the fixed catalogue")
        assert NEW_WORD in body and "broken YAML" not in body
        server.answers()

        # 3. The edition's data files are read on every rebuild: an episode title and a variant pair.
        episodes = seeds / "episodes.yaml"
        episodes.write_text(episodes.read_text(encoding="utf-8").replace("title: 遼澤", "title: 遼澤泥淖"), "utf-8")
        server.wait_for("/episodes/liao-marshes/", lambda body: "遼澤泥淖" in body, REBUILD, "the new episode title")
        # 透 / 通 (A 得以透過, B 得以通過) is a substantive reading until the editor's table folds the pair
        assert classes_of(server, "透") == {"substantive"}
        (seeds / "variants.tsv").write_text("透\t通\n", encoding="utf-8")
        server.wait_for(
            "/edition.json", lambda body: "orthographic" in note_classes(body, "透"), REBUILD, "the variant"
        )
        assert classes_of(server, "透") == {"orthographic"}

        # 4. The editor's file: a quote that is not in the witness shows on the pages (file, line, the
        # closest words), and the next good save brings the editor's note in.
        editorial = seeds / "editorial.yaml"
        good_editorial = editorial.read_text(encoding="utf-8")
        editorial.write_text("notes:\n  - {witness: E, at: 梁修元登上城樓, text: 校驗按語}\n", encoding="utf-8")
        body = server.wait_for(
            page_b,
            lambda body: "editorial.yaml, line 2" in body and "梁修元登上城头" in body,
            REBUILD,
            "the editorial error with the closest words",
        )
        server.answers()
        # every page the nav lists answers, with the error: generated (the last good build's) and hand-written
        for page in ["/", "/method/", "/conventions/", "/register/", "/episodes/rite/", "/witnesses/E/"]:
            status, body = get(server.base + page)
            assert status == 200 and "editorial.yaml, line 2" in body, page
        assert get(server.base + "/edition.json")[0] == 200  # the last good downloads
        assert get(server.base + "/edition.xml")[0] == 200
        if CHROMIUM.exists():
            error_on_screen(server.base)
        editorial.write_text(
            good_editorial.replace("notes:\n", "notes:\n  - {witness: E, at: 片刻后, text: 校驗按語}\n"),
            encoding="utf-8",
        )
        server.wait_for("/edition.json", lambda body: "校驗按語" in body, REBUILD, "the editor's note")
    finally:
        server.stop()
    assert server.proc.returncode is not None


def test_serve_rebuilds_on_a_save_in_the_edition_seeds_folder(tmp_path):
    """An editor serving another folder (EDITION_SEEDS) sees each save, as in ``seeds`` (mkdocs.yml watches that)."""
    site = site_copy(tmp_path / "site")
    seeds = shutil.copytree(site / "seeds", tmp_path / "elsewhere")
    witness = seeds / BROKEN_FILE
    server = Server(site, tmp_path / "serve.log", seeds)
    try:
        page_b = "/witnesses/B/"
        server.wait_for(page_b, lambda body: B_TITLE in body, STARTUP, "witness B's page")
        witness.write_bytes(witness.read_bytes() + f"\n{NEW_WORD}。\n".encode())
        server.wait_for(page_b, lambda body: NEW_WORD in body, REBUILD, "the word saved in EDITION_SEEDS")
        # "Watching paths for changes: 'site/docs', …, 'elsewhere'" (relative to the server's working folder)
        assert f"'{seeds.relative_to(site.parent)}'" in server.log.read_text(encoding="utf-8")
    finally:
        server.stop()
