package service

import (
	"testing"
	"time"
)

func TestStaleUploads(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	old, young := now.Add(-25*time.Hour), now.Add(-time.Hour)
	dirs := []uploadDir{
		{path: "/u/old-unused", files: []string{"/u/old-unused/a.png"}, modified: old},
		{path: "/u/old-used", files: []string{"/u/old-used/b.png"}, modified: old},
		{path: "/u/young", files: []string{"/u/young/c.png"}, modified: young},
		{path: "/u/old-empty", modified: old},
		{path: "/u/exactly-keep", files: []string{"/u/exactly-keep/d"}, modified: now.Add(-24 * time.Hour)},
	}
	got := staleUploads(dirs, map[string]bool{"/u/old-used/b.png": true}, now, 24*time.Hour)
	want := []string{"/u/old-unused", "/u/old-empty", "/u/exactly-keep"}
	if len(got) != len(want) {
		t.Fatalf("stale %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("stale %v, want %v", got, want)
		}
	}
}
