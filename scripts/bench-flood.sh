#!/usr/bin/env bash
# Benchmark: the open session's longest main-thread task while a run floods
# it with 100,000 chunks (frontend/e2e/flood.mjs; target under 50 ms). Runs
# the real `hermesdesk serve` with its demo agent pointed at the test kit's
# fake agent (which carries the flood scenario), as scripts/test-e2e.sh does.
# Usage: scripts/bench-flood.sh [path/to/hermesdesk] [--runs N] [--profile FILE.cpuprofile] [--trace FILE.json]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/bin/hermesdesk
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then bin=$1; shift; fi
work=$(mktemp -d)
serve_pid=""
cleanup() {
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null || true
  # Shims outlive serve by design; end the ones this benchmark started.
  for f in "$work"/data/runs/*/bootstrap.json; do
    [ -f "$f" ] || continue
    pid=$(sed -n 's/.*"pid": *\([0-9]*\).*/\1/p' "$f" | head -1)
    for p in $pid $(sed -n 's/.*"agent_pid": *\([0-9]*\).*/\1/p' "$f"); do kill -9 -- "-$p" 2>/dev/null || kill -9 "$p" 2>/dev/null || true; done
  done
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/project" "$work/data"
go build -o "$work/fakeagent" ./testkit/fakeagent/cmd/fakeagent
HERMESDESK_HOME="$work/data" "$bin" serve --addr 127.0.0.1:0 >"$work/serve.out" 2>&1 &
serve_pid=$!
url=""
for _ in $(seq 1 100); do
  url=$(grep -so 'http://127.0.0.1:[0-9]*/?token=[^ ]*' "$work/serve.out" || true)
  [ -n "$url" ] && break
  kill -0 "$serve_pid" 2>/dev/null || { cat "$work/serve.out"; echo "bench-flood: serve exited"; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { cat "$work/serve.out"; echo "bench-flood: serve printed no login link"; exit 1; }
base=${url%%/?token=*}
token=${url#*token=}
curl -fsS -X PUT -H "Authorization: Bearer $token" -H "Content-Type: application/json" \
  --data "{\"agents.demo\": {\"command\": [\"$work/fakeagent\", \"demo-agent\"]}}" \
  "$base/api/settings" >/dev/null || { echo "bench-flood: could not point the demo agent at the test kit's"; exit 1; }
echo "bench-flood: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
(cd frontend && node e2e/flood.mjs --url "$url" --project "$work/project" "$@")
