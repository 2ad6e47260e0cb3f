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
	"syscall"

	"github.com/hermesdesk/hermesdesk/backend/agents"
	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// Exit codes of `hermesdesk shim`.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
	exitOwned = 3 // another shim owns the run; nothing was done
)

// Main is `hermesdesk shim --spec <path>`; it returns the exit code. The
// supervisor starts it detached (its own session, stdio to the run's log).
func Main(args []string) int {
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
	logPath := filepath.Join(control.RunDir(spec.DataDir, spec.RunID), control.LogFile)
	logf, err := os.OpenFile(logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hermesdesk shim: log:", err)
		return exitError
	}
	defer logf.Close()
	log := slog.New(slog.NewTextHandler(logf, &slog.HandlerOptions{Level: slog.LevelInfo}))

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
		LogWriter:   logf,
		Stop:        stop,
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
