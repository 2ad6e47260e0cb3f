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
