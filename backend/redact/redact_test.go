package redact

import (
	"encoding/json"
	"strings"
	"testing"
)

// Fake secrets built at run time so scanners do not flag this file.
var (
	openAIKey    = "sk-" + "proj-" + strings.Repeat("Ab3x", 10)
	anthropicKey = "sk-ant-" + "api03-" + strings.Repeat("Zq9_", 12)
	googleKey    = "AIza" + strings.Repeat("Sy7k", 9)
	githubToken  = "ghp_" + strings.Repeat("a1B2", 9)
	slackToken   = "xoxb-" + "123456789012-" + strings.Repeat("x9", 8)
	awsKey       = "AKIA" + "IOSFODNN7EXAMPLE"
	pemKey       = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7x\nabcdefghij\n-----END RSA PRIVATE KEY-----"
)

func TestString(t *testing.T) {
	cases := []struct {
		name, in  string
		mustNot   []string // substrings that must be gone
		mustKeep  []string // substrings that must stay
		unchanged bool
	}{
		{name: "openai", in: "key is " + openAIKey + ".", mustNot: []string{openAIKey[8:]}, mustKeep: []string{"key is sk-proj-" + Mask + "."}},
		{name: "anthropic", in: "ANTHROPIC_API_KEY=" + anthropicKey, mustNot: []string{anthropicKey[10:]}, mustKeep: []string{"sk-ant-"}},
		{name: "google", in: googleKey, mustNot: []string{googleKey[4:]}},
		{name: "github", in: "token " + githubToken + " ok", mustNot: []string{githubToken[4:]}, mustKeep: []string{" ok"}},
		{name: "slack", in: slackToken, mustNot: []string{slackToken[5:]}},
		{name: "aws", in: "aws " + awsKey, mustNot: []string{awsKey[4:]}},
		{name: "bearer", in: "Authorization: Bearer abc.def-ghi_jkl123", mustNot: []string{"abc.def-ghi_jkl123"}, mustKeep: []string{"Bearer " + Mask}},
		{name: "password assignment", in: "password=hunter2x&user=bob", mustNot: []string{"hunter2x"}, mustKeep: []string{"password=" + Mask, "&user=bob"}},
		{name: "json api_key", in: `{"api_key": "s3cr3tvalue"}`, mustNot: []string{"s3cr3tvalue"}},
		{name: "yaml secret", in: "client_secret: abcdef123", mustNot: []string{"abcdef123"}},
		{name: "pem", in: "here:\n" + pemKey + "\nthere", mustNot: []string{"MIIEow", "abcdefghij"}, mustKeep: []string{PEMMask, "there"}},
		{name: "unterminated pem", in: "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXkt", mustNot: []string{"b3BlbnNz"}},
		{name: "plain prose", in: "The sky is blue; tokens are counted. Ask for help.", unchanged: true},
		{name: "short sk", in: "use sk-learn and task-list", unchanged: true},
		{name: "public cert", in: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----", unchanged: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := String(c.in)
			if c.unchanged && got != c.in {
				t.Fatalf("changed: %q → %q", c.in, got)
			}
			for _, s := range c.mustNot {
				if strings.Contains(got, s) {
					t.Errorf("%q still contains %q", got, s)
				}
			}
			for _, s := range c.mustKeep {
				if !strings.Contains(got, s) {
					t.Errorf("%q lost %q", got, s)
				}
			}
		})
	}
}

func TestJSON(t *testing.T) {
	in := []byte(`{"command":"curl -H 'Authorization: Bearer abcdefgh12345' x","n":1.50,"nested":[{"k":"` + githubToken + `"}],"html":"<b>"}`)
	out, changed := JSON(in)
	if !changed || !json.Valid(out) {
		t.Fatalf("changed=%v valid=%v: %s", changed, json.Valid(out), out)
	}
	for _, s := range []string{"abcdefgh12345", githubToken[4:]} {
		if strings.Contains(string(out), s) {
			t.Errorf("%s still contains %q", out, s)
		}
	}
	if !strings.Contains(string(out), `1.50`) || !strings.Contains(string(out), `"<b>"`) {
		t.Errorf("numbers or html changed: %s", out)
	}
	plain := []byte(`{"message":"all good"}`)
	if out, changed := JSON(plain); changed || string(out) != string(plain) {
		t.Errorf("plain payload changed: %s", out)
	}
}

