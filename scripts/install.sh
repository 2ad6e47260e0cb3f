#!/usr/bin/env bash
# Installs Hermes Desk for the current user (no root): its two programs
# (hermesdesk, the core and CLI; hermesdesk-window, the window it starts,
# taken from beside BIN), a .desktop launcher with an absolute Exec (a
# desktop session's PATH often lacks ~/.local/bin) and the icons.
# Usage: install.sh install PREFIX BIN
#        install.sh uninstall PREFIX
set -euo pipefail
cd "$(dirname "$0")/.."
action=$1 prefix=$2
bin="$prefix/bin/hermesdesk"
winbin="$prefix/bin/hermesdesk-window"
desktop="$prefix/share/applications/hermesdesk.desktop"
icons="$prefix/share/icons/hicolor"
sizes=(16 32 48 64 128 256 512)

refresh() {
  command -v update-desktop-database >/dev/null && update-desktop-database -q "$prefix/share/applications" || true
  command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t -f "$icons" 2>/dev/null || true
}

case $action in
install)
  src=$3
  install -Dm755 "$src" "$bin"
  install -Dm755 "$(dirname "$src")/hermesdesk-window" "$winbin"
  mkdir -p "$(dirname "$desktop")"
  sed -e "s|^Exec=hermesdesk|Exec=$bin|" -e "s|^TryExec=hermesdesk|TryExec=$bin|" \
    build/linux/hermesdesk.desktop >"$desktop"
  chmod 644 "$desktop"
  for s in "${sizes[@]}"; do
    install -Dm644 "build/icons/hermesdesk-$s.png" "$icons/${s}x${s}/apps/hermesdesk.png"
  done
  install -Dm644 build/icons/hermesdesk.svg "$icons/scalable/apps/hermesdesk.svg"
  refresh
  echo "installed $bin, $winbin and the launcher; find Hermes Desk in your app menu"
  case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "note: $prefix/bin is not on your PATH" ;; esac
  ;;
uninstall)
  rm -f "$bin" "$winbin" "$desktop" "$icons/scalable/apps/hermesdesk.svg"
  for s in "${sizes[@]}"; do rm -f "$icons/${s}x${s}/apps/hermesdesk.png"; done
  # A login entry that starts the removed binary would only fail at login.
  autostart="${XDG_CONFIG_HOME:-$HOME/.config}/autostart/hermesdesk.desktop"
  if [ -f "$autostart" ] && grep -q "$bin" "$autostart"; then rm -f "$autostart"; fi
  refresh
  echo "uninstalled Hermes Desk from $prefix (your data dir is kept)"
  ;;
*) echo "usage: $0 install PREFIX BIN | uninstall PREFIX" >&2; exit 2 ;;
esac
