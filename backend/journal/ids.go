package journal

import (
	"crypto/rand"
	"encoding/base32"
	"strings"
)

var idEncoding = base32.NewEncoding("0123456789abcdefghjkmnpqrstvwxyz").WithPadding(base32.NoPadding)

// newID returns prefix + 16 lowercase base32 chars (80 random bits).
func newID(prefix string) string {
	var b [10]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("journal: crypto/rand failed: " + err.Error()) // never on supported OSes
	}
	return prefix + strings.ToLower(idEncoding.EncodeToString(b[:]))
}

const (
	prefixProject = "prj_"
	prefixSession = "ses_"
	prefixMessage = "msg_"
	prefixTurn    = "trn_"
	prefixRun     = "run_"
)
