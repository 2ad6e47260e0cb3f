package app

// Saving a file the page made (an export) where the person chooses: the
// web view cannot download a blob (the navigation guard refuses to leave
// the app, docs/ARCHITECTURE.md §Window), so the window asks with the
// native Save dialog and writes the file itself (§Bundles).

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// SavedFile is where an export went; Path "" when the person cancelled.
type SavedFile struct {
	Path string `json:"path"`
	// Shown is Path for people: the home folder as ~.
	Shown string `json:"shown"`
}

// SaveExport asks where to save filename (the native Save dialog, opening
// in the Downloads folder with that name) and writes content there.
func (d *Desktop) SaveExport(filename, content string) (SavedFile, error) {
	ui := d.app.shell.ui
	if ui.SaveFile == nil {
		return SavedFile{}, errNoWindow
	}
	home, _ := os.UserHomeDir()
	path, err := ui.SaveFile("Export", downloadsDir(home, os.Getenv, os.ReadFile), exportName(filename))
	if err != nil {
		return SavedFile{}, fmt.Errorf("the Save dialog failed: %w", err)
	}
	if path == "" {
		return SavedFile{}, nil
	}
	if err := writeReplacing(path, []byte(content)); err != nil {
		d.app.shell.log().Warn("export not saved", "err", err)
		return SavedFile{}, fmt.Errorf("could not save %s: %w", filepath.Base(path), err)
	}
	d.app.shell.log().Info("export saved", "bytes", len(content))
	return SavedFile{Path: path, Shown: tildePath(path, home)}, nil
}

// writeReplacing writes data to path through a temporary file renamed over
// it, so a failed write leaves a file the person chose to replace intact.
func writeReplacing(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := firstErr(werr, cerr, os.Chmod(tmp.Name(), 0o644)); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// downloadsDir is the folder the Save dialog opens in: the desktop's
// Downloads folder (XDG_DOWNLOAD_DIR in user-dirs.dirs), else ~/Downloads,
// else home; only a folder that exists.
func downloadsDir(home string, getenv func(string) string, readFile func(string) ([]byte, error)) string {
	config := getenv("XDG_CONFIG_HOME")
	if config == "" {
		config = filepath.Join(home, ".config")
	}
	var candidates []string
	if data, err := readFile(filepath.Join(config, "user-dirs.dirs")); err == nil {
		if dir := userDir(data, "XDG_DOWNLOAD_DIR", home); dir != "" {
			candidates = append(candidates, dir)
		}
	}
	candidates = append(candidates, filepath.Join(home, "Downloads"))
	for _, dir := range candidates {
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			return dir
		}
	}
	return home
}

// userDir reads key from a user-dirs.dirs file (lines KEY="$HOME/path" or
// KEY="/abs/path"); "" when absent or not one of those forms.
func userDir(data []byte, key, home string) string {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(k) != key {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
			return ""
		}
		v = v[1 : len(v)-1]
		switch {
		case v == "$HOME" || strings.HasPrefix(v, "$HOME/"):
			if !filepath.IsAbs(home) {
				return ""
			}
			v = home + v[len("$HOME"):]
		case !strings.HasPrefix(v, "/"):
			return ""
		}
		return filepath.Clean(v)
	}
	return ""
}

// exportName is the name the dialog offers: the export's own (the service
// names it after the session's title), never a path, never hidden.
func exportName(name string) string {
	name = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < ' ' {
			return '-'
		}
		return r
	}, name)
	name = strings.TrimLeft(strings.TrimSpace(name), ".-")
	if name == "" {
		return "session-export.md"
	}
	return name
}

// tildePath shows path with the home folder as ~.
func tildePath(path, home string) string {
	if home == "" || home == "/" {
		return path
	}
	if path == home {
		return "~"
	}
	if rest, ok := strings.CutPrefix(path, home+string(filepath.Separator)); ok {
		return "~" + string(filepath.Separator) + rest
	}
	return path
}

// ShowFolder opens the folder holding path (a saved export) in the
// desktop's file manager.
func (d *Desktop) ShowFolder(path string) error {
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("the folder %s is not there any more", tildeHome(dir))
	}
	name, args := folderOpener(runtime.GOOS, dir)
	cmd := exec.Command(name, args...)
	if err := cmd.Start(); err != nil {
		d.app.shell.log().Warn("could not open the folder", "opener", name, "err", err)
		return fmt.Errorf("could not open the folder: %w", err)
	}
	go cmd.Wait() // reaped; the file manager outlives it
	return nil
}

// folderOpener is the command that shows dir in the file manager on goos.
func folderOpener(goos, dir string) (string, []string) {
	switch goos {
	case "darwin":
		return "open", []string{dir}
	case "windows":
		return "explorer", []string{dir}
	default:
		return "xdg-open", []string{dir}
	}
}

func tildeHome(path string) string {
	home, _ := os.UserHomeDir()
	return tildePath(path, home)
}
