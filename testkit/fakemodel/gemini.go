package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// Gemini API: Gemini CLI (GOOGLE_GEMINI_BASE_URL).

func parseGemini(r *http.Request, body []byte) (parsed, error) {
	var req struct {
		Contents []struct {
			Role  string `json:"role"`
			Parts []struct {
				Text             string          `json:"text"`
				Thought          bool            `json:"thought"`
				FunctionResponse json.RawMessage `json:"functionResponse"`
				FunctionCall     json.RawMessage `json:"functionCall"`
			} `json:"parts"`
		} `json:"contents"`
		Tools []struct {
			FunctionDeclarations []struct {
				Name                 string         `json:"name"`
				Parameters           map[string]any `json:"parameters"`
				ParametersJSONSchema map[string]any `json:"parametersJsonSchema"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
		GenerationConfig struct {
			ResponseMimeType   string         `json:"responseMimeType"`
			ResponseSchema     map[string]any `json:"responseSchema"`
			ResponseJSONSchema map[string]any `json:"responseJsonSchema"`
		} `json:"generationConfig"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return parsed{}, fmt.Errorf("gemini request: %w", err)
	}
	path := r.URL.Path
	model := path[strings.LastIndex(path, "/")+1:]
	model, _, _ = strings.Cut(model, ":")
	p := parsed{Stream: strings.HasSuffix(path, ":streamGenerateContent"), Model: model}
	for _, c := range req.Contents {
		role := RoleUser
		if c.Role == "model" {
			role = RoleAssistant
		}
		text := ""
		for _, part := range c.Parts {
			switch {
			case len(part.FunctionResponse) > 0:
				p.Conv.Messages = append(p.Conv.Messages, Message{Role: RoleTool, Text: string(part.FunctionResponse)})
			case !part.Thought:
				text += part.Text
			}
		}
		if text != "" || role == RoleAssistant {
			p.Conv.Messages = append(p.Conv.Messages, Message{Role: role, Text: text})
		}
	}
	for _, t := range req.Tools {
		for _, f := range t.FunctionDeclarations {
			params := f.Parameters
			if params == nil {
				params = f.ParametersJSONSchema
			}
			p.Conv.addTool(f.Name, params)
		}
	}
	if gc := req.GenerationConfig; gc.ResponseMimeType == "application/json" {
		p.Conv.Schema = gc.ResponseSchema
		if p.Conv.Schema == nil {
			p.Conv.Schema = gc.ResponseJSONSchema
		}
		if p.Conv.Schema == nil {
			p.Conv.Schema = map[string]any{"type": "object"}
		}
	}
	return p, nil
}

func writeGemini(w http.ResponseWriter, r *http.Request, p parsed, reply Reply) {
	usage := map[string]any{"promptTokenCount": inTokens, "candidatesTokenCount": outTokens, "totalTokenCount": inTokens + outTokens}
	chunk := func(parts []any, finish string) map[string]any {
		cand := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
		if finish != "" {
			cand["finishReason"] = finish
		}
		m := map[string]any{"candidates": []any{cand}, "modelVersion": p.Model}
		if finish != "" {
			m["usageMetadata"] = usage
		}
		return m
	}
	var call any
	if c := reply.Tool; c != nil {
		call = map[string]any{"functionCall": map[string]any{"name": c.Name, "args": c.Args}}
	}
	if !p.Stream {
		var parts []any
		if reply.Reasoning != "" {
			parts = append(parts, map[string]any{"text": reply.Reasoning, "thought": true})
		}
		if len(reply.Chunks) > 0 {
			parts = append(parts, map[string]any{"text": reply.Text()})
		}
		if call != nil {
			parts = append(parts, call)
		}
		writeJSON(w, 200, chunk(parts, "STOP"))
		return
	}
	e := newSSE(w, r)
	for _, part := range splitWords(reply.Reasoning) {
		if !e.event("", chunk([]any{map[string]any{"text": part, "thought": true}}, "")) || !e.pause(reply.DelayMs) {
			return
		}
	}
	for _, part := range reply.Chunks {
		if !e.event("", chunk([]any{map[string]any{"text": part}}, "")) || !e.pause(reply.DelayMs) {
			return
		}
	}
	last := []any{}
	if call != nil {
		last = append(last, call)
	}
	e.event("", chunk(last, "STOP"))
}
