package flinkconf

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ckptlint/ckptlint/lint/cfgfile"
	"github.com/ckptlint/ckptlint/lint/edit"
	"github.com/ckptlint/ckptlint/lint/edit/edittest"
)

// TestEditCorpus runs a representative set of operations on every legacy
// flink-conf.yaml of the shared corpus, and on a CRLF copy of each: set an
// existing key, add execution.checkpointing.min-pause, delete a key and
// rename one, all computed by one editor and applied together. The result
// must read as intended, differ from the original only in the edited
// lines, and a second round of the same operations must change nothing.
func TestEditCorpus(t *testing.T) {
	dir := corpusDir(t, "flink-conf")
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files in %s: %v", dir, err)
	}
	for _, path := range files {
		lf, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for variant, src := range map[string][]byte{"LF": lf, "CRLF": edittest.CRLF(lf)} {
			t.Run(filepath.Base(path)+"/"+variant, func(t *testing.T) {
				corpusRound(t, src, variant == "CRLF")
			})
		}
	}
}

// op is one operation of a corpus round.
type op struct{ kind, key, arg string }

func corpusRound(t *testing.T, src []byte, crlf bool) {
	f := Parse("flink-conf.yaml", src)
	if f.Err != nil {
		t.Fatalf("Parse: %v", f.Err)
	}
	if out, err := edit.Apply(src, nil); err != nil || string(out) != string(src) {
		t.Fatalf("zero edits changed the file (err %v)", err)
	}
	// set the first key, delete the last, rename the second when there
	// are three or more
	winners := winningEntries(f)
	if len(winners) < 2 {
		t.Fatalf("only %d keys", len(winners))
	}
	set, del, ren := winners[0], winners[len(winners)-1], cfgfile.Entry{Key: "\x00none"}
	ops := []op{
		{"set", set.Key, "ckptlint-set"},
		{"set", "execution.checkpointing.min-pause", "30 s"},
		{"delete", del.Key, ""},
	}
	if len(winners) >= 3 {
		ren = winners[1]
		ops = append(ops, op{"rename", ren.Key, ren.Key + ".renamed"})
	}
	added := f.Lookup("execution.checkpointing.min-pause") == nil

	ed := NewEditor(f)
	t.Logf("operations: %q", ops)
	var all []edit.Edit
	byOp := map[op][]edit.Edit{}
	want := effectiveOf(f)
	for _, o := range ops {
		edits, err := runOp(ed, o.kind, o.key, o.arg)
		if err != nil {
			t.Fatalf("%s %q: %v", o.kind, o.key, err)
		}
		all = append(all, edits...)
		byOp[o] = edits
		want = expected(want, o.kind, o.key, o.arg)
	}
	out, err := edit.Apply(src, all)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	g := Parse("flink-conf.yaml", out)
	if g.Err != nil {
		t.Fatalf("the edited file does not parse: %v", g.Err)
	}
	if diff := cmp.Diff(want, effectiveOf(g)); diff != "" {
		t.Fatalf("Flink reads (-want +got):\n%s", diff)
	}
	if crlf && !edittest.OnlyCRLF(out) {
		t.Error("the edited CRLF file has other line breaks")
	}
	if !edittest.SameEnding(src, out) {
		t.Error("the edit changed whether the file ends with a line break")
	}

	// Only the edited lines change: the original with the expected line
	// changes applied is the edited file.
	lines := edittest.Lines(src)
	lineOf := func(n int) string { return strings.TrimSuffix(lines[n-1], "\r") }
	lineOps := edittest.LineOps{Replace: map[int]string{}, Delete: map[int]bool{}}
	if e := f.Lookup(set.Key); e.Value != "ckptlint-set" {
		l, col := lineOf(e.ValueSpan.Start.Line), e.ValueSpan.Start.Col-1
		lineOps.Replace[e.ValueSpan.Start.Line] = l[:col] + "ckptlint-set" + l[col+e.ValueSpan.Len():]
	}
	if added {
		in, ok := edittest.InsertionOf(src, byOp[ops[1]][0])
		if !ok || !slices.Equal(in.Lines, []string{"execution.checkpointing.min-pause: 30 s"}) {
			t.Fatalf("the new key is not one whole line: %v", byOp[ops[1]])
		}
		lineOps.Insert = append(lineOps.Insert, in)
	}
	for _, e := range f.Entries {
		switch e.Key {
		case del.Key:
			lineOps.Delete[e.KeySpan.Start.Line] = true
		case ren.Key:
			l, col := lineOf(e.KeySpan.Start.Line), e.KeySpan.Start.Col-1
			lineOps.Replace[e.KeySpan.Start.Line] = l[:col] + ren.Key + ".renamed" + l[col+e.KeySpan.Len():]
		}
	}
	if diff := cmp.Diff(edittest.Result(out), lineOps.Apply(src)); diff != "" {
		t.Errorf("lines (-edited +expected):\n%s", diff)
	}

	// A second round changes nothing.
	ed2 := NewEditor(g)
	for _, o := range ops {
		edits, err := runOp(ed2, o.kind, o.key, o.arg)
		if len(edits) > 0 || err != nil && !errors.Is(err, edit.ErrNotFound) {
			t.Errorf("second %s %q: edits %v, err %v", o.kind, o.key, edits, err)
		}
	}
}

// winningEntries returns the entries Flink uses, in file order, skipping
// keys with a byte order mark.
func winningEntries(f *cfgfile.File) []cfgfile.Entry {
	var out []cfgfile.Entry
	for i := range f.Entries {
		e := &f.Entries[i]
		if f.Lookup(e.Key) == e && !strings.HasPrefix(e.Key, "\ufeff") {
			out = append(out, *e)
		}
	}
	return out
}
