// Package fakeagent is a scripted ACP agent for tests and for the "Demo
// agent (no AI)" a new user can try before installing a real one. It speaks
// real ACP over stdio through github.com/coder/acp-go-sdk's agent side; what
// it says is played from scenarios (scenarios/*.json), chosen by a prompt
// whose first line is "/scenario NAME" (no directive: "demo").
//
// It runs as `hermesdesk demo-agent` (or testkit/fakeagent/cmd/fakeagent).
package fakeagent

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/hermesdesk/hermesdesk/backend/version"
)

// Main runs the agent on this process's stdio and returns the exit code.
// args are those after the subcommand name.
func Main(args []string) int {
	fs := flag.NewFlagSet("demo-agent", flag.ContinueOnError)
	showVersion := fs.Bool("version", false, "print the version and exit")
	list := fs.Bool("list", false, "list the scenarios and exit")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *showVersion {
		fmt.Println("hermesdesk demo-agent " + version.String())
		return 0
	}
	if *list {
		m, err := Scenarios()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		for _, n := range Names(m) {
			fmt.Printf("%-10s %s\n", n, m[n].Description)
		}
		return 0
	}
	err := Serve(context.Background(), os.Stdin, os.Stdout, Options{
		Stderr:        os.Stderr,
		Exit:          os.Exit,
		IgnoreSIGTERM: func() { signal.Ignore(syscall.SIGTERM) },
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "demo-agent:", err)
		return 1
	}
	return 0
}

// Options adapt the agent to where it runs.
type Options struct {
	Stderr io.Writer
	// Exit ends the process (the crash scenario); nil means os.Exit, so a
	// test serving in-process must not play "crash".
	Exit func(code int)
	// IgnoreSIGTERM is called by the hang scenario; nil does nothing.
	IgnoreSIGTERM func()
	// StateDir overrides $HERMESDESK_FAKEAGENT_STATE.
	StateDir string
}

// Serve speaks ACP on in/out until the client closes in or ctx ends.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	scenarios, err := Scenarios()
	if err != nil {
		return err
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	if opts.Exit == nil {
		opts.Exit = os.Exit
	}
	if opts.IgnoreSIGTERM == nil {
		opts.IgnoreSIGTERM = func() {}
	}
	st := newStore()
	if opts.StateDir != "" {
		st.dir = opts.StateDir
	}
	a := &agent{
		out:        &lockedWriter{w: out},
		stderr:     opts.Stderr,
		scenarios:  scenarios,
		store:      st,
		exit:       opts.Exit,
		ignoreTERM: opts.IgnoreSIGTERM,
		sessions:   map[string]*session{},
		ready:      make(chan struct{}),
	}
	// The SDK starts reading in NewAgentSideConnection, and its SetLogger is
	// not synchronized with that goroutine: hold the input back until the
	// logger is set (closing a.ready publishes it).
	conn := acpsdk.NewAgentSideConnection(a, a.out, gatedReader{r: in, open: a.ready})
	conn.SetLogger(slog.New(slog.NewTextHandler(opts.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	a.conn = conn
	close(a.ready)
	select {
	case <-conn.Done():
		if a.ignoreEOF.Load() {
			<-ctx.Done() // the hang scenario: only a signal ends us
		}
	case <-ctx.Done():
	}
	return nil
}

// gatedReader blocks reads until open is closed.
type gatedReader struct {
	r    io.Reader
	open <-chan struct{}
}

func (g gatedReader) Read(p []byte) (int, error) {
	<-g.open
	return g.r.Read(p)
}
