package flinkyaml

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"

	"github.com/ckptlint/ckptlint/lint/cfgfile"
	"github.com/ckptlint/ckptlint/lint/edit"
	"github.com/ckptlint/ckptlint/lint/edit/edittest"
)

// TestEditCorpusConfigYAML and TestEditCorpusManifests run a representative
// set of operations on every config.yaml and FlinkDeployment of the shared
// corpus, and on a CRLF copy of each: set an existing key, add
// execution.checkpointing.min-pause, delete a key and rename one, all
// computed by one editor and applied together. The result must read as
// intended, differ from the original only in the edited lines, and a
// second round of the same operations must change nothing.
func TestEditCorpusConfigYAML(t *testing.T) {
	editCorpus(t, "flink-config-yaml", -1)
}

func TestEditCorpusManifests(t *testing.T) {
	editCorpus(t, "flinkdeployment", 0)
}

func editCorpus(t *testing.T, sub string, dep int) {
	dir := corpusDir(t, sub)
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files in %s (%v)", dir, err)
	}
	for _, path := range files {
		lf := readFile(t, path)
		for variant, src := range map[string][]byte{"LF": lf, "CRLF": edittest.CRLF(lf)} {
			t.Run(filepath.Base(path)+"/"+variant, func(t *testing.T) {
				corpusRound(t, src, dep, variant == "CRLF")
			})
		}
	}
}

// op is one operation of a corpus round.
type op struct{ kind, key, arg string }

// corpusPick chooses the keys a corpus round edits: a string value on one
// line to set, a key with siblings to delete (so no mapping is left empty),
// and another key to rename in place; none of them inside a flow mapping.
// del and ren are nil when the configuration has too few keys.
func corpusPick(t *testing.T, cfg *cfgfile.File, tree *ytree) (set, del, ren *cfgfile.Entry) {
	t.Helper()
	siblings := map[*ymap]int{}
	for _, p := range tree.pairs {
		siblings[p.owner]++
	}
	usable := func(e *cfgfile.Entry) *ypair {
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

func corpusRound(t *testing.T, src []byte, dep int, crlf bool) {
	tg, ok := open(src, dep)
	if !ok || tg.cfg.Err != nil {
		t.Fatalf("parse: %v", tg.cfg)
	}
	if out, err := edit.Apply(src, nil); err != nil || string(out) != string(src) {
		t.Fatalf("zero edits changed the file (err %v)", err)
	}
	tree := tg.ed.(*yamlEditor).tree
	set, del, ren := corpusPick(t, tg.cfg, tree)
	const minPause = "execution.checkpointing.min-pause"
	added := tg.cfg.Lookup(minPause) == nil
	ops := []op{
		{"set", set.Key, "ckptlint-set"},
		{"set", minPause, "30 s"},
	}
	if del != nil {
		ops = append(ops, op{"delete", del.Key, ""})
	}
	if ren != nil {
		ops = append(ops, op{"rename", ren.Key, ren.Key + "-renamed"})
	}

	t.Logf("operations: %q", ops)
	var all []edit.Edit
	byOp := map[op][]edit.Edit{}
	want := effectiveTyped(tg.cfg)
	for _, o := range ops {
		edits, err := runOp(tg.ed, o.kind, o.key, o.arg)
		if err != nil {
			t.Fatalf("%s %q: %v", o.kind, o.key, err)
		}
		all = append(all, edits...)
		byOp[o] = edits
		want = expectedYAML(want, o.kind, o.key, o.arg)
	}
	out, err := edit.Apply(src, all)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	after, ok := open(out, dep)
	if !ok || after.cfg.Err != nil {
		t.Fatalf("the edited file does not parse: %v", after.cfg)
	}
	if diff := cmp.Diff(want, effectiveTyped(after.cfg)); diff != "" {
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
	{
		l, col := lineOf(set.ValueSpan.Start.Line), set.ValueSpan.Start.Col-1
		tok := "ckptlint-set"
		if q := l[col]; q == '"' || q == '\'' { // the quote style is kept
			tok = string(q) + tok + string(q)
		}
		lineOps.Replace[set.ValueSpan.Start.Line] = l[:col] + tok + l[col+set.ValueSpan.Len():]
	}
	if del != nil {
		for line := del.KeySpan.Start.Line; line <= del.ValueSpan.End.Line; line++ {
			lineOps.Delete[line] = true
		}
	}
	if ren != nil {
		written := ren.Key
		if ren.WrittenKey != "" {
			written = ren.WrittenKey
		}
		l, col := lineOf(ren.KeySpan.Start.Line), ren.KeySpan.Start.Col-1
		lineOps.Replace[ren.KeySpan.Start.Line] = l[:col] + written + "-renamed" + l[col+ren.KeySpan.Len():]
	}
	if added { // one line: some dotted suffix of the key, indented
		in, ok := edittest.InsertionOf(src, byOp[ops[1]][0])
		if !ok || len(in.Lines) != 1 {
			t.Fatalf("the new key is not one whole line: %v", byOp[ops[1]])
		}
		k, v, ok := strings.Cut(strings.TrimLeft(in.Lines[0], " "), ": ")
		if !ok || v != "30 s" || k != minPause && !strings.HasSuffix(minPause, "."+k) {
			t.Fatalf("the new line %q does not set %s", in.Lines[0], minPause)
		}
		lineOps.Insert = append(lineOps.Insert, in)
	}
	if diff := cmp.Diff(edittest.Result(out), lineOps.Apply(src)); diff != "" {
		t.Errorf("lines (-edited +expected):\n%s", diff)
	}

	// A second round changes nothing.
	for _, o := range ops {
		edits, err := runOp(after.ed, o.kind, o.key, o.arg)
		if len(edits) > 0 || err != nil && !errors.Is(err, edit.ErrNotFound) {
			t.Errorf("second %s %q: edits %v, err %v", o.kind, o.key, edits, err)
		}
	}
}
