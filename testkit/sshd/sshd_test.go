package sshd_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/testkit/sshd"
)

func ssh(s *sshd.Server, args ...string) *exec.Cmd {
	return exec.Command("ssh", append(append(s.SSHArgs(), "-o", "BatchMode=yes", s.Alias), args...)...)
}

// The server logs the test's user in by key, with the stand-in HOME and
// PATH, and a changed host key is refused by ssh itself.
func TestServerLogsInWithTheRemoteHome(t *testing.T) {
	s := sshd.Start(t)
	s.RemoteCommand(t, "uname", "#!/bin/sh\necho fake-uname\n")
	out, err := ssh(s, `echo "$HOME"; uname`).CombinedOutput()
	if err != nil {
		s.Dump(t.Output())
		t.Fatalf("ssh: %v: %s", err, out)
	}
	if got := strings.Fields(string(out)); len(got) != 2 || got[0] != s.RemoteHome || got[1] != "fake-uname" {
		t.Fatalf("remote HOME and uname = %q, want %s fake-uname", out, s.RemoteHome)
	}

	s.ChangeHostKey(t)
	out, err = ssh(s, "true").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "HOST IDENTIFICATION HAS CHANGED") {
		t.Fatalf("changed host key: err %v, output %s", err, out)
	}
}
