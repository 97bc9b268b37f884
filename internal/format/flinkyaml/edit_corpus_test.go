package flinkyaml

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/parsed/edittest"
)

// TestEditCorpusConfigYAML and TestEditCorpusManifests run a representative
// set of operations on every config.yaml and FlinkDeployment of the shared
// corpus, and on a CRLF copy of each: set an existing key, add
// execution.checkpointing.min-pause, delete a key and rename one, all
// computed by one editor and applied together. The result must read as
// intended, differ from the original only in the edited lines, and a
// second round of the same operations must change nothing
// (edittest.CorpusRound).
func TestEditCorpusConfigYAML(t *testing.T) {
	editCorpus(t, "flink-config-yaml", -1)
}

func TestEditCorpusManifests(t *testing.T) {
	editCorpus(t, "flinkdeployment", 0)
}

func editCorpus(t *testing.T, sub string, dep int) {
	edittest.EditCorpus(t, yamlFormat(dep, false), edittest.CorpusFiles(t, sub), corpusRound)
}

// corpusPick chooses the keys a corpus round edits: a string value on one
// line to set, a key with siblings to delete (so no mapping is left empty),
// and another key to rename in place; none of them inside a flow mapping.
// del and ren are nil when the configuration has too few keys.
func corpusPick(t *testing.T, cfg *parsed.File, tree *ytree) (set, del, ren *parsed.Entry) {
	t.Helper()
	siblings := map[*ymap]int{}
	for _, p := range tree.pairs {
		siblings[p.owner]++
	}
	usable := func(e *parsed.Entry) *ypair {
		p := tree.pairs[e.KeySpan.Start.Offset]
		if cfg.Lookup(e.Key) != e || p == nil || p.owner.flow || tree.hasProps(p.vr) || !tree.singleLine(p.vr) {
			return nil
		}
		for _, o := range cfg.Entries { // one definition only
			if o.Key == e.Key && o.KeySpan.Start.Offset != e.KeySpan.Start.Offset {
				return nil
			}
		}
		return p
	}
	for i := range cfg.Entries {
		e := &cfg.Entries[i]
		p := usable(e)
		switch {
		case p == nil:
		case set == nil && p.val.Kind == yaml.ScalarNode:
			set = e
		case ren == nil && set != nil:
			ren = e
		}
	}
	for i := len(cfg.Entries) - 1; i >= 0; i-- {
		e := &cfg.Entries[i]
		if p := usable(e); p != nil && e != set && e != ren && siblings[p.owner] >= 2 {
			del = e
			break
		}
	}
	if set == nil {
		t.Fatal("no key to set")
	}
	return set, del, ren
}

// corpusRound sets a string value, adds execution.checkpointing.min-pause,
// and deletes and renames a key when corpusPick finds them.
func corpusRound(t *testing.T, tg target) *edittest.Round {
	if tg.cfg.Err != nil {
		t.Fatalf("parse: %v", tg.cfg.Err)
	}
	tree := tg.ed.(*yamlEditor).tree
	set, del, ren := corpusPick(t, tg.cfg, tree)
	minPause := edittest.Op{Kind: "set", Key: "execution.checkpointing.min-pause", Arg: "30 s"}
	added := tg.cfg.Lookup(minPause.Key) == nil
	ops := []edittest.Op{
		{Kind: "set", Key: set.Key, Arg: "ckptlint-set"},
		minPause,
	}
	if del != nil {
		ops = append(ops, edittest.Op{Kind: "delete", Key: del.Key})
	}
	if ren != nil {
		ops = append(ops, edittest.Op{Kind: "rename", Key: ren.Key, Arg: ren.Key + "-renamed"})
	}

	lines := func(t *testing.T, src []byte, byOp map[edittest.Op][]parsed.Edit) edittest.LineOps {
		var lineOps edittest.LineOps
		tok := "ckptlint-set"
		if q := edittest.Line(src, set.ValueSpan.Start.Line)[set.ValueSpan.Start.Col-1]; q == '"' || q == '\'' { // the quote style is kept
			tok = string(q) + tok + string(q)
		}
		lineOps.ReplaceSpan(src, set.ValueSpan, tok)
		if del != nil {
			lineOps.DeleteLines(del.KeySpan.Start.Line, del.ValueSpan.End.Line)
		}
		if ren != nil {
			written := ren.Key
			if ren.WrittenKey != "" {
				written = ren.WrittenKey
			}
			lineOps.ReplaceSpan(src, ren.KeySpan, written+"-renamed")
		}
		if added { // one line: some dotted suffix of the key, indented
			in, ok := edittest.InsertionOf(src, byOp[minPause][0])
			if !ok || len(in.Lines) != 1 {
				t.Fatalf("the new key is not one whole line: %v", byOp[minPause])
			}
			k, v, ok := strings.Cut(strings.TrimLeft(in.Lines[0], " "), ": ")
			if !ok || v != "30 s" || k != minPause.Key && !strings.HasSuffix(minPause.Key, "."+k) {
				t.Fatalf("the new line %q does not set %s", in.Lines[0], minPause.Key)
			}
			lineOps.Insert = append(lineOps.Insert, in)
		}
		return lineOps
	}
	return &edittest.Round{Ops: ops, Lines: lines}
}

// TestEditRealWorld runs the corpus rounds over the config.yaml and the
// FlinkDeployment of testdata/realworld, written for this repository, so a
// clone without ../shared runs them too.
func TestEditRealWorld(t *testing.T) {
	edittest.EditCorpus(t, yamlFormat(-1, false), []string{"../../../testdata/realworld/flink119/config.yaml"}, corpusRound)
	edittest.EditCorpus(t, yamlFormat(0, false), []string{"../../../testdata/realworld/operator/flinkdeployment.yaml"}, corpusRound)
}
