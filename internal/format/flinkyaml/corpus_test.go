package flinkyaml

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/parsed/edittest"
)

// TestCorpusConfigYAML runs the config.yaml checks (configYAMLChecks) over
// every real config.yaml of the shared corpus; TestRealWorldConfigYAML runs
// them from a clone alone.
func TestCorpusConfigYAML(t *testing.T) {
	for _, path := range edittest.CorpusFiles(t, "flink-config-yaml") {
		t.Run(filepath.Base(path), func(t *testing.T) { configYAMLChecks(t, path) })
	}
}

// TestRealWorldConfigYAML runs the checks of TestCorpusConfigYAML over the
// config.yaml files of testdata/realworld, written for this repository (a
// Flink 1.19+ deployment and the Flink 1.20 release's default), so a clone
// without ../shared runs them too.
func TestRealWorldConfigYAML(t *testing.T) {
	for _, path := range realWorld(t, "config.yaml", 2) {
		t.Run(filepath.Base(filepath.Dir(path)), func(t *testing.T) { configYAMLChecks(t, path) })
	}
}

// configYAMLChecks parses a valid Flink config.yaml: no ParseError, at
// least one entry, consistent spans, every key on the line a text search
// finds it, recognised as Flink's and not as a manifest, and the same
// entries and spans from a CRLF copy.
func configYAMLChecks(t *testing.T, path string) {
	t.Helper()
	src := readFile(t, path)
	f := ParseConfig(filepath.Base(path), src)
	if f.Err != nil {
		t.Fatalf("parse error: %v", f.Err)
	}
	if len(f.Entries) == 0 {
		t.Fatal("no entries")
	}
	checkFile(t, f)
	checkKeyLines(t, src, f.Entries)
	if !LooksLikeFlink(src) {
		t.Error("LooksLikeFlink = false for a Flink config.yaml")
	}
	if IsManifest(src) {
		t.Error("IsManifest = true for a config.yaml")
	}
	checkCRLF(t, src, f)
}

// TestCorpusManifests runs the manifest checks (manifestChecks) over every
// FlinkDeployment manifest of the corpus. Each holds exactly one
// FlinkDeployment (flinkdep-cr.yaml adds a PersistentVolumeClaim and an
// IngressClass, which are skipped). TestRealWorldManifests runs them from a
// clone alone.
func TestCorpusManifests(t *testing.T) {
	for _, path := range edittest.CorpusFiles(t, "flinkdeployment") {
		t.Run(filepath.Base(path), func(t *testing.T) { manifestChecks(t, path) })
	}
}

// TestRealWorldManifests runs the checks of TestCorpusManifests over the
// FlinkDeployments of testdata/realworld, written for this repository (one
// with flat flinkConfiguration, one nested after a ServiceAccount), so a
// clone without ../shared runs them too.
func TestRealWorldManifests(t *testing.T) {
	for _, path := range realWorld(t, "flinkdeployment.yaml", 2) {
		t.Run(filepath.Base(filepath.Dir(path)), func(t *testing.T) { manifestChecks(t, path) })
	}
}

// manifestChecks parses a manifest holding exactly one FlinkDeployment:
// no ParseError, a name, a Flink version and configuration entries, spans
// on the name and on flinkConfiguration, consistent entry spans on the
// lines a text search finds the keys, and recognised as a manifest, not as
// a Flink file.
func manifestChecks(t *testing.T, path string) {
	t.Helper()
	src := readFile(t, path)
	deps, _, perr := ParseManifests(filepath.Base(path), src)
	if perr != nil {
		t.Fatalf("parse error: %v", perr)
	}
	if len(deps) != 1 {
		t.Fatalf("%d deployments, want 1", len(deps))
	}
	d := deps[0]
	if d.Config.Err != nil {
		t.Fatalf("flinkConfiguration error: %v", d.Config.Err)
	}
	if d.Name == "" || d.FlinkVersion == "" || d.ConfigSpan.IsZero() || len(d.Config.Entries) == 0 {
		t.Fatalf("incomplete deployment %+v", d)
	}
	if got := text(src, d.ConfigSpan); got != "flinkConfiguration" {
		t.Errorf("ConfigSpan covers %q", got)
	}
	if got := text(src, d.Span); got != d.Name {
		t.Errorf("Span covers %q, want the name %q", got, d.Name)
	}
	checkFile(t, d.Config)
	checkKeyLines(t, src, d.Config.Entries)
	if !IsManifest(src) {
		t.Error("IsManifest = false for a FlinkDeployment")
	}
	if LooksLikeFlink(src) {
		t.Error("LooksLikeFlink = true for a manifest (no Flink key at the top level)")
	}
}

// TestCorpusKeyValueEquivalence checks that the flat and the nested
// spec.flinkConfiguration of the operator's own test resources give the
// same entries (sameConfiguration); TestRealWorldKeyValueEquivalence does
// so from a clone alone.
func TestCorpusKeyValueEquivalence(t *testing.T) {
	dir := edittest.CorpusDir(t, "flinkdeployment")
	const prefix = "apache__flink-kubernetes-operator__flink-kubernetes-operator-api__src__test__resources__"
	sameConfiguration(t, filepath.Join(dir, prefix+"test-deployment-key-value-configuration.yaml"),
		filepath.Join(dir, prefix+"test-deployment-yaml-configuration.yaml"))
}

// TestRealWorldKeyValueEquivalence checks that the deployment of
// testdata/realworld/operator (flat flinkConfiguration) and of
// operator-nested (the same keys as nested YAML, after another document)
// give the same entries.
func TestRealWorldKeyValueEquivalence(t *testing.T) {
	sameConfiguration(t, "../../../testdata/realworld/operator/flinkdeployment.yaml",
		"../../../testdata/realworld/operator-nested/flinkdeployment.yaml")
}

// sameConfiguration parses the one FlinkDeployment of each file and
// requires the same entries: keys, values and kinds, in order.
func sameConfiguration(t *testing.T, flatPath, nestedPath string) {
	t.Helper()
	read := func(path string) []kv {
		t.Helper()
		deps, _, err := ParseManifests(filepath.Base(path), readFile(t, path))
		if err != nil || len(deps) != 1 {
			t.Fatalf("%s: %d deployments, err %v", path, len(deps), err)
		}
		return entriesKV(deps[0].Config.Entries)
	}
	flat := read(flatPath)
	nested := read(nestedPath)
	if len(flat) == 0 {
		t.Fatalf("%s: no entries", flatPath)
	}
	if diff := cmp.Diff(flat, nested); diff != "" {
		t.Errorf("flat vs nested flinkConfiguration (-flat +nested):\n%s", diff)
	}
}

// realWorld returns testdata/realworld/*/name, failing with fewer than least.
func realWorld(t *testing.T, name string, least int) []string {
	t.Helper()
	paths, err := filepath.Glob("../../../testdata/realworld/*/" + name)
	if err != nil || len(paths) < least {
		t.Fatalf("%d %s files in testdata/realworld (%v), want at least %d", len(paths), name, err, least)
	}
	return paths
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// checkKeyLines finds each key's line by text search and compares it with
// the KeySpan: the line must hold the written key followed by ":" at the
// span's column.
func checkKeyLines(t *testing.T, src []byte, entries []parsed.Entry) {
	t.Helper()
	lines := strings.Split(string(src), "\n")
	for _, e := range entries {
		written := e.Key
		if e.WrittenKey != "" {
			written = e.WrittenKey
		}
		var candidates []int
		for i, l := range lines {
			trimmed := strings.TrimLeft(l, " -")
			for _, q := range []string{"", `"`, "'"} {
				if strings.HasPrefix(trimmed, q+written+q+":") {
					candidates = append(candidates, i+1)
					break
				}
			}
		}
		if len(candidates) == 0 {
			t.Errorf("key %q (%q) not found by text search", e.Key, written)
			continue
		}
		found := false
		for _, c := range candidates {
			found = found || c == e.KeySpan.Start.Line
		}
		if !found {
			t.Errorf("key %q at line %d, text search finds it at %v", e.Key, e.KeySpan.Start.Line, candidates)
			continue
		}
		if !e.Nested && len(candidates) == 1 && candidates[0] != e.KeySpan.Start.Line {
			t.Errorf("flat key %q at line %d, want %d", e.Key, e.KeySpan.Start.Line, candidates[0])
		}
		l := lines[e.KeySpan.Start.Line-1]
		if col := e.KeySpan.Start.Col; !strings.HasPrefix(l[col-1:], written) && !strings.HasPrefix(l[col-1:], `"`+written) && !strings.HasPrefix(l[col-1:], "'"+written) {
			t.Errorf("key %q: column %d of line %q does not start the key", e.Key, col, l)
		}
	}
}

// checkCRLF converts src to CRLF line endings and checks that the entries
// are the same and every span still covers the same token.
func checkCRLF(t *testing.T, src []byte, lf *parsed.File) {
	t.Helper()
	crlf := bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n"))
	f := ParseConfig("crlf.yaml", crlf)
	if f.Err != nil {
		t.Fatalf("CRLF copy: %v", f.Err)
	}
	checkFile(t, f)
	if diff := cmp.Diff(entriesKV(lf.Entries), entriesKV(f.Entries)); diff != "" {
		t.Fatalf("CRLF entries differ (-lf +crlf):\n%s", diff)
	}
	for i, e := range f.Entries {
		want := lf.Entries[i]
		if got, w := text(crlf, e.KeySpan), text(src, want.KeySpan); got != w {
			t.Errorf("CRLF key span of %q covers %q, want %q", e.Key, got, w)
		}
		if e.KeySpan.Start.Line != want.KeySpan.Start.Line || e.KeySpan.Start.Col != want.KeySpan.Start.Col {
			t.Errorf("CRLF key %q at %s, LF at %s", e.Key, e.KeySpan.Start, want.KeySpan.Start)
		}
		got := strings.ReplaceAll(text(crlf, e.ValueSpan), "\r\n", "\n")
		if w := text(src, want.ValueSpan); got != w {
			t.Errorf("CRLF value span of %q covers %q, want %q", e.Key, got, w)
		}
	}
}

// TestCorpusAnyFileIsSafe feeds every corpus file, of every format, to both
// parsers (anyFileIsSafe); TestRepositoryAnyFileIsSafe does so with the
// repository's own test data.
func TestCorpusAnyFileIsSafe(t *testing.T) {
	dir := edittest.CorpusDir(t, "")
	files, err := filepath.Glob(filepath.Join(dir, "*", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files in %s (%v)", dir, err)
	}
	for _, path := range files {
		t.Run(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), func(t *testing.T) { anyFileIsSafe(t, path) })
	}
}

// TestRepositoryAnyFileIsSafe feeds every file of the repository's testdata
// (Flink and Hadoop files, manifests, .ckptlint.hcl, goldens, diffs), written
// for this repository, to both parsers, so a clone without ../shared runs
// the checks of TestCorpusAnyFileIsSafe too.
func TestRepositoryAnyFileIsSafe(t *testing.T) {
	n := 0
	err := filepath.WalkDir("../../../testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		n++
		rel, _ := filepath.Rel("../../../testdata", path)
		t.Run(filepath.ToSlash(rel), func(t *testing.T) { anyFileIsSafe(t, path) })
		return nil
	})
	if err != nil || n < 100 {
		t.Fatalf("%d files under testdata (%v), want the repository's test data", n, err)
	}
}

// anyFileIsSafe parses the file as a config.yaml and as manifests: whatever
// the outcome, nothing panics and every span and error position is inside
// the file.
func anyFileIsSafe(t *testing.T, path string) {
	t.Helper()
	src := readFile(t, path)
	checkFile(t, ParseConfig(path, src))
	deps, _, perr := ParseManifests(path, src)
	if perr != nil && (perr.Pos.Line < 1 || perr.Pos.Offset > len(src)) {
		t.Fatalf("error position %+v out of bounds", perr.Pos)
	}
	for _, d := range deps {
		checkFile(t, d.Config)
	}
}
