package lint_test

import (
	"context"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/rule"
	"github.com/ckptlint/ckptlint/lint"
)

// TestStreamedSameFindings lints every fixture tree twice, collecting the
// result and streaming it (Options.Report, what `ckptlint lint` does:
// each set's group handed on as soon as it is done, nothing of the set
// kept): findings, suppressed findings, the sets' names and order and the
// file bytes reporters read must not differ, and the streaming run must
// really have let the sets go.
func TestStreamedSameFindings(t *testing.T) {
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
	named := 0
	for _, d := range dirs {
		keep := linttest.Lint(t, eng, d, lint.Options{})
		rel := linttest.Streamed(t, eng, d, lint.Options{})
		sameRun(t, d, keep, rel)
		named += len(rel.Sources)
	}
	if named == 0 {
		t.Fatal("no finding named a file; no bytes were compared")
	}
}

// sameRun fails unless rel, a streamed run (Options.Report), reports what
// keep, the same run keeping its sets, does: findings, suppressed
// findings, the sets' names and order, and for every file a finding names
// the bytes the reporters show (Result.Sources). rel's sets must hold
// their names only.
func sameRun(t *testing.T, label string, keep, rel *lint.Result) {
	t.Helper()
	if !reflect.DeepEqual(keep.Findings, rel.Findings) || !reflect.DeepEqual(keep.Suppressed, rel.Suppressed) {
		t.Errorf("%s: findings differ streamed: %d and %d kept, %d and %d streamed", label,
			len(keep.Findings), len(keep.Suppressed), len(rel.Findings), len(rel.Suppressed))
	}
	if len(keep.Sets) != len(rel.Sets) {
		t.Fatalf("%s: %d sets, %d streamed", label, len(keep.Sets), len(rel.Sets))
	}
	for i, s := range rel.Sets {
		if s.Name != keep.Sets[i].Name {
			t.Errorf("%s: set %d is %s, %s streamed", label, i, keep.Sets[i].Name, s.Name)
		}
		if len(s.Files()) != 0 {
			t.Errorf("%s: set %s keeps its files streamed", label, s.Name)
		}
	}
	for _, f := range slices.Concat(keep.Findings, keep.Suppressed) {
		want, ok := keep.Sources[f.Range.File]
		got, gotOK := rel.Sources[f.Range.File]
		if ok != gotOK || string(want) != string(got) {
			t.Errorf("%s: %s: the bytes reporters read differ streamed (kept %v, streamed %v)", label, f.Range.File, ok, gotOK)
		}
	}
}

