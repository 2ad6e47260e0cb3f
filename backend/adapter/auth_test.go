package adapter

import "testing"

func TestAuthRequiredSaysEachWayInWords(t *testing.T) {
	cases := []struct {
		name string
		e    AuthRequiredError
		want string
	}{
		{"a terminal command", AuthRequiredError{Agent: "Kimi CLI", Methods: []AuthMethod{{ID: "login", Name: "Log in", Command: "kimi login"}}},
			"Kimi CLI needs you to sign in first: run `kimi login` in a terminal (Log in). Then Retry."},
		{"several ways", AuthRequiredError{Agent: "Auggie", Methods: []AuthMethod{
			{ID: "key", Name: "API key", EnvVars: []string{"AUGMENT_KEY"}},
			{ID: "oauth", Name: "Sign in with the browser", Description: "Opens augmentcode.com.\n"},
		}}, "Auggie needs you to sign in first, in one of these ways: set AUGMENT_KEY in the agent's environment in Settings → Agents (API key); or Sign in with the browser — Opens augmentcode.com. Then Retry."},
		{"no way named", AuthRequiredError{Agent: "X"}, "X needs you to sign in first; it did not say how (see its documentation), then Retry."},
		{"a name on many lines", AuthRequiredError{Methods: []AuthMethod{{ID: "a", Name: "Log\nin", Command: "x  login"}}},
			"The agent needs you to sign in first: run `x  login` in a terminal (Log in). Then Retry."},
	}
	for _, c := range cases {
		if got := c.e.Error(); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}
