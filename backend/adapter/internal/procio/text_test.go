package procio

import (
	"strings"
	"testing"
	"testing/iotest"

	"github.com/hermesdesk/hermesdesk/backend/adapter"
	"github.com/hermesdesk/hermesdesk/backend/run"
)

func TestValidPrefix(t *testing.T) {
	b := []byte("aé")
	for cut := 0; cut <= len(b); cut++ {
		got := validPrefix(b[:cut])
		if !strings.HasPrefix("aé", string(b[:got])) || (cut == 2 && got != 1) {
			t.Fatalf("validPrefix(%q) = %d", b[:cut], got)
		}
	}
}

func TestStreamTextKeepsRunesWhole(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"ascii", "hello", "hello"},
		{"multibyte", "héllo wörld ✓", "héllo wörld ✓"},
		{"truncated rune at end", "ok\xe2\x9c", "ok\uFFFD"},
		{"invalid byte", "a\xffb", "a\uFFFDb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var deltas []string
			emit := adapter.EmitFunc(func(typ run.EventType, p any) error {
				if typ != run.EventTokenDelta {
					t.Fatalf("event %s", typ)
				}
				deltas = append(deltas, p.(run.TextDelta).Text)
				return nil
			})
			// One byte per Read: every multi-byte rune arrives split.
			StreamText(iotest.OneByteReader(strings.NewReader(tt.in)), emit)
			for _, d := range deltas {
				if strings.ContainsRune(d, '\uFFFD') && !strings.ContainsRune(tt.want, '\uFFFD') {
					t.Fatalf("a rune was split: %q", deltas)
				}
			}
			if got := strings.Join(deltas, ""); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}
