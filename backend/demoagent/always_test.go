package demoagent

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"
)

// askingClient answers every permission request with choose and counts
// the requests; it does nothing else an ACP client does.
type askingClient struct {
	choose string
	mu     sync.Mutex
	asked  int
	text   strings.Builder
}

func (c *askingClient) RequestPermission(_ context.Context, p acpsdk.RequestPermissionRequest) (acpsdk.RequestPermissionResponse, error) {
	c.mu.Lock()
	c.asked++
	c.mu.Unlock()
	return acpsdk.RequestPermissionResponse{Outcome: acpsdk.RequestPermissionOutcome{
		Selected: &acpsdk.RequestPermissionOutcomeSelected{OptionId: acpsdk.PermissionOptionId(c.choose)}}}, nil
}

func (c *askingClient) SessionUpdate(_ context.Context, n acpsdk.SessionNotification) error {
	if m := n.Update.AgentMessageChunk; m != nil && m.Content.Text != nil {
		c.mu.Lock()
		c.text.WriteString(m.Content.Text.Text)
		c.mu.Unlock()
	}
	return nil
}

var errNotHere = errors.New("not offered by this client")

func (*askingClient) ReadTextFile(context.Context, acpsdk.ReadTextFileRequest) (acpsdk.ReadTextFileResponse, error) {
	return acpsdk.ReadTextFileResponse{}, errNotHere
}
func (*askingClient) WriteTextFile(context.Context, acpsdk.WriteTextFileRequest) (acpsdk.WriteTextFileResponse, error) {
	return acpsdk.WriteTextFileResponse{}, errNotHere
}
func (*askingClient) CreateTerminal(context.Context, acpsdk.CreateTerminalRequest) (acpsdk.CreateTerminalResponse, error) {
	return acpsdk.CreateTerminalResponse{}, errNotHere
}
func (*askingClient) KillTerminal(context.Context, acpsdk.KillTerminalRequest) (acpsdk.KillTerminalResponse, error) {
	return acpsdk.KillTerminalResponse{}, errNotHere
}
func (*askingClient) TerminalOutput(context.Context, acpsdk.TerminalOutputRequest) (acpsdk.TerminalOutputResponse, error) {
	return acpsdk.TerminalOutputResponse{}, errNotHere
}
func (*askingClient) ReleaseTerminal(context.Context, acpsdk.ReleaseTerminalRequest) (acpsdk.ReleaseTerminalResponse, error) {
	return acpsdk.ReleaseTerminalResponse{}, errNotHere
}
func (*askingClient) WaitForTerminalExit(context.Context, acpsdk.WaitForTerminalExitRequest) (acpsdk.WaitForTerminalExitResponse, error) {
	return acpsdk.WaitForTerminalExitResponse{}, errNotHere
}

// serveDemo runs the demo agent in-process over pipes and returns the
// client's side of the connection.
func serveDemo(t *testing.T, c acpsdk.Client, stateDir string) *acpsdk.ClientSideConnection {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	toAgent, fromClient := io.Pipe()
	toClient, fromAgent := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = Serve(ctx, toAgent, fromAgent, Options{StateDir: stateDir, Exit: func(int) {}})
	}()
	t.Cleanup(func() {
		cancel()
		fromClient.Close()
		toClient.Close()
		<-done
	})
	conn := acpsdk.NewClientSideConnection(c, fromClient, toClient)
	conn.SetLogger(slog.New(slog.DiscardHandler))
	return conn
}

// "Always allow" is remembered for the same action in the conversation,
// also by a later process that loads it (issue 23.17: the demo agent asked
// again every time); "Allow once" is not.
func TestAlwaysAllowIsNotAskedAgain(t *testing.T) {
	tests := []struct {
		choose    string
		wantAsked int // of three prompts: two in one process, one after a load
	}{
		{"allow-always", 1},
		{"allow-once", 3},
		{"reject-once", 3},
	}
	for _, tc := range tests {
		t.Run(tc.choose, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			dir := t.TempDir()
			c := &askingClient{choose: tc.choose}
			conn := serveDemo(t, c, dir)
			if _, err := conn.Initialize(ctx, acpsdk.InitializeRequest{ProtocolVersion: acpsdk.ProtocolVersionNumber}); err != nil {
				t.Fatal(err)
			}
			ses, err := conn.NewSession(ctx, acpsdk.NewSessionRequest{Cwd: dir, McpServers: []acpsdk.McpServer{}})
			if err != nil {
				t.Fatal(err)
			}
			prompt := func(conn *acpsdk.ClientSideConnection) {
				t.Helper()
				_, err := conn.Prompt(ctx, acpsdk.PromptRequest{SessionId: ses.SessionId, Prompt: []acpsdk.ContentBlock{acpsdk.TextBlock("/scenario approval")}})
				if err != nil {
					t.Fatal(err)
				}
			}
			ran := func(want int) {
				t.Helper()
				c.mu.Lock()
				defer c.mu.Unlock()
				if got := strings.Count(c.text.String(), "I ran the command"); tc.choose != "reject-once" && got != want {
					t.Fatalf("the command ran %d times, want %d: %q", got, want, c.text.String())
				}
				c.text.Reset()
			}
			prompt(conn)
			prompt(conn)
			ran(2)
			// A new process (a run after the warm agent retired) loads the
			// conversation and remembers its answers.
			later := serveDemo(t, c, dir)
			if _, err := later.Initialize(ctx, acpsdk.InitializeRequest{ProtocolVersion: acpsdk.ProtocolVersionNumber}); err != nil {
				t.Fatal(err)
			}
			if _, err := later.LoadSession(ctx, acpsdk.LoadSessionRequest{SessionId: ses.SessionId, Cwd: dir, McpServers: []acpsdk.McpServer{}}); err != nil {
				t.Fatal(err)
			}
			c.mu.Lock()
			c.text.Reset() // the load replayed the earlier turns
			c.mu.Unlock()
			prompt(later)
			ran(1)
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.asked != tc.wantAsked {
				t.Fatalf("asked %d times, want %d", c.asked, tc.wantAsked)
			}
		})
	}
}
