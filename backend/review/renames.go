package review

import (
	"context"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/changes"
	"github.com/hermesdesk/hermesdesk/backend/gitcmd"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// maxRenames bounds the renames paired (one git diff each); past it the
// files show as a deletion and an addition, as the snapshot diff has them.
const maxRenames = 50

// withRenames pairs the files the work moved (git's -M: at least 50%
// alike): the deletion and the addition become one "renamed" entry at the
// new path, its diff the rename's patch. Renames returns new path → old.
func withRenames(ctx context.Context, s *changes.Snapshots, from, to string, files []run.FileChanged) ([]run.FileChanged, map[string]string) {
	deleted, created := 0, 0
	for _, f := range files {
		switch f.Action {
		case "deleted":
			deleted++
		case "created":
			created++
		}
	}
	if deleted == 0 || created == 0 {
		return files, nil
	}
	out, err := gitcmd.Run(ctx, gitcmd.Cmd{Dir: s.Top(), Env: s.Env(), Config: []string{"core.quotePath=off"},
		Args: []string{"diff", "--name-status", "-z", "-M", "--relative", from, to}})
	if err != nil {
		return files, nil // named as they are: a deletion and an addition
	}
	renames := Renames(parseNameStatus(out), files)
	if len(renames) == 0 || len(renames) > maxRenames {
		return files, nil
	}
	patches := map[string]run.FileChanged{}
	for newPath, oldPath := range renames {
		p, err := gitcmd.Run(ctx, gitcmd.Cmd{Dir: s.Top(), Env: s.Env(), MaxOutput: changes.MaxDiff * 4,
			Args: []string{"diff", "-p", "-M", "--no-color", "--relative", "--src-prefix=a/", "--dst-prefix=b/",
				from, to, "--", ":(literal)" + oldPath, ":(literal)" + newPath}})
		if err != nil {
			delete(renames, newPath)
			continue
		}
		fc := run.FileChanged{Path: newPath, Action: "renamed", Source: run.SourceWorkspace}
		if strings.Contains(string(p), "\nBinary files ") || strings.Contains(string(p), "\nGIT binary patch") {
			fc.Binary = true
		} else {
			fc.Added, fc.Removed = changes.Count(string(p))
			fc.Diff, fc.Truncated = changes.Truncate(string(p), changes.MaxDiff)
		}
		patches[newPath] = fc
	}
	return PairRenames(files, renames, patches), renames
}

// statusPath is one record of `git diff --name-status -z`: its status
// letter, the path, and for a rename or copy the path it came from.
type statusPath struct {
	status   string
	from, to string
}

// parseNameStatus reads `git diff --name-status -z`: "S\0path\0", or
// "Rnn\0from\0to\0" for a rename (copies likewise).
func parseNameStatus(out []byte) []statusPath {
	f := strings.Split(string(out), "\x00")
	var recs []statusPath
	for i := 0; i < len(f); {
		st := f[i]
		if st == "" {
			i++
			continue
		}
		switch {
		case (st[0] == 'R' || st[0] == 'C') && i+2 < len(f):
			recs = append(recs, statusPath{status: st[:1], from: f[i+1], to: f[i+2]})
			i += 3
		case i+1 < len(f):
			recs = append(recs, statusPath{status: st[:1], to: f[i+1]})
			i += 2
		default:
			i++
		}
	}
	return recs
}

// Renames keeps git's renames whose two sides the file list holds as a
// deletion and an addition (new path → old path).
func Renames(recs []statusPath, files []run.FileChanged) map[string]string {
	action := map[string]string{}
	for _, f := range files {
		action[f.Path] = f.Action
	}
	out := map[string]string{}
	for _, r := range recs {
		if r.status == "R" && r.from != "" && r.to != "" && action[r.from] == "deleted" && action[r.to] == "created" {
			out[r.to] = r.from
		}
	}
	return out
}

// PairRenames replaces each renamed pair (the old path's deletion, the
// new path's addition) by the rename's entry, at the new path's place.
func PairRenames(files []run.FileChanged, renames map[string]string, patches map[string]run.FileChanged) []run.FileChanged {
	gone := map[string]bool{}
	for n, o := range renames {
		if _, ok := patches[n]; ok {
			gone[o] = true
		}
	}
	out := make([]run.FileChanged, 0, len(files))
	for _, f := range files {
		switch {
		case gone[f.Path] && f.Action == "deleted":
			continue
		case f.Action == "created":
			if p, ok := patches[f.Path]; ok {
				out = append(out, p)
				continue
			}
		}
		out = append(out, f)
	}
	return out
}
