package cli

import (
	"bytes"
	"flag"
	"reflect"
	"strings"
	"testing"
)

// What parseFit takes and refuses: flags among the positional arguments,
// a flag's value checked by fits, the usage printed once on a refusal.
func TestParseFit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		fits  func(limit int) func([]string) bool
		pos   []string
		ok    bool
		usage bool // the usage line printed
	}{
		{"one argument", []string{"run_1"}, func(int) func([]string) bool { return one }, []string{"run_1"}, true, false},
		{"a flag after the argument", []string{"run_1", "--limit", "5"}, func(int) func([]string) bool { return one }, []string{"run_1"}, true, false},
		{"none wanted, none given", nil, func(int) func([]string) bool { return none }, nil, true, false},
		{"one too many", []string{"a", "b"}, func(int) func([]string) bool { return one }, nil, false, true},
		{"one missing", nil, func(int) func([]string) bool { return one }, nil, false, true},
		{"an unknown flag", []string{"--nope"}, func(int) func([]string) bool { return none }, nil, false, true},
		{"a flag's value refused", []string{"--limit", "0"}, func(limit int) func([]string) bool {
			return func(pos []string) bool { return none(pos) && limit > 0 }
		}, nil, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			fs := flag.NewFlagSet("x", flag.ContinueOnError)
			fs.SetOutput(&out)
			fs.Usage = func() { out.WriteString("usage: x\n") }
			limit := fs.Int("limit", 30, "")
			pos, ok := parseFit(fs, tc.args, func(p []string) bool { return tc.fits(*limit)(p) })
			if ok != tc.ok || !reflect.DeepEqual(pos, tc.pos) {
				t.Fatalf("parseFit = %q, %v; want %q, %v", pos, ok, tc.pos, tc.ok)
			}
			if n := strings.Count(out.String(), "usage: x"); (n == 1) != tc.usage || n > 1 {
				t.Fatalf("the usage printed %d times:\n%s", n, out.String())
			}
		})
	}
}
