package run

import "testing"

func TestMatchOption(t *testing.T) {
	qwen := []ApprovalOption{
		{ID: "proceed_once", Label: "Allow", Kind: "allow_once"},
		{ID: "proceed_always_project", Label: "Always allow in this project", Kind: "allow_always"},
		{ID: "cancel", Label: "Reject", Kind: "reject_once"},
	}
	alwaysOnly := []ApprovalOption{{ID: "yes-forever", Kind: "allow_always"}, {ID: "never", Kind: "reject_always"}}
	tests := []struct {
		name   string
		opts   []ApprovalOption
		answer string
		want   string // "" = no match
	}{
		{"option id", qwen, "proceed_always_project", "proceed_always_project"},
		{"kind", qwen, "reject_once", "cancel"},
		{"allow alias is the first allow option", qwen, "allow", "proceed_once"},
		{"deny alias is the first reject option", qwen, "deny", "cancel"},
		{"aliases ignore case", qwen, "Allow", "proceed_once"},
		{"allow falls back to allow_always", alwaysOnly, "allow", "yes-forever"},
		{"deny falls back to reject_always", alwaysOnly, "deny", "never"},
		{"always", qwen, "always", "proceed_always_project"},
		{"nothing matches", qwen, "allo", ""},
		{"empty answer", qwen, "", ""},
		{"no allow option", []ApprovalOption{{ID: "x", Kind: "reject_once"}}, "allow", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, ok := MatchOption(tt.opts, tt.answer)
			got := ""
			if ok {
				got = o.ID
			}
			if got != tt.want {
				t.Errorf("MatchOption(%q) = %q; want %q", tt.answer, got, tt.want)
			}
		})
	}
	if got := OfferedChoices(qwen); got != "proceed_once (Allow), proceed_always_project (Always allow in this project), cancel (Reject)" {
		t.Errorf("OfferedChoices = %q", got)
	}
}
