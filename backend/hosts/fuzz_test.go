package hosts

import (
	"strings"
	"testing"
)

// The far side's output and ssh's stderr are untrusted text: parsing them
// never panics, and what comes out stays within what was given.
func FuzzParse(f *testing.F) {
	f.Add([]byte("os=Linux\narch=x86_64\nhome=ok\nhave=abc\n"), 255)
	f.Add([]byte("socket=/tmp/x/api.sock\n"), 0)
	f.Add([]byte("Permission denied (publickey).\r\n"), 255)
	f.Fuzz(func(t *testing.T, out []byte, exit int) {
		p := parseProbe(out)
		if p.problem() == "" && !p.Supported() {
			t.Fatalf("no problem for an unsupported platform %+v", p)
		}
		if s := parseSocket(out); s != "" && (!strings.HasPrefix(s, "/") || !strings.Contains(string(out), s)) {
			t.Fatalf("socket %q not from %q", s, out)
		}
		e := classify("box", exit, string(out))
		if (e == nil) != (exit != sshExitFailure) {
			t.Fatalf("classify(%d) = %v", exit, e)
		}
		if e != nil && e.Sentence == "" {
			t.Fatal("a problem without a sentence")
		}
	})
}
