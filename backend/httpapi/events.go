package httpapi

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/service"
)

// writeTimeout bounds one flush to an SSE client: one that accepts nothing
// for this long is gone or stuck, and its handler must not stay behind.
const writeTimeout = 30 * time.Second

// events is GET /api/runs/{id}/events: one JSON page with Accept:
// application/json, otherwise an SSE stream from the cursor (?after=
// wins over Last-Event-ID) to the run's `done`.
func (h *Handler) events(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	q := r.URL.Query()
	cursor := r.Header.Get("Last-Event-ID")
	if q.Has("after") {
		cursor = q.Get("after")
	}
	after := service.ParseCursor(id, cursor)
	if wantsPage(r) {
		limit, _ := strconv.Atoi(q.Get("limit"))
		page, err := h.svc.Events(r.Context(), id, after, limit)
		reply(w, http.StatusOK, page, err)
		return
	}
	// Refuse unknown runs with a plain 404 before the stream starts.
	if _, err := h.svc.Run(r.Context(), id); err != nil {
		fail(w, err)
		return
	}
	s := startSSE(w)
	if err := s.flush(); err != nil {
		return
	}

	ctx, cancel := context.WithCancel(r.Context())
	// The heartbeat must be gone before the handler returns: net/http
	// recycles the ResponseWriter's buffers after that.
	beat := make(chan struct{})
	defer func() { cancel(); <-beat }()
	go func() {
		defer close(beat)
		s.heartbeat(ctx, h.cfg.Heartbeat, cancel)
	}()

	var last int64 = after
	err := h.svc.Follow(ctx, id, after, func(ev run.Event, more bool) error {
		if err := s.event(ev); err != nil {
			return err
		}
		last = ev.Seq
		if more {
			return nil
		}
		return s.flush()
	})
	switch {
	case err == nil, ctx.Err() != nil, errors.Is(err, errClientGone):
		// Finished with `done`, or the client went away: nothing to say.
	default:
		code := service.CodeOf(err)
		if code == service.CodeInternal || code == service.CodeUnavailable {
			h.log.Warn("httpapi: event stream ended", "run", id, "after", last, "err", err)
		}
		s.final(code, service.MessageOf(err), run.EventID(id, last))
	}
	cancel()
	<-beat
	s.flush()
}

// wantsPage: JSON when asked for, SSE otherwise (EventSource sends
// Accept: text/event-stream; curl sends */*).
func wantsPage(r *http.Request) bool {
	a := r.Header.Get("Accept")
	return strings.Contains(a, "application/json") && !strings.Contains(a, "text/event-stream")
}

var errClientGone = errors.New("httpapi: event stream client gone")

// sse serializes writes of the follow loop and the heartbeat.
type sse struct {
	mu  sync.Mutex
	w   http.ResponseWriter
	rc  *http.ResponseController
	bw  *bufio.Writer
	err error
	// scratch is reused for every frame (written under mu).
	scratch []byte
}

// startSSE answers 200 as an event stream (unbuffered by proxies, never
// cached, clients retry after a second) and returns its writer.
func startSSE(w http.ResponseWriter) *sse {
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	s := &sse{w: w, rc: http.NewResponseController(w), bw: bufio.NewWriterSize(w, 32<<10)}
	s.writeRaw("retry: 1000\n\n")
	return s
}

func (s *sse) writeRaw(str string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		_, s.err = s.bw.WriteString(str)
	}
}

// event writes one frame (see appendFrame).
func (s *sse) event(ev run.Event) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	s.scratch = appendFrame(s.scratch[:0], ev)
	_, s.err = s.bw.Write(s.scratch)
	return s.err
}

func (s *sse) flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return errClientGone
	}
	_ = s.rc.SetWriteDeadline(time.Now().Add(writeTimeout))
	if s.err = s.bw.Flush(); s.err == nil {
		s.err = s.rc.Flush()
	}
	if s.err != nil {
		return errClientGone
	}
	// The deadline bounds this flush only: left armed, it is a runtime
	// timer that wakes an idle process 30 s after the last message of
	// every quiet stream (docs/ARCHITECTURE.md §Idle).
	_ = s.rc.SetWriteDeadline(time.Time{})
	return nil
}

// final tells a client why its stream ends early and where to resume.
func (s *sse) final(code service.Code, msg, lastID string) {
	b, _ := json.Marshal(map[string]string{"code": string(code), "message": msg, "last_event_id": lastID})
	s.writeRaw("event: error\ndata: " + string(b) + "\n\n")
}

// heartbeat keeps proxies and idle timers from closing a quiet stream;
// a failed write ends the stream. A trusted local peer (api.sock, the
// app in-process) has no proxy or idle timer between it and us, and its
// going ends the request's context (net/http reads the connection in the
// background): its quiet stream wakes nothing (docs/ARCHITECTURE.md
// §Idle).
func (s *sse) heartbeat(ctx context.Context, every time.Duration, cancel context.CancelFunc) {
	if trusted, _ := ctx.Value(trustedKey).(bool); trusted {
		return
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.writeRaw(": ping\n\n")
			if s.flush() != nil {
				cancel()
				return
			}
		}
	}
}
