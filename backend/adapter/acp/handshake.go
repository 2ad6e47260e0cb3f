package acp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/run"
	"github.com/hermesdesk/hermesdesk/backend/version"
)

// handshakeTimeout bounds initialize + session setup when the caller's ctx
// has no deadline; Node-based agents can take several seconds to boot.
const handshakeTimeout = 60 * time.Second

// DefaultAnswerTimeout bounds the agent's answer to initialize, its first
// request: an agent that is up answers it in well under a second, so
// silence means the command is not the agent's protocol mode (a chat
// program waiting on its terminal), and the person hears so in seconds
// rather than after the whole handshake's minute.
const DefaultAnswerTimeout = 15 * time.Second

func (c *conn) handshake(ctx context.Context, req adapter.StartRequest) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, handshakeTimeout)
		defer cancel()
	}
	var init struct {
		ProtocolVersion   int `json:"protocolVersion"`
		AgentCapabilities struct {
			LoadSession         bool                      `json:"loadSession"`
			PromptCapabilities  acpsdk.PromptCapabilities `json:"promptCapabilities"`
			SessionCapabilities struct {
				Fork *struct{} `json:"fork"` // unstable session/fork offered
			} `json:"sessionCapabilities"`
		} `json:"agentCapabilities"`
		AgentInfo *struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"agentInfo"`
		AuthMethods []wireAuthMethod `json:"authMethods"`
	}
	answer := c.a.answerTimeout
	if answer <= 0 {
		answer = DefaultAnswerTimeout
	}
	ictx, cancelInit := context.WithTimeout(ctx, answer)
	defer cancelInit()
	err := c.rpc.call(ictx, "initialize", acpsdk.InitializeRequest{
		ProtocolVersion: acpsdk.ProtocolVersionNumber,
		ClientCapabilities: acpsdk.ClientCapabilities{
			Fs:       acpsdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true},
			Terminal: terminalSupported,
		},
		ClientInfo: &acpsdk.Implementation{Name: "hermesdesk", Title: acpsdk.Ptr("Hermes Desk"), Version: version.Version},
	}, &init)
	if err != nil && ctx.Err() == nil && errors.Is(ictx.Err(), context.DeadlineExceeded) && !gone(err) {
		return fmt.Errorf("acp: %s: %w", c.a.display, &adapter.NoAnswerError{Command: strings.Join(c.command, " "), After: answer})
	}
	if err != nil {
		return c.startErr("initialize", err)
	}
	c.loadable = init.AgentCapabilities.LoadSession
	c.promptCaps = init.AgentCapabilities.PromptCapabilities
	if init.AgentInfo != nil {
		c.log.Info("acp: initialized", "agent_name", init.AgentInfo.Name, "agent_version", init.AgentInfo.Version, "protocol", init.ProtocolVersion, "load_session", c.loadable)
	}

	var sess struct {
		SessionID string `json:"sessionId"`
		Models    *struct {
			CurrentModelID  string `json:"currentModelId"`
			AvailableModels []struct {
				ModelID     string `json:"modelId"`
				Name        string `json:"name"`
				Description string `json:"description"`
			} `json:"availableModels"`
		} `json:"models"`
		Modes *struct {
			CurrentModeID string `json:"currentModeId"`
		} `json:"modes"`
	}
	loaded := false
	if req.NativeSessionID == "" && req.Fork != nil {
		c.forked = c.fork(ctx, *req.Fork, init.AgentCapabilities.SessionCapabilities.Fork != nil, &sess) && sess.SessionID != ""
		c.log.Info("acp: fork", "from", req.Fork.From, "native", c.forked, "session", sess.SessionID)
		loaded = c.forked
	}
	// A fork is asked for only without a session to load: after one the
	// load below does not run.
	if req.NativeSessionID != "" && c.loadable {
		// The agent replays the history as updates: not this run's output.
		err = c.rpc.callHook(ctx, "session/load", acpsdk.LoadSessionRequest{
			SessionId: acpsdk.SessionId(req.NativeSessionID), Cwd: c.ws.dir, McpServers: []acpsdk.McpServer{},
		}, &sess, func(id int64) { c.loadID.Store(id) })
		c.loadID.Store(0)
		if err == nil {
			loaded, sess.SessionID = true, req.NativeSessionID
			c.awaitReplayEnd(ctx)
		} else if gone(err) || ctx.Err() != nil {
			return c.startErr("session/load", err)
		} else {
			// The agent forgot the session (deleted, other machine): a new
			// one beats failing; the caller sees the new id.
			c.log.Warn("acp: could not load the session; starting a new one", "native_session_id", req.NativeSessionID, "err", err)
		}
	} else if req.NativeSessionID != "" {
		c.log.Warn("acp: agent cannot load sessions; starting a new one", "native_session_id", req.NativeSessionID)
	}
	if !loaded {
		newSession := func() error {
			return c.rpc.call(ctx, "session/new", acpsdk.NewSessionRequest{Cwd: c.ws.dir, McpServers: []acpsdk.McpServer{}}, &sess)
		}
		if err = newSession(); err != nil {
			err = c.signIn(ctx, err, init.AuthMethods, newSession) // auth.go
		}
		if ar := (*adapter.AuthRequiredError)(nil); errors.As(err, &ar) {
			return err
		}
		if err != nil {
			return c.startErr("session/new", err)
		}
		if sess.SessionID == "" {
			return fmt.Errorf("acp: %s returned no session id", c.a.display)
		}
	}
	c.sessionID = sess.SessionID
	c.models = sess.Models != nil
	// The reader may be queueing between-turn updates concurrently.
	c.mu.Lock()
	if sess.Models != nil && sess.Models.CurrentModelID != "" {
		c.model = sess.Models.CurrentModelID
		// A new session's model and models are the agent's defaults.
		mu := run.ModelUpdated{Model: sess.Models.CurrentModelID, Defaults: !loaded}
		for _, m := range sess.Models.AvailableModels {
			if m.ModelID != "" {
				mu.Available = append(mu.Available, run.ModelOption{ID: m.ModelID, Name: m.Name, Description: m.Description})
			}
		}
		c.keepPending(Out{run.EventModelUpdated, mu})
	}
	if sess.Modes != nil && sess.Modes.CurrentModeID != "" {
		c.keepPending(Out{run.EventModeUpdated, run.ModeUpdated{Mode: sess.Modes.CurrentModeID}})
	}
	c.mu.Unlock()
	if req.Model != "" && req.Model != c.currentModel() {
		if err := c.SetModel(ctx, req.Model); err != nil {
			c.log.Warn("acp: could not select the requested model", "model", req.Model, "err", err)
		}
	}
	return nil
}

// A replay that trails session/load's answer (Gemini CLI 0.61.0 streams
// the history without awaiting it) must end before the first turn starts,
// or the old conversation is journaled as the new run's output. Until then
// no turn exists, so onNotify keeps the state updates and drops the rest.
// The replay is one burst of writes: replayQuiet without an update, from
// the answer on, ends it (a resume costs that much more, once).
const (
	replayQuiet = 150 * time.Millisecond
	replayMax   = 3 * time.Second
)

func (c *conn) awaitReplayEnd(ctx context.Context) {
	answered := time.Now()
	deadline := answered.Add(replayMax)
	for {
		quiet := time.Since(time.Unix(0, max(answered.UnixNano(), c.lastUpdate.Load())))
		if quiet >= replayQuiet || time.Now().After(deadline) {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-c.proc.Exited():
			return
		case <-time.After(replayQuiet - quiet):
		}
	}
}

// startErr explains a failed handshake step, distinguishing an agent that
// died (ErrAgentExited, with its exit code) from one that answered badly.
func (c *conn) startErr(step string, err error) error {
	if gone(err) {
		code, ok := c.exitCode(3 * time.Second)
		if ok {
			return fmt.Errorf("acp: %s exited during %s (exit code %d): %w", c.a.display, step, code, adapter.ErrAgentExited)
		}
		return fmt.Errorf("acp: %s closed its output during %s: %w", c.a.display, step, adapter.ErrAgentExited)
	}
	return fmt.Errorf("acp: %s failed %s: %w", c.a.display, step, err)
}
