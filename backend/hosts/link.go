package hosts

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// LinkState is a change of a link: up (the forwarded socket reaches the
// host's API) or down, with why.
type LinkState struct {
	Up  bool
	Err error // why it went down (nil when up)
}

// Back-off between reconnects (docs/ARCHITECTURE.md §Hosts, the link).
const (
	firstBackoff = time.Second
	maxBackoff   = 30 * time.Second
)

// upWord is what the link's ssh prints (LocalCommand) once it has
// connected and bound the forwarded socket.
const upWord = "hermesdesk-link-up"

// Link is one multiplexed ssh connection (the ControlMaster of its host)
// forwarding a local unix socket (0600, in a 0700 folder) to the host's
// API socket. It reconnects with back-off, woken by ssh exiting; OnChange
// hears every up and down. Nothing polls. It is the remote.Link a
// follower of the host's core reads (docs/ARCHITECTURE.md §Remote cores).
type Link struct {
	ssh            SSH
	id             string // the host's id
	target, remote string
	local          string
	log            *slog.Logger
	onChange       func(LinkState)
	// backoff is the first wait before a reconnect (a var for tests).
	backoff time.Duration
	// prepare runs before each reconnect and returns the remote socket:
	// the host's core may have stopped (a reboot) while the link was down
	// (nil: the socket stays).
	prepare func(ctx context.Context) (string, error)

	ups chan struct{} // Up: one wake-up pending at most

	mu   sync.Mutex
	up   bool
	pid  int
	stop func() // ends the current ssh (Redial)
}

// NewLink returns host id's link of target's remote socket to local; Run
// runs it. An empty remote is asked of prepare before the first ssh.
func NewLink(s SSH, id, target, remote, local string, log *slog.Logger, onChange func(LinkState)) *Link {
	if log == nil {
		log = slog.Default()
	}
	if onChange == nil {
		onChange = func(LinkState) {}
	}
	return &Link{ssh: s, id: id, target: target, remote: remote, local: local, log: log, onChange: onChange,
		backoff: firstBackoff, ups: make(chan struct{}, 1)}
}

// Host is the host's id.
func (l *Link) Host() string { return l.id }

// Name is the host as the person wrote it (user@host or an alias): what
// the sentences about it say.
func (l *Link) Name() string { return l.target }

// Socket is the local socket: the host's API while the link is up.
func (l *Link) Socket() string { return l.local }

// Up receives once the link came (back) up since the last receive: the
// follower of the host's core reconnects then rather than after its
// back-off.
func (l *Link) Up() <-chan struct{} { return l.ups }

// IsUp reports whether the link is up now.
func (l *Link) IsUp() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.up
}

// PID is the link's ssh process (0 between attempts).
func (l *Link) PID() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.pid
}

// args are the link's ssh command line. It is its host's ControlMaster
// (the other commands ride on it); the forward's socket is unlinked
// before binding (a stale one from a killed ssh) and made 0600
// (StreamLocalBindMask); a forward that cannot be set up ends ssh
// (ExitOnForwardFailure) rather than leaving a link that does not link.
func (l *Link) args() []string {
	a := []string{}
	if l.ssh.ControlDir != "" {
		// First value wins in ssh: these come before options's
		// ControlMaster=no.
		a = append(a, "-o", "ControlMaster=yes", "-o", "ControlPersist=no")
	}
	a = append(a, l.ssh.options(l.target)...)
	return append(a,
		"-o", "ExitOnForwardFailure=yes",
		"-o", "StreamLocalBindUnlink=yes",
		"-o", "StreamLocalBindMask=0177",
		"-o", "PermitLocalCommand=yes",
		"-o", "LocalCommand=echo "+upWord,
		"-N", "-L", l.local+":"+l.remote, "--", l.target)
}

// Redial ends the link's ssh so that it reconnects after the first
// back-off, preparing the host again: for a client that found the host's
// API gone behind a link that is up (its core stopped).
func (l *Link) Redial() {
	l.mu.Lock()
	stop := l.stop
	l.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// Run keeps the link up until ctx ends.
func (l *Link) Run(ctx context.Context) {
	wait := l.backoff
	first := true
	for ctx.Err() == nil {
		var wasUp bool
		var err error
		l.mu.Lock()
		noRemote := l.remote == ""
		l.mu.Unlock()
		if (!first || noRemote) && l.prepare != nil {
			var remote string
			if remote, err = l.prepare(ctx); err == nil {
				l.mu.Lock()
				l.remote = remote
				l.mu.Unlock()
			}
		}
		first = false
		if err == nil {
			wasUp, err = l.once(ctx)
		}
		if ctx.Err() != nil {
			break
		}
		l.set(false, err)
		if wasUp {
			wait = l.backoff // it worked: the next drop starts again at 1 s
		}
		l.log.Info("hosts: link down; reconnecting", "target", l.target, "in", wait, "err", err)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
		case <-t.C:
		}
		wait = min(wait*2, maxBackoff)
	}
	l.mu.Lock()
	l.up = false
	l.mu.Unlock()
}

// once runs one ssh until it exits; it reports whether it came up.
func (l *Link) once(ctx context.Context) (bool, error) {
	if l.ssh.ControlDir != "" {
		// A master killed with SIGKILL leaves its socket: only this link
		// is the master, so a leftover is stale.
		os.Remove(l.ssh.controlPath(l.target))
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	l.mu.Lock()
	args := l.args()
	l.stop = cancel
	l.mu.Unlock()
	cmd := exec.CommandContext(ctx, l.ssh.program(), args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return false, err
	}
	var errb strings.Builder
	cmd.Stderr = &limited{w: &errb, n: 8 << 10}
	cmd.WaitDelay = 2 * time.Second
	defer dieWithCore(cmd)()
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return false, &Error{Problem: ProblemNoSSH, Target: l.target, Sentence: sentence(ProblemNoSSH, l.target)}
		}
		return false, err
	}
	l.mu.Lock()
	l.pid = cmd.Process.Pid
	l.mu.Unlock()
	up := false
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == upWord && !up {
			up = true
			l.set(true, nil)
		}
	}
	err = cmd.Wait()
	l.mu.Lock()
	l.pid, l.stop = 0, nil
	l.mu.Unlock()
	code := -1
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	}
	if e := classify(l.target, code, errb.String()); e != nil {
		return up, e
	}
	return up, fmt.Errorf("the ssh link to %s ended (%v): %s", l.target, err, strings.TrimSpace(errb.String()))
}

func (l *Link) set(up bool, err error) {
	l.mu.Lock()
	changed := l.up != up
	l.up = up
	l.mu.Unlock()
	if changed || (!up && err != nil) {
		l.onChange(LinkState{Up: up, Err: err})
	}
	if changed && up {
		select {
		case l.ups <- struct{}{}:
		default:
		}
	}
}

// limited keeps the first n bytes written (ssh's stderr, for classify).
type limited struct {
	w interface{ WriteString(string) (int, error) }
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		l.w.WriteString(string(p[:k]))
		l.n -= k
	}
	return len(p), nil
}
