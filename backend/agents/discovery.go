package agents

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/paths"
)

// Status is what GET /api/agents says about one agent.
type Status struct {
	Name         string               `json:"name"`
	DisplayName  string               `json:"display_name"`
	Capabilities adapter.Capabilities `json:"capabilities"`
	Health       adapter.Health       `json:"health"`
}

// knownOrder lists the agents people look for first; others follow by name.
var knownOrder = []string{"hermes", "claude", "codex", "gemini", "demo", "openai-compatible"}

// localCLIs are the agent programs scripts/install-agents.sh puts into the
// project-local tools dir, with the arguments their adapter runs them with.
// ACP adapters look on PATH and in the usual install folders only, so
// discovery hands them the tools-dir program explicitly.
var localCLIs = map[string][]string{
	"hermes": {"hermes", "acp"},
	"gemini": {"gemini", "--acp"},
}

// ToolsDirEnv names the tools dir explicitly (tests, scripts); there is no
// other way to have one.
const ToolsDirEnv = paths.EnvTools

// LocalCommand returns the command for agent from the project-local tools
// dir when its program is not on PATH but is installed there; nil otherwise
// (always nil unless $HERMESDESK_TOOLS names one: see paths.ToolsDir).
func LocalCommand(agent string) []string {
	cmd, ok := localCLIs[agent]
	if !ok {
		return nil
	}
	if _, err := exec.LookPath(cmd[0]); err == nil {
		return nil // PATH wins, as it does for the ACP adapter itself
	}
	for _, dir := range paths.ToolsBinDirs(paths.ToolsDir()) {
		p := filepath.Join(dir, cmd[0])
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return append([]string{p}, cmd[1:]...)
		}
	}
	return nil
}

// ConfigFunc returns an agent's configuration (agents.Resolve over the
// person's settings, typically). An error means the settings are unusable.
type ConfigFunc func(ctx context.Context, agent string) (adapter.Config, error)

// ResolveWith is the ConfigFunc that resolves every agent over get.
func ResolveWith(get SettingFunc) ConfigFunc {
	return func(ctx context.Context, agent string) (adapter.Config, error) { return Resolve(ctx, agent, get) }
}

// msgBadSettings is the health message of an agent whose settings do not
// parse; the details stay out of a message shown to people.
const msgBadSettings = "the agent's settings are invalid"

// Discover checks every registered agent concurrently, each bounded by
// adapter.HealthTimeout, and returns them known ones first. A missing agent
// is reported with its adapter's actionable message, never as an error.
func Discover(ctx context.Context, reg *adapter.Registry, cfgFor ConfigFunc) []Status {
	names := reg.Names()
	out := make([]Status, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		a, err := reg.Get(name)
		if err != nil {
			continue
		}
		out[i] = Status{Name: name, DisplayName: a.DisplayName(), Capabilities: a.Capabilities()}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var cfg adapter.Config
			if cfgFor != nil {
				var err error
				if cfg, err = cfgFor(ctx, name); err != nil {
					out[i].Health = adapter.Health{Message: msgBadSettings}
					return
				}
			}
			if len(cfg.Command) == 0 {
				cfg.Command = LocalCommand(name)
			}
			hctx, cancel := context.WithTimeout(ctx, adapter.HealthTimeout)
			defer cancel()
			out[i].Health = health(hctx, a, cfg)
		}()
	}
	wg.Wait()
	sortStatuses(out)
	return out
}

// backgroundBudget bounds a health check that outlived HealthTimeout: it
// goes on in the background and its answer serves the next Discover (a
// cold `gemini --version` takes seconds on a busy machine).
const backgroundBudget = 20 * time.Second

// freshFor is how long a finished check answers for a slow agent.
const freshFor = 5 * time.Minute

type cachedHealth struct {
	h  adapter.Health
	at time.Time
}

var (
	cacheMu    sync.Mutex
	cache      = map[string]cachedHealth{}
	background sync.WaitGroup
)

// health runs a's check, waiting at most until ctx ends. A check still
// running then finishes in the background; until it has, the last answer
// (or a "still checking" note) stands in.
func health(ctx context.Context, a adapter.Adapter, cfg adapter.Config) adapter.Health {
	key := a.Name() + "\x00" + fmt.Sprintf("%q %q %q", cfg.Command, cfg.Env, cfg.BaseURL)
	ch := make(chan adapter.Health, 1)
	background.Add(1)
	go func() {
		defer background.Done()
		bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), backgroundBudget)
		defer cancel()
		h := a.Health(bctx, cfg)
		cacheMu.Lock()
		cache[key] = cachedHealth{h: h, at: time.Now()}
		cacheMu.Unlock()
		ch <- h
	}()
	select {
	case h := <-ch:
		return h
	case <-ctx.Done():
	}
	cacheMu.Lock()
	c, ok := cache[key]
	cacheMu.Unlock()
	if ok && time.Since(c.at) < freshFor {
		return c.h
	}
	return adapter.Health{Message: a.DisplayName() + " did not answer its health check in time; still checking"}
}

func sortStatuses(s []Status) {
	rank := map[string]int{}
	for i, n := range knownOrder {
		rank[n] = i + 1
	}
	sort.SliceStable(s, func(i, j int) bool {
		ri, rj := rank[s[i].Name], rank[s[j].Name]
		switch {
		case ri != 0 && rj != 0:
			return ri < rj
		case ri != 0 || rj != 0:
			return ri != 0
		}
		return s[i].Name < s[j].Name
	})
}
