// Package runprocs ends the shims and agents that a test's runs started.
// Shims are detached on purpose (they outlive the app), so nothing else
// reaches them when a test ends; a test that left one running would leak it
// and race its temp dir's removal.
package runprocs

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/shim/control"
)

// KillAll SIGKILLs every agent process group and shim recorded in dataDir's
// bootstrap files, and every process whose command line names dataDir (a
// shim still starting, before its bootstrap file exists, runs from
// dataDir/bin with a spec under dataDir/runs), then waits (up to 5 s) until
// they are gone, so the caller may remove the data dir at once.
func KillAll(dataDir string) {
	// Twice: a shim caught starting may have spawned its agent meanwhile.
	for i := 0; i < 2; i++ {
		killOnce(dataDir)
	}
}

func killOnce(dataDir string) {
	dirs, _ := filepath.Glob(filepath.Join(dataDir, "runs", "*"))
	pids := naming(dataDir)
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	for _, d := range dirs {
		b, err := control.ReadBootstrap(dataDir, filepath.Base(d))
		if err != nil {
			continue
		}
		if b.AgentPid > 0 {
			_ = syscall.Kill(-b.AgentPid, syscall.SIGKILL)
			_ = syscall.Kill(b.AgentPid, syscall.SIGKILL)
			pids = append(pids, b.AgentPid)
		}
		if b.Pid > 0 {
			_ = syscall.Kill(b.Pid, syscall.SIGKILL)
			pids = append(pids, b.Pid)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for _, pid := range pids {
		for alive(pid) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// Alive reports whether pid exists and is not a zombie (a killed child of
// the test process stays a zombie until reaped, but writes nothing more).
func Alive(pid int) bool { return alive(pid) }

func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	// The state follows the command name, which is in parentheses.
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || (stat[i+2] != 'Z' && stat[i+2] != 'X')
}

// isGit: the command line's program is git.
func isGit(cmdline []byte) bool {
	argv0, _, _ := bytes.Cut(cmdline, []byte{0})
	return filepath.Base(string(argv0)) == "git"
}

// naming lists the processes (other than this one) whose command line
// contains dir, and the git processes working in it.
func naming(dir string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && bytes.Contains(cmdline, []byte(dir)) {
			pids = append(pids, pid)
			continue
		}
		// A shim's git (its own process group) writing a checkpoint into
		// the data dir names it only in its GIT_* variables.
		if env, err := os.ReadFile("/proc/" + e.Name() + "/environ"); err == nil && isGit(cmdline) &&
			(bytes.Contains(env, []byte("GIT_DIR="+dir)) || bytes.Contains(env, []byte("GIT_OBJECT_DIRECTORY="+dir)) ||
				bytes.Contains(env, []byte("GIT_INDEX_FILE="+dir))) {
			pids = append(pids, pid)
		}
	}
	return pids
}
