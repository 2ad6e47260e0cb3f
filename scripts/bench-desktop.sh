#!/usr/bin/env bash
# Startup times (cold launch, tray open warm and cold) and memory (RSS/PSS of
# the core, the window and WebKit: shown, hidden, gone after the grace period;
# one idle warm shim) of the real built app under Xvfb, then the window's
# memory over a long session (BenchmarkDesktopLongSession: HERMESDESK_BENCH_RUNS
# demo runs, default 150, streamed into the open session and read end to start).
# Usage: scripts/bench-desktop.sh  (after make build)
set -euo pipefail
cd "$(dirname "$0")/.."
exec go test -count=1 -tags sqlite_fts5,webkit2_41,desktoptest -run '^$' -bench BenchmarkDesktop \
  -benchtime 1x ./test/desktop/