// streamAll feeds pieces through a Stream and returns what it released.
func streamAll(pieces []string) (string, []string) {
	var s Stream
	var b strings.Builder
	var outs []string
	for _, p := range pieces {
		o := s.Write(p)
		outs = append(outs, o)
		b.WriteString(o)
	}
	b.WriteString(s.Flush())
	return b.String(), outs
}

func TestStreamSplitSecrets(t *testing.T) {
	secrets := []string{openAIKey, anthropicKey, googleKey, githubToken, slackToken, awsKey,
		"Bearer abcdefghijklmnop.qrs", "password=correcthorsebattery", "api_key: \"zzzzyyyyxxxx\"", pemKey}
	for _, secret := range secrets {
		text := "before " + secret + " after"
		// Every split point, in two and three pieces.
		for i := 1; i < len(text); i++ {
			for _, pieces := range [][]string{{text[:i], text[i:]}, {text[:i/2], text[i/2 : i], text[i:]}} {
				got, _ := streamAll(pieces)
				if got != String(text) {
					t.Fatalf("secret %.12q split %q: got %q, want %q", secret, pieces, got, String(text))
				}
			}
		}
	}
}

func TestStreamReleasesOrdinaryText(t *testing.T) {
	pieces := []string{"Hello", ", world", ". This is ", "fine", ".\n"}
	got, outs := streamAll(pieces)
	if got != strings.Join(pieces, "") {
		t.Fatalf("got %q", got)
	}
	for i, o := range outs {
		if o == "" {
			t.Errorf("piece %d (%q) fully held", i, pieces[i])
		}
	}
}

func TestStreamHoldIsBounded(t *testing.T) {
	var s Stream
	long := "sk-" + strings.Repeat("a", 3*MaxHold)
	var out strings.Builder
	for i := 0; i < len(long); i += 100 {
		out.WriteString(s.Write(long[i:min(i+100, len(long))]))
		if s.Held() > MaxHold+100 {
			t.Fatalf("held %d bytes", s.Held())
		}
	}
	out.WriteString(s.Flush())
	if strings.Contains(out.String(), strings.Repeat("a", 40)) {
		t.Fatalf("long key leaked: %.80q", out.String())
	}
}

func TestStreamLongPEMIsDropped(t *testing.T) {
	var s Stream
	body := strings.Repeat("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=\n", (MaxPEMHold/36)+10)
	pieces := []string{"key:\n-----BEGIN PRIVATE KEY-----\n", body, "-----END PRIVATE KEY-----\nafter"}
	var out strings.Builder
	for _, p := range pieces {
		out.WriteString(s.Write(p))
	}
	out.WriteString(s.Flush())
	if strings.Contains(out.String(), "QUJDREVG") || !strings.Contains(out.String(), "after") {
		t.Fatalf("got %.200q", out.String())
	}
}

func FuzzStream(f *testing.F) {
	f.Add("before "+openAIKey+" after", 7)
	f.Add("password=abc def", 3)
	f.Add(pemKey, 20)
	f.Add("plain text", 4)
	f.Fuzz(func(t *testing.T, text string, split int) {
		if split < 0 {
			split = -split
		}
		if len(text) > 0 {
			split %= len(text) + 1
		} else {
			split = 0
		}
		got, _ := streamAll([]string{text[:split], text[split:]})
		// Whatever the split, no recognised secret of the whole text
		// survives, and redacting again changes nothing.
		if String(got) != got {
			t.Fatalf("stream output still has secrets: %q → %q", text, got)
		}
		for _, loc := range patterns().key.FindAllStringIndex(text, -1) {
			k := text[loc[0]:loc[1]]
			if strings.Contains(got, k) {
				t.Fatalf("key %q leaked in %q", k, got)
			}
		}
	})
}

func TestSuspicious(t *testing.T) {
	for _, n := range needles {
		up := strings.ToUpper(n)
		for _, s := range []string{n, "x" + up + "y", "..." + n} {
			if !suspicious(s) || !suspicious([]byte(s)) {
				t.Errorf("suspicious(%q) = false", s)
			}
		}
	}
	for _, s := range []string{"", "lorem ipsum dolor", "skip the task", "pass"} {
		if suspicious(s) {
			t.Errorf("suspicious(%q) = true", s)
		}
	}
}

// The trie lives in every process for its whole life (docs/ARCHITECTURE.md
// §Memory): its table stays a few KiB, not one 2 KiB node per needle byte.
func TestTrieIsSmall(t *testing.T) {
	if size := len(trie.next)*2 + len(trie.end); size > 32<<10 {
		t.Errorf("needle trie: %d bytes, want ≤ 32 KiB", size)
	}
}
