package redact

import "strings"

// MaxHold bounds the tail a Stream holds back (a PEM block may hold up to
// MaxPEMHold). Past it the text is released, redacted as it stands.
const (
	MaxHold    = 1024
	MaxPEMHold = 64 << 10
)

var (
	keywords = []string{"bearer", "authorization", "password", "passwd", "pwd", "secret",
		"api_key", "api-key", "apikey", "access_key", "access-key", "accesskey", "access_token", "access-token",
		"accesstoken", "auth_token", "auth-token", "authtoken", "refresh_token", "refresh-token", "refreshtoken",
		"private_key", "private-key", "privatekey", "token"}
)

// Stream redacts text that arrives in pieces. Write returns the part of the
// text so far that is safe to release; a tail that might be the start of a
// secret is held back until the next piece shows how it ends, or until
// Flush. A secret split across pieces is therefore masked whole. Not safe
// for concurrent use.
type Stream struct {
	held  string
	inPEM bool // inside a private key block too long to hold: drop until END
	inKey bool // inside a key too long to hold: drop its remaining characters
}

// Write adds a piece and returns the text now safe to release (possibly
// empty when everything is held back).
func (s *Stream) Write(piece string) string {
	buf := s.held + piece
	s.held = ""
	var out strings.Builder
	if s.inPEM {
		end := patterns().pemEnd.FindStringIndex(buf)
		if end == nil {
			// Keep only what could be the start of the END line.
			if i := strings.LastIndex(buf, "-----"); i >= 0 && len(buf)-i < 64 {
				s.held = buf[i:]
			}
			return ""
		}
		s.inPEM = false
		buf = buf[end[1]:]
	}
	if s.inKey {
		i := 0
		for i < len(buf) && isKeyChar(buf[i]) {
			i++
		}
		if i == len(buf) {
			return ""
		}
		s.inKey = false
		buf = buf[i:]
	}
	if !suspicious(buf) {
		// Fast path (almost every piece): no pattern can match, so only a
		// trailing word that may start a key or keyword is held.
		cut := holdWord(buf)
		s.held = buf[cut:]
		return buf[:cut]
	}
	cut := holdFrom(buf)
	limit := MaxHold
	if strings.Contains(buf[cut:], "-----BEGIN") {
		limit = MaxPEMHold
	}
	if len(buf)-cut > limit {
		if patterns().pemOpen.MatchString(buf) && !patterns().pem.MatchString(buf[strings.LastIndex(buf, "-----BEGIN"):]) {
			s.inPEM = true
		} else if isKeyChar(buf[len(buf)-1]) {
			s.inKey = true
		}
		cut = len(buf)
	}
	out.WriteString(String(buf[:cut]))
	s.held = buf[cut:]
	return out.String()
}

// Flush releases whatever is held, redacted, and resets the stream.
func (s *Stream) Flush() string {
	out := String(s.held)
	s.held = ""
	s.inKey = false
	if s.inPEM {
		s.inPEM = false
		return ""
	}
	return out
}

// Held reports how many bytes are held back.
func (s *Stream) Held() int { return len(s.held) }

// holdFrom returns the index from which buf's tail must be held back
// because it might be (the start of) a secret that continues in the next
// piece; len(buf) when nothing needs holding.
func holdFrom(buf string) int {
	cut := len(buf)
	// An unfinished PEM block, or the start of its BEGIN line.
	if i := strings.LastIndex(buf, "-----BEGIN"); i >= 0 && !patterns().pem.MatchString(buf[i:]) && !publicPEM(buf[i:]) {
		cut = min(cut, i)
	}
	// A keyword whose value may continue ("Bearer ", "password=hun").
	if suspicious(buf) {
		if loc := patterns().pendingAssign.FindStringIndex(buf); loc != nil {
			cut = min(cut, loc[0])
		}
	}
	return min(cut, holdWord(buf))
}

// holdWord returns where a trailing word that is (or may become) a
// provider key or a keyword starts; len(buf) when there is none.
func holdWord(buf string) int {
	cut := len(buf)
	// Also the start of a PEM BEGIN line.
	if j := trailingPrefixOf(buf, "-----BEGIN"); j < cut {
		cut = j
	}
	j := len(buf)
	for j > 0 && isKeyChar(buf[j-1]) {
		j--
	}
	tail := buf[j:]
	for k := 0; k < len(tail); k++ {
		rest := tail[k:]
		// A key starts at a word boundary; a keyword may also start a
		// part of a longer name (AWS_SEC|RET_ACCESS_KEY=…).
		if (k == 0 || !isWordChar(tail[k-1])) && startsKey(rest) ||
			(k == 0 || !isAlnum(tail[k-1])) && isKeywordPrefix(rest) {
			cut = min(cut, j+k)
			break
		}
	}
	return min(cut, holdURL(buf))
}

// holdURL returns where a trailing URL that may still carry a password
// (scheme://user:PASSWORD@) starts — or a word that may become one
// ("postgres:", "https:/") — ; len(buf) when there is none.
func holdURL(buf string) int {
	j := len(buf)
	for j > 0 && !isSpace(buf[j-1]) && !strings.ContainsRune("\"'<>()[]{}`", rune(buf[j-1])) {
		j--
	}
	run := buf[j:]
	if strings.Contains(run, "://") || strings.HasSuffix(run, ":") || strings.HasSuffix(run, ":/") {
		return j
	}
	return len(buf)
}

// startsKey: rest begins with a provider key prefix, or is a prefix of one.
func startsKey(rest string) bool {
	for _, p := range keyPrefixes {
		if strings.HasPrefix(rest, p) || strings.HasPrefix(p, rest) {
			return true
		}
	}
	return false
}

func isKeywordPrefix(rest string) bool {
	low := strings.ToLower(rest)
	for _, k := range keywords {
		if strings.HasPrefix(k, low) {
			return true
		}
	}
	return false
}

// trailingPrefixOf returns where buf ends with a non-empty prefix of marker
// starting a word (len(buf) when it does not).
func trailingPrefixOf(buf, marker string) int {
	for n := min(len(marker)-1, len(buf)); n > 0; n-- {
		j := len(buf) - n
		if strings.HasSuffix(buf, marker[:n]) && (j == 0 || isSpace(buf[j-1])) {
			return j
		}
	}
	return len(buf)
}

func isKeyChar(c byte) bool {
	return isWordChar(c) || c == '-' || c == '.' || c == '+' || c == '/' || c == '='
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isWordChar(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// publicPEM: a complete BEGIN line that does not announce a private key
// (a certificate, a public key) needs no holding.
func publicPEM(block string) bool {
	rest := block[len("-----BEGIN"):]
	end := strings.Index(rest, "-----")
	return end >= 0 && !strings.Contains(rest[:end], "PRIVATE KEY")
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }
