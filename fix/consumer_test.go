package fix_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/ckptlint/ckptlint/fix"
	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/lint"
)

// The FlinkDeployment CRDs the Flink Kubernetes Operator released
// (testdata/crds/README.md): release-1.12.1 is the last whose
// spec.flinkConfiguration is a map of strings, release-1.15.0 the latest,
// where it takes any YAML (x-kubernetes-preserve-unknown-fields).
var crdFiles = []string{
	"../testdata/crds/flinkdeployments.flink.apache.org-v1-release-1.12.1.yml",
	"../testdata/crds/flinkdeployments.flink.apache.org-v1-release-1.15.0.yml",
}

// fixtureRoots are the directories of testdata whose configuration the
// consumer test fixes, each as `ckptlint fix` run inside it would; every
// directory of testdata is one of them or holds them, except the schemas.
func fixtureRoots(t *testing.T) []string {
	t.Helper()
	var roots []string
	for _, pattern := range []string{"rules/*/bad", "rules/*/good", "stories/*", "stories-fixed/*", "realworld/*", "templates/*", "k8s", "suppress"} {
		m, err := filepath.Glob(filepath.Join("../testdata", pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range m {
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				abs, _ := filepath.Abs(d)
				roots = append(roots, abs)
			}
		}
	}
	// A new directory of fixtures must be added above (or here, when it
	// holds no configuration).
	notFixtures := []string{"crds", "schemas"}
	covered := []string{"rules", "stories", "stories-fixed", "realworld", "templates", "k8s", "suppress"}
	ents, err := os.ReadDir("../testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.IsDir() && !slices.Contains(covered, e.Name()) && !slices.Contains(notFixtures, e.Name()) {
			t.Errorf("testdata/%s is not among the fixture roots of TestFixValidForConsumer", e.Name())
		}
	}
	if len(roots) < 100 {
		t.Fatalf("found only %d fixture directories", len(roots))
	}
	return roots
}

// TestFixValidForConsumer applies every fix of every fixture of testdata
// in memory (fix.Run), as found and with each Flink release whose value
// syntax differs declared (1.14: "m" is not yet minutes; 1.20; 2.1), and
// holds each file it would write to what reads it (docs/fix.md, "Values
// its consumer reads"):
//
//   - every FlinkDeployment document validates against the
//     openAPIV3Schema of the operator's released CRDs that the document
//     validated against before the fix, and always against the latest;
//   - every value set or moved in a Flink configuration is read by the
//     declared Flink release's parser (model.FlinkValueError: Flink's
//     TimeUtils, MemorySize and ConfigurationUtils as internal/units
//     implements them), a flink.hadoop.* value and every value in a Hadoop
//     file by Hadoop's getter for the key (model.HadoopValueError);
//   - the fixed files parse (no new CKPT000).
func TestFixValidForConsumer(t *testing.T) {
	eng := linttest.Engine(t)
	crds := loadCRDs(t)
	var total tally
	for _, root := range fixtureRoots(t) {
		rel, _ := filepath.Rel(filepath.Dir(filepath.Dir(root)), root)
		for _, ver := range []string{"", "1.14", "1.20", "2.1"} {
			name := filepath.ToSlash(rel)
			if ver != "" {
				name += "@" + ver
			}
			t.Run(name, func(t *testing.T) {
				t.Chdir(root)
				total.add(checkConsumers(t, eng, crds, ver))
			})
		}
	}
	t.Logf("checked %d values against Flink's parsers, %d against Hadoop's, %d FlinkDeployments against the CRDs (%d against release-1.12.1's map of strings)",
		total.flink, total.hadoop, total.manifests, total.strict)
	// The test must have something to check, or it proves nothing.
	if total.flink < 20 || total.hadoop < 5 || total.manifests < 3 || total.strict < 3 {
		t.Errorf("too little checked: %+v", total)
	}
}

// unreadConfigYAML reports whether the set's Flink file is a config.yaml
// its declared release does not read: config.yaml is read from 1.19
// (FLINK-33364; model.LowerBound), an older release reads flink-conf.yaml
// and CKPT603 reports the config.yaml it ignores, so no Flink parser
// consumes what fix writes there.
func unreadConfigYAML(s *model.Set) bool {
	return s.Flink.Format == parsed.FlinkConfigYAML && s.FlinkVersion.Declared() &&
		s.FlinkVersion.Version.Less(model.Version{Major: 1, Minor: 19})
}

type tally struct{ flink, hadoop, manifests, strict int }

func (a *tally) add(b tally) {
	a.flink += b.flink
	a.hadoop += b.hadoop
	a.manifests += b.manifests
	a.strict += b.strict
}

