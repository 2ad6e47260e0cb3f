package history

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// seedLines adds every line of the recorded files as a seed.
func seedLines(f *testing.F, glob string) {
	files, _ := filepath.Glob(glob)
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, l := range bytes.Split(b, []byte("\n")) {
			if len(l) <= 4096 { // long seeds stall the fuzzer's mutator for many seconds
				f.Add(l)
			}
		}
	}
}

// Fuzz targets, one per line parser: no input panics, and a whole file made
// of the input parses without error (bad lines are skipped and counted).
func FuzzClaudeLine(f *testing.F) {
	seedLines(f, "testdata/claude/projects/*/*.jsonl")
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = parseClaudeLine(b)
		if _, err := (Claude{}).Parse(bytes.NewReader(append(b, '\n')), "f"); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzCodexLine(f *testing.F) {
	seedLines(f, "testdata/codex/sessions/*/*/*/*.jsonl")
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _, _ = parseCodexLine(b)
		if _, err := (Codex{}).Parse(bytes.NewReader(append(b, '\n')), "f"); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzGeminiLine(f *testing.F) {
	seedLines(f, "testdata/gemini/tmp/*/chats/*.jsonl")
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = parseGeminiLine(b)
		if _, err := (Gemini{}).Parse(bytes.NewReader(append(b, '\n')), "f.jsonl"); err != nil {
			t.Fatal(err)
		}
		if _, err := (Gemini{}).Parse(bytes.NewReader(b), "f.json"); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzQwenLine(f *testing.F) {
	seedLines(f, "testdata/qwen/projects/*/chats/*.jsonl")
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = parseQwenLine(b)
		if _, err := (Qwen{}).Parse(bytes.NewReader(append(b, '\n')), "f"); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzOpenCodePart(f *testing.F) {
	for _, s := range []string{`{"type":"text","text":"hi"}`, `{"type":"tool","tool":"bash","callID":"c","state":{"status":"completed","input":{"command":"ls"},"output":"x"}}`,
		`{"type":"step-finish","tokens":{"input":1,"output":2,"cache":{"read":3}}}`, `{"type":"reasoning","text":"r"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := parseOpenCodePart(b)
		if err == nil {
			var tn turns
			tn.start(time.Time{}, "u", "x")
			openCodePartEvents(&tn, p)
		}
	})
}

func FuzzHermesToolCalls(f *testing.F) {
	f.Add([]byte(`[{"id": "call_tool_0", "call_id": "call_tool_0", "type": "function", "function": {"name": "terminal", "arguments": "{\"command\":\"ls\"}"}}]`))
	f.Add([]byte(`{"output": "hello", "exit_code": 0, "error": null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = parseHermesToolCalls(b)
		_ = hermesToolDone("c", string(b))
	})
}
