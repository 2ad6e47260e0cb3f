package workspaces

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The files a setup script is read from, best first
// (docs/ARCHITECTURE.md §Workspaces, "Setup").
const (
	SetupFileOwn       = ".hermesdesk/workspace.json"
	SetupFileConductor = "conductor.json"
	SetupFileCodex     = ".codex/environments/environment.toml"
)

// SetupFiles lists the setup files in precedence order.
var SetupFiles = []string{SetupFileOwn, SetupFileConductor, SetupFileCodex}

// Setup is the setup script a workspace runs and the file it came from.
type Setup struct {
	Source string `json:"source,omitempty"`
	Script string `json:"script,omitempty"`
}

// ChooseSetup picks the setup script from the files found in the
// repository (name → content; a missing file is absent from the map). The
// first file in SetupFiles that names a non-empty script wins; a file that
// cannot be read as its format is an error naming it, so a typo is said
// rather than silently skipped to the next file.
func ChooseSetup(files map[string][]byte) (Setup, error) {
	for _, name := range SetupFiles {
		data, ok := files[name]
		if !ok {
			continue
		}
		script, err := setupScript(name, data)
		if err != nil {
			return Setup{}, fmt.Errorf("the setup file %s could not be read: %w", name, err)
		}
		if strings.TrimSpace(script) != "" {
			return Setup{Source: name, Script: script}, nil
		}
	}
	return Setup{}, nil
}

func setupScript(name string, data []byte) (string, error) {
	switch name {
	case SetupFileOwn:
		var f struct {
			Setup string `json:"setup"`
		}
		err := json.Unmarshal(data, &f)
		return f.Setup, err
	case SetupFileConductor:
		var f struct {
			Scripts struct {
				Setup string `json:"setup"`
			} `json:"scripts"`
		}
		err := json.Unmarshal(data, &f)
		return f.Scripts.Setup, err
	case SetupFileCodex:
		return codexSetupScript(string(data))
	}
	return "", nil
}

// codexSetupScript reads `script` of the `[setup]` table of a Codex
// environment file. Only what that key needs of TOML is read: basic and
// literal strings, single- or multi-line; anything else in the file is
// skipped.
func codexSetupScript(doc string) (string, error) {
	table := ""
	for rest := doc; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			table = strings.TrimSpace(strings.Trim(t, "[]"))
			continue
		}
		if table != "setup" {
			continue
		}
		key, val, ok := strings.Cut(t, "=")
		if !ok || strings.TrimSpace(key) != "script" {
			continue
		}
		val = strings.TrimLeft(val, " \t")
		for _, q := range []string{`"""`, `'''`} {
			if strings.HasPrefix(val, q) {
				body := strings.TrimPrefix(val, q) + "\n" + rest
				body = strings.TrimPrefix(body, "\n") // a newline right after the opener is dropped
				end := strings.Index(body, q)
				if end < 0 {
					return "", fmt.Errorf("the setup script's %s string is not closed", q)
				}
				if q == `"""` {
					return unescapeBasic(body[:end])
				}
				return body[:end], nil
			}
		}
		switch {
		case strings.HasPrefix(val, `"`):
			end := closingQuote(val[1:])
			if end < 0 {
				return "", fmt.Errorf("the setup script's string is not closed")
			}
			return unescapeBasic(val[1 : 1+end])
		case strings.HasPrefix(val, `'`):
			end := strings.IndexByte(val[1:], '\'')
			if end < 0 {
				return "", fmt.Errorf("the setup script's string is not closed")
			}
			return val[1 : 1+end], nil
		}
		return "", fmt.Errorf("the setup script is not a string")
	}
	return "", nil
}

// closingQuote finds the closing " of a basic string, past escapes.
func closingQuote(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// unescapeBasic undoes the escapes of a TOML basic string.
func unescapeBasic(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(s) {
			return "", fmt.Errorf("the setup script ends in a lone backslash")
		}
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '"', '\\':
			b.WriteByte(s[i])
		case '\n':
			// A line-ending backslash joins lines (multi-line strings).
			for i+1 < len(s) && (s[i+1] == ' ' || s[i+1] == '\t' || s[i+1] == '\n') {
				i++
			}
		default:
			return "", fmt.Errorf("the setup script has an escape TOML does not know: \\%c", s[i])
		}
	}
	return b.String(), nil
}
