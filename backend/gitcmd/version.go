package gitcmd

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// minMinor is the oldest git 2.x this package trusts: 2.32 honours
// GIT_CONFIG_GLOBAL (2.31 brought GIT_CONFIG_COUNT). An older git would
// read the person's global config and ignore the overrides.
const minMinor = 32

var version struct {
	mu     sync.Mutex
	known  bool  // the answer below is final
	tooOld error // nil: recent enough
}

// checkVersion refuses a git too old to take the overrides. The answer is
// kept once git answered; a git that did not start (missing, or the
// context ended) is asked again next time.
func checkVersion(ctx context.Context) error {
	version.mu.Lock()
	defer version.mu.Unlock()
	if version.known {
		return version.tooOld
	}
	out, err := run(ctx, "", baseEnv(nil), nil, []string{"version"}, 0)
	if err != nil {
		return fmt.Errorf("gitcmd: git did not start: %w", err)
	}
	version.known = true
	if !recentEnough(string(out)) {
		version.tooOld = fmt.Errorf("gitcmd: %s is too old: Hermes Desk needs git 2.%d or newer to run it safely", strings.TrimSpace(string(out)), minMinor)
	}
	return version.tooOld
}

// recentEnough parses "git version 2.39.5" (also "2.39.5.windows.1",
// "2.39.3 (Apple Git-146)").
func recentEnough(out string) bool {
	f := strings.Fields(out)
	if len(f) < 3 {
		return false
	}
	parts := strings.SplitN(f[2], ".", 3)
	if len(parts) < 2 {
		return false
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return false
	}
	return major > 2 || (major == 2 && minor >= minMinor)
}
