package openai

import (
	"encoding/json"
	"fmt"
)

// Chunk is what one streamed chat.completion.chunk says.
type Chunk struct {
	Content      string
	Reasoning    string
	FinishReason string
	Usage        *struct {
		PromptTokens     int64 `json:"prompt_tokens"`
		CompletionTokens int64 `json:"completion_tokens"`
	}
	Error string
}

// ParseChunk decodes one SSE data payload. Servers differ on where
// reasoning goes: reasoning_content (DeepSeek, llama.cpp, vLLM) or
// reasoning (Ollama, OpenRouter); both are read.
func ParseChunk(data []byte) (Chunk, error) {
	var raw struct {
		Choices []struct {
			Delta struct {
				Content          string `json:"content"`
				ReasoningContent string `json:"reasoning_content"`
				Reasoning        string `json:"reasoning"`
			} `json:"delta"`
			FinishReason *string `json:"finish_reason"`
		} `json:"choices"`
		Usage *struct {
			PromptTokens     int64 `json:"prompt_tokens"`
			CompletionTokens int64 `json:"completion_tokens"`
		} `json:"usage"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return Chunk{}, fmt.Errorf("openai: bad chunk: %w", err)
	}
	c := Chunk{Usage: raw.Usage}
	if raw.Error != nil {
		c.Error = raw.Error.Message
		if c.Error == "" {
			c.Error = "error"
		}
	}
	for _, ch := range raw.Choices {
		c.Content += ch.Delta.Content
		c.Reasoning += ch.Delta.ReasoningContent + ch.Delta.Reasoning
		if ch.FinishReason != nil {
			c.FinishReason = *ch.FinishReason
		}
	}
	return c, nil
}
