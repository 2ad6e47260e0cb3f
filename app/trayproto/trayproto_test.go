package trayproto

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestDecode(t *testing.T) {
	tests := []struct {
		line    string
		want    Msg
		wantErr error // nil: success; errAny: any error
	}{
		{`{"op":"state","autostart":true,"running":2}`, Msg{Op: OpState, Autostart: true, Running: 2}, nil},
		{`{"op":"open"}`, Msg{Op: OpOpen}, nil},
		{`{"op":"autostart","enabled":true}`, Msg{Op: OpAutostart, Enabled: true}, nil},
		{`{"op":"quit","extra":1}`, Msg{Op: OpQuit}, nil},
		{`{"op":"fly"}`, Msg{}, ErrUnknownOp},
		{`{"op":"state","running":-1}`, Msg{}, errAny},
		{`not json`, Msg{}, errAny},
		{`{"op":1}`, Msg{}, errAny},
	}
	for _, tt := range tests {
		got, err := Decode([]byte(tt.line))
		switch {
		case tt.wantErr == nil && err != nil:
			t.Errorf("%s: %v", tt.line, err)
		case tt.wantErr == errAny && err == nil, tt.wantErr != nil && tt.wantErr != errAny && !errors.Is(err, tt.wantErr):
			t.Errorf("%s: err = %v, want %v", tt.line, err, tt.wantErr)
		case got != tt.want:
			t.Errorf("%s: got %+v", tt.line, got)
		}
	}
}

var errAny = errors.New("any error")

func TestWriteReadRoundTripSkipsBadLines(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	sent := []Msg{{Op: OpState, Autostart: true, Running: 3}, {Op: OpOpen}, {Op: OpAutostart}, {Op: OpQuit}}
	for i, m := range sent {
		if i == 2 {
			buf.WriteString("Gtk-WARNING: noise on stdout\n\n")
		}
		if err := w.Write(m); err != nil {
			t.Fatal(err)
		}
	}
	var got []Msg
	var bad []string
	err := Read(&buf, func(m Msg) { got = append(got, m) }, func(l []byte, _ error) { bad = append(bad, string(l)) })
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(sent) || len(bad) != 1 {
		t.Fatalf("got %+v, bad %q", got, bad)
	}
	for i := range sent {
		if got[i] != sent[i] {
			t.Errorf("msg %d: %+v != %+v", i, got[i], sent[i])
		}
	}
}

func TestReadRejectsHugeLine(t *testing.T) {
	err := Read(strings.NewReader(strings.Repeat("x", MaxLine+1)+"\n"), func(Msg) {}, nil)
	if err == nil {
		t.Fatal("oversized line accepted")
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"op":"state","autostart":true,"running":2}`, `{"op":"open"}`,
		`{"op":"autostart","enabled":false}`, `{"op":"quit"}`, `{`, `null`, `{"op":"state","running":1e99}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		m, err := Decode(line)
		if err != nil {
			return
		}
		// Anything accepted survives a round trip unchanged.
		var buf bytes.Buffer
		if err := NewWriter(&buf).Write(m); err != nil {
			t.Fatal(err)
		}
		m2, err := Decode(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
		if err != nil || m2 != m {
			t.Fatalf("round trip: %+v -> %+v, %v", m, m2, err)
		}
	})
}
