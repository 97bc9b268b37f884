package suppress

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/parsed"
)

var testRules = []Rule{
	{ID: "CKPT000", Name: "parse-error", NotIgnorable: "Flink or Hadoop cannot read the file"},
	{ID: "CKPT101", Name: "blocksize-scheduled-space"},
	{ID: "CKPT201", Name: "checkpoint-timeout-below-write-stall"},
	{ID: "CKPT205", Name: "zero-tolerable-checkpoint-failures"},
	{ID: "CKPT301", Name: "directoryscan-lock-stall"},
}

// at is a finding of rule id at line:1 of file, one byte wide; line 0 is a
// finding without a line (a default value, reported at 1:1 with an empty
// span).
func at(file string, line int, id string) finding.Finding {
	f := finding.Finding{RuleID: id, Severity: finding.Error, Message: "m", Range: finding.Range{File: file}}
	if line == 0 {
		f.Range.Start = parsed.Pos{Line: 1, Col: 1}
		f.Range.End = f.Range.Start
	} else {
		f.Range.Start = parsed.Pos{Line: line, Col: 1, Offset: 100 * line}
		f.Range.End = parsed.Pos{Line: line, Col: 2, Offset: 100*line + 1}
	}
	return f
}

// short renders findings as file:line id, with the suppression when set.
func short(fs []finding.Finding) []string {
	var out []string
	for _, f := range fs {
		s := fmt.Sprintf("%s:%d %s", f.Range.File, f.Range.Start.Line, f.RuleID)
		if sp := f.Suppression; sp != nil {
			s += fmt.Sprintf(" by %s@%s:%d %q", sp.Kind, sp.File, sp.Line, sp.Reason)
		}
		out = append(out, s)
	}
	return out
}

func problems(fs []finding.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s:%d %s %s: %s | %s", f.Range.File, f.Range.Start.Line, f.RuleID, f.Severity, f.Message, f.Detail))
	}
	return out
}

