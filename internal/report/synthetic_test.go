package report_test

import (
	"bytes"
	"encoding/xml"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/report"
	"github.com/ckptlint/ckptlint/internal/rule"
)

const (
	synthFlink = "# flink-conf.yaml for the team\n" +
		"state.backend: filesystem\n" +
		"key: välüe\n" +
		"execution.checkpointing.timeout: 10 s\n"
	synthHDFS = "<configuration>\n" +
		"  <property>\n" +
		"    <name>dfs.replication</name>\n" +
		"    <value>1</value>\n" +
		"  </property>\n" +
		"</configuration>\n"
)

func pos(line, col, off int) parsed.Pos { return parsed.Pos{Line: line, Col: col, Offset: off} }

func docURL(id string) string {
	return "https://github.com/ckptlint/ckptlint/blob/main/docs/rules/" + id + ".md"
}

// syntheticResult exercises what the stories do not: a suppressed
// finding, two config sets, multi-byte columns, characters every format
// must escape, a long message, a user rule missing from Rules, a disabled
// rule, a repository subdirectory and --fail-level warning.
func syntheticResult() report.Result {
	const flink, hdfs = "conf/flink-conf.yaml", "hadoop/hdfs-site.xml"
	long := "execution.checkpointing.timeout 10 s (conf/flink-conf.yaml:4) is not longer than the 38 s HDFS write stall " +
		"declared for cluster \"shared\" (write_stall in .ckptlint.hcl): every checkpoint that overlaps a stall " +
		"expires and the job fails with \"Checkpoint expired before completing\". Set it to 2 min"
	fs := []finding.Finding{
		{RuleID: "CKPT506", RuleName: "state-backend-deprecated-alias", Severity: finding.Info,
			Message: "state.backend: filesystem is a deprecated alias; set state.backend: hashmap",
			Range:   finding.Range{File: flink, Span: parsed.Span{Start: pos(2, 1, 31), End: pos(2, 26, 56)}},
			DocURL:  docURL("CKPT506"), ConfigSet: "jobs",
			Fix: []finding.Op{{Op: "set", Target: "flink", Key: "state.backend", Value: "hashmap"}}},
		{RuleID: "CKPT205", RuleName: "no-tolerable-failures", Severity: finding.Warning,
			Message: "50% of \"välüe\": a, b\nsecond line | pipe <b>bold</b> *star* _u_ `tick` [x]",
			Range:   finding.Range{File: flink, Span: parsed.Span{Start: pos(3, 6, 62), End: pos(3, 13, 69)}},
			DocURL:  docURL("CKPT205"), ConfigSet: "jobs",
			Fix: []finding.Op{{Op: "set", Target: "flink", Key: "execution.checkpointing.tolerable-failed-checkpoints", Value: "3"}}},
		{RuleID: "CKPT201", RuleName: "checkpoint-timeout-below-write-stall", Severity: finding.Error,
			Message: "execution.checkpointing.timeout 10 s is not longer than the 38 s HDFS write stall: checkpoints that meet it expire.",
			Detail:  long + "\n::error::not a command | pipe <b>x</b> \x1b[31mred",
			Range:   finding.Range{File: flink, Span: parsed.Span{Start: pos(4, 1, 70), End: pos(4, 38, 107)}},
			DocURL:  docURL("CKPT201"), ConfigSet: "jobs",
			Fix: []finding.Op{{Op: "set", Target: "flink", Key: "execution.checkpointing.timeout", Value: "2 min"},
				{Op: "rename", Target: "hdfs-client", Key: "dfs.old", NewKey: "dfs.new"}}},
		{RuleID: "ACME001", RuleName: "replication-one", Severity: finding.Warning,
			// A user policy's message is one string, taken whole as the headline.
			Message: "dfs.replication 1 loses checkpoints with a single DataNode: " + long,
			Range:   finding.Range{File: hdfs, Span: parsed.Span{Start: pos(3, 5, 32), End: pos(4, 21, 86)}},
			DocURL:  "https://wiki.example.com/acme001"},
	}
	sup := []finding.Finding{
		{RuleID: "CKPT101", RuleName: "blocksize-scheduled-space", Severity: finding.Error,
			Message: "dfs.blocksize 128 MiB lets each DataNode schedule only 344 blocks",
			Range:   finding.Range{File: flink, Span: parsed.Span{Start: pos(4, 1, 70), End: pos(4, 38, 107)}},
			DocURL:  docURL("CKPT101"), ConfigSet: "batch",
			Suppression: &finding.Suppression{Kind: "inline", Reason: "reviewed: the cluster has 20 DataNodes",
				File: flink, Line: 3}},
	}
	rules := []*report.Rule{
		rule.ByID("CKPT000"),
		{ID: "CKPT101", Name: "blocksize-scheduled-space", Severity: finding.Error, Fixable: true, Family: "blocksize",
			Title: "DataNodes cannot schedule the concurrent checkpoint files at this block size",
			Description: "The NameNode reserves a whole block\non a DataNode for every block scheduled there.\n\n" +
				"Second paragraph."},
		{ID: "CKPT201", Name: "checkpoint-timeout-below-write-stall", Severity: finding.Error, Fixable: true, Family: "timing",
			Title: "The checkpoint timeout is not longer than an HDFS write stall"},
		{ID: "CKPT205", Name: "no-tolerable-failures", Severity: finding.Warning, Fixable: true, Family: "timing",
			Title: "One failed checkpoint fails the job"},
		{ID: "CKPT506", Name: "state-backend-deprecated-alias", Severity: finding.Info, Fixable: true, Family: "storage",
			Title: "state.backend uses a deprecated alias"},
		{ID: "CKPT607", Name: "disabled-rule", Severity: finding.Warning, Family: "hygiene", Title: "A disabled rule"},
	}
	fs[0].Edits = []finding.Replacement{{File: flink, Span: parsed.Span{Start: pos(2, 16, 46), End: pos(2, 26, 56)}, Text: "hashmap"}}
	fs[1].Edits = []finding.Replacement{{File: flink, Span: parsed.Span{Start: pos(5, 1, 108), End: pos(5, 1, 108)},
		Text: "execution.checkpointing.tolerable-failed-checkpoints: 3\n"}}
	// fs[2]: a fix with a Hadoop operation: operations only
	return report.Result{Version: "test", Findings: fs, Suppressed: sup, Sets: 2, ConfigSets: []string{"jobs", "batch"},
		Files: 2, Sources: map[string][]byte{flink: []byte(synthFlink), hdfs: []byte(synthHDFS)}, Rules: rules,
		Disabled:  map[string]bool{"CKPT607": true},
		FailLevel: finding.Warning, RepoDir: "deploy"}
}

