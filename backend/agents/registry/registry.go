// Package registry is the ACP registry (agentclientprotocol/registry: one
// agent.json per agent) as a dated snapshot shipped inside the app, and
// what "Add agent" offers from it: each agent's launch command, how it is
// installed, and whether it is installed here (docs/ARCHITECTURE.md §Agents are data). The app never
// downloads anything: `make acp-registry` regenerates registry.json from a
// fetched copy of the registry (gen/). See
// docs/ARCHITECTURE.md §Agents are data.
package registry

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
)

//go:embed registry.json
var snapshotJSON []byte

// Snapshot is registry.json: the registry's agents as of Date.
type Snapshot struct {
	Source string  `json:"source"`
	Commit string  `json:"commit"`
	Date   string  `json:"date"` // YYYY-MM-DD of the registry's commit
	Agents []Entry `json:"agents"`
}

// Entry is one agent.json, with the fields the app uses kept as the
// registry wrote them.
type Entry struct {
	ID           string       `json:"id"`
	Name         string       `json:"name"`
	Version      string       `json:"version"`
	Description  string       `json:"description"`
	Repository   string       `json:"repository,omitempty"`
	License      string       `json:"license,omitempty"`
	Distribution Distribution `json:"distribution"`
}

// Distribution is how the agent is obtained and started.
type Distribution struct {
	Binary map[string]Binary `json:"binary,omitempty"` // by platform: linux-x86_64, …
	NPX    *Package          `json:"npx,omitempty"`
	UVX    *Package          `json:"uvx,omitempty"`
}

// Binary is a platform's archive and the program in it.
type Binary struct {
	Archive string            `json:"archive"`
	Cmd     string            `json:"cmd"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
}

// Package is an npm (npx) or PyPI (uvx) package and its arguments.
type Package struct {
	Package string            `json:"package"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
}

// Load reads the shipped snapshot.
func Load() (Snapshot, error) {
	var s Snapshot
	if err := json.Unmarshal(snapshotJSON, &s); err != nil {
		return s, fmt.Errorf("the shipped ACP registry snapshot does not parse: %w", err)
	}
	return s, nil
}

// Offer is one agent "Add agent" lists: choosing it fills the form.
type Offer struct {
	ID          string            `json:"id"`
	Name        string            `json:"name"`
	Version     string            `json:"version,omitempty"`
	Description string            `json:"description,omitempty"`
	Command     string            `json:"command"`
	Args        []string          `json:"args,omitempty"`
	Env         map[string]string `json:"env,omitempty"`
	InstallHint string            `json:"install_hint"`
	Installed   bool              `json:"installed"`
	Path        string            `json:"path,omitempty"`
	// Source: "registry", or "hermesdesk" for the agents the registry
	// lacks (Hermes).
	Source string `json:"source"`
}

// LookPath finds a program on PATH (exec.LookPath).
type LookPath func(program string) (string, error)

// Extra are the agents offered though the registry lacks them.
var Extra = []Offer{{
	ID: "hermes", Name: "Hermes Agent", Description: "Nous Research's Hermes Agent (its ACP server)",
	Command: "hermes", Args: []string{"acp"},
	InstallHint: `pipx install "hermes-agent[acp]"`, Source: "hermesdesk",
}}

// npmBins names the program an npm package installs where it differs from
// the package's last name segment (npm's "bin" is not in the registry).
var npmBins = map[string]string{
	"@google/gemini-cli":   "gemini",
	"@qwen-code/qwen-code": "qwen",
	"@github/copilot":      "copilot",
}

var versionSuffix = regexp.MustCompile(`@[^@/]+$`)

// Offers lists what "Add agent" offers, from the snapshot and Extra, on
// platform (e.g. "linux-x86_64"), each marked installed when its program is
// found by look. An installed agent starts its program; one that is not
// starts through npx or uvx when it is a package (which fetch it on first
// use), and its hint says how to install it.
func Offers(s Snapshot, platform string, look LookPath) []Offer {
	var out []Offer
	for _, e := range s.Agents {
		o := Offer{ID: e.ID, Name: e.Name, Version: e.Version, Description: e.Description, Source: "registry"}
		d := e.Distribution
		switch {
		case d.NPX != nil:
			pkg := versionSuffix.ReplaceAllString(d.NPX.Package, "")
			bin := npmBins[pkg]
			if bin == "" {
				bin = path.Base(pkg)
			}
			o.Env = d.NPX.Env
			o.InstallHint = "npm install -g " + pkg
			o.Command, o.Args = "npx", append([]string{"--yes", d.NPX.Package}, d.NPX.Args...)
			if p, err := look(bin); err == nil {
				o.Command, o.Args, o.Installed, o.Path = bin, d.NPX.Args, true, p
			}
		case d.UVX != nil:
			pkg := versionSuffix.ReplaceAllString(d.UVX.Package, "")
			o.Env = d.UVX.Env
			o.InstallHint = "uv tool install " + pkg
			o.Command, o.Args = "uvx", append([]string{d.UVX.Package}, d.UVX.Args...)
			if p, err := look(path.Base(pkg)); err == nil {
				o.Command, o.Args, o.Installed, o.Path = path.Base(pkg), d.UVX.Args, true, p
			}
		case len(d.Binary) > 0:
			b, ok := d.Binary[platform]
			if !ok {
				continue // nothing to run on this platform
			}
			bin := path.Base(strings.TrimSuffix(b.Cmd, ".exe"))
			o.Command, o.Args, o.Env = bin, b.Args, b.Env
			o.InstallHint = fmt.Sprintf("download %s, unpack it and put %s on your PATH", b.Archive, bin)
			if p, err := look(bin); err == nil {
				o.Installed, o.Path = true, p
			}
		default:
			continue
		}
		out = append(out, o)
	}
	for _, x := range Extra {
		if p, err := look(x.Command); err == nil {
			x.Installed, x.Path = true, p
		}
		out = append(out, x)
	}
	sort.SliceStable(out, func(i, j int) bool { return strings.ToLower(out[i].Name) < strings.ToLower(out[j].Name) })
	return out
}

// Platform is the registry's name for goos/goarch (linux-x86_64, …).
func Platform(goos, goarch string) string {
	arch := map[string]string{"amd64": "x86_64", "arm64": "aarch64"}[goarch]
	if arch == "" {
		arch = goarch
	}
	return goos + "-" + arch
}
