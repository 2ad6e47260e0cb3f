//go:build unix

package acp

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func newTerminals(t *testing.T) *terminals {
	t.Helper()
	ws, err := openWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ts := &terminals{ws: ws, env: os.Environ(), m: map[string]*terminal{}}
	t.Cleanup(func() { ts.closeAll(); ws.Close() })
	return ts
}

func call(t *testing.T, f func(json.RawMessage) (any, error), params string) map[string]any {
	t.Helper()
	res, err := f(json.RawMessage(params))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return m
}

func TestTerminalKillAndRelease(t *testing.T) {
	ts := newTerminals(t)
	id := call(t, ts.create, `{"command":"sleep","args":["300"]}`)["terminalId"].(string)
	idParams := `{"terminalId":"` + id + `"}`
	if st := call(t, ts.output, idParams)["exitStatus"]; st != nil {
		t.Fatalf("exit status of a running command = %v", st)
	}
	call(t, ts.kill, idParams)
	res, err := ts.wait(context.Background(), json.RawMessage(idParams))
	if err != nil {
		t.Fatal(err)
	}
	if st := res.(*exitStatus); st.Signal == nil || *st.Signal != "killed" {
		t.Fatalf("exit = %+v", st)
	}
	call(t, ts.release, idParams)
	if _, err := ts.output(json.RawMessage(idParams)); err == nil {
		t.Fatal("output of a released terminal")
	}
}

func TestTerminalOutputKeepsTheTail(t *testing.T) {
	ts := newTerminals(t)
	// A whole command line in "command" runs through the shell.
	id := call(t, ts.create, `{"command":"printf 'aaaa\u00e9bbbb'; printf cccc","outputByteLimit":6}`)["terminalId"].(string)
	idParams := `{"terminalId":"` + id + `"}`
	if _, err := ts.wait(context.Background(), json.RawMessage(idParams)); err != nil {
		t.Fatal(err)
	}
	out := call(t, ts.output, idParams)
	if out["output"] != "bbcccc" || out["truncated"] != true {
		t.Fatalf("output = %v; want the last 6 bytes, truncated", out)
	}
	if code := out["exitStatus"].(map[string]any)["exitCode"]; code != float64(0) {
		t.Fatalf("exit code = %v", code)
	}
}

func TestTerminalCwdMustBeInWorkspace(t *testing.T) {
	ts := newTerminals(t)
	if _, err := ts.create(json.RawMessage(`{"command":"pwd","cwd":"/"}`)); err == nil || !strings.Contains(err.Error(), "inside the workspace") {
		t.Fatalf("err = %v", err)
	}
	if _, err := ts.create(json.RawMessage(`{"command":""}`)); err == nil {
		t.Fatal("empty command accepted")
	}
}

func TestTerminalWriteCutsAtCharacterBoundary(t *testing.T) {
	term := &terminal{limit: 5}
	_, _ = term.Write([]byte("aaaa\u00e9bbbb")) // é is 2 bytes at offsets 4–5
	if got := string(term.out); got != "bbbb" || !term.truncated {
		t.Fatalf("out = %q truncated %v; want %q (never half a character)", got, term.truncated, "bbbb")
	}
}

// A terminal's output stays readable for its tool card after the agent
// released it: agents report the call done after the release.
func TestTerminalOutputOfReleased(t *testing.T) {
	ts := newTerminals(t)
	id := call(t, ts.create, `{"command":"echo","args":["hello"]}`)["terminalId"].(string)
	idParams := `{"terminalId":"` + id + `"}`
	if _, err := ts.wait(context.Background(), json.RawMessage(idParams)); err != nil {
		t.Fatal(err)
	}
	if out, ok := ts.outputOf(id); !ok || out != "hello\n" {
		t.Fatalf("live output = %q, %v", out, ok)
	}
	call(t, ts.release, idParams)
	if out, ok := ts.outputOf(id); !ok || out != "hello\n" {
		t.Fatalf("output after release = %q, %v", out, ok)
	}
	if _, ok := ts.outputOf("term_unknown"); ok {
		t.Fatal("output of a terminal that never was")
	}
}
