// Package demoagent is the "Demo agent (no AI)" a new user can try before
// installing a real one. It speaks real ACP over stdio through
// github.com/coder/acp-go-sdk's agent side; what it says is played from
// scenarios (scenarios/*.json, embedded), chosen by a prompt whose first
// line is "/scenario NAME" (no directive: "demo"). Only scenarios a person
// would use to try a feature ship here; the test kit (testkit/fakeagent)
// serves this same engine with its crash, hang, flood and hostile scenarios
// added (Options.Scenarios). See docs/ARCHITECTURE.md §Processes.
//
// It runs as `hermesdesk demo-agent`.
package demoagent

import (
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/hermesdesk/hermesdesk/backend/version"
)

// Main runs the demo agent on this process's stdio and returns the exit
// code. args are those after the subcommand name.
func Main(args []string) int { return Run(args, Options{}) }

// Run is Main with opts as the starting point: a host that serves more
// scenarios (the test kit) passes them in opts.Scenarios. Stderr, Exit and
// IgnoreSIGTERM are set to this process's.
func Run(args []string, opts Options) int {
	flags := flag.NewFlagSet("demo-agent", flag.ContinueOnError)
	showVersion := flags.Bool("version", false, "print the version and exit")
	list := flags.Bool("list", false, "list the scenarios and exit")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	if *showVersion {
		fmt.Println("hermesdesk demo-agent " + version.String())
		return 0
	}
	if *list {
		m, err := Scenarios(opts.Scenarios)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		for _, n := range Names(m) {
			fmt.Printf("%-10s %s\n", n, m[n].Description)
		}
		return 0
	}
	opts.Stderr = os.Stderr
	opts.Exit = os.Exit
	opts.IgnoreSIGTERM = func() { signal.Ignore(syscall.SIGTERM) }
	if err := Serve(context.Background(), os.Stdin, os.Stdout, opts); err != nil {
		fmt.Fprintln(os.Stderr, "demo-agent:", err)
		return 1
	}
	return 0
}

// Options adapt the agent to where it runs.
type Options struct {
	Stderr io.Writer
	// Exit ends the process (a scenario's exit step); nil means os.Exit, so
	// a test serving in-process must not play one.
	Exit func(code int)
	// IgnoreSIGTERM is called by an ignore_sigterm step; nil does nothing.
	IgnoreSIGTERM func()
	// StateDir is where sessions are kept; empty: demo-agent/ in the data
	// dir (see state.go).
	StateDir string
	// Scenarios holds more scenarios (*.json at its root) served beside the
	// built-in ones; a name may not repeat a built-in one.
	Scenarios fs.FS
	// ReplayAfterAnswer makes session/load answer first and replay the
	// history shortly after, as Gemini CLI 0.61.0 does; by default the
	// replay precedes the answer, as ACP prescribes.
	ReplayAfterAnswer bool
	// Auth makes the agent demand a sign-in (the test kit's auth-required
	// agent, auth.go); nil: it never does.
	Auth *Auth
	// ConfigOptions makes the agent report its settings as session config
	// options only — model, mode, thought level, a switch — as OpenCode
	// and codex-acp do, instead of the older models and modes.
	ConfigOptions bool
	// Fork offers ACP's unstable session/fork (sessionCapabilities.fork),
	// answered with a copy of the session (fork.go).
	Fork bool
}

// Serve speaks ACP on in/out until the client closes in or ctx ends.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	scenarios, err := Scenarios(opts.Scenarios)
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
	a := &agent{
		out:           &lockedWriter{w: out},
		stderr:        opts.Stderr,
		scenarios:     scenarios,
		store:         newStore(opts.StateDir),
		exit:          opts.Exit,
		ignoreTERM:    opts.IgnoreSIGTERM,
		replayAfter:   opts.ReplayAfterAnswer,
		auth:          opts.Auth,
		configOptions: opts.ConfigOptions,
		forks:         opts.Fork,
		sessions:      map[string]*session{},
		ready:         make(chan struct{}),
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
			<-ctx.Done() // an ignore_eof step: only a signal ends us
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
