package codex

import (
	"bufio"
	"bytes"
	"os"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// TestUsageFromTranscripts: the thread's running usage as recorded
// `codex app-server` transcripts report it, and each turn's share of it
// (docs/ARCHITECTURE.md §Usage).
func TestUsageFromTranscripts(t *testing.T) {
	tests := []struct {
		file  string
		turns []run.Usage // one per turn/completed that had usage
	}{
		{"testdata/real-tool-accept.jsonl", []run.Usage{
			{InputTokens: 20, OutputTokens: 10, ContextTokens: 15, ContextWindow: 258400},
		}},
		{"testdata/real-resume.jsonl", []run.Usage{
			{InputTokens: 10, OutputTokens: 5, ContextTokens: 15, ContextWindow: 258400},
			{InputTokens: 10, OutputTokens: 5, ContextTokens: 15, ContextWindow: 258400},
			{InputTokens: 10, OutputTokens: 5, ContextTokens: 15, ContextWindow: 258400},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			b, err := os.ReadFile(tt.file)
			if err != nil {
				t.Fatal(err)
			}
			m := NewMapper("/work")
			var total, before run.Usage
			var turns []run.Usage
			sc := bufio.NewScanner(bytes.NewReader(b))
			sc.Buffer(nil, 16<<20)
			for sc.Scan() {
				if bytes.Contains(sc.Bytes(), []byte(`"_direction"`)) {
					continue
				}
				mp, err := m.Map(sc.Bytes())
				if err != nil {
					t.Fatal(err)
				}
				if mp.Usage != nil {
					total = *mp.Usage
				}
				if mp.TurnEnd != nil && total != before {
					turns = append(turns, *turnUsage(total, before))
					before = total
				}
			}
			if len(turns) != len(tt.turns) {
				t.Fatalf("turns with usage = %+v, want %+v", turns, tt.turns)
			}
			for i := range turns {
				if turns[i] != tt.turns[i] {
					t.Errorf("turn %d usage = %+v\nwant             %+v", i, turns[i], tt.turns[i])
				}
			}
		})
	}
}

func TestTurnUsage(t *testing.T) {
	total := run.Usage{InputTokens: 300, OutputTokens: 40, CachedTokens: 200, CacheWriteTokens: 30, ReasoningTokens: 12,
		ContextTokens: 180, ContextWindow: 400000}
	before := run.Usage{InputTokens: 100, OutputTokens: 10, CachedTokens: 50, CacheWriteTokens: 10, ReasoningTokens: 2,
		ContextTokens: 90, ContextWindow: 400000}
	want := run.Usage{InputTokens: 200, OutputTokens: 30, CachedTokens: 150, CacheWriteTokens: 20, ReasoningTokens: 10,
		ContextTokens: 180, ContextWindow: 400000}
	if got := *turnUsage(total, before); got != want {
		t.Fatalf("turnUsage = %+v\nwant        %+v", got, want)
	}
}

func TestUsageLine(t *testing.T) {
	line := `{"method":"thread/tokenUsage/updated","params":{"tokenUsage":{"total":{"totalTokens":1500,"inputTokens":1200,"cachedInputTokens":800,"cacheWriteInputTokens":100,"outputTokens":300,"reasoningOutputTokens":120},"last":{"totalTokens":900},"modelContextWindow":272000}}}`
	mp, err := NewMapper("/w").Map([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	want := run.Usage{InputTokens: 1200, OutputTokens: 300, CachedTokens: 800, CacheWriteTokens: 100, ReasoningTokens: 120,
		ContextTokens: 900, ContextWindow: 272000}
	if mp.Usage == nil || *mp.Usage != want {
		t.Fatalf("usage = %+v\nwant    %+v", mp.Usage, want)
	}
}
