package lint_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ckptlint/ckptlint/internal/config"
	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/internal/rule"
	"github.com/ckptlint/ckptlint/lint"
)

// suppressFixture is ../testdata/suppress, absolute (tests change the
// working directory).
var suppressFixture, _ = filepath.Abs("../testdata/suppress")

// lintIn lints dir as `ckptlint lint` run inside it would, with its
// .ckptlint.hcl, which must exist.
func lintIn(t *testing.T, dir string, noInline bool) *lint.Result {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, config.FileName)); err != nil {
		t.Fatal(err)
	}
	return linttest.Lint(t, linttest.Engine(t), dir, lint.Options{NoInlineIgnores: noInline})
}

// ids renders findings as file:line id, sorted as the findings are.
func ids(fs []finding.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s:%d %s", f.Range.File, f.Range.Start.Line, f.RuleID))
	}
	return out
}

// TestSuppress lints the suppress fixture: the ignore at the end of the
// timeout line silences CKPT206 there and nothing else, the file-level
// ignore silences CKPT205, the XML ignore above the <property> silences
// CKPT105 on its <name> line, an ignore above a line without findings is
// CKPT001, a file-level ignore below the first key is CKPT002, and the
// ignore naming CKPT302 (off in .ckptlint.hcl) is not reported.
func TestSuppress(t *testing.T) {
	const conf = "flink/flink-conf.yaml"
	res := lintIn(t, suppressFixture, false)

	wantSuppressed := []string{
		conf + ":12 CKPT206 inline@12 600 ms is meant: the test cluster must fail fast",
		conf + ":14 CKPT205 file@2 tolerable failures are raised by the deploy script (OPS-7)",
		"hadoop/client/hdfs-site.xml:5 CKPT105 inline@3 savepoints of this job stay below 2 GiB per subtask",
	}
	var gotSuppressed []string
	for _, f := range res.Suppressed {
		s := f.Suppression
		if s == nil || s.File != f.Range.File {
			t.Fatalf("suppressed finding without its suppression: %s %+v", f, s)
		}
		gotSuppressed = append(gotSuppressed, fmt.Sprintf("%s:%d %s %s@%d %s", f.Range.File, f.Range.Start.Line, f.RuleID, s.Kind, s.Line, s.Reason))
	}
	if diff := cmp.Diff(wantSuppressed, gotSuppressed); diff != "" {
		t.Errorf("suppressed (-want +got):\n%s", diff)
	}

	got := ids(res.Findings)
	// Exactly one rule on exactly one line: the other rules of line 12
	// and CKPT206 on line 13 are still reported.
	for _, want := range []string{conf + ":12 CKPT201", conf + ":12 CKPT301", conf + ":13 CKPT206"} {
		if !slices.Contains(got, want) {
			t.Errorf("%s is missing from the findings:\n%s", want, strings.Join(got, "\n"))
		}
	}
	for _, gone := range []string{conf + ":12 CKPT206", conf + ":14 CKPT205", "hadoop/client/hdfs-site.xml:5 CKPT105"} {
		if slices.Contains(got, gone) {
			t.Errorf("%s is reported although an ignore silences it", gone)
		}
	}
	var problems []string
	for _, f := range res.Findings {
		if f.RuleID == rule.UnusedIgnore || f.RuleID == rule.InvalidIgnore {
			problems = append(problems, f.String(), "    "+f.Detail)
			if f.Severity != finding.Warning || f.ConfigSet != "suppress" {
				t.Errorf("severity %s, config set %q: %s", f.Severity, f.ConfigSet, f)
			}
		}
	}
	wantProblems := []string{
		conf + ":15:1: warning: This ckptlint:ignore of CKPT101 matches no finding on line 16, so it silences nothing. [CKPT001 unused-ignore]",
		"    ckptlint:ignore CKPT101 matched no finding on line 16: remove it, or put it at the end of the finding's line or alone on the line above",
		conf + ":17:1: warning: This ckptlint:ignore-file comes after the first key, so it silences nothing. [CKPT002 invalid-ignore]",
		"    misplaced ckptlint:ignore-file silences nothing: it must come before the first key (line 3); move it to the top of the file, or use ckptlint:ignore on or above the line",
	}
	if diff := cmp.Diff(wantProblems, problems); diff != "" {
		t.Errorf("ignore problems (-want +got):\n%s", diff)
	}

	var b strings.Builder
	b.WriteString(textOf(t, res.Findings))
	b.WriteString("-- suppressed --\n")
	for _, f := range res.Suppressed {
		fmt.Fprintf(&b, "%s (%s ignore at line %d: %s)\n", f, f.Suppression.Kind, f.Suppression.Line, f.Suppression.Reason)
	}
	golden(t, suppressFixture+".want.txt", b.String())
}

