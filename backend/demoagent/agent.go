package demoagent

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/hermesdesk/hermesdesk/backend/version"
)

// agent is the acp.Agent the demo agent plays. One per process/connection.
type agent struct {
	conn       *acpsdk.AgentSideConnection
	out        *lockedWriter // stdout, shared with the SDK so raw lines stay whole
	stderr     io.Writer
	scenarios  map[string]*Scenario
	store      store
	exit       func(code int)
	ignoreTERM func()
	// replayAfter: see Options.ReplayAfterAnswer.
	replayAfter bool
	// auth: see Options.Auth; signedIn once authenticate accepted.
	auth     *Auth
	signedIn atomic.Bool
	// configOptions: see Options.ConfigOptions.
	configOptions bool
	// forks: see Options.Fork.
	forks bool
	// ignoreEOF keeps Serve from returning when the client goes away.
	ignoreEOF atomic.Bool

	// ready is closed once conn is set: the SDK starts serving before
	// NewAgentSideConnection returns.
	ready chan struct{}

	// replaying is held while a load's trailing replay streams.
	replaying sync.Mutex

	mu         sync.Mutex
	sessions   map[string]*session
	clientFS   acpsdk.FileSystemCapabilities
	clientTerm bool
}

var (
	_ acpsdk.Agent       = (*agent)(nil)
	_ acpsdk.AgentLoader = (*agent)(nil)
)

// Models the demo agent offers, so model switching is testable.
var models = []acpsdk.ModelInfo{
	{ModelId: "demo-small", Name: "Demo small"},
	{ModelId: "demo-large", Name: "Demo large"},
}

func (a *agent) Initialize(_ context.Context, p acpsdk.InitializeRequest) (acpsdk.InitializeResponse, error) {
	a.mu.Lock()
	a.clientFS = p.ClientCapabilities.Fs
	a.clientTerm = p.ClientCapabilities.Terminal
	a.mu.Unlock()
	return acpsdk.InitializeResponse{
		ProtocolVersion: acpsdk.ProtocolVersionNumber,
		AgentCapabilities: acpsdk.AgentCapabilities{
			LoadSession:         true,
			PromptCapabilities:  acpsdk.PromptCapabilities{EmbeddedContext: true, Image: true},
			SessionCapabilities: a.sessionCapabilities(),
		},
		AgentInfo:   &acpsdk.Implementation{Name: "hermesdesk-demo-agent", Title: acpsdk.Ptr("Demo agent (no AI)"), Version: version.Version},
		AuthMethods: a.authMethods(),
	}, nil
}

func (a *agent) Authenticate(_ context.Context, p acpsdk.AuthenticateRequest) (acpsdk.AuthenticateResponse, error) {
	return acpsdk.AuthenticateResponse{}, a.authenticate(p.MethodId)
}

func (a *agent) NewSession(_ context.Context, p acpsdk.NewSessionRequest) (acpsdk.NewSessionResponse, error) {
	if err := a.requireAuth(); err != nil {
		return acpsdk.NewSessionResponse{}, err
	}
	sess := &session{ID: newSessionID(), Cwd: p.Cwd, Model: string(models[0].ModelId), Turns: []turn{}}
	if err := a.store.save(sess); err != nil {
		return acpsdk.NewSessionResponse{}, err
	}
	a.mu.Lock()
	a.sessions[sess.ID] = sess
	a.mu.Unlock()
	if a.configOptions {
		return acpsdk.NewSessionResponse{SessionId: acpsdk.SessionId(sess.ID), ConfigOptions: sess.configOptions()}, nil
	}
	return acpsdk.NewSessionResponse{
		SessionId: acpsdk.SessionId(sess.ID),
		Models:    &acpsdk.SessionModelState{AvailableModels: models, CurrentModelId: models[0].ModelId},
		Modes:     modeState(),
	}, nil
}

func modeState() *acpsdk.SessionModeState {
	return &acpsdk.SessionModeState{
		CurrentModeId: "default",
		AvailableModes: []acpsdk.SessionMode{
			{Id: "default", Name: "Default"},
			{Id: "plan", Name: "Plan"},
		},
	}
}

// replayAfterDelay is how long a trailing replay waits after the answer
// (Options.ReplayAfterAnswer).
const replayAfterDelay = 10 * time.Millisecond

