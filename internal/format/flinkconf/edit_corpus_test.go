package flinkconf

import (
	"slices"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/parsed/edittest"
)

// TestEditCorpus runs a representative set of operations on every legacy
// flink-conf.yaml of the shared corpus, and on a CRLF copy of each: set an
// existing key, add execution.checkpointing.min-pause, delete a key and
// rename one, all computed by one editor and applied together. The result
// must read as intended, differ from the original only in the edited
// lines, and a second round of the same operations must change nothing
// (edittest.CorpusRound).
func TestEditCorpus(t *testing.T) {
	edittest.EditCorpus(t, format, edittest.CorpusFiles(t, "flink-conf"), corpusRound)
}

// corpusRound sets the first key, adds execution.checkpointing.min-pause,
// deletes the last key and renames the second when there are three or
// more.
func corpusRound(t *testing.T, f *parsed.File) *edittest.Round {
	if f.Err != nil {
		t.Fatalf("Parse: %v", f.Err)
	}
	winners := winningEntries(f)
	if len(winners) < 2 {
		t.Fatalf("only %d keys", len(winners))
	}
	set, del, ren := winners[0], winners[len(winners)-1], parsed.Entry{Key: "\x00none"}
	minPause := edittest.Op{Kind: "set", Key: "execution.checkpointing.min-pause", Arg: "30 s"}
	ops := []edittest.Op{
		{Kind: "set", Key: set.Key, Arg: "ckptlint-set"},
		minPause,
		{Kind: "delete", Key: del.Key},
	}
	if len(winners) >= 3 {
		ren = winners[1]
		ops = append(ops, edittest.Op{Kind: "rename", Key: ren.Key, Arg: ren.Key + ".renamed"})
	}
	added := f.Lookup(minPause.Key) == nil

	lines := func(t *testing.T, src []byte, byOp map[edittest.Op][]parsed.Edit) edittest.LineOps {
		var lineOps edittest.LineOps
		if e := f.Lookup(set.Key); e.Value != "ckptlint-set" {
			lineOps.ReplaceSpan(src, e.ValueSpan, "ckptlint-set")
		}
		if added {
			in, ok := edittest.InsertionOf(src, byOp[minPause][0])
			if !ok || !slices.Equal(in.Lines, []string{"execution.checkpointing.min-pause: 30 s"}) {
				t.Fatalf("the new key is not one whole line: %v", byOp[minPause])
			}
			lineOps.Insert = append(lineOps.Insert, in)
		}
		for _, e := range f.Entries {
			switch e.Key {
			case del.Key:
				lineOps.DeleteLines(e.KeySpan.Start.Line, e.KeySpan.Start.Line)
			case ren.Key:
				lineOps.ReplaceSpan(src, e.KeySpan, ren.Key+".renamed")
			}
		}
		return lineOps
	}
	return &edittest.Round{Ops: ops, Lines: lines}
}

// winningEntries returns the entries Flink uses, in file order, skipping
// keys with a byte order mark.
func winningEntries(f *parsed.File) []parsed.Entry {
	var out []parsed.Entry
	for i := range f.Entries {
		e := &f.Entries[i]
		if f.Lookup(e.Key) == e && !strings.HasPrefix(e.Key, "\ufeff") {
			out = append(out, *e)
		}
	}
	return out
}

// TestEditRealWorld runs the corpus round over the flink-conf.yaml of
// testdata/realworld, written for this repository, so a clone without
// ../shared runs it too.
func TestEditRealWorld(t *testing.T) {
	edittest.EditCorpus(t, format, []string{"../../../testdata/realworld/playground/flink-conf.yaml"}, corpusRound)
}
