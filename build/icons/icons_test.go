package icons

import (
	"bytes"
	"image/png"
	"testing"
)

func TestTrayIconsDecodeAndDiffer(t *testing.T) {
	seen := map[string]string{}
	byName := TrayByName()
	for _, st := range []string{"idle", "running", "needs-you"} {
		b := byName[st]
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil || img.Bounds().Dx() != 64 {
			t.Fatalf("%s: %v %v", st, err, img)
		}
		if other, ok := seen[string(b)]; ok {
			t.Fatalf("%s looks the same as %s", st, other)
		}
		seen[string(b)] = st
	}
	if len(byName) != 3 {
		t.Fatalf("%d tray icons; want 3", len(byName))
	}
}
