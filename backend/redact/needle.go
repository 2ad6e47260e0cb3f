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

// trie holds the needles, lowercase edges; input is folded while walking.
type trieNode struct {
	next [256]*trieNode
	end  bool
}

var root = func() *trieNode {
	r := &trieNode{}
	for _, n := range needles {
		cur := r
		for i := 0; i < len(n); i++ {
			if cur.next[n[i]] == nil {
				cur.next[n[i]] = &trieNode{}
			}
			cur = cur.next[n[i]]
		}
		cur.end = true
	}
	return r
}()

// suspicious reports whether s contains any needle, ignoring ASCII case.
func suspicious[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		n := root
		for j := i; j < len(s); j++ {
			c := s[j]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			if n = n.next[c]; n == nil {
				break
			}
			if n.end {
				return true
			}
		}
	}
	return false
}
