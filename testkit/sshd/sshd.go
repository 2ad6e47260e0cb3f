// Package sshd starts a real OpenSSH server (Debian's openssh-server,
// /usr/sbin/sshd) for a test, on 127.0.0.1 only, with its own host key,
// one authorized key, a client-side ssh config naming it by an alias, and a
// separate HOME standing in for the remote user (docs/ARCHITECTURE.md
// §Hosts, testing). It is stopped by t.Cleanup.
//
// The remote user is the user running the test (sshd run by a non-root
// user can only log that user in); its HOME and PATH are replaced through
// sshd_config's SetEnv, so what the session writes under ~ lands in
// RemoteHome, and a program put in RemoteHome/bin shadows the system's
// (a fake `uname` reports another architecture).
//
// Forwarding: OpenSSH 9.2 refuses a forwarded unix socket
// (direct-streamlocal) when AllowTcpForwarding is no, so the server allows
// local forwards only ("local": no -R, nothing listens for the client).
//
// StrictModes is off: the test's folders live under the world-writable
// temp dir, which sshd's path check would refuse.
package sshd

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Path is where Debian's openssh-server installs sshd.
const Path = "/usr/sbin/sshd"

// Alias is the name the client config gives the server.
const Alias = "hdtest"

// Aliases for failures: ClosedAlias is a loopback port nothing listens
// on; NoKeyAlias is the server with a key it does not authorize.
const (
	ClosedAlias = "hdtest-closed"
	NoKeyAlias  = "hdtest-nokey"
)

// Server is one running sshd and the client side that reaches it.
type Server struct {
	Port       int
	Alias      string // the Host alias in ConfigFile
	ConfigFile string // the client's ssh config: pass it as `ssh -F`
	ClientHome string // the client's HOME (ConfigFile is its .ssh/config)
	RemoteHome string // the remote user's HOME on the "host"
	Log        string // sshd's own log (-e), for a failing test to print

	dir        string
	knownHosts string
	hostPub    string
	cmd        *exec.Cmd
}

