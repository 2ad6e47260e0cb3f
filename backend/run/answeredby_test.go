package run

import (
	"context"
	"testing"
)

func TestAnsweredBy(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", AnsweredByUser}, {"user", AnsweredByUser}, {"notification", AnsweredByNotification},
		{"timeout", AnsweredByUser}, {"<script>", AnsweredByUser},
	} {
		if got := AnsweredBy(WithAnsweredBy(context.Background(), tc.in)); got != tc.want {
			t.Errorf("AnsweredBy(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if AnsweredBy(context.Background()) != AnsweredByUser {
		t.Error("no label should mean the user")
	}
}
