package workspaces

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// IncludeFile names, in gitignore syntax, the ignored files of the main
// checkout (.env, local config) a new worktree gets a copy of.
const IncludeFile = ".worktreeinclude"

// Setup states.
const (
	SetupNone    = "none"
	SetupRunning = "running"
	SetupDone    = "done"
	SetupFailed  = "failed"
)

// maxSetupOutput is how much of a setup script's output is kept: its head
// and its tail, where the error usually is.
const maxSetupOutput = 256 << 10

// setupTimeout bounds a setup script (an npm install can be long).
var setupTimeout = 20 * time.Minute

// includedFiles lists the files of the main checkout at top that
// .worktreeinclude names and git ignores: only those are copied (a tracked
// file is in the worktree already).
func includedFiles(ctx context.Context, top string) ([]string, error) {
	if _, err := os.Stat(filepath.Join(top, IncludeFile)); err != nil {
		return nil, nil
	}
	out, err := gitcmd.Output(ctx, top, "ls-files", "-z", "--others", "--ignored", "--exclude-from="+filepath.Join(top, IncludeFile))
	if err != nil {
		return nil, err
	}
	var named []string
	for _, p := range strings.Split(out, "\x00") {
		if p != "" {
			named = append(named, p)
		}
	}
	if len(named) == 0 {
		return nil, nil
	}
	res, err := gitcmd.Run(ctx, gitcmd.Cmd{Dir: top, Args: []string{"check-ignore", "-z", "--stdin"},
		Stdin: strings.NewReader(strings.Join(named, "\x00") + "\x00")})
	if err != nil && len(res) == 0 {
		// check-ignore exits 1 when nothing is ignored.
		return nil, nil
	}
	var list []string
	for _, p := range strings.Split(string(res), "\x00") {
		if p != "" {
			list = append(list, p)
		}
	}
	return list, nil
}

// copyFile copies one file (a symlink as a symlink) keeping its mode; an
// existing destination is left as it is.
func copyFile(src, dst string) error {
	if _, err := os.Lstat(dst); err == nil {
		return nil
	}
	info, err := os.Lstat(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if info.Mode()&os.ModeSymlink != 0 {
		target, err := os.Readlink(src)
		if err != nil {
			return err
		}
		return os.Symlink(target, dst)
	}
	if !info.Mode().IsRegular() {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, info.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// readSetupFiles reads the setup files present in dir.
func readSetupFiles(dir string) map[string][]byte {
	files := map[string][]byte{}
	for _, name := range SetupFiles {
		if data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name))); err == nil {
			files[name] = data
		}
	}
	return files
}

// RunSetup is the setup step of a new worktree: the .worktreeinclude
// files copied from the main checkout at top, then the setup script (from
// SetupFiles) run in the worktree with the workspace's environment. Its
// status and output are journaled; a failure is recorded and said while
// the workspace stays usable.
func (m *Manager) RunSetup(ctx context.Context, w run.Workspace, top string) run.Workspace {
	var notes []string
	files, err := includedFiles(ctx, top)
	if err != nil {
		notes = append(notes, "The files named in .worktreeinclude could not be listed: "+err.Error())
	}
	copied := 0
	for _, p := range files {
		rel := filepath.FromSlash(p)
		if err := copyFile(filepath.Join(top, rel), filepath.Join(w.Path, rel)); err != nil {
			notes = append(notes, fmt.Sprintf("%s could not be copied: %v", p, err))
			continue
		}
		copied++
	}
	setup, err := ChooseSetup(readSetupFiles(w.Path))
	if err != nil {
		notes = append(notes, err.Error())
	}
	if setup.Script == "" {
		status := SetupNone
		if err != nil {
			status = SetupFailed
		}
		return m.saveSetup(ctx, w, func(w *run.Workspace) {
			w.SetupStatus = status
			w.SetupOutput = fmt.Sprintf("%d file(s) copied from .worktreeinclude; no setup script.\n", copied)
			if len(notes) > 0 {
				w.Note = strings.Join(notes, " ")
			}
		})
	}
	w = m.saveSetup(ctx, w, func(w *run.Workspace) { w.SetupSource, w.SetupStatus = setup.Source, SetupRunning })
	out, runErr := runScript(ctx, w, setup.Script, m.setupProgress(ctx, w.ID))
	status := SetupDone
	if runErr != nil {
		status = SetupFailed
		notes = append(notes, "The setup script from "+setup.Source+" failed ("+runErr.Error()+"); the worktree is usable, see its output.")
	}
	m.log.Info("workspace setup ran", "workspace", w.ID, "source", setup.Source, "status", status)
	return m.saveSetup(context.WithoutCancel(ctx), w, func(w *run.Workspace) {
		w.SetupStatus = status
		w.SetupOutput = fmt.Sprintf("%d file(s) copied from .worktreeinclude.\n$ (%s)\n%s", copied, setup.Source, out)
		if len(notes) > 0 {
			w.Note = strings.Join(notes, " ")
		}
	})
}

// saveSetup writes the setup fields onto the workspace as it is now in
// the journal (an archive may have happened meanwhile), under the
// manager's lock; w is returned when it cannot be recorded.
func (m *Manager) saveSetup(ctx context.Context, w run.Workspace, set func(*run.Workspace)) run.Workspace {
	m.mu.Lock()
	defer m.mu.Unlock()
	cur, err := m.store.GetWorkspace(ctx, w.ID)
	if err == nil {
		set(&cur)
		cur, err = m.save(ctx, cur)
	}
	if err != nil {
		m.log.Warn("workspace setup could not be recorded", "workspace", w.ID, "err", err)
		return w
	}
	return cur
}

// runScript runs script with sh in the worktree, with the workspace's
// environment on top of the app's, and returns its combined output (head
// and tail kept when long). While it runs, progress hears the output's
// tail (streamSetup); it is not called once runScript has returned.
func runScript(ctx context.Context, w run.Workspace, script string, progress func(tail string)) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, setupTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	cmd.Dir = w.Path
	cmd.Env = append(os.Environ(), Env(w)...)
	buf := newSetupOutput()
	cmd.Stdout, cmd.Stderr = buf, buf
	cmd.WaitDelay = 2 * time.Second
	stop := streamSetup(buf, progress)
	err := cmd.Run()
	stop()
	out := buf.String()
	if len(out) > maxSetupOutput {
		half := maxSetupOutput / 2
		out = out[:half] + "\n… (output cut) …\n" + out[len(out)-half:]
	}
	if ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return out, fmt.Errorf("it ran longer than %s and was stopped", setupTimeout)
	}
	return out, err
}
