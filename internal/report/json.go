package report

import (
	"io"

	"github.com/ckptlint/ckptlint/internal/finding"
)

// JSONSchemaVersion versions the JSON output; see docs/output.md.
const JSONSchemaVersion = 1

type jsonDoc struct {
	Schema   int               `json:"schema"`
	Version  string            `json:"version"`
	Summary  jsonSummary       `json:"summary"`
	Findings []finding.Finding `json:"findings"`
	// Suppressed lists the findings inline ignores silenced, each with its
	// suppression (kind, reason, file and line of the comment).
	Suppressed []finding.Finding `json:"suppressed"`
}

type jsonSummary struct {
	Sets       int `json:"config_sets"`
	Files      int `json:"files"`
	Errors     int `json:"errors"`
	Warnings   int `json:"warnings"`
	Infos      int `json:"infos"`
	Suppressed int `json:"suppressed"`
}

// JSON writes the stable, documented JSON form.
func JSON(w io.Writer, r Result) error {
	c := Counts(r.Findings)
	fs, sup := r.Findings, r.Suppressed
	if fs == nil {
		fs = []finding.Finding{}
	}
	if sup == nil {
		sup = []finding.Finding{}
	}
	doc := jsonDoc{Schema: JSONSchemaVersion, Version: r.Version, Findings: fs, Suppressed: sup,
		Summary: jsonSummary{Sets: r.Sets, Files: r.Files, Errors: c["error"], Warnings: c["warning"], Infos: c["info"],
			Suppressed: len(sup)}}
	return encodeJSON(w, doc, true)
}
