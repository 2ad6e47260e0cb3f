package demoagent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/hermesdesk/hermesdesk/backend/adapter/acp"
)

// player plays one scenario for one prompt.
type player struct {
	a      *agent
	sess   *session
	prompt string
	vars   map[string]string
	reply  strings.Builder // what recall will remember, capped
	usage  *acpsdk.Usage
}

// errCancelled unwinds the script after session/cancel.
var errCancelled = errors.New("cancelled")

// maxReply caps what a session remembers of one reply (flood is 100k chunks).
const maxReply = 4000

// play answers a prompt: first what was attached (so the attachments'
// way from the composer to an agent can be seen end to end), then the
// scenario.
func (p *player) play(ctx context.Context, name, attachments string) (acpsdk.PromptResponse, error) {
	sc, ok := p.a.scenarios[name]
	var err error
	if attachments != "" {
		err = p.text(ctx, attachments+"\n\n", 0, 0, false)
	}
	switch {
	case err != nil:
	case !ok:
		err = p.text(ctx, fmt.Sprintf("I don't know the scenario %q. I can play: %s.", name, strings.Join(Names(p.a.scenarios), ", ")), 0, 0, false)
	default:
		err = p.run(ctx, sc.Steps)
	}
	var rpcErr *acpsdk.RequestError
	switch {
	case errors.Is(err, errCancelled):
		return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonCancelled}, nil
	case errors.As(err, &rpcErr):
		return acpsdk.PromptResponse{}, rpcErr
	case err != nil:
		return acpsdk.PromptResponse{}, err
	}
	return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonEndTurn, Usage: p.usage}, nil
}

// rateLimit fails the prompt as an OpenAI-compatible server's 429 reads
// through an ACP agent, with the wait left, until the session's window
// (opened by the first prompt that got here) has passed.
func (p *player) rateLimit(s *RateLimitStep) error {
	now := time.Now()
	p.a.mu.Lock()
	if p.sess.LimitedUntil == 0 {
		p.sess.LimitedUntil = now.Add(time.Duration(s.ResetAfterMs) * time.Millisecond).UnixMilli()
	}
	until := time.UnixMilli(p.sess.LimitedUntil)
	p.a.mu.Unlock()
	if !now.Before(until) {
		return nil
	}
	return &acpsdk.RequestError{Code: -32603,
		Message: fmt.Sprintf("429 Too Many Requests: rate limit reached (retry-after: %.3fs)", until.Sub(now).Seconds())}
}

func (p *player) run(ctx context.Context, steps []Step) error {
	for _, s := range steps {
		if ctx.Err() != nil {
			return errCancelled
		}
		if err := p.step(ctx, s); err != nil {
			return err
		}
	}
	return nil
}

