#!/usr/bin/env bash
# Startup time (to window mapped and to UI painted) and memory (RSS/PSS of
# main + WebKit processes + tray helper, window shown and hidden) of the real
# built app under Xvfb. Usage: scripts/bench-desktop.sh  (after make build)
set -euo pipefail
cd "$(dirname "$0")/.."
exec go test -count=1 -tags sqlite_fts5,webkit2_41,desktoptest -run '^$' -bench BenchmarkDesktop \
  -benchtime 1x ./test/desktop/
