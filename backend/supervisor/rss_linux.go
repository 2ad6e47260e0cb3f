package supervisor

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// memoryOf sums the resident memory (from /proc) of the shim pid and of
// every process in the agent's process group (the agent leads its own
// group; tool subprocesses and helpers it spawned stay in it).
func memoryOf(shimPid, agentPid int) int64 {
	total := rssOf(shimPid)
	if agentPid <= 0 {
		return total
	}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil || pid == shimPid {
			continue
		}
		if pgrpOf(pid) == agentPid {
			total += rssOf(pid)
		}
	}
	return total
}

// rssOf is a process's resident set in bytes (0 if it is gone).
func rssOf(pid int) int64 {
	if pid <= 0 {
		return 0
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}

// pgrpOf reads a process's group id from /proc/<pid>/stat (the field
// after the parenthesized command, which may itself hold spaces).
func pgrpOf(pid int) int {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 3 {
		return 0
	}
	pg, _ := strconv.Atoi(f[2])
	return pg
}
