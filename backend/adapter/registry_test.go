package adapter

import (
	"context"
	"errors"
	"testing"
)

type namedAdapter struct{ name string }

func (n namedAdapter) Name() string                                            { return n.name }
func (n namedAdapter) DisplayName() string                                     { return n.name }
func (n namedAdapter) Capabilities() Capabilities                              { return Capabilities{} }
func (n namedAdapter) Health(context.Context, Config) Health                   { return Health{} }
func (n namedAdapter) Start(context.Context, StartRequest, Host) (Conn, error) { return nil, nil }

func TestRegistry(t *testing.T) {
	r := NewRegistry(namedAdapter{"b"}, namedAdapter{"a"})
	if got := r.Names(); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Fatalf("Names() = %v", got)
	}
	if a, err := r.Get("a"); err != nil || a.Name() != "a" {
		t.Fatalf("Get(a) = %v, %v", a, err)
	}
	if _, err := r.Get("nope"); !errors.Is(err, ErrNotInstalled) {
		t.Fatalf("Get(nope) err = %v, want ErrNotInstalled", err)
	}
}
