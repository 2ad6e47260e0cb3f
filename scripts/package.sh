#!/usr/bin/env bash
# Builds out/hermesdesk_VERSION_ARCH.deb and out/hermesdesk-VERSION-linux-ARCH.tar.gz
# from already built programs: BIN (hermesdesk, the core and CLI) and the
# hermesdesk-window beside it. Usage: package.sh VERSION BIN
set -euo pipefail
cd "$(dirname "$0")/.."
version=$1 bin=$2
arch=$(dpkg --print-architecture 2>/dev/null || go env GOARCH)
out=${OUT:-out}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$out"

# One tree, laid out like /usr, for both packages.
tree=$stage/tree
install -Dm755 "$bin" "$tree/usr/bin/hermesdesk"
install -Dm755 "$(dirname "$bin")/hermesdesk-window" "$tree/usr/bin/hermesdesk-window"
install -Dm644 build/linux/hermesdesk.desktop "$tree/usr/share/applications/hermesdesk.desktop"
for s in 16 32 48 64 128 256 512; do
  install -Dm644 "build/icons/hermesdesk-$s.png" "$tree/usr/share/icons/hicolor/${s}x${s}/apps/hermesdesk.png"
done
install -Dm644 build/icons/hermesdesk.svg "$tree/usr/share/icons/hicolor/scalable/apps/hermesdesk.svg"
install -Dm644 README.md "$tree/usr/share/doc/hermesdesk/README.md"

# .deb: the runtime libraries the window links (GTK 3, WebKitGTK 4.1; the
# core links none). On
# Debian 13 / Ubuntu 24.04 GTK's package is libgtk-3-0t64, hence the
# alternative.
deb=$stage/deb
cp -a "$tree" "$deb"
mkdir -p "$deb/DEBIAN"
size=$(du -sk "$deb/usr" | cut -f1)
cat >"$deb/DEBIAN/control" <<CONTROL
Package: hermesdesk
Version: $version
Section: devel
Priority: optional
Architecture: $arch
Depends: libgtk-3-0t64 | libgtk-3-0, libwebkit2gtk-4.1-0
Installed-Size: $size
Maintainer: Hermes Desk contributors <hermesdesk@users.noreply.github.com>
Homepage: https://github.com/hermesdesk/hermesdesk
Description: Desktop workbench for AI agents
 Hermes Desk runs AI agent CLIs (Hermes Agent, Claude Code, Codex, Gemini
 CLI, any ACP agent), journals every event, and keeps runs going after the
 window closes. It lives in the tray and can start at login.
CONTROL
dpkg-deb --root-owner-group -Z"${DEB_COMPRESS:-xz}" --build "$deb" "$out/hermesdesk_${version}_${arch}.deb" >/dev/null

# Tarball: the same tree under hermesdesk-VERSION/ (extract and copy usr/ to
# ~/.local or /usr/local).
name=hermesdesk-$version-linux-$arch
mv "$tree" "$stage/$name"
tar -C "$stage" --owner=0 --group=0 -czf "$out/$name.tar.gz" "$name"
echo "packaged $out/hermesdesk_${version}_${arch}.deb and $out/$name.tar.gz"
