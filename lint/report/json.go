package report

import (
	"encoding/json"
	"io"

	"github.com/ckptlint/ckptlint/lint/finding"
)

// JSONSchemaVersion versions the JSON output; see docs/output.md.
const JSONSchemaVersion = 1

type jsonDoc struct {
	Schema   int               `json:"schema"`
	Version  string            `json:"version"`
	Summary  jsonSummary       `json:"summary"`
	Findings []finding.Finding `json:"findings"`
}

type jsonSummary struct {
	Sets     int `json:"config_sets"`
	Files    int `json:"files"`
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
}

// JSON writes the stable, documented JSON form.
func JSON(w io.Writer, r Result) error {
	c := Counts(r.Findings)
	fs := r.Findings
	if fs == nil {
		fs = []finding.Finding{}
	}
	doc := jsonDoc{Schema: JSONSchemaVersion, Version: r.Version, Findings: fs,
		Summary: jsonSummary{Sets: r.Sets, Files: r.Files, Errors: c["error"], Warnings: c["warning"], Infos: c["info"]}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
