package report_test

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/report"
)

// streamSARIF streams groups through the SARIF streamer, as `ckptlint
// lint` does, and renders the same findings whole with the reporter as it
// was before it streamed (report.SARIFWhole), from the result `ckptlint
// lint` assembled for it: the groups' findings and suppressed findings in
// the order they came, and their sources.
func streamSARIF(t *testing.T, head report.Result, groups []report.Group) (streamed, whole []byte) {
	t.Helper()
	st, err := report.NewStreamer("sarif", head, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := head
	r.Findings, r.Suppressed, r.Sources = nil, nil, map[string][]byte{}
	for _, g := range groups {
		if err := st.Group(g); err != nil {
			t.Fatal(err)
		}
		r.Findings = append(r.Findings, finding.Bounded(g.Findings)...)
		r.Suppressed = append(r.Suppressed, finding.Bounded(g.Suppressed)...)
		maps.Copy(r.Sources, g.Sources)
	}
	var s, w bytes.Buffer
	if err := st.Close(&s, head); err != nil {
		t.Fatal(err)
	}
	if err := report.SARIFWhole(&w, r); err != nil {
		t.Fatal(err)
	}
	return s.Bytes(), w.Bytes()
}

// splits are ways to cut r into groups: whole, as Groups cuts it, one
// result per group from the last to the first (every group a run of its
// own, which Close merges), and into three groups at random.
func splits(r report.Result, seed uint64) map[string][]report.Group {
	out := map[string][]report.Group{
		"one group": {{Findings: r.Findings, Suppressed: r.Suppressed, Sources: r.Sources}},
		"Groups":    r.Groups(),
	}
	var singles []report.Group
	for _, l := range []struct {
		fs  []finding.Finding
		sup bool
	}{{r.Findings, false}, {r.Suppressed, true}} {
		for _, f := range l.fs {
			g := report.Group{Set: f.ConfigSet, Findings: []finding.Finding{f}, Sources: r.Sources}
			if l.sup {
				g.Findings, g.Suppressed = nil, g.Findings
			}
			singles = append(singles, g)
		}
	}
	slices.SortStableFunc(singles, func(a, b report.Group) int { return -finding.Compare(only(a), only(b)) })
	out["one result per group, backwards"] = singles

	rnd := rand.New(rand.NewPCG(seed, 1))
	three := make([]report.Group, 3)
	for i := range three {
		three[i].Sources = r.Sources
	}
	for _, f := range r.Findings {
		g := &three[rnd.IntN(3)]
		g.Findings = append(g.Findings, f)
	}
	for _, f := range r.Suppressed {
		g := &three[rnd.IntN(3)]
		g.Suppressed = append(g.Suppressed, f)
	}
	for _, g := range three {
		slices.SortFunc(g.Findings, finding.Compare)
		slices.SortFunc(g.Suppressed, finding.Compare)
	}
	out["three groups at random"] = three
	return out
}

func only(g report.Group) finding.Finding {
	if len(g.Findings) > 0 {
		return g.Findings[0]
	}
	return g.Suppressed[0]
}

// headOf is r without what the groups bring.
func headOf(r report.Result) report.Result {
	r.Findings, r.Suppressed, r.Sources = nil, nil, nil
	return r
}

func checkStreamed(t *testing.T, name string, r report.Result) {
	t.Helper()
	for how, groups := range splits(r, uint64(len(name))) {
		s, w := streamSARIF(t, headOf(r), groups)
		if !bytes.Equal(s, w) {
			t.Errorf("%s, %s: streamed SARIF differs from the whole log at byte %d:\nstreamed: %.300q\nwhole:    %.300q",
				name, how, firstDiff(s, w), s[min(firstDiff(s, w), len(s)):], w[min(firstDiff(s, w), len(w)):])
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestSARIFStreamedIsWhole holds the streamed SARIF log to the bytes of
// the log rendered whole, however the findings come in groups: the
// stories, the synthetic and hostile results, and results made for what
// only the end of a stream knows (the order over groups, the index of a
// rule no group's rules list, a fingerprint two groups share).
func TestSARIFStreamedIsWhole(t *testing.T) {
	for _, name := range stories(t) {
		t.Run(name, func(t *testing.T) { checkStreamed(t, name, storyResult(t, name)) }) // each lints in its directory
	}
	checkStreamed(t, "synthetic", syntheticResult())
	checkStreamed(t, "hostile", hostileResult())
	checkStreamed(t, "across groups", acrossGroupsResult())
	checkStreamed(t, "many", manyResult(3000))
}

// acrossGroupsResult has what the end of a stream decides: an unlisted
// rule suppressed in an early group and found in a later one (its entry
// comes from the finding, listed where the findings first name it), a
// finding and a suppressed finding that tie, in two groups, and two
// findings in two groups whose fingerprints collide.
func acrossGroupsResult() report.Result {
	const a, b = "a/flink-conf.yaml", "b/flink-conf.yaml"
	at := func(file string, line int) finding.Range {
		return finding.Range{File: file, Span: parsed.Span{Start: pos(line, 3, 0), End: pos(line, 9, 0)}}
	}
	sup := &finding.Suppression{Kind: "inline", Reason: "known", File: a, Line: 1}
	fs := []finding.Finding{
		{RuleID: "USER2", Severity: finding.Warning, Message: "user two", Range: at(a, 2), ConfigSet: "a", DocURL: "https://example.com/2"},
		{RuleID: "USER1", Severity: finding.Error, Message: "user one, found", Range: at(b, 1), ConfigSet: "b", DocURL: "https://example.com/found"},
		{RuleID: "CKPT205", Severity: finding.Warning, Message: "tie", Range: at(a, 3), ConfigSet: "a"},
		{RuleID: "CKPT205", Severity: finding.Warning, Message: "same key, first", Key: "k", Range: at(b, 4), ConfigSet: "b"},
		{RuleID: "CKPT205", Severity: finding.Warning, Message: "same key, second", Key: "k", Range: at(b, 5), ConfigSet: "b"},
	}
	sups := []finding.Finding{
		{RuleID: "USER1", Severity: finding.Error, Message: "user one, suppressed", Range: at(a, 1), ConfigSet: "a",
			DocURL: "https://example.com/suppressed", Suppression: sup},
		{RuleID: "CKPT205", Severity: finding.Warning, Message: "tie", Range: at(a, 3), ConfigSet: "a", Suppression: sup},
	}
	return report.Result{Version: "test", Findings: fs, Suppressed: sups, ConfigSets: []string{"a", "b"},
		Sources: map[string][]byte{a: []byte("# ü\nké: välüe\nkey: ö\n"), b: []byte("x\n")},
		Rules:   syntheticResult().Rules, RepoDir: "sub"}
}

// manyResult is n findings over n/10 files with multi-byte lines, long
// enough that the streamer's spool goes to a temporary file.
func manyResult(n int) report.Result {
	r := report.Result{Version: "test", Sources: map[string][]byte{}, Rules: syntheticResult().Rules}
	detail := strings.Repeat("a détail, ", 100)
	for i := range n {
		file := fmt.Sprintf("set%03d/flink-conf.yaml", i/10)
		r.Sources[file] = []byte(strings.Repeat("ké: välüe\n", 12))
		f := finding.Finding{RuleID: []string{"CKPT205", "CKPT201", "USER9"}[i%3], Severity: finding.Warning,
			Message: fmt.Sprintf("finding %d", i), Detail: detail, ConfigSet: fmt.Sprintf("set%03d", i/10),
			Range: finding.Range{File: file, Span: parsed.Span{Start: pos(1+i%10, 2, 0), End: pos(1+i%10, 8, 0)}}}
		if i%7 == 0 {
			f.Suppression = &finding.Suppression{Kind: "inline", Reason: "r", File: file, Line: 1}
			r.Suppressed = append(r.Suppressed, f)
			continue
		}
		r.Findings = append(r.Findings, f)
	}
	return r
}

// TestSARIFIsWhole: the reporter, one group of the whole result, writes
// the whole log's bytes.
func TestSARIFIsWhole(t *testing.T) {
	for name, r := range map[string]report.Result{"synthetic": syntheticResult(), "hostile": hostileResult(),
		"across groups": acrossGroupsResult()} {
		var s, w bytes.Buffer
		if err := report.SARIF(&s, r); err != nil {
			t.Fatal(err)
		}
		if err := report.SARIFWhole(&w, r); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(s.Bytes(), w.Bytes()) {
			t.Errorf("%s: SARIF differs from the whole log at byte %d", name, firstDiff(s.Bytes(), w.Bytes()))
		}
	}
}

// TestSARIFStreamTieAcrossRuns: two results that sort alike in two runs
// of the stream (a group sorting before the group between them starts a
// run) come in the order of their groups, as the whole log's stable sort
// has them.
func TestSARIFStreamTieAcrossRuns(t *testing.T) {
	const file = "z/flink-conf.yaml"
	twin := func(sev finding.Severity) finding.Finding {
		return finding.Finding{RuleID: "CKPT205", Severity: sev, Message: "twin", ConfigSet: "z",
			Range: finding.Range{File: file, Span: parsed.Span{Start: pos(1, 1, 0), End: pos(1, 4, 0)}}}
	}
	early := twin(finding.Info)
	early.Range.File = "a/flink-conf.yaml"
	head := report.Result{Version: "test", Rules: syntheticResult().Rules}
	for _, order := range [][]finding.Severity{{finding.Error, finding.Warning}, {finding.Warning, finding.Error}} {
		groups := []report.Group{
			{Set: "z", Findings: []finding.Finding{twin(order[0])}},
			{Set: "a", Findings: []finding.Finding{early}},
			{Set: "z", Findings: []finding.Finding{twin(order[1])}},
		}
		s, w := streamSARIF(t, head, groups)
		if !bytes.Equal(s, w) {
			t.Errorf("%v: streamed SARIF differs from the whole log at byte %d", order, firstDiff(s, w))
		}
	}
}

// BenchmarkSARIF renders 10,000 results, streamed in groups of ten (as
// `ckptlint lint` hands them on) and whole as before (report.SARIFWhole).
func BenchmarkSARIF(b *testing.B) {
	r := manyResult(10000)
	groups := r.Groups()
	b.Run("streamed", func(b *testing.B) {
		for b.Loop() {
			st, _ := report.NewStreamer("sarif", headOf(r), report.Options{})
			for _, g := range groups {
				if err := st.Group(g); err != nil {
					b.Fatal(err)
				}
			}
			if err := st.Close(io.Discard, r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
			w := r // bounded, as report.Get bounds it
			w.Findings, w.Suppressed = finding.Bounded(r.Findings), finding.Bounded(r.Suppressed)
			if err := report.SARIFWhole(io.Discard, w); err != nil {
				b.Fatal(err)
			}
		}
	})
}
