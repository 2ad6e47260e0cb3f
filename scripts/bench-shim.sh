#!/usr/bin/env bash
# Memory of one idle warm shim, quicker than make bench-desktop (no Xvfb, no
# window): the real `hermesdesk serve`, one demo run, then the shim's
# smaps once it idles warm, split into the program's pages (shared with the
# core and the demo agent, which run from the same file: PSS divides them),
# anonymous memory (Go heap and runtime, thread stacks, C malloc) and
# libraries. Target ≤ 8 MiB PSS (docs/ARCHITECTURE.md §Memory).
# --after S measures S seconds into the idle (default 2, as bench-desktop;
# past 120 the Go runtime's periodic collection has run once).
# It also counts wake-ups (context switches of all threads) per minute of the
# idle warm shim and of the idle `serve` beside it, over --wake S seconds
# (default 30; 0 skips), and then of an idle core (headless, with a warm
# shim and a window's two streams attached: /core/window on core.sock and
# /api/watch?doorbells=1 on api.sock, held by curl), against the target of
# under 60 a minute (docs/ARCHITECTURE.md §Idle). One wake-up of a Go
# process counts ~50 switches (the runtime's sysmon spins in 20 µs sleeps
# after any activity), so a single timer in the window reads ~100 a minute.
# Usage: scripts/bench-shim.sh [path/to/hermesdesk] [--runs N] [--after S] [--wake S]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/bin/hermesdesk
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then bin=$1; shift; fi
runs=3 after=2 wake=30
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --after) after=$2; shift 2 ;;
    --wake) wake=$2; shift 2 ;;
    *) echo "usage: scripts/bench-shim.sh [path/to/hermesdesk] [--runs N] [--after S] [--wake S]" >&2; exit 2 ;;
  esac
