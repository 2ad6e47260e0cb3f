package redact

// needles are lowercase substrings at least one of which appears in any
// text a pattern can match. Checking them by hand is ~100× cheaper than
// running the (case-insensitive, many-alternative) regexps, and most text
// contains none, so the regexps run only on the rare suspicious piece.
var needles = []string{
	// provider key prefixes (case-folded)
	"sk-", "sk_live_", "sk_test_", "aiza", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-",
	"xoxa-", "xoxb-", "xoxp-", "xoxr-", "xoxs-", "akia", "asia", "npm_", "hf_", "eyj",
	// passwords in URLs
	"://",
	// assignment keywords and bearer tokens
	"bearer", "authorization", "password", "passwd", "pwd", "secret", "api_key", "api-key", "apikey",
	"access_token", "access-token", "accesstoken", "auth_token", "auth-token", "authtoken",
	"refresh_token", "refresh-token", "refreshtoken", "private_key", "private-key", "privatekey",
	"access_key", "access-key", "accesskey", "token",
	// PEM blocks
	"-----begin",
}

// The needles' trie is a flat transition table over the few bytes the
// needles use: every process that links this package (the core, each shim)
// holds it for its whole life, so it is kept small — ~20 KiB, where a node
// with 256 child pointers made ~500 KiB of heap (docs/ARCHITECTURE.md
// §Memory). Input is folded to lowercase through the class table.
type needleTrie struct {
	class   [256]uint8 // byte → column; 0: in no needle
	classes int        // columns per node (0 included)
	next    []uint16   // node*classes + column → child; 0: none (the root is no child)
	end     []bool     // node ends a needle
}

var trie = buildTrie(needles)

func buildTrie(words []string) *needleTrie {
	t := &needleTrie{classes: 1}
	for _, w := range words {
		for i := 0; i < len(w); i++ {
			c := w[i]
			if t.class[c] != 0 {
				continue
			}
			t.class[c] = uint8(t.classes)
			if c >= 'a' && c <= 'z' {
				t.class[c-'a'+'A'] = uint8(t.classes)
			}
			t.classes++
		}
	}
	nodes := 1 // at most one per needle byte, plus the root: sized once
	for _, w := range words {
		nodes += len(w)
	}
	t.next = make([]uint16, t.classes, nodes*t.classes)
	t.end = make([]bool, 1, nodes)
	for _, w := range words {
		n := 0
		for i := 0; i < len(w); i++ {
			at := n*t.classes + int(t.class[w[i]])
			if t.next[at] == 0 {
				t.next[at] = uint16(len(t.end))
				t.next = append(t.next, make([]uint16, t.classes)...)
				t.end = append(t.end, false)
			}
			n = int(t.next[at])
		}
		t.end[n] = true
	}
	return t
}

// suspicious reports whether s contains any needle, ignoring ASCII case.
func suspicious[T string | []byte](s T) bool {
	t := trie
	for i := 0; i < len(s); i++ {
		n := 0
		for j := i; j < len(s); j++ {
			c := t.class[s[j]]
			if c == 0 {
				break
			}
			if n = int(t.next[n*t.classes+int(c)]); n == 0 {
				break
			}
			if t.end[n] {
				return true
			}
		}
	}
	return false
}