func (p *player) step(ctx context.Context, s Step) error {
	switch {
	case s.Text != "":
		return p.text(ctx, p.expand(s.Text), s.Chunk, s.DelayMs, false)
	case s.Thought != "":
		return p.text(ctx, p.expand(s.Thought), s.Chunk, s.DelayMs, true)
	case s.Tool != nil:
		return p.tool(ctx, s.Tool)
	case s.Plan != nil:
		entries := make([]acpsdk.PlanEntry, len(s.Plan))
		for i, e := range s.Plan {
			entries[i] = acpsdk.PlanEntry{Content: p.expand(e.Content), Status: acpsdk.PlanEntryStatus(e.Status), Priority: acpsdk.PlanEntryPriority(orDefault(e.Priority, "medium"))}
		}
		return p.update(ctx, acpsdk.UpdatePlan(entries...))
	case s.Commands != nil:
		cmds := make([]acpsdk.AvailableCommand, len(s.Commands))
		for i, c := range s.Commands {
			cmds[i] = acpsdk.AvailableCommand{Name: c.Name, Description: c.Description}
		}
		return p.update(ctx, acpsdk.SessionUpdate{AvailableCommandsUpdate: &acpsdk.SessionAvailableCommandsUpdate{AvailableCommands: cmds}})
	case s.Mode != "":
		return p.update(ctx, acpsdk.SessionUpdate{CurrentModeUpdate: &acpsdk.SessionCurrentModeUpdate{CurrentModeId: acpsdk.SessionModeId(s.Mode)}})
	case s.Title != "":
		title := p.expand(s.Title)
		return p.update(ctx, acpsdk.SessionUpdate{SessionInfoUpdate: &acpsdk.SessionSessionInfoUpdate{Title: &title}})
	case s.Permission != nil:
		return p.permission(ctx, s.Permission)
	case s.Clarify != nil:
		return p.clarify(ctx, s.Clarify)
	case s.SleepMs > 0:
		return sleep(ctx, s.SleepMs)
	case s.Stderr != "":
		fmt.Fprintln(p.a.stderr, p.expand(s.Stderr))
		return nil
	case s.Exit != nil:
		p.a.exit(*s.Exit)
		return fmt.Errorf("exit(%d) returned", *s.Exit) // only in library use
	case s.Raw != nil:
		for _, line := range s.Raw {
			if _, err := p.a.out.Write([]byte(p.expand(line) + "\n")); err != nil {
				return err
			}
		}
		return nil
	case s.Fail != nil:
		return &acpsdk.RequestError{Code: s.Fail.Code, Message: s.Fail.Message}
	case s.RateLimit != nil:
		return p.rateLimit(s.RateLimit)
	case s.Burst != nil:
		return p.burst(ctx, s.Burst)
	case s.Repeat != nil:
		inner := ctx
		if s.Repeat.IgnoreCancel {
			inner = context.WithoutCancel(ctx)
		}
		for i := 1; i <= s.Repeat.Count; i++ {
			p.vars["i"] = strconv.Itoa(i)
			if err := p.run(inner, s.Repeat.Steps); err != nil {
				return err
			}
		}
		return nil
	case s.IgnoreSIGTERM:
		p.a.ignoreTERM()
		return nil
	case s.IgnoreEOF:
		p.a.ignoreEOF.Store(true)
		return nil
	case s.Recall:
		return p.text(ctx, p.recall(), 0, 0, false)
	case s.Usage != nil:
		p.usage = &acpsdk.Usage{InputTokens: s.Usage.InputTokens, OutputTokens: s.Usage.OutputTokens,
			TotalTokens: s.Usage.InputTokens + s.Usage.OutputTokens + s.Usage.ThoughtTokens}
		if s.Usage.ThoughtTokens > 0 {
			p.usage.ThoughtTokens = acpsdk.Ptr(s.Usage.ThoughtTokens)
		}
		return nil
	}
	return fmt.Errorf("empty step")
}

func (p *player) update(ctx context.Context, u acpsdk.SessionUpdate) error {
	err := p.a.c().SessionUpdate(ctx, acpsdk.SessionNotification{SessionId: acpsdk.SessionId(p.sess.ID), Update: u})
	if err != nil && ctx.Err() != nil {
		return errCancelled
	}
	return err
}

func (p *player) text(ctx context.Context, s string, chunk, delayMs int, thought bool) error {
	for _, piece := range chunkRunes(s, chunk) {
		u := acpsdk.UpdateAgentMessageText(piece)
		if thought {
			u = acpsdk.UpdateAgentThoughtText(piece)
		} else if p.reply.Len() < maxReply {
			p.reply.WriteString(piece)
		}
		if err := p.update(ctx, u); err != nil {
			return err
		}
		if err := sleep(ctx, delayMs); err != nil {
			return err
		}
	}
	return nil
}

func (p *player) burst(ctx context.Context, b *BurstStep) error {
	frame, err := json.Marshal(struct {
		JSONRPC string                     `json:"jsonrpc"`
		Method  string                     `json:"method"`
		Params  acpsdk.SessionNotification `json:"params"`
	}{"2.0", acpsdk.ClientMethodSessionUpdate, acpsdk.SessionNotification{SessionId: acpsdk.SessionId(p.sess.ID), Update: acpsdk.UpdateAgentMessageText(p.expand(b.Text))}})
	if err != nil {
		return err
	}
	frame = append(frame, '\n')
	for i := 0; i < b.Count; i++ {
		if i%1024 == 0 && ctx.Err() != nil {
			return errCancelled
		}
		if _, err := p.a.out.Write(frame); err != nil {
			return err
		}
		if p.reply.Len() < maxReply {
			p.reply.WriteString(b.Text)
		}
	}
	return nil
}