// TestGoldenSynthetic renders the synthetic result in every format.
func TestGoldenSynthetic(t *testing.T) {
	td, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	r := syntheticResult()
	for _, format := range goldenFormats {
		t.Run(format, func(t *testing.T) {
			golden(t, filepath.Join(td, format, "synthetic.golden"), render(t, format, r))
		})
	}
}

// TestGitHubEscaping checks the workflow command of a finding whose path,
// title and message hold every character the runner treats specially: the
// file property keeps the name exactly, escaped as the runner unescapes it
// (actions/toolkit command.ts escapeProperty), and the message, text
// people read, shows a line break of a value as \r\n before the data is
// escaped (escapeData), so only ckptlint's own line breaks are %0A.
func TestGitHubEscaping(t *testing.T) {
	r := report.Result{Findings: []finding.Finding{{
		RuleID: "X001", RuleName: "a,b:c", Severity: finding.Info,
		Message: "100% sure:\r\nnext, line",
		Range:   finding.Range{File: "dir,1/a:b%\r\n.yaml", Span: parsed.Span{Start: pos(2, 3, 0), End: pos(2, 5, 0)}},
		DocURL:  "https://example.com/x",
	}}}
	got := render(t, "github", r)
	want := "::notice file=dir%2C1/a%3Ab%25%0D%0A.yaml,line=2,col=3,endLine=2,endColumn=5,title=X001 a%2Cb%3Ac::100%25 sure:\\r\\nnext, line%0Ahttps://example.com/x\n"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// One line per finding, commands by severity, no suppressed finding.
	lines := strings.Split(strings.TrimSuffix(render(t, "github", syntheticResult()), "\n"), "\n")
	wantPrefixes := []string{"::notice file=deploy/conf/flink-conf.yaml,line=2,", "::warning file=deploy/conf/flink-conf.yaml,line=3,col=6,endLine=3,endColumn=11,",
		"::error file=deploy/conf/flink-conf.yaml,line=4,", "::warning file=deploy/hadoop/hdfs-site.xml,line=3,col=5,endLine=4,endColumn=21,"}
	if len(lines) != len(wantPrefixes) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(wantPrefixes), strings.Join(lines, "\n"))
	}
	for i, p := range wantPrefixes {
		if !strings.HasPrefix(lines[i], p) {
			t.Errorf("line %d = %q, want prefix %q", i, lines[i], p)
		}
	}
}

