package journal

import (
	"errors"
	"testing"
	"time"
)

func TestHostsStore(t *testing.T) {
	s := openTest(t, Options{})
	ctx := ctxT(t)
	h, err := s.AddHost(ctx, Host{Target: "me@box", Status: "ready", OS: "linux", Arch: "amd64", Version: "1.2.3"})
	if err != nil {
		t.Fatal(err)
	}
	if h.ID == "" || h.AddedAt.IsZero() || !h.LastSeen.IsZero() || h.Arch != "amd64" {
		t.Fatalf("stored %+v", h)
	}
	if _, err := s.AddHost(ctx, Host{Target: "me@box", Status: "ready"}); !errors.Is(err, ErrConflict) {
		t.Errorf("same target twice: %v", err)
	}
	seen := time.Now()
	h.Status, h.Note, h.LastSeen = "unreachable", "the link dropped", seen
	if got, err := s.UpdateHost(ctx, h); err != nil || got.Status != "unreachable" || !got.LastSeen.Equal(seen) {
		t.Fatalf("update: %+v %v", got, err)
	}
	h.LastSeen = time.Time{} // zero keeps the last one
	if got, err := s.UpdateHost(ctx, h); err != nil || !got.LastSeen.Equal(seen) {
		t.Fatalf("update keeping last_seen: %+v %v", got, err)
	}
	if list, err := s.ListHosts(ctx); err != nil || len(list) != 1 || list[0].ID != h.ID {
		t.Fatalf("list %+v %v", list, err)
	}
	if err := s.RemoveHost(ctx, h.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveHost(ctx, h.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("remove twice: %v", err)
	}
	if list, _ := s.ListHosts(ctx); len(list) != 0 {
		t.Errorf("after remove: %+v", list)
	}
}
