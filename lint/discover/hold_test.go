package discover

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ckptlint/ckptlint/lint/parsed"
)

// TestLazyReloadSameEntries walks every fixture tree (and ../shared/corpus
// when it is there) once keeping every parsed file and once lazily: every
// file a lazy run deferred or dropped must parse, when held, into exactly
// the file (entries, notices, parse error, includes, template marks) an
// eager run gives, and be dropped again on its last release unless it is
// a Hadoop file with xi:include.
func TestLazyReloadSameEntries(t *testing.T) {
	roots := []string{"../../testdata"}
	if st, err := os.Stat("../../../shared/corpus"); err == nil && st.IsDir() {
		roots = append(roots, "../../../shared/corpus")
	}
	dropped := 0
	for _, root := range roots {
		abs, err := filepath.Abs(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, literal := range []bool{false, true} {
			keep, err := Walk([]string{abs}, Options{Unbounded: true, Literal: literal})
			if err != nil {
				t.Fatal(err)
			}
			lazy, err := Walk([]string{abs}, Options{Unbounded: true, Literal: literal, Lazy: true})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(keep.Paths(), lazy.Paths()) {
				t.Fatalf("%s: lazy discovery found other files", root)
			}
			for _, p := range keep.Paths() {
				kf, lf := keep.Get(p), lazy.Get(p)
				if kf.File != nil {
					dropped += sameWhenHeld(t, lazy, p, literal, kf.File, lf.File)
				}
				if len(kf.Deps) != len(lf.Deps) {
					t.Fatalf("%s: %d deployments, %d in a lazy run", p, len(kf.Deps), len(lf.Deps))
				}
				for i := range kf.Deps { // each FlinkDeployment of a manifest
					dropped += sameWhenHeld(t, lazy, fmt.Sprintf("%s#%d", p, i), literal, kf.Deps[i].Config, lf.Deps[i].Config)
				}
			}
		}
	}
	if dropped < 50 {
		t.Fatalf("only %d files were dropped by lazy discovery", dropped)
	}
}

// sameWhenHeld holds l twice (as two sets reading it would) and checks it
// against k, its eager parse, then releases it twice, checks it was freed,
// and holds it once more (a set still to come) to check it parses again.
// It returns 1 when the lazy run had freed l.
func sameWhenHeld(t *testing.T, lazy *Tree, p string, literal bool, k, l *parsed.File) (dropped int) {
	t.Helper()
	if l.Entries == nil && k.Entries != nil {
		dropped = 1
	}
	same := func(when string) {
		t.Helper()
		if !reflect.DeepEqual(k.Entries, l.Entries) || !reflect.DeepEqual(k.Notices, l.Notices) {
			t.Errorf("%s (literal %v): %s, entries or notices differ", p, literal, when)
		}
		if !reflect.DeepEqual(k.Err, l.Err) || !reflect.DeepEqual(k.Includes, l.Includes) || k.Nested != l.Nested ||
			!reflect.DeepEqual(k.Template, l.Template) || k.Path != l.Path || k.Format != l.Format || string(k.Src) != string(l.Src) {
			t.Errorf("%s (literal %v): %s, the file differs", p, literal, when)
		}
	}
	lazy.Hold(l)
	lazy.Hold(l)
	same("held")
	lazy.Release(l)
	same("held by one set less")
	lazy.Release(l)
	if hadoop := l.Format == parsed.HadoopCoreSite || l.Format == parsed.HadoopHDFSSite; l.Entries != nil && !(hadoop && len(l.Includes) > 0) {
		t.Errorf("%s: kept after its last release", p)
	}
	lazy.Hold(l)
	same("held again after its last release")
	lazy.Release(l)
	return dropped
}
