package shim

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"

	"github.com/hermesdesk/hermesdesk/backend/agents"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// Exit codes of `hermesdesk shim`.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
	exitOwned = control.ExitOwned // another shim owns the run; nothing was done
)

// Main is `hermesdesk shim --spec <path>`; it returns the exit code. The
// supervisor starts it detached (its own session, stdio to the run's log).
func Main(args []string) int {
	control.DropOneProc() // the agents get the scheduler's default
	fs := flag.NewFlagSet("shim", flag.ContinueOnError)
	specPath := fs.String("spec", "", "the run's spec file (written by the supervisor)")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if *specPath == "" {
		fmt.Fprintln(os.Stderr, "hermesdesk shim: --spec is required")
		return exitUsage
	}
	spec, err := control.ReadSpec(*specPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hermesdesk shim:", err)
		return exitUsage
	}
	logf, err := openRunLog(spec)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hermesdesk shim:", err)
		return exitError
	}
	// A warm shim serves later runs too: each run's log gets what the shim
	// and the agent say while it is served.
	logw := &swapWriter{f: logf}
	defer logw.close()
	log := slog.New(slog.NewTextHandler(logw, &slog.HandlerOptions{Level: slog.LevelInfo}))

	self, err := os.Executable()
	if err != nil {
		log.Error("own executable", "err", err)
		return exitError
	}
	// Detached: a hangup of some terminal is not ours to act on.
	signal.Ignore(syscall.SIGHUP)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	stop := make(chan struct{})
	go func() {
		<-sigs
		close(stop)
	}()

	err = Serve(context.Background(), spec, Deps{
		Registry:    agents.Default(agents.Config{Executable: self}),
		OpenJournal: OpenJournal,
		Log:         log,
		LogWriter:   logw,
		Stop:        stop,
		OnRun: func(next control.Spec) {
			if f, err := openRunLog(next); err == nil {
				if err := redirectStdio(f); err != nil {
					log.Warn("stdout and stderr stay in the first run's log", "err", err)
				}
				logw.swap(f)
			} else {
				log.Warn("next run's log", "err", err)
			}
		},
	})
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, ErrOwned):
		log.Warn("not serving", "err", err)
		return exitOwned
	default:
		log.Error("shim failed", "err", err)
		return exitError
	}
}

func openRunLog(spec control.Spec) (*os.File, error) {
	p := filepath.Join(control.RunDir(spec.DataDir, spec.RunID), control.LogFile)
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("log: %w", err)
	}
	return f, nil
}

// swapWriter is the shim's log: the current run's log file.
type swapWriter struct {
	mu sync.Mutex
	f  *os.File
}

func (w *swapWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.f.Write(p)
}

func (w *swapWriter) swap(f *os.File) {
	w.mu.Lock()
	old := w.f
	w.f = f
	w.mu.Unlock()
	old.Close()
}

func (w *swapWriter) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.f.Close()
}
