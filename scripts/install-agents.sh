#!/usr/bin/env bash
# Installs the real agent CLIs the adapter tests drive into the project-local,
# gitignored .tools/ dir: Claude Code, Codex, Gemini CLI and the third-party
# ACP agents (OpenCode, Qwen Code, GitHub Copilot CLI, claude-agent-acp,
# codex-acp) from npm into .tools/npm; Hermes Agent from PyPI into the venv
# .tools/venv; Mistral Vibe and Kimi CLI, which need a newer Python than
# Debian 12's 3.11, into .tools/venv-vibe and .tools/venv-kimi when such a
# Python is found (pyenv's, on this machine kind), else skipped with a reason.
# Idempotent and quiet: a second run only checks versions and returns.
# Versions are pinned to the ones verified on Node 20 (shared reference
# agents.md, acp-agents.md); override with CLAUDE_VERSION=… etc.
# Usage: scripts/install-agents.sh [npm|hermes|python]
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
tools=${HERMESDESK_TOOLS:-$PWD/.tools}
mkdir -p "$tools"

CLAUDE_VERSION=${CLAUDE_VERSION:-2.1.197}
CODEX_VERSION=${CODEX_VERSION:-0.169.0}
GEMINI_VERSION=${GEMINI_VERSION:-0.61.0}
HERMES_SPEC=${HERMES_SPEC:-hermes-agent[acp]}
OPENCODE_VERSION=${OPENCODE_VERSION:-1.18.33}
QWEN_VERSION=${QWEN_VERSION:-0.15.10} # newer releases need Node 22
COPILOT_VERSION=${COPILOT_VERSION:-1.0.102}
CLAUDE_AGENT_ACP_VERSION=${CLAUDE_AGENT_ACP_VERSION:-0.23.1}
CODEX_ACP_VERSION=${CODEX_ACP_VERSION:-0.16.0}
VIBE_VERSION=${VIBE_VERSION:-3.0.2}  # needs Python >= 3.12
KIMI_VERSION=${KIMI_VERSION:-1.51.0} # needs Python >= 3.13; 1.52.0 is a deprecation stub

# installed_version prints the version of an npm package under .tools/npm.
installed_version() {
  local pj="$tools/npm/node_modules/$1/package.json"
  [ -f "$pj" ] && sed -n 's/^[[:space:]]*"version":[[:space:]]*"\([^"]*\)".*/\1/p' "$pj" | head -1
}

install_npm() {
  command -v npm >/dev/null || { echo "install-agents: Node.js 20+ and npm are required" >&2; exit 1; }
  pins=("@anthropic-ai/claude-code@$CLAUDE_VERSION" "@openai/codex@$CODEX_VERSION" "@google/gemini-cli@$GEMINI_VERSION"
    "opencode-ai@$OPENCODE_VERSION" "@qwen-code/qwen-code@$QWEN_VERSION" "@github/copilot@$COPILOT_VERSION"
    "@zed-industries/claude-agent-acp@$CLAUDE_AGENT_ACP_VERSION" "@zed-industries/codex-acp@$CODEX_ACP_VERSION")
  stale=()
  for p in "${pins[@]}"; do
    [ "$(installed_version "${p%@*}")" = "${p##*@}" ] || stale+=("$p")
  done
  if [ ${#stale[@]} -gt 0 ]; then
    echo "install-agents: npm ${stale[*]}"
    mkdir -p "$tools/npm"
    # --prefix keeps everything (and the bin links) under .tools/npm. All
    # pins go in one install: an install of only the stale ones would
    # prune the others (--no-save leaves no package.json naming them).
    npm install --prefix "$tools/npm" --no-audit --no-fund --loglevel=error --no-save "${pins[@]}" >/dev/null
  fi
}

# pick_python MINOR prints the newest usable Python >= 3.MINOR: on PATH,
# else one of pyenv's interpreters (this machine kind has 3.12 and 3.13
# there, while Debian 12 packages only 3.11 and PyPI ships no interpreter).
# Hermes' newest releases want a newer interpreter than Debian's, and pip
# then resolves the newest release that supports the one we give it.
pick_python() {
  local min=$1 c
  for c in python3.14 python3.13 python3.12 python3.11 python3 \
    $(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.*/bin/python3 2>/dev/null | sort -rV); do
    if command -v "$c" >/dev/null && "$c" -c "import sys; sys.exit(sys.version_info < (3, $min))" 2>/dev/null; then
      command -v "$c"; return 0
    fi
  done
  return 1
}

# pip_tool VENV MINOR SPEC EXE installs SPEC into .tools/VENV with a Python
# >= 3.MINOR unless VENV's EXE already reports SPEC's version; without such
# a Python it says so and skips (the agent's tests then skip too, or fail
# in CI with HERMESDESK_AGENT_TESTS=1).
pip_tool() {
  local venv=$tools/$1 min=$2 spec=$3 exe=$4 py
  if [ -x "$venv/bin/$exe" ] && [ "$("$venv/bin/pip" show "${spec%%==*}" 2>/dev/null | sed -n 's/^Version: //p')" = "${spec##*==}" ]; then
    return 0
  fi
  if ! py=$(pick_python "$min"); then
    echo "install-agents: skipping $spec: it needs Python 3.$min+, and none is on PATH or under pyenv (Debian 12 has 3.11)" >&2
    return 0
  fi
  echo "install-agents: pip $spec ($("$py" --version 2>&1))"
  [ -x "$venv/bin/python" ] || "$py" -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "$spec"
}

install_hermes() {
  if [ ! -x "$tools/venv/bin/hermes" ]; then
    py=$(pick_python 11) || { echo "install-agents: Python 3.11+ is required for Hermes Agent" >&2; exit 1; }
    echo "install-agents: pip $HERMES_SPEC ($("$py" --version 2>&1))"
    [ -x "$tools/venv/bin/python" ] || "$py" -m venv "$tools/venv"
    "$tools/venv/bin/pip" install -q --disable-pip-version-check "$HERMES_SPEC"
  fi
}

install_vibe() { pip_tool venv-vibe 12 "mistral-vibe==$VIBE_VERSION" vibe-acp; }
install_kimi() { pip_tool venv-kimi 13 "kimi-cli==$KIMI_VERSION" kimi; }

case $what in
  npm) install_npm ;;
  hermes) install_hermes ;;
  python) install_vibe; install_kimi ;;
  all)
    # The installs wait mostly on downloads: run them side by side
    # (from a bare machine ~4 min instead of ~5, the pip ones dominating).
    pids=()
    for f in install_npm install_hermes install_vibe install_kimi; do
      "$f" & pids+=($!)
    done
    failed=0
    for p in "${pids[@]}"; do wait "$p" || failed=1; done
    exit $failed ;;
  *) echo "usage: scripts/install-agents.sh [npm|hermes|python]" >&2; exit 2 ;;
esac
