package usage

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
)

// WriteCSV writes a report as CSV: a header, one line per row, then the
// total. Labels that a spreadsheet would run as a formula are quoted with a
// leading apostrophe (a project may be named "=HYPERLINK(…)").
func WriteCSV(w io.Writer, r Report) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{string(r.Group), "runs", "input_tokens", "cached_tokens", "cache_write_tokens", "output_tokens",
		"reasoning_tokens", "cost_usd", "unpriced_runs"})
	line := func(label string, c Counts) {
		_ = cw.Write([]string{cell(label), i64(c.Runs), i64(c.InputTokens), i64(c.CachedTokens), i64(c.CacheWriteTokens),
			i64(c.OutputTokens), i64(c.ReasoningTokens), strconv.FormatFloat(c.CostUSD, 'f', 6, 64), i64(c.UnpricedRuns)})
	}
	for _, row := range r.Rows {
		line(row.Label, row.Counts)
	}
	line("total", r.Total)
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("the usage table could not be written: %w", err)
	}
	return nil
}

func i64(n int64) string { return strconv.FormatInt(n, 10) }

func cell(s string) string {
	if s != "" && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' || s[0] == '\t' || s[0] == '\r') {
		return "'" + s
	}
	return s
}
