// Package cli implements the `serve`, `runs` and `ask` subcommands. The
// CLI is a client of the running app (or `serve`) over the data dir's
// local API socket; `serve` is itself the supervisor, or a TCP front for
// the one already running.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
	"github.com/hermesdesk/hermesdesk/backend/paths"
)

// NotRunning is what the CLI says when no app or server answers.
const NotRunning = "Hermes Desk is not running — start it or run `hermesdesk serve`"

// Exit codes.
const (
	exitOK        = 0
	exitFail      = 1
	exitUsage     = 2
	exitCancelled = 130
)

// Env is everything a command touches, so tests can run commands
// in-process with their own output, data dir, server and signals.
type Env struct {
	Stdout, Stderr io.Writer
	// DataDir resolves the data dir (default paths.DataDir).
	DataDir func() (string, error)
	// Client returns the API client (default: the data dir's socket).
	Client func(dataDir string) *httpapi.Client
	// Signals delivers Ctrl-C; stop releases it (default os/signal).
	Signals func() (sigs <-chan os.Signal, stop func())
	// Getwd is the working directory (default os.Getwd).
	Getwd func() (string, error)
	// Ctx bounds a command (default context.Background()).
	Ctx context.Context
	// DetachWindow is how long `ask` waits for a second Ctrl-C (2 s).
	DetachWindow time.Duration
	// Executable is the hermesdesk binary for shims (serve; default self).
	Executable string
	// Ready, if set, is told serve's URL once it listens (tests).
	Ready func(url string)
}

// Default is the real environment.
func Default() *Env {
	return &Env{Stdout: os.Stdout, Stderr: os.Stderr}
}

func (e *Env) ctx() context.Context {
	if e.Ctx != nil {
		return e.Ctx
	}
	return context.Background()
}

func (e *Env) dataDir() (string, error) {
	if e.DataDir != nil {
		return e.DataDir()
	}
	return paths.DataDir()
}

func (e *Env) signals() (<-chan os.Signal, func()) {
	if e.Signals != nil {
		return e.Signals()
	}
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	return ch, func() { signal.Stop(ch) }
}

func (e *Env) getwd() (string, error) {
	if e.Getwd != nil {
		return e.Getwd()
	}
	return os.Getwd()
}

func (e *Env) detachWindow() time.Duration {
	if e.DetachWindow > 0 {
		return e.DetachWindow
	}
	return 2 * time.Second
}

// connect returns a client of the running app, or says it is not running.
func (e *Env) connect() (*httpapi.Client, int) {
	dir, err := e.dataDir()
	if err != nil {
		e.errorf("%v", err)
		return nil, exitFail
	}
	c, err := e.reach(dir)
	if err != nil {
		if errors.Is(err, httpapi.ErrNotRunning) {
			fmt.Fprintln(e.Stderr, NotRunning)
		} else {
			e.errorf("cannot reach Hermes Desk: %v", err)
		}
		return nil, exitFail
	}
	return c, exitOK
}

// reach returns a client of the app serving data dir dir once it answers.
func (e *Env) reach(dir string) (*httpapi.Client, error) {
	var c *httpapi.Client
	if e.Client != nil {
		c = e.Client(dir)
	} else {
		c = httpapi.NewLocalClient(httpapi.SocketPath(dir))
	}
	ctx, cancel := context.WithTimeout(e.ctx(), 5*time.Second)
	defer cancel()
	if err := c.Ping(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

func (e *Env) errorf(format string, args ...any) {
	fmt.Fprintf(e.Stderr, "hermesdesk: "+format+"\n", args...)
}

// apiFail prints an API error the way a person reads it.
func (e *Env) apiFail(err error) int {
	var ae *httpapi.APIError
	switch {
	case errors.As(err, &ae):
		e.errorf("%s", ae.Message)
	case errors.Is(err, httpapi.ErrNotRunning):
		fmt.Fprintln(e.Stderr, NotRunning)
	case errors.Is(err, context.Canceled):
		return exitCancelled
	default:
		e.errorf("%v", err)
	}
	return exitFail
}

// parse parses flags that may come before, between or after positional
// arguments (`runs tail RUN --after 5`).
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func newFlags(name string, e *Env, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.Stderr, "usage: %s\n", usage)
		fs.PrintDefaults()
	}
	return fs
}
