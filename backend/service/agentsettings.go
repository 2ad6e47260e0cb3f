package service

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
)

// An agent's settings ("agents.<name>") become its command line,
// environment and endpoint: they are checked when saved, with a message
// saying what is wrong, rather than stored and failing at the next run.
// The shape is adapter.Config's; fields this build does not know are kept
// (the settings dialog keeps them too).

var (
	envNameRE    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)
	optionNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)
)

// checkAgentSettings returns a bad-request error naming key and the field
// that is wrong, or nil. Settings other than agents.<name> pass.
func checkAgentSettings(key string, v json.RawMessage) error {
	if !strings.HasPrefix(key, "agents.") {
		return nil
	}
	bad := func(format string, args ...any) error {
		return badRequest("%s: %s", key, fmt.Sprintf(format, args...))
	}
	v = bytes.TrimSpace(v)
	if len(v) == 0 || string(v) == "null" {
		return nil
	}
	if v[0] != '{' {
		return bad("an agent's settings must be an object")
	}
	var c struct {
		Command *[]string          `json:"command"`
		Env     *[]string          `json:"env"`
		BaseURL *string            `json:"base_url"`
		APIKey  *string            `json:"api_key"`
		Home    *string            `json:"home"`
		Options *map[string]string `json:"options"`
	}
	if err := json.Unmarshal(v, &c); err != nil {
		var typ *json.UnmarshalTypeError
		if ok := asType(err, &typ); ok && typ.Field != "" {
			return bad("%s has the wrong type", typ.Field)
		}
		return bad("not valid settings")
	}
	if c.Command != nil {
		if len(*c.Command) > 0 && strings.TrimSpace((*c.Command)[0]) == "" {
			return bad("command must start with a program")
		}
		for _, w := range *c.Command {
			if strings.ContainsRune(w, 0) {
				return bad("command holds a NUL character")
			}
		}
	}
	if c.Env != nil {
		for i, e := range *c.Env {
			if !envNameRE.MatchString(e) || strings.ContainsRune(e, 0) {
				return bad("env entry %d is not KEY=VALUE (a name of letters, digits and _, then =)", i+1)
			}
		}
	}
	if c.BaseURL != nil && *c.BaseURL != "" {
		u, err := url.Parse(*c.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return bad("base_url must be an http:// or https:// address")
		}
	}
	if c.Home != nil && *c.Home != "" && !filepath.IsAbs(*c.Home) {
		return bad("home must be an absolute path")
	}
	if c.Options != nil {
		for k := range *c.Options {
			if !optionNameRE.MatchString(k) {
				return bad("option %q is not a name of letters, digits, _ . -", k)
			}
		}
	}
	return nil
}

func asType[T error](err error, target *T) bool {
	t, ok := err.(T)
	if ok {
		*target = t
	}
	return ok
}
