// Package linttest holds helpers for tests that lint a directory as
// `ckptlint lint` run inside it would: the engine with the embedded rules,
// the directory's .ckptlint.hcl, and the lint itself. It is imported only
// from _test files.
package linttest

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ckptlint/ckptlint/internal/config"
	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/lint"
)

var (
	engOnce sync.Once
	eng     *engine.Engine
	engErr  error
)

// Engine returns the engine with the embedded rules, built once per test
// binary (an engine is not changed by linting).
func Engine(t testing.TB) *engine.Engine {
	t.Helper()
	engOnce.Do(func() { eng, engErr = engine.New(context.Background(), engine.Options{}) })
	if engErr != nil {
		t.Fatal(engErr)
	}
	return eng
}

// LoadConfig loads dir's .ckptlint.hcl, read from
// filepath.Join(dir, config.FileName) (so with dir "." the configuration's
// paths are relative to the working directory); it returns nil when dir has
// none and fails the test when the file has errors.
func LoadConfig(t testing.TB, dir string) *config.Config {
	t.Helper()
	path := filepath.Join(dir, config.FileName)
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	cfg, diags := config.Load(path)
	if diags.HasErrors() {
		var b strings.Builder
		_ = diags.Write(&b, false)
		t.Fatalf("%s:\n%s", path, b.String())
	}
	return cfg
}

// Now is the time Lint runs at unless opts.Now says otherwise, so the ages
// of facts blocks (CKPT609) in golden output do not depend on the clock.
var Now = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

// Lint lints dir as `ckptlint lint` run inside it would: the test moves
// into dir (t.Chdir; dir "." is the working directory, where it stays),
// paths are relative to it, and, when opts.Config is nil, dir's
// .ckptlint.hcl (LoadConfig) is the configuration.
func Lint(t *testing.T, eng *engine.Engine, dir string, opts lint.Options) *lint.Result {
	t.Helper()
	if dir != "." {
		t.Chdir(dir)
	}
	if opts.Config == nil {
		opts.Config = LoadConfig(t, ".")
	}
	if opts.Now.IsZero() {
		opts.Now = Now
	}
	res, err := lint.Lint(context.Background(), eng, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Streamed is Lint handing each group to Options.Report as `ckptlint lint`
// does, the groups folded into the Result as a run without Report would
// hold them: the two must be the same.
func Streamed(t *testing.T, eng *engine.Engine, dir string, opts lint.Options) *lint.Result {
	t.Helper()
	var fs, sup []finding.Finding
	src := map[string][]byte{}
	opts.Report = func(g lint.Group) error {
		fs, sup = append(fs, g.Findings...), append(sup, g.Suppressed...)
		maps.Copy(src, g.Sources)
		return nil
	}
	res := Lint(t, eng, dir, opts)
	res.Findings, res.Suppressed, res.Sources = fs, sup, src
	return res
}

// CopyTree copies the directories and regular files below src into dst
// (created as needed), leaving out the files skip returns true for (nil
// skips nothing).
func CopyTree(t testing.TB, src, dst string, skip func(path string) bool) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() || (skip != nil && skip(p)) {
			return nil
		}
		b, err := os.ReadFile(p) //nolint:gosec // G122: a test helper copying the repository's own fixtures into a temporary directory
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644) //nolint:gosec // G703: rel is below src, dst a test's temporary directory
	})
	if err != nil {
		t.Fatal(err)
	}
}

// FixtureDirs calls visit for every directory under root (testdata/ of the
// repository), in walk order, from inside that directory (t.Chdir), with
// its label ("testdata/" and its path below root) and its .ckptlint.hcl
// when it has a valid one (nil otherwise): how the differential tests
// discover each fixture on its own.
func FixtureDirs(t *testing.T, root string, visit func(label string, cfg *config.Config)) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		var cfg *config.Config
		if c, diags := config.Load(filepath.Join(p, config.FileName)); !diags.HasErrors() {
			cfg = c
		}
		t.Chdir(p)
		rel, _ := filepath.Rel(root, p)
		visit("testdata/"+filepath.ToSlash(rel), cfg)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// CorpusSet is a set of files of ../shared/corpus under the names they have
// in a project, and a label saying where they come from.
type CorpusSet struct {
	Label string
	Files map[string][]byte
}

// corpusKinds are ../shared/corpus's directories and the names their files
// have in a project.
var corpusKinds = map[string]string{
	"flink-conf":        "flink-conf.yaml",
	"flink-config-yaml": "config.yaml",
	"core-site":         "core-site.xml",
	"hdfs-site":         "hdfs-site.xml",
	"flinkdeployment":   "flinkdeployment.yaml",
}

// CorpusSets are the file sets the differential tests take from the corpus
// in dir: each file alone under its real name, then each Flink file beside
// the corpus's Hadoop files in turn (the i-th Flink file of a kind with the
// (i mod n)-th file of each Hadoop kind). ok is false when dir is absent.
func CorpusSets(t *testing.T, dir string) (sets []CorpusSet, ok bool) {
	t.Helper()
	if _, err := os.Stat(dir); err != nil {
		return nil, false
	}
	files := map[string][][]byte{}
	for _, kind := range slices.Sorted(maps.Keys(corpusKinds)) {
		name := corpusKinds[kind]
		ents, _ := os.ReadDir(filepath.Join(dir, kind))
		for _, e := range ents {
			src, err := os.ReadFile(filepath.Join(dir, kind, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			files[name] = append(files[name], src)
			sets = append(sets, CorpusSet{Label: kind + "/" + e.Name(), Files: map[string][]byte{name: src}})
		}
	}
	for _, flink := range []string{"flink-conf.yaml", "config.yaml"} {
		for i, src := range files[flink] {
			fs := map[string][]byte{flink: src}
			for _, h := range []string{"core-site.xml", "hdfs-site.xml"} {
				if all := files[h]; len(all) > 0 {
					fs[h] = all[i%len(all)]
				}
			}
			sets = append(sets, CorpusSet{Label: flink + " with Hadoop files #" + strconv.Itoa(i), Files: fs})
		}
	}
	return sets, true
}
