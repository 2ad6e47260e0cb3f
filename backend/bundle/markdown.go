package bundle

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// markdownDiffLines bounds the diff shown per file in Markdown.
const markdownDiffLines = 200

// Markdown renders the bundle for people: each turn's message and answer,
// its tool calls in one line each and its changes with their diffs.
func Markdown(b Bundle) string {
	m := b.Manifest
	var w strings.Builder
	title := m.Session.Title
	if title == "" {
		title = "Untitled session"
	}
	fmt.Fprintf(&w, "# %s\n\n", oneLine(title))
	fmt.Fprintf(&w, "- Agent: %s\n", orDash(m.Session.Agent))
	if m.Project.Name != "" {
		fmt.Fprintf(&w, "- Project: %s", oneLine(m.Project.Name))
		if m.Project.Workspace != "" {
			fmt.Fprintf(&w, " (`%s`)", m.Project.Workspace)
		}
		w.WriteString("\n")
	}
	fmt.Fprintf(&w, "- Exported: %s\n", m.ExportedAt.UTC().Format("2006-01-02 15:04 UTC"))
	msgs := map[string]run.Message{}
	for _, msg := range m.Messages {
		msgs[msg.ID] = msg
	}
	for _, r := range m.Runs {
		w.WriteString("\n---\n\n")
		if u, ok := msgs[r.UserMessageID]; ok {
			fmt.Fprintf(&w, "## You\n\n%s\n\n", strings.TrimSpace(u.Content))
		}
		head := "## " + orDash(r.Agent)
		if r.Model != "" {
			head += " (" + r.Model + ")"
		}
		w.WriteString(head + "\n\n")
		writeActivity(&w, b.Events[r.ID])
		if a, ok := msgs[r.AssistantMessageID]; ok && strings.TrimSpace(a.Content) != "" {
			w.WriteString(strings.TrimSpace(a.Content) + "\n\n")
		}
		if r.Status != "" && r.Status != run.StatusCompleted {
			fmt.Fprintf(&w, "_Run %s", r.Status)
			if r.Error != "" {
				fmt.Fprintf(&w, ": %s", oneLine(r.Error))
			}
			w.WriteString("_\n\n")
		}
	}
	return w.String()
}

// writeActivity lists a run's tool calls and file changes.
func writeActivity(w *strings.Builder, evs []run.Event) {
	type tool struct{ name, title, status string }
	var order []string
	tools := map[string]*tool{}
	var files []run.FileChanged
	for _, ev := range evs {
		switch ev.Type {
		case run.EventToolStarted:
			var p run.ToolStarted
			if json.Unmarshal(ev.Payload, &p) == nil && tools[p.ToolCallID] == nil {
				tools[p.ToolCallID] = &tool{name: p.Name, title: p.Title, status: "running"}
				order = append(order, p.ToolCallID)
			}
		case run.EventToolDone:
			var p run.ToolDone
			if json.Unmarshal(ev.Payload, &p) == nil && tools[p.ToolCallID] != nil {
				tools[p.ToolCallID].status = p.Status
			}
		case run.EventFileChanged:
			var p run.FileChanged
			if json.Unmarshal(ev.Payload, &p) == nil && p.Path != "" {
				files = append(files, p)
			}
		}
	}
	if len(order) > 0 {
		w.WriteString("Tool calls:\n\n")
		for _, id := range order {
			t := tools[id]
			line := "- " + oneLine(t.name)
			if t.title != "" && t.title != t.name {
				line += " — " + oneLine(t.title)
			}
			fmt.Fprintf(w, "%s (%s)\n", line, t.status)
		}
		w.WriteString("\n")
	}
	files = netChanges(files)
	if len(files) == 0 {
		return
	}
	added, removed := 0, 0
	for _, f := range files {
		added, removed = added+f.Added, removed+f.Removed
	}
	fmt.Fprintf(w, "Changes: %d %s changed, +%d −%d\n\n", len(files), plural(len(files), "file", "files"), added, removed)
	for _, f := range files {
		fmt.Fprintf(w, "- `%s` %s", f.Path, orDash(f.Action))
		switch {
		case f.Binary:
			w.WriteString(" (binary)\n")
			continue
		case f.Diff == "":
			w.WriteString("\n")
			continue
		}
		fmt.Fprintf(w, " +%d −%d\n\n", f.Added, f.Removed)
		lines := strings.Split(strings.TrimSuffix(f.Diff, "\n"), "\n")
		cut := len(lines) > markdownDiffLines
		if cut {
			lines = lines[:markdownDiffLines]
		}
		fence := "```"
		for strings.Contains(f.Diff, fence) {
			fence += "`"
		}
		fmt.Fprintf(w, "  %sdiff\n", fence)
		for _, l := range lines {
			w.WriteString("  " + l + "\n")
		}
		fmt.Fprintf(w, "  %s\n", fence)
		if cut || f.Truncated {
			w.WriteString("  (diff shortened)\n")
		}
		w.WriteString("\n")
	}
}

// netChanges keeps one entry per file, as the Changes view does: the
// workspace snapshot's over an agent's edit, else the latest with a diff.
func netChanges(in []run.FileChanged) []run.FileChanged {
	var out []run.FileChanged
	at := map[string]int{}
	for _, f := range in {
		i, seen := at[f.Path]
		if !seen {
			at[f.Path] = len(out)
			out = append(out, f)
			continue
		}
		prev := out[i]
		switch {
		case prev.Source == run.SourceWorkspace && f.Source != run.SourceWorkspace:
		case f.Source == run.SourceWorkspace, f.Diff != "" || f.Binary, prev.Diff == "" && !prev.Binary:
			out[i] = f
		}
	}
	return out
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
