package bundle

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// markdownDiffLines bounds the diff shown per file in Markdown.
const markdownDiffLines = 200

// Markdown renders the bundle for people: each turn's message and its
// attachments, the answer, its tool calls in one line each, the
// approvals asked and what was decided, the questions asked and their
// answers, and its changes with their diffs. Raw HTML in anyone's words
// stays text (escapeHTML).
func Markdown(b Bundle) string {
	m := b.Manifest
	var w strings.Builder
	title := m.Session.Title
	if title == "" {
		title = "Untitled session"
	}
	fmt.Fprintf(&w, "# %s\n\n", text(title))
	fmt.Fprintf(&w, "- Agent: %s\n", orDash(text(m.Session.Agent)))
	if m.Project.Name != "" {
		fmt.Fprintf(&w, "- Project: %s", text(m.Project.Name))
		if m.Project.Workspace != "" {
			fmt.Fprintf(&w, " (%s)", codeSpan(m.Project.Workspace))
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
			fmt.Fprintf(&w, "## You\n\n%s\n\n", escapeHTML(strings.TrimSpace(u.Content)))
			writeAttachments(&w, u.Attachments)
		}
		head := "## " + orDash(text(r.Agent))
		if r.Model != "" {
			head += " (" + text(r.Model) + ")"
		}
		w.WriteString(head + "\n\n")
		writeActivity(&w, b.Events[r.ID])
		if a, ok := msgs[r.AssistantMessageID]; ok && strings.TrimSpace(a.Content) != "" {
			w.WriteString(escapeHTML(strings.TrimSpace(a.Content)) + "\n\n")
		}
		if r.Status != "" && r.Status != run.StatusCompleted {
			fmt.Fprintf(&w, "_Run %s", text(string(r.Status)))
			if r.Error != "" {
				fmt.Fprintf(&w, ": %s", text(r.Error))
			}
			w.WriteString("_\n\n")
		}
	}
	return w.String()
}

// writeAttachments lists the files a message carried, by name.
func writeAttachments(w *strings.Builder, paths []string) {
	if len(paths) == 0 {
		return
	}
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = codeSpan(filepath.Base(p))
	}
	fmt.Fprintf(w, "Attached: %s\n\n", strings.Join(names, ", "))
}

// writeActivity lists a run's tool calls, approvals, questions and file
// changes.
func writeActivity(w *strings.Builder, evs []run.Event) {
	writeTools(w, evs)
	writePrompts(w, evs)
	writeChanges(w, evs)
}

// writePrompts lists what the run asked the person, in order: each
// approval with its decision (and who made it when not the person in the
// window), each question with its answer.
func writePrompts(w *strings.Builder, evs []run.Event) {
	type prompt struct{ line, answer string }
	var order []string
	prompts := map[string]*prompt{}
	options := map[string][]run.ApprovalOption{}
	for _, ev := range evs {
		switch ev.Type {
		case run.EventApprovalRequest:
			var p run.ApprovalRequested
			if json.Unmarshal(ev.Payload, &p) != nil || prompts["a:"+p.ApprovalID] != nil {
				continue
			}
			line := "- Approval: " + text(p.Title)
			if p.Command != "" {
				line += " " + codeSpan(p.Command)
			}
			prompts["a:"+p.ApprovalID], options[p.ApprovalID] = &prompt{line: line}, p.Options
			order = append(order, "a:"+p.ApprovalID)
		case run.EventApprovalResolved:
			var p run.ApprovalResolved
			if json.Unmarshal(ev.Payload, &p) != nil || prompts["a:"+p.ApprovalID] == nil {
				continue
			}
			choice := p.Choice
			for _, o := range options[p.ApprovalID] {
				if o.ID == p.Choice && o.Label != "" {
					choice = o.Label
				}
			}
			a := text(choice)
			if p.By != "" && p.By != "user" {
				a += " (" + text(p.By) + ")"
			}
			prompts["a:"+p.ApprovalID].answer = a
		case run.EventClarifyRequest:
			var p run.ClarifyRequested
			if json.Unmarshal(ev.Payload, &p) != nil || prompts["c:"+p.ClarifyID] != nil {
				continue
			}
			prompts["c:"+p.ClarifyID] = &prompt{line: "- Question: " + text(p.Question)}
			order = append(order, "c:"+p.ClarifyID)
		case run.EventClarifyResolved:
			var p run.ClarifyResolved
			if json.Unmarshal(ev.Payload, &p) == nil && prompts["c:"+p.ClarifyID] != nil {
				prompts["c:"+p.ClarifyID].answer = text(p.Answer)
			}
		}
	}
	if len(order) == 0 {
		return
	}
	w.WriteString("Asked:\n\n")
	for _, id := range order {
		p := prompts[id]
		a := p.answer
		if a == "" {
			a = "_no answer_"
		}
		fmt.Fprintf(w, "%s — %s\n", p.line, a)
	}
	w.WriteString("\n")
}

// writeTools lists a run's tool calls, one line each.
func writeTools(w *strings.Builder, evs []run.Event) {
	type tool struct{ name, title, status string }
	var order []string
	tools := map[string]*tool{}
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
		}
	}
	if len(order) > 0 {
		w.WriteString("Tool calls:\n\n")
		for _, id := range order {
			t := tools[id]
			line := "- " + text(t.name)
			if t.title != "" && t.title != t.name {
				line += " — " + text(t.title)
			}
			fmt.Fprintf(w, "%s (%s)\n", line, text(t.status))
		}
		w.WriteString("\n")
	}
}

// writeChanges lists a run's changed files with their diffs.
func writeChanges(w *strings.Builder, evs []run.Event) {
	var files []run.FileChanged
	for _, ev := range evs {
		if ev.Type != run.EventFileChanged {
			continue
		}
		var p run.FileChanged
		if json.Unmarshal(ev.Payload, &p) == nil && p.Path != "" {
			files = append(files, p)
		}
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
		fmt.Fprintf(w, "- %s %s", codeSpan(f.Path), orDash(text(f.Action)))
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
