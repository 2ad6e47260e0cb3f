package agents

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
)

func TestDefaultRegistersACPAgents(t *testing.T) {
	r := Default(Config{Executable: "/opt/hd/hermesdesk"})
	for _, name := range []string{"demo", "hermes", "gemini"} {
		a, err := r.Get(name)
		if err != nil {
			t.Fatalf("Get(%q): %v", name, err)
		}
		if a.Name() != name {
			t.Errorf("Get(%q).Name() = %q", name, a.Name())
		}
	}
	demo, _ := r.Get("demo")
	if got := demo.DisplayName(); got != "Demo agent (no AI)" {
		t.Errorf("demo display name = %q", got)
	}
}

func TestResolve(t *testing.T) {
	boom := errors.New("db gone")
	tests := []struct {
		name    string
		setting string
		unset   bool
		err     error
		want    adapter.Config
		wantErr bool
	}{
		{name: "unset", unset: true, want: adapter.Config{}},
		{name: "null", setting: "null", want: adapter.Config{}},
		{name: "command and env", setting: `{"command":["/x/hermes","acp"],"env":["A=1"]}`,
			want: adapter.Config{Command: []string{"/x/hermes", "acp"}, Env: []string{"A=1"}}},
		{name: "model server", setting: `{"base_url":"http://127.0.0.1:9","api_key":"k"}`,
			want: adapter.Config{BaseURL: "http://127.0.0.1:9", APIKey: "k"}},
		{name: "malformed", setting: `{"command":`, wantErr: true},
		{name: "store error", err: boom, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var gotKey string
			get := func(_ context.Context, key string) ([]byte, bool, error) {
				gotKey = key
				return []byte(tc.setting), !tc.unset, tc.err
			}
			cfg, err := Resolve(context.Background(), "hermes", get)
			if gotKey != "agents.hermes" {
				t.Errorf("read key %q", gotKey)
			}
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
			}
			if tc.wantErr {
				return
			}
			norm := func(c adapter.Config) adapter.Config {
				if len(c.Command) == 0 {
					c.Command = nil
				}
				if len(c.Env) == 0 {
					c.Env = nil
				}
				return c
			}
			if !reflect.DeepEqual(norm(cfg), norm(tc.want)) {
				t.Errorf("cfg = %+v, want %+v", cfg, tc.want)
			}
		})
	}
}
