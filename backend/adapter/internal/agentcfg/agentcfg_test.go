package agentcfg

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
)

func TestEnv(t *testing.T) {
	t.Setenv("AGENTCFG_TEST_BASE", "1")
	env := Env(adapter.Config{Env: []string{"A_HOME=mine"}}, "A_HOME=/h", "A_KEY=", "A_QUIET=1")
	if !slices.Contains(env, "AGENTCFG_TEST_BASE=1") {
		t.Fatal("this process's environment is missing")
	}
	if slices.ContainsFunc(env, func(s string) bool { return s == "A_KEY=" }) {
		t.Fatal("an empty variable was added")
	}
	tail := env[len(env)-3:]
	if !slices.Equal(tail, []string{"A_HOME=/h", "A_QUIET=1", "A_HOME=mine"}) {
		t.Fatalf("tail %q: cfg.Env must come last", tail)
	}
}

func TestV1URL(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:9":      "http://127.0.0.1:9/v1",
		"http://127.0.0.1:9/":     "http://127.0.0.1:9/v1",
		"http://127.0.0.1:9/v1/":  "http://127.0.0.1:9/v1",
		"https://host/openai/v1":  "https://host/openai/v1",
		"https://host/openai/v10": "https://host/openai/v10/v1",
	} {
		if got := V1URL(in); got != want {
			t.Errorf("V1URL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWritePrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "home")
	if err := WritePrivate(dir, "c.toml", "x = 1\n"); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dir, "c.toml"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("%v %v", st, err)
	}
	if dst, _ := os.Stat(dir); dst.Mode().Perm() != 0o700 {
		t.Fatalf("dir mode %v", dst.Mode())
	}
}