func TestApply(t *testing.T) {
	const conf = "# ckptlint:ignore-file CKPT205 -- tolerable failures are set by the deploy script\n" + // 1
		"a: 1\n" + // 2
		"t: 10 s # ckptlint:ignore CKPT201 -- the stall was measured before the upgrade\n" + // 3
		"u: 2\n" + // 4
		"# ckptlint:ignore ckpt101,directoryscan-lock-stall -- both known\n" + // 5
		"v: 3\n" + // 6
		"w: 4 # ckptlint:ignore CKPT999,CKPT2O1,CKPT000,CKPT001,blocksize-scheduled-spac -- typos\n" // 7
	const xml = "<configuration>\n" + // 1
		"  <!-- ckptlint:ignore CKPT101 - one block per file is fine here -->\n" + // 2
		"  <property>\n" + // 3
		"    <name>dfs.blocksize</name>\n" + // 4
		"    <value>1m</value>\n" + // 5
		"  </property>\n" + // 6
		"</configuration>\n" // 7
	files := []*File{
		parseText("flink-conf.yaml", conf, FlinkConf),
		parseText("hdfs-site.xml", xml, XML),
	}
	fs := []finding.Finding{
		at("flink-conf.yaml", 3, "CKPT201"), // silenced on its line
		at("flink-conf.yaml", 3, "CKPT301"), // another rule on the same line: kept
		at("flink-conf.yaml", 4, "CKPT201"), // the same rule on another line: kept
		at("flink-conf.yaml", 0, "CKPT205"), // a default: the file-level ignore
		at("flink-conf.yaml", 6, "CKPT205"), // file-level covers every line
		at("flink-conf.yaml", 6, "CKPT101"), // by id in lower case
		at("flink-conf.yaml", 0, "CKPT201"), // a default is not matched by inline ignores
		at("flink-conf.yaml", 1, "CKPT000"), // never silenced
		at("hdfs-site.xml", 4, "CKPT101"),   // inside the <property> below the ignore
		at("other.yaml", 3, "CKPT201"),      // another file
	}
	out := Apply(fs, files, Options{Rules: testRules})
	wantKept := []string{
		"flink-conf.yaml:3 CKPT301",
		"flink-conf.yaml:4 CKPT201",
		"flink-conf.yaml:1 CKPT201",
		"flink-conf.yaml:1 CKPT000",
		"other.yaml:3 CKPT201",
	}
	if diff := cmp.Diff(wantKept, short(out.Findings)); diff != "" {
		t.Errorf("kept (-want +got):\n%s", diff)
	}
	wantSuppressed := []string{
		`flink-conf.yaml:3 CKPT201 by inline@flink-conf.yaml:3 "the stall was measured before the upgrade"`,
		`flink-conf.yaml:1 CKPT205 by file@flink-conf.yaml:1 "tolerable failures are set by the deploy script"`,
		`flink-conf.yaml:6 CKPT205 by file@flink-conf.yaml:1 "tolerable failures are set by the deploy script"`,
		`flink-conf.yaml:6 CKPT101 by inline@flink-conf.yaml:5 "both known"`,
		`hdfs-site.xml:4 CKPT101 by inline@hdfs-site.xml:2 "one block per file is fine here"`,
	}
	if diff := cmp.Diff(wantSuppressed, short(out.Suppressed)); diff != "" {
		t.Errorf("suppressed (-want +got):\n%s", diff)
	}
	wantProblems := []string{
		`flink-conf.yaml:7 CKPT002 warning: This ckptlint:ignore names "CKPT999", which is no rule, so it silences nothing for it. | ckptlint:ignore names "CKPT999", which is no rule's id or name, so it silences nothing for it (ckptlint rules lists the rules)`,
		`flink-conf.yaml:7 CKPT002 warning: This ckptlint:ignore names "CKPT2O1", which is no rule, so it silences nothing for it. | ckptlint:ignore names "CKPT2O1", which is no rule's id or name, so it silences nothing for it; did you mean "CKPT201"? (ckptlint rules lists the rules)`,
		`flink-conf.yaml:7 CKPT002 warning: This ckptlint:ignore names CKPT000, which no ignore can silence. | ckptlint:ignore names CKPT000, which cannot be ignored: Flink or Hadoop cannot read the file`,
		`flink-conf.yaml:7 CKPT002 warning: This ckptlint:ignore names CKPT001, which no ignore can silence. | ckptlint:ignore names CKPT001, which cannot be ignored: it reports the ignores themselves; remove the ignore, or turn the rule off with a rule block in .ckptlint.hcl`,
		`flink-conf.yaml:7 CKPT002 warning: This ckptlint:ignore names "blocksize-scheduled-spac", which is no rule, so it silences nothing for it. | ckptlint:ignore names "blocksize-scheduled-spac", which is no rule's id or name, so it silences nothing for it; did you mean "blocksize-scheduled-space"? (ckptlint rules lists the rules)`,
		`flink-conf.yaml:5 CKPT001 warning: This ckptlint:ignore of directoryscan-lock-stall (CKPT301) matches no finding on line 6, so it silences nothing. | ckptlint:ignore directoryscan-lock-stall (CKPT301) matched no finding on line 6: remove directoryscan-lock-stall from it, or put it at the end of the finding's line or alone on the line above`,
	}
	if diff := cmp.Diff(wantProblems, problems(out.Problems)); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	for _, p := range out.Problems {
		if !strings.HasPrefix(p.DocURL, DocURL+"#ckpt00") {
			t.Errorf("doc url %q", p.DocURL)
		}
	}
}

