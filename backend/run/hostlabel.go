package run

import "strings"

// HostLabel is the one place a host is named for a person
// (docs/ARCHITECTURE.md §Remote cores): the target they typed when adding
// it (`build-box`, `me@10.0.0.5`), its id only when no target is known.
// The window's twin is frontend/src/hosts/remote.ts hostLabel.
func HostLabel(id, target string) string {
	if t := strings.TrimSpace(target); t != "" {
		return t
	}
	return id
}

// Label names the host of a bus entry for a person (HostLabel).
func (h HostState) Label() string {
	if h.Record != nil {
		return HostLabel(h.Host, h.Record.Target)
	}
	return h.Host
}
