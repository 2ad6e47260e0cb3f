// Command gen writes the ACP registry snapshot (backend/agents/registry/
// registry.json) from a fetched copy of agentclientprotocol/registry:
// every <id>/agent.json at its top level (folders starting with _ or . are
// the registry's own, not agents), the fields the app uses kept as written.
// `make acp-registry REGISTRY=/path/to/copy` runs it; the app itself never
// downloads the registry (docs/ARCHITECTURE.md §Agents are data).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hermesdesk/hermesdesk/backend/agents/registry"
)

func main() {
	src := flag.String("src", "", "a fetched copy of agentclientprotocol/registry (a folder)")
	out := flag.String("o", "backend/agents/registry/registry.json", "where to write the snapshot")
	commit := flag.String("commit", "", "the registry commit the copy is of (default: the copy's git HEAD)")
	date := flag.String("date", "", "the date of that commit, YYYY-MM-DD (default: the copy's git HEAD's)")
	flag.Parse()
	if err := run(*src, *out, *commit, *date); err != nil {
		fmt.Fprintln(os.Stderr, "acp-registry:", err)
		os.Exit(1)
	}
}

func run(src, out, commit, date string) error {
	if src == "" {
		return fmt.Errorf("say where the fetched registry is: -src DIR (REGISTRY=DIR for make)")
	}
	if commit == "" {
		commit = gitHead(src, "%H")
	}
	if date == "" {
		date = gitHead(src, "%cs")
	}
	if date == "" {
		return fmt.Errorf("%s is not a git checkout: give the snapshot's -date", src)
	}
	dirs, err := os.ReadDir(src)
	if err != nil {
		return fmt.Errorf("reading the registry copy: %w", err)
	}
	snap := registry.Snapshot{Source: "https://github.com/agentclientprotocol/registry", Commit: commit, Date: date}
	for _, d := range dirs {
		if !d.IsDir() || strings.HasPrefix(d.Name(), "_") || strings.HasPrefix(d.Name(), ".") {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(src, d.Name(), "agent.json"))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return err
		}
		var e registry.Entry
		if err := json.Unmarshal(raw, &e); err != nil {
			return fmt.Errorf("%s/agent.json: %w", d.Name(), err)
		}
		if e.ID == "" || e.Name == "" {
			return fmt.Errorf("%s/agent.json has no id or name", d.Name())
		}
		snap.Agents = append(snap.Agents, e)
	}
	if len(snap.Agents) == 0 {
		return fmt.Errorf("no */agent.json in %s: is it the registry?", src)
	}
	sort.Slice(snap.Agents, func(i, j int) bool { return snap.Agents[i].ID < snap.Agents[j].ID })
	b, err := json.MarshalIndent(snap, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(out, append(b, '\n'), 0o644)
}

func gitHead(dir, format string) string {
	b, err := exec.Command("git", "-C", dir, "log", "-1", "--format="+format).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
