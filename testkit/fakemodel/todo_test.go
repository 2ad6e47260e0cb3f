package fakemodel

import (
	"reflect"
	"testing"
)

func TestChooseTodo(t *testing.T) {
	claude := `{"type":"object","properties":{"todos":{"type":"array","items":{"type":"object","properties":{
		"content":{"type":"string"},"status":{"type":"string","enum":["pending","in_progress","completed"]},"activeForm":{"type":"string"}}}}},"required":["todos"]}`
	opencode := `{"type":"object","properties":{"todos":{"type":"array","items":{"type":"object","properties":{
		"content":{"type":"string"},"status":{"type":"string"},"priority":{"type":"string","enum":["high","medium","low"]},"id":{"type":"string"}}}}}}`
	action := `{"type":"object","properties":{"action":{"type":"string","enum":["read","write"]},"todos":{"type":["array","null"],"items":{"type":"object","properties":{"title":{"type":"string"}}}}}}`
	tests := []struct {
		name    string
		tools   [][2]string // name, schema
		want    string
		args    map[string]any
		noMatch bool
	}{
		{name: "Claude TodoWrite", tools: [][2]string{{"Bash", `{}`}, {"TodoWrite", claude}}, want: "TodoWrite",
			args: map[string]any{"todos": []any{map[string]any{"content": "Plan it", "status": "in_progress", "activeForm": "Plan it"}}}},
		{name: "OpenCode todowrite beats todoread", tools: [][2]string{{"todoread", `{"type":"object"}`}, {"todowrite", opencode}}, want: "todowrite",
			args: map[string]any{"todos": []any{map[string]any{"content": "Plan it", "status": "Plan it", "priority": "high", "id": "1"}}}},
		{name: "an action enum picks write", tools: [][2]string{{"todo", action}}, want: "todo",
			args: map[string]any{"action": "write", "todos": []any{map[string]any{"title": "Plan it"}}}},
		{name: "Codex update_plan", tools: [][2]string{{"exec_command", `{}`}, {"update_plan", `{"type":"object","properties":{"explanation":{"type":"string"},"plan":{"type":"array","items":{"type":"object","properties":{"step":{"type":"string"},"status":{"type":"string"}}}}},"required":["plan"]}`}},
			want: "update_plan", args: map[string]any{"explanation": "Plan it", "plan": []any{map[string]any{"step": "Plan it", "status": "Plan it"}}}},
		{name: "Vibe: pydantic anyOf and $ref", tools: [][2]string{{"todo", `{"type":"object","$defs":{"TodoItem":{"type":"object","properties":{"id":{"type":"string"},"content":{"type":"string"},"status":{"$ref":"#/$defs/TodoStatus"}}},"TodoStatus":{"type":"string","enum":["pending","in_progress"]}},"properties":{"action":{"enum":["read","write"],"type":"string"},"todos":{"anyOf":[{"type":"array","items":{"$ref":"#/$defs/TodoItem"}},{"type":"null"}]}}}`}},
			want: "todo", args: map[string]any{"action": "write", "todos": []any{map[string]any{"id": "1", "content": "Plan it", "status": "in_progress"}}}},
		{name: "no todo tool", tools: [][2]string{{"Bash", `{}`}}, noMatch: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c Conversation
			for _, tool := range tt.tools {
				c.addTool(tool[0], schema(t, tool[1]))
			}
			call, ok := chooseTodo("Plan it", c, "id1")
			if ok == tt.noMatch {
				t.Fatalf("ok = %v, call %+v", ok, call)
			}
			if !tt.noMatch && (call.Name != tt.want || !reflect.DeepEqual(call.Args, tt.args)) {
				t.Fatalf("call %s %#v, want %s %#v", call.Name, call.Args, tt.want, tt.args)
			}
		})
	}
}

func TestPlanScenarioCallsTheTodoTool(t *testing.T) {
	c := Conversation{Messages: []Message{{Role: RoleUser, Text: "[scenario:plan] plan"}}}
	c.addTool("TodoWrite", schema(t, `{"type":"object","properties":{"todos":{"type":"array","items":{"type":"object","properties":{"content":{"type":"string"}}}}}}`))
	r := Plan(c, mustScenarios(t))
	if r.Tool == nil || r.Tool.Name != "TodoWrite" {
		t.Fatalf("reply %+v", r)
	}
	c.Messages = append(c.Messages, Message{Role: RoleAssistant}, Message{Role: RoleTool, Text: "ok"})
	if r := Plan(c, mustScenarios(t)); r.Tool != nil || r.Text() != "Plan written." {
		t.Fatalf("after the tool: %+v", r)
	}
}
