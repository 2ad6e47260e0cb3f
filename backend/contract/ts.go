package contract

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
)

// tsWriter turns Go types into TypeScript by their json tags: one
// interface per named struct, one string union per named string type with
// a known set of values. Field rules follow encoding/json: an omitempty, omitzero or
// pointer field is optional, an untagged embedded struct is flattened, a
// "-" field is left out.
type tsWriter struct {
	b      strings.Builder
	names  map[reflect.Type]string // Go type → its TypeScript name
	unions map[reflect.Type][]string
	// loose names fields Go always sends that the frontend's own builders
	// (an optimistic message, a RunInfo made from a watch message, test
	// fixtures) may leave out: optional in TypeScript, by struct.
	loose map[reflect.Type]map[string]bool
}

func newTSWriter() *tsWriter {
	return &tsWriter{names: map[reflect.Type]string{}, unions: map[reflect.Type][]string{}, loose: map[reflect.Type]map[string]bool{}}
}

var (
	timeType = reflect.TypeOf(time.Time{})
	rawType  = reflect.TypeOf(json.RawMessage(nil))
)

// union emits `export type name = "a" | "b"` for a string type and its values.
func union[T ~string](w *tsWriter, name, doc string, values []T) {
	t := reflect.TypeOf(values).Elem()
	w.names[t] = name
	vs := make([]string, len(values))
	for i, v := range values {
		vs[i] = quote(string(v))
	}
	w.unions[t] = vs
	fmt.Fprintf(&w.b, "/** %s */\nexport type %s = %s;\n\n", doc, name, strings.Join(vs, " | "))
}

// name gives a struct its TypeScript name before any interface refers to it.
func (w *tsWriter) name(v any, name string) { w.names[reflect.TypeOf(v)] = name }

// looseFields makes v's named fields optional in TypeScript (see loose).
func (w *tsWriter) looseFields(v any, names ...string) {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	w.loose[reflect.TypeOf(v)] = m
}

// iface emits the interface of v's struct type under its registered name.
func (w *tsWriter) iface(v any, doc string) {
	t := reflect.TypeOf(v)
	name, ok := w.names[t]
	if !ok {
		panic("contract: register " + t.String() + " with name first")
	}
	fmt.Fprintf(&w.b, "/** %s (Go: %s). */\nexport interface %s {\n", doc, t.String(), name)
	for _, f := range w.fields(t) {
		fmt.Fprintf(&w.b, "  %s\n", f)
	}
	w.b.WriteString("}\n\n")
}

// fields are a struct's TypeScript members, embedded structs flattened.
// As in encoding/json, a field of the outer struct hides an embedded one of
// the same JSON name; an outer *struct{} field only hides (it is never sent).
func (w *tsWriter) fields(t reflect.Type) []string {
	type member struct{ name, line string }
	var own, embedded []member
	hidden := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag, hasTag := sf.Tag.Lookup("json")
		name, opts, comma := strings.Cut(tag, ",")
		if name == "-" && !comma {
			continue
		}
		if sf.Anonymous && !hasTag && sf.Type.Kind() == reflect.Struct {
			for _, l := range w.fields(sf.Type) {
				n, _, _ := strings.Cut(l, ":")
				embedded = append(embedded, member{strings.TrimSuffix(n, "?"), l})
			}
			continue
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		hidden[name] = true
		if sf.Type.Kind() == reflect.Pointer && sf.Type.Elem().Kind() == reflect.Struct && sf.Type.Elem().NumField() == 0 {
			continue
		}
		opt := ""
		if strings.Contains(","+opts+",", ",omitempty,") || strings.Contains(","+opts+",", ",omitzero,") || sf.Type.Kind() == reflect.Pointer || w.loose[t][name] {
			opt = "?"
		}
		own = append(own, member{name, fmt.Sprintf("%s%s: %s;", name, opt, w.tsType(sf.Type))})
	}
	var out []string
	for _, m := range embedded {
		if !hidden[m.name] {
			out = append(out, m.line)
		}
	}
	for _, m := range own {
		out = append(out, m.line)
	}
	return out
}

// tsType is the TypeScript for one Go type.
func (w *tsWriter) tsType(t reflect.Type) string {
	if n, ok := w.names[t]; ok {
		return n
	}
	switch t {
	case timeType:
		return "string" // RFC 3339
	case rawType:
		return "unknown"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return w.tsType(t.Elem())
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "string" // encoding/json sends bytes as base64
		}
		el := w.tsType(t.Elem())
		if strings.ContainsAny(el, " |") {
			el = "(" + el + ")"
		}
		return el + "[]"
	case reflect.Map:
		return "Record<string, " + w.tsType(t.Elem()) + ">"
	case reflect.Struct:
		return "{ " + strings.Join(w.fields(t), " ") + " }"
	}
	return "unknown"
}

// constant emits `export const name = value as const` with value as JSON.
func (w *tsWriter) constant(name, doc string, v any) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err)
	}
	fmt.Fprintf(&w.b, "/** %s */\nexport const %s = %s as const;\n\n", doc, name, b)
}

// stringList emits a readonly array of a union's values.
func stringList[T ~string](w *tsWriter, name, doc string, values []T) {
	t := reflect.TypeOf(values).Elem()
	typ := w.names[t]
	if typ == "" {
		typ = "string"
	}
	vs := make([]string, len(values))
	for i, v := range values {
		vs[i] = quote(string(v))
	}
	fmt.Fprintf(&w.b, "/** %s */\nexport const %s: readonly %s[] = [%s];\n\n", doc, name, typ, strings.Join(vs, ", "))
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func typeOf[T any]() reflect.Type { return reflect.TypeOf((*T)(nil)).Elem() }
