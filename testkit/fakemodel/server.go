// Package fakemodel is a scripted model server for running real agent CLIs
// offline: it speaks OpenAI Chat Completions, OpenAI Responses, Anthropic
// Messages and the Gemini API on 127.0.0.1, answers from embedded scenarios
// chosen by the request's content, and records every request.
package fakemodel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// Request is one recorded API call.
type Request struct {
	API          string       `json:"api"` // chat, responses, anthropic, gemini, other
	Method       string       `json:"method"`
	Path         string       `json:"path"`
	Header       http.Header  `json:"header,omitempty"`
	Body         []byte       `json:"body,omitempty"`
	Conversation Conversation `json:"conversation"`
	Stream       bool         `json:"stream"`
	Scenario     string       `json:"scenario,omitempty"`
	Step         int          `json:"step"`
	Tool         string       `json:"tool,omitempty"` // the tool the reply called
	Time         time.Time    `json:"time"`
}

// Server is a running fake model server.
type Server struct {
	// URL is the base URL without a path, e.g. http://127.0.0.1:41234.
	URL string

	scenarios map[string]Scenario
	srv       *http.Server
	ln        net.Listener

	mu   sync.Mutex
	reqs []Request
	// limitedUntil: model calls answer 429 until then (RateLimitUntil).
	limitedUntil time.Time
	limitNext    time.Duration // RateLimitNextFor
}

// New starts a server on addr ("127.0.0.1:0" for any free port).
func New(addr string) (*Server, error) {
	set, err := Scenarios()
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("fakemodel: listen: %w", err)
	}
	s := &Server{URL: "http://" + ln.Addr().String(), scenarios: set, ln: ln}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// Start starts a server for a test and stops it at the test's end.
func Start(t testing.TB) *Server {
	t.Helper()
	s, err := New("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// Close stops the server and ends open streams.
func (s *Server) Close() error {
	err := s.srv.Close()
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Requests returns a copy of every request recorded so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// ModelRequests returns the recorded model calls (not HEAD probes, model
// lists or token counts).
func (s *Server) ModelRequests() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.API != "other" {
			out = append(out, r)
		}
	}
	return out
}

// Reset forgets the recorded requests.
func (s *Server) Reset() {
	s.mu.Lock()
	s.reqs = nil
	s.mu.Unlock()
}

func (s *Server) record(r Request) {
	s.mu.Lock()
	s.reqs = append(s.reqs, r)
	s.mu.Unlock()
}

// maxBody bounds a request body; agents send their whole system prompt and
// tool schemas, which stay well below this.
const maxBody = 32 << 20

// ServeHTTP routes by path to the API that owns it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		http.Error(w, "read body", http.StatusBadRequest)
		return
	}
	rec := Request{API: "other", Method: r.Method, Path: r.URL.RequestURI(), Header: r.Header.Clone(), Body: body, Time: time.Now()}
	p := r.URL.Path
	switch {
	case r.Method == http.MethodGet && (p == "/v1/models" || p == "/models"):
		s.record(rec)
		writeJSON(w, 200, map[string]any{"object": "list", "data": []any{
			map[string]any{"id": "fake-model", "object": "model", "owned_by": "fakemodel"},
		}})
	case r.Method == http.MethodPost && strings.HasSuffix(p, "/chat/completions"):
		s.serveAPI(w, r, rec, "chat", parseChat, writeChat)
	case r.Method == http.MethodPost && strings.HasSuffix(p, "/responses"):
		s.serveAPI(w, r, rec, "responses", parseResponses, writeResponses)
	case r.Method == http.MethodPost && strings.HasSuffix(p, "/messages/count_tokens"):
		s.record(rec)
		writeJSON(w, 200, map[string]any{"input_tokens": 10})
	case r.Method == http.MethodPost && strings.HasSuffix(p, "/messages"):
		s.serveAPI(w, r, rec, "anthropic", parseAnthropic, writeAnthropic)
	case r.Method == http.MethodPost && (strings.HasSuffix(p, ":generateContent") || strings.HasSuffix(p, ":streamGenerateContent")):
		s.serveAPI(w, r, rec, "gemini", parseGemini, writeGemini)
	case r.Method == http.MethodPost && strings.HasSuffix(p, ":countTokens"):
		s.record(rec)
		writeJSON(w, 200, map[string]any{"totalTokens": 10})
	default:
		// Claude Code probes HEAD / at start; 404 is what it expects of a
		// bare API host.
		s.record(rec)
		http.NotFound(w, r)
	}
}

