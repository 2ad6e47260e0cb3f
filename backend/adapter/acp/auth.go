package acp

import (
	"al.essio.dev/pkg/shellescape"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
)

// Signing in (docs/ARCHITECTURE.md §Adapters): an agent that answers
// session/new with -32000 "Authentication required" is asked to sign in
// through the protocol (`authenticate`) when it offers a method it handles
// itself (an "agent" method); otherwise, or when that fails, the start
// fails with adapter.AuthRequiredError, which words every method the agent
// offered — a terminal method as the exact command to run.

// codeAuthRequired is ACP's "Authentication required".
const codeAuthRequired = -32000

// wireAuthMethod is an authMethods entry in any of the shapes seen: the
// stable one (id, name, description: the agent handles it), the unstable
// typed ones ("terminal" with args for the agent's own program, "env_var"
// with vars) and Zed's `_meta["terminal-auth"]` {command, args}.
type wireAuthMethod struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Type        string   `json:"type"`
	Args        []string `json:"args"`
	Vars        []struct {
		Name string `json:"name"`
	} `json:"vars"`
	Meta struct {
		TerminalAuth *struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"terminal-auth"`
	} `json:"_meta"`
}

// agentHandled: the agent signs in by itself when asked (`authenticate`).
func (m wireAuthMethod) agentHandled() bool {
	return (m.Type == "" || m.Type == "agent") && m.Meta.TerminalAuth == nil
}

// authMethods reads the methods an auth-required error names in its data
// (Kimi CLI), else those initialize offered.
func authMethods(rerr *RPCError, offered []wireAuthMethod) []wireAuthMethod {
	var data struct {
		AuthMethods []wireAuthMethod `json:"authMethods"`
	}
	if len(rerr.Data) > 0 && json.Unmarshal(rerr.Data, &data) == nil && len(data.AuthMethods) > 0 {
		return data.AuthMethods
	}
	return offered
}

// describeAuth turns the wire methods into words' material; program is the
// agent's command line as configured (a terminal method runs it with its
// args).
func describeAuth(ms []wireAuthMethod, program []string) []adapter.AuthMethod {
	var out []adapter.AuthMethod
	for _, m := range ms {
		if m.ID == "" && m.Name == "" {
			continue
		}
		am := adapter.AuthMethod{ID: m.ID, Name: m.Name, Description: m.Description}
		switch {
		case m.Meta.TerminalAuth != nil && m.Meta.TerminalAuth.Command != "":
			am.Command = shellescape.QuoteCommand(append([]string{m.Meta.TerminalAuth.Command}, m.Meta.TerminalAuth.Args...))
		case m.Type == "terminal" && len(program) > 0:
			// The agent's own program with the method's args (ACP terminal
			// auth): the program alone, not the arguments that start its
			// ACP server (`kimi acp` signs in as `kimi login`).
			am.Command = shellescape.QuoteCommand(append([]string{program[0]}, m.Args...))
		case m.Type == "env_var":
			for _, v := range m.Vars {
				if v.Name != "" {
					am.EnvVars = append(am.EnvVars, v.Name)
				}
			}
			sort.Strings(am.EnvVars)
		}
		out = append(out, am)
	}
	return out
}

// signIn handles a failed session/new: not an auth-required answer, it is
// returned as it is; otherwise the agent is asked to sign in by a method it
// handles itself and retry is called once, and if that does not open a
// session the error says how the person signs in.
func (c *conn) signIn(ctx context.Context, err error, offered []wireAuthMethod, retry func() error) error {
	var rerr *RPCError
	if !errors.As(err, &rerr) || rerr.Code != codeAuthRequired {
		return err
	}
	methods := authMethods(rerr, offered)
	for _, m := range methods {
		if !m.agentHandled() || m.ID == "" {
			continue
		}
		var ignored json.RawMessage
		aerr := c.rpc.call(ctx, "authenticate", map[string]string{"methodId": m.ID}, &ignored)
		if aerr == nil {
			c.log.Info("acp: signed in through the protocol", "method", m.ID)
			rerr2 := retry()
			if rerr2 == nil {
				return nil
			}
			if !errors.As(rerr2, &rerr) || rerr.Code != codeAuthRequired {
				return rerr2
			}
			methods = authMethods(rerr, offered)
		} else {
			c.log.Warn("acp: authenticate failed", "method", m.ID, "err", aerr)
			if gone(aerr) {
				return aerr
			}
		}
		break // one attempt: the person decides the rest
	}
	c.log.Warn("acp: the agent needs a sign-in", "err", err)
	return fmt.Errorf("acp: %s: %w", c.a.display, &adapter.AuthRequiredError{Agent: c.a.display, Methods: describeAuth(methods, c.command)})
}
