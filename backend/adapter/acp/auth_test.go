package acp

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/execlaunch"
)

// The fake agent's scripted sign-in (testkit/fakeagent AuthEnv; not
// imported: it imports this package).
const fakeAuthEnv = "HERMESDESK_FAKEAGENT_AUTH"

func startWithAuth(t *testing.T, script string) (adapter.Conn, error) {
	t.Helper()
	h := newHarness(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := h.adapter().Start(ctx, adapter.StartRequest{SessionID: "s1", Workspace: h.workspace,
		Config: adapter.Config{Command: []string{fakeAgentBin, "demo-agent"},
			Env: []string{"HERMESDESK_FAKEAGENT_STATE=" + h.state, fakeAuthEnv + "=" + script}},
	}, adapter.Host{Launcher: execlaunch.Launcher{Stderr: h.log}, Log: h.log})
	if c != nil {
		t.Cleanup(func() { c.Close() })
	}
	return c, err
}

// An agent that wants a terminal login says so in words: the exact
// command, the variable, and no JSON.
func TestAuthRequiredNamesTheWaysToSignIn(t *testing.T) {
	_, err := startWithAuth(t, "terminal")
	var ar *adapter.AuthRequiredError
	if !errors.As(err, &ar) {
		t.Fatalf("Start: %v; want an AuthRequiredError", err)
	}
	msg := ar.Error()
	for _, want := range []string{"Demo agent (no AI) needs you to sign in first", "run `" + fakeAgentBin + " demo-agent login` in a terminal (Log in with your account)", "set FAKEAGENT_API_KEY", "Then Retry."} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	if strings.ContainsAny(msg, "{}") || strings.Contains(msg, "-32000") {
		t.Errorf("message shows protocol JSON: %q", msg)
	}
}

// An agent that signs in by itself is asked to (authenticate), and the
// session opens.
func TestAuthenticateIsSentForAnAgentMethod(t *testing.T) {
	c, err := startWithAuth(t, "agent")
	if err != nil {
		t.Fatalf("Start: %v; want the agent asked to sign in and the session opened", err)
	}
	if c.NativeSessionID() == "" {
		t.Fatal("no session after signing in")
	}
}

func TestShellWordsQuoteWhatNeedsIt(t *testing.T) {
	cases := map[string][]string{
		"kimi login":                     {"kimi", "login"},
		"'/opt/my agent/bin/x' 'a b' ''": {"/opt/my agent/bin/x", "a b", ""},
		`x 'it'\''s'`:                    {"x", "it's"},
		"x --flag=1 a/b@c":               {"x", "--flag=1", "a/b@c"},
		"x '$HOME' 'a;b'":                {"x", "$HOME", "a;b"},
	}
	for want, argv := range cases {
		if got := shellWords(argv); got != want {
			t.Errorf("shellWords(%q) = %s, want %s", argv, got, want)
		}
	}
}
