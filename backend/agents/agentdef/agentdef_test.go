package agentdef

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestValidateNamesTheField(t *testing.T) {
	ok := Definition{ID: "my-agent", Name: "My agent", Kind: KindACP, Command: "my-agent", Args: []string{"--acp"}, Env: map[string]string{"A_KEY": "v"}}
	taken := func(id string) bool { return id == "hermes" || id == "mine" }
	cases := []struct {
		name  string
		edit  func(*Definition)
		field string // "" = valid
		says  string
	}{
		{"valid acp", func(*Definition) {}, "", ""},
		{"valid command", func(d *Definition) { d.Kind = KindCommand }, "", ""},
		{"valid openai", func(d *Definition) {
			d.Kind, d.Command, d.Args, d.BaseURL = KindOpenAI, "", nil, "http://127.0.0.1:8080/v1"
		}, "", ""},
		{"empty id", func(d *Definition) { d.ID = "" }, "id", "required"},
		{"upper-case id", func(d *Definition) { d.ID = "My" }, "id", "lower-case"},
		{"dotted id", func(d *Definition) { d.ID = "a.b" }, "id", "lower-case"},
		{"id with a slash", func(d *Definition) { d.ID = "a/b" }, "id", "lower-case"},
		{"leading dash", func(d *Definition) { d.ID = "-a" }, "id", "starting"},
		{"long id", func(d *Definition) { d.ID = strings.Repeat("a", MaxIDBytes+1) }, "id", "at most"},
		{"built-in id", func(d *Definition) { d.ID = "hermes" }, "id", "already exists"},
		{"duplicate id", func(d *Definition) { d.ID = "mine" }, "id", "already exists"},
		{"no name", func(d *Definition) { d.Name = "  " }, "name", "required"},
		{"two-line name", func(d *Definition) { d.Name = "a\nb" }, "name", "one line"},
		{"long name", func(d *Definition) { d.Name = strings.Repeat("n", MaxNameBytes+1) }, "name", "at most"},
		{"no kind", func(d *Definition) { d.Kind = "" }, "kind", "acp, command, openai-compatible"},
		{"unknown kind", func(d *Definition) { d.Kind = "grpc" }, "kind", `"grpc" is not one of`},
		{"empty command", func(d *Definition) { d.Command = " " }, "command", "required"},
		{"command kind without command", func(d *Definition) { d.Kind, d.Command = KindCommand, "" }, "command", "required"},
		{"NUL in command", func(d *Definition) { d.Command = "a\x00b" }, "command", "NUL"},
		{"NUL in args", func(d *Definition) { d.Args = []string{"ok", "b\x00"} }, "args", "argument 2"},
		{"env key with =", func(d *Definition) { d.Env = map[string]string{"A=B": "v"} }, "env", "not a variable name"},
		{"env key with digit first", func(d *Definition) { d.Env = map[string]string{"1A": "v"} }, "env", "not a variable name"},
		{"empty env key", func(d *Definition) { d.Env = map[string]string{"": "v"} }, "env", "not a variable name"},
		{"NUL in env value", func(d *Definition) { d.Env = map[string]string{"A": "\x00"} }, "env", "value of A"},
		{"openai without base_url", func(d *Definition) { d.Kind, d.Command = KindOpenAI, "" }, "base_url", "required"},
		{"base_url not http", func(d *Definition) { d.Kind, d.BaseURL = KindOpenAI, "file:///etc" }, "base_url", "http"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := ok
			d.Env = map[string]string{"A_KEY": "v"}
			c.edit(&d)
			err := d.Validate(taken)
			if c.field == "" {
				if err != nil {
					t.Fatalf("valid definition refused: %v", err)
				}
				return
			}
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want a FieldError on %s", err, c.field)
			}
			if fe.Field != c.field || !strings.Contains(fe.Problem, c.says) {
				t.Fatalf("err = %q, want field %s saying %q", err, c.field, c.says)
			}
		})
	}
}

func TestDefinitionRoundTripsThroughItsSetting(t *testing.T) {
	d := Definition{ID: "x", Name: "X agent", Kind: KindACP, Command: "/opt/x", Args: []string{"acp", "--fast"},
		Env: map[string]string{"B": "2", "A": "1=one"}}
	cfg := d.Config()
	if want := []string{"A=1=one", "B=2"}; !reflect.DeepEqual(cfg.Env, want) {
		t.Fatalf("env = %q, want %q (sorted KEY=VALUE)", cfg.Env, want)
	}
	back, ok := FromConfig("x", cfg)
	if !ok || !reflect.DeepEqual(back, d) {
		t.Fatalf("round trip = %+v (ok %v), want %+v", back, ok, d)
	}
	overrides := cfg
	overrides.Kind = ""
	if _, ok := FromConfig("claude", overrides); ok {
		t.Fatal("a setting without a kind (a built-in agent's overrides) read as an added agent")
	}
}