// TestStreamedSameFindingsShared: trees where a file is read by more than
// one config set, or where what a parse reads is not visible in the
// file's bytes, found by a review of the streaming run; the streamed run
// (one worker, so the first set is done long before the last is
// assembled) must find what the collected run finds.
func TestStreamedSameFindingsShared(t *testing.T) {
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

	// Ignore comments in files no other finding names: in an xi:include
	// target (one used, one naming no rule) and in a core-site.xml (unused).
	// A streamed run reads only the files that mention ckptlint, and the
	// bytes of these files must reach the reporters all the same.
	ignores := map[string]string{
		"conf/flink-conf.yaml": "state.backend.type: rocksdb\nexecution.checkpointing.interval: 60s\nstate.checkpoints.dir: hdfs:///flink/checkpoints\n",
		"conf/hdfs-site.xml":   "<?xml version=\"1.0\"?>\n<configuration xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n  <xi:include href=\"common.xml\"/>\n</configuration>\n",
		"conf/common.xml": "<?xml version=\"1.0\"?>\n<configuration>\n  <!-- ckptlint:ignore CKPT105 - state is small -->\n" +
			"  <property><name>dfs.blocksize</name><value>1m</value></property>\n  <!-- ckptlint:ignore CKPT310 - no such rule -->\n" +
			"  <property><name>dfs.replication</name><value>3</value></property>\n</configuration>\n",
		"conf/core-site.xml": "<?xml version=\"1.0\"?>\n<configuration>\n  <!-- ckptlint:ignore CKPT101 - unused -->\n" +
			"  <property><name>fs.defaultFS</name><value>hdfs://nn1:8020</value></property>\n</configuration>\n",
	}

	eng := linttest.Engine(t)
	for name, files := range map[string]map[string]string{"manifest named twice": twice, "UTF-16 xi:include": include, "ignores": ignores} {
		dir := t.TempDir()
		for p, body := range files {
			mkfile(t, filepath.Join(dir, filepath.FromSlash(p)), body)
		}
		keep := linttest.Lint(t, eng, dir, lint.Options{Workers: 1})
		rel := linttest.Streamed(t, eng, dir, lint.Options{Workers: 1})
		if len(keep.Findings) == 0 {
			t.Fatalf("%s: no findings", name)
		}
		sameRun(t, name, keep, rel)
		if name == "ignores" && (len(keep.Suppressed) == 0 || !slices.ContainsFunc(keep.Findings, func(f finding.Finding) bool {
			return f.Range.File == "conf/core-site.xml" && f.RuleID == rule.UnusedIgnore
		})) {
			t.Errorf("ignores: no suppressed finding, or no unused ignore in core-site.xml: %v", keep.Findings)
		}
	}
}

