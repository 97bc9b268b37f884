package discover

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestLazyReloadSameEntries walks every fixture tree (and ../shared/corpus
// when it is there) once keeping every parsed file and once lazily: every
// file a lazy run dropped must parse again, when held, into exactly the
// entries and notices the first parse (with its template marks) gave, and
// be dropped again on its last release.
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
				k, l := keep.Get(p).File, lazy.Get(p).File
				if k == nil {
					continue
				}
				if l.Entries == nil && k.Entries != nil {
					dropped++
				}
				lazy.Hold(l)
				lazy.Hold(l)
				if !reflect.DeepEqual(k.Entries, l.Entries) || !reflect.DeepEqual(k.Notices, l.Notices) {
					t.Errorf("%s (literal %v): parsed again, entries or notices differ", p, literal)
				}
				lazy.Release(l)
				if !reflect.DeepEqual(k.Entries, l.Entries) {
					t.Errorf("%s: dropped while still held", p)
				}
				lazy.Release(l)
				if l.Entries != nil && len(l.Includes) == 0 && l.Err == nil && l.Template == nil {
					t.Errorf("%s: kept after its last release", p)
				}
			}
		}
	}
	if dropped < 50 {
		t.Fatalf("only %d files were dropped by lazy discovery", dropped)
	}
}
