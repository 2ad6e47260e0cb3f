// Package compat is the agent compatibility table: what each real agent
// did through Hermes Desk in `make test-agents` (test/agents), kept as
// JSON (test/agents/testdata/compat.json) and written into README.md
// between the markers <!-- compat:start --> and <!-- compat:end --> by
// `go run ./test/agents/compat/gen`. See docs/ARCHITECTURE.md §Testing.
package compat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
)

// Row is one agent's findings from one run of its real test.
type Row struct {
	Agent   string `json:"agent"` // its id
	Name    string `json:"name"`
	Version string `json:"version"`
	// Tool is the shell tool the agent offered the model (and the model
	// called).
	Tool string `json:"tool"`
	// ToolRan: the command ran and its file is on disk.
	ToolRan bool `json:"tool_ran"`
	// Approval says what the approval card showed ("exact command", or
	// "shows: …", or "not asked").
	Approval   string `json:"approval"`
	ToolOutput bool   `json:"tool_output"` // the tool card has the command's output
	Warm       bool   `json:"warm"`        // a follow-up on the warm agent kept the context
	Resume     bool   `json:"resume"`      // a fresh agent resumed the session
	Models     bool   `json:"models"`      // the header got a model picker
	Modes      bool   `json:"modes"`       // the agent reported its mode
	Plan       bool   `json:"plan"`        // a plan was shown
	Usage      bool   `json:"usage"`       // token usage was reported
	Note       string `json:"note,omitempty"`
	// No date: a run that finds the same writes the same file, so only a
	// change of an agent's behaviour shows as a diff.
}

// Load reads the rows at path; a missing file is no rows.
func Load(path string) ([]Row, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the compatibility results: %w", err)
	}
	var rows []Row
	if err := json.Unmarshal(b, &rows); err != nil {
		return nil, fmt.Errorf("the compatibility results %s are not valid JSON: %w", path, err)
	}
	return rows, nil
}

// Merge replaces old rows by the new ones of the same agent and keeps the
// others (a run of one agent's test updates its row only), sorted by
// agent.
func Merge(old, fresh []Row) []Row {
	by := map[string]Row{}
	for _, r := range old {
		by[r.Agent] = r
	}
	for _, r := range fresh {
		by[r.Agent] = r
	}
	out := make([]Row, 0, len(by))
	for _, r := range by {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Agent < out[j].Agent })
	return out
}

// Join combines two findings about one agent from the same run: a
// feature seen by either is seen; b's texts win where it has them.
func Join(a, b Row) Row {
	out := b
	for _, f := range []struct {
		dst *string
		src string
	}{{&out.Name, a.Name}, {&out.Version, a.Version}, {&out.Tool, a.Tool}, {&out.Approval, a.Approval}, {&out.Note, a.Note}} {
		if *f.dst == "" {
			*f.dst = f.src
		}
	}
	out.ToolRan = a.ToolRan || b.ToolRan
	out.ToolOutput = a.ToolOutput || b.ToolOutput
	out.Warm = a.Warm || b.Warm
	out.Resume = a.Resume || b.Resume
	out.Models = a.Models || b.Models
	out.Modes = a.Modes || b.Modes
	out.Plan = a.Plan || b.Plan
	out.Usage = a.Usage || b.Usage
	return out
}

// Save writes rows as indented JSON.
func Save(path string, rows []Row) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // commands read as they are: `a > b && c`
	enc.SetIndent("", "  ")
	if err := enc.Encode(rows); err != nil {
		return fmt.Errorf("encode the compatibility results: %w", err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write the compatibility results: %w", err)
	}
	return nil
}

// Table renders rows as a Markdown table.
func Table(rows []Row) string {
	var b strings.Builder
	b.WriteString("| agent | id | version | shell tool | tool turn | approval card | tool output | warm follow-up | resume | model picker | modes | plan | usage | notes |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		approval := r.Approval
		if approval == "" {
			approval = "—"
		}
		cells := []string{r.Name, "`" + r.Agent + "`", orDash(r.Version), orDash(code(r.Tool)), mark(r.ToolRan), cell(approval),
			mark(r.ToolOutput), mark(r.Warm), mark(r.Resume), mark(r.Models), mark(r.Modes), mark(r.Plan), mark(r.Usage), cell(r.Note)}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	return b.String()
}

// Markers delimit the generated table in the README.
const (
	StartMarker = "<!-- compat:start -->"
	EndMarker   = "<!-- compat:end -->"
)

// Replace puts table between the markers of doc; an error when they are
// missing or out of order (the README is then left alone).
func Replace(doc []byte, table string) ([]byte, error) {
	s := bytes.Index(doc, []byte(StartMarker))
	e := bytes.Index(doc, []byte(EndMarker))
	if s < 0 || e < 0 || e < s {
		return nil, fmt.Errorf("the README has no %s … %s section to write the table into", StartMarker, EndMarker)
	}
	var out bytes.Buffer
	out.Write(doc[:s+len(StartMarker)])
	out.WriteString("\n" + table)
	out.Write(doc[e:])
	return out.Bytes(), nil
}

func mark(ok bool) string {
	if ok {
		return "yes"
	}
	return "no"
}

func orDash(s string) string {
	if s == "" || s == "``" {
		return "—"
	}
	return s
}

func code(s string) string { return "`" + s + "`" }

// cell keeps a free-text cell inside its table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	return strings.ReplaceAll(s, "|", `\|`)
}
