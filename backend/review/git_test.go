package review

import (
	"strings"
	"testing"
)

func TestParseLsTree(t *testing.T) {
	out := "100644 blob aaa\tsrc/a b.go\x00100755 blob bbb\trun.sh\x00garbage\x00160000 commit ccc\tsub\x00"
	got := parseLsTree([]byte(out))
	if len(got) != 3 || got["src/a b.go"] != "aaa" || got["run.sh"] != "bbb" || got["sub"] != "ccc" {
		t.Errorf("%v", got)
	}
}

// Whatever git prints, the parse neither panics nor names a path it did
// not read.
func FuzzParseLsTree(f *testing.F) {
	f.Add([]byte("100644 blob aaa\tpath\x00"))
	f.Add([]byte("\t\x00 \t"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for p := range parseLsTree(b) {
			if p == "" || !strings.Contains(string(b), p) {
				t.Fatalf("named %q", p)
			}
		}
	})
}
