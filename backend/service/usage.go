package service

import (
	"bytes"
	"context"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/usage"
)

// Usage answers GET /api/usage: totals by day, agent, model or project
// since a date (docs/ARCHITECTURE.md §Usage). The journal's daily rows
// are behind usage.Source; a store without them answers unavailable.
func (s *Service) Usage(ctx context.Context, group, since string) (usage.Report, error) {
	src, ok := s.store.(usage.Source)
	if !ok {
		return usage.Report{}, &Error{Code: CodeUnavailable, Message: "usage totals are not available here"}
	}
	q, err := usage.ParseQuery(group, since, time.Now())
	if err != nil {
		return usage.Report{}, badRequest("%s", err.Error())
	}
	r, err := usage.Totals(ctx, src, q)
	return r, s.classify(ctx, "usage totals", "usage", err)
}

// UsageCSV is Usage as a CSV file, carried like an export so every door
// (the window's Request binding included) saves it the same way.
func (s *Service) UsageCSV(ctx context.Context, group, since string) (Export, error) {
	r, err := s.Usage(ctx, group, since)
	if err != nil {
		return Export{}, err
	}
	var b bytes.Buffer
	if err := usage.WriteCSV(&b, r); err != nil {
		return Export{}, s.classify(ctx, "usage csv", "usage", err)
	}
	return Export{Filename: "usage-by-" + string(r.Group) + "-since-" + r.Since + ".csv", ContentType: "text/csv", Content: b.String()}, nil
}

// QuotaLine is a vendor's latest window with its sentence.
type QuotaLine struct {
	usage.Seen
	Line string `json:"line"`
}

// Quota answers GET /api/usage/quota: every vendor's latest window as its
// agent reported it, each with the line the tray and the Usage view show.
func (s *Service) Quota(ctx context.Context) ([]QuotaLine, error) {
	src, ok := s.store.(usage.QuotaSource)
	if !ok {
		return nil, &Error{Code: CodeUnavailable, Message: "quota figures are not available here"}
	}
	seen, err := src.QuotaLatest(ctx)
	if err != nil {
		return nil, s.classify(ctx, "quota", "quota", err)
	}
	now := time.Now()
	out := make([]QuotaLine, 0, len(seen))
	for _, q := range seen {
		out = append(out, QuotaLine{Seen: q, Line: usage.QuotaLine(q, now)})
	}
	return out, nil
}
