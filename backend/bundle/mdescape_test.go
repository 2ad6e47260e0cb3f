package bundle

import (
	"strings"
	"testing"
)

func TestEscapeHTML(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "no tags here", "no tags here"},
		{"a tag", `<img src=x onerror="alert(1)">`, `&lt;img src=x onerror="alert(1)">`},
		{"script", "hi <script>x</script>", "hi &lt;script>x&lt;/script>"},
		{"comment", "<!-- hidden -->", "&lt;!-- hidden -->"},
		{"autolink", "<http://evil>", "&lt;http://evil>"},
		{"a code span keeps its text", "use `a<b>` here <b>", "use `a<b>` here &lt;b>"},
		{"a double-tick span", "``x ` <y>`` <z>", "``x ` <y>`` &lt;z>"},
		{"an unclosed tick is text", "a ` <b>", "a ` &lt;b>"},
		{"a fenced block keeps its text", "```html\n<b>bold</b>\n```\n<i>", "```html\n<b>bold</b>\n```\n&lt;i>"},
		{"a tilde fence", "~~~\n<b>\n~~~~\n<b>", "~~~\n<b>\n~~~~\n&lt;b>"},
		{"a shorter fence does not close", "````\n```\n<b>\n````\n<b>", "````\n```\n<b>\n````\n&lt;b>"},
		{"an unclosed fence runs to the end", "```\n<b>", "```\n<b>"},
		{"four spaces is not a fence", "    ```\n<b>", "    ```\n&lt;b>"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := escapeHTML(c.in); got != c.want {
				t.Fatalf("escapeHTML(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestCodeSpan(t *testing.T) {
	for in, want := range map[string]string{
		"a.txt":       "`a.txt`",
		"a`b":         "``a`b``",
		"`x":          "`` `x ``",
		"<img>\nname": "`<img> name`",
	} {
		if got := codeSpan(in); got != want {
			t.Errorf("codeSpan(%q) = %q, want %q", in, got, want)
		}
	}
}

// Escaping loses nothing, and text with no code in it keeps no `<`.
func FuzzEscapeHTML(f *testing.F) {
	for _, s := range []string{"<b>", "`<b>` <i>", "```\n<b>\n```\n<i>", "~~~\n", "`` ` ``"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.Contains(s, "&lt;") {
			return
		}
		out := escapeHTML(s)
		if back := strings.ReplaceAll(out, "&lt;", "<"); back != s {
			t.Fatalf("escapeHTML(%q) = %q: not lossless", s, out)
		}
		if !strings.ContainsAny(s, "`~") && strings.Contains(out, "<") {
			t.Fatalf("escapeHTML(%q) = %q keeps a <", s, out)
		}
	})
}
