package hadoopxml

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/parsed/edittest"
)

// TestEditCorpus runs a representative set of operations on every
// core-site.xml and hdfs-site.xml of the shared corpus, and on a CRLF copy
// of each: set an existing key, add dfs.blocksize, delete a key and rename
// one, all computed by one editor and applied together. The result must
// read as intended, differ from the original only in the edited lines, and
// a second round of the same operations must change nothing
// (edittest.CorpusRound). Files that do not parse (ERB templates) must be
// refused.
func TestEditCorpus(t *testing.T) {
	edittest.EditCorpus(t, xmlFormat(""), corpusPaths(t), corpusRound)
}

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
		if count[e.Key] == 1 && d.Lookup(e.Key) == e && e.Kind == parsed.KindString {
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

// corpusRound sets dfs.blocksize and, when corpusPick finds them, sets,
// deletes and renames a property. A file that does not parse must be
// refused.
func corpusRound(t *testing.T, d *Doc) *edittest.Round {
	if d.Err != nil {
		edittest.RefusesAll(t, NewEditor(d), "dfs.blocksize", "1")
		return nil
	}
	blocksize := edittest.Op{Kind: "set", Key: "dfs.blocksize", Arg: "134217728"}
	added := d.Lookup(blocksize.Key) == nil
	set, del, ren := corpusPick(d)
	keyOf := func(pr *Property) string { return d.Entries[pr.Index].Key }
	ops := []edittest.Op{blocksize}
	if set != nil {
		ops = append(ops, edittest.Op{Kind: "set", Key: keyOf(set), Arg: "ckptlint-set"})
	}
	if del != nil {
		ops = append(ops, edittest.Op{Kind: "delete", Key: keyOf(del)})
	}
	if ren != nil {
		ops = append(ops, edittest.Op{Kind: "rename", Key: keyOf(ren), Arg: keyOf(ren) + ".renamed"})
	}

	lines := func(t *testing.T, src []byte, byOp map[edittest.Op][]parsed.Edit) edittest.LineOps {
		var lineOps edittest.LineOps
		if set != nil {
			lineOps.ReplaceSpan(src, set.ValueSpan, "ckptlint-set")
		}
		if ren != nil {
			lineOps.ReplaceSpan(src, ren.NameSpan, escapeText(keyOf(ren)+".renamed"))
		}
		if del != nil {
			last := del.DeleteSpan.End.Line
			if del.DeleteSpan.End.Col == 1 {
				last--
			}
			lineOps.DeleteLines(del.DeleteSpan.Start.Line, last)
		}
		if added { // a new property in whole lines
			in, ok := edittest.InsertionOf(src, byOp[blocksize][0])
			joined := strings.Join(in.Lines, "")
			if !ok || !strings.Contains(joined, "<name>"+blocksize.Key+"</name>") && !strings.Contains(joined, `name="`+blocksize.Key+`"`) {
				t.Fatalf("the new property is not whole lines: %v", byOp[blocksize])
			}
			lineOps.Insert = append(lineOps.Insert, in)
		}
		return lineOps
	}
	return &edittest.Round{Ops: ops, Lines: lines}
}

// TestEditRealWorld runs the corpus round over the Hadoop XML files of
// testdata/realworld, written for this repository, so a clone without
// ../shared runs it too.
func TestEditRealWorld(t *testing.T) {
	paths, err := filepath.Glob("../../../testdata/realworld/*/*.xml")
	if err != nil || len(paths) < 3 {
		t.Fatalf("%d Hadoop XML files in testdata/realworld (%v), want at least 3", len(paths), err)
	}
	edittest.EditCorpus(t, xmlFormat(""), paths, corpusRound)
}
