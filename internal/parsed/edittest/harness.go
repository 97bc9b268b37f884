package edittest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Format is what the shared checks need of one format's editor: how to
// parse a file (P) and make its editor, what the format's reader reads
// from it (V), and what that must become after an operation.
type Format[P, V any] struct {
	// Reader names who reads the files, for messages ("Flink", "Hadoop").
	Reader string
	// Parse parses src; ok is false when src holds no configuration to
	// edit at all (an operation then fails with parsed.ErrNotFound).
	Parse func(src []byte) (p P, ok bool)
	// Err is the parse error of p, nil when p parsed.
	Err func(p P) error
	// Editor returns the editor of p.
	Editor func(p P) parsed.Editor
	// View is what the reader reads from p.
	View func(p P) V
	// Expected is what the reader must read after op on a file it reads
	// as before.
	Expected func(before V, op, key, arg string) V
}

// Ops are the operations of an editor, in the order the tests try them.
var Ops = []string{"set", "delete", "rename"}

// Op is one operation: set Key to Arg, delete Key, or rename Key to Arg.
type Op struct{ Kind, Key, Arg string }

// RunOp performs one operation with ed.
func RunOp(ed parsed.Editor, op, key, arg string) ([]parsed.Edit, error) {
	switch op {
	case "set":
		return ed.Set(key, arg)
	case "delete":
		return ed.Delete(key)
	case "rename":
		return ed.Rename(key, arg)
	}
	panic("unknown op " + op)
}

// RefusesAll checks that every operation on key (and arg) fails with ed
// without edits, as on a file that did not parse.
func RefusesAll(t testing.TB, ed parsed.Editor, key, arg string) {
	t.Helper()
	for _, op := range Ops {
		if edits, err := RunOp(ed, op, key, arg); err == nil || edits != nil {
			t.Errorf("%s on a file that did not parse: edits %v, err %v", op, edits, err)
		}
	}
}

// CheckEdit applies op to src and checks the result as the format's reader
// reads it: the result parses, the operation's key has its new value (or
// is gone), every other key is unchanged, and doing the same again changes
// nothing. It returns the edited bytes, or the error of the operation
// (parsed.ErrNotFound when src holds no configuration to edit).
func CheckEdit[P, V any](t testing.TB, f Format[P, V], src []byte, op, key, arg string) ([]byte, error) {
	t.Helper()
	p, ok := f.Parse(src)
	if !ok {
		return nil, parsed.ErrNotFound
	}
	edits, err := RunOp(f.Editor(p), op, key, arg)
	if err != nil {
		if edits != nil {
			t.Fatalf("%s %q: edits %v with error %v", op, key, edits, err)
		}
		return nil, err
	}
	out, err := parsed.Apply(src, edits)
	if err != nil {
		t.Fatalf("%s %q: Apply: %v", op, key, err)
	}
	g, ok := f.Parse(out)
	if !ok {
		t.Fatalf("%s %q %q: the result holds no configuration\n%q", op, key, arg, out)
	}
	if err := f.Err(g); err != nil {
		t.Fatalf("%s %q %q: the result does not parse: %v\n%q", op, key, arg, err, out)
	}
	if diff := cmp.Diff(f.Expected(f.View(p), op, key, arg), f.View(g)); diff != "" {
		t.Fatalf("%s %q %q: %s reads (-want +got):\n%s\nfrom %q", op, key, arg, f.Reader, diff, out)
	}
	again, err := RunOp(f.Editor(g), op, key, arg)
	if len(again) > 0 || err != nil && !errors.Is(err, parsed.ErrNotFound) {
		t.Fatalf("%s %q a second time: edits %v, err %v", op, key, again, err)
	}
	return out, nil
}

// Row is one row of an editor's table test: one operation on one file and
// the bytes it must give, or the error it must fail with.
type Row struct {
	Name         string
	Src          string
	Op, Key, Arg string // Arg: the value (set) or the new key (rename)
	Want         string
	WantErr      error
}

