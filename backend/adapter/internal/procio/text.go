package procio

import (
	"io"
	"strings"
	"unicode/utf8"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

// StreamText emits r's bytes as token deltas as they come, never splitting
// a UTF-8 character across two deltas (a rune cut in half would show as two
// replacement characters). Invalid bytes become U+FFFD.
func StreamText(r io.Reader, emit adapter.Emitter) {
	buf := make([]byte, 32<<10)
	var pending []byte
	for {
		n, err := r.Read(buf)
		if n > 0 {
			pending = append(pending, buf[:n]...)
			if cut := validPrefix(pending); cut > 0 {
				_ = emit.Emit(run.EventTokenDelta, run.TextDelta{Text: strings.ToValidUTF8(string(pending[:cut]), "\uFFFD")})
				pending = append(pending[:0], pending[cut:]...)
			}
		}
		if err != nil {
			if len(pending) > 0 {
				_ = emit.Emit(run.EventTokenDelta, run.TextDelta{Text: strings.ToValidUTF8(string(pending), "\uFFFD")})
			}
			return
		}
	}
}

// validPrefix is the length of b without an incomplete trailing rune.
func validPrefix(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return len(b)
}