// checkConsumers fixes the working directory in memory with Flink version
// ver declared ("": none) and checks the result (TestFixValidForConsumer).
func checkConsumers(t *testing.T, eng *engine.Engine, crds []crd, ver string) tally {
	t.Helper()
	var n tally
	opts := lint.Options{Config: linttest.LoadConfig(t, "."), Now: linttest.Now, Versions: lint.Versions{Flink: ver}}
	before, err := lint.Lint(context.Background(), eng, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	res, err := fix.Run(context.Background(), eng, fix.Options{Lint: opts})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Changes) == 0 {
		return n
	}
	overlay := map[string][]byte{}
	for _, c := range res.Changes {
		overlay[c.Path] = c.New
		if bytes.Contains(c.New, []byte("kind: FlinkDeployment")) {
			v, s := checkManifests(t, crds, res.Display[c.Path], c.Old, c.New)
			n.manifests, n.strict = n.manifests+v, n.strict+s
		}
	}
	after := opts
	after.Overlay = overlay
	r, err := lint.Lint(context.Background(), eng, nil, after)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := countParse(r.Findings), countParse(before.Findings); a > b {
		t.Errorf("the fixed files do not parse (%d CKPT000, %d before): %v", a, b, r.Findings)
	}
	sets := map[string]*model.Set{}
	for _, s := range r.Sets {
		sets[s.Name] = s
	}
	for i, a := range res.Applied {
		key, ok := finalKey(res.Applied, i)
		if !ok {
			continue // deleted, now or by a later round
		}
		s := sets[a.Finding.ConfigSet]
		if s == nil {
			t.Errorf("%s: config set %q is gone after the fix", a.File, a.Finding.ConfigSet)
			continue
		}
		f := fileOf(s, a.File)
		if f == nil {
			t.Errorf("%s %s: %s is not a file of config set %s after the fix", a.Op.Op, key, a.File, s.Name)
			continue
		}
		e := f.Lookup(key)
		if e == nil {
			t.Errorf("%s: %s %s: the key is not in the fixed file", a.File, a.Op.Op, key)
			continue
		}
		if f == s.Flink && unreadConfigYAML(s) {
			continue // no Flink release before 1.19 reads config.yaml: no consumer to hold it to
		}
		if f == s.Flink && !strings.HasPrefix(key, "flink.hadoop.") {
			known, err := model.FlinkValueError(key, e, s.FlinkVersion.Version)
			if err != nil {
				t.Errorf("%s:%d: %s wrote %s = %q (%s), which %s refuses: %v", a.File, e.ValueSpan.Start.Line, a.Finding.RuleID, key, e.Value, e.Kind, s.FlinkVersion.Text("Flink"), err)
			}
			if known {
				n.flink++
			}
			continue
		}
		known, err := model.HadoopValueError(strings.TrimPrefix(key, "flink.hadoop."), e.Value)
		if err != nil {
			t.Errorf("%s:%d: %s wrote %s = %q, which Hadoop refuses: %v", a.File, e.ValueSpan.Start.Line, a.Finding.RuleID, key, e.Value, err)
		}
		if known {
			n.hadoop++
		}
	}
	// Every value of a fixed Hadoop file is read by Hadoop (a fix may not
	// leave a value it wrote, nor one it moved, unreadable).
	for _, s := range r.Sets {
		for _, f := range s.Files() {
			if f == nil || f == s.Flink || overlay[absPath(t, f.Path)] == nil {
				continue
			}
			for _, e := range f.Entries {
				if _, err := model.HadoopValueError(e.Key, e.Value); err != nil && !badBefore(before, f.Path, e.Key) {
					t.Errorf("%s: %s = %q in the fixed file: Hadoop refuses it: %v", f.Path, e.Key, e.Value, err)
				}
			}
		}
	}
	return n
}

// finalKey is the key the value applied[i] wrote or moved ends under,
// following the renames later rounds applied to it in the same file;
// false when it was deleted.
func finalKey(applied []fix.Applied, i int) (string, bool) {
	a := applied[i]
	key := a.Key
	if a.Op.Op == "delete" {
		return "", false
	}
	if a.Op.Op == "rename" {
		key = renamedKey(a)
	}
	for _, b := range applied[i+1:] {
		if b.File != a.File || b.Key != key {
			continue
		}
		switch b.Op.Op {
		case "delete":
			return "", false
		case "rename":
			key = renamedKey(b)
		}
	}
	return key, true
}

// renamedKey is the key a rename wrote (flink.hadoop.<new> when it renamed
// a pass-through entry).
func renamedKey(a fix.Applied) string {
	if strings.HasPrefix(a.Key, "flink.hadoop.") && a.Op.Target != "flink" {
		return "flink.hadoop." + a.Op.NewKey
	}
	return a.Op.NewKey
}

// badBefore reports whether the original files already held an
// unreadable value of key in the file at path (a fixture of a rule that
// reports it, left to the user).
func badBefore(before *lint.Result, path, key string) bool {
	for _, s := range before.Sets {
		for _, f := range s.Files() {
			if f == nil || f.Path != path {
				continue
			}
			if e := f.Lookup(key); e != nil {
				_, err := model.HadoopValueError(key, e.Value)
				return err != nil
			}
		}
	}
	return false
}