func (p *player) tool(ctx context.Context, t *ToolStep) error {
	id := acpsdk.ToolCallId(p.expand(t.ID))
	var locs []acpsdk.ToolCallLocation
	for _, l := range t.Locations {
		locs = append(locs, acpsdk.ToolCallLocation{Path: p.abs(l)})
	}
	start := acpsdk.StartToolCall(id, p.expand(t.Title),
		acpsdk.WithStartKind(acpsdk.ToolKind(orDefault(t.Kind, "other"))),
		acpsdk.WithStartStatus(acpsdk.ToolCallStatusPending),
		acpsdk.WithStartRawInput(t.Input), acpsdk.WithStartLocations(locs))
	if err := p.update(ctx, start); err != nil {
		return err
	}
	for _, pr := range t.Progress {
		u := acpsdk.UpdateToolCall(id, acpsdk.WithUpdateStatus(acpsdk.ToolCallStatusInProgress),
			acpsdk.WithUpdateContent([]acpsdk.ToolCallContent{acpsdk.ToolContent(acpsdk.TextBlock(p.expand(pr)))}))
		if err := p.update(ctx, u); err != nil {
			return err
		}
		if err := sleep(ctx, t.ProgressDelayMs); err != nil {
			return err
		}
	}
	status, output := acpsdk.ToolCallStatusCompleted, p.expand(t.Output)
	var diff []acpsdk.ToolCallContent // what a write changed, as real agents report it
	if t.Status == "failed" {
		status = acpsdk.ToolCallStatusFailed
	}
	switch {
	case t.Write != nil:
		path, content := p.abs(t.Write.Path), p.expand(t.Write.Content)
		// Read the old text first, as an editing agent does, to report the
		// change as an ACP diff (oldText absent for a new file).
		var old []string
		if prev, err := p.a.c().ReadTextFile(ctx, acpsdk.ReadTextFileRequest{SessionId: acpsdk.SessionId(p.sess.ID), Path: path}); err == nil && prev.Content != "" {
			old = []string{prev.Content}
		}
		_, err := p.a.c().WriteTextFile(ctx, acpsdk.WriteTextFileRequest{SessionId: acpsdk.SessionId(p.sess.ID), Path: path, Content: content})
		if err != nil {
			if ctx.Err() != nil {
				return errCancelled
			}
			status, output = acpsdk.ToolCallStatusFailed, "The editor refused the write: "+describe(err)
		} else {
			diff = []acpsdk.ToolCallContent{acpsdk.ToolDiffContent(path, content, old...)}
		}
	case t.Read != "":
		resp, err := p.a.c().ReadTextFile(ctx, acpsdk.ReadTextFileRequest{SessionId: acpsdk.SessionId(p.sess.ID), Path: p.abs(t.Read)})
		switch {
		case err != nil && ctx.Err() != nil:
			return errCancelled
		case err != nil:
			status, output = acpsdk.ToolCallStatusFailed, "The editor refused the read: "+describe(err)
		case resp.Content == "":
			output = "(the file is empty or does not exist)"
		default:
			output = truncate(resp.Content, 2000)
		}
	case t.Run != nil:
		out, err := p.runCommand(ctx, id, t.Run)
		switch {
		case err != nil && ctx.Err() != nil:
			return errCancelled
		case err != nil:
			status, output = acpsdk.ToolCallStatusFailed, "The editor refused the command: "+describe(err)
		default:
			output = out
		}
	}
	p.vars["tool_output"] = output
	done := acpsdk.UpdateToolCall(id, acpsdk.WithUpdateStatus(status),
		acpsdk.WithUpdateContent(append([]acpsdk.ToolCallContent{acpsdk.ToolContent(acpsdk.TextBlock(output))}, diff...)))
	return p.update(ctx, done)
}

