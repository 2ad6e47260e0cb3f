package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// Anthropic Messages API: Claude Code.

func parseAnthropic(_ *http.Request, body []byte) (parsed, error) {
	var req struct {
		Model    string `json:"model"`
		Stream   bool   `json:"stream"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Name        string         `json:"name"`
			InputSchema map[string]any `json:"input_schema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return parsed{}, fmt.Errorf("messages request: %w", err)
	}
	p := parsed{Stream: req.Stream, Model: req.Model}
	for _, m := range req.Messages {
		if m.Role != "user" && m.Role != "assistant" {
			continue // Claude Code also sends mid-conversation "system" entries
		}
		var blocks []struct {
			Type    string          `json:"type"`
			Text    string          `json:"text"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			p.Conv.Messages = append(p.Conv.Messages, Message{Role: m.Role, Text: textOf(m.Content)})
			continue
		}
		// A tool_result block is a tool result even though it rides in a
		// user message; the text around it stays the user's.
		text := ""
		for _, b := range blocks {
			switch b.Type {
			case "tool_result":
				p.Conv.Messages = append(p.Conv.Messages, Message{Role: RoleTool, Text: textOf(b.Content)})
			case "text":
				text += b.Text
			}
		}
		if text != "" || m.Role == RoleAssistant {
			p.Conv.Messages = append(p.Conv.Messages, Message{Role: m.Role, Text: text})
		}
	}
	for _, t := range req.Tools {
		p.Conv.addTool(t.Name, t.InputSchema)
	}
	return p, nil
}

func writeAnthropic(w http.ResponseWriter, r *http.Request, p parsed, reply Reply) {
	id := fmt.Sprintf("msg_%s_%d", reply.Scenario, reply.Step)
	stop := "end_turn"
	if reply.Tool != nil {
		stop = "tool_use"
	}
	usage := map[string]any{"input_tokens": inTokens, "output_tokens": outTokens, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	if !p.Stream {
		var content []any
		if reply.Reasoning != "" {
			content = append(content, map[string]any{"type": "thinking", "thinking": reply.Reasoning, "signature": "fake"})
		}
		if len(reply.Chunks) > 0 {
			content = append(content, map[string]any{"type": "text", "text": reply.Text()})
		}
		if c := reply.Tool; c != nil {
			content = append(content, map[string]any{"type": "tool_use", "id": c.ID, "name": c.Name, "input": c.Args})
		}
		writeJSON(w, 200, map[string]any{"id": id, "type": "message", "role": "assistant", "model": p.Model,
			"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": usage})
		return
	}
	e := newSSE(w, r)
	send := func(typ string, fields map[string]any) bool {
		fields["type"] = typ
		return e.event(typ, fields)
	}
	if !send("message_start", map[string]any{"message": map[string]any{"id": id, "type": "message", "role": "assistant", "model": p.Model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": inTokens, "output_tokens": 1}}}) {
		return
	}
	idx := 0
	block := func(start map[string]any, deltaType, key string, parts []string, extra ...map[string]any) bool {
		if !send("content_block_start", map[string]any{"index": idx, "content_block": start}) {
			return false
		}
		for _, part := range parts {
			if !send("content_block_delta", map[string]any{"index": idx, "delta": map[string]any{"type": deltaType, key: part}}) || !e.pause(reply.DelayMs) {
				return false
			}
		}
		for _, d := range extra {
			if !send("content_block_delta", map[string]any{"index": idx, "delta": d}) {
				return false
			}
		}
		ok := send("content_block_stop", map[string]any{"index": idx})
		idx++
		return ok
	}
	if reply.Reasoning != "" && !block(map[string]any{"type": "thinking", "thinking": "", "signature": ""}, "thinking_delta", "thinking",
		splitWords(reply.Reasoning), map[string]any{"type": "signature_delta", "signature": "fake"}) {
		return
	}
	if len(reply.Chunks) > 0 && !block(map[string]any{"type": "text", "text": ""}, "text_delta", "text", reply.Chunks) {
		return
	}
	if c := reply.Tool; c != nil && !block(map[string]any{"type": "tool_use", "id": c.ID, "name": c.Name, "input": map[string]any{}},
		"input_json_delta", "partial_json", []string{argsJSON(c)}) {
		return
	}
	if !send("message_delta", map[string]any{"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": outTokens}}) {
		return
	}
	send("message_stop", map[string]any{})
}
