#!/usr/bin/env bash
# Set up a fresh machine: a virtualenv in .venv with the pinned packages.
# With --test, also the test tools, Debian's chromium for the browser tests, and axe-core (npm registry) for
# their accessibility checks, in .venv/axe (tests/test_browser.py looks for it there).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/pip install -q --upgrade pip
extras=""
if [ "${1:-}" = "--test" ]; then
  extras="[test]"
  # Only what is missing: a machine may already have Node (with its own npm) from elsewhere, and Debian's npm
  # conflicts with such a Node.
  missing=""
  command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
  dpkg -s fonts-noto-cjk >/dev/null 2>&1 || missing="$missing fonts-noto-cjk"
  command -v npm >/dev/null 2>&1 || missing="$missing npm"
  if [ -n "$missing" ]; then
    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing
  fi
fi
.venv/bin/pip install -q -c constraints.txt -e ".${extras}"
# The project's own bytecode, written once: an editable install leaves it to the first import, and where
# PYTHONDONTWRITEBYTECODE is set every process compiles the sources again (0.05 s of a cold export's 0.44).
# A stale file is never used: Python checks each source's time against its .pyc.
.venv/bin/python -m compileall -q edition hooks
if [ -n "$extras" ] && [ ! -f .venv/axe/node_modules/axe-core/axe.min.js ]; then
  mkdir -p .venv/axe && npm install --prefix .venv/axe --no-audit --no-fund --silent axe-core@4.14.1
fi
