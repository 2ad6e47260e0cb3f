package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// textOf flattens a content field that is either a string or a list of
// parts carrying "text" (every API here uses one of the two shapes).
func textOf(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text    string          `json:"text"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Text != "" {
			b.WriteString(p.Text)
		} else if len(p.Content) > 0 {
			b.WriteString(textOf(p.Content))
		}
	}
	return b.String()
}

// OpenAI Chat Completions: Hermes Agent and any OpenAI-compatible client.

func parseChat(_ *http.Request, body []byte) (parsed, error) {
	var req struct {
		Model    string `json:"model"`
		Stream   bool   `json:"stream"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name       string         `json:"name"`
				Parameters map[string]any `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
		ResponseFormat struct {
			Type       string `json:"type"`
			JSONSchema struct {
				Schema map[string]any `json:"schema"`
			} `json:"json_schema"`
		} `json:"response_format"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return parsed{}, fmt.Errorf("chat request: %w", err)
	}
	p := parsed{Stream: req.Stream, Model: req.Model, IncludeUsage: req.StreamOptions.IncludeUsage}
	for _, m := range req.Messages {
		role := m.Role
		switch role {
		case "user", "assistant":
		case "tool", "function":
			role = RoleTool
		default:
			continue
		}
		p.Conv.Messages = append(p.Conv.Messages, Message{Role: role, Text: textOf(m.Content)})
	}
	for _, t := range req.Tools {
		p.Conv.addTool(t.Function.Name, t.Function.Parameters)
	}
	p.Conv.Schema = req.ResponseFormat.JSONSchema.Schema
	if p.Conv.Schema == nil && req.ResponseFormat.Type == "json_object" {
		// JSON mode without a schema (a side query): any object will do.
		p.Conv.Schema = map[string]any{"type": "object"}
	}
	return p, nil
}

func writeChat(w http.ResponseWriter, r *http.Request, p parsed, reply Reply) {
	id := fmt.Sprintf("chatcmpl-%s-%d", reply.Scenario, reply.Step)
	model := p.Model
	if model == "" {
		model = "fake-model"
	}
	finish := "stop"
	var toolCalls []any
	if c := reply.Tool; c != nil {
		finish = "tool_calls"
		toolCalls = []any{map[string]any{"index": 0, "id": c.ID, "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": argsJSON(c)}}}
	}
	usage := map[string]any{"prompt_tokens": inTokens, "completion_tokens": outTokens, "total_tokens": inTokens + outTokens}
	if !p.Stream {
		msg := map[string]any{"role": "assistant", "content": reply.Text()}
		if reply.Reasoning != "" {
			msg["reasoning_content"] = reply.Reasoning
		}
		if toolCalls != nil {
			msg["tool_calls"] = toolCalls
		}
		writeJSON(w, 200, map[string]any{"id": id, "object": "chat.completion", "created": time.Now().Unix(), "model": model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	e := newSSE(w, r)
	chunk := func(delta map[string]any, fin any) bool {
		return e.event("", map[string]any{"id": id, "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": fin}}})
	}
	if !chunk(map[string]any{"role": "assistant", "content": ""}, nil) {
		return
	}
	if reply.Reasoning != "" {
		// reasoning_content is what DeepSeek, llama.cpp and vLLM send.
		for _, part := range splitWords(reply.Reasoning) {
			if !chunk(map[string]any{"reasoning_content": part}, nil) || !e.pause(reply.DelayMs) {
				return
			}
		}
	}
	for _, part := range reply.Chunks {
		if !chunk(map[string]any{"content": part}, nil) || !e.pause(reply.DelayMs) {
			return
		}
	}
	if toolCalls != nil && !chunk(map[string]any{"tool_calls": toolCalls}, nil) {
		return
	}
	if !chunk(map[string]any{}, finish) {
		return
	}
	if p.IncludeUsage {
		if !e.event("", map[string]any{"id": id, "object": "chat.completion.chunk", "model": model, "choices": []any{}, "usage": usage}) {
			return
		}
	}
	e.event("", "[DONE]")
}
