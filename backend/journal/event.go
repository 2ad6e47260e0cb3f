package journal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"unicode/utf8"

	"github.com/hermesdesk/hermesdesk/backend/redact"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// MaxPayload bounds one event's payload; bigger tool output belongs in a
// file the event points to.
const MaxPayload = 4 << 20

var typeRE = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$`)

// encodePayload turns a caller's payload into a JSON object.
// json.RawMessage and []byte pass through after validation.
func encodePayload(t run.EventType, p any) (json.RawMessage, error) {
	if len(t) == 0 || len(t) > 64 || !typeRE.MatchString(string(t)) {
		return nil, fmt.Errorf("%w: type %q is not a valid event type", ErrInvalidEvent, t)
	}
	var raw []byte
	switch v := p.(type) {
	case nil:
		return json.RawMessage("{}"), nil
	case json.RawMessage:
		raw = v
	case []byte:
		raw = v
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("%w: %s payload: %v", ErrInvalidEvent, t, err)
		}
		raw = b
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) > MaxPayload {
		return nil, fmt.Errorf("%w: %s payload is %d bytes (limit %d)", ErrInvalidEvent, t, len(raw), MaxPayload)
	}
	if len(raw) == 0 || raw[0] != '{' || !json.Valid(raw) {
		return nil, fmt.Errorf("%w: %s payload is not a JSON object", ErrInvalidEvent, t)
	}
	// Copy: the caller may reuse its buffer after Append returns.
	return append(json.RawMessage(nil), raw...), nil
}

// checkPayload validates what the journal derives state from.
func checkPayload(t run.EventType, raw json.RawMessage) error {
	bad := func(why string) error { return fmt.Errorf("%w: %s: %s", ErrInvalidEvent, t, why) }
	switch t {
	case run.EventDone:
		var d run.Done
		if err := json.Unmarshal(raw, &d); err != nil {
			return bad(err.Error())
		}
		if !d.Status.Terminal() {
			return bad(fmt.Sprintf("status %q is not terminal", d.Status))
		}
	case run.EventStatus:
		var st run.StatusChanged
		if err := json.Unmarshal(raw, &st); err != nil {
			return bad(err.Error())
		}
		if !st.Status.Valid() || st.Status.Terminal() {
			return bad(fmt.Sprintf("status %q is not a live run status (a run ends with done)", st.Status))
		}
	case run.EventApprovalRequest, run.EventApprovalResolved:
		var a struct {
			ID string `json:"approval_id"`
		}
		if err := json.Unmarshal(raw, &a); err != nil || a.ID == "" {
			return bad("approval_id is required")
		}
	case run.EventClarifyRequest, run.EventClarifyResolved:
		var c struct {
			ID string `json:"clarify_id"`
		}
		if err := json.Unmarshal(raw, &c); err != nil || c.ID == "" {
			return bad("clarify_id is required")
		}
	}
	return nil
}

// isDelta: token-level events, redacted as a stream and compacted by
// retention.
func isDelta(t run.EventType) bool {
	return t == run.EventTokenDelta || t == run.EventReasoningDelta
}

// deltaText extracts the text of a delta payload, keeping any other fields.
func deltaText(t run.EventType, p any) (string, map[string]json.RawMessage, error) {
	switch v := p.(type) {
	case run.TextDelta:
		return v.Text, nil, nil
	case *run.TextDelta:
		if v == nil {
			return "", nil, nil
		}
		return v.Text, nil, nil
	}
	raw, err := encodePayload(t, p)
	if err != nil {
		return "", nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return "", nil, fmt.Errorf("%w: %s payload: %v", ErrInvalidEvent, t, err)
	}
	var text string
	if r, ok := m["text"]; ok {
		if err := json.Unmarshal(r, &text); err != nil {
			return "", nil, fmt.Errorf("%w: %s: text is not a string", ErrInvalidEvent, t)
		}
	}
	delete(m, "text")
	if len(m) == 0 {
		m = nil
	}
	return text, m, nil
}

func deltaPayload(text string, extra map[string]json.RawMessage) json.RawMessage {
	if extra == nil {
		// Hand-encoded: this is the hottest payload (one per token).
		b := make([]byte, 0, len(text)+16)
		b = append(b, `{"text":`...)
		b = appendJSONString(b, text)
		return append(b, '}')
	}
	m := make(map[string]json.RawMessage, len(extra)+1)
	for k, v := range extra {
		m[k] = v
	}
	m["text"], _ = json.Marshal(text)
	b, _ := json.Marshal(m)
	return b
}

// redactPayload masks secrets in a non-delta payload.
func redactPayload(raw json.RawMessage) json.RawMessage {
	out, _ := redact.JSON(raw)
	return out
}

type jsonRaw = json.RawMessage

// appendJSONString appends s as a JSON string, escaping what JSON requires
// (quote, backslash, control characters), U+2028/U+2029 like
// encoding/json, and replacing invalid UTF-8 with U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
