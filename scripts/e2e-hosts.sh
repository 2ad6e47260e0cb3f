#!/usr/bin/env bash
# A host in the window, end to end (docs/ARCHITECTURE.md §Remote cores):
# the host is a second real core (`serve --socket-only` on its own data
# dir); the local supervisor is backend/remote's TestWindowHarness (apihost
# following that core's socket as "devbox" — the SSH link's place until
# backend/hosts hands its links over); the real `serve` fronts it, and
# frontend/e2e/hosts.mjs drives it in Chromium.
# Usage: scripts/e2e-hosts.sh [path/to/hermesdesk]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-build/bin/hermesdesk}")
. scripts/serve-lib.sh
work=$(mktemp -d)
export XDG_RUNTIME_DIR="$work/rt"
mkdir -m 700 -p "$XDG_RUNTIME_DIR" "$work/local" "$work/host/projects/parser"
serve_pid="" harness_pid=""
cleanup() {
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null || true
  [ -n "$harness_pid" ] && kill "$harness_pid" 2>/dev/null && wait "$harness_pid" 2>/dev/null || true
  [ -f "$work/host.pid" ] && kill "$(cat "$work/host.pid")" 2>/dev/null || true
  kill_shims "$work/host"
  rm -rf "$work"
}
trap cleanup EXIT
go test -c -tags sqlite_fts5 -o "$work/remote.test" ./backend/remote/
# The harness (the local supervisor) and the host read the agents' own
# histories from HOME: an empty one, or this machine's would be offered.
# (The harness builds a shim host with go: its caches stay where they are.)
export GOCACHE="$(go env GOCACHE)" GOMODCACHE="$(go env GOMODCACHE)" GOPATH="$(go env GOPATH)"
export HOME="$work/home"
mkdir -p "$HOME"
HERMESDESK_HOME="$work/local" HERMESDESK_E2E_LOCAL="$work/local" HERMESDESK_E2E_HOST="$work/host" \
  HERMESDESK_E2E_READY="$work/ready" "$work/remote.test" -test.run '^TestWindowHarness$' >"$work/harness.out" 2>&1 &
harness_pid=$!
for _ in $(seq 1 300); do
  [ -f "$work/ready" ] && break
  kill -0 "$harness_pid" 2>/dev/null || { cat "$work/harness.out"; echo "e2e-hosts: the harness exited"; exit 1; }
  sleep 0.1
done
[ -f "$work/ready" ] || { cat "$work/harness.out"; echo "e2e-hosts: the harness did not get ready"; exit 1; }
start_serve e2e-hosts "$bin" "$work/local" "$work/serve.out"
serve_pid=$started_pid url=$started_url
(cd frontend && node e2e/hosts.mjs --url "$url" --folder "$work/host/projects/parser" --host-bin "$bin" --host-home "$work/host" --pid-file "$work/host.pid")
echo "e2e-hosts: passed"
