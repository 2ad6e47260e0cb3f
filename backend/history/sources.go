package history

import (
	"os"
	"time"
)

// Source is one agent's history found on this machine, as Settings →
// History and `hermesdesk history ls` show it.
type Source struct {
	ID         string    `json:"id"` // the agent id; POST /api/history/import {source}
	Name       string    `json:"name"`
	Root       string    `json:"root"`
	Sessions   int       `json:"sessions"`
	LastUpdate time.Time `json:"last_update,omitempty"`
	Mirror     bool      `json:"mirror"`
	Errors     []string  `json:"errors,omitempty"`
}

// Find lists every format's source under the person's environment; an
// agent never used here has no source.
func Find(getenv func(string) string, home string) []Source {
	var out []Source
	for _, f := range Formats() {
		if src, ok := FindOne(f, getenv, home); ok {
			out = append(out, src)
		}
	}
	return out
}

// FindOne is f's source, if its root exists.
func FindOne(f Format, getenv func(string) string, home string) (Source, bool) {
	root := f.Root(getenv, home)
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return Source{}, false
	}
	src := Source{ID: f.Agent(), Name: agentNames[f.Agent()], Root: root}
	files, err := f.Discover(root)
	if err != nil {
		src.Errors = append(src.Errors, err.Error())
	}
	src.Sessions = len(files)
	for _, p := range files {
		if t, err := modTime(p); err == nil && t.After(src.LastUpdate) {
			src.LastUpdate = t.UTC()
		}
	}
	return src, true
}

// FormatOf is the format of a source id.
func FormatOf(id string) (Format, bool) {
	for _, f := range Formats() {
		if f.Agent() == id {
			return f, true
		}
	}
	return nil, false
}
