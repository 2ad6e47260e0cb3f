package changes

import (
	"strings"
	"testing"
)

func TestParseDiff(t *testing.T) {
	out := ":000000 100644 0000000 ea0c8a8 A\x00t\tab\x00:100644 100644 7898192 422c2b7 M\x00a b\x00:100644 000000 1 0 D\x00gone\x00\x00" +
		"diff --git \"a/t\\tab\" \"b/t\\tab\"\nnew file mode 100644\n--- /dev/null\n+++ \"b/t\\tab\"\n@@ -0,0 +1 @@\n+q\n" +
		"diff --git a/a b b/a b\nindex 1..2 100644\n--- a/a b\t\n+++ b/a b\t\n@@ -1 +1,2 @@\n a\n+b\n" +
		"diff --git a/gone b/gone\ndeleted file mode 100644\nBinary files a/gone and /dev/null differ\n"
	got := ParseDiff([]byte(out))
	want := []struct {
		path, action   string
		added, removed int
		binary         bool
	}{{"t\tab", "created", 1, 0, false}, {"a b", "modified", 1, 0, false}, {"gone", "deleted", 0, 0, true}}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i, w := range want {
		g := got[i]
		if g.Path != w.path || g.Action != w.action || g.Added != w.added || g.Removed != w.removed || g.Binary != w.binary {
			t.Errorf("%d: %+v, want %+v", i, g, w)
		}
	}
	// Output cut in the second patch: the first whole, the second cut, the
	// third named.
	cutAt := strings.Index(out, "+b\n")
	got = parseDiff([]byte(out[:cutAt]), true)
	if len(got) != 3 || got[0].Added != 1 || got[0].Truncated || !got[1].Truncated || got[2].Diff != "" || got[2].Binary || got[2].Path != "gone" {
		t.Errorf("cut: %+v", got)
	}
	// Patches that do not match the records: names without diffs.
	if got := ParseDiff([]byte(":1 2 3 4 M\x00x\x00\x00")); len(got) != 1 || got[0].Path != "x" || got[0].Diff != "" {
		t.Errorf("no patch: %+v", got)
	}
}

func FuzzParseDiff(f *testing.F) {
	f.Add([]byte(":000000 100644 0 1 A\x00n\nl\x00\x00diff --git a/x b/x\n@@ -0,0 +1 @@\n+x\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, fc := range ParseDiff(b) {
			if fc.Added < 0 || fc.Removed < 0 || len(fc.Diff) > MaxDiff {
				t.Fatalf("%+v", fc)
			}
		}
	})
}
