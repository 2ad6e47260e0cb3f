package checkpoints

import (
	"reflect"
	"testing"

	"github.com/hermesdesk/hermesdesk/backend/run"
)

// What a restore and a revert plan for each kind of change, and the words
// each says of a file (the one loop both share, writeback.go).
func TestPlanWriteBack(t *testing.T) {
	a := Entry{"100644", "aaa"}
	b := Entry{"100644", "bbb"}
	sub := Entry{"160000", "sss"}
	diff := []pathChange{
		{path: "edited.txt", from: a, to: b},
		{path: "created.txt", to: b},
		{path: "big.bin", from: a, to: b},
		{path: "vendor/lib", from: sub, to: sub},
	}
	large := largeSet([]string{"big.bin"})
	nested := nestedRepo("vendor/lib")
	for _, tc := range []struct {
		name          string
		removeCreated bool
		reasons       map[RestoreAction]string
		files         []run.CheckpointFile
		ops           []fileOp
	}{
		{"restore keeps what was created since", false, restoreReasons, []run.CheckpointFile{
			{Path: "edited.txt", Action: "write"},
			{Path: "created.txt", Action: "keep", Reason: "created since; kept"},
			{Path: "big.bin", Action: "skip", Reason: "not stored: larger than the limit"},
			nested,
		}, []fileOp{{path: "edited.txt", mode: "100644", oid: "aaa"}}},
		{"restore told to remove what was created", true, restoreReasons, []run.CheckpointFile{
			{Path: "edited.txt", Action: "write"},
			{Path: "created.txt", Action: "remove", Reason: "created since"},
			{Path: "big.bin", Action: "skip", Reason: "not stored: larger than the limit"},
			nested,
		}, []fileOp{{path: "edited.txt", mode: "100644", oid: "aaa"}, {path: "created.txt", remove: true}}},
		{"revert", true, revertReasons, []run.CheckpointFile{
			{Path: "edited.txt", Action: "write"},
			{Path: "created.txt", Action: "remove", Reason: "not in the base"},
			{Path: "big.bin", Action: "skip", Reason: "not stored: larger than the limit, so it is left as it is"},
			nested,
		}, []fileOp{{path: "edited.txt", mode: "100644", oid: "aaa"}, {path: "created.txt", remove: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := planWriteBack(diff, large, tc.removeCreated, tc.reasons)
			if !reflect.DeepEqual(w.files, tc.files) {
				t.Errorf("files:\n got %+v\nwant %+v", w.files, tc.files)
			}
			if !reflect.DeepEqual(w.ops, tc.ops) {
				t.Errorf("ops:\n got %+v\nwant %+v", w.ops, tc.ops)
			}
			if want := []string{"aaa"}; !reflect.DeepEqual(w.oids, want) {
				t.Errorf("blobs %v, want %v", w.oids, want)
			}
		})
	}
}