func TestApplyUnused(t *testing.T) {
	const conf = "# ckptlint:ignore-file CKPT205 -- r1\n" + // 1
		"# ckptlint:ignore CKPT101 -- r2\n" + // 2
		"\n" + // 3
		"a: 1 # ckptlint:ignore CKPT201 -- r3\n" + // 4
		"b: 1 # ckptlint:ignore CKPT301 -- r4\n" // 5
	const xml = "<configuration>\n<!-- ckptlint:ignore CKPT101 - r -->\n<property>\n<name>a</name>\n</property>\n</configuration>\n"
	tests := []struct {
		name string
		fs   []finding.Finding
		opts Options
		want []string
	}{
		{
			name: "every ignore unused",
			want: []string{
				"c.yaml:1 CKPT001 warning: This ckptlint:ignore-file of CKPT205 matches no finding in this file, so it silences nothing. | ckptlint:ignore-file CKPT205 matched no finding in this file: remove it",
				"c.yaml:2 CKPT001 warning: This ckptlint:ignore of CKPT101 matches no finding on line 3, so it silences nothing. | ckptlint:ignore CKPT101 matched no finding on line 3: remove it, or put it at the end of the finding's line or alone on the line above",
				"c.yaml:4 CKPT001 warning: This ckptlint:ignore of CKPT201 matches no finding on line 4, so it silences nothing. | ckptlint:ignore CKPT201 matched no finding on line 4: remove it, or put it at the end of the finding's line or alone on the line above",
				"c.yaml:5 CKPT001 warning: This ckptlint:ignore of CKPT301 matches no finding on line 5, so it silences nothing. | ckptlint:ignore CKPT301 matched no finding on line 5: remove it, or put it at the end of the finding's line or alone on the line above",
				"h.xml:2 CKPT001 warning: This ckptlint:ignore of CKPT101 matches no finding on lines 3-5, so it silences nothing. | ckptlint:ignore CKPT101 matched no finding on lines 3-5: remove it, or put it at the end of the finding's line or alone on the line above",
			},
		},
		{
			name: "an ignore above a blank line does not reach the line below it",
			fs:   []finding.Finding{at("c.yaml", 4, "CKPT101"), at("c.yaml", 4, "CKPT201"), at("c.yaml", 5, "CKPT301"), at("c.yaml", 2, "CKPT205"), at("h.xml", 5, "CKPT101")},
			want: []string{
				"c.yaml:2 CKPT001 warning: This ckptlint:ignore of CKPT101 matches no finding on line 3, so it silences nothing. | ckptlint:ignore CKPT101 matched no finding on line 3: remove it, or put it at the end of the finding's line or alone on the line above",
			},
		},
		{
			name: "a rule turned off in .ckptlint.hcl is dormant, not unused",
			opts: Options{Dormant: func(id string) bool { return id != "CKPT101" }},
			want: []string{
				"c.yaml:2 CKPT001 warning: This ckptlint:ignore of CKPT101 matches no finding on line 3, so it silences nothing. | ckptlint:ignore CKPT101 matched no finding on line 3: remove it, or put it at the end of the finding's line or alone on the line above",
				"h.xml:2 CKPT001 warning: This ckptlint:ignore of CKPT101 matches no finding on lines 3-5, so it silences nothing. | ckptlint:ignore CKPT101 matched no finding on lines 3-5: remove it, or put it at the end of the finding's line or alone on the line above",
			},
		},
		{
			name: "files whose set was not evaluated are not checked for use",
			opts: Options{Unchecked: func(p string) bool { return p == "c.yaml" }},
			want: []string{
				"h.xml:2 CKPT001 warning: This ckptlint:ignore of CKPT101 matches no finding on lines 3-5, so it silences nothing. | ckptlint:ignore CKPT101 matched no finding on lines 3-5: remove it, or put it at the end of the finding's line or alone on the line above",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := []*File{parseText("c.yaml", conf, YAML), parseText("h.xml", xml, XML)}
			tt.opts.Rules = testRules
			out := Apply(tt.fs, files, tt.opts)
			if diff := cmp.Diff(tt.want, problems(out.Problems)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// TestApplyBothKinds: a finding matched by an inline and a file-level
// ignore carries the inline one, and neither is reported unused.
func TestApplyBothKinds(t *testing.T) {
	src := "# ckptlint:ignore-file CKPT101 -- file\na: 1 # ckptlint:ignore CKPT101 -- line\n"
	out := Apply([]finding.Finding{at("c.yaml", 2, "CKPT101")}, []*File{parseText("c.yaml", src, YAML)}, Options{Rules: testRules})
	if diff := cmp.Diff([]string{`c.yaml:2 CKPT101 by inline@c.yaml:2 "line"`}, short(out.Suppressed)); diff != "" {
		t.Errorf("suppressed (-want +got):\n%s", diff)
	}
	if len(out.Problems) != 0 || len(out.Findings) != 0 {
		t.Errorf("findings %v, problems %v", short(out.Findings), problems(out.Problems))
	}
}

// TestApplyInvalidSilencesNothing: an ignore without a reason is reported
// and its finding stays.
func TestApplyInvalidSilencesNothing(t *testing.T) {
	src := "a: 1 # ckptlint:ignore CKPT101\n"
	out := Apply([]finding.Finding{at("c.yaml", 1, "CKPT101")}, []*File{parseText("c.yaml", src, YAML)}, Options{Rules: testRules})
	if diff := cmp.Diff([]string{"c.yaml:1 CKPT101"}, short(out.Findings)); diff != "" {
		t.Errorf("kept (-want +got):\n%s", diff)
	}
	want := []string{"c.yaml:1 CKPT002 warning: This ckptlint:ignore has no reason, so it silences nothing. | ckptlint:ignore has no reason, so it silences nothing: write # ckptlint:ignore CKPT101 -- reason"}
	if diff := cmp.Diff(want, problems(out.Problems)); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}
