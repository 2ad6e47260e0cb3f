package acp

import (
	"al.essio.dev/pkg/shellescape"
	"bytes"
	"context"
	"errors"
	"os/exec"
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

// A sign-in command is shown as it will run: a shell reads the shown line
// back into exactly the program's words.
func TestSignInCommandReadsBackExactly(t *testing.T) {
	for _, argv := range [][]string{
		{"kimi", "login"},
		{"/opt/my agent/bin/x", "a b", ""},
		{"x", "it's"},
		{"x", "$HOME", "a;b", "`id`", "\\n"},
	} {
		line := shellescape.QuoteCommand(argv)
		got, err := exec.Command("sh", "-c", "printf '%s\\0' "+line).Output()
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Join(argv, "\x00") + "\x00"
		if string(got) != want {
			t.Errorf("%q shown as %s reads back as %q", argv, line, got)
		}
	}
}

// FuzzAuthRequired: whatever an agent puts in an auth-required answer, the
// message is one line of words, never a panic.
func FuzzAuthRequired(f *testing.F) {
	f.Add([]byte(`{"authMethods":[{"id":"login","name":"Log in","type":"terminal","args":["login"]},{"id":"k","name":"Key","type":"env_var","vars":[{"name":"K"}]}]}`), "kimi")
	f.Add([]byte(`{"authMethods":[{"id":"b","name":"Browser","_meta":{"terminal-auth":{"command":"x y","args":["a'b"]}}}]}`), "/opt/my agent")
	f.Add([]byte(`null`), "")
	f.Fuzz(func(t *testing.T, data []byte, program string) {
		rerr := &RPCError{Code: codeAuthRequired, Message: "Authentication required", Data: data}
		e := &adapter.AuthRequiredError{Agent: "A", Methods: describeAuth(authMethods(rerr, nil), []string{program})}
		msg := e.Error()
		if strings.ContainsAny(msg, "\n\r") || !strings.HasPrefix(msg, "A needs you to sign in first") {
			t.Fatalf("message %q", msg)
		}
	})
}

// FuzzInitAnswer: whatever an agent prints while its health is checked,
// reading it ends with an answer or an error, never a panic.
func FuzzInitAnswer(f *testing.F) {
	f.Add([]byte("banner\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"agentInfo\":{\"name\":\"x\",\"version\":\"1.2\"}}}\n"))
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,\"message\":\"no\"}}\n"))
	f.Add([]byte("{\"method\":\"x\",\"id\":1}\n"))
	f.Fuzz(func(t *testing.T, out []byte) {
		_ = readInitAnswer(bytes.NewReader(out))
	})
}
