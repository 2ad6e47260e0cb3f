#!/usr/bin/env bash
# Installs the real agent CLIs the adapter tests drive into the project-local,
# gitignored .tools/ dir: Claude Code, Codex and Gemini CLI from npm into
# .tools/npm, Hermes Agent from PyPI into the venv .tools/venv.
# Idempotent and quiet: a second run only checks versions and returns.
# Versions are pinned to the ones verified on Node 20 (docs/reference agents.md);
# override with CLAUDE_VERSION=… etc. Usage: scripts/install-agents.sh [npm|hermes]
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
tools=${HERMESDESK_TOOLS:-$PWD/.tools}
mkdir -p "$tools"

CLAUDE_VERSION=${CLAUDE_VERSION:-2.1.197}
CODEX_VERSION=${CODEX_VERSION:-0.169.0}
GEMINI_VERSION=${GEMINI_VERSION:-0.61.0}
HERMES_SPEC=${HERMES_SPEC:-hermes-agent[acp]}

# installed_version prints the version of an npm package under .tools/npm.
installed_version() {
  local pj="$tools/npm/node_modules/$1/package.json"
  [ -f "$pj" ] && sed -n 's/^[[:space:]]*"version":[[:space:]]*"\([^"]*\)".*/\1/p' "$pj" | head -1
}

if [ "$what" = all ] || [ "$what" = npm ]; then
  command -v npm >/dev/null || { echo "install-agents: Node.js 20+ and npm are required" >&2; exit 1; }
  want=()
  [ "$(installed_version @anthropic-ai/claude-code)" = "$CLAUDE_VERSION" ] || want+=("@anthropic-ai/claude-code@$CLAUDE_VERSION")
  [ "$(installed_version @openai/codex)" = "$CODEX_VERSION" ] || want+=("@openai/codex@$CODEX_VERSION")
  [ "$(installed_version @google/gemini-cli)" = "$GEMINI_VERSION" ] || want+=("@google/gemini-cli@$GEMINI_VERSION")
  if [ ${#want[@]} -gt 0 ]; then
    echo "install-agents: npm ${want[*]}"
    mkdir -p "$tools/npm"
    # --prefix keeps everything (and the bin links) under .tools/npm.
    npm install --prefix "$tools/npm" --no-audit --no-fund --loglevel=error --no-save "${want[@]}" >/dev/null
  fi
fi

# pick_python prints the newest usable Python ≥ 3.11: Hermes' newest
# releases want a newer interpreter than Debian's, and pip then resolves the
# newest release that supports the one we give it.
pick_python() {
  local c
  for c in python3.14 python3.13 python3.12 python3.11 python3; do
    if command -v "$c" >/dev/null && "$c" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      command -v "$c"; return 0
    fi
  done
  return 1
}

if [ "$what" = all ] || [ "$what" = hermes ]; then
  if [ ! -x "$tools/venv/bin/hermes" ]; then
    py=$(pick_python) || { echo "install-agents: Python 3.11+ is required for Hermes Agent" >&2; exit 1; }
    echo "install-agents: pip $HERMES_SPEC ($("$py" --version 2>&1))"
    [ -x "$tools/venv/bin/python" ] || "$py" -m venv "$tools/venv"
    "$tools/venv/bin/pip" install -q --disable-pip-version-check "$HERMES_SPEC"
  fi
fi
