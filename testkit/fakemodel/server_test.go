package fakemodel

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestAPIs(t *testing.T) {
	s := Start(t)
	tests := []struct {
		name, path, body string
		api              string
		want             []string
	}{
		{"chat stream text", "/v1/chat/completions",
			`{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"[scenario:reasoning]"}]}`,
			"chat", []string{`"reasoning_content":"The `, `"content":"Here `, `"finish_reason":"stop"`, `"prompt_tokens":10`, "data: [DONE]"}},
		{"chat tool call", "/v1/chat/completions",
			`{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"[scenario:tool]"}]}],"tools":[{"type":"function","function":{"name":"terminal"}}]}`,
			"chat", []string{`"tool_calls"`, `"name":"terminal"`, `echo hello > hello.txt`, `"finish_reason":"tool_calls"`}},
		{"chat after tool result", "/v1/chat/completions",
			`{"model":"m","messages":[{"role":"user","content":"[scenario:tool]"},{"role":"assistant","content":null},{"role":"tool","content":"ok"}],"tools":[{"type":"function","function":{"name":"terminal"}}]}`,
			"chat", []string{"Tool said: ok"}},
		{"responses stream tool", "/v1/responses",
			`{"model":"gpt-5.5","stream":true,"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"[scenario:tool]"}]}],"tools":[{"type":"function","name":"exec_command"}]}`,
			"responses", []string{"event: response.created", "event: response.output_text.delta", `"name":"exec_command"`, "event: response.completed", `"cmd\":\"echo hello`}},
		{"responses after output", "/v1/responses",
			`{"model":"gpt-5.5","stream":true,"input":[{"role":"user","content":"[scenario:tool]"},{"type":"function_call","call_id":"c"},{"type":"function_call_output","call_id":"c","output":"exit 0"}],"tools":[{"type":"function","name":"exec_command"}]}`,
			"responses", []string{"Tool said: exit 0"}},
		{"responses stream freeform apply_patch", "/v1/responses",
			`{"model":"gpt-5.5","stream":true,"input":[{"role":"user","content":"[scenario:edit]"}],"tools":[{"type":"function","name":"exec_command"},{"type":"custom","name":"apply_patch"}]}`,
			"responses", []string{"event: response.custom_tool_call_input.delta", `"type":"custom_tool_call"`, `"input":"*** Begin Patch\n*** Add File: notes.md\n`}},
		{"responses after custom tool output", "/v1/responses",
			`{"model":"gpt-5.5","input":[{"role":"user","content":"[scenario:edit]"},{"type":"custom_tool_call","call_id":"c"},{"type":"custom_tool_call_output","call_id":"c","output":"Success"}],"tools":[{"type":"custom","name":"apply_patch"}]}`,
			"responses", []string{`"type":"custom_tool_call"`, `*** Update File: notes.md`}},
		{"anthropic stream thinking", "/v1/messages?beta=true",
			`{"model":"claude","stream":true,"messages":[{"role":"user","content":[{"type":"text","text":"[scenario:reasoning]"}]}]}`,
			"anthropic", []string{"event: message_start", `"type":"thinking_delta"`, `"type":"text_delta"`, `"stop_reason":"end_turn"`, "event: message_stop"}},
		{"anthropic non-stream tool", "/v1/messages",
			`{"model":"claude","messages":[{"role":"user","content":"[scenario:tool]"}],"tools":[{"name":"Bash"}]}`,
			"anthropic", []string{`"type":"tool_use"`, `"name":"Bash"`, `"stop_reason":"tool_use"`}},
		{"anthropic tool_result", "/v1/messages",
			`{"model":"claude","messages":[{"role":"user","content":"[scenario:tool]"},{"role":"assistant","content":[{"type":"tool_use"}]},{"role":"user","content":[{"type":"tool_result","content":"fine"}]}],"tools":[{"name":"Bash"}]}`,
			"anthropic", []string{"Tool said: fine"}},
		{"gemini stream tool", "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
			`{"contents":[{"role":"user","parts":[{"text":"<ctx>"},{"text":"[scenario:tool]"}]}],"tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}]}`,
			"gemini", []string{`"functionCall"`, `"run_shell_command"`, `"finishReason":"STOP"`}},
		{"gemini router json", "/v1beta/models/flash-lite:generateContent",
			`{"contents":[{"role":"user","parts":[{"text":"x"}]}],"generationConfig":{"responseMimeType":"application/json","responseSchema":{"type":"OBJECT","properties":{"complexity_score":{"type":"INTEGER"}}}}}`,
			"gemini", []string{`complexity_score`}},
		{"chat stream tool by schema, required args filled", "/v1/chat/completions",
			`{"model":"m","stream":true,"messages":[{"role":"user","content":"[scenario:tool]"}],"tools":[{"type":"function","function":{"name":"glob","parameters":{"type":"object","properties":{"pattern":{"type":"string"}}}}},{"type":"function","function":{"name":"bash","parameters":{"type":"object","properties":{"command":{"type":"string"},"description":{"type":"string"}},"required":["command","description"]}}}]}`,
			"chat", []string{`"name":"bash"`, `\"description\":`, `"finish_reason":"tool_calls"`, "data: [DONE]"}},
		{"chat tool-less title request", "/v1/chat/completions",
			`{"model":"m","messages":[{"role":"system","content":"Generate a title"},{"role":"user","content":"[scenario:tool] create hello.txt"}]}`,
			"chat", []string{`"content":"Fake title"`, `"finish_reason":"stop"`}},
		{"chat json_object side query", "/v1/chat/completions",
			`{"model":"m","response_format":{"type":"json_object"},"messages":[{"role":"user","content":"[scenario:tool] classify"}]}`,
			"chat", []string{`"content":"{}"`}},
		{"responses tool by schema", "/v1/responses",
			`{"model":"m","input":[{"role":"user","content":"[scenario:tool]"}],"tools":[{"type":"function","name":"run","parameters":{"type":"object","properties":{"argv":{"type":"array","items":{"type":"string"}}}}}]}`,
			"responses", []string{`"name":"run"`, `{\"argv\":[\"bash\",\"-lc\",\"echo hello`}},
		{"anthropic tool by schema", "/v1/messages",
			`{"model":"claude","messages":[{"role":"user","content":"[scenario:tool]"}],"tools":[{"name":"mcp__acp__Bash","input_schema":{"type":"object","properties":{"command":{"type":"string"}}}}]}`,
			"anthropic", []string{`"name":"mcp__acp__Bash"`, `"command":"echo hello`}},
		{"error scenario", "/v1/chat/completions", `{"messages":[{"role":"user","content":"[scenario:error]"}]}`,
			"chat", []string{"fake model: scripted error"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s.Reset()
			_, out := post(t, s.URL+tt.path, tt.body)
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("response lacks %q:\n%s", w, out)
				}
			}
			reqs := s.ModelRequests()
			if len(reqs) != 1 || reqs[0].API != tt.api {
				t.Fatalf("recorded %+v", reqs)
			}
		})
	}
}

func TestErrorStatus(t *testing.T) {
	s := Start(t)
	code, _ := post(t, s.URL+"/v1/messages", `{"messages":[{"role":"user","content":"[scenario:error]"}]}`)
	if code != 400 {
		t.Fatalf("status %d, want 400", code)
	}
	resp, err := http.Head(s.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Fatalf("HEAD / = %d", resp.StatusCode)
	}
}

// A client that goes away mid-stream ends the slow stream at once rather
// than after its 30 s.
func TestSlowStreamStopsWhenClientLeaves(t *testing.T) {
	s := Start(t)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", s.URL+"/v1/chat/completions",
		strings.NewReader(`{"stream":true,"messages":[{"role":"user","content":"[scenario:slow]"}]}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 512)
	if _, err := resp.Body.Read(buf); err != nil {
		t.Fatal(err)
	}
	cancel()
	resp.Body.Close()
	closed := make(chan struct{})
	go func() { _ = s.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("server did not stop the stream")
	}
}