// runCommand plays a command through the client's terminal methods.
func (p *player) runCommand(ctx context.Context, id acpsdk.ToolCallId, rc *RunCommand) (string, error) {
	p.a.mu.Lock()
	ok := p.a.clientTerm
	p.a.mu.Unlock()
	if !ok {
		return "(the editor offers no terminal)", nil
	}
	c, sid := p.a.c(), acpsdk.SessionId(p.sess.ID)
	req := acpsdk.CreateTerminalRequest{SessionId: sid, Command: p.expand(rc.Command), Args: rc.Args}
	if rc.Cwd != "" {
		req.Cwd = acpsdk.Ptr(p.abs(rc.Cwd))
	}
	term, err := c.CreateTerminal(ctx, req)
	if err != nil {
		return "", err
	}
	defer c.ReleaseTerminal(context.WithoutCancel(ctx), acpsdk.ReleaseTerminalRequest{SessionId: sid, TerminalId: term.TerminalId})
	_ = p.update(ctx, acpsdk.UpdateToolCall(id, acpsdk.WithUpdateStatus(acpsdk.ToolCallStatusInProgress),
		acpsdk.WithUpdateContent([]acpsdk.ToolCallContent{acpsdk.ToolTerminalRef(term.TerminalId)})))
	exit, err := c.WaitForTerminalExit(ctx, acpsdk.WaitForTerminalExitRequest{SessionId: sid, TerminalId: term.TerminalId})
	if err != nil {
		if ctx.Err() != nil {
			_, _ = c.KillTerminal(context.WithoutCancel(ctx), acpsdk.KillTerminalRequest{SessionId: sid, TerminalId: term.TerminalId})
		}
		return "", err
	}
	out, err := c.TerminalOutput(ctx, acpsdk.TerminalOutputRequest{SessionId: sid, TerminalId: term.TerminalId})
	if err != nil {
		return "", err
	}
	code := "?"
	if exit.ExitCode != nil {
		code = strconv.Itoa(*exit.ExitCode)
	}
	return fmt.Sprintf("%s[exit code %s]", out.Output, code), nil
}

func (p *player) permission(ctx context.Context, ps *PermissionStep) error {
	opts := ps.Options
	if len(opts) == 0 {
		opts = []OptionItem{
			{ID: "allow-once", Name: "Allow", Kind: "allow_once"},
			{ID: "reject-once", Name: "Reject", Kind: "reject_once"},
		}
	}
	options := make([]acpsdk.PermissionOption, len(opts))
	kinds := map[string]string{}
	for i, o := range opts {
		options[i] = acpsdk.PermissionOption{OptionId: acpsdk.PermissionOptionId(o.ID), Name: o.Name, Kind: acpsdk.PermissionOptionKind(o.Kind)}
		kinds[o.ID] = o.Kind
	}
	title, kind := p.expand(ps.Title), acpsdk.ToolKind(orDefault(ps.Kind, "execute"))
	key := permissionKey(string(kind), p.expand(ps.Command), title)
	if p.alwaysAllowed(key) {
		// Answered "Always allow" before in this conversation: no question.
		for _, o := range opts {
			if o.Kind == string(acpsdk.PermissionOptionKindAllowAlways) {
				p.vars["choice"] = o.ID
			}
		}
		return p.run(ctx, ps.OnAllow)
	}
	req := acpsdk.RequestPermissionRequest{
		SessionId: acpsdk.SessionId(p.sess.ID),
		ToolCall:  acpsdk.ToolCallUpdate{ToolCallId: acpsdk.ToolCallId(ps.ToolCallID), Title: &title, Kind: &kind},
		Options:   options,
	}
	if ps.Command != "" {
		req.ToolCall.RawInput = map[string]any{"command": p.expand(ps.Command)}
	}
	if ps.Bare {
		req.ToolCall = acpsdk.ToolCallUpdate{ToolCallId: acpsdk.ToolCallId(ps.ToolCallID)}
	}
	resp, err := p.a.c().RequestPermission(ctx, req)
	if err != nil {
		if ctx.Err() != nil {
			return errCancelled
		}
		return err
	}
	if resp.Outcome.Selected == nil {
		return errCancelled // the client answers "cancelled" only after session/cancel
	}
	p.vars["choice"] = string(resp.Outcome.Selected.OptionId)
	if kinds[string(resp.Outcome.Selected.OptionId)] == string(acpsdk.PermissionOptionKindAllowAlways) {
		p.rememberAllowed(key)
	}
	if strings.HasPrefix(kinds[string(resp.Outcome.Selected.OptionId)], "allow") {
		return p.run(ctx, ps.OnAllow)
	}
	return p.run(ctx, ps.OnReject)
}

