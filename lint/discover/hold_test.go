package discover

import (
	"bytes"
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
				if !reflect.DeepEqual(k.Err, l.Err) || !reflect.DeepEqual(k.Includes, l.Includes) || k.Nested != l.Nested ||
					!reflect.DeepEqual(k.Template, l.Template) || k.Path != l.Path || k.Format != l.Format || string(k.Src) != string(l.Src) {
					t.Errorf("%s (literal %v): parsed when first held, the file differs", p, literal)
				}
				lazy.Release(l)
				if !reflect.DeepEqual(k.Entries, l.Entries) {
					t.Errorf("%s: dropped while still held", p)
				}
				lazy.Release(l)
				if hadoop := l.Format == parsed.HadoopCoreSite || l.Format == parsed.HadoopHDFSSite; l.Entries != nil && !(hadoop && bytes.Contains(l.Src, []byte("include"))) {
					t.Errorf("%s: kept after its last release", p)
				}
			}
		}
	}
	if dropped < 50 {
		t.Fatalf("only %d files were dropped by lazy discovery", dropped)
	}
}
