package service

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/errdefs"
	"github.com/hermesdesk/hermesdesk/backend/hosts"
)

// Remote hosts (docs/ARCHITECTURE.md §Hosts): the service is the one door
// the API and the CLI reach backend/hosts through.

// HostManager adds, lists and removes hosts (backend/hosts.Service).
type HostManager interface {
	Add(ctx context.Context, target string) (hosts.Host, error)
	List(ctx context.Context) ([]hosts.Host, error)
	Remove(ctx context.Context, id string) error
}

// AddHostRequest is POST /api/hosts.
type AddHostRequest struct {
	// Target is user@host or a Host alias of ~/.ssh/config.
	Target string `json:"target"`
}

// SetHosts connects the hosts manager (the stack does) and puts its
// hosts on the watch bus.
func (s *Service) SetHosts(h HostManager) {
	s.hosts = h
	s.HostsChanged()
}

// HostsChanged reads the stored hosts again and tells each one added,
// changed or removed on the watch bus as host.changed, with the
// reachability its follower last told (docs/ARCHITECTURE.md §Hosts).
func (s *Service) HostsChanged() {
	if s.hosts == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	list, err := s.hosts.List(ctx)
	if err != nil {
		s.log.Warn("service: cannot read the hosts for the watch bus", "err", err)
		return
	}
	s.bus.storedHosts(list)
}

var errNoHosts = &Error{Code: CodeUnavailable, Message: "remote hosts are not available in this process"}

// Hosts lists the remote hosts.
func (s *Service) Hosts(ctx context.Context) ([]hosts.Host, error) {
	if s.hosts == nil {
		return nil, errNoHosts
	}
	list, err := s.hosts.List(ctx)
	return list, s.classify(ctx, "list hosts", "host", err)
}

// AddHost checks a host over ssh and adds it; a failed check comes back
// as its sentence (unreachable, auth, host key, home, platform).
func (s *Service) AddHost(ctx context.Context, req AddHostRequest) (hosts.Host, error) {
	if s.hosts == nil {
		return hosts.Host{}, errNoHosts
	}
	h, err := s.hosts.Add(ctx, req.Target)
	return h, s.hostError(ctx, "add host", err)
}

// RemoveHost forgets a host and stops its core there. Refused in words
// while runs go on there as this side last heard (docs/ARCHITECTURE.md
// §Hosts): nobody here could see them end, and the core they need would
// stop.
func (s *Service) RemoveHost(ctx context.Context, id string) error {
	if s.hosts == nil {
		return errNoHosts
	}
	if n := s.bus.remoteActive(id); n > 0 {
		return &Error{Code: CodeConflict, Message: fmt.Sprintf(
			"This host still has %d %s going; let %s end or stop %s before removing the host.",
			n, plural(n, "run", "runs"), plural(n, "it", "them"), plural(n, "it", "them"))}
	}
	return s.hostError(ctx, "remove host", s.hosts.Remove(ctx, id))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// remoteActive counts host's runs this bus holds as going.
func (b *bus) remoteActive(host string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, st := range b.runs {
		if st.Host == host && !st.Status.Terminal() {
			n++
		}
	}
	return n
}

// hostError gives a host's refusal its own sentence rather than a
// class's default message.
func (s *Service) hostError(ctx context.Context, op string, err error) error {
	var he *hosts.Error
	if errors.As(err, &he) {
		s.log.Info("service: "+op+" refused", "target", he.Target, "problem", he.Problem, "detail", he.Detail)
		code := CodeBadRequest
		switch he.Problem {
		case hosts.ProblemUnreachable:
			code = CodeUnavailable
		case hosts.ProblemExists:
			code = CodeConflict
		}
		return &Error{Code: code, Message: he.Sentence, Err: err}
	}
	if errors.Is(err, errdefs.ErrNotFound) {
		return &Error{Code: CodeNotFound, Message: "host not found", Err: err}
	}
	return s.classify(ctx, op, "host", err)
}
