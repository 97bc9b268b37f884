package flinkyaml

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/lint/cfgfile"
	"github.com/ckptlint/ckptlint/lint/edit"
)

// strictFuzz makes the fuzz tests fail when the editors' own check catches
// a wrong edit, to find layouts the editors plan badly (set
// CKPTLINT_STRICT_FUZZ=1); by default such a refusal is allowed.
var strictFuzz = os.Getenv("CKPTLINT_STRICT_FUZZ") != ""

// fuzzEdit checks the editor contract on one input: zero edits give the
// same bytes, and every operation that succeeds gives a file Flink reads
// as intended, where doing it again changes nothing.
func fuzzEdit(t *testing.T, src []byte, dep int, key, arg string) {
	if out, err := edit.Apply(src, nil); err != nil || string(out) != string(src) {
		t.Fatalf("zero edits changed the file (err %v)", err)
	}
	for _, op := range []string{"set", "delete", "rename"} {
		_, err := checkEdit(t, src, dep, op, key, arg)
		var perr *cfgfile.ParseError
		if err != nil && !errors.Is(err, edit.ErrCannotRepresent) && !errors.Is(err, edit.ErrNotFound) &&
			!errors.Is(err, edit.ErrExists) && !errors.As(err, &perr) && !strings.Contains(err.Error(), "yaml:") {
			t.Fatalf("%s: unexpected error %v", op, err)
		}
		// Anchors and aliases are legitimately refused (an alias may refer
		// to a deleted anchor).
		if strictFuzz && err != nil && strings.Contains(err.Error(), "edited file") && !strings.ContainsAny(string(src), "&*") {
			t.Fatalf("%s %q %q: %v", op, key, arg, err)
		}
	}
}

func FuzzEditConfigYAML(f *testing.F) {
	for _, tc := range configEditCases {
		f.Add([]byte(tc.src), tc.key, tc.arg)
	}
	f.Add([]byte(standardYAML), "Key9", "x")
	f.Fuzz(func(t *testing.T, src []byte, key, arg string) {
		fuzzEdit(t, src, -1, key, arg)
	})
}

func FuzzEditDeployment(f *testing.F) {
	for _, tc := range deploymentEditCases {
		f.Add([]byte(tc.src), uint8(tc.dep), tc.key, tc.arg)
	}
	f.Fuzz(func(t *testing.T, src []byte, dep uint8, key, arg string) {
		fuzzEdit(t, src, int(dep%3), key, arg)
	})
}
