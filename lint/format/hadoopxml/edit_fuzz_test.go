package hadoopxml

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/lint/cfgfile"
	"github.com/ckptlint/ckptlint/lint/edit"
)

// strictFuzz makes FuzzEditHadoopXML fail when the editor's own check
// catches a wrong edit, to find layouts it plans badly (set
// CKPTLINT_STRICT_FUZZ=1); by default such a refusal is allowed.
var strictFuzz = os.Getenv("CKPTLINT_STRICT_FUZZ") != ""

// FuzzEditHadoopXML checks the editor contract on any input: no panic,
// zero edits give the same bytes, and every operation that succeeds gives
// a file Hadoop reads as intended, where doing it again changes nothing.
func FuzzEditHadoopXML(f *testing.F) {
	for _, tc := range editCases {
		f.Add([]byte(tc.src), tc.key, tc.arg)
	}
	f.Fuzz(func(t *testing.T, src []byte, key, arg string) {
		if out, err := edit.Apply(src, nil); err != nil || string(out) != string(src) {
			t.Fatalf("zero edits changed the file (err %v)", err)
		}
		for _, op := range []string{"set", "delete", "rename"} {
			_, err := checkEdit(t, src, "", op, key, arg)
			var perr *cfgfile.ParseError
			if err != nil && !errors.Is(err, edit.ErrCannotRepresent) && !errors.Is(err, edit.ErrNotFound) &&
				!errors.Is(err, edit.ErrExists) && !errors.As(err, &perr) {
				t.Fatalf("%s: unexpected error %v", op, err)
			}
			if strictFuzz && err != nil && strings.Contains(err.Error(), "edited file") {
				t.Fatalf("%s %q %q: %v", op, key, arg, err)
			}
		}
	})
}
