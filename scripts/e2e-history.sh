#!/usr/bin/env bash
# The history flow (issue 28, docs/ARCHITECTURE.md §History) in a browser:
# a fresh data dir whose machine has Claude Code, Codex and Qwen Code
# histories (copies of the recorded ones in backend/history/testdata, their
# folder /work made a temp project folder, a marker put in Claude Code's
# tool output, Qwen Code's session id one the test kit's fake agent can load).
# The first start offers them; Import; Settings → History lists them;
# Ctrl+K finds the marker; the Qwen Code chat is continued in the fake
# agent added as qwen (the demo agent stand-in), which goes on in its own
# session. test-e2e.sh runs it; alone: scripts/e2e-history.sh [BIN].
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/bin/hermesdesk}
. scripts/serve-lib.sh
work=$(mktemp -d)
serve_pid=""
cleanup() {
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null || true
  kill_shims "$work/data"
  rm -rf "$work"
}
trap cleanup EXIT
ws="$work/project"
mkdir -p "$ws" "$work/data" "$work/home" "$work/state" "$work/qwen/projects/-work/chats"
go build -o "$work/fakeagent" ./testkit/fakeagent/cmd/fakeagent
td=backend/history/testdata
cp -r "$td/claude" "$work/claude"
cp -r "$td/codex" "$work/codex"
native=fake-00000000000000e2
cp "$td"/qwen/projects/-work/chats/*.jsonl "$work/qwen/projects/-work/chats/$native.jsonl"
qid=3578edd6-e36d-4bf7-ab7a-bc093a2247a6
# /work followed by a quote, a slash or a JSON escape (Codex's arguments are JSON in a string).
for f in $(find "$work/claude" "$work/codex" "$work/qwen" -name '*.jsonl'); do
  sed -i "s#/work\([\"/\\\\]\)#$ws\1#g; s#$qid#$native#g" "$f"
done
# The marker: only in what Claude Code's tool call printed (search covers tool output), nowhere else.
sed -i 's#"content":"hello","is_error"#"content":"histmarker","is_error"#; s#"stdout":"hello"#"stdout":"histmarker"#' "$work"/claude/projects/-work/*.jsonl
grep -q histmarker "$work"/claude/projects/-work/*.jsonl || { echo "e2e-history: no marker in the Claude Code copy"; exit 1; }
# The fake agent's own record of the Qwen Code session, as session/load reads it.
printf '{"id":"%s","cwd":"%s","turns":[{"prompt":"[scenario:reasoning] think, then answer","reply":"Here is a short, considered answer."}]}\n' \
  "$native" "$ws" >"$work/state/$native.json"

# Only these histories: the machine's own (HOME, XDG) are out of reach.
HOME="$work/home" XDG_DATA_HOME="$work/home/.local/share" CLAUDE_CONFIG_DIR="$work/claude" CODEX_HOME="$work/codex" \
  QWEN_HOME="$work/qwen" GEMINI_CLI_HOME="$work/home" HERMES_HOME="$work/home/.hermes" \
  start_serve e2e-history "$bin" "$work/data" "$work/serve.out"
serve_pid=$started_pid url=$started_url
(cd frontend && node e2e/history.mjs --url "$url" --agent "$work/fakeagent" --state "$work/state" --native "$native")
echo "test-e2e: history flow passed"
