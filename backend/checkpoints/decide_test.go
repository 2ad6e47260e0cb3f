package checkpoints

import "testing"

func TestDecide(t *testing.T) {
	a := Entry{"100644", "aaa"}
	b := Entry{"100644", "bbb"}
	c := Entry{"100644", "ccc"}
	bx := Entry{"100755", "bbb"}
	ax := Entry{"100755", "aaa"}
	link := Entry{"120000", "lnk"}
	link2 := Entry{"120000", "lnk2"}
	none := Entry{}
	for _, tc := range []struct {
		name string
		f    FileState
		want Action
		mode string
	}{
		{"clean edit", FileState{Before: a, After: b, Now: b}, Write, "100644"},
		{"clean create", FileState{Before: none, After: b, Now: b}, Remove, ""},
		{"clean delete", FileState{Before: a, After: none, Now: none}, Write, "100644"},
		{"mode change", FileState{Before: a, After: ax, Now: ax}, Write, "100644"},
		{"mode and content", FileState{Before: bx, After: a, Now: a}, Write, "100755"},
		{"symlink retargeted", FileState{Before: link, After: link2, Now: link2}, Write, "120000"},
		{"file became symlink", FileState{Before: a, After: link, Now: link}, Write, "100644"},
		{"already undone by hand", FileState{Before: a, After: b, Now: a}, Leave, ""},
		{"deleted since", FileState{Before: a, After: b, Now: none}, Conflict, ""},
		{"created file deleted since", FileState{Before: none, After: b, Now: none}, Leave, ""},
		{"recreated since", FileState{Before: a, After: none, Now: c}, Conflict, ""},
		{"created then edited since", FileState{Before: none, After: b, Now: c}, Conflict, ""},
		{"symlink changed since", FileState{Before: link, After: link2, Now: Entry{"120000", "x"}}, Conflict, ""},
		{"binary changed since", FileState{Before: a, After: b, Now: c, Binary: true}, Conflict, ""},
		{"edited since: merge", FileState{Before: a, After: b, Now: c}, NeedMerge, ""},
		{"later edits on other lines", FileState{Before: a, After: b, Now: c, Merge: MergeClean}, WriteMerged, "100644"},
		{"later edits on the same lines", FileState{Before: a, After: b, Now: c, Merge: MergeConflicts}, Conflict, ""},
		{"mode changed since, merged", FileState{Before: a, After: b, Now: Entry{"100755", "ccc"}, Merge: MergeClean}, WriteMerged, "100755"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.f.Path = "f"
			d := Decide(tc.f)
			if d.Action != tc.want || d.Mode != tc.mode {
				t.Fatalf("Decide = %+v, want %s mode %q", d, tc.want, tc.mode)
			}
			if (d.Action == Conflict) != (d.Reason != "") {
				t.Errorf("a conflict, and only a conflict, says why: %+v", d)
			}
		})
	}
}

func TestDecideRestore(t *testing.T) {
	a := Entry{"100644", "aaa"}
	for _, tc := range []struct {
		name   string
		f      RestoreState
		remove bool
		want   RestoreAction
	}{
		{"changed since", RestoreState{Checkpoint: a, Now: Entry{"100644", "b"}}, false, RestoreWrite},
		{"deleted since", RestoreState{Checkpoint: a}, false, RestoreWrite},
		{"created since: kept", RestoreState{Now: a}, false, RestoreKeep},
		{"created since: removal asked", RestoreState{Now: a}, true, RestoreRemove},
		{"too large to be stored", RestoreState{Now: a, Large: true}, true, RestoreSkip},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := DecideRestore(tc.f, tc.remove); got != tc.want {
				t.Fatalf("DecideRestore = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestRefFor(t *testing.T) {
	if got := RefFor("ses_1", "turn_2"); got != "refs/hermesdesk/checkpoints/ses_1/turn_2" {
		t.Errorf("RefFor = %s", got)
	}
	if got := RefFor("a b", "../x.lock"); got == "refs/hermesdesk/checkpoints/a b/../x.lock" {
		t.Errorf("an unsafe id went into the ref: %s", got)
	}
	if AfterRef(RefFor("s", "t")) != "refs/hermesdesk/after/s/t" {
		t.Errorf("AfterRef = %s", AfterRef(RefFor("s", "t")))
	}
}

func FuzzParseRaw(f *testing.F) {
	f.Add(":100644 100755 aaa bbb M\x00a.txt\x00:000000 100644 000 ccc A\x00new dir/n\x00")
	f.Add(":100644")
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range parseRaw(s) {
			if c.path == "" || (c.from.present() && !isMode(c.from.Mode)) || (c.to.present() && !isMode(c.to.Mode)) {
				t.Fatalf("a malformed change was parsed: %+v", c)
			}
		}
	})
}

func TestParseRaw(t *testing.T) {
	got := parseRaw(":100644 100755 aaa bbb M\x00a.txt\x00:000000 120000 000 ccc A\x00new dir/l\x00:100644 000000 ddd 000 D\x00gone\x00")
	want := []pathChange{
		{"a.txt", Entry{"100644", "aaa"}, Entry{"100755", "bbb"}},
		{"new dir/l", Entry{}, Entry{"120000", "ccc"}},
		{"gone", Entry{"100644", "ddd"}, Entry{}},
	}
	if len(got) != len(want) {
		t.Fatalf("parseRaw = %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: %+v, want %+v", i, got[i], want[i])
		}
	}
}