// TestSuppressNoInlineIgnores: with NoInlineIgnores every finding comes
// back, nothing is suppressed and no ignore is reported.
func TestSuppressNoInlineIgnores(t *testing.T) {
	with := lintIn(t, suppressFixture, false)
	without := lintIn(t, suppressFixture, true)
	if len(without.Suppressed) != 0 {
		t.Errorf("suppressed with NoInlineIgnores: %v", ids(without.Suppressed))
	}
	var want []finding.Finding
	for _, f := range with.Findings {
		if f.RuleID != rule.UnusedIgnore && f.RuleID != rule.InvalidIgnore {
			want = append(want, f)
		}
	}
	for _, f := range with.Suppressed {
		f.Suppression = nil
		want = append(want, f)
	}
	want = finding.Sort(want)
	if diff := cmp.Diff(ids(want), ids(without.Findings)); diff != "" {
		t.Errorf("findings without ignores (-want +got):\n%s", diff)
	}
	if !slices.Contains(ids(without.Findings), "flink/flink-conf.yaml:12 CKPT206") {
		t.Errorf("NoInlineIgnores does not bring CKPT206 back")
	}
}

// TestSuppressSharedAndBroken: a Hadoop file shared by two config sets has
// one set of ignores: an ignore matching a finding of either set is used,
// and its problems are reported once. The ignores of a set that could not
// be evaluated are not reported as unused; malformed ones still are.
func TestSuppressSharedAndBroken(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Story (a)'s cluster: many jobs x parallelism 24 exhaust the DataNodes
	// at 128 MiB blocks (CKPT101 in the shared hdfs-site.xml, set "many");
	// one job at parallelism 1 does not (set "one").
	write(".ckptlint.hcl", `
flink_version  = "1.13"
hadoop_version = "2.7.3"
cluster "test" {
  datanodes             = 3
  datanode_free_bytes   = "43g"
  taskmanagers          = 3
  slots_per_taskmanager = 48
}
deployment "many" {
  flink_conf         = "many/flink-conf.yaml"
  hadoop_conf        = "hadoop"
  cluster            = "test"
  jobs               = 6
  stateful_operators = 8
}
deployment "one" {
  flink_conf         = "one/flink-conf.yaml"
  hadoop_conf        = "hadoop"
  cluster            = "test"
  jobs               = 1
  stateful_operators = 1
}
deployment "broken" {
  flink_conf  = "broken/config.yaml"
  hadoop_conf = "hadoop-broken"
}
`)
	flink := "state.backend: filesystem\nstate.checkpoints.dir: hdfs://namenode:8020/flink/checkpoints\nexecution.checkpointing.interval: 60 s\n"
	write("many/flink-conf.yaml", flink+"parallelism.default: 24\n")
	write("one/flink-conf.yaml", flink+"parallelism.default: 1\n")
	write("hadoop/hdfs-site.xml", `<configuration>
  <property><name>dfs.replication</name><value>1</value></property>
  <!-- ckptlint:ignore CKPT101 - used by set "many" only -->
  <property><name>dfs.blocksize</name><value>128m</value></property>
  <!-- ckptlint:ignore CKPT105 - unused in both sets -->
  <property><name>dfs.client.socket-timeout</name><value>60000</value></property>
  <!-- ckptlint:ignore CKPT9O9 - reported once -->
</configuration>
`)
	write("broken/config.yaml", "execution:\n  checkpointing: [unclosed\n")
	write("hadoop-broken/hdfs-site.xml", `<configuration>
  <property><name>dfs.replication</name><value>3</value></property> <!-- ckptlint:ignore CKPT101 - not checked: the set is not evaluated -->
  <!-- ckptlint:ignore CKPT101 -->
</configuration>
`)
	res := lintIn(t, dir, false)
	var problems []string
	for _, f := range res.Findings {
		if f.RuleID == rule.UnusedIgnore || f.RuleID == rule.InvalidIgnore {
			problems = append(problems, fmt.Sprintf("%s:%d %s", f.Range.File, f.Range.Start.Line, f.RuleID))
		}
	}
	want := []string{
		"hadoop-broken/hdfs-site.xml:3 CKPT002",
		"hadoop/hdfs-site.xml:5 CKPT001",
		"hadoop/hdfs-site.xml:7 CKPT002",
	}
	if diff := cmp.Diff(want, problems); diff != "" {
		t.Errorf("ignore problems (-want +got):\n%s\nall findings:\n%s", diff, textOf(t, res.Findings))
	}
	if diff := cmp.Diff([]string{"hadoop/hdfs-site.xml:4 CKPT101"}, ids(res.Suppressed)); diff != "" {
		t.Errorf("suppressed (-want +got):\n%s", diff)
	}
	if res.Suppressed[0].ConfigSet != "many" {
		t.Errorf("suppressed finding of set %q, want many", res.Suppressed[0].ConfigSet)
	}
	if !slices.Contains(ids(res.Findings), "broken/config.yaml:2 CKPT000") {
		t.Errorf("no parse error for the broken set:\n%s", textOf(t, res.Findings))
	}
}
