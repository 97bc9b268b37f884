package hadoopxml

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ckptlint/ckptlint/lint/cfgfile"
	"github.com/ckptlint/ckptlint/lint/edit"
	"github.com/ckptlint/ckptlint/lint/edit/edittest"
	"github.com/ckptlint/ckptlint/lint/span"
)

// TestEditCorpus runs a representative set of operations on every
// core-site.xml and hdfs-site.xml of the shared corpus, and on a CRLF copy
// of each: set an existing key, add dfs.blocksize, delete a key and rename
// one, all computed by one editor and applied together. The result must
// read as intended, differ from the original only in the edited lines, and
// a second round of the same operations must change nothing. Files that do
// not parse (ERB templates) must be refused.
func TestEditCorpus(t *testing.T) {
	dir := corpusDir(t)
	var paths []string
	for _, sub := range []string{"core-site", "hdfs-site"} {
		m, err := filepath.Glob(filepath.Join(dir, sub, "*"))
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, m...)
	}
	if len(paths) == 0 {
		t.Skip("skipping: corpus has no core-site/hdfs-site files")
	}
	for _, path := range paths {
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

// ownLines reports whether the property is alone on its lines.
func ownLines(pr *Property) bool { return pr.DeleteSpan != pr.Span }

// corpusPick chooses the properties a corpus round edits, each alone on its
// lines and the only definition of its key: one with a one-line value to
// set, one to delete and one with a current (not deprecated) name to
// rename. del and ren are
// nil when the file has too few.
func corpusPick(d *Doc) (set, del, ren *Property) {
	count := map[string]int{}
	for _, pr := range d.Properties {
		if pr.Index >= 0 {
			count[d.Entries[pr.Index].Key]++
		}
	}
	var usable []*Property
	for i := range d.Properties {
		pr := &d.Properties[i]
		if pr.Index < 0 || !ownLines(pr) || pr.NameSpan.Start.Line != pr.NameSpan.End.Line {
			continue
		}
		e := &d.Entries[pr.Index]
		if count[e.Key] == 1 && d.Lookup(e.Key) == e && e.Kind == cfgfile.KindString {
			usable = append(usable, pr)
		}
	}
	for _, pr := range usable {
		if set == nil && pr.ValueSpan.Start.Line == pr.ValueSpan.End.Line && pr.ValueSpan.Len() > 0 {
			set = pr
		} else if ren == nil && set != nil && d.Entries[pr.Index].WrittenKey == "" {
			ren = pr
		}
	}
	for i := len(usable) - 1; i >= 0; i-- {
		if usable[i] != set && usable[i] != ren {
			del = usable[i]
			break
		}
	}
	return set, del, ren
}

func corpusRound(t *testing.T, src []byte, crlf bool) {
	if out, err := edit.Apply(src, nil); err != nil || string(out) != string(src) {
		t.Fatalf("zero edits changed the file (err %v)", err)
	}
	d := ParseDoc(editPath, src, Options{})
	ed := NewEditor(d)
	if d.Err != nil {
		for _, k := range []string{"set", "delete", "rename"} {
			if edits, err := runOp(ed, k, "dfs.blocksize", "1"); err == nil || edits != nil {
				t.Errorf("%s on a file that did not parse: edits %v, err %v", k, edits, err)
			}
		}
		return
	}
	const blocksize = "dfs.blocksize"
	added := d.Lookup(blocksize) == nil
	set, del, ren := corpusPick(d)
	keyOf := func(pr *Property) string { return d.Entries[pr.Index].Key }
	ops := []op{{"set", blocksize, "134217728"}}
	if set != nil {
		ops = append(ops, op{"set", keyOf(set), "ckptlint-set"})
	}
	if del != nil {
		ops = append(ops, op{"delete", keyOf(del), ""})
	}
	if ren != nil {
		ops = append(ops, op{"rename", keyOf(ren), keyOf(ren) + ".renamed"})
	}

	t.Logf("operations: %q", ops)
	var all []edit.Edit
	byOp := map[op][]edit.Edit{}
	want := effectiveXML(d.File)
	for _, o := range ops {
		edits, err := runOp(ed, o.kind, o.key, o.arg)
		if err != nil {
			t.Fatalf("%s %q: %v", o.kind, o.key, err)
		}
		all = append(all, edits...)
		byOp[o] = edits
		want = expectedXML(want, o.kind, o.key, o.arg)
	}
	out, err := edit.Apply(src, all)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	g := ParseDoc(editPath, out, Options{})
	if g.Err != nil {
		t.Fatalf("the edited file does not parse: %v", g.Err)
	}
	if diff := cmp.Diff(want, effectiveXML(g.File)); diff != "" {
		t.Fatalf("Hadoop reads (-want +got):\n%s", diff)
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
	replaceOn := func(s span.Span, text string) {
		l, col := lineOf(s.Start.Line), s.Start.Col-1
		lineOps.Replace[s.Start.Line] = l[:col] + text + l[col+s.Len():]
	}
	if set != nil {
		replaceOn(set.ValueSpan, "ckptlint-set")
	}
	if ren != nil {
		replaceOn(ren.NameSpan, escapeText(keyOf(ren)+".renamed"))
	}
	if del != nil {
		last := del.DeleteSpan.End.Line
		if del.DeleteSpan.End.Col == 1 {
			last--
		}
		for l := del.DeleteSpan.Start.Line; l <= last; l++ {
			lineOps.Delete[l] = true
		}
	}
	if added { // a new property in whole lines
		in, ok := edittest.InsertionOf(src, byOp[ops[0]][0])
		joined := strings.Join(in.Lines, "")
		if !ok || !strings.Contains(joined, "<name>"+blocksize+"</name>") && !strings.Contains(joined, `name="`+blocksize+`"`) {
			t.Fatalf("the new property is not whole lines: %v", byOp[ops[0]])
		}
		lineOps.Insert = append(lineOps.Insert, in)
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
