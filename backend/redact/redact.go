// Package redact removes secrets from text before it is stored: API keys of
// the common providers, bearer tokens, password/api_key style assignments
// and PEM private keys. String handles complete text; Stream handles text
// that arrives in pieces (token deltas), holding back a small tail so a key
// split across two pieces is still caught; JSON handles event payloads.
//
// Redaction is best effort by pattern: it is a safety net for the journal,
// not a guarantee that no secret can ever be stored.
package redact

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
)

// Mask replaces a secret (after a short, non-secret prefix that says what
// kind of secret it was, such as "sk-ant-" or "ghp_").
const Mask = "[REDACTED]"

// PEMMask replaces a whole private key block.
const PEMMask = "[REDACTED PRIVATE KEY]"

// keyPrefixes are the literal starts of provider keys, longest first so the
// kept hint is the most specific one.
var keyPrefixes = []string{
	"github_pat_", "sk-proj-", "sk-ant-", "glpat-", "xoxa-", "xoxb-", "xoxp-", "xoxr-", "xoxs-",
	"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "AIza", "AKIA", "ASIA", "sk-", "sk_live_", "sk_test_",
	"npm_", "hf_", "eyJ",
}

// patterns are compiled on first use (~200 KiB of heap): the needle check
// keeps most text from ever needing them, and every hermesdesk process
// links this package (docs/ARCHITECTURE.md §Memory).
type patternSet struct {
	key, bearer, assign, url, pem, pemOpen, pemEnd, pendingAssign *regexp.Regexp
}

var patterns = sync.OnceValue(func() *patternSet {
	return &patternSet{
		key: regexp.MustCompile(`\b(?:` +
			`sk-ant-[A-Za-z0-9_\-]{16,}` +
			`|sk-[A-Za-z0-9_\-]{16,}` +
			`|sk_(?:live|test)_[A-Za-z0-9]{16,}` +
			`|AIza[0-9A-Za-z_\-]{30,}` +
			`|gh[pousr]_[A-Za-z0-9]{30,}` +
			`|github_pat_[A-Za-z0-9_]{30,}` +
			`|glpat-[A-Za-z0-9_\-]{20,}` +
			`|xox[abprs]-[A-Za-z0-9\-]{10,}` +
			`|(?:AKIA|ASIA)[0-9A-Z]{16}` +
			`|hf_[A-Za-z0-9]{30,}` +
			`|npm_[A-Za-z0-9]{30,}` +
			// A JWT: base64url header and payload (both JSON objects, so
			// "eyJ"), then the signature.
			`|eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}` +
			`)`),
		bearer: regexp.MustCompile(`(?i)\b(bearer\s+)([A-Za-z0-9\-._~+/]{8,}=*)`),
		// An assignment: a name with a part starting with a keyword
		// (DB_PASSWORD, AWS_SECRET_ACCESS_KEY, client_secret) or ending in "token"
		// (GITHUB_TOKEN, "token", but not max_tokens), optional closing quote,
		// ':' or '=', optional opening quote, then the value up to a quote,
		// space or separator.
		assign: regexp.MustCompile(`(?i)\b((?:` + namePart + `(?:` + keywordAlt + `)` + nameChars + `*|` + namePart + `token)["']?\s*[:=]\s*["']?)([^\s"'&,;\\]{3,})`),
		// A password in a URL: scheme://user:PASSWORD@host.
		// (The scheme may be missing: streamed text can be cut just before
		// "://", and the part before it is already released.)
		url: regexp.MustCompile(`((?:[A-Za-z][A-Za-z0-9+.\-]*)?://[^\s:/@"'<>]+:)([^\s@/"'<>]+)@`),
		pem: regexp.MustCompile(`-----BEGIN[A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?-----END[A-Z0-9 ]*PRIVATE KEY-----`),
		// pemOpen catches a private key block that never ends (truncated
		// output): everything after BEGIN is masked.
		pemOpen: regexp.MustCompile(`-----BEGIN[A-Z0-9 ]*PRIVATE KEY-----[\s\S]*$`),
		pemEnd:  regexp.MustCompile(`-----END[A-Z0-9 ]*PRIVATE KEY-----`),
		// A keyword whose value may still be arriving: hold from the keyword.
		// (The keyword may sit inside a longer name: AWS_SECRET_ACCESS_KEY.)
		pendingAssign: regexp.MustCompile(`(?i)(?:bearer|authorization|token|` + keywordAlt + `)` + nameChars + `*["']?\s*[:=]?\s*["']?[^\s"'&,;\\]*$`),
	}
})

const (
	keywordAlt = `password|passwd|pwd|secret|api[_-]?key|access[_-]?key|access[_-]?token|auth[_-]?token|refresh[_-]?token|private[_-]?key`
	nameChars  = `[A-Za-z0-9_\-]`
	// namePart: the parts of a name before the keyword, each ending in
	// _ or - (AWS_, DB_, _): the keyword starts a part of the name.
	namePart = `(?:[A-Za-z0-9]*[_\-])*?`
)

// String returns s with every secret it recognizes masked.
func String(s string) string {
	if !suspicious(s) {
		return s
	}
	p := patterns()
	s = p.pem.ReplaceAllLiteralString(s, PEMMask)
	s = p.pemOpen.ReplaceAllLiteralString(s, PEMMask)
	s = p.key.ReplaceAllStringFunc(s, func(k string) string { return hint(k) + Mask })
	s = p.bearer.ReplaceAllString(s, "${1}"+Mask)
	s = p.url.ReplaceAllString(s, "${1}"+Mask+"@")
	s = p.assign.ReplaceAllStringFunc(s, func(m string) string {
		sub := p.assign.FindStringSubmatch(m)
		if sub[2] == Mask || strings.HasSuffix(sub[2], Mask) {
			return m // already masked by an earlier pattern
		}
		return sub[1] + Mask
	})
	return s
}

func hint(key string) string {
	for _, p := range keyPrefixes {
		if strings.HasPrefix(key, p) {
			return p
		}
	}
	return ""
}

// JSON redacts every string (keys stay) inside a JSON document. It returns
// raw unchanged, and false, when there is nothing to redact. Invalid JSON is
// returned unchanged; validation is the caller's job.
func JSON(raw []byte) ([]byte, bool) {
	if !suspicious(raw) {
		return raw, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return raw, false
	}
	changed := false
	v = walk(v, &changed)
	if !changed {
		return raw, false
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return raw, false
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), true
}

func walk(v any, changed *bool) any {
	switch t := v.(type) {
	case string:
		r := String(t)
		if r != t {
			*changed = true
		}
		return r
	case []any:
		for i := range t {
			t[i] = walk(t[i], changed)
		}
	case map[string]any:
		for k, x := range t {
			t[k] = walk(x, changed)
		}
	}
	return v
}
