#!/usr/bin/env bash
# Set up a fresh machine: a virtualenv in .venv with the pinned packages.
# With --test, also the test tools and Debian's chromium for the browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/pip install -q --upgrade pip
extras=""
if [ "${1:-}" = "--test" ]; then
  extras="[test]"
  if ! command -v chromium >/dev/null 2>&1 || ! fc-list 2>/dev/null | grep -qi "noto.*cjk"; then
    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium fonts-noto-cjk
  fi
fi
.venv/bin/pip install -q -c constraints.txt -e ".${extras}"
