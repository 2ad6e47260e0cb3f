// Package openai talks to any OpenAI-compatible chat server (Ollama, LM
// Studio, llama.cpp's server, vLLM) over HTTP: true token streaming, the
// conversation kept per connection, no child process.
package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// Name is the agent id.
const Name = "openai-compatible"

// DefaultBaseURL is Ollama's OpenAI-compatible endpoint, the most common
// local server.
const DefaultBaseURL = "http://127.0.0.1:11434/v1"

// Adapter is the OpenAI-compatible HTTP adapter.
type Adapter struct {
	// Client is used for every request; nil means a default client without
	// an overall timeout (streams last as long as the answer).
	Client *http.Client
}

var _ adapter.Adapter = Adapter{}

// New returns the adapter.
func New() Adapter { return Adapter{} }

// Name implements adapter.Adapter.
func (Adapter) Name() string { return Name }

// DisplayName implements adapter.Adapter.
func (Adapter) DisplayName() string { return "OpenAI-compatible server" }

// Capabilities implements adapter.Adapter.
func (Adapter) Capabilities() adapter.Capabilities {
	return adapter.Capabilities{Streaming: true, Cancel: true, Models: true}
}

func (a Adapter) client() *http.Client {
	if a.Client != nil {
		return a.Client
	}
	return http.DefaultClient
}

// BaseURL normalizes a configured URL: empty means Ollama's; a bare host
// gets /v1.
func BaseURL(cfg adapter.Config) string {
	u := strings.TrimRight(cfg.BaseURL, "/")
	if u == "" {
		return DefaultBaseURL
	}
	if pu, err := url.Parse(u); err == nil && pu.Host != "" && (pu.Path == "" || pu.Path == "/") {
		u += "/v1"
	}
	return u
}

// Health implements adapter.Adapter: the server answers GET /models.
func (a Adapter) Health(ctx context.Context, cfg adapter.Config) adapter.Health {
	base := BaseURL(cfg)
	models, err := a.models(ctx, cfg)
	if err != nil {
		return adapter.Health{Path: base, Message: "No OpenAI-compatible server at " + base +
			" — start Ollama, LM Studio, llama.cpp or vLLM, or set its URL in the agent's settings"}
	}
	h := adapter.Health{Installed: true, OK: true, Path: base}
	if len(models) == 0 {
		h.OK, h.Message = false, "The server at "+base+" has no models — pull or load one first"
	}
	return h
}

// ListModels lists the server's models (GET /models) for the model picker
// (docs/ARCHITECTURE.md §Model picker); the error is for the log.
func (a Adapter) ListModels(ctx context.Context, cfg adapter.Config) ([]run.ModelOption, error) {
	ids, err := a.models(ctx, cfg)
	if err != nil {
		return nil, err
	}
	out := make([]run.ModelOption, 0, len(ids))
	for _, id := range ids {
		if id != "" {
			out = append(out, run.ModelOption{ID: id})
		}
	}
	return out, nil
}

// models lists the server's model ids.
func (a Adapter) models(ctx context.Context, cfg adapter.Config) ([]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, BaseURL(cfg)+"/models", nil)
	if err != nil {
		return nil, fmt.Errorf("openai: %w", err)
	}
	if cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+cfg.APIKey)
	}
	resp, err := a.client().Do(req)
	if err != nil {
		return nil, fmt.Errorf("openai: list models: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("openai: list models: %s", resp.Status)
	}
	var body struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 4<<20)).Decode(&body); err != nil {
		return nil, fmt.Errorf("openai: decode models: %w", err)
	}
	var ids []string
	for _, m := range body.Data {
		ids = append(ids, m.ID)
	}
	return ids, nil
}

// Start implements adapter.Adapter. With no model configured it takes the
// server's first one.
func (a Adapter) Start(ctx context.Context, req adapter.StartRequest, host adapter.Host) (adapter.Conn, error) {
	model := req.Model
	if model == "" {
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		ids, err := a.models(ctx, req.Config)
		if err != nil {
			return nil, fmt.Errorf("openai: no server at %s: %w", BaseURL(req.Config), adapter.ErrNotInstalled)
		}
		if len(ids) == 0 {
			return nil, fmt.Errorf("openai: the server at %s has no models", BaseURL(req.Config))
		}
		model = ids[0]
	}
	return &conn{client: a.client(), base: BaseURL(req.Config), key: req.Config.APIKey, model: model, log: host.Log,
		done: make(chan struct{})}, nil
}