// Start starts sshd, or skips the test when sshd or ssh is not installed.
func Start(t testing.TB) *Server {
	t.Helper()
	if _, err := os.Stat(Path); err != nil {
		t.Skip("openssh-server is not installed (scripts/deps.sh test)")
	}
	for _, p := range []string{"ssh", "ssh-keygen"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed", p)
		}
	}
	if os.Getuid() == 0 {
		// sshd run by root separates privileges into this folder; the
		// distribution's service unit usually creates it.
		if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
			t.Fatalf("privilege separation folder: %v", err)
		}
	}
	dir := t.TempDir()
	s := &Server{
		Alias:      Alias,
		dir:        dir,
		ClientHome: filepath.Join(dir, "client"),
		RemoteHome: filepath.Join(dir, "remote"),
		knownHosts: filepath.Join(dir, "client", ".ssh", "known_hosts"),
		Log:        filepath.Join(dir, "sshd.log"),
	}
	for _, d := range []string{filepath.Join(s.ClientHome, ".ssh"), filepath.Join(s.RemoteHome, "bin")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	hostKey := filepath.Join(dir, "host_ed25519")
	clientKey := filepath.Join(s.ClientHome, ".ssh", "id_ed25519")
	strangerKey := filepath.Join(s.ClientHome, ".ssh", "id_stranger")
	keygen(t, hostKey)
	keygen(t, clientKey)
	keygen(t, strangerKey)
	s.hostPub = readPub(t, hostKey)
	pub, err := os.ReadFile(clientKey + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	authorized := filepath.Join(dir, "authorized_keys")
	if err := os.WriteFile(authorized, pub, 0o600); err != nil {
		t.Fatal(err)
	}
	s.Port = freePort(t)
	me, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(s.RemoteHome, "bin") + ":/usr/local/bin:/usr/bin:/bin"
	cfg := filepath.Join(dir, "sshd_config")
	writeFile(t, cfg, fmt.Sprintf(`ListenAddress 127.0.0.1:%d
HostKey %s
PidFile %s
AuthorizedKeysFile %s
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
AllowStreamLocalForwarding yes
AllowTcpForwarding local
X11Forwarding no
PrintMotd no
MaxStartups 100
MaxSessions 100
SetEnv HOME=%s PATH=%s
LogLevel VERBOSE
`, s.Port, hostKey, filepath.Join(dir, "sshd.pid"), authorized, s.RemoteHome, path))
	s.ConfigFile = filepath.Join(s.ClientHome, ".ssh", "config")
	// One client block per alias: the one that logs in, one whose key the
	// server does not know, one whose port nothing listens on.
	var client strings.Builder
	for _, h := range []struct {
		alias string
		port  int
		key   string
	}{{s.Alias, s.Port, clientKey}, {NoKeyAlias, s.Port, strangerKey}, {ClosedAlias, freePort(t), clientKey}} {
		fmt.Fprintf(&client, `Host %s
  HostName 127.0.0.1
  Port %d
  User %s
  IdentityFile %s
  IdentitiesOnly yes
  IdentityAgent none
  UserKnownHostsFile %s
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  LogLevel ERROR

`, h.alias, h.port, me.Username, h.key, s.knownHosts)
	}
	writeFile(t, s.ConfigFile, client.String())
	s.TrustHostKey(t)

	s.cmd = exec.Command(Path, "-D", "-e", "-f", cfg)
	stderr, err := s.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("start sshd: %v", err)
	}
	t.Cleanup(func() {
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
	})
	// sshd says it listens once it has bound the port: wait for that line
	// (the event), then keep copying its log for a failing test.
	logf, err := os.Create(s.Log)
	if err != nil {
		t.Fatal(err)
	}
	ready := make(chan struct{})
	go func() {
		defer logf.Close()
		r := bufio.NewReader(stderr)
		said := false
		for {
			line, err := r.ReadString('\n')
			logf.WriteString(line)
			if !said && strings.Contains(line, "Server listening on") {
				said = true
				close(ready)
			}
			if err != nil {
				if !said {
					close(ready)
				}
				return
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(10 * time.Second):
	}
	if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", s.Port)); err != nil {
		b, _ := os.ReadFile(s.Log)
		t.Fatalf("sshd did not start: %v\n%s", err, b)
	} else {
		c.Close()
	}
	return s
}

// SSHArgs are the arguments that make `ssh` use this server's client
// config: `ssh SSHArgs... Alias command`.
func (s *Server) SSHArgs() []string { return []string{"-F", s.ConfigFile} }

// TrustHostKey writes the server's real host key into the client's
// known_hosts.
func (s *Server) TrustHostKey(t testing.TB) {
	t.Helper()
	writeFile(t, s.knownHosts, fmt.Sprintf("[127.0.0.1]:%d %s\n", s.Port, s.hostPub))
}

// ChangeHostKey makes the client remember another key for the server, as
// after a reinstall or a man in the middle: ssh must refuse it.
func (s *Server) ChangeHostKey(t testing.TB) {
	t.Helper()
	other := filepath.Join(t.TempDir(), "other_ed25519")
	keygen(t, other)
	writeFile(t, s.knownHosts, fmt.Sprintf("[127.0.0.1]:%d %s\n", s.Port, readPub(t, other)))
}

// ForgetHostKey empties the client's known_hosts: the host is unknown.
func (s *Server) ForgetHostKey(t testing.TB) {
	t.Helper()
	writeFile(t, s.knownHosts, "")
}

// RemoteCommand puts an executable script named name first on the remote
// user's PATH (RemoteHome/bin), e.g. a fake `uname`.
func (s *Server) RemoteCommand(t testing.TB, name, script string) {
	t.Helper()
	p := filepath.Join(s.RemoteHome, "bin", name)
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// Dump writes sshd's log to w (for a failing test).
func (s *Server) Dump(w io.Writer) {
	b, _ := os.ReadFile(s.Log)
	w.Write(b)
}

func keygen(t testing.TB, path string) {
	t.Helper()
	out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "hdtest", "-f", path).CombinedOutput()
	if err != nil {
		t.Fatalf("ssh-keygen: %v: %s", err, out)
	}
}

// readPub returns "type base64" of the key's public half.
func readPub(t testing.TB, key string) string {
	t.Helper()
	b, err := os.ReadFile(key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		t.Fatalf("bad public key %s", key)
	}
	return f[0] + " " + f[1]
}

func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func writeFile(t testing.TB, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}
