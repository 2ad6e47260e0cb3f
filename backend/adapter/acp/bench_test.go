//go:build unix

package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// BenchmarkMapper measures the pure mapping of session/update payloads
// (the thinking transcript: reasoning and message chunks).
func BenchmarkMapper(b *testing.B) {
	transcript, err := os.ReadFile("testdata/fake-thinking.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	var updates []json.RawMessage
	for _, line := range bytes.Split(transcript, []byte("\n")) {
		f, err := parseFrame(line)
		if err != nil || f.Method != "session/update" {
			continue
		}
		var n struct {
			Update json.RawMessage `json:"update"`
		}
		if json.Unmarshal(f.Params, &n) == nil {
			updates = append(updates, n.Update)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	events := 0
	for i := 0; i < b.N; i++ {
		m := NewMapper()
		for _, u := range updates {
			events += len(m.Update(u))
		}
		events += len(m.Finish(false))
	}
	b.ReportMetric(float64(b.N*len(updates))/b.Elapsed().Seconds(), "updates/s")
}

// BenchmarkParseFrame measures frame classification of a typical update.
func BenchmarkParseFrame(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"fake-ece630546b15a0e9","update":{"content":{"text":"Hello! I'm the **demo ag","type":"text"},"sessionUpdate":"agent_message_chunk"}}}`)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := parseFrame(line); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
}

// BenchmarkFlood measures end to end: the fake agent's flood scenario
// (100,000 chunks as fast as it can write) through the pipe, the reader,
// the mapper and an emitter that only counts.
func BenchmarkFlood(b *testing.B) {
	t := &testing.T{}
	h := &harness{t: t, workspace: b.TempDir(), state: b.TempDir(), log: &syncBuf{}}
	c := h.start("")
	defer c.Close()
	var n atomic.Int64
	emit := adapter.EmitFunc(func(run.EventType, any) error { n.Add(1); return nil })
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		res := c.Turn(context.Background(), adapter.TurnRequest{Message: "/scenario flood"}, emit)
		if res.Err != nil || res.StopReason != "end_turn" {
			b.Fatalf("result = %+v", res)
		}
	}
	secs := time.Since(start).Seconds()
	b.ReportMetric(float64(n.Load())/secs, "events/s")
	b.ReportMetric(float64(n.Load())/float64(b.N), "events/turn")
}
