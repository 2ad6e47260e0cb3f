package remote

import "testing"

type idLink struct{ id string }

func (l idLink) Host() string        { return l.id }
func (l idLink) Socket() string      { return "" }
func (l idLink) Up() <-chan struct{} { return nil }

type namedLink struct {
	idLink
	name string
}

func (l namedLink) Name() string { return l.name }

// The reachability sentences name a host as the person wrote it (its ssh
// target), its id only when the link has no name (run.HostLabel).
func TestLinkName(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    Link
		want string
	}{
		{"an ssh link", namedLink{idLink{"host_1a2b"}, "me@build-box"}, "me@build-box"},
		{"a link with no name yet", namedLink{idLink{"host_1a2b"}, ""}, "host_1a2b"},
		{"a relay (tests)", idLink{"devbox"}, "devbox"},
	} {
		if got := linkName(tc.l); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
