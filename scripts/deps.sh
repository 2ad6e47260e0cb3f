#!/usr/bin/env bash
# Installs what Hermes Desk needs to build, run and test on Debian/Ubuntu.
# Idempotent: installs only what is missing. Usage: scripts/deps.sh [run|test]
set -euo pipefail
mode=${1:-run}
cd "$(dirname "$0")/.."

# Packages to build and run the desktop app.
pkgs=(build-essential pkg-config libgtk-3-dev libwebkit2gtk-4.1-dev)
# Packages the tests need on top: a virtual display, a private D-Bus bus,
# window tools, screenshots and a browser for end-to-end tests. The desktop
# test runs a real window manager (openbox) so that closing a window sends
# WM_DELETE_WINDOW and minimising works as on a desktop; wmctrl asks it to.
# xclip owns a clipboard that offers only an image (a pasted screenshot).
if [ "$mode" = test ]; then
  pkgs+=(xvfb xauth dbus-x11 x11-utils xdotool imagemagick chromium openbox wmctrl xclip)
  # A real OpenSSH server for the remote hosts tests (testkit/sshd).
  pkgs+=(openssh-server openssh-client)
  # The Windows cross-build (make build-windows).
  pkgs+=(gcc-mingw-w64-x86-64)
fi

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

command -v go >/dev/null || { echo "deps: Go 1.24+ is required (https://go.dev/dl)"; exit 1; }
command -v npm >/dev/null || { echo "deps: Node.js 20+ and npm are required"; exit 1; }

# The pinned Wails CLI (the proxy's @latest resolves to an older one).
gobin=$(go env GOPATH)/bin
# (Output captured first: with pipefail, grep -q closing the pipe early would
# fail the check and reinstall every time.)
wv=$("$gobin/wails" version 2>/dev/null || true)
if [[ $wv != *v2.16.0* ]]; then
  echo "deps: installing wails v2.16.0"
  go install github.com/wailsapp/wails/v2/cmd/wails@v2.16.0
fi

# Frontend dependencies, exactly as locked.
if [ -f frontend/package-lock.json ]; then
  if [ ! -d frontend/node_modules ] || [ frontend/package-lock.json -nt frontend/node_modules/.package-lock.json ]; then
    (cd frontend && npm ci --no-audit --no-fund --loglevel=error)
  fi
fi
