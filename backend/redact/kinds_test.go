package redact

import (
	"strings"
	"testing"
)

// One case per kind of secret: in a sentence, whole and streamed — split
// at every offset into two pieces, and in 3- and 7-byte pieces — the
// secret's value never comes out, and the text around it does.
func TestSecretKinds(t *testing.T) {
	awsSecret := "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
	jwt := "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiIxMjM0NTY3ODkwIn0" + ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	hf := "hf_" + strings.Repeat("kQ3v", 9)
	npm := "npm_" + strings.Repeat("Zx8w", 9)
	cases := []struct {
		name, text, secret, keep string
	}{
		{"aws secret env", "export AWS_SECRET_ACCESS_KEY=" + awsSecret + "\n", awsSecret, "AWS_SECRET_ACCESS_KEY="},
		{"aws secret ini", "aws_secret_access_key = " + awsSecret + "\n", awsSecret, "aws_secret_access_key = "},
		{"aws access key id", "AWS_ACCESS_KEY_ID=AKIA" + "IOSFODNN7EXAMPLE rest", "IOSFODNN7EXAMPLE", " rest"},
		{"postgres url", "connect to postgres://admin:Pa55w0rdX@db.example:5432/app now", "Pa55w0rdX", "postgres://admin:" + Mask + "@db.example:5432/app"},
		{"https url", "git push https://deploy:gh0stT0ken99@git.example/r.git done", "gh0stT0ken99", "https://deploy:" + Mask + "@git.example"},
		{"jwt", "cookie " + jwt + " set", jwt[24:], " set"},
		{"huggingface", "HF: " + hf + ".", hf[3:], "hf_" + Mask},
		{"npm", "//registry.npmjs.org/:_authToken=" + npm + "\n", npm[4:], "_authToken="},
		{"npm bare", "token is " + npm + " ok", npm[4:], "npm_" + Mask},
		{"json token", `{"token": "abc123def456ghi"}`, "abc123def456ghi", `"token": "`},
		{"json password", `{"user":"bob","password": "c0rrect-h0rse"}`, "c0rrect-h0rse", `"user":"bob"`},
		{"github token env", "GITHUB_TOKEN=" + "gho_" + strings.Repeat("x", 36) + " next", strings.Repeat("x", 36), " next"},
		{"db password env", "DB_PASSWORD=hunter2hunter2 ok", "hunter2hunter2", "DB_PASSWORD=" + Mask},
		{"openai", "key sk-proj-" + strings.Repeat("Ab3x", 10) + " end", strings.Repeat("Ab3x", 10), " end"},
		{"bearer", "Authorization: Bearer zzyyxxwwvvuu.tt ok", "zzyyxxwwvvuu.tt", " ok"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			check := func(how, got string) {
				t.Helper()
				if strings.Contains(got, c.secret) {
					t.Fatalf("%s: secret kept: %q", how, got)
				}
				if !strings.Contains(got, c.keep) {
					t.Fatalf("%s: %q lost %q", how, got, c.keep)
				}
			}
			whole := String(c.text)
			check("whole", whole)
			for i := 1; i < len(c.text); i++ {
				got, _ := streamAll([]string{c.text[:i], c.text[i:]})
				check("split at "+itoa(i), got)
				if got != whole {
					t.Fatalf("split at %d: %q, whole gives %q", i, got, whole)
				}
			}
			for _, n := range []int{1, 3, 7} {
				got, _ := streamAll(chunks(c.text, n))
				check(itoa(n)+"-byte pieces", got)
			}
		})
	}
}

// Words that only look like the keywords stay as they are.
func TestNotSecrets(t *testing.T) {
	for _, s := range []string{
		"max_tokens: 4096",
		`{"input_tokens": 1234, "output_tokens": 56}`,
		"see https://example.com/docs/page for more",
		"git clone git@github.com:owner/repo.git",
		"the tokens are counted",
		"ratio 3:4 at 10:30",
	} {
		if got := String(s); got != s {
			t.Errorf("%q → %q", s, got)
		}
		if got, _ := streamAll(chunks(s, 3)); got != s {
			t.Errorf("streamed %q → %q", s, got)
		}
	}
}

func chunks(s string, n int) []string {
	var out []string
	for i := 0; i < len(s); i += n {
		out = append(out, s[i:min(i+n, len(s))])
	}
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}
