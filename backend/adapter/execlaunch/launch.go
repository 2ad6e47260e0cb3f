// Package execlaunch is a plain adapter.Launcher built on os/exec: the child
// gets its own process group (so the whole tree can be signalled at once),
// dies with its parent on Linux, and has its stderr copied to a log writer.
// The shim may use it as is or wrap it; tests use it directly.
package execlaunch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
)

// Launcher starts children with exec.Cmd. The zero value discards stderr.
type Launcher struct {
	// Stderr receives the child's stderr; nil discards it.
	Stderr io.Writer
}

var _ adapter.Launcher = Launcher{}

// stderrDrain bounds how long Wait keeps copying stderr after the child has
// exited: a grandchild that inherited the pipe must not keep Wait blocked.
const stderrDrain = 2 * time.Second

// Launch starts spec. ctx only bounds the start: the child outlives it, so a
// run is never killed because some request context ended.
func (l Launcher) Launch(ctx context.Context, spec adapter.ProcSpec) (adapter.Proc, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if spec.Path == "" {
		return nil, errors.New("execlaunch: empty program path")
	}
	cmd := exec.Command(spec.Path, spec.Args...)
	cmd.Dir = spec.Dir
	cmd.Env = spec.Env
	cmd.SysProcAttr = sysProcAttr()
	cmd.WaitDelay = stderrDrain
	if l.Stderr != nil {
		cmd.Stderr = l.Stderr
	}

	// Our own pipes rather than cmd.StdoutPipe: Wait closes StdoutPipe's read
	// end as soon as the child exits, which would lose the last lines a
	// crashing agent wrote. With os.Pipe the reader sees every byte, then EOF.
	stdinR, stdinW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("execlaunch: stdin pipe: %w", err)
	}
	stdoutR, stdoutW, err := os.Pipe()
	if err != nil {
		stdinR.Close()
		stdinW.Close()
		return nil, fmt.Errorf("execlaunch: stdout pipe: %w", err)
	}
	cmd.Stdin = stdinR
	cmd.Stdout = stdoutW
	if err := cmd.Start(); err != nil {
		for _, f := range []*os.File{stdinR, stdinW, stdoutR, stdoutW} {
			f.Close()
		}
		return nil, fmt.Errorf("execlaunch: start %s: %w", spec.Path, err)
	}
	// The child holds its own copies now; closing ours makes EOF reach the
	// reader when the child (and its descendants) close stdout.
	stdinR.Close()
	stdoutW.Close()

	p := &Proc{cmd: cmd, stdin: stdinW, stdout: stdoutR, exited: make(chan struct{})}
	go p.wait()
	return p, nil
}

// Proc is a started child. Besides adapter.Proc it can Kill and Signal its
// whole process group.
type Proc struct {
	cmd    *exec.Cmd
	stdin  *os.File
	stdout *os.File

	exited   chan struct{}
	once     sync.Once
	code     int
	waitErr  error
	closeOut sync.Once
}

var _ adapter.Proc = (*Proc)(nil)

func (p *Proc) wait() {
	err := p.cmd.Wait()
	code := -1
	if st := p.cmd.ProcessState; st != nil {
		code = st.ExitCode() // -1 when killed by a signal
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		err = nil // a non-zero exit is reported through the code, not as a wait failure
	}
	p.code, p.waitErr = code, err
	close(p.exited)
}

// Stdin is the child's standard input.
func (p *Proc) Stdin() io.WriteCloser { return p.stdin }

// Stdout is the child's standard output; it reaches EOF once every holder
// of the write end has closed it.
func (p *Proc) Stdout() io.ReadCloser { return p.stdout }

// Pid is the child's pid, which is also its process group id.
func (p *Proc) Pid() int { return p.cmd.Process.Pid }

// Wait blocks until the child has exited.
func (p *Proc) Wait() (int, error) {
	<-p.exited
	return p.code, p.waitErr
}

// Exited is closed once the child has exited.
func (p *Proc) Exited() <-chan struct{} { return p.exited }

// Kill sends SIGKILL to the child's whole process group (on Windows, kills
// the child). It is a no-op once the child has exited.
func (p *Proc) Kill() error {
	select {
	case <-p.exited:
		return nil
	default:
	}
	return killGroup(p.cmd.Process)
}
