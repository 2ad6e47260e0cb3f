package service

import (
	"context"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// NewCatalog returns a service over the journal alone, with no supervisor
// and no agents: projects, sessions, messages, search, settings, import and
// export, for the command line when no core runs (`hermesdesk import`).
// Starting or acting on a run is refused in plain words; events are read
// from the journal.
func NewCatalog(store Store, opts Options) *Service {
	return New(store, catalogRunner{store: store}, catalogAgents{}, opts)
}

// errNoRunner is what a catalog service answers to anything that needs a
// run engine.
var errNoRunner = &Error{Code: CodeUnavailable,
	Message: "runs need Hermes Desk running: start the app or `hermesdesk serve`"}

// catalogRunner is NewCatalog's Runner: it reads events from the journal
// and has nothing to start, stop, watch, log or retire.
type catalogRunner struct{ store Store }

func (catalogRunner) Start(context.Context, run.StartRequest) (run.StartResult, error) {
	return run.StartResult{}, errNoRunner
}
func (catalogRunner) Cancel(context.Context, string) (run.ControlResult, error) {
	return run.ControlResult{}, errNoRunner
}
func (catalogRunner) ForceCancel(context.Context, string) (run.ControlResult, error) {
	return run.ControlResult{}, errNoRunner
}
func (catalogRunner) Resume(context.Context, string) (run.ControlResult, error) {
	return run.ControlResult{}, errNoRunner
}
func (catalogRunner) Approve(context.Context, string, string, string) (run.ControlResult, error) {
	return run.ControlResult{}, errNoRunner
}
func (catalogRunner) Clarify(context.Context, string, string, string) (run.ControlResult, error) {
	return run.ControlResult{}, errNoRunner
}
func (catalogRunner) Queue(context.Context, string, string, string) (run.ControlResult, error) {
	return run.ControlResult{}, errNoRunner
}
func (catalogRunner) SetModel(context.Context, string, string) (run.ControlResult, error) {
	return run.ControlResult{}, errNoRunner
}
func (catalogRunner) SetConfig(context.Context, string, string, string) (run.ControlResult, error) {
	return run.ControlResult{}, errNoRunner
}
func (catalogRunner) Watch(context.Context, string, int64) (<-chan run.Event, error) {
	return nil, errNoRunner
}
func (catalogRunner) RunLog(context.Context, string) (string, error) { return "", nil }
func (catalogRunner) RetireWarm(context.Context, string) int         { return 0 }
func (catalogRunner) RetireWarmSession(context.Context, string) bool { return false }
func (catalogRunner) TapEvents(func(run.Event))                      {}
func (r catalogRunner) Events(ctx context.Context, runID string, after int64, limit int) ([]run.Event, error) {
	return r.store.Events(ctx, runID, after, limit)
}

// catalogAgents is NewCatalog's Agents: it knows none, and names an agent
// by its id.
type catalogAgents struct{}

func (catalogAgents) List(context.Context) ([]AgentInfo, error)         { return nil, nil }
func (catalogAgents) Known(string) bool                                 { return false }
func (catalogAgents) BuiltIn(string) bool                               { return false }
func (catalogAgents) DisplayName(_ context.Context, name string) string { return name }
func (catalogAgents) DisplayNames(context.Context) (map[string]string, error) {
	return map[string]string{}, nil
}
