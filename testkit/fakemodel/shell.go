package fakemodel

import (
	"sort"
	"strings"
)

// The shell tool: each agent names its own (Bash, exec_command,
// run_shell_command, terminal, Shell, bash, …) and names its command
// argument its own way (command, cmd, a string or an argv array). The
// server picks the tool from what the request offers — by a known name
// first, then by schema: any tool with a `command`/`cmd` parameter — and
// fills the other required parameters (OpenCode's bash wants a
// description). See shared/reference/acp-agents.md.

// shellNames are the shell tools of known agents, in order of preference,
// with the command argument used when the request carries no schema.
var shellNames = []struct{ name, arg string }{
	{"Bash", "command"},              // Claude Code, claude-agent-acp
	{"exec_command", "cmd"},          // Codex, codex-acp
	{"run_shell_command", "command"}, // Gemini CLI, Qwen Code
	{"terminal", "command"},          // Hermes Agent
	{"bash", "command"},              // OpenCode, Mistral Vibe, Copilot CLI
	{"Shell", "command"},             // Kimi CLI
	{"shell", "command"},
}

// commandArgs are the parameter names that take the command, in order.
var commandArgs = []string{"command", "cmd", "argv", "args"}

// shellWords rank tools found by schema alone: a tool named like a shell
// beats any other tool that happens to take a `command`.
var shellWords = []string{"shell", "bash", "exec", "terminal", "command", "run"}

// chooseShell returns the call of the offered shell tool running command.
func chooseShell(command string, c Conversation, has map[string]bool, id string) (ToolCall, bool) {
	for _, t := range shellNames {
		if has[t.name] {
			arg := t.arg
			if a, ok := commandParam(c.ToolSchemas[t.name]); ok {
				arg = a
			}
			return ToolCall{ID: id, Name: t.name, Args: shellArgs(c.ToolSchemas[t.name], arg, command)}, true
		}
	}
	// By schema: the tools taking a command, shell-like names first, then
	// by name, so the choice is stable whatever order tools come in.
	var found []string
	for _, name := range c.Tools {
		if _, ok := commandParam(c.ToolSchemas[name]); ok {
			found = append(found, name)
		}
	}
	if len(found) == 0 {
		return ToolCall{}, false
	}
	sort.SliceStable(found, func(i, j int) bool {
		ri, rj := shellRank(found[i]), shellRank(found[j])
		if ri != rj {
			return ri < rj
		}
		return found[i] < found[j]
	})
	name := found[0]
	arg, _ := commandParam(c.ToolSchemas[name])
	return ToolCall{ID: id, Name: name, Args: shellArgs(c.ToolSchemas[name], arg, command)}, true
}

func shellRank(name string) int {
	lower := strings.ToLower(name)
	for i, w := range shellWords {
		if strings.Contains(lower, w) {
			return i
		}
	}
	return len(shellWords)
}

// commandParam names the parameter of a tool's JSON schema that takes the
// command: a string or an array of strings called command, cmd, argv or args
// (argv and args only as arrays: a string `args` is arguments to something).
func commandParam(schema map[string]any) (string, bool) {
	props, _ := schema["properties"].(map[string]any)
	for _, name := range commandArgs {
		p, ok := props[name].(map[string]any)
		if !ok {
			continue
		}
		switch typeOf(p) {
		case "string":
			if name == "command" || name == "cmd" {
				return name, true
			}
		case "array":
			return name, true
		}
	}
	return "", false
}

// shellArgs builds the arguments: the command (as argv `bash -lc …` when
// the parameter is an array) and a value for every other required
// parameter, so an agent that validates its input accepts the call.
func shellArgs(schema map[string]any, arg, command string) map[string]any {
	args := map[string]any{arg: command}
	props, _ := schema["properties"].(map[string]any)
	if p, ok := props[arg].(map[string]any); ok && typeOf(p) == "array" {
		args[arg] = []any{"bash", "-lc", command}
	}
	req, _ := schema["required"].([]any)
	for _, r := range req {
		name, _ := r.(string)
		p, ok := props[name].(map[string]any)
		if name == "" || name == arg || !ok {
			continue
		}
		if typeOf(p) == "string" && p["enum"] == nil {
			args[name] = "Run the scenario's command"
			continue
		}
		args[name] = fillSchema(p, 1)
	}
	return args
}

// typeOf is a schema's type in lower case; a list of types (["string",
// "null"]) gives its first non-null one.
func typeOf(schema map[string]any) string {
	switch t := schema["type"].(type) {
	case string:
		return strings.ToLower(t)
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok && s != "null" {
				return strings.ToLower(s)
			}
		}
	}
	return ""
}
