package evaluate

import (
	"path/filepath"
	"slices"

	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/format/flinkyaml"
	"github.com/ckptlint/ckptlint/internal/format/hadoopxml"
	"github.com/ckptlint/ckptlint/internal/inputfs"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/rule"
	"github.com/ckptlint/ckptlint/internal/suppress"
	"github.com/ckptlint/ckptlint/internal/template"
)

// Source is the ignore comments of one file that apply to a set's
// findings: a file of the set, or a file it pulls in through xi:include.
type Source struct {
	Path string // display path, as findings name it
	// File holds the file's ignore comments (suppress.Parse).
	File *suppress.File
	// Set is the config set holding the file; Evaluated is false when that
	// set was not evaluated (a file of it is unreadable or skipped).
	Set       string
	Evaluated bool
}

// Sources are the ignore sources of set s whose files' ignore comments
// are files (suppress.Parse of each file that mentions ckptlint, in the
// order an Ignorer reads them: each file, Flink first, each followed by
// its xi:include targets; nil entries are left out).
func Sources(s *model.Set, files []*suppress.File) []Source {
	// A set with an unreadable file is not evaluated (evalSet): its
	// ignores cannot be checked for use.
	evaluated := !slices.ContainsFunc(s.Files(), func(f *parsed.File) bool { return f.Err != nil || template.Skipped(f) })
	var out []Source
	for _, f := range files {
		if f != nil {
			out = append(out, Source{Path: f.Path, File: f, Set: s.Name, Evaluated: evaluated})
		}
	}
	return out
}

// Ignorer applies the ckptlint:ignore comments a config set at a time,
// for a run that reports each set as soon as it is done: Set for each set,
// with the sources of its files (Sources) and its findings, then Problems
// once every set is done, the CKPT001/CKPT002 findings for unused and
// malformed ignores with the rule blocks of .ckptlint.hcl applied. A
// Hadoop file shared by several sets has one set of ignores, used when any
// set's finding matches. A finding is silenced by the ignores of the
// sources given so far, which hold those of its own file: a set's
// findings name its files (and their xi:include targets), or files with
// no comment syntax of their own.
type Ignorer struct {
	rules RuleSettings
	a     *suppress.Applier
	files map[string]*ignoreFile
}

type ignoreFile struct {
	set       string // the first config set holding the file
	unchecked bool   // some set holding it was not evaluated
}

// NewIgnorer returns an Ignorer for the run's rules: eng's policy rules
// (by their metadata) and the rule blocks of .ckptlint.hcl.
func NewIgnorer(policyRules []*engine.Rule, rules RuleSettings) *Ignorer {
	ig := &Ignorer{rules: rules, files: map[string]*ignoreFile{}}
	known := []suppress.Rule{{ID: rule.ParseError, Name: rule.ParseErrorName,
		NotIgnorable: "Flink or Hadoop cannot read the file; fix it, or list it under ignore in .ckptlint.hcl"}}
	for _, r := range policyRules {
		known = append(known, suppress.Rule{ID: r.ID, Name: r.Name})
	}
	ig.a = suppress.NewApplier(suppress.Options{
		Rules:     known,
		Dormant:   rules.disabled,
		Unchecked: func(path string) bool { return ig.files[path] != nil && ig.files[path].unchecked },
	})
	return ig
}

// Set takes the ignores of srcs (a path's first source only: a Hadoop
// file several sets share has one set of ignores) and splits fs into the
// findings they leave and those they silence.
func (ig *Ignorer) Set(srcs []Source, fs []finding.Finding) (kept, suppressed []finding.Finding) {
	for _, src := range srcs {
		fi := ig.files[src.Path]
		if fi == nil {
			fi = &ignoreFile{set: src.Set}
			ig.files[src.Path] = fi
			ig.a.Add(src.File)
		}
		fi.unchecked = fi.unchecked || !src.Evaluated
	}
	return ig.a.Filter(fs)
}

// Problems are the CKPT001 and CKPT002 findings about the ignores of
// every source given, each with the first config set holding its file and
// the rule blocks of .ckptlint.hcl applied (a rule turned off drops them).
func (ig *Ignorer) Problems() []finding.Finding {
	var out []finding.Finding
	for _, p := range ig.a.Problems() {
		if fi := ig.files[p.Range.File]; fi != nil {
			p.ConfigSet = fi.set
		}
		if ig.rules.apply(&p) {
			out = append(out, p)
		}
	}
	return out
}

// ReadSource reads a file by its display path (relative to the working
// directory unless absolute), from the overlay when it is there; nil when
// it cannot be read: a file pulled in through xi:include (only includes
// discovery read, inside the boundary, are listed in File.Includes), or
// another file a finding names, for the reporters. The result is the file's
// text (Text).
func ReadSource(path string, overlay map[string][]byte) []byte {
	p := filepath.FromSlash(path)
	if abs, err := filepath.Abs(p); err == nil {
		if b, ok := overlay[abs]; ok {
			return Text(path, b)
		}
	}
	b, _ := inputfs.ReadRegular(p, parsed.MaxFileSize)
	return Text(path, b)
}

// Text is the text of the file at display path whose bytes are b, as its
// findings' positions and its ignore comments read it: an XML file in
// UTF-16 or a declared single-byte charset decoded to UTF-8, as the Hadoop
// reader decodes it (hadoopxml.Text), any other file b itself.
func Text(path string, b []byte) []byte {
	switch {
	case b == nil:
	case suppress.SyntaxOfPath(path) == suppress.XML:
		return hadoopxml.Text(b)
	case suppress.SyntaxOfPath(path) == suppress.YAML:
		return flinkyaml.Text(b) // a config.yaml in UTF-16 or UTF-32, as its reader decodes it
	}
	return b
}
