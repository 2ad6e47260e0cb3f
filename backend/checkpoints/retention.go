package checkpoints

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Policy is how long and how much is kept (docs/ARCHITECTURE.md
// §Checkpoints): records older than MaxAge go, then the oldest until the
// disk used is at most MaxBytes. Zero fields take the defaults.
type Policy struct {
	MaxAge   time.Duration
	MaxBytes int64
}

// The defaults, and the settings that change them.
const (
	DefaultMaxAge   = 30 * 24 * time.Hour
	DefaultMaxBytes = 2 << 30

	SettingMaxAgeDays = "checkpoints.max_age_days"
	SettingMaxBytes   = "checkpoints.max_bytes"
	// SettingEnabled false: no checkpoint is taken (default true).
	SettingEnabled = "checkpoints.enabled"
	// SettingMaxFileBytes: files above it are noted, not stored (bytes;
	// default MaxFileSize).
	SettingMaxFileBytes = "checkpoints.max_file_bytes"
)

// PolicyFrom reads the policy from the settings (absent or bad: default).
func PolicyFrom(settings map[string]json.RawMessage) Policy {
	var p Policy
	var days float64
	if json.Unmarshal(settings[SettingMaxAgeDays], &days) == nil && days > 0 {
		p.MaxAge = time.Duration(days * float64(24*time.Hour))
	}
	var n int64
	if json.Unmarshal(settings[SettingMaxBytes], &n) == nil && n > 0 {
		p.MaxBytes = n
	}
	return p.withDefaults()
}

func (p Policy) withDefaults() Policy {
	if p.MaxAge <= 0 {
		p.MaxAge = DefaultMaxAge
	}
	if p.MaxBytes <= 0 {
		p.MaxBytes = DefaultMaxBytes
	}
	return p
}

// Usage is the disk the checkpoints hold: the objects only they keep (a
// file also in a branch is not counted), over every repository.
type Usage struct {
	Bytes        int64 `json:"bytes"`
	Checkpoints  int   `json:"checkpoints"`
	Repositories int   `json:"repositories"`
}

// DiskUsage measures what the kept checkpoints hold.
func DiskUsage(ctx context.Context, l Ledger) (Usage, error) {
	recs, err := l.ListCheckpoints(ctx, run.CheckpointFilter{})
	if err != nil {
		return Usage{}, fmt.Errorf("checkpoints: list the checkpoints: %w", err)
	}
	u := Usage{Checkpoints: len(recs)}
	seen := map[string]bool{}
	for _, r := range recs {
		if seen[r.GitDir] {
			continue
		}
		seen[r.GitDir] = true
		n, err := repoUsage(ctx, r.GitDir)
		if err != nil {
			slog.Warn("checkpoints: measure a repository's checkpoints", "git_dir", r.GitDir, "err", err)
			continue // gone since: holds nothing
		}
		u.Bytes += n
		u.Repositories++
	}
	return u, nil
}

// repoUsage is the disk the objects reachable only from the checkpoint
// refs of one repository use.
func repoUsage(ctx context.Context, gitDir string) (int64, error) {
	out, err := gitIn(ctx, gitDir, "rev-list", "--objects", "--disk-usage",
		"--glob=refs/hermesdesk/*", "--not", "--exclude=refs/hermesdesk/*", "--all")
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimSpace(out), 10, 64)
}

// Prune removes the records p no longer keeps, oldest first, and their
// refs; a shadow repository is then compacted (the person's own never is:
// its objects go with their next gc). It returns how many went.
func Prune(ctx context.Context, l Ledger, p Policy, now time.Time) (int, error) {
	p = p.withDefaults()
	recs, err := l.ListCheckpoints(ctx, run.CheckpointFilter{})
	if err != nil {
		return 0, fmt.Errorf("checkpoints: list the checkpoints: %w", err)
	}
	var live []run.Checkpoint
	for _, r := range recs { // oldest first
		if r.State == run.CheckpointTaking || r.State == run.CheckpointApplying {
			continue // in progress
		}
		live = append(live, r)
	}
	removed := 0
	shadows := map[string]bool{}
	remove := func(r run.Checkpoint) error {
		for _, ref := range []string{r.Ref, AfterRef(r.Ref)} {
			if _, err := gitIn(ctx, r.GitDir, "update-ref", "-d", ref); err != nil {
				slog.Warn("checkpoints: remove a checkpoint's ref", "ref", ref, "err", err)
			}
		}
		if r.Shadow {
			shadows[r.GitDir] = true
		}
		removed++
		return l.DeleteCheckpoint(ctx, r.ID)
	}
	i := 0
	for ; i < len(live) && now.Sub(live[i].CreatedAt) > p.MaxAge; i++ {
		if err := remove(live[i]); err != nil {
			return removed, err
		}
	}
	for ; i < len(live); i++ {
		u, err := DiskUsage(ctx, l)
		if err != nil {
			return removed, err
		}
		if u.Bytes <= p.MaxBytes {
			break
		}
		if err := remove(live[i]); err != nil {
			return removed, err
		}
	}
	for dir := range shadows {
		if _, err := gitIn(ctx, dir, "gc", "--quiet", "--prune=now"); err != nil {
			slog.Warn("checkpoints: compact a shadow repository", "git_dir", dir, "err", err)
		}
	}
	return removed, nil
}
