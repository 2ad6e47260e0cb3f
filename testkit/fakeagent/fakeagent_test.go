package fakeagent

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/demoagent"
)

// The fake agent plays the names docs/ARCHITECTURE.md §Testing promises:
// the demo agent's and this kit's, none of the kit's shadowing the product's.
func TestScenariosCoverTheRequiredNames(t *testing.T) {
	m, err := Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"demo", "slow", "flood", "approval", "clarify", "tool", "crash", "hang", "malformed", "fail", "hostile", "thinking", "recall", "escape", "terminal"} {
		s, ok := m[name]
		if !ok {
			t.Errorf("scenario %q missing", name)
			continue
		}
		if s.Description == "" || len(s.Steps) == 0 {
			t.Errorf("scenario %q has no description or steps", name)
		}
	}
	product, err := demoagent.Scenarios(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"crash", "hang", "flood", "malformed", "fail", "hostile", "escape", "terminal"} {
		if product[name] != nil {
			t.Errorf("the product ships the test scenario %q", name)
		}
	}
}

// The built binary lists the test scenarios; the product's demo-agent
// (same engine, no extra scenarios) does not.
func TestBuiltBinaryListsTestScenarios(t *testing.T) {
	bin, err := Build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "demo-agent", "--list").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"crash ", "hostile ", "demo "} {
		if !strings.Contains(string(out), "\n"+name) && !strings.HasPrefix(string(out), name) {
			t.Errorf("--list lacks %q:\n%s", name, out)
		}
	}
}
