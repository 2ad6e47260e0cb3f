package fakemodel

import (
	"sort"
	"strings"
)

// The plan: a step of kind "todo" writes a one-entry plan with the
// agent's own todo tool (Claude's TodoWrite, OpenCode's todowrite, Qwen's
// todo_write, Gemini's write_todos, Codex's update_plan, …), which ACP agents report as a
// `plan` update. The tool is found by name (it has "todo" in it, a
// writing verb preferred) and its arguments are built from its schema.

// todoVerbs rank todo tools: one that writes beats one that reads.
var todoVerbs = []string{"write", "set", "update", "manage"}

// enumPrefs are the enum values chosen where offered, in order: a plan
// entry in progress, an action that writes.
var enumPrefs = []string{"in_progress", "pending", "write", "set", "update", "add"}

func chooseTodo(content string, c Conversation, id string) (ToolCall, bool) {
	var found []string
	for _, name := range c.Tools {
		if (strings.Contains(strings.ToLower(name), "todo") || name == "update_plan") && c.ToolSchemas[name] != nil {
			found = append(found, name)
		}
	}
	if len(found) == 0 {
		return ToolCall{}, false
	}
	rank := func(name string) int {
		lower := strings.ToLower(name)
		for i, v := range todoVerbs {
			if strings.Contains(lower, v) {
				return i
			}
		}
		return len(todoVerbs)
	}
	sort.SliceStable(found, func(i, j int) bool {
		if ri, rj := rank(found[i]), rank(found[j]); ri != rj {
			return ri < rj
		}
		return found[i] < found[j]
	})
	name := found[0]
	root := c.ToolSchemas[name]
	args, _ := todoValue(root, root, content, 0).(map[string]any)
	return ToolCall{ID: id, Name: name, Args: args}, true
}

// todoValue fills a schema for a plan of one entry: arrays get one item,
// strings the entry's text (ids "1", preferred enum values), numbers 1.
// Pydantic's schemas (Mistral Vibe) come with anyOf alternatives and $refs
// into the root's $defs.
func todoValue(root, s map[string]any, content string, depth int) any {
	if depth > 6 {
		return nil
	}
	s = resolveSchema(root, s)
	switch typeOf(s) {
	case "array":
		items, _ := s["items"].(map[string]any)
		return []any{todoValue(root, items, content, depth+1)}
	case "string":
		if e, ok := s["enum"].([]any); ok && len(e) > 0 {
			for _, p := range enumPrefs {
				for _, v := range e {
					if v == p {
						return v
					}
				}
			}
			return e[0]
		}
		return content
	case "integer", "number":
		return 1
	case "boolean":
		return false
	default:
		out := map[string]any{}
		props, _ := s["properties"].(map[string]any)
		for k, v := range props {
			ps, ok := v.(map[string]any)
			if !ok {
				continue
			}
			if typeOf(resolveSchema(root, ps)) == "string" && k == "id" {
				out[k] = "1"
				continue
			}
			out[k] = todoValue(root, ps, content, depth+1)
		}
		return out
	}
}

// resolveSchema follows a $ref into the root's $defs (or definitions) and
// takes the first non-null alternative of an anyOf/oneOf.
func resolveSchema(root, s map[string]any) map[string]any {
	for range 8 {
		if ref, ok := s["$ref"].(string); ok {
			name := ref[strings.LastIndex(ref, "/")+1:]
			next := map[string]any(nil)
			for _, key := range []string{"$defs", "definitions"} {
				if defs, ok := root[key].(map[string]any); ok {
					if d, ok := defs[name].(map[string]any); ok {
						next = d
					}
				}
			}
			if next == nil {
				return s
			}
			s = next
			continue
		}
		alts, ok := s["anyOf"].([]any)
		if !ok {
			alts, ok = s["oneOf"].([]any)
		}
		if !ok {
			return s
		}
		var pick map[string]any
		for _, a := range alts {
			if m, ok := a.(map[string]any); ok && typeOf(m) != "null" {
				pick = m
				break
			}
		}
		if pick == nil {
			return s
		}
		s = pick
	}
	return s
}
