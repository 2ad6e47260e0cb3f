package hosts

import "testing"

func TestParseProbe(t *testing.T) {
	for _, tc := range []struct {
		name    string
		out     string
		want    Platform
		problem Problem
	}{
		{"linux x86-64", "os=Linux\narch=x86_64\nhome=ok\n", Platform{"linux", "amd64"}, ""},
		{"linux arm64 with a banner", "Welcome!\nos=Linux\narch=aarch64\nhome=ok\nhave=abc\n", Platform{"linux", "arm64"}, ""},
		{"macOS", "os=Darwin\narch=arm64\nhome=ok\n", Platform{"darwin", "arm64"}, ProblemPlatform},
		{"riscv", "os=Linux\narch=riscv64\nhome=ok\n", Platform{"linux", "riscv64"}, ProblemPlatform},
		{"32-bit arm", "os=Linux\narch=armv7l\nhome=ok\n", Platform{"linux", "armv7l"}, ProblemPlatform},
		{"no home", "os=Linux\narch=x86_64\nhome=no\n", Platform{"linux", "amd64"}, ProblemNoHome},
		{"nothing said", "", Platform{}, ProblemPlatform},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := parseProbe([]byte(tc.out))
			if p.Platform != tc.want || p.problem() != tc.problem {
				t.Fatalf("parseProbe = %+v problem %q, want %+v %q", p, p.problem(), tc.want, tc.problem)
			}
		})
	}
}

func TestCheckTarget(t *testing.T) {
	for _, tc := range []struct {
		target string
		ok     bool
	}{
		{"me@box.example.com", true},
		{"box", true},
		{"me@[::1]", true},
		{"", false},
		{"-oProxyCommand=evil", false},
		{"me@box; rm -rf ~", false},
		{"me@@box", false},
		{"box\n", false},
		{"me@", false},
	} {
		if err := CheckTarget(tc.target); (err == nil) != tc.ok {
			t.Errorf("CheckTarget(%q) = %v, want ok %v", tc.target, err, tc.ok)
		}
	}
}

// The control and forwarded sockets fit macOS's 104-byte limit under its
// long runtime dir (ssh binds the master at the path plus 17 characters).
func TestSocketPathsFit(t *testing.T) {
	rt := "/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T/hermesdesk-501/5bbd354f"
	s := SSH{ControlDir: rt + "/ssh"}
	if p := s.controlPath("someone@a-rather-long-host-name.example.com"); len(p)+17 > 104 {
		t.Errorf("control path %q is %d bytes (+17)", p, len(p))
	}
	if p := rt + "/hosts/" + shortHash("host_0123456789abcdef") + ".sock"; len(p) > 104 {
		t.Errorf("forwarded socket %q is %d bytes", p, len(p))
	}
	if shortHash("a") == shortHash("b") || len(shortHash("a")) != 8 {
		t.Error("shortHash")
	}
}
