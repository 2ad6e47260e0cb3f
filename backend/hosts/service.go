// Package hosts owns remote hosts: machines the person reaches with their
// own `ssh`, where Hermes Desk runs a core of its own and reaches its API
// through an ssh-forwarded unix socket (docs/ARCHITECTURE.md §Hosts).
// What a host is and what its check found are stored in the journal; the
// decisions (what ssh's failure means, what a probe found, which program a
// host gets) are pure and table-tested; ssh itself is the only transport.
// backend/remote builds on the socket a Link gives.
package hosts

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/errdefs"
	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/paths"
)

// Host is a stored host.
type Host = journal.Host

// Statuses a host is stored with.
const (
	StatusReady       = "ready"       // checked: reachable, supported, writable home
	StatusRunning     = "running"     // its core was started and answered
	StatusUnreachable = "unreachable" // the last attempt failed (Note says why)
)

// Store keeps hosts (the journal).
type Store interface {
	AddHost(ctx context.Context, h Host) (Host, error)
	GetHost(ctx context.Context, id string) (Host, error)
	ListHosts(ctx context.Context) ([]Host, error)
	UpdateHost(ctx context.Context, h Host) (Host, error)
	RemoveHost(ctx context.Context, id string) error
}

// Options configure a Service.
type Options struct {
	SSH SSH
	// Executable is this hermesdesk program, copied to hosts of its own
	// platform (Binary finds the others').
	Executable string
	// Version names the copy on the host (version.Version).
	Version string
	// RuntimeDir is this data dir's private runtime dir: the ssh control
	// sockets and the forwarded API sockets live in 0700 folders in it.
	RuntimeDir string
	// Changed is called after a host was added, updated or removed
	// (hosts.changed on the watch bus); nil: nobody.
	Changed func()
	Log     *slog.Logger
}

// Service adds, checks, lists and removes hosts, and starts their cores.
type Service struct {
	store Store
	o     Options
	log   *slog.Logger
	kept  keeper // the links kept for every host (keep.go)
}

// New returns the hosts service. A RuntimeDir makes ssh multiplex over
// each host's link (the ControlPath folder is made 0700 here).
func New(store Store, o Options) (*Service, error) {
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.RuntimeDir != "" && o.SSH.ControlDir == "" {
		o.SSH.ControlDir = filepath.Join(o.RuntimeDir, "ssh")
		if err := paths.EnsureRuntimeDir(o.SSH.ControlDir); err != nil {
			return nil, err
		}
	}
	return &Service{store: store, o: o, log: o.Log}, nil
}

// Add checks target over ssh and stores it: the check's failure, in
// words, is returned (*Error) and nothing is stored.
func (s *Service) Add(ctx context.Context, target string) (Host, error) {
	if err := CheckTarget(target); err != nil {
		return Host{}, err
	}
	p, err := s.check(ctx, target)
	if err != nil {
		return Host{}, err
	}
	h, err := s.store.AddHost(ctx, Host{Target: target, Status: StatusReady, OS: p.OS, Arch: p.Arch, LastSeen: time.Now()})
	if errors.Is(err, errdefs.ErrConflict) {
		return Host{}, &Error{Problem: ProblemExists, Target: target, Sentence: fmt.Sprintf("%s is already added.", target)}
	}
	if err != nil {
		return Host{}, fmt.Errorf("store host %s: %w", target, err)
	}
	s.changed()
	s.keep(h)
	return h, nil
}

// List returns every host, oldest first.
func (s *Service) List(ctx context.Context) ([]Host, error) { return s.store.ListHosts(ctx) }

// Remove forgets a host: its follower and its link stop, and its core is
// asked to stop (its shims, none running a run — the service refuses
// before — end with it). Nothing there is deleted: its projects' folders,
// its journal and the program stay, and adding it again finds them.
func (s *Service) Remove(ctx context.Context, id string) error {
	h, err := s.store.GetHost(ctx, id)
	if err != nil {
		return err
	}
	// Its follower stops first, so nothing of it reaches the bus after
	// the removal is told.
	s.unkeep(id)
	if err := s.store.RemoveHost(ctx, id); err != nil {
		return err
	}
	s.changed()
	if err := s.stopCore(ctx, h.Target); err != nil {
		// Forgotten here all the same: a core left running there is
		// stopped by hand or by the next add's start.
		s.logFail("stop", h.Target, err)
	}
	return nil
}

// check runs the probe on target: ssh's failure or what keeps the host
// from being used, in words.
func (s *Service) check(ctx context.Context, target string) (probe, error) {
	if err := checkVersion(s.o.Version); err != nil {
		return probe{}, err
	}
	out, err := s.o.SSH.Run(ctx, target, probeScript(s.o.Version), nil)
	if err != nil {
		s.logFail("check", target, err)
		return probe{}, err
	}
	p := parseProbe(out)
	if pr := p.problem(); pr != "" {
		e := &Error{Problem: pr, Target: target, Sentence: sentence(pr, target), Detail: fmt.Sprintf("os=%q arch=%q home=%v", p.OS, p.Arch, p.HomeOK)}
		if pr == ProblemPlatform && p.OS != "" {
			e.Sentence = fmt.Sprintf("%s runs %s on %s: Hermes Desk runs on Linux x86-64 (amd64) or ARM64 hosts only.", target, p.OS, p.Arch)
		}
		return p, e
	}
	return p, nil
}

