package stack

import (
	"os"

	"github.com/hermesdesk/hermesdesk/backend/hosts"
	"github.com/hermesdesk/hermesdesk/backend/journal"
	"github.com/hermesdesk/hermesdesk/backend/paths"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/backend/version"
)

// openHosts connects the remote hosts (docs/ARCHITECTURE.md §Hosts) to
// the service: the journal keeps them, the person's ssh reaches them, and
// their changes go on the watch bus.
func openHosts(j *journal.Store, svc *service.Service, o Options) *hosts.Service {
	hs, err := hosts.New(j, hosts.Options{
		SSH: hosts.SSHFromEnv(os.Getenv), Executable: o.Executable, Version: version.Version,
		RuntimeDir: paths.RuntimeDir(o.DataDir), Changed: svc.HostsChanged,
		Log: o.Log.With("component", "hosts"),
	})
	if err != nil {
		o.Log.Warn("stack: remote hosts unavailable", "err", err)
		return nil
	}
	svc.SetHosts(hs)
	return hs
}
