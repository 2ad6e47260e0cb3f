package shim

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"syscall"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/adapter/execlaunch"
)

// launcher wraps execlaunch (own process group, parent-death signal on
// Linux, stderr copied into the run's log) and reports each child's pid as
// soon as it exists — before any protocol handshake — so the bootstrap file
// names the group to kill even if this shim dies during the handshake.
type launcher struct {
	inner   execlaunch.Launcher
	onSpawn func(pid int)
}

var _ adapter.Launcher = (*launcher)(nil)

func newLauncher(stderr io.Writer, onSpawn func(int)) *launcher {
	return &launcher{inner: execlaunch.Launcher{Stderr: stderr}, onSpawn: onSpawn}
}

func (l *launcher) Launch(ctx context.Context, spec adapter.ProcSpec) (adapter.Proc, error) {
	p, err := l.inner.Launch(ctx, spec)
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.EACCES) {
			return nil, fmt.Errorf("%w: %w", adapter.ErrNotInstalled, err)
		}
		return nil, err
	}
	if l.onSpawn != nil {
		l.onSpawn(p.Pid())
	}
	return p, nil
}
