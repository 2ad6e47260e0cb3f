package history

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// NativeIDOf is the agent's own id of the conversation at path, read
// cheaply (from the file's name, or its first line) so the first-start
// offer can tell what was not imported without reading every file; it is
// the id Parse finds (conformance_test.go checks it). "" when it cannot
// tell.
func NativeIDOf(f Format, path string) string {
	base := filepath.Base(path)
	switch f.(type) {
	case Claude, Qwen:
		return strings.TrimSuffix(base, ".jsonl")
	case Codex:
		// rollout-YYYY-MM-DDTHH-MM-SS-<uuid>.jsonl
		if name := strings.TrimSuffix(base, ".jsonl"); len(name) > 36 {
			return name[len(name)-36:]
		}
	case Gemini:
		return geminiFirstID(path)
	case Database:
		_, id := splitRef(path)
		return id
	}
	return ""
}

// geminiFirstID is the sessionId of a Gemini CLI chat's first record (its
// metadata, or the whole older .json file's).
func geminiFirstID(path string) string {
	fh, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer fh.Close()
	var rec struct {
		SessionID string `json:"sessionId"`
	}
	if strings.HasSuffix(path, ".json") {
		_ = json.NewDecoder(fh).Decode(&rec)
		return rec.SessionID
	}
	line, err := bufio.NewReaderSize(fh, 64<<10).ReadBytes('\n')
	if err != nil && len(line) == 0 {
		return ""
	}
	_ = json.Unmarshal(line, &rec)
	return rec.SessionID
}

// Unimported counts the conversations under root whose ids are not in
// imported (ImportedHistoryIDs).
func Unimported(f Format, root string, imported map[string]bool) (int, error) {
	files, err := f.Discover(root)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, p := range files {
		if id := NativeIDOf(f, p); id == "" || !imported[id] {
			n++
		}
	}
	return n, nil
}
