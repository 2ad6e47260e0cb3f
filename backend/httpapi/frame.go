package httpapi

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// appendFrame appends one SSE frame for ev: id, event type and the
// envelope as a single data line. It is the hot path of fan-out (every
// event × every watcher), so the envelope is written by hand instead of
// through reflection; FuzzAppendFrame checks it against encoding/json.
func appendFrame(dst []byte, ev run.Event) []byte {
	dst = append(dst, "id: "...)
	dst = appendLine(dst, ev.EventID)
	dst = append(dst, "\nevent: "...)
	dst = appendLine(dst, string(ev.Type))
	dst = append(dst, "\ndata: "...)
	dst = appendEnvelope(dst, ev)
	return append(dst, "\n\n"...)
}

// appendLine keeps an SSE field on one line.
func appendLine(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\n' || c == '\r' {
			c = ' '
		}
		dst = append(dst, c)
	}
	return dst
}

// appendEnvelope is json.Marshal(ev) without reflection.
func appendEnvelope(dst []byte, ev run.Event) []byte {
	dst = append(dst, `{"event_id":`...)
	dst = appendString(dst, ev.EventID)
	dst = append(dst, `,"seq":`...)
	dst = strconv.AppendInt(dst, ev.Seq, 10)
	dst = append(dst, `,"run_id":`...)
	dst = appendString(dst, ev.RunID)
	dst = append(dst, `,"session_id":`...)
	dst = appendString(dst, ev.SessionID)
	dst = append(dst, `,"type":`...)
	dst = appendString(dst, string(ev.Type))
	dst = append(dst, `,"created_at":`...)
	dst = appendFloat(dst, ev.CreatedAt)
	dst = append(dst, `,"terminal":`...)
	dst = strconv.AppendBool(dst, ev.Terminal)
	dst = append(dst, `,"payload":`...)
	dst = appendRaw(dst, ev.Payload)
	return append(dst, '}')
}

// appendString writes s as a JSON string; anything beyond plain printable
// ASCII goes through encoding/json for exact escaping.
func appendString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(s)
			return append(dst, b...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// appendFloat formats like encoding/json (ES6 number formatting).
func appendFloat(dst []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, '0') // json.Marshal would fail; never stored
	}
	abs := math.Abs(f)
	fmt := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		fmt = 'e'
	}
	dst = strconv.AppendFloat(dst, f, fmt, -1, 64)
	if fmt == 'e' {
		// clean up e-09 to e-9, as encoding/json does
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

// appendRaw writes a payload already validated by the journal; one that
// spans lines or is not valid JSON is compacted or replaced by null so it
// can never break the SSE framing.
func appendRaw(dst []byte, raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return append(dst, "null"...)
	}
	if bytes.IndexByte(raw, '\n') < 0 && bytes.IndexByte(raw, '\r') < 0 && json.Valid(raw) {
		return append(dst, raw...)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return append(dst, "null"...)
	}
	return append(dst, buf.Bytes()...)
}