// RunRow runs row as the subtest "<Name>/LF" and, when Src has a "\n" and
// no "\r", as "<Name>/CRLF" on a copy with every "\n" of Src and Want made
// "\r\n". Each runs CheckEdit and compares its error with WantErr, or the
// edited bytes with Want.
func RunRow[P, V any](t *testing.T, f Format[P, V], row Row) {
	t.Helper()
	variants := []struct {
		name string
		row  Row
	}{{"LF", row}}
	if !strings.Contains(row.Src, "\r") && strings.Contains(row.Src, "\n") {
		crlf := row
		crlf.Src = strings.ReplaceAll(row.Src, "\n", "\r\n")
		crlf.Want = strings.ReplaceAll(row.Want, "\n", "\r\n")
		variants = append(variants, struct {
			name string
			row  Row
		}{"CRLF", crlf})
	}
	for _, v := range variants {
		tc := v.row
		t.Run(tc.Name+"/"+v.name, func(t *testing.T) {
			out, err := CheckEdit(t, f, []byte(tc.Src), tc.Op, tc.Key, tc.Arg)
			if tc.WantErr != nil {
				if !errors.Is(err, tc.WantErr) {
					t.Fatalf("err %v, want %v", err, tc.WantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if diff := cmp.Diff(tc.Want, string(out)); diff != "" {
				t.Errorf("edited file (-want +got):\n%s", diff)
			}
		})
	}
}

// StrictFuzz makes FuzzOps callers that ask for it fail when an editor's
// own check catches a wrong edit, to find layouts the editors plan badly
// (set CKPTLINT_STRICT_FUZZ=1); by default such a refusal is allowed.
var StrictFuzz = os.Getenv("CKPTLINT_STRICT_FUZZ") != ""

// FuzzOps checks the editor contract on one input: zero edits give the
// same bytes, and every operation on key (and arg) that succeeds passes
// CheckEdit. An operation may fail with parsed.ErrCannotRepresent,
// parsed.ErrNotFound, parsed.ErrExists, a *parsed.ParseError or an error
// allow accepts (allow may be nil); with strict it may not fail because
// the editor's own check caught a wrong edit ("edited file").
func FuzzOps[P, V any](t *testing.T, f Format[P, V], src []byte, key, arg string, allow func(error) bool, strict bool) {
	if out, err := parsed.Apply(src, nil); err != nil || string(out) != string(src) {
		t.Fatalf("zero edits changed the file (err %v)", err)
	}
	for _, op := range Ops {
		_, err := CheckEdit(t, f, src, op, key, arg)
		var perr *parsed.ParseError
		if err != nil && !errors.Is(err, parsed.ErrCannotRepresent) && !errors.Is(err, parsed.ErrNotFound) &&
			!errors.Is(err, parsed.ErrExists) && !errors.As(err, &perr) && (allow == nil || !allow(err)) {
			t.Fatalf("%s: unexpected error %v", op, err)
		}
		if strict && err != nil && strings.Contains(err.Error(), "edited file") {
			t.Fatalf("%s %q %q: %v", op, key, arg, err)
		}
	}
}

// CorpusDir returns <repository root>/../shared/corpus/<sub> (sub may be
// ""), the repository root being the nearest directory above the working
// directory that holds go.mod. It skips the test when there is no such
// root or no corpus.
func CorpusDir(t testing.TB, sub string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("no go.mod above the working directory, so no ../shared/corpus; skipping")
		}
		dir = parent
	}
	corpus := filepath.Join(dir, "..", "shared", "corpus", sub)
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("shared corpus not found at %s (it lives beside the repository); skipping", corpus)
	}
	return corpus
}

// CorpusFiles returns the files of CorpusDir(t, sub); there must be some.
func CorpusFiles(t testing.TB, sub string) []string {
	t.Helper()
	dir := CorpusDir(t, sub)
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files in %s (%v)", dir, err)
	}
	return files
}

// Round is what one corpus round does to a file: operations, computed by
// one editor and applied together, and the change of src in whole lines
// they must make, given the edits of each operation.
type Round struct {
	Ops   []Op
	Lines func(t *testing.T, src []byte, edits map[Op][]parsed.Edit) LineOps
}

// EditCorpus runs CorpusRound on each of paths, and on a CRLF copy of
// each, as the subtests "<base name>/LF" and "<base name>/CRLF".
func EditCorpus[P, V any](t *testing.T, f Format[P, V], paths []string, plan func(t *testing.T, p P) *Round) {
	t.Helper()
	for _, path := range paths {
		lf, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []struct {
			name string
			src  []byte
		}{{"LF", lf}, {"CRLF", CRLF(lf)}} {
			t.Run(filepath.Base(path)+"/"+v.name, func(t *testing.T) {
				CorpusRound(t, f, v.src, v.name == "CRLF", plan)
			})
		}
	}
}

