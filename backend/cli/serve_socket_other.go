//go:build !unix

package cli

// serveSocketOnly: a remote host must be Linux (docs/ARCHITECTURE.md §Hosts).
func (e *Env) serveSocketOnly(dataDir string, detach bool) int {
	e.errorf("serve --socket-only runs on Linux hosts only")
	return exitUsage
}
