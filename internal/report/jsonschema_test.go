package report_test

import (
	"os"
	"strings"
	"testing"
)

// jsonSchemaPath is the published schema of --format json.
const jsonSchemaPath = "../../docs/schema/ckptlint-json.schema.json"

// TestJSONSchema validates the JSON report of every story, and of the
// synthetic result (suppressed findings, fixes of every kind), against
// docs/schema/ckptlint-json.schema.json, and checks that the schema rejects
// what it should.
func TestJSONSchema(t *testing.T) {
	b, err := os.ReadFile(jsonSchemaPath) // read before a subtest changes directory
	if err != nil {
		t.Fatal(err)
	}
	v := newValidator(t, string(b))
	for _, story := range stories(t) {
		t.Run(story, func(t *testing.T) {
			doc := render(t, "json", storyResult(t, story))
			if errs := v.errors(t, []byte(doc)); errs != nil {
				t.Errorf("--format json does not match %s:\n%s", jsonSchemaPath, strings.Join(errs, "\n"))
			}
		})
	}
	syn := render(t, "json", syntheticResult())
	if !strings.Contains(syn, `"suppression"`) || !strings.Contains(syn, `"fix"`) {
		t.Fatalf("the synthetic result lacks suppressed findings or fixes:\n%s", syn)
	}
	if errs := v.errors(t, []byte(syn)); errs != nil {
		t.Errorf("synthetic result: --format json does not match %s:\n%s", jsonSchemaPath, strings.Join(errs, "\n"))
	}
	for name, bad := range map[string]string{
		"schema 2":          strings.Replace(syn, `"schema": 1`, `"schema": 2`, 1),
		"unknown severity":  strings.Replace(syn, `"severity": "error"`, `"severity": "fatal"`, 1),
		"no summary":        `{"schema": 1, "version": "x", "findings": [], "suppressed": []}`,
		"negative count":    strings.Replace(syn, `"errors": `, `"errors": -`, 1),
		"suppressed no why": strings.Replace(syn, `"suppression"`, `"not_suppression"`, 1),
	} {
		if v.errors(t, []byte(bad)) == nil {
			t.Errorf("the schema accepts a document with %s", name)
		}
	}
}
