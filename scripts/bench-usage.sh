#!/usr/bin/env bash
# Benchmark: the Usage view's first paint with a year of data (issue 29,
# target ≤ 300 ms; frontend/e2e/bench-usage.mjs). Seeds a fresh data dir's
# journal with 365 days × 5 agents × 4 models × 6 projects of usage
# (backend/journal TestSeedUsageYear, the journal's own writer), starts the
# real `hermesdesk serve` on it and times 5 cold opens of the view.
# Usage: scripts/bench-usage.sh [path/to/hermesdesk] [--opens N]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/bin/hermesdesk
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then bin=$1; shift; fi
. scripts/serve-lib.sh
work=$(mktemp -d)
serve_pid=""
cleanup() {
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/data"
HERMESDESK_SEED_USAGE="$work/data" go test -tags sqlite_fts5 -count=1 -run '^TestSeedUsageYear$' -v ./backend/journal/ | grep 'seeded'
start_serve bench-usage "$bin" "$work/data" "$work/serve.out"
serve_pid=$started_pid
echo "bench-usage: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
(cd frontend && node e2e/bench-usage.mjs --url "$started_url" "$@")