// TestStreamedSameFindingsCorpus is TestStreamedSameFindings over
// ../shared/corpus (skipped when absent): each file alone under its real
// name, and the whole corpus as one unknown repository, streamed and kept.
func TestStreamedSameFindingsCorpus(t *testing.T) {
	root := corpusDir(t)
	eng := linttest.Engine(t)
	total := 0
	compare := func(label string) {
		t.Helper()
		keep := linttest.Lint(t, eng, ".", lint.Options{})
		rel := linttest.Streamed(t, eng, ".", lint.Options{})
		sameRun(t, label, keep, rel)
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

// TestSourcesInsideBoundary: Result.Sources (the bytes the reporters show
// for each file a finding names) holds a file no set kept the bytes of
// (an xi:include target) as read now, but never reads a file outside
// the run's boundary (a config file symlinked out of the repository is a
// CKPT000 finding, and its target's text must not reach a public log),
// streamed or not, with the cache or without.
func TestSourcesInsideBoundary(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(tmp, "repo")
	mkfile(t, filepath.Join(repo, ".git", "HEAD"), "ref: refs/heads/main\n")
	mkfile(t, filepath.Join(repo, "conf", "flink-conf.yaml"), "state.backend.type: rocksdb\nstate.checkpoints.dir: hdfs:///flink/checkpoints\nexecution.checkpointing.interval: 10 s\n")
	mkfile(t, filepath.Join(repo, "conf", "hdfs-site.xml"), "<?xml version=\"1.0\"?>\n<configuration xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n  <xi:include href=\"extra.xml\"/>\n</configuration>\n")
	mkfile(t, filepath.Join(repo, "conf", "extra.xml"), "<configuration>\n<property><name>dfs.blocksize</name><value>1k</value></property>\n</configuration>\n")
	const secret = "<configuration><!-- SECRET outside the repository --></configuration>\n"
	mkfile(t, filepath.Join(tmp, "outside", "core-site.xml"), secret)
	mkfile(t, filepath.Join(repo, "other", "flink-conf.yaml"), "state.backend.type: rocksdb\n")
	if err := os.Symlink(filepath.Join(tmp, "outside", "core-site.xml"), filepath.Join(repo, "other", "core-site.xml")); err != nil {
		t.Skipf("symlinks: %v", err)
	}
	for run, res := range fourRuns(t, repo) {
		refused, included := false, false
		for _, f := range res.Findings {
			switch f.Range.File {
			case "other/core-site.xml":
				refused = refused || f.RuleID == rule.ParseError
			case "conf/extra.xml":
				included = true
			}
		}
		if !refused || !included {
			t.Fatalf("%s: want a CKPT000 finding on the symlink and one in the xi:include target: %v", run, res.Findings)
		}
		for path, b := range res.Sources {
			if strings.Contains(string(b), "SECRET") {
				t.Errorf("%s: Sources[%s] holds the text of a file outside the repository", run, path)
			}
		}
		if !strings.Contains(string(res.Sources["conf/extra.xml"]), "dfs.blocksize") {
			t.Errorf("%s: no bytes for the xi:include target a finding names", run)
		}
	}
}

// utf16 encodes s as UTF-16LE with a byte-order mark.
func utf16(s string) string {
	b := []byte{0xFF, 0xFE}
	for _, r := range s {
		b = append(b, byte(r), byte(r>>8))
	}
	return string(b)
}

// TestUTF16Sources (found by a review): the bytes the reporters show and
// the ignore comments read are a UTF-16 file's text, whether the file is
// a set's own (an ignore problem no other finding of its set names) or an
// xi:include target read again, in a run keeping its sets, a streamed
// run, the cache's first run and a run answered from the cache.
func TestUTF16Sources(t *testing.T) {
	dir := t.TempDir()
	mkfile(t, filepath.Join(dir, ".git", "HEAD"), "ref: refs/heads/main\n")
	mkfile(t, filepath.Join(dir, "conf", "flink-conf.yaml"), "state.backend.type: rocksdb\nstate.checkpoints.dir: hdfs:///flink/checkpoints\nexecution.checkpointing.interval: 60 s\n")
	mkfile(t, filepath.Join(dir, "conf", "core-site.xml"), utf16("<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<configuration>\n"+
		"  <!-- café ☕ --><!-- ckptlint:ignore CKPT101 - unused -->\n  <property><name>fs.defaultFS</name><value>hdfs://nn1:8020</value></property>\n</configuration>\n"))
	mkfile(t, filepath.Join(dir, "conf", "hdfs-site.xml"), "<?xml version=\"1.0\"?>\n<configuration xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n  <xi:include href=\"common.xml\"/>\n</configuration>\n")
	mkfile(t, filepath.Join(dir, "conf", "common.xml"), utf16("<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<configuration>\n"+
		"  <!-- ckptlint:ignore CKPT105 - state is small -->\n  <property><name>dfs.blocksize</name><value>1m</value></property>\n"+
		"</configuration>\n"))
	var want string
	for run, res := range fourRuns(t, dir) {
		unused, suppressed := false, false
		for _, f := range res.Findings {
			unused = unused || f.Range.File == "conf/core-site.xml" && f.RuleID == rule.UnusedIgnore
		}
		for _, f := range res.Suppressed {
			suppressed = suppressed || f.Range.File == "conf/common.xml" && f.RuleID == "CKPT105"
		}
		if !unused || !suppressed {
			t.Errorf("%s: unused ignore in core-site.xml %v, CKPT105 suppressed in common.xml %v", run, unused, suppressed)
		}
		for _, p := range []string{"conf/core-site.xml", "conf/common.xml"} {
			if b := res.Sources[p]; !strings.Contains(string(b), "ckptlint:ignore") {
				t.Errorf("%s: Sources[%s] is not the file's text: %q", run, p, b)
			}
		}
		got := fmt.Sprint(res.Findings, res.Suppressed)
		if want == "" {
			want = got
		} else if got != want {
			t.Errorf("%s: findings differ from the plain run:\n%s\nwant\n%s", run, got, want)
		}
	}
}

// TestOverlaySources (found by a review): a file given on standard input
// that is not on disk (fix's planned edits and --stdin-filename lint it
// from memory) shows its own text, also where only an ignore problem
// names it.
func TestOverlaySources(t *testing.T) {
	dir := t.TempDir()
	mkfile(t, filepath.Join(dir, "conf", "flink-conf.yaml"), "state.backend.type: rocksdb\nstate.checkpoints.dir: hdfs:///flink/checkpoints\nexecution.checkpointing.interval: 60 s\n")
	const text = "<?xml version=\"1.0\"?>\n<configuration>\n  <!-- café --><!-- ckptlint:ignore CKPT101 - unused -->\n  <property><name>fs.defaultFS</name><value>hdfs://nn1:8020</value></property>\n</configuration>\n"
	eng := linttest.Engine(t)
	for _, release := range []bool{false, true} {
		lintDir := linttest.Lint
		if release {
			lintDir = linttest.Streamed
		}
		res := lintDir(t, eng, dir, lint.Options{Overlay: map[string][]byte{filepath.Join(dir, "conf", "core-site.xml"): []byte(text)}})
		if !slices.ContainsFunc(res.Findings, func(f finding.Finding) bool { return f.RuleID == rule.UnusedIgnore }) {
			t.Fatalf("release %v: no unused ignore: %v", release, res.Findings)
		}
		if got := string(res.Sources["conf/core-site.xml"]); got != text {
			t.Errorf("release %v: Sources[conf/core-site.xml] = %q, want the text given", release, got)
		}
	}
}

// fourRuns lints dir as a run keeping its sets ("plain"), a streamed run
// (Options.Report, "streamed"), and with an empty result cache twice
// ("cached (first run)", "cached (second run)", from dir), in that order.
func fourRuns(t *testing.T, dir string) iter.Seq2[string, *lint.Result] {
	t.Helper()
	eng := linttest.Engine(t)
	c, _ := newCache(t)
	return func(yield func(string, *lint.Result) bool) {
		for _, run := range []string{"plain", "streamed", "cached (first run)", "cached (second run)"} {
			var res *lint.Result
			if strings.HasPrefix(run, "cached") {
				t.Chdir(dir)
				var err error
				if res, _, err = lint.Cached(context.Background(), c, nil, lint.Options{}); err != nil {
					t.Fatal(err)
				}
			} else if run == "streamed" {
				res = linttest.Streamed(t, eng, dir, lint.Options{})
			} else {
				res = linttest.Lint(t, eng, dir, lint.Options{})
			}
			if !yield(run, res) {
				return
			}
		}
	}
}

// TestRefusedSources (found by a review): a file refused for its content
// (more lines than ckptlint reads) shows its text beside its CKPT000
// finding in every run, as a run answered from the cache shows it.
func TestRefusedSources(t *testing.T) {
	dir := t.TempDir()
	mkfile(t, filepath.Join(dir, ".git", "HEAD"), "ref: refs/heads/main\n")
	mkfile(t, filepath.Join(dir, "conf", "flink-conf.yaml"), "state.backend.type: rocksdb\n"+strings.Repeat("#\n", parsed.MaxLines))
	// A UTF-16 one shows its text too, decoded as a cached run decodes it.
	mkfile(t, filepath.Join(dir, "other", "hdfs-site.xml"), utf16("<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<configuration>\n"+strings.Repeat("\n", parsed.MaxLines)+"</configuration>\n"))
	want := map[string]string{"conf/flink-conf.yaml": "state.backend.type: rocksdb\n", "other/hdfs-site.xml": "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<configuration>\n"}
	for run, res := range fourRuns(t, dir) {
		for file, prefix := range want {
			if !slices.ContainsFunc(res.Findings, func(f finding.Finding) bool {
				return f.RuleID == rule.ParseError && f.Range.File == file
			}) {
				t.Fatalf("%s: no CKPT000 on the long file %s: %v", run, file, res.Findings)
			}
			if b := res.Sources[file]; !strings.HasPrefix(string(b), prefix) {
				t.Errorf("%s: Sources holds %d bytes of the refused file %s, want its text", run, len(b), file)
			}
		}
	}
}
