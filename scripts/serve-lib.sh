# Sourced by the scripts that drive a real `hermesdesk serve` (test-e2e.sh,
# bench-flood.sh): start it, point its demo agent at the test kit's fake
# agent, and end the shims it started (they outlive serve by design).

# start_serve NAME BIN DATA OUT [SERVE ARGS...]: starts serve on a free
# loopback port in the background; sets started_pid and started_url (the
# login link).
start_serve() {
  local name=$1 bin=$2 data=$3 out=$4
  shift 4
  # The agents' own histories are read from empty folders unless the
  # caller points at fixtures: this machine's ~/.gemini or ~/.claude would
  # put a first-start offer over every flow.
  local agents="$data/agents-home"
  HERMESDESK_HOME="$data" CLAUDE_CONFIG_DIR="${CLAUDE_CONFIG_DIR:-$agents/claude}" \
    CODEX_HOME="${CODEX_HOME:-$agents/codex}" QWEN_HOME="${QWEN_HOME:-$agents/qwen}" \
    GEMINI_CLI_HOME="${GEMINI_CLI_HOME:-$agents}" HERMES_HOME="${HERMES_HOME:-$agents/.hermes}" \
    XDG_DATA_HOME="${XDG_DATA_HOME:-$agents/.local/share}" \
    "$bin" serve --addr 127.0.0.1:0 "$@" >"$out" 2>&1 &
  started_pid=$!
  started_url=""
  for _ in $(seq 1 100); do
    started_url=$(grep -so 'http://127.0.0.1:[0-9]*/?token=[^ ]*' "$out" || true)
    [ -n "$started_url" ] && return 0
    kill -0 "$started_pid" 2>/dev/null || { cat "$out"; echo "$name: serve exited"; exit 1; }
    sleep 0.1
  done
  cat "$out"; echo "$name: serve printed no login link"; exit 1
}

# start_core NAME BIN DATA OUT: starts the desktop app's resident core
# headless in the background (no session bus: no tray or notifications; a
# window program that exits at once); sets started_pid once its local API
# answers.
start_core() {
  local name=$1 bin=$2 data=$3 out=$4
  env -u DBUS_SESSION_BUS_ADDRESS -u DISPLAY -u WAYLAND_DISPLAY HERMESDESK_HOME="$data" \
    HERMESDESK_WINDOW_BIN="$(command -v true)" "$bin" --background >"$out" 2>&1 &
  started_pid=$!
  for _ in $(seq 1 100); do
    HERMESDESK_HOME="$data" "$bin" runs ls >/dev/null 2>&1 && return 0
    kill -0 "$started_pid" 2>/dev/null || { cat "$out"; echo "$name: the core exited"; exit 1; }
    sleep 0.1
  done
  cat "$out"; echo "$name: the core's local API did not answer"; exit 1
}

# use_test_agent NAME URL FAKEAGENT: the demo agent's command (setting
# agents.demo, as a person would point it elsewhere) becomes the test kit's
# fake agent, the same engine with the test scenarios (flood, hostile, …).
use_test_agent() {
  local name=$1 url=$2 agent=$3
  local base=${url%%/?token=*} token=${url#*token=}
  curl -fsS -X PUT -H "Authorization: Bearer $token" -H "Content-Type: application/json" \
    --data "{\"agents.demo\": {\"command\": [\"$agent\", \"demo-agent\"]}}" \
    "$base/api/settings" >/dev/null || { echo "$name: could not point the demo agent at the test kit's"; exit 1; }
}

# kill_shims DATA: ends every shim (and its agent's group) of a data dir.
kill_shims() {
  local f pid p
  for f in "$1"/runs/*/bootstrap.json; do
    [ -f "$f" ] || continue
    pid=$(sed -n 's/.*"pid": *\([0-9]*\).*/\1/p' "$f" | head -1)
    for p in $pid $(sed -n 's/.*"agent_pid": *\([0-9]*\).*/\1/p' "$f"); do kill -9 -- "-$p" 2>/dev/null || kill -9 "$p" 2>/dev/null || true; done
  done
}

# git_project DIR FILE CONTENT: a git repository on main at DIR with one
# commit holding FILE (CONTENT, printf's format): the project a flow's
# worktrees, reviews and checkpoints work in.
git_project() {
  local dir=$1 file=$2 content=$3
  git init -q -b main "$dir"
  printf "$content" >"$dir/$file"
  git -C "$dir" add "$file"
  git -C "$dir" -c user.name=e2e -c user.email=e2e@example.invalid commit -qm start
}
