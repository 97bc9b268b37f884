package lint_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/lint"
	"github.com/ckptlint/ckptlint/lint/parsed"
)

// TestReleaseSameFindings lints every fixture tree twice, keeping the
// parsed sets and streaming them (Options.Release, what `ckptlint lint`
// does: files parsed again when a set is assembled, each set evaluated
// while the next are assembled, its entries freed after): findings,
// suppressed findings, the sets' names and order and the file bytes
// reporters read must not differ, and the streaming run must really have
// dropped the entries. Only a Hadoop file with xi:include keeps them: it
// cannot be parsed again without reading its includes again, and a set
// still to come may read it.
func TestReleaseSameFindings(t *testing.T) {
	eng := linttest.Engine(t)
	var dirs []string
	for _, g := range []string{"../testdata/rules/*/bad", "../testdata/rules/*/good", "../testdata/stories/*",
		"../testdata/stories-fixed/*", "../testdata/suppress",
		"../testdata/templates", "../testdata/k8s", "../testdata/realworld"} {
		m, _ := filepath.Glob(g)
		for _, d := range m {
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				abs, _ := filepath.Abs(d) // before linttest.Lint changes directory
				dirs = append(dirs, abs)
			}
		}
	}
	if len(dirs) < 10 {
		t.Fatalf("only %d fixture directories found", len(dirs))
	}
	released := 0
	for _, d := range dirs {
		keep := linttest.Lint(t, eng, d, lint.Options{})
		rel := linttest.Lint(t, eng, d, lint.Options{Release: true})
		if !reflect.DeepEqual(keep.Findings, rel.Findings) || !reflect.DeepEqual(keep.Suppressed, rel.Suppressed) {
			t.Errorf("%s: findings differ with Release", d)
		}
		if len(keep.Sets) != len(rel.Sets) {
			t.Fatalf("%s: %d sets, %d with Release", d, len(keep.Sets), len(rel.Sets))
		}
		for i, s := range rel.Sets {
			if s.Name != keep.Sets[i].Name {
				t.Errorf("%s: set %d is %s, %s with Release", d, i, keep.Sets[i].Name, s.Name)
			}
			for j, f := range s.Files() {
				if k := keep.Sets[i].Files()[j]; string(k.Src) != string(f.Src) || k.Path != f.Path {
					t.Errorf("%s: %s: path or bytes differ with Release", d, f.Path)
				}
				hadoop := f.Format == parsed.HadoopCoreSite || f.Format == parsed.HadoopHDFSSite
				if f.Entries != nil && !(hadoop && bytes.Contains(f.Src, []byte("include"))) {
					t.Errorf("%s: %s: entries kept with Release", d, f.Path)
				}
				released++
			}
		}
	}
	if released == 0 {
		t.Fatal("no file was released")
	}
}

// TestReleaseSameFindingsShared: trees where a file is read by more than
// one config set, or where what a parse reads is not visible in the
// file's bytes, found by a review of the streaming run; the streamed run
// (Release, one worker, so the first set is done long before the last is
// assembled) must find what the kept run finds.
func TestReleaseSameFindingsShared(t *testing.T) {
	const manifest = `apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: job
spec:
  flinkVersion: v1_20
  flinkConfiguration:
    state.backend.type: rocksdb
    execution.checkpointing.dir: hdfs:///flink/checkpoints
    execution.checkpointing.interval: 100ms
    state.checkpoints.num-retained: "0"
`
	// A manifest named by two deployment blocks (one job, two clusters),
	// with sets between them.
	twice := map[string]string{"k8s/job.yaml": manifest}
	hcl := "deployment \"first\" {\n  flink_conf = \"k8s/job.yaml\"\n}\n"
	for i := range 8 {
		twice[fmt.Sprintf("f%d/flink-conf.yaml", i)] = "state.backend.type: rocksdb\nexecution.checkpointing.interval: 100ms\n"
		hcl += fmt.Sprintf("deployment \"filler%d\" {\n  flink_conf = \"f%d\"\n}\n", i, i)
	}
	twice[".ckptlint.hcl"] = hcl + "deployment \"second\" {\n  flink_conf = \"k8s/job.yaml\"\n  flink_version = \"1.18\"\n}\n"

	// A UTF-16 core-site.xml whose xi:include the raw bytes do not spell.
	utf16 := []byte{0xFF, 0xFE}
	for _, r := range "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<configuration xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n  <xi:include href=\"common.xml\"/>\n</configuration>\n" {
		utf16 = append(utf16, byte(r), byte(r>>8))
	}
	include := map[string]string{
		"conf/flink-conf.yaml": "state.backend.type: rocksdb\nexecution.checkpointing.interval: 60s\nstate.checkpoints.dir: hdfs:///flink/checkpoints\n",
		"conf/core-site.xml":   string(utf16),
		"conf/common.xml":      "<?xml version=\"1.0\"?>\n<configuration>\n  <property><name>fs.defaultFS</name><value>hdfs://nn1:8020</value></property>\n</configuration>\n",
	}

	eng := linttest.Engine(t)
	for name, files := range map[string]map[string]string{"manifest named twice": twice, "UTF-16 xi:include": include} {
		dir := t.TempDir()
		for p, body := range files {
			mkfile(t, filepath.Join(dir, filepath.FromSlash(p)), body)
		}
		keep := linttest.Lint(t, eng, dir, lint.Options{Workers: 1})
		rel := linttest.Lint(t, eng, dir, lint.Options{Workers: 1, Release: true})
		if len(keep.Findings) == 0 {
			t.Fatalf("%s: no findings", name)
		}
		if !reflect.DeepEqual(keep.Findings, rel.Findings) {
			t.Errorf("%s: %d findings kept, %d streamed", name, len(keep.Findings), len(rel.Findings))
		}
	}
}

// TestReleaseSameFindingsCorpus is TestReleaseSameFindings over
// ../shared/corpus (skipped when absent): each file alone under its real
// name, and the whole corpus as one unknown repository, streamed and kept.
func TestReleaseSameFindingsCorpus(t *testing.T) {
	root := corpusDir(t)
	eng := linttest.Engine(t)
	total := 0
	compare := func(label string) {
		t.Helper()
		keep := linttest.Lint(t, eng, ".", lint.Options{})
		rel := linttest.Lint(t, eng, ".", lint.Options{Release: true})
		if !reflect.DeepEqual(keep.Findings, rel.Findings) || !reflect.DeepEqual(keep.Suppressed, rel.Suppressed) {
			t.Errorf("%s: %d findings kept, %d streamed", label, len(keep.Findings), len(rel.Findings))
		}
		total += len(keep.Findings)
	}
	eachCorpusFile(t, func(label, _ string) { compare(label) })
	if total == 0 {
		t.Fatal("no finding in the corpus files; nothing was compared")
	}
	dir := filepath.Join(t.TempDir(), "repo")
	linttest.CopyTree(t, root, dir, nil)
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	compare("the whole corpus")
}
