package flinkconf

import (
	"errors"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/lint/cfgfile"
	"github.com/ckptlint/ckptlint/lint/edit"
)

// FuzzEditFlinkConf checks the editor contract on any input: no panic,
// zero edits give the same bytes, and every operation that succeeds gives
// a file Flink reads as intended, where doing it again changes nothing.
func FuzzEditFlinkConf(f *testing.F) {
	for _, tc := range editCases {
		f.Add([]byte(tc.src), tc.key, tc.arg)
	}
	f.Fuzz(func(t *testing.T, src []byte, key, arg string) {
		if out, err := edit.Apply(src, nil); err != nil || string(out) != string(src) {
			t.Fatalf("zero edits changed the file (err %v)", err)
		}
		for _, op := range []string{"set", "delete", "rename"} {
			_, err := checkEdit(t, src, op, key, arg)
			var perr *cfgfile.ParseError
			if err != nil && !errors.Is(err, edit.ErrCannotRepresent) && !errors.Is(err, edit.ErrNotFound) &&
				!errors.Is(err, edit.ErrExists) && !errors.As(err, &perr) {
				t.Fatalf("%s: unexpected error %v", op, err)
			}
			// The legacy format is simple enough that the editor's own
			// check must never catch a wrong edit.
			if err != nil && strings.Contains(err.Error(), "edited file") {
				t.Fatalf("%s %q %q: %v", op, key, arg, err)
			}
		}
	})
}
