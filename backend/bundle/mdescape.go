package bundle

import "strings"

// Markdown from agents and people is written into the export as Markdown,
// but raw HTML in it must stay text: a viewer that renders HTML would
// otherwise run an agent's (or a bundle's) `<img onerror=…>` or
// `<script>` (docs/ARCHITECTURE.md §Bundles, §Security).

// escapeHTML makes every `<` outside code — fenced blocks and code spans,
// where Markdown shows it as text anyway — the entity `&lt;`, so no tag,
// comment or autolink survives. Nothing else changes: replacing `&lt;`
// back gives the input wherever it held no `&lt;` of its own.
func escapeHTML(md string) string {
	if !strings.Contains(md, "<") {
		return md
	}
	var out strings.Builder
	out.Grow(len(md) + 16)
	var fence string // the open fence's marker run, "" outside one
	for len(md) > 0 {
		line := md
		if i := strings.IndexByte(md, '\n'); i >= 0 {
			line = md[:i+1]
		}
		md = md[len(line):]
		if f := fenceOf(line); fence != "" {
			out.WriteString(line)
			if f != "" && f[0] == fence[0] && len(f) >= len(fence) && strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), f[:1])) == "" {
				fence = ""
			}
			continue
		} else if f != "" {
			fence = f
			out.WriteString(line)
			continue
		}
		escapeLine(&out, line)
	}
	return out.String()
}

// fenceOf returns the marker run (``` or ~~~, three or more) opening a
// fenced block on line, indented by at most three spaces; "" if none.
func fenceOf(line string) string {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 || (t[0] == '`' && strings.Contains(t[n:], "`")) {
		return ""
	}
	return t[:n]
}

// escapeLine escapes `<` in one line outside its code spans: a run of n
// backticks opens a span closed by the next run of exactly n; one with no
// closer is literal text.
func escapeLine(out *strings.Builder, line string) {
	for i := 0; i < len(line); {
		switch line[i] {
		case '<':
			out.WriteString("&lt;")
			i++
		case '`':
			n := tickRun(line, i)
			if end := closingRun(line, i+n, n); end >= 0 {
				out.WriteString(line[i : end+n])
				i = end + n
			} else {
				out.WriteString(line[i : i+n])
				i += n
			}
		default:
			out.WriteByte(line[i])
			i++
		}
	}
}

// tickRun is the length of the backtick run starting at i.
func tickRun(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] == '`' {
		n++
	}
	return n
}

// closingRun finds the next run of exactly n backticks at or after i.
func closingRun(s string, i, n int) int {
	for i < len(s) {
		j := strings.IndexByte(s[i:], '`')
		if j < 0 {
			return -1
		}
		j += i
		m := tickRun(s, j)
		if m == n {
			return j
		}
		i = j + m
	}
	return -1
}

// codeSpan shows s verbatim as inline code, whatever backticks it holds.
func codeSpan(s string) string {
	s = oneLine(s)
	longest, cur := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			cur++
			longest = max(longest, cur)
		} else {
			cur = 0
		}
	}
	ticks := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || s == "" {
		return ticks + " " + s + " " + ticks
	}
	return ticks + s + ticks
}

// text is one line of someone's words for a list or heading: one line,
// raw HTML escaped.
func text(s string) string { return escapeHTML(oneLine(s)) }
