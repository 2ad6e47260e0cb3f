package hosts

import "testing"

// What ssh (OpenSSH 9.x) writes for each failure, and the problem it is.
func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		name   string
		exit   int
		stderr string
		want   Problem // "" : not ssh's failure
	}{
		{"remote command failed", 1, "mkdir: cannot create directory", ""},
		{"success", 0, "", ""},
		{"refused", 255, "ssh: connect to host 127.0.0.1 port 1: Connection refused\r\n", ProblemUnreachable},
		{"no such name", 255, "ssh: Could not resolve hostname nosuch.invalid: Name or service not known\r\n", ProblemUnreachable},
		{"timeout", 255, "ssh: connect to host 10.255.255.1 port 22: Connection timed out\r\n", ProblemUnreachable},
		{"no route", 255, "ssh: connect to host 10.0.0.9 port 22: No route to host\r\n", ProblemUnreachable},
		{"closed during kex", 255, "kex_exchange_identification: read: Connection reset by peer\r\n", ProblemUnreachable},
		{"auth", 255, "me@127.0.0.1: Permission denied (publickey).\r\n", ProblemAuth},
		{"too many keys", 255, "Received disconnect from 127.0.0.1 port 22:2: Too many authentication failures\r\n", ProblemAuth},
		{"changed key", 255, "@@@@@@@@@@@\r\n@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\r\n@@@@@@\r\nIT IS POSSIBLE THAT SOMEONE IS DOING SOMETHING NASTY!\r\nHost key for [127.0.0.1]:2222 has changed and you have requested strict checking.\r\nHost key verification failed.\r\n", ProblemHostKeyChanged},
		{"unknown key", 255, "No ED25519 host key is known for [127.0.0.1]:2222 and you have requested strict checking.\r\nHost key verification failed.\r\n", ProblemHostKeyUnknown},
		{"bad config", 255, "/tmp/x/config: line 3: Bad configuration option: hostnme\r\n/tmp/x/config: terminating, 1 bad configuration options\r\n", ProblemConfig},
		{"bad owner", 255, "Bad owner or permissions on /home/me/.ssh/config\r\n", ProblemConfig},
		{"other", 255, "something else entirely\r\n", ProblemSSH},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := classify("box", tc.exit, tc.stderr)
			switch {
			case tc.want == "" && got != nil:
				t.Fatalf("classify = %v, want nil", got.Problem)
			case tc.want == "":
			case got == nil:
				t.Fatalf("classify = nil, want %s", tc.want)
			case got.Problem != tc.want:
				t.Fatalf("classify = %s, want %s", got.Problem, tc.want)
			case got.Sentence == "" || got.Detail == "":
				t.Fatalf("no sentence or detail: %+v", got)
			}
		})
	}
}