func fileOf(s *model.Set, path string) *parsed.File {
	for _, f := range s.Files() {
		if f != nil && f.Path == path {
			return f
		}
	}
	return nil
}

func absPath(t *testing.T, p string) string {
	t.Helper()
	abs, err := filepath.Abs(filepath.FromSlash(p))
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// crd is one released FlinkDeployment CRD: its compiled openAPIV3Schema
// per served version (v1beta1).
type crd struct {
	release string
	schemas map[string]*jsonschema.Schema
}

// loadCRDs compiles the openAPIV3Schema of every version of each CRD file.
// OpenAPI v3's schema is the JSON-schema subset Kubernetes validates
// (type, properties, additionalProperties, enum, required, items); the
// x-kubernetes-* extensions and format are annotations to a JSON-schema
// validator, as they are to Kubernetes' structural validation apart from
// pruning and int-or-string, which flinkConfiguration does not use.
func loadCRDs(t *testing.T) []crd {
	t.Helper()
	var out []crd
	for _, path := range crdFiles {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Spec struct {
				Versions []struct {
					Name   string `yaml:"name"`
					Schema struct {
						OpenAPIV3Schema map[string]any `yaml:"openAPIV3Schema"`
					} `yaml:"schema"`
				} `yaml:"versions"`
			} `yaml:"spec"`
		}
		if err := yaml.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		release := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), "flinkdeployments.flink.apache.org-v1-"), ".yml")
		c := crd{release: release, schemas: map[string]*jsonschema.Schema{}}
		for _, v := range doc.Spec.Versions {
			js, err := jsonValue(v.Schema.OpenAPIV3Schema)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			comp := jsonschema.NewCompiler()
			url := "file:///" + release + "/" + v.Name + ".json"
			if err := comp.AddResource(url, js); err != nil {
				t.Fatalf("%s %s: %v", path, v.Name, err)
			}
			sch, err := comp.Compile(url)
			if err != nil {
				t.Fatalf("%s %s: %v", path, v.Name, err)
			}
			c.schemas["flink.apache.org/"+v.Name] = sch
		}
		if len(c.schemas) == 0 {
			t.Fatalf("%s: no openAPIV3Schema", path)
		}
		out = append(out, c)
	}
	return out
}

// jsonValue turns a value decoded from YAML into what the JSON decoder
// would give (the form jsonschema validates), through JSON itself.
func jsonValue(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(b))
}

// checkManifests validates each FlinkDeployment document of a fixed
// manifest against every CRD its original validated against, and always
// against the last CRD; it returns how many documents it validated, and
// how many against release-1.12.1's map of strings.
func checkManifests(t *testing.T, crds []crd, name string, old, fixed []byte) (validated, strict int) {
	t.Helper()
	oldDocs, err := flinkDeployments(old)
	if err != nil {
		t.Fatalf("%s before the fix: %v", name, err)
	}
	newDocs, err := flinkDeployments(fixed)
	if err != nil {
		t.Fatalf("%s after the fix: %v", name, err)
	}
	if len(oldDocs) != len(newDocs) {
		t.Fatalf("%s: %d FlinkDeployments before the fix, %d after", name, len(oldDocs), len(newDocs))
	}
	for i, doc := range newDocs {
		for j, c := range crds {
			sch := c.schemas[doc.apiVersion]
			if sch == nil {
				t.Errorf("%s: document %d: apiVersion %s is not served by the %s CRD", name, doc.index, doc.apiVersion, c.release)
				continue
			}
			wasValid := sch.Validate(oldDocs[i].value) == nil
			err := sch.Validate(doc.value)
			switch {
			case err != nil && (wasValid || j == len(crds)-1):
				t.Errorf("%s: FlinkDeployment %d after the fix does not validate against the %s CRD (it did before: %v): %v", name, doc.index, c.release, wasValid, err)
			case err == nil:
				validated++
				if c.release == "release-1.12.1" {
					strict++
				}
			}
		}
	}
	return validated, strict
}

type manifestDoc struct {
	index      int
	apiVersion string
	value      any
}

// flinkDeployments decodes the FlinkDeployment documents of a manifest as
// the API server receives them: JSON, with null fields dropped
// (Kubernetes prunes a null of a field that is not nullable before it
// validates: "Defaulting and Nullable", Kubernetes' CustomResourceDefinition
// documentation).
func flinkDeployments(src []byte) ([]manifestDoc, error) {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var out []manifestDoc
	for i := 0; ; i++ {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		m, ok := v.(map[string]any)
		if !ok || m["kind"] != "FlinkDeployment" {
			continue
		}
		js, err := jsonValue(dropNulls(m))
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		api, _ := m["apiVersion"].(string)
		out = append(out, manifestDoc{index: i, apiVersion: api, value: js})
	}
}

func dropNulls(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if e != nil {
				out[k] = dropNulls(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = dropNulls(e)
		}
		return out
	}
	return v
}
