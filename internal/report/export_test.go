package report

import (
	"io"
	"slices"

	"github.com/ckptlint/ckptlint/internal/finding"
)

// SARIFWhole is the SARIF reporter as it was before it streamed: the whole
// log built from the whole result, sorted at once and encoded at once
// (encodeJSON). TestSARIFStreamedIsWhole holds the streamer to its bytes.
var SARIFWhole = sarifWhole

func sarifWhole(w io.Writer, r Result) error {
	rules, idx := r.rules()
	cols := newColumns(r.Sources)
	log := sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{{
		Tool: sarifTool{Driver: sarifDriver{Name: toolName, Version: r.Version, InformationURI: toolInfoURI,
			Rules: make([]sarifRule, 0, len(rules))}},
		Results:    []sarifResult{},
		ColumnKind: sarifColumnsKind,
	}}}
	run := &log.Runs[0]
	for _, ru := range rules {
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRuleOf(ru))
	}

	type item struct {
		f     finding.Finding
		edits []finding.Replacement
	}
	items := make([]item, 0, len(r.Findings)+len(r.Suppressed))
	for _, f := range r.Findings {
		items = append(items, item{f, f.Edits})
	}
	for _, f := range r.Suppressed {
		items = append(items, item{f: f})
	}
	slices.SortStableFunc(items, func(a, b item) int { return finding.Compare(a.f, b.f) })

	for _, it := range items {
		f := it.f
		res := sarifResult{
			RuleID: f.RuleID, RuleIndex: idx[f.RuleID], Level: sarifLevel(f.Severity),
			Message:   sarifMessage(f),
			Locations: []sarifLocation{r.sarifLocation(cols, f.Range.File, f.Range.Span)},
		}
		if f.ConfigSet != "" || len(f.Fix) > 0 {
			res.Properties = &sarifResultProps{ConfigSet: f.ConfigSet, Fix: f.Fix}
		}
		if len(it.edits) > 0 && len(f.Fix) > 0 {
			res.Fixes = []sarifFix{r.sarifFixOf(cols, f, it.edits)}
		}
		if s := f.Suppression; s != nil {
			sup := sarifSuppression{Kind: "inSource", Status: "accepted", Justification: s.Reason}
			if s.File != "" && s.Line > 0 {
				sup.Location = &sarifLocation{PhysicalLocation: sarifPhysical{
					ArtifactLocation: r.sarifArtifactOf(s.File), Region: &sarifRegion{StartLine: s.Line}}}
			}
			res.Suppressions = []sarifSuppression{sup}
		}
		run.Results = append(run.Results, res)
	}
	setFingerprints(run.Results, func(i int) finding.Finding { return items[i].f }, r)

	return encodeJSON(w, log, false)
}

// setFingerprints fills partialFingerprints; results whose identities
// collide fall back to including their full message.
func setFingerprints(results []sarifResult, get func(int) finding.Finding, r Result) {
	seen := map[string]int{}
	fps := make([]string, len(results))
	for i := range results {
		f := get(i)
		p, _ := r.repoPath(f.Range.File)
		fps[i] = fingerprint(f, p, false)
		seen[fps[i]]++
	}
	for i := range results {
		if seen[fps[i]] > 1 {
			f := get(i)
			p, _ := r.repoPath(f.Range.File)
			fps[i] = fingerprint(f, p, true)
		}
		results[i].PartialFingerprints = map[string]string{fingerprintKey: fps[i]}
	}
}
