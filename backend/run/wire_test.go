package run

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"
)

// Every constant of a closed wire type is in its list (wire.go), so the
// generated contract (backend/contract) carries it to the frontend: a new
// status, error code or watch type cannot reach the wire unnamed.
func TestEveryConstantIsListed(t *testing.T) {
	lists := map[string]map[string]bool{
		"Status":            set(Statuses),
		"ControlStatus":     set(ControlStatuses),
		"WatchType":         set(WatchTypes),
		"PendingKind":       set(PendingKinds),
		"SessionChangeKind": set(SessionChangeKinds),
		"Role":              set(Roles),
		"ErrorCode":         set(ErrorCodes),
	}
	consts := constantsByType(t)
	for typ, list := range lists {
		if len(consts[typ]) == 0 {
			t.Errorf("found no constants of type %s", typ)
		}
		for value := range consts[typ] {
			if !list[value] {
				t.Errorf("%s constant %q is missing from its list in wire.go", typ, value)
			}
		}
		if len(list) != len(consts[typ]) {
			t.Errorf("%s: %d constants, %d listed", typ, len(consts[typ]), len(list))
		}
	}
}

func TestStartFailureCodesAreErrorCodes(t *testing.T) {
	all := set(ErrorCodes)
	for _, c := range append(append([]ErrorCode{}, StartFailureCodes...), SentenceCodes...) {
		if !all[string(c)] {
			t.Errorf("StartFailureCodes or SentenceCodes hold %q, which ErrorCodes lacks", c)
		}
	}
}

func set[T ~string](vs []T) map[string]bool {
	m := map[string]bool{}
	for _, v := range vs {
		m[string(v)] = true
	}
	return m
}

// constantsByType reads the package's typed string constants from source.
func constantsByType(t *testing.T) map[string]map[string]bool {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]bool{}
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				id, ok := vs.Type.(*ast.Ident)
				if !ok {
					continue
				}
				for _, v := range vs.Values {
					if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						if out[id.Name] == nil {
							out[id.Name] = map[string]bool{}
						}
						out[id.Name][lit.Value[1:len(lit.Value)-1]] = true
					}
				}
			}
		}
	}
	return out
}
