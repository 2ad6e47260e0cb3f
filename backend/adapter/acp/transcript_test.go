package acp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/hermesdesk/hermesdesk/testkit/golden"
	"os"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// event is one emitted event, payload re-encoded as JSON so tests compare
// what the journal would store.
type event struct {
	Type    run.EventType
	Payload json.RawMessage
}

// recordedWorkspace is the workspace the real-agent transcripts were
// recorded in; diff paths inside it come out relative.
const recordedWorkspace = "/home/user/demo/work"

var update = flag.Bool("update", false, "rewrite testdata/*.events.jsonl from the transcripts")

// replay runs a recorded transcript through the pure parts of the
// adapter — frame parser, mapper, permission mapping — exactly as conn
// does, and returns the normalized events and the count of bad lines.
func replay(transcript []byte) (events []event, malformed int, unknown map[string]int) {
	m := NewMapper()
	m.Workspace = recordedWorkspace
	var (
		asks      int
		permTools = map[string]string{}       // request id → tool call id
		permOpts  = map[string][]wireOption{} // request id → options
		termReads = map[string]string{}       // terminal/output request id → terminal id
		termOut   = map[string]string{}       // terminal id → the output we answered
	)
	m.Terminal = func(id string) (string, bool) { out, ok := termOut[id]; return out, ok }
	add := func(outs []Out) {
		for _, o := range outs {
			b, _ := json.Marshal(o.Payload)
			events = append(events, event{o.Type, b})
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(transcript))
	sc.Buffer(nil, maxLine)
	for sc.Scan() {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var dir struct {
			Direction string          `json:"_direction"`
			ID        json.RawMessage `json:"id"`
			Result    *struct {
				Outcome struct {
					OptionID string `json:"optionId"`
				} `json:"outcome"`
				Output *string `json:"output"`
			} `json:"result"`
		}
		if json.Unmarshal(line, &dir) == nil && dir.Direction == "to_agent" {
			// Our answer to terminal/output: what the terminal printed.
			if tid, ok := termReads[string(dir.ID)]; ok && dir.Result != nil && dir.Result.Output != nil {
				termOut[tid] = *dir.Result.Output
			}
			// Our answer to a permission request: a refusal marks the tool.
			if dir.Result != nil {
				id := string(dir.ID)
				if o, ok := pickOption(permOpts[id], dir.Result.Outcome.OptionID); ok && isReject(o) {
					m.Denied(permTools[id])
				}
			}
			continue
		}
		f, err := parseFrame(line)
		if err != nil {
			malformed++
			continue
		}
		switch {
		case f.Kind == frameNotification && f.Method == "session/update":
			var n struct {
				Update json.RawMessage `json:"update"`
			}
			if json.Unmarshal(f.Params, &n) != nil || len(n.Update) == 0 {
				malformed++
				continue
			}
			add(m.Update(n.Update))
		case f.Kind == frameRequest && f.Method == "session/request_permission":
			var p permissionParams
			if json.Unmarshal(f.Params, &p) != nil {
				malformed++
				continue
			}
			asks++
			ev, err := approvalRequested(p, m.Known(toolCallIDOf(p.ToolCall)), fmt.Sprintf("appr_%d", asks), recordedWorkspace)
			if err != nil {
				malformed++
				continue
			}
			permTools[string(f.ID)], permOpts[string(f.ID)] = ev.ToolCallID, p.Options
			add(m.ToolSeen(p.ToolCall))
			add([]Out{{run.EventApprovalRequest, ev}})
		case f.Kind == frameRequest && f.Method == "terminal/output":
			var p struct {
				TerminalID string `json:"terminalId"`
			}
			_ = json.Unmarshal(f.Params, &p)
			termReads[string(f.ID)] = p.TerminalID
		case f.Kind == frameRequest && f.Method == ClarifyMethod:
			var p ClarifyParams
			_ = json.Unmarshal(f.Params, &p)
			asks++
			add([]Out{{run.EventClarifyRequest, run.ClarifyRequested{ClarifyID: fmt.Sprintf("clar_%d", asks), Question: p.Question, Choices: p.Choices}}})
		case f.Kind == frameResponse:
			var r promptResult
			if json.Unmarshal(f.Result, &r) == nil && r.StopReason != "" {
				add(m.Finish(r.StopReason == "cancelled"))
				if u := r.usage(); u != nil {
					b, _ := json.Marshal(u)
					events = append(events, event{"(turn usage)", b})
				}
			}
		}
	}
	return events, malformed + m.Malformed, m.Unknown
}

func TestTranscripts(t *testing.T) {
	golden.Transcripts(t, *update, 10, func(t *testing.T, path string) []byte {
		transcript, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		events, malformed, unknown := replay(transcript)
		var got bytes.Buffer
		u, _ := json.Marshal(unknown)
		fmt.Fprintf(&got, "{\"malformed\":%d,\"unknown\":%s}\n", malformed, u)
		for _, e := range events {
			if !e.Type.Known() && e.Type != "(turn usage)" {
				t.Errorf("%s is not a known event type", e.Type)
			}
			fmt.Fprintf(&got, "{\"type\":%q,\"payload\":%s}\n", e.Type, e.Payload)
		}
		return got.Bytes()
	})
}
