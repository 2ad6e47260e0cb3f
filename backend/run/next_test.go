package run

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/transitions.json from the table")

// transition is one row of the state machine's table. The same rows, as
// testdata/transitions.json, drive the frontend's fold test
// (frontend/src/store/fold.test.ts), so the two cannot drift apart.
type transition struct {
	Name    string          `json:"name"`
	From    State           `json:"from"`
	Type    EventType       `json:"type"`
	Payload json.RawMessage `json:"payload"`
	To      State           `json:"to"`
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

var (
	running   = State{Status: StatusRunning}
	queued    = State{Status: StatusQueued}
	approving = State{Status: StatusAwaitingApproval, PendingApprovalID: "a1"}
	asking    = State{Status: StatusAwaitingClarify, PendingClarifyID: "c1"}
	parked    = State{Status: StatusParked, ResumesAt: "2026-11-27T15:00:00Z", ParkAttempts: 1}
)

var transitions = []transition{
	{"started from queued", queued, EventRunStarted, raw(`{"agent":"demo"}`), running},
	{"started while running", running, EventRunStarted, raw(`{"agent":"demo"}`), running},
	{"started while cancelling", State{Status: StatusCancelling}, EventRunStarted, raw(`{}`), State{Status: StatusCancelling}},
	{"status cancelling", running, EventStatus, raw(`{"status":"cancelling"}`), State{Status: StatusCancelling}},
	{"status paused", running, EventStatus, raw(`{"status":"paused"}`), State{Status: StatusPaused}},
	{"status running from queued", queued, EventStatus, raw(`{"status":"running"}`), running},
	{"status never ends a run", running, EventStatus, raw(`{"status":"completed"}`), running},
	{"status unknown word ignored", running, EventStatus, raw(`{"status":"sleeping"}`), running},
	{"status keeps pending approval", approving, EventStatus, raw(`{"status":"cancelling"}`),
		State{Status: StatusCancelling, PendingApprovalID: "a1"}},
	{"approval requested", running, EventApprovalRequest, raw(`{"approval_id":"a1","title":"Run ls","options":[]}`), approving},
	{"approval without id ignored", running, EventApprovalRequest, raw(`{"title":"Run ls"}`), running},
	{"approval resolved", approving, EventApprovalResolved, raw(`{"approval_id":"a1","choice":"allow"}`), running},
	{"other approval resolved", approving, EventApprovalResolved, raw(`{"approval_id":"a2","choice":"allow"}`), approving},
	{"a second approval leaves the older pending", approving, EventApprovalRequest, raw(`{"approval_id":"a2","title":"rm","options":[]}`), approving},
	{"resolving the pending one moves to the next still waiting", approving, EventApprovalResolved,
		raw(`{"approval_id":"a1","choice":"allow","next_pending":"a2"}`), State{Status: StatusAwaitingApproval, PendingApprovalID: "a2"}},
	{"approval resolved while cancelling", State{Status: StatusCancelling, PendingApprovalID: "a1"}, EventApprovalResolved,
		raw(`{"approval_id":"a1","choice":"reject","by":"cancel"}`), State{Status: StatusCancelling}},
	{"clarify requested", running, EventClarifyRequest, raw(`{"clarify_id":"c1","question":"Colour?"}`), asking},
	{"clarify resolved", asking, EventClarifyResolved, raw(`{"clarify_id":"c1","answer":"green"}`), running},
	{"other clarify resolved", asking, EventClarifyResolved, raw(`{"clarify_id":"c9","answer":"green"}`), asking},
	{"done completed", running, EventDone, raw(`{"status":"completed"}`), State{Status: StatusCompleted}},
	{"done failed", running, EventDone, raw(`{"status":"failed","error":"boom"}`), State{Status: StatusFailed}},
	{"done cancelled clears prompts", approving, EventDone, raw(`{"status":"cancelled"}`), State{Status: StatusCancelled}},
	{"done interrupted", asking, EventDone, raw(`{"status":"interrupted"}`), State{Status: StatusInterrupted}},
	{"done without status", running, EventDone, raw(`{}`), State{Status: StatusCompleted}},
	{"done with a non-terminal status", running, EventDone, raw(`{"status":"running"}`), State{Status: StatusCompleted}},
	{"done from queued", queued, EventDone, raw(`{"status":"cancelled"}`), State{Status: StatusCancelled}},
	{"nothing after done", State{Status: StatusCompleted}, EventStatus, raw(`{"status":"running"}`), State{Status: StatusCompleted}},
	{"no second done", State{Status: StatusCancelled}, EventDone, raw(`{"status":"completed"}`), State{Status: StatusCancelled}},
	{"no prompt after done", State{Status: StatusFailed}, EventApprovalRequest, raw(`{"approval_id":"a1"}`), State{Status: StatusFailed}},
	{"parks with its resume time and attempt", running, EventStatus,
		raw(`{"status":"parked","resumes_at":"2026-11-27T15:00:00Z","attempt":1}`),
		State{Status: StatusParked, ResumesAt: "2026-11-27T15:00:00Z", ParkAttempts: 1}},
	{"parking drops the prompts the gone agent asked", approving, EventStatus,
		raw(`{"status":"parked","resumes_at":"2026-11-27T15:00:00Z","attempt":1}`),
		State{Status: StatusParked, ResumesAt: "2026-11-27T15:00:00Z", ParkAttempts: 1}},
	{"parking again counts the attempt", State{Status: StatusRunning, ParkAttempts: 1}, EventStatus,
		raw(`{"status":"parked","resumes_at":"2026-11-27T15:02:00Z","attempt":2}`),
		State{Status: StatusParked, ResumesAt: "2026-11-27T15:02:00Z", ParkAttempts: 2}},
	{"resumed parked run starts", parked, EventRunStarted, raw(`{"agent":"demo"}`),
		State{Status: StatusRunning, ParkAttempts: 1}},
	{"another status clears the resume time", parked, EventStatus, raw(`{"status":"running"}`),
		State{Status: StatusRunning, ParkAttempts: 1}},
	{"a parked run cancelled keeps its attempts", parked, EventDone, raw(`{"status":"cancelled"}`),
		State{Status: StatusCancelled, ParkAttempts: 1}},
	{"token delta", running, EventTokenDelta, raw(`{"text":"hi"}`), running},
	{"tool while waiting", approving, EventToolUpdated, raw(`{"tool_call_id":"t1"}`), approving},
	{"malformed payload", running, EventApprovalRequest, raw(`not json`), running},
}

func TestNextTable(t *testing.T) {
	for _, tc := range transitions {
		t.Run(tc.Name, func(t *testing.T) {
			if got := Next(tc.From, tc.Type, tc.Payload); got != tc.To {
				t.Errorf("Next(%+v, %s, %s) = %+v, want %+v", tc.From, tc.Type, tc.Payload, got, tc.To)
			}
		})
	}
}

// TestNextEveryType: every event type this build knows, from every status:
// terminal states never move, and only MovesState types move anything.
func TestNextEveryType(t *testing.T) {
	statuses := []Status{"", StatusQueued, StatusRunning, StatusAwaitingApproval, StatusAwaitingClarify,
		StatusCancelling, StatusPaused, StatusParked, StatusCompleted, StatusFailed, StatusCancelled, StatusInterrupted}
	payload := raw(`{"status":"cancelling","approval_id":"a1","clarify_id":"c1"}`)
	for _, st := range statuses {
		for _, typ := range KnownEventTypes {
			from := State{Status: st, PendingApprovalID: "a1", PendingClarifyID: "c1"}
			got := Next(from, typ, payload)
			if st.Terminal() && got != from {
				t.Errorf("%s moved terminal %s to %+v", typ, st, got)
			}
			if !MovesState(typ) && got != from {
				t.Errorf("%s is not a state event but moved %s to %+v", typ, st, got)
			}
			if got.Status != "" && !got.Status.Valid() {
				t.Errorf("%s from %s gave invalid status %q", typ, st, got.Status)
			}
		}
	}
}

// TestTransitionsFile keeps testdata/transitions.json (read by the
// frontend's fold test) equal to the table: `go test ./backend/run -update`.
func TestTransitionsFile(t *testing.T) {
	// A payload that is not JSON cannot travel in the file; that row is
	// the Go side's alone (the frontend never sees one: the journal
	// refuses it at append).
	var rows []transition
	for _, tc := range transitions {
		if json.Valid(tc.Payload) {
			rows = append(rows, tc)
		}
	}
	want, err := json.MarshalIndent(rows, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, '\n')
	path := filepath.Join("testdata", "transitions.json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run: go test ./backend/run -run TestTransitionsFile -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is out of date: go test ./backend/run -run TestTransitionsFile -update", path)
	}
}