// permissionKey names one action for "Always allow": what kind of tool,
// and the command it runs (its title when it runs none).
func permissionKey(kind, command, title string) string {
	if command != "" {
		return kind + "\x00" + command
	}
	return kind + "\x00\x00" + title
}

func (p *player) alwaysAllowed(key string) bool {
	p.a.mu.Lock()
	defer p.a.mu.Unlock()
	return slices.Contains(p.sess.AlwaysAllowed, key)
}

// rememberAllowed records an "Always allow"; the session is saved with the
// turn (Prompt), so a later process that loads it remembers too.
func (p *player) rememberAllowed(key string) {
	p.a.mu.Lock()
	defer p.a.mu.Unlock()
	if !slices.Contains(p.sess.AlwaysAllowed, key) {
		p.sess.AlwaysAllowed = append(p.sess.AlwaysAllowed, key)
	}
}

func (p *player) clarify(ctx context.Context, cs *ClarifyStep) error {
	raw, err := p.a.c().CallExtension(ctx, acp.ClarifyMethod, acp.ClarifyParams{SessionID: p.sess.ID, Question: p.expand(cs.Question), Choices: cs.Choices})
	if err != nil {
		if ctx.Err() != nil {
			return errCancelled
		}
		return err
	}
	var res acp.ClarifyResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return fmt.Errorf("clarify result: %w", err)
	}
	if res.Outcome != acp.ClarifyAnswered {
		return errCancelled
	}
	p.vars["answer"] = res.Answer
	return p.run(ctx, cs.Then)
}

func (p *player) recall() string {
	p.a.mu.Lock()
	turns := append([]turn(nil), p.sess.Turns...)
	p.a.mu.Unlock()
	if len(turns) == 0 {
		return "I don't remember anything yet: this is the first turn of the session."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "I remember %d earlier turn(s) in this session:\n\n", len(turns))
	for i, t := range turns {
		fmt.Fprintf(&b, "%d. You said: %q\n   I replied: %q\n", i+1, truncate(t.Prompt, 200), truncate(t.Reply, 200))
	}
	return b.String()
}

func (p *player) expand(s string) string {
	if !strings.Contains(s, "{") {
		return s
	}
	p.a.mu.Lock()
	model := p.sess.Model
	p.a.mu.Unlock()
	return strings.NewReplacer(
		"{prompt}", p.prompt, "{answer}", p.vars["answer"], "{choice}", p.vars["choice"],
		"{cwd}", p.sess.Cwd, "{session}", p.sess.ID, "{tool_output}", p.vars["tool_output"],
		"{i}", p.vars["i"], "{model}", model,
	).Replace(s)
}

// abs resolves a scenario path against the session's cwd; ACP wants
// absolute paths.
func (p *player) abs(path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(p.sess.Cwd, path)
}

func describe(err error) string {
	var re *acpsdk.RequestError
	if errors.As(err, &re) {
		if m, ok := re.Data.(map[string]any); ok {
			if d, ok := m["error"].(string); ok {
				return d
			}
		}
		return re.Message
	}
	return err.Error()
}

func sleep(ctx context.Context, ms int) error {
	if ms <= 0 {
		return nil
	}
	t := time.NewTimer(time.Duration(ms) * time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return errCancelled
	}
}

func chunkRunes(s string, n int) []string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return []string{s}
	}
	var out []string
	for len(s) > 0 {
		i, count := 0, 0
		for i < len(s) && count < n {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
			count++
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
