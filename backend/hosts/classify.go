package hosts

import (
	"fmt"
	"strings"
)

// Problem is why a host cannot be used, as one word a client branches on
// (docs/ARCHITECTURE.md §Hosts, "What a check says").
type Problem string

const (
	ProblemUnreachable    Problem = "unreachable"      // no TCP connection, no name, timed out
	ProblemAuth           Problem = "auth"             // the server refused every key
	ProblemHostKeyChanged Problem = "host_key_changed" // known_hosts holds another key
	ProblemHostKeyUnknown Problem = "host_key_unknown" // known_hosts holds no key
	ProblemConfig         Problem = "ssh_config"       // ssh refused its own configuration
	ProblemNoSSH          Problem = "no_ssh"           // no ssh program
	ProblemNoHome         Problem = "no_home"          // no writable home folder there
	ProblemPlatform       Problem = "platform"         // not linux amd64/arm64
	ProblemSSH            Problem = "ssh"              // ssh failed some other way
	ProblemRemote         Problem = "remote"           // the far side's command failed
	ProblemInvalid        Problem = "invalid"          // not a target ssh should be given
	ProblemExists         Problem = "exists"           // the target is already added
)

// Error is a failed check or start: the problem, and a sentence a person
// can act on. Detail (ssh's own words) is for logs.
type Error struct {
	Problem  Problem
	Target   string
	Sentence string
	Detail   string
}

func (e *Error) Error() string { return e.Sentence }

// sshExitFailure is ssh's own exit status when it, rather than the remote
// command, failed (ssh(1), EXIT STATUS).
const sshExitFailure = 255

// classify reads ssh's exit status and what it wrote on stderr: nil when
// ssh itself did not fail (the remote command's status is the caller's to
// judge), else the problem in words. Pure: table-tested in classify_test.go.
func classify(target string, exit int, stderr string) *Error {
	if exit != sshExitFailure {
		return nil
	}
	p := ProblemSSH
	low := strings.ToLower(stderr)
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(low, w) {
				return true
			}
		}
		return false
	}
	switch {
	case has("remote host identification has changed", "host key for", "offending"):
		p = ProblemHostKeyChanged
	case has("no matching host key", "host key is known for", "host key verification failed"):
		p = ProblemHostKeyUnknown
	case has("permission denied", "too many authentication failures", "no more authentication methods"):
		p = ProblemAuth
	case has("could not resolve hostname", "connection refused", "connection timed out", "operation timed out",
		"no route to host", "network is unreachable", "connection reset", "connection closed by",
		"kex_exchange_identification", "banner exchange"):
		p = ProblemUnreachable
	case has("bad configuration option", "bad owner or permissions", "can't open user config file",
		"terminating, ", "unsupported option", "missing argument"):
		p = ProblemConfig
	}
	return &Error{Problem: p, Target: target, Sentence: sentence(p, target), Detail: strings.TrimSpace(stderr)}
}

// sentence says a problem to the person.
func sentence(p Problem, target string) string {
	switch p {
	case ProblemUnreachable:
		return fmt.Sprintf("%s is unreachable: ssh could not connect (check the name, that the machine is on and that sshd listens).", target)
	case ProblemAuth:
		return fmt.Sprintf("%s refused the login: ssh offered no key it accepts. Make `ssh %s` work without a password prompt (a key in your agent or in ~/.ssh/config), then add it again.", target, target)
	case ProblemHostKeyChanged:
		return fmt.Sprintf("The host key of %s has CHANGED since you last connected: this can be a reinstall or someone in the middle. Hermes Desk never accepts it for you; check the new key with the machine's owner and fix known_hosts (`ssh %s` shows the details).", target, target)
	case ProblemHostKeyUnknown:
		return fmt.Sprintf("The host key of %s is not known yet. Connect once yourself with `ssh %s`, check the fingerprint it shows, and accept it; Hermes Desk never accepts a host key for you.", target, target)
	case ProblemConfig:
		return fmt.Sprintf("ssh refused its configuration while connecting to %s; run `ssh %s` to see what it says.", target, target)
	case ProblemNoSSH:
		return "There is no ssh program on this machine: install OpenSSH's client (the `ssh` command) to use remote hosts."
	case ProblemNoHome:
		return fmt.Sprintf("%s has no writable home folder for this user: Hermes Desk needs ~/.local/share/hermesdesk there.", target)
	case ProblemPlatform:
		return fmt.Sprintf("%s is not a machine Hermes Desk can run on: only Linux on x86-64 (amd64) or ARM64 is supported.", target)
	case ProblemRemote:
		return fmt.Sprintf("A command Hermes Desk ran on %s failed.", target)
	}
	return fmt.Sprintf("ssh could not reach %s; run `ssh %s` to see why.", target, target)
}
