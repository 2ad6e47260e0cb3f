package changes

import (
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	cases := []struct {
		name             string
		old, new         string
		created, deleted bool
		action           string
		added, removed   int
		binary           bool
		contains         []string
	}{
		{"edit one line", "a\nb\nc\n", "a\nB\nc\n", false, false, "modified", 1, 1, false,
			[]string{"--- a/f.txt", "+++ b/f.txt", "-b\n", "+B\n", " a\n"}},
		{"create", "", "x\ny\n", true, false, "created", 2, 0, false, []string{"--- /dev/null", "+x\n", "+y\n"}},
		{"delete", "x\n", "", false, true, "deleted", 0, 1, false, []string{"+++ /dev/null", "-x\n"}},
		{"append", "a\n", "a\nb\n", false, false, "modified", 1, 0, false, []string{"+b\n"}},
		{"no newline at end", "a", "b", false, false, "modified", 1, 1, false, []string{"\\ No newline at end of file"}},
		{"binary", "a", "\x00\x01", false, false, "modified", 0, 0, true, nil},
		{"invalid utf-8", "", "\xff\xfe", true, false, "created", 0, 0, true, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fc := Text("f.txt", c.old, c.new, c.created, c.deleted)
			if fc.Action != c.action || fc.Added != c.added || fc.Removed != c.removed || fc.Binary != c.binary {
				t.Fatalf("got %+v", fc)
			}
			if c.binary && fc.Diff != "" {
				t.Fatalf("binary file got a diff: %q", fc.Diff)
			}
			for _, s := range c.contains {
				if !strings.Contains(fc.Diff, s) {
					t.Errorf("diff lacks %q:\n%s", s, fc.Diff)
				}
			}
		})
	}
}

func TestTruncate(t *testing.T) {
	cases := []struct {
		in   string
		max  int
		want string
		cut  bool
	}{
		{"a\nb\n", 10, "a\nb\n", false},
		{"aaa\nbbb\nccc\n", 9, "aaa\nbbb\n", true},
		{"ééé", 3, "é", true}, // no newline: cut on a rune boundary
	}
	for _, c := range cases {
		got, cut := Truncate(c.in, c.max)
		if got != c.want || cut != c.cut {
			t.Errorf("Truncate(%q, %d) = %q, %v; want %q, %v", c.in, c.max, got, cut, c.want, c.cut)
		}
	}
}

func TestTextLargeIsTruncatedWithWholeCounts(t *testing.T) {
	big := strings.Repeat("line of text that is long enough\n", 20000)
	fc := Text("big.txt", "", big, true, false)
	if !fc.Truncated || len(fc.Diff) > MaxDiff || fc.Added != 20000 {
		t.Fatalf("truncated=%v len=%d added=%d", fc.Truncated, len(fc.Diff), fc.Added)
	}
}
