package registry

import (
	"errors"
	"reflect"
	"testing"
)

func TestShippedSnapshotIsDatedAndFaithful(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Date) != len("2006-01-02") || s.Commit == "" || len(s.Agents) < 10 {
		t.Fatalf("snapshot date %q commit %q with %d agents; want a dated snapshot of the registry", s.Date, s.Commit, len(s.Agents))
	}
	byID := map[string]Entry{}
	for _, e := range s.Agents {
		byID[e.ID] = e
	}
	// As the registry wrote them (agentclientprotocol/registry at s.Commit).
	if e := byID["codex-acp"]; e.Name != "Codex CLI" || e.Distribution.Binary["linux-x86_64"].Cmd != "./codex-acp" {
		t.Errorf("codex-acp = %+v", e)
	}
	if e := byID["auggie"]; e.Distribution.NPX == nil || e.Distribution.NPX.Package != "@augmentcode/auggie@0.15.0" ||
		!reflect.DeepEqual(e.Distribution.NPX.Args, []string{"--acp"}) || e.Distribution.NPX.Env["AUGMENT_DISABLE_AUTO_UPDATE"] != "1" {
		t.Errorf("auggie = %+v", e)
	}
}

func TestOffersSayHowToStartAndInstall(t *testing.T) {
	s := Snapshot{Agents: []Entry{
		{ID: "npm-agent", Name: "Npm agent", Distribution: Distribution{NPX: &Package{Package: "@acme/npm-agent@1.2.3", Args: []string{"--acp"}}}},
		{ID: "gemini", Name: "Gemini CLI", Distribution: Distribution{NPX: &Package{Package: "@google/gemini-cli@0.27.3", Args: []string{"--experimental-acp"}}}},
		{ID: "py-agent", Name: "Py agent", Distribution: Distribution{UVX: &Package{Package: "py-agent", Args: []string{"acp"}}}},
		{ID: "bin-agent", Name: "Bin agent", Distribution: Distribution{Binary: map[string]Binary{
			"linux-x86_64": {Archive: "https://x/bin-agent.tar.gz", Cmd: "./bin-agent", Args: []string{"acp"}}}}},
		{ID: "mac-only", Name: "Mac only", Distribution: Distribution{Binary: map[string]Binary{"darwin-aarch64": {Cmd: "./m"}}}},
	}}
	onPath := map[string]string{"gemini": "/usr/bin/gemini", "bin-agent": "/opt/bin/bin-agent"}
	look := func(p string) (string, error) {
		if f, ok := onPath[p]; ok {
			return f, nil
		}
		return "", errors.New("not found")
	}
	got := map[string]Offer{}
	for _, o := range Offers(s, "linux-x86_64", look) {
		got[o.ID] = o
	}
	want := map[string]Offer{
		"npm-agent": {ID: "npm-agent", Name: "Npm agent", Command: "npx", Args: []string{"--yes", "@acme/npm-agent@1.2.3", "--acp"},
			InstallHint: "npm install -g @acme/npm-agent", Source: "registry"},
		"gemini": {ID: "gemini", Name: "Gemini CLI", Command: "gemini", Args: []string{"--experimental-acp"},
			InstallHint: "npm install -g @google/gemini-cli", Installed: true, Path: "/usr/bin/gemini", Source: "registry"},
		"py-agent": {ID: "py-agent", Name: "Py agent", Command: "uvx", Args: []string{"py-agent", "acp"},
			InstallHint: "uv tool install py-agent", Source: "registry"},
		"bin-agent": {ID: "bin-agent", Name: "Bin agent", Command: "bin-agent", Args: []string{"acp"},
			InstallHint: "download https://x/bin-agent.tar.gz, unpack it and put bin-agent on your PATH", Installed: true, Path: "/opt/bin/bin-agent", Source: "registry"},
		"hermes": Extra[0],
	}
	if !reflect.DeepEqual(got, want) {
		for id := range want {
			if !reflect.DeepEqual(got[id], want[id]) {
				t.Errorf("%s:\n got %+v\nwant %+v", id, got[id], want[id])
			}
		}
		for id := range got {
			if _, ok := want[id]; !ok {
				t.Errorf("offered %s, which has nothing for this platform", id)
			}
		}
	}
}

func TestPlatform(t *testing.T) {
	for in, want := range map[[2]string]string{{"linux", "amd64"}: "linux-x86_64", {"darwin", "arm64"}: "darwin-aarch64", {"windows", "386"}: "windows-386"} {
		if got := Platform(in[0], in[1]); got != want {
			t.Errorf("Platform(%v) = %s, want %s", in, got, want)
		}
	}
}
