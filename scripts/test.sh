#!/usr/bin/env bash
# The README's test command: build, unit/component/server tests, then browser tests in Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "Chromium is missing: installing Debian's chromium package (root)..."
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium is missing at $CHROMIUM. Install it with:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y chromium" >&2
    exit 1
  fi
fi

npm run build
npx vitest run
npx playwright test