done
[ -x "$bin" ] || { echo "bench-shim: $bin is not built (make build)"; exit 1; }
. scripts/serve-lib.sh
work=$(mktemp -d)
serve_pid="" core_pid="" held=()
stop_core() {
  [ ${#held[@]} -gt 0 ] && kill "${held[@]}" 2>/dev/null || true
  held=()
  [ -n "$core_pid" ] && kill "$core_pid" 2>/dev/null && wait "$core_pid" 2>/dev/null || true
  core_pid=""
}
stop_serve() {
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null || true
  serve_pid=""
}
cleanup() {
  stop_serve
  stop_core
  for d in "$work"/data*; do [ -d "$d" ] && kill_shims "$d"; done
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/project"

# breakdown PID: "PSS RSS anonPSS programPSS programRSS libPSS sharers" (KiB).
breakdown() {
  local pid=$1 ino sharers
  ino=$(stat -L -c %i "/proc/$pid/exe")
  sharers=$( (grep -lE "^[^ ]+ [^ ]+ [^ ]+ [^ ]+ $ino( |\$)" /proc/[0-9]*/maps 2>/dev/null || true) | wc -l)
  awk -v ino="$ino" -v sharers="$sharers" '
    /^[0-9a-f]+-[0-9a-f]+ / { kind = ($5 == ino) ? "prog" : ($5 == 0) ? "anon" : "lib"; next }
    /^Rss:/ { rss[kind] += $2; rss["all"] += $2 }
    /^Pss:/ { pss[kind] += $2; pss["all"] += $2 }
    END { print pss["all"], rss["all"], pss["anon"], pss["prog"], rss["prog"], pss["lib"], sharers }
  ' "/proc/$pid/smaps"
}
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
# switches PID: context switches of all its threads so far. A thread that
# sleeps and wakes counts one each time it sleeps again.
switches() {
  cat /proc/"$1"/task/*/status 2>/dev/null | awk '/^(non)?voluntary_ctxt_switches:/ { n += $2 } END { print n + 0 }'
}

echo "bench-shim: $bin, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), measured ${after}s into the idle"
all=()
wakes=()
for i in $(seq 1 "$runs"); do
  data="$work/data$i"
  mkdir -p "$data"
  start_serve bench-shim "$bin" "$data" "$work/serve$i.out"
  serve_pid=$started_pid
  HERMESDESK_HOME="$data" "$bin" ask --agent demo --project "$work/project" hello >"$work/ask$i.out" 2>&1 ||
    { cat "$work/ask$i.out"; echo "bench-shim: the demo run failed"; exit 1; }
  pid=""
  for _ in $(seq 1 150); do
    rec=$(ls "$data"/warm/*.json 2>/dev/null | head -1 || true)
    [ -n "$rec" ] && pid=$(sed -n 's/.*"pid": *\([0-9]*\).*/\1/p' "$rec" | head -1)
    [ -n "$pid" ] && break
    sleep 0.1
  done
  [ -n "$pid" ] || { echo "bench-shim: no warm shim after the run"; exit 1; }
  sleep "$after"
  read -r pss rss anon prog progrss lib sharers < <(breakdown "$pid")
  echo "  run $i: PSS $(mib "$pss") MiB (anonymous $(mib "$anon"), program file $(mib "$prog") of $(mib "$progrss") resident, mapped by $sharers processes, libraries $(mib "$lib"))  RSS $(mib "$rss") MiB"
  all+=("$pss")
  if [ "$wake" -gt 0 ]; then
    s0=$(switches "$pid") c0=$(switches "$serve_pid")
    sleep "$wake"
    s1=$(switches "$pid") c1=$(switches "$serve_pid")
    sw=$(awk -v a="$s0" -v b="$s1" -v t="$wake" 'BEGIN { printf "%.0f", (b - a) * 60 / t }')
    cw=$(awk -v a="$c0" -v b="$c1" -v t="$wake" 'BEGIN { printf "%.0f", (b - a) * 60 / t }')
    echo "         wake-ups per minute, idle: warm shim $sw, serve $cw (target < 60 each)"
    wakes+=("$sw")
  fi
  stop_serve
  kill_shims "$data"
done
if [ "$wake" -gt 0 ]; then
  data="$work/datacore"
  mkdir -p "$data"
  touch "$work/mark"
  start_core bench-shim "$bin" "$data" "$work/core.out"
  core_pid=$started_pid
  HERMESDESK_HOME="$data" "$bin" ask --agent demo --project "$work/project" hello >"$work/askcore.out" 2>&1 ||
    { cat "$work/askcore.out"; echo "bench-shim: the demo run on the core failed"; exit 1; }
  sock=$(find "${XDG_RUNTIME_DIR:-/nonexistent}/hermesdesk" "${TMPDIR:-/tmp}/hermesdesk-$(id -u)" \
    -name core.sock -newer "$work/mark" 2>/dev/null | head -1 || true)
  [ -n "$sock" ] || { echo "bench-shim: the core's core.sock not found"; exit 1; }
  curl -sN --unix-socket "$sock" "http://hermesdesk/core/window?pid=$$&visible=1" >/dev/null &
  held+=($!)
  curl -sN --unix-socket "$(dirname "$sock")/api.sock" "http://hermesdesk/api/watch?doorbells=1" >/dev/null &
  held+=($!)
  sleep "$after"
  k0=$(switches "$core_pid")
  sleep "$wake"
  k1=$(switches "$core_pid")
  kw=$(awk -v a="$k0" -v b="$k1" -v t="$wake" 'BEGIN { printf "%.0f", (b - a) * 60 / t }')
  echo "one idle core (a warm shim, a window's two streams attached): $kw wake-ups a minute (target < 60)"
  stop_core
  kill_shims "$data"
fi
median=$(printf '%s\n' "${all[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
if [ ${#wakes[@]} -gt 0 ]; then
  wm=$(printf '%s\n' "${wakes[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
  echo "one idle warm shim: median $wm wake-ups a minute over $runs runs (target < 60)"
fi
echo "one idle warm shim: median PSS $(mib "$median") MiB over $runs runs (target ≤ 8 MiB; its agent not counted)"
