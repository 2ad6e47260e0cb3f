package demoagent

import (
	acpsdk "github.com/coder/acp-go-sdk"
)

// Auth scripts an agent that demands a sign-in before session/new, as Kimi
// CLI and Auggie do (docs/ARCHITECTURE.md §Adapters): session/new answers
// -32000 "Authentication required" with Methods in its data, until
// `authenticate` names AcceptMethod (empty: no method is ever accepted,
// the person must sign in outside the protocol).
type Auth struct {
	Methods      []acpsdk.AuthMethod
	AcceptMethod string
}

func (a *agent) authMethods() []acpsdk.AuthMethod {
	if a.auth == nil {
		return []acpsdk.AuthMethod{}
	}
	return a.auth.Methods
}

func (a *agent) requireAuth() error {
	if a.auth == nil || a.signedIn.Load() {
		return nil
	}
	return acpsdk.NewAuthRequired(map[string]any{"authMethods": a.auth.Methods})
}

func (a *agent) authenticate(method string) error {
	if a.auth == nil {
		return nil
	}
	if method == "" || method != a.auth.AcceptMethod {
		return acpsdk.NewInvalidParams(map[string]any{"message": "cannot sign in with " + method + " here"})
	}
	a.signedIn.Store(true)
	return nil
}