type junitDoc struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Skipped  int `xml:"skipped,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Cases    []struct {
			Name      string `xml:"name,attr"`
			ClassName string `xml:"classname,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			Skipped   *struct{} `xml:"skipped"`
			SystemOut string    `xml:"system-out"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// TestJUnitStructure parses the JUnit XML back: one suite per config set
// (plus the last, "(ignore comments)", which holds the findings of no set),
// one case per set × rule (a user rule missing from Rules included), the
// last suite a case per rule it has findings of; failures at or above the fail level,
// lower findings and suppressed ones in system-out, disabled rules
// skipped.
func TestJUnitStructure(t *testing.T) {
	r := syntheticResult()
	var d junitDoc
	if err := xml.Unmarshal([]byte(render(t, "junit", r)), &d); err != nil {
		t.Fatalf("JUnit output is not XML: %v", err)
	}
	nrules := len(r.Rules) + 1 // ACME001
	if len(d.Suites) != 3 || d.Suites[0].Name != "jobs" || d.Suites[1].Name != "batch" || d.Suites[2].Name != "(ignore comments)" {
		t.Fatalf("suites %+v", d.Suites)
	}
	if d.Tests != 2*nrules+1 || d.Skipped != 2 {
		t.Errorf("tests %d skipped %d, want %d and 2", d.Tests, d.Skipped, 2*nrules+1)
	}
	type outcome struct {
		failure, skipped bool
		out              string
	}
	got := map[string]outcome{}
	for i, s := range d.Suites {
		want := nrules
		if i == 2 {
			want = 1 // ACME001's finding of no set
		}
		if len(s.Cases) != want || s.Tests != want {
			t.Errorf("suite %s: %d cases, want %d", s.Name, len(s.Cases), want)
		}
		for _, c := range s.Cases {
			got[s.Name+"/"+c.Name] = outcome{c.Failure != nil, c.Skipped != nil, c.SystemOut}
			if c.ClassName != s.Name {
				t.Errorf("case %s: classname %q", c.Name, c.ClassName)
			}
		}
	}
	for name, want := range map[string]outcome{
		"jobs/CKPT201 checkpoint-timeout-below-write-stall": {failure: true},
		"jobs/CKPT205 no-tolerable-failures":                {failure: true},
		"jobs/CKPT506 state-backend-deprecated-alias":       {out: "conf/flink-conf.yaml:2:1: info: "},
		"jobs/CKPT101 blocksize-scheduled-space":            {},
		"batch/CKPT101 blocksize-scheduled-space":           {out: "suppressed (reviewed: the cluster has 20 DataNodes): conf/flink-conf.yaml:4:1"},
		"batch/CKPT607 disabled-rule":                       {skipped: true},
		"(ignore comments)/ACME001 replication-one":         {failure: true},
	} {
		g, ok := got[name]
		if !ok {
			t.Errorf("no test case %s", name)
			continue
		}
		if g.failure != want.failure || g.skipped != want.skipped || !strings.HasPrefix(g.out, want.out) || (want.out == "" && g.out != "") {
			t.Errorf("%s: %+v, want %+v", name, g, want)
		}
	}
	if d.Failures != 3 {
		t.Errorf("%d failures, want 3", d.Failures)
	}
	// At the default fail level only errors fail.
	r.FailLevel = 0
	if err := xml.Unmarshal([]byte(render(t, "junit", r)), &d); err != nil {
		t.Fatal(err)
	}
	if d.Failures != 1 {
		t.Errorf("fail level error: %d failures, want 1", d.Failures)
	}
}

// TestMarkdown checks escaping, shortening and the empty report.
func TestMarkdown(t *testing.T) {
	md := render(t, "markdown", syntheticResult())
	for _, want := range []string{
		"| 1 | 2 | 1 | 1 |",
		`50% of "välüe": a, b second line \| pipe \<b\>bold\</b\> \*star\* \_u\_ \` + "`tick\\` \\[x\\]",
		"| `conf/flink-conf.yaml:4` | error | [CKPT201](" + docURL("CKPT201") + ") checkpoint-timeout-below-write-stall, fixable |",
		"…",
		"- [ACME001 replication-one](https://wiki.example.com/acme001)",
		"reviewed: the cluster has 20 DataNodes",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "| `hadoop/hdfs-site.xml:3`") && len([]rune(line)) > 400 {
			t.Errorf("long message not shortened: %s", line)
		}
	}
	empty := render(t, "markdown", report.Result{Sets: 1, Files: 3})
	if !strings.Contains(empty, "No findings in 1 config set, 3 files.") || strings.Contains(empty, "| File |") {
		t.Errorf("empty report:\n%s", empty)
	}
}

// TestTextSnippet checks the terminal form: colours, the source line and
// a caret under the span counted in runes.
func TestTextSnippet(t *testing.T) {
	r := syntheticResult()
	var b bytes.Buffer
	if err := report.Text(&b, r, report.Options{Snippet: true}); err != nil {
		t.Fatal(err)
	}
	want := "conf/flink-conf.yaml:3:6: warning: 50% of \"välüe\": a, b\\nsecond line | pipe <b>bold</b> *star* _u_ `tick` [x] [CKPT205 no-tolerable-failures, fixable]\n" +
		"     3 | key: välüe\n" +
		"       |      ^^^^^\n"
	if !strings.Contains(b.String(), want) {
		t.Errorf("snippet missing:\n%s\nwant:\n%s", b.String(), want)
	}
	if !strings.Contains(b.String(), "[ACME001 replication-one]\n     3 |     <name>dfs.replication</name>\n       |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n") {
		t.Errorf("a span over two lines is not underlined to the end of its first line:\n%s", b.String())
	}
	b.Reset()
	if err := report.Text(&b, r, report.Options{Color: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "\x1b[31merror\x1b[0m") || !strings.Contains(b.String(), "[CKPT506 state-backend-deprecated-alias, fixable]") {
		t.Errorf("coloured text:\n%q", b.String())
	}
	if strings.Contains(b.String(), "CKPT101") {
		t.Error("a suppressed finding is printed")
	}
}

// TestJUnitInvalidCharacters checks that characters XML cannot hold do not
// break the report.
func TestJUnitInvalidCharacters(t *testing.T) {
	r := report.Result{ConfigSets: []string{"s"}, Findings: []finding.Finding{{
		RuleID: "X001", RuleName: "x", Severity: finding.Error, ConfigSet: "s",
		Message: "a\x01b & <c> \"d\" ]]> \uFFFF",
		Range:   finding.Range{File: "f.yaml", Span: parsed.Span{Start: pos(1, 1, 0)}},
	}}}
	var d junitDoc
	out := render(t, "junit", r)
	if err := xml.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("not XML: %v\n%s", err, out)
	}
	c := d.Suites[0].Cases[0]
	if c.Failure == nil || !strings.Contains(c.Failure.Text, "a\uFFFDb & <c> \"d\" ]]> \uFFFD") {
		t.Errorf("failure %+v", c.Failure)
	}
}

// TestJUnitIgnoreSuite checks where the rules of the ignore comments go:
// a set's suite has no case for CKPT001 or CKPT002, and the last suite,
// "(ignore comments)", has one for each, failing on an unused ignore
// whatever set the file belongs to (the problem is known only after every
// set, docs/output.md). CKPT005, whose files no set holds, goes there too.
func TestJUnitIgnoreSuite(t *testing.T) {
	unused := finding.Finding{RuleID: rule.UnusedIgnore, RuleName: rule.UnusedIgnoreName, Severity: finding.Warning,
		Message: "This ckptlint:ignore of CKPT101 matches no finding on line 1, so it silences nothing.",
		Detail:  "ckptlint:ignore CKPT101 matched no finding on line 1: remove it", ConfigSet: "jobs",
		Range: finding.Range{File: "conf/flink-conf.yaml", Span: parsed.Span{Start: pos(1, 1, 0), End: pos(1, 5, 4)}}}
	r := report.Result{Rules: rule.Builtins(), ConfigSets: []string{"jobs"}, Findings: []finding.Finding{unused},
		FailLevel: finding.Warning}
	var d junitDoc
	if err := xml.Unmarshal([]byte(render(t, "junit", r)), &d); err != nil {
		t.Fatalf("JUnit output is not XML: %v", err)
	}
	if len(d.Suites) != 2 || d.Suites[0].Name != "jobs" || d.Suites[1].Name != "(ignore comments)" {
		t.Fatalf("suites %+v", d.Suites)
	}
	for _, c := range d.Suites[0].Cases {
		if strings.HasPrefix(c.Name, rule.UnusedIgnore) || strings.HasPrefix(c.Name, rule.InvalidIgnore) || strings.HasPrefix(c.Name, rule.FixLeftover) {
			t.Errorf("set suite has case %s", c.Name)
		}
	}
	var names []string
	for _, c := range d.Suites[1].Cases {
		names = append(names, c.Name)
		if c.Name == rule.UnusedIgnore+" "+rule.UnusedIgnoreName && c.Failure == nil {
			t.Errorf("%s does not fail", c.Name)
		}
	}
	if want := []string{rule.UnusedIgnore + " " + rule.UnusedIgnoreName, rule.InvalidIgnore + " " + rule.InvalidIgnoreName,
		rule.FixLeftover + " " + rule.FixLeftoverName}; !slices.Equal(names, want) {
		t.Errorf("last suite cases %q, want %q", names, want)
	}
	if d.Failures != 1 || d.Suites[0].Failures != 0 {
		t.Errorf("failures %d (set suite %d), want 1 (0)", d.Failures, d.Suites[0].Failures)
	}
	// No config set and nothing to report: no suite at all.
	empty := render(t, "junit", report.Result{Rules: rule.Builtins()})
	if strings.Contains(empty, "<testsuite ") {
		t.Errorf("empty run has a suite:\n%s", empty)
	}
}
