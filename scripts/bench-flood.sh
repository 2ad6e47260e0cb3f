#!/usr/bin/env bash
# Benchmark: the open session's longest main-thread task while a run floods
# it with 100,000 chunks (frontend/e2e/flood.mjs; target under 50 ms). Runs
# the real `hermesdesk serve` with its demo agent pointed at the test kit's
# fake agent (which carries the flood scenario), as scripts/test-e2e.sh does.
# Usage: scripts/bench-flood.sh [path/to/hermesdesk] [--frontend DIR] [--runs N] [--profile FILE.cpuprofile] [--trace FILE.json]
# --frontend serves a built web app (frontend/dist) instead of the binary's
# own, to measure a frontend change without rebuilding the binary.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/bin/hermesdesk
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then bin=$1; shift; fi
serve_args=()
if [ "${1:-}" = "--frontend" ]; then serve_args=(--frontend "$(cd "$2" && pwd)"); shift 2; fi
. scripts/serve-lib.sh
work=$(mktemp -d)
serve_pid=""
cleanup() {
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null || true
  kill_shims "$work/data"
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/project" "$work/data"
go build -o "$work/fakeagent" ./testkit/fakeagent/cmd/fakeagent
start_serve bench-flood "$bin" "$work/data" "$work/serve.out" "${serve_args[@]}"
serve_pid=$started_pid url=$started_url
use_test_agent bench-flood "$url" "$work/fakeagent"
echo "bench-flood: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
(cd frontend && node e2e/flood.mjs --url "$url" --project "$work/project" "$@")
