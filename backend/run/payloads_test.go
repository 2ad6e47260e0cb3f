package run

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// field is one JSON field of a payload as the frontend sees it.
type field struct {
	Kind     string           `json:"kind"` // string, number, bool, array, object, any
	Optional bool             `json:"optional,omitempty"`
	Items    *field           `json:"items,omitempty"`  // an array's element
	Fields   map[string]field `json:"fields,omitempty"` // a struct's fields
}

func describe(t reflect.Type) field {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return field{Kind: "string"}
	case reflect.Bool:
		return field{Kind: "bool"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return field{Kind: "number"}
	case reflect.Slice, reflect.Array:
		it := describe(t.Elem())
		return field{Kind: "array", Items: &it}
	case reflect.Struct:
		return field{Kind: "object", Fields: structFields(t)}
	case reflect.Map:
		return field{Kind: "object"}
	default:
		return field{Kind: "any"}
	}
}

func structFields(t reflect.Type) map[string]field {
	out := map[string]field{}
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		f := describe(sf.Type)
		f.Optional = strings.Contains(opts, "omitempty") || sf.Type.Kind() == reflect.Pointer
		out[name] = f
	}
	return out
}

func TestEveryKnownTypeHasAPayload(t *testing.T) {
	for _, k := range KnownEventTypes {
		if _, ok := PayloadOf[k]; !ok {
			t.Errorf("PayloadOf has no payload for %q", k)
		}
	}
	if len(PayloadOf) != len(KnownEventTypes) {
		t.Errorf("PayloadOf has %d types, KnownEventTypes %d", len(PayloadOf), len(KnownEventTypes))
	}
}

// TestPayloadsFile keeps testdata/payloads.json (read by the frontend's
// fold test, which fails when the fold reads a field no payload has) equal
// to the payload structs: `go test ./backend/run -run TestPayloadsFile -update`.
func TestPayloadsFile(t *testing.T) {
	all := map[EventType]map[string]field{}
	for k, v := range PayloadOf {
		all[k] = structFields(reflect.TypeOf(v))
	}
	want, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, '\n')
	path := filepath.Join("testdata", "payloads.json")
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run: go test ./backend/run -run TestPayloadsFile -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is out of date: go test ./backend/run -run TestPayloadsFile -update", path)
	}
}