// parsed is what an API parser extracts from a request body.
type parsed struct {
	Conv   Conversation
	Stream bool
	Model  string
	// IncludeUsage: OpenAI chat stream_options.include_usage.
	IncludeUsage bool
}

type parseFunc func(r *http.Request, body []byte) (parsed, error)
type writeFunc func(w http.ResponseWriter, r *http.Request, p parsed, reply Reply)

func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request, rec Request, api string, parse parseFunc, write writeFunc) {
	rec.API = api
	p, err := parse(r, rec.Body)
	if err != nil {
		s.record(rec)
		http.Error(w, "fakemodel: "+err.Error(), http.StatusBadRequest)
		return
	}
	reply := Plan(p.Conv, s.scenarios)
	rec.Conversation, rec.Stream, rec.Scenario, rec.Step = p.Conv, p.Stream, reply.Scenario, reply.Step
	if reply.Tool != nil {
		rec.Tool = reply.Tool.Name
	}
	s.record(rec)
	if now := time.Now(); !s.limited(now).IsZero() {
		writeRateLimited(w, api, s.limited(now), now)
		return
	}
	if reply.Error != nil {
		writeAPIError(w, api, *reply.Error)
		return
	}
	write(w, r, p, reply)
}

func writeAPIError(w http.ResponseWriter, api string, e ErrSpec) {
	var body any
	switch api {
	case "anthropic":
		body = map[string]any{"type": "error", "error": map[string]any{"type": "invalid_request_error", "message": e.Message}}
	case "gemini":
		body = map[string]any{"error": map[string]any{"code": e.Status, "message": e.Message, "status": "INVALID_ARGUMENT"}}
	default:
		body = map[string]any{"error": map[string]any{"message": e.Message, "type": "invalid_request_error", "code": "fake_error"}}
	}
	writeJSON(w, e.Status, body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = writeLine(w, v)
}

// marshal encodes without HTML escaping: agents see "echo a > b" as sent.
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimRight(b.Bytes(), "\n")
}

func writeLine(w io.Writer, v any) error {
	_, err := w.Write(append(marshal(v), '\n'))
	return err
}

// sse writes server-sent events and flushes each one, so the client sees a
// real token stream.
type sse struct {
	w   http.ResponseWriter
	r   *http.Request
	buf bytes.Buffer
}

func newSSE(w http.ResponseWriter, r *http.Request) *sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return &sse{w: w, r: r}
}

// event sends one event; name may be empty (data-only streams). It reports
// false once the client has gone away.
func (e *sse) event(name string, v any) bool {
	e.buf.Reset()
	if name != "" {
		e.buf.WriteString("event: " + name + "\n")
	}
	e.buf.WriteString("data: ")
	if s, ok := v.(string); ok {
		e.buf.WriteString(s)
	} else {
		e.buf.Write(marshal(v))
	}
	e.buf.WriteString("\n\n")
	if _, err := e.w.Write(e.buf.Bytes()); err != nil {
		return false
	}
	if f, ok := e.w.(http.Flusher); ok {
		f.Flush()
	}
	return e.r.Context().Err() == nil
}

// pause waits between chunks; false if the client went away meanwhile.
func (e *sse) pause(ms int) bool {
	if ms <= 0 {
		return e.r.Context().Err() == nil
	}
	t := time.NewTimer(time.Duration(ms) * time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-e.r.Context().Done():
		return false
	}
}

func argsJSON(c *ToolCall) string {
	return string(marshal(c.Args))
}

// Fixed usage figures keep replies deterministic.
const (
	inTokens  = 10
	outTokens = 5
)
