package evaluate

import (
	"path/filepath"
	"slices"

	"github.com/ckptlint/ckptlint/lint/engine"
	"github.com/ckptlint/ckptlint/lint/finding"
	"github.com/ckptlint/ckptlint/lint/format"
	"github.com/ckptlint/ckptlint/lint/inputfs"
	"github.com/ckptlint/ckptlint/lint/model"
	"github.com/ckptlint/ckptlint/lint/parsed"
	"github.com/ckptlint/ckptlint/lint/suppress"
	"github.com/ckptlint/ckptlint/lint/template"
)

// Ignores reads the ckptlint:ignore comments of every file of sets (and of
// the files they pull in through xi:include, read from overlay when it
// holds them), takes the findings they silence out of fs, and adds
// CKPT001/CKPT002 findings for unused and malformed ignores, with the rule
// blocks of .ckptlint.hcl applied. It runs once over all sets, after every
// set is evaluated: a Hadoop file shared by several sets has one set of
// ignores, used when any set's finding matches. eng names the policy
// rules an ignore may name.
func Ignores(eng *engine.Engine, sets []*model.Set, fs []finding.Finding, rules RuleSettings, overlay map[string][]byte) (kept, suppressed []finding.Finding) {
	type fileInfo struct {
		f         *suppress.File
		set       string // the first config set holding the file
		unchecked bool   // some set holding it was not evaluated
	}
	files := map[string]*fileInfo{}
	var order []string
	add := func(path string, src func() []byte, syn suppress.Syntax, set string, evaluated bool) {
		fi := files[path]
		if fi == nil {
			if syn == 0 {
				return
			}
			fi = &fileInfo{f: suppress.Parse(path, src(), syn), set: set}
			files[path] = fi
			order = append(order, path)
		}
		fi.unchecked = fi.unchecked || !evaluated
	}
	for _, s := range sets {
		// A set with an unreadable file is not evaluated (evalSet): its
		// ignores cannot be checked for use.
		evaluated := !slices.ContainsFunc(s.Files(), func(f *parsed.File) bool { return f.Err != nil || template.Skipped(f) })
		for _, f := range s.Files() {
			add(f.Path, func() []byte { return f.Src }, format.CommentsOf(f.Format), s.Name, evaluated)
			for _, inc := range f.Includes {
				add(inc, func() []byte { return readSource(inc, overlay) }, suppress.SyntaxOfPath(inc), s.Name, evaluated)
			}
		}
	}
	ignoreFiles := make([]*suppress.File, 0, len(order))
	for _, p := range order {
		ignoreFiles = append(ignoreFiles, files[p].f)
	}
	known := []suppress.Rule{{ID: ParseErrorRule, Name: ParseErrorName,
		NotIgnorable: "Flink or Hadoop cannot read the file; fix it, or list it under ignore in .ckptlint.hcl"}}
	for _, r := range eng.Rules() {
		known = append(known, suppress.Rule{ID: r.ID, Name: r.Name})
	}
	out := suppress.Apply(fs, ignoreFiles, suppress.Options{
		Rules:     known,
		Dormant:   rules.disabled,
		Unchecked: func(path string) bool { return files[path] != nil && files[path].unchecked },
	})
	kept = out.Findings
	for _, p := range out.Problems {
		if fi := files[p.Range.File]; fi != nil {
			p.ConfigSet = fi.set
		}
		if rules.apply(&p) {
			kept = append(kept, p)
		}
	}
	return kept, out.Suppressed
}

// readSource reads a file pulled in through xi:include (path is relative
// to the working directory unless absolute), from the overlay when it is
// there; nil when it cannot be read. Only includes discovery read (inside
// the boundary) are listed in File.Includes.
func readSource(path string, overlay map[string][]byte) []byte {
	p := filepath.FromSlash(path)
	if abs, err := filepath.Abs(p); err == nil {
		if b, ok := overlay[abs]; ok {
			return b
		}
	}
	b, _ := inputfs.ReadRegular(p, parsed.MaxFileSize)
	return b
}
