package flinkyaml

import (
	"errors"
	"testing"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// TestEditThroughAlias: a key reached through an alias is never edited by
// changing the anchored original, which other keys read too.
func TestEditThroughAlias(t *testing.T) {
	for _, src := range []string{"a: &m {x: 1}\nb: *m\n", "a: &s [1]\nb: *s\n"} {
		f := ParseConfig("config.yaml", []byte(src))
		if f.Err != nil {
			t.Fatal(f.Err)
		}
		key, other, otherWant := "b.x", "a.x", "1"
		if f.Lookup("b.x") == nil {
			key, other, otherWant = "b", "a", "[1]"
		}
		edits, err := NewConfigEditor(f).Set(key, "2")
		if err != nil {
			if !errors.Is(err, parsed.ErrCannotRepresent) {
				t.Errorf("%q: set %s: %v", src, key, err)
			}
			continue
		}
		out, err := parsed.Apply([]byte(src), edits)
		if err != nil {
			t.Fatal(err)
		}
		g := ParseConfig("config.yaml", out)
		if g.Err != nil || g.Lookup(key) == nil || g.Lookup(key).Value != "2" || g.Lookup(other) == nil || g.Lookup(other).Value != otherWant {
			t.Errorf("%q: set %s=2 gave %q", src, key, out)
		}
	}
}
