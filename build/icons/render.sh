#!/usr/bin/env bash
# Renders every icon file from hermesdesk.svg. The outputs are committed, so a
# build needs no converter; run this only after changing the SVG.
# Needs rsvg-convert (apt librsvg2-bin), ImageMagick and python3.
set -euo pipefail
cd "$(dirname "$0")"
svg=hermesdesk.svg
for s in 16 24 32 48 64 128 256 512 1024; do
  rsvg-convert -w $s -h $s "$svg" -o "hermesdesk-$s.png"
done
cp hermesdesk-1024.png ../appicon.png         # Wails' convention; the window icon
cp hermesdesk-64.png ../trayicon.png          # tray helper
mkdir -p ../windows ../darwin
convert hermesdesk-{16,24,32,48,64,128,256}.png ../windows/icon.ico
# ICNS: a header and one PNG per type code (ic07=128 … ic10=1024@2x).
python3 - <<'PY'
import struct
parts = []
for code, size in [(b"icp4", 16), (b"icp5", 32), (b"icp6", 64), (b"ic07", 128),
                   (b"ic08", 256), (b"ic09", 512), (b"ic10", 1024)]:
    data = open(f"hermesdesk-{size}.png", "rb").read()
    parts.append(code + struct.pack(">I", 8 + len(data)) + data)
body = b"".join(parts)
open("../darwin/iconfile.icns", "wb").write(b"icns" + struct.pack(">I", 8 + len(body)) + body)
PY
rm hermesdesk-24.png hermesdesk-1024.png
# Tray icons, one per state (backend/traystate Icon), embedded by icons.go.
for st in idle running needs-you; do
  rsvg-convert -w 64 -h 64 "tray-$st.svg" -o "tray-$st.png"
done
