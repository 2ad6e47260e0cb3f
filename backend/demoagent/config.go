package demoagent

import (
	"context"
	"strconv"

	acpsdk "github.com/coder/acp-go-sdk"
)

// Session config options, as OpenCode, codex-acp and Mistral Vibe report
// their settings (Options.ConfigOptions): the models only as a "model"
// selector, a mode, a thought level and a switch — so a client's header
// and its set_config_option path are testable without those agents.

// configState is one session's settings.
type configState struct {
	Mode, Effort string
	AllowAll     bool
}

func selectOption(id, name, category, current string, values ...[2]string) acpsdk.SessionConfigOption {
	opts := make(acpsdk.SessionConfigSelectOptionsUngrouped, 0, len(values))
	for _, v := range values {
		opts = append(opts, acpsdk.SessionConfigSelectOption{Value: acpsdk.SessionConfigValueId(v[0]), Name: v[1]})
	}
	o := acpsdk.NewSessionConfigOptionSelect(acpsdk.SessionConfigValueId(current), acpsdk.SessionConfigSelectOptions{Ungrouped: &opts})
	o.Select.Id, o.Select.Name = acpsdk.SessionConfigId(id), name
	cat := acpsdk.SessionConfigOptionCategory(category)
	o.Select.Category = &cat
	return o
}

// configOptions is the session's settings as ACP configOptions.
func (s *session) configOptions() []acpsdk.SessionConfigOption {
	model := s.Model
	if model == "" {
		model = string(models[0].ModelId)
	}
	var modelValues [][2]string
	for _, m := range models {
		modelValues = append(modelValues, [2]string{string(m.ModelId), m.Name})
	}
	allow := acpsdk.NewSessionConfigOptionBoolean(s.Config.AllowAll)
	allow.Boolean.Id, allow.Boolean.Name = "allow_all", "Allow all tools"
	return []acpsdk.SessionConfigOption{
		selectOption("model", "Model", "model", model, modelValues...),
		selectOption("mode", "Mode", "mode", orDefault(s.Config.Mode, "build"), [2]string{"build", "Build"}, [2]string{"plan", "Plan"}),
		selectOption("reasoning_effort", "Reasoning effort", "thought_level", orDefault(s.Config.Effort, "medium"),
			[2]string{"low", "Low"}, [2]string{"medium", "Medium"}, [2]string{"high", "High"}),
		allow,
	}
}

// SetSessionConfigOption sets one of the session's settings and answers
// with all of them; without Options.ConfigOptions the agent has none.
func (a *agent) SetSessionConfigOption(_ context.Context, p acpsdk.SetSessionConfigOptionRequest) (acpsdk.SetSessionConfigOptionResponse, error) {
	if !a.configOptions || p.ValueId == nil && p.Boolean == nil {
		return acpsdk.SetSessionConfigOptionResponse{}, acpsdk.NewMethodNotFound("session/set_config_option")
	}
	var sid acpsdk.SessionId
	var id acpsdk.SessionConfigId
	var val string
	if v := p.ValueId; v != nil {
		sid, id, val = v.SessionId, v.ConfigId, string(v.Value)
	} else {
		sid, id, val = p.Boolean.SessionId, p.Boolean.ConfigId, strconv.FormatBool(p.Boolean.Value)
	}
	sess, err := a.session(sid)
	if err != nil {
		return acpsdk.SetSessionConfigOptionResponse{}, err
	}
	bad := acpsdk.NewInvalidParams(map[string]any{"configId": id, "value": val, "error": "unknown value"})
	a.mu.Lock()
	switch id {
	case "model":
		if !knownModel(val) {
			a.mu.Unlock()
			return acpsdk.SetSessionConfigOptionResponse{}, bad
		}
		sess.Model = val
	case "mode":
		sess.Config.Mode = val
	case "reasoning_effort":
		sess.Config.Effort = val
	case "allow_all":
		if p.Boolean == nil {
			a.mu.Unlock()
			return acpsdk.SetSessionConfigOptionResponse{}, bad // a switch takes a boolean
		}
		sess.Config.AllowAll = p.Boolean.Value
	default:
		a.mu.Unlock()
		return acpsdk.SetSessionConfigOptionResponse{}, bad
	}
	opts := sess.configOptions()
	a.mu.Unlock()
	return acpsdk.SetSessionConfigOptionResponse{ConfigOptions: opts}, a.store.save(sess)
}

func knownModel(id string) bool {
	for _, m := range models {
		if string(m.ModelId) == id {
			return true
		}
	}
	return false
}
