package service_test

import (
	"context"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/service"
)

// TestClientFocusPerClient: focus claims are per client. The person looks
// at a session only while a client holding the keyboard focus shows it;
// another client's report never clears or fakes that (issue 21 item 13).
func TestClientFocusPerClient(t *testing.T) {
	type report struct {
		client, session string
		focused         bool
	}
	none := service.ClientFocus{}
	tests := []struct {
		name    string
		reports []report
		want    service.ClientFocus // what notifications see after the last report
	}{
		{"one window focused on s1", []report{{"win", "s1", true}},
			service.ClientFocus{ClientID: "win", SessionID: "s1", Focused: true}},
		{"a tab loading in the background does not hide the focused window's session",
			[]report{{"win", "s1", true}, {"tab", "s2", false}},
			service.ClientFocus{ClientID: "win", SessionID: "s1", Focused: true}},
		{"the window's blur arriving after the tab's focus leaves the tab focused",
			[]report{{"win", "s1", true}, {"tab", "s2", true}, {"win", "s1", false}},
			service.ClientFocus{ClientID: "tab", SessionID: "s2", Focused: true}},
		{"the holder's blur: nobody looks, everything is notified",
			[]report{{"win", "s1", true}, {"tab", "s2", true}, {"win", "s1", false}, {"tab", "s2", false}}, none},
		{"a client that took the focus ends the older claim",
			[]report{{"tab", "s1", true}, {"win", "s2", true}, {"win", "s2", false}}, none},
		{"the holder moving to another session", []report{{"win", "s1", true}, {"win", "s2", true}},
			service.ClientFocus{ClientID: "win", SessionID: "s2", Focused: true}},
		{"a client naming none is one client", []report{{"", "s1", true}, {"", "s1", false}}, none},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			svc, _ := newSvc(t)
			var heard service.ClientFocus
			defer svc.OnClientFocus(func(f service.ClientFocus) { heard = f })()
			for _, r := range tc.reports {
				if _, err := svc.SetClientFocus(context.Background(), service.ClientFocus{ClientID: r.client, SessionID: r.session, Focused: r.focused}); err != nil {
					t.Fatal(err)
				}
			}
			if got := svc.ClientFocus(); got != tc.want || heard != tc.want {
				t.Fatalf("focus %+v, listeners heard %+v, want %+v", got, heard, tc.want)
			}
		})
	}
}

// TestClientFocusEndsWithItsLastStream: a page's claim goes with its last
// watch stream (a tab closed or cut off); another client's claim stays.
func TestClientFocusEndsWithItsLastStream(t *testing.T) {
	svc, _ := newSvc(t)
	var heard []service.ClientFocus
	defer svc.OnClientFocus(func(f service.ClientFocus) { heard = append(heard, f) })()
	ctx := context.Background()
	first, second := svc.ClientWatching("tab"), svc.ClientWatching("tab") // a reconnect overlapping the old stream
	if _, err := svc.SetClientFocus(ctx, service.ClientFocus{ClientID: "tab", SessionID: "s1", Focused: true}); err != nil {
		t.Fatal(err)
	}
	first()
	first() // twice is once
	if f := svc.ClientFocus(); !f.Focused || f.SessionID != "s1" {
		t.Fatalf("one of two streams closed: focus %+v", f)
	}
	second()
	if f := svc.ClientFocus(); f.Focused || len(heard) != 2 || heard[1].Focused {
		t.Fatalf("the tab is gone but its claim stays: %+v, heard %+v", f, heard)
	}
	// Another client's claim is not the closing tab's to end.
	svc.SetClientFocus(ctx, service.ClientFocus{ClientID: "win", SessionID: "s2", Focused: true})
	svc.ClientWatching("tab")()
	if f := svc.ClientFocus(); !f.Focused || f.ClientID != "win" {
		t.Fatalf("focus %+v", f)
	}
}
