package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/ckptlint/ckptlint/internal/report"
)

// sarifSchemaPath is the OASIS SARIF 2.1.0 JSON schema, checked in under
// testdata/schemas (see testdata/schemas/README.md for its origin).
const sarifSchemaPath = "../../testdata/schemas/sarif-2.1.0.json"

// schemaValidator validates documents against the SARIF schema with OPA's
// json.match_schema (draft-07, through OPA's own copy of gojsonschema), so
// the test needs no JSON-schema module of its own. Remote references are
// refused (allow_net empty): the schema's are all local.
type schemaValidator struct {
	schema string
	query  rego.PreparedEvalQuery
}

func newSchemaValidator(t *testing.T) *schemaValidator {
	t.Helper()
	b, err := os.ReadFile(sarifSchemaPath)
	if err != nil {
		t.Fatalf("SARIF schema: %v (it is checked in at testdata/schemas/sarif-2.1.0.json)", err)
	}
	return newValidator(t, string(b))
}

// newValidator validates documents against the JSON schema schema.
func newValidator(t *testing.T, schema string) *schemaValidator {
	t.Helper()
	caps := ast.CapabilitiesForThisVersion()
	caps.AllowNet = []string{}
	q, err := rego.New(rego.Query("r := json.match_schema(input.doc, input.schema)"), rego.Capabilities(caps)).
		PrepareForEval(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return &schemaValidator{schema: schema, query: q}
}

// errors returns the schema violations of doc (nil when it is valid).
func (v *schemaValidator) errors(t *testing.T, doc []byte) []string {
	t.Helper()
	rs, err := v.query.Eval(context.Background(), rego.EvalInput(map[string]any{"doc": string(doc), "schema": v.schema}))
	if err != nil {
		t.Fatalf("json.match_schema: %v", err)
	}
	if len(rs) != 1 {
		t.Fatalf("json.match_schema: %d results", len(rs))
	}
	pair, ok := rs[0].Bindings["r"].([]any)
	if !ok || len(pair) != 2 {
		t.Fatalf("json.match_schema returned %#v", rs[0].Bindings["r"])
	}
	if valid, _ := pair[0].(bool); valid {
		return nil
	}
	var out []string
	errs, _ := pair[1].([]any)
	for _, e := range errs {
		out = append(out, fmt.Sprint(e))
	}
	if len(out) == 0 {
		out = []string{"invalid, without a reason"}
	}
	return out
}

// sarifDoc is the part of a SARIF log the structural checks read.
type sarifDoc struct {
	Runs []struct {
		ColumnKind string `json:"columnKind"`
		Tool       struct {
			Driver struct {
				Name    string `json:"name"`
				Version string `json:"version"`
				Rules   []struct {
					ID      string `json:"id"`
					HelpURI string `json:"helpUri"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex *int   `json:"ruleIndex"`
			Level     string `json:"level"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI       string `json:"uri"`
						URIBaseID string `json:"uriBaseId"`
					} `json:"artifactLocation"`
					Region struct {
						StartLine   int `json:"startLine"`
						StartColumn int `json:"startColumn"`
						EndLine     int `json:"endLine"`
						EndColumn   int `json:"endColumn"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
			Fixes               []json.RawMessage `json:"fixes"`
			Suppressions        []struct {
				Kind          string `json:"kind"`
				Justification string `json:"justification"`
			} `json:"suppressions"`
		} `json:"results"`
	} `json:"runs"`
}

func sarifOf(t *testing.T, r report.Result) ([]byte, sarifDoc) {
	t.Helper()
	var b bytes.Buffer
	if err := report.SARIF(&b, r); err != nil {
		t.Fatal(err)
	}
	var d sarifDoc
	if err := json.Unmarshal(b.Bytes(), &d); err != nil {
		t.Fatalf("SARIF is not JSON: %v", err)
	}
	if len(d.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(d.Runs))
	}
	return b.Bytes(), d
}

// TestSARIFStories validates the SARIF of every story against the SARIF
// 2.1.0 schema and checks each result against the finding it reports: the
// ruleId is the rule's id and names rules[ruleIndex], the region starts on
// the finding's line, the fingerprints are unique.
func TestSARIFStories(t *testing.T) {
	v := newSchemaValidator(t)
	for _, story := range stories(t) {
		t.Run(story, func(t *testing.T) {
			r := storyResult(t, story)
			raw, d := sarifOf(t, r)
			if errs := v.errors(t, raw); errs != nil {
				t.Fatalf("SARIF does not validate against %s:\n%v", sarifSchemaPath, errs)
			}
			run := d.Runs[0]
			if run.Tool.Driver.Name != "ckptlint" || run.Tool.Driver.Version != "test" || run.ColumnKind != "unicodeCodePoints" {
				t.Errorf("driver %q %q, columnKind %q", run.Tool.Driver.Name, run.Tool.Driver.Version, run.ColumnKind)
			}
			if len(run.Tool.Driver.Rules) != len(r.Rules) {
				t.Errorf("%d rules in the driver, want every loaded rule (%d)", len(run.Tool.Driver.Rules), len(r.Rules))
			}
			if len(run.Results) != len(r.Findings) {
				t.Fatalf("%d results for %d findings", len(run.Results), len(r.Findings))
			}
			fixes := 0
			seen := map[string]bool{}
			for i, res := range run.Results {
				f := r.Findings[i]
				if res.RuleID != f.RuleID {
					t.Errorf("result %d: ruleId %q, finding %s", i, res.RuleID, f.RuleID)
				}
				if res.RuleIndex == nil || *res.RuleIndex >= len(run.Tool.Driver.Rules) || run.Tool.Driver.Rules[*res.RuleIndex].ID != res.RuleID {
					t.Errorf("result %d (%s): ruleIndex does not name its rule", i, res.RuleID)
				}
				if len(res.Locations) != 1 {
					t.Fatalf("result %d: %d locations", i, len(res.Locations))
				}
				pl := res.Locations[0].PhysicalLocation
				if pl.Region.StartLine != f.Range.Start.Line || pl.Region.StartLine < 1 {
					t.Errorf("result %d (%s): startLine %d, finding line %d", i, res.RuleID, pl.Region.StartLine, f.Range.Start.Line)
				}
				if pl.ArtifactLocation.URI != f.Range.File || pl.ArtifactLocation.URIBaseID != "%SRCROOT%" {
					t.Errorf("result %d: artifact %+v, finding file %s", i, pl.ArtifactLocation, f.Range.File)
				}
				fp := res.PartialFingerprints["ckptlint/v1"]
				if fp == "" || seen[fp] {
					t.Errorf("result %d (%s): fingerprint %q missing or repeated", i, res.RuleID, fp)
				}
				seen[fp] = true
				if len(res.Fixes) > 0 {
					fixes++
					if len(f.Fix) == 0 {
						t.Errorf("result %d (%s) has fixes but the finding has no fix", i, res.RuleID)
					}
				}
			}
			if story != "a-blocksize" && fixes == 0 {
				t.Errorf("no result carries fixes")
			}
		})
	}
}

// TestSARIFValidatorRejects makes sure the schema check can fail: a level
// SARIF does not know and a missing message are violations.
func TestSARIFValidatorRejects(t *testing.T) {
	v := newSchemaValidator(t)
	bad := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"ruleId":"X","level":"fatal"}]}]}`
	if errs := v.errors(t, []byte(bad)); len(errs) == 0 {
		t.Fatal("an invalid SARIF log validated")
	}
}

// TestSARIFFingerprintsIgnoreLines checks that moving a finding down (and
// the line references in its message with it) keeps its fingerprint, and
// that another rule at the same place gets another one.
func TestSARIFFingerprintsIgnoreLines(t *testing.T) {
	a, b := syntheticResult(), syntheticResult()
	for i := range b.Findings {
		f := &b.Findings[i]
		f.Range.Start.Line += 3
		f.Range.End.Line += 3
		f.Message = strings.ReplaceAll(f.Message, "conf/flink-conf.yaml:4", "conf/flink-conf.yaml:7")
	}
	_, da := sarifOf(t, a)
	_, db := sarifOf(t, b)
	// Each rule fires once in the synthetic result.
	moved := map[string]string{}
	for _, x := range db.Runs[0].Results {
		moved[x.RuleID] = x.PartialFingerprints["ckptlint/v1"]
	}
	seen := map[string]bool{}
	for _, x := range da.Runs[0].Results {
		fp := x.PartialFingerprints["ckptlint/v1"]
		if fp != moved[x.RuleID] {
			t.Errorf("%s: fingerprint changed when the finding moved", x.RuleID)
		}
		if seen[fp] {
			t.Errorf("%s: fingerprint repeated", x.RuleID)
		}
		seen[fp] = true
	}
	if len(seen) != len(a.Findings)+len(a.Suppressed) {
		t.Errorf("%d fingerprints for %d results", len(seen), len(a.Findings)+len(a.Suppressed))
	}
}

// TestSARIFSynthetic validates the synthetic result (suppressions, fixes
// with replacements, multi-byte columns, a rule missing from Rules) and
// checks the conversions.
func TestSARIFSynthetic(t *testing.T) {
	r := syntheticResult()
	raw, d := sarifOf(t, r)
	if errs := newSchemaValidator(t).errors(t, raw); errs != nil {
		t.Fatalf("SARIF does not validate:\n%v", errs)
	}
	res := d.Runs[0].Results
	if len(res) != len(r.Findings)+len(r.Suppressed) {
		t.Fatalf("%d results, want findings and suppressed findings (%d)", len(res), len(r.Findings)+len(r.Suppressed))
	}
	var sup, multibyte int
	for _, x := range res {
		loc := x.Locations[0].PhysicalLocation
		if loc.ArtifactLocation.URI != "deploy/conf/flink-conf.yaml" && loc.ArtifactLocation.URI != "deploy/hadoop/hdfs-site.xml" {
			t.Errorf("uri %q is not relative to the repository root", loc.ArtifactLocation.URI)
		}
		if len(x.Suppressions) > 0 {
			sup++
			if x.Suppressions[0].Kind != "inSource" || x.Suppressions[0].Justification != "reviewed: the cluster has 20 DataNodes" {
				t.Errorf("suppression %+v", x.Suppressions[0])
			}
		}
		if x.RuleID == "CKPT205" {
			// "key: välüe" — the value starts at byte column 6 and ends at
			// byte 13 (exclusive), code points 6 and 11.
			multibyte++
			if rg := loc.Region; rg.StartColumn != 6 || rg.EndColumn != 11 {
				t.Errorf("CKPT205 region %+v, want code point columns 6-11", rg)
			}
		}
	}
	if sup != 1 || multibyte != 1 {
		t.Errorf("%d suppressed and %d multi-byte results, want 1 and 1", sup, multibyte)
	}
	if got := d.Runs[0].Tool.Driver.Rules[len(d.Runs[0].Tool.Driver.Rules)-1].ID; got != "ACME001" {
		t.Errorf("a user rule missing from Rules gets no entry: last rule %s", got)
	}
}
