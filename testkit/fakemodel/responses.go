package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// OpenAI Responses API: Codex.

func parseResponses(_ *http.Request, body []byte) (parsed, error) {
	var req struct {
		Model  string          `json:"model"`
		Stream bool            `json:"stream"`
		Input  json.RawMessage `json:"input"`
		Tools  []struct {
			Type       string         `json:"type"`
			Name       string         `json:"name"`
			Parameters map[string]any `json:"parameters"`
		} `json:"tools"`
		Text struct {
			Format struct {
				Type   string         `json:"type"`
				Schema map[string]any `json:"schema"`
			} `json:"format"`
		} `json:"text"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return parsed{}, fmt.Errorf("responses request: %w", err)
	}
	p := parsed{Stream: req.Stream, Model: req.Model}
	var s string
	if json.Unmarshal(req.Input, &s) == nil {
		p.Conv.Messages = []Message{{Role: RoleUser, Text: s}}
	} else {
		var items []struct {
			Type    string          `json:"type"`
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
			Output  json.RawMessage `json:"output"`
		}
		if err := json.Unmarshal(req.Input, &items); err != nil && len(req.Input) > 0 {
			return parsed{}, fmt.Errorf("responses input: %w", err)
		}
		for _, it := range items {
			switch {
			case it.Type == "function_call_output" || it.Type == "custom_tool_call_output":
				p.Conv.Messages = append(p.Conv.Messages, Message{Role: RoleTool, Text: textOf(it.Output)})
			case it.Type == "function_call" || it.Type == "custom_tool_call":
				p.Conv.Messages = append(p.Conv.Messages, Message{Role: RoleAssistant})
			case (it.Type == "message" || it.Type == "") && (it.Role == "user" || it.Role == "assistant"):
				p.Conv.Messages = append(p.Conv.Messages, Message{Role: it.Role, Text: textOf(it.Content)})
			}
		}
	}
	for _, t := range req.Tools {
		if t.Name != "" {
			p.Conv.addTool(t.Name, t.Parameters)
		}
		if t.Type == "custom" {
			p.Conv.Freeform = append(p.Conv.Freeform, t.Name)
		}
	}
	if f := req.Text.Format; f.Type == "json_schema" && f.Schema != nil {
		p.Conv.Schema = f.Schema
	}
	return p, nil
}

func writeResponses(w http.ResponseWriter, r *http.Request, p parsed, reply Reply) {
	id := fmt.Sprintf("resp_%s_%d", reply.Scenario, reply.Step)
	var output []any
	idx := 0
	usage := map[string]any{"input_tokens": inTokens, "input_tokens_details": map[string]any{"cached_tokens": 0},
		"output_tokens": outTokens, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": inTokens + outTokens}
	reasoningItem := map[string]any{"type": "reasoning", "id": "rs_" + id,
		"summary": []any{map[string]any{"type": "summary_text", "text": reply.Reasoning}}}
	msgItem := map[string]any{"type": "message", "id": "msg_" + id, "role": "assistant", "status": "completed",
		"content": []any{map[string]any{"type": "output_text", "text": reply.Text(), "annotations": []any{}}}}
	var callItem map[string]any
	if c := reply.Tool; c != nil {
		callItem = map[string]any{"type": "function_call", "id": "fc_" + id, "call_id": c.ID, "name": c.Name,
			"arguments": argsJSON(c), "status": "completed"}
		if c.Input != "" {
			callItem = map[string]any{"type": "custom_tool_call", "id": "ctc_" + id, "call_id": c.ID, "name": c.Name,
				"input": c.Input, "status": "completed"}
		}
	}
	if reply.Reasoning != "" {
		output = append(output, reasoningItem)
	}
	if len(reply.Chunks) > 0 {
		output = append(output, msgItem)
	}
	if callItem != nil {
		output = append(output, callItem)
	}
	resp := func(status string) map[string]any {
		m := map[string]any{"id": id, "object": "response", "status": status, "model": p.Model, "output": []any{}}
		if status == "completed" {
			m["output"], m["usage"] = output, usage
		}
		return m
	}
	if !p.Stream {
		writeJSON(w, 200, resp("completed"))
		return
	}
	e := newSSE(w, r)
	seq := 0
	send := func(typ string, fields map[string]any) bool {
		fields["type"], fields["sequence_number"] = typ, seq
		seq++
		return e.event(typ, fields)
	}
	if !send("response.created", map[string]any{"response": resp("in_progress")}) {
		return
	}
	if reply.Reasoning != "" {
		rid := reasoningItem["id"]
		if !send("response.output_item.added", map[string]any{"output_index": idx, "item": map[string]any{"type": "reasoning", "id": rid, "summary": []any{}}}) {
			return
		}
		for _, part := range splitWords(reply.Reasoning) {
			if !send("response.reasoning_summary_text.delta", map[string]any{"item_id": rid, "output_index": idx, "summary_index": 0, "delta": part}) || !e.pause(reply.DelayMs) {
				return
			}
		}
		if !send("response.output_item.done", map[string]any{"output_index": idx, "item": reasoningItem}) {
			return
		}
		idx++
	}
	if len(reply.Chunks) > 0 {
		mid := msgItem["id"]
		if !send("response.output_item.added", map[string]any{"output_index": idx, "item": map[string]any{"type": "message", "id": mid, "role": "assistant", "status": "in_progress", "content": []any{}}}) {
			return
		}
		if !send("response.content_part.added", map[string]any{"item_id": mid, "output_index": idx, "content_index": 0, "part": map[string]any{"type": "output_text", "text": "", "annotations": []any{}}}) {
			return
		}
		for _, part := range reply.Chunks {
			if !send("response.output_text.delta", map[string]any{"item_id": mid, "output_index": idx, "content_index": 0, "delta": part}) || !e.pause(reply.DelayMs) {
				return
			}
		}
		if !send("response.output_text.done", map[string]any{"item_id": mid, "output_index": idx, "content_index": 0, "text": reply.Text()}) {
			return
		}
		if !send("response.output_item.done", map[string]any{"output_index": idx, "item": msgItem}) {
			return
		}
		idx++
	}
	if callItem != nil {
		added := map[string]any{}
		for k, v := range callItem {
			added[k] = v
		}
		added["status"] = "in_progress"
		delta, field := "response.function_call_arguments.delta", "arguments"
		if callItem["type"] == "custom_tool_call" {
			delta, field = "response.custom_tool_call_input.delta", "input"
		}
		added[field] = ""
		if !send("response.output_item.added", map[string]any{"output_index": idx, "item": added}) {
			return
		}
		if !send(delta, map[string]any{"item_id": callItem["id"], "output_index": idx, "delta": callItem[field]}) {
			return
		}
		if !send("response.output_item.done", map[string]any{"output_index": idx, "item": callItem}) {
			return
		}
	}
	send("response.completed", map[string]any{"response": resp("completed")})
}
