package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// tickerAllowed are the repeating timers product code may keep, each by
// file and function, with why it may wake at all (docs/ARCHITECTURE.md
// §Idle: an idle core or warm shim wakes for nothing faster than once a
// minute; everything else is woken by events). Add an entry only with its
// reason; a ticker that merely polls for a change should wait on the event
// instead.
var tickerAllowed = map[string]string{
	// An SSE comment every few seconds keeps proxies and idle timers from
	// closing a quiet stream; it runs only while a client holds a stream.
	"backend/httpapi/events.go sse.heartbeat": "SSE heartbeat",
}

// tickerExempt are folders that are not product code.
var tickerExempt = []string{"testkit/", "test/", "frontend/", "build/", "node_modules/", ".git/"}

// TestNoRawTickersInProductCode bans time.NewTicker and time.Tick in
// product code outside tickerAllowed. (A time.Timer reset in a loop, as the
// journal retention in backend/service/stack does every 6 h, is a timer
// someone chose per wake and is not caught here.)
func TestNoRawTickersInProductCode(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	found := tickerUses(t, root)
	for _, use := range found {
		if _, ok := tickerAllowed[use.key]; !ok {
			t.Errorf("%s: %s in %s: product code may not tick (docs/ARCHITECTURE.md §Idle); wake on an event, or add it to tickerAllowed with its reason", use.pos, use.call, use.key)
		}
	}
	seen := map[string]bool{}
	for _, use := range found {
		seen[use.key] = true
	}
	for key, why := range tickerAllowed {
		if !seen[key] {
			t.Errorf("tickerAllowed lists %s (%s), which no longer ticks: remove the entry (the list stays minimal)", key, why)
		}
	}
}

// The check itself sees a ticker, a time.Tick and one under a renamed import.
func TestTickerUsesFindsEveryForm(t *testing.T) {
	src := `package p
import (
	"time"
	clock "time"
)
func a() { _ = time.NewTicker(time.Second) }
type T struct{}
func (*T) b() { go func() { for range time.Tick(time.Minute) {} }() }
func c() { _ = clock.NewTicker(1) }
func d() { _ = time.NewTimer(time.Second) }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range fileTickerUses(fset, f, "p.go") {
		got = append(got, u.key+" "+u.call)
	}
	want := []string{"p.go a time.NewTicker", "p.go T.b time.Tick", "p.go c time.NewTicker"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}

type tickerUse struct {
	key  string // "path func"
	call string
	pos  token.Position
}

func tickerUses(t *testing.T, root string) []tickerUse {
	t.Helper()
	fset := token.NewFileSet()
	var out []tickerUse
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		if d.IsDir() {
			for _, ex := range tickerExempt {
				if rel+"/" == ex {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			return nil
		}
		out = append(out, fileTickerUses(fset, f, rel)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// fileTickerUses lists f's calls of time.NewTicker and time.Tick by the
// function that holds them.
func fileTickerUses(fset *token.FileSet, f *ast.File, rel string) []tickerUse {
	timeNames := map[string]bool{}
	for _, imp := range f.Imports {
		if path, _ := strconv.Unquote(imp.Path.Value); path == "time" {
			name := "time"
			if imp.Name != nil {
				name = imp.Name.Name
			}
			timeNames[name] = true
		}
	}
	if len(timeNames) == 0 {
		return nil
	}
	var out []tickerUse
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok {
			continue
		}
		name := fn.Name.Name
		if fn.Recv != nil && len(fn.Recv.List) > 0 {
			typ := fn.Recv.List[0].Type
			if st, ok := typ.(*ast.StarExpr); ok {
				typ = st.X
			}
			if id, ok := typ.(*ast.Ident); ok {
				name = id.Name + "." + name
			}
		}
		ast.Inspect(fn, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, ok := sel.X.(*ast.Ident)
			if ok && timeNames[pkg.Name] && (sel.Sel.Name == "NewTicker" || sel.Sel.Name == "Tick") {
				out = append(out, tickerUse{key: rel + " " + name, call: "time." + sel.Sel.Name, pos: fset.Position(call.Pos())})
			}
			return true
		})
	}
	return out
}
