package httpapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// GoodbyeDisconnected is the goodbye a Client's watch ends with when the
// connection broke without one (the server went away): reconnect.
const GoodbyeDisconnected = "disconnected"

// Watch follows GET /api/watch (docs/ARCHITECTURE.md "The watch bus"): the
// snapshot, then changes. The channel closes after a goodbye — the
// server's, or GoodbyeDisconnected when the stream broke — or when ctx
// ends. doorbells asks for doorbell messages too.
func (c *Client) Watch(ctx context.Context, doorbells bool) (<-chan run.WatchMessage, error) {
	path := "/api/watch"
	if doorbells {
		path += "?doorbells=1"
	}
	req, err := c.request(ctx, "GET", path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	res, err := c.hc.Do(req)
	if err != nil {
		return nil, connErr(err)
	}
	if res.StatusCode != http.StatusOK {
		defer res.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
		return nil, apiError(res.StatusCode, b)
	}
	out := make(chan run.WatchMessage, 64)
	go func() {
		defer close(out)
		defer res.Body.Close()
		stop := context.AfterFunc(ctx, func() { res.Body.Close() })
		defer stop()
		send := func(m run.WatchMessage) bool {
			select {
			case out <- m:
				return true
			case <-ctx.Done():
				return false
			}
		}
		br := bufio.NewReaderSize(res.Body, 64<<10)
		for {
			line, err := br.ReadBytes('\n')
			if err != nil {
				if ctx.Err() == nil {
					send(run.WatchMessage{Type: run.WatchGoodbye, Reason: GoodbyeDisconnected})
				}
				return
			}
			data, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r\n"), []byte("data:"))
			if !ok {
				continue
			}
			var m run.WatchMessage
			if json.Unmarshal(bytes.TrimSpace(data), &m) != nil || m.Type == "" {
				continue
			}
			if !send(m) || m.Type == run.WatchGoodbye {
				return
			}
		}
	}()
	return out, nil
}
