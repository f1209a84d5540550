#!/usr/bin/env bash
# The README's test command: the build, the Vitest suite and the browser tests (Playwright in Debian's Chromium), what
# can run at once running at once (decision 159):
#
#   npm run build ─────────────────┬─▶ playwright test ────────┐
#   vitest --project server,unit   └─▶ vitest --project site ──┴─▶ a summary; exits 1 if any part failed
#
# Every line is prefixed with its part's name; each part's whole output is also kept in $LOG_DIR (scripts/lib/parallel.sh).
set -uo pipefail
cd "$(dirname "$0")/.."

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "Chromium is missing: installing Debian's chromium package (root)..."
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null || exit 1
  else
    echo "Chromium is missing at $CHROMIUM. Install it with:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y chromium" >&2
    exit 1
  fi
fi

. scripts/lib/parallel.sh

# The server and unit projects read no build (their apps serve a stand-in site): they start with the build.
start build npm run build
start vitest npx vitest run --project server --project unit
finish build
if [ "${PART_STATUS[build]}" = 0 ]; then
  start e2e npx playwright test
  start vitest-site npx vitest run --project site
  finish vitest-site
  finish e2e
else
  skip e2e 'the build failed'
  skip vitest-site 'the build failed'
fi
finish vitest

# A browser test that passed only on its retry (CI allows one, decision 172) is named here, not buried in the log.
if grep -q ' flaky$' "$LOG_DIR/e2e.log" 2>/dev/null; then
  echo
  echo "── e2e: tests that failed, then passed on their retry ──"
  sed -n '/ flaky$/,/ passed /p' "$LOG_DIR/e2e.log"
fi

summary 'npm test'