// CorpusRound runs one round of operations on src (crlf: a CRLF copy).
// Zero edits must keep the bytes. plan chooses the round from the parsed
// file (nil: nothing to edit, the round ends). The edits of its
// operations, applied together, must give a file that parses and reads as
// the format's Expected says, has only CRLF line breaks when src had,
// keeps whether the file ends with a line break, and differs from src just
// as the round's Lines say. A second round of the same operations, with an
// editor of the result, must change nothing.
func CorpusRound[P, V any](t *testing.T, f Format[P, V], src []byte, crlf bool, plan func(t *testing.T, p P) *Round) {
	if out, err := parsed.Apply(src, nil); err != nil || string(out) != string(src) {
		t.Fatalf("zero edits changed the file (err %v)", err)
	}
	p, ok := f.Parse(src)
	if !ok {
		t.Fatal("no configuration to edit")
	}
	r := plan(t, p)
	if r == nil {
		return
	}

	t.Logf("operations: %q", r.Ops)
	ed := f.Editor(p)
	var all []parsed.Edit
	byOp := map[Op][]parsed.Edit{}
	want := f.View(p)
	for _, o := range r.Ops {
		edits, err := RunOp(ed, o.Kind, o.Key, o.Arg)
		if err != nil {
			t.Fatalf("%s %q: %v", o.Kind, o.Key, err)
		}
		all = append(all, edits...)
		byOp[o] = edits
		want = f.Expected(want, o.Kind, o.Key, o.Arg)
	}
	out, err := parsed.Apply(src, all)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	g, ok := f.Parse(out)
	if !ok {
		t.Fatal("the edited file holds no configuration")
	}
	if err := f.Err(g); err != nil {
		t.Fatalf("the edited file does not parse: %v", err)
	}
	if diff := cmp.Diff(want, f.View(g)); diff != "" {
		t.Fatalf("%s reads (-want +got):\n%s", f.Reader, diff)
	}
	if crlf && !OnlyCRLF(out) {
		t.Error("the edited CRLF file has other line breaks")
	}
	if !SameEnding(src, out) {
		t.Error("the edit changed whether the file ends with a line break")
	}

	// Only the edited lines change: the original with the expected line
	// changes applied is the edited file.
	lineOps := r.Lines(t, src, byOp)
	if diff := cmp.Diff(Result(out), lineOps.Apply(src)); diff != "" {
		t.Errorf("lines (-edited +expected):\n%s", diff)
	}

	// A second round changes nothing.
	ed2 := f.Editor(g)
	for _, o := range r.Ops {
		edits, err := RunOp(ed2, o.Kind, o.Key, o.Arg)
		if len(edits) > 0 || err != nil && !errors.Is(err, parsed.ErrNotFound) {
			t.Errorf("second %s %q: edits %v, err %v", o.Kind, o.Key, edits, err)
		}
	}
}

// Line returns line n (1-based) of src, without its "\r".
func Line(src []byte, n int) string {
	return strings.TrimSuffix(Lines(src)[n-1], "\r")
}

// ReplaceSpan expects the bytes of s, which lies on one line of src, to be
// replaced by text.
func (o *LineOps) ReplaceSpan(src []byte, s parsed.Span, text string) {
	l, col := Line(src, s.Start.Line), s.Start.Col-1
	if o.Replace == nil {
		o.Replace = map[int]string{}
	}
	o.Replace[s.Start.Line] = l[:col] + text + l[col+s.Len():]
}

// DeleteLines expects lines from to to (1-based, inclusive) to be deleted.
func (o *LineOps) DeleteLines(from, to int) {
	if o.Delete == nil {
		o.Delete = map[int]bool{}
	}
	for l := from; l <= to; l++ {
		o.Delete[l] = true
	}
}

// ParseErr returns perr as an error, nil when perr is nil (not an error
// holding a nil *parsed.ParseError), for Format.Err.
func ParseErr(perr *parsed.ParseError) error {
	if perr == nil {
		return nil
	}
	return perr
}