// LoadSession replays the stored conversation as session/update
// notifications, then answers (see Options.ReplayAfterAnswer).
func (a *agent) LoadSession(ctx context.Context, p acpsdk.LoadSessionRequest) (acpsdk.LoadSessionResponse, error) {
	sess, err := a.store.load(string(p.SessionId))
	if errors.Is(err, errNoSession) {
		return acpsdk.LoadSessionResponse{}, &acpsdk.RequestError{Code: -32002, Message: "Resource not found", Data: map[string]any{"sessionId": p.SessionId}}
	}
	if err != nil {
		return acpsdk.LoadSessionResponse{}, err
	}
	sess.Cwd = p.Cwd
	replay := func(ctx context.Context) error {
		for _, t := range sess.Turns {
			for _, u := range []acpsdk.SessionUpdate{acpsdk.UpdateUserMessageText(t.Prompt), acpsdk.UpdateAgentMessageText(t.Reply)} {
				if err := a.c().SessionUpdate(ctx, acpsdk.SessionNotification{SessionId: p.SessionId, Update: u}); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if a.replayAfter {
		// Like Gemini CLI 0.61.0, whose streamHistory is not awaited: the
		// answer goes first, the replay right after, and — one event loop —
		// before the next prompt is served.
		a.replaying.Lock()
		go func() {
			defer a.replaying.Unlock()
			time.Sleep(replayAfterDelay)
			_ = replay(context.Background())
		}()
	} else if err := replay(ctx); err != nil {
		return acpsdk.LoadSessionResponse{}, err
	}
	a.mu.Lock()
	a.sessions[sess.ID] = sess
	a.mu.Unlock()
	if a.configOptions {
		return acpsdk.LoadSessionResponse{ConfigOptions: sess.configOptions()}, nil
	}
	return acpsdk.LoadSessionResponse{
		Models: &acpsdk.SessionModelState{AvailableModels: models, CurrentModelId: acpsdk.ModelId(sess.Model)},
		Modes:  modeState(),
	}, nil
}

// c is the connection, once it exists.
func (a *agent) c() *acpsdk.AgentSideConnection {
	<-a.ready
	return a.conn
}

func (a *agent) session(id acpsdk.SessionId) (*session, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	sess, ok := a.sessions[string(id)]
	if !ok {
		return nil, &acpsdk.RequestError{Code: -32002, Message: "Resource not found", Data: map[string]any{"sessionId": id}}
	}
	return sess, nil
}

func (a *agent) Prompt(ctx context.Context, p acpsdk.PromptRequest) (acpsdk.PromptResponse, error) {
	a.replaying.Lock() // a trailing replay (replayAfter) ends first
	a.replaying.Unlock()
	sess, err := a.session(p.SessionId)
	if err != nil {
		return acpsdk.PromptResponse{}, err
	}
	var text strings.Builder
	for _, b := range p.Prompt {
		switch {
		case b.Text != nil:
			text.WriteString(b.Text.Text)
		case b.ResourceLink != nil:
			text.WriteString("\n[attached " + b.ResourceLink.Uri + "]")
		}
	}
	name, rest := parseScenario(text.String())
	pl := &player{a: a, sess: sess, prompt: rest, vars: map[string]string{}}
	resp, err := pl.play(ctx, name, received(p.Prompt))
	a.mu.Lock()
	sess.Turns = append(sess.Turns, turn{Prompt: text.String(), Reply: pl.reply.String()})
	a.mu.Unlock()
	if serr := a.store.save(sess); serr != nil && err == nil {
		err = serr
	}
	return resp, err
}

// parseScenario splits "/scenario NAME\nrest" into NAME and rest; without
// the directive the scenario is "demo" and rest is the whole prompt.
func parseScenario(prompt string) (name, rest string) {
	first, rest, _ := strings.Cut(prompt, "\n")
	fields := strings.Fields(first)
	if len(fields) >= 2 && fields[0] == "/scenario" {
		return fields[1], rest
	}
	return "demo", prompt
}

func (a *agent) Cancel(context.Context, acpsdk.CancelNotification) error {
	return nil // the SDK cancels the prompt's context; the player notices
}

func (a *agent) UnstableSetSessionModel(_ context.Context, p acpsdk.UnstableSetSessionModelRequest) (acpsdk.UnstableSetSessionModelResponse, error) {
	sess, err := a.session(p.SessionId)
	if err != nil {
		return acpsdk.UnstableSetSessionModelResponse{}, err
	}
	for _, m := range models {
		if string(m.ModelId) == string(p.ModelId) {
			a.mu.Lock()
			sess.Model = string(p.ModelId)
			a.mu.Unlock()
			return acpsdk.UnstableSetSessionModelResponse{}, a.store.save(sess)
		}
	}
	return acpsdk.UnstableSetSessionModelResponse{}, acpsdk.NewInvalidParams(map[string]any{"modelId": p.ModelId, "error": "unknown model"})
}

func (a *agent) SetSessionMode(context.Context, acpsdk.SetSessionModeRequest) (acpsdk.SetSessionModeResponse, error) {
	return acpsdk.SetSessionModeResponse{}, nil
}

func (a *agent) CloseSession(context.Context, acpsdk.CloseSessionRequest) (acpsdk.CloseSessionResponse, error) {
	return acpsdk.CloseSessionResponse{}, nil
}

func (a *agent) ListSessions(context.Context, acpsdk.ListSessionsRequest) (acpsdk.ListSessionsResponse, error) {
	return acpsdk.ListSessionsResponse{}, acpsdk.NewMethodNotFound("session/list")
}

func (a *agent) ResumeSession(context.Context, acpsdk.ResumeSessionRequest) (acpsdk.ResumeSessionResponse, error) {
	return acpsdk.ResumeSessionResponse{}, acpsdk.NewMethodNotFound("session/resume")
}

// lockedWriter serialises whole writes: the SDK writes each frame with one
// Write, and the malformed scenario's raw lines go through here too, so no
// line is ever torn by another.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
