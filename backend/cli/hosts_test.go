//go:build unix

package cli

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	hostspkg "github.com/hermesdesk/hermesdesk/backend/hosts"
	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
	"github.com/hermesdesk/hermesdesk/testkit/sshd"
)

// hosts add|ls|rm through serve's API, the service and the stack, against
// a real sshd: a host is checked and stored, a changed host key is
// refused with the sentence, and rm forgets it.
func TestHostsCommands(t *testing.T) {
	srv := sshd.Start(t)
	t.Setenv(hostspkg.EnvSSHConfig, srv.ConfigFile)
	dir := newDataDir(t)
	s := startServe(t, dir)
	defer s.stop()
	hosts := func(args ...string) (int, string, string) {
		env, out, errOut := cliEnv(dir, nil)
		code, _ := env.Main(append([]string{"hosts"}, args...), nil)
		return code, out.String(), errOut.String()
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	bus, err := httpapi.NewLocalClient(httpapi.SocketPath(dir)).Watch(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := hosts("add", srv.Alias)
	if code != exitOK || !strings.Contains(out, "Added "+srv.Alias) {
		srv.Dump(t.Output())
		t.Fatalf("hosts add: %d %q %q", code, out, errs)
	}
	id := regexp.MustCompile(`host_[a-z0-9]+`).FindString(out)
	for m := range bus { // the snapshot first, then what changed
		if m.Type == run.WatchHostChanged && m.HostState.Host == id && m.HostState.Record != nil && m.HostState.Record.Target == srv.Alias {
			break
		}
	}
	if ctx.Err() != nil {
		t.Fatal("no host.changed with the host's record on the watch bus after an add")
	}
	code, out, _ = hosts("ls")
	if code != exitOK || !strings.Contains(out, id) || !strings.Contains(out, "ready") || !strings.Contains(out, "linux/") {
		t.Fatalf("hosts ls: %d %q", code, out)
	}
	if code, _, errs = hosts("add", srv.Alias); code != exitFail || !strings.Contains(errs, "already added") {
		t.Fatalf("adding it twice: %d %q", code, errs)
	}
	// The API's codes: a duplicate conflicts, a target that is an option is a bad request.
	api := httpapi.NewLocalClient(httpapi.SocketPath(dir))
	for _, tc := range []struct {
		target string
		status int
	}{{srv.Alias, 409}, {"-oProxyCommand=x", 400}} {
		var ae *httpapi.APIError
		err := api.Call(ctx, "POST", "/api/hosts", service.AddHostRequest{Target: tc.target}, nil)
		if !errors.As(err, &ae) || ae.Status != tc.status || ae.Message == "" {
			t.Errorf("POST /api/hosts %q: %v, want %d", tc.target, err, tc.status)
		}
	}

	srv.ChangeHostKey(t)
	if code, _, errs = hosts("add", "other@"+srv.Alias); code != exitFail || !strings.Contains(errs, "CHANGED") {
		t.Fatalf("changed host key: %d %q", code, errs)
	}
	if code, _, errs = hosts("add", "-oProxyCommand=x"); code != exitUsage {
		t.Fatalf("an option as a host: %d %q", code, errs)
	}

	if code, out, errs = hosts("rm", id); code != exitOK {
		t.Fatalf("hosts rm: %d %q %q", code, out, errs)
	}
	for m := range bus {
		if m.Type == run.WatchHostChanged && m.HostState.Host == id && m.HostState.Removed {
			break
		}
	}
	if ctx.Err() != nil {
		t.Fatal("no host.changed removed on the watch bus after rm")
	}
	if code, _, errs = hosts("rm", id); code != exitFail || !strings.Contains(errs, "not found") {
		t.Fatalf("hosts rm twice: %d %q", code, errs)
	}
	if _, out, _ = hosts("ls"); !strings.Contains(out, "No remote hosts") {
		t.Fatalf("after rm: %q", out)
	}
}
