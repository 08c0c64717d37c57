"""The built site served to the browser tests: Python's ``http.server``, except that the search index is one
entry long unless the request carries the cookie ``index=full`` (``conftest.whole_index``).

Material's search worker fetches ``search/search_index.json`` and builds the whole site's lunr index on every page
load, searched or not: 0.2 s of the machine's two cores per navigation, a fifth of the browser tests' time. The
tests that search ask for the whole index; the rest, which never search, are served one entry of it, so the
worker still starts and answers as it does for a reader. Both answers are ``no-store``: the browser's cache never
gives one in place of the other.

Run as ``python tests/site_server.py PORT FOLDER``.
"""

from __future__ import annotations

import json
import sys
from functools import cache, partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

INDEX = "search/search_index.json"
COOKIE = "index=full"


@cache
def _index(folder: str, whole: bool) -> bytes:
    """The site's search index, or its first entry alone: read once (the site does not change while served)."""
    data = (Path(folder) / INDEX).read_bytes()
    if whole:
        return data
    index = json.loads(data)
    index["docs"] = index["docs"][:1]
    return json.dumps(index, ensure_ascii=False).encode("utf-8")


class Handler(SimpleHTTPRequestHandler):
    def do_GET(self) -> None:
        if not self.path.split("?")[0].endswith("/" + INDEX):
            super().do_GET()
            return
        whole = COOKIE in (self.headers.get("Cookie") or "").replace(" ", "").split(";")
        body = _index(self.directory, whole)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


if __name__ == "__main__":
    port, folder = int(sys.argv[1]), sys.argv[2]
    ThreadingHTTPServer(("127.0.0.1", port), partial(Handler, directory=folder)).serve_forever()