// Start makes sure the host's core runs this version: checks the host,
// copies the program if the host lacks it (checksum-verified), and starts
// `serve --socket-only --detach` there, which hands over from an older
// version. It returns the remote API socket's path.
func (s *Service) Start(ctx context.Context, id string) (string, error) {
	h, err := s.store.GetHost(ctx, id)
	if err != nil {
		return "", err
	}
	sock, err := s.start(ctx, h)
	if err != nil {
		h.Status, h.Note = StatusUnreachable, err.Error()
		if _, uerr := s.store.UpdateHost(ctx, h); uerr == nil {
			s.changed()
		}
		return "", err
	}
	h.Status, h.Note, h.Version, h.LastSeen = StatusRunning, "", s.o.Version, time.Now()
	if _, err := s.store.UpdateHost(ctx, h); err == nil {
		s.changed()
	}
	return sock, nil
}

func (s *Service) start(ctx context.Context, h Host) (string, error) {
	p, err := s.check(ctx, h.Target)
	if err != nil {
		return "", err
	}
	h.OS, h.Arch = p.OS, p.Arch
	bin, err := Binary(s.o.Executable, h.Target, p.Arch)
	if err != nil {
		return "", err
	}
	copied, err := s.o.SSH.install(ctx, h.Target, s.o.Version, bin, p.Have)
	if err != nil {
		s.logFail("copy", h.Target, err)
		return "", err
	}
	s.log.Info("hosts: program on the host", "target", h.Target, "copied", copied, "version", s.o.Version)
	out, err := s.o.SSH.Run(ctx, h.Target, startScript(s.o.Version), nil)
	if err != nil {
		s.logFail("start", h.Target, err)
		if e, ok := err.(*Error); ok && e.Problem == ProblemRemote {
			e.Sentence = fmt.Sprintf("Hermes Desk could not start on %s: %s", h.Target, e.Detail)
		}
		return "", err
	}
	sock := parseSocket(out)
	if sock == "" {
		return "", fmt.Errorf("start Hermes Desk on %s: it did not say where it listens", h.Target)
	}
	return sock, nil
}

// Connect starts the host's core and links a local socket to its API:
// the Link's Socket is the API, reconnected by itself until ctx ends.
func (s *Service) Connect(ctx context.Context, id string, onChange func(LinkState)) (*Link, error) {
	if s.o.RuntimeDir == "" {
		return nil, errNoRuntime
	}
	h, err := s.store.GetHost(ctx, id)
	if err != nil {
		return nil, err
	}
	remote, err := s.Start(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := ensureHostsDir(s.o.RuntimeDir); err != nil {
		return nil, err
	}
	l := s.newLink(h, remote, onChange)
	go l.Run(ctx)
	return l, nil
}

// newLink is h's link to its core's socket remote ("": started by its
// first attempt), its changes stored on h.
func (s *Service) newLink(h Host, remote string, onChange func(LinkState)) *Link {
	if onChange == nil {
		onChange = func(LinkState) {}
	}
	// Named by a short hash of the id: macOS limits a socket path to 104
	// bytes and its runtime dir is long.
	local := filepath.Join(s.o.RuntimeDir, "hosts", shortHash(h.ID)+".sock")
	l := NewLink(s.o.SSH, h.ID, h.Target, remote, local, s.log, func(st LinkState) {
		s.linkChanged(h.ID, st)
		onChange(st)
	})
	// After a drop the host's core may be gone (a reboot): start it again
	// (a no-op when it runs) before the next ssh.
	id := h.ID
	l.prepare = func(ctx context.Context) (string, error) { return s.Start(ctx, id) }
	return l
}

// linkChanged records a link's up (running, seen now) or down
// (unreachable, why) on the host, for the list and hosts.changed.
func (s *Service) linkChanged(id string, st LinkState) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	h, err := s.store.GetHost(ctx, id)
	if err != nil {
		return
	}
	if st.Up {
		h.Status, h.Note, h.LastSeen = StatusRunning, "", time.Now()
	} else {
		h.Status, h.Note = StatusUnreachable, "the link is down; reconnecting"
		if st.Err != nil {
			h.Note = st.Err.Error()
		}
	}
	if _, err := s.store.UpdateHost(ctx, h); err == nil {
		s.changed()
	}
}

var errNoRuntime = errors.New("hosts: no runtime dir for the forwarded socket")

// ensureHostsDir makes the 0700 folder of the forwarded sockets.
func ensureHostsDir(runtimeDir string) error {
	return paths.EnsureRuntimeDir(filepath.Join(runtimeDir, "hosts"))
}

func (s *Service) changed() {
	if s.o.Changed != nil {
		s.o.Changed()
	}
}

func (s *Service) logFail(op, target string, err error) {
	var e *Error
	if errors.As(err, &e) {
		s.log.Warn("hosts: "+op+" failed", "target", target, "problem", e.Problem, "detail", e.Detail)
		return
	}
	s.log.Warn("hosts: "+op+" failed", "target", target, "err", err)
}
