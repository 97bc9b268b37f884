package flinkyaml

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ckptlint/ckptlint/lint/edit/edittest"
	"github.com/ckptlint/ckptlint/lint/parsed"
)

// TestCorpusConfigYAML parses every real config.yaml of the shared corpus.
// All of them are valid Flink files, so none may give a ParseError.
func TestCorpusConfigYAML(t *testing.T) {
	files := edittest.CorpusFiles(t, "flink-config-yaml")
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
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
		})
	}
}

// TestCorpusManifests parses every FlinkDeployment manifest of the corpus.
// Each holds exactly one FlinkDeployment (flinkdep-cr.yaml adds a
// PersistentVolumeClaim and an IngressClass, which are skipped), and none
// may give a ParseError.
func TestCorpusManifests(t *testing.T) {
	files := edittest.CorpusFiles(t, "flinkdeployment")
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src := readFile(t, path)
			deps, perr := ParseManifests(filepath.Base(path), src)
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
		})
	}
}

// TestCorpusKeyValueEquivalence checks that the flat and the nested
// spec.flinkConfiguration of the operator's own test resources give the
// same entries.
func TestCorpusKeyValueEquivalence(t *testing.T) {
	dir := edittest.CorpusDir(t, "flinkdeployment")
	const prefix = "apache__flink-kubernetes-operator__flink-kubernetes-operator-api__src__test__resources__"
	read := func(name string) []kv {
		t.Helper()
		deps, err := ParseManifests(name, readFile(t, filepath.Join(dir, prefix+name)))
		if err != nil || len(deps) != 1 {
			t.Fatalf("%s: %d deployments, err %v", name, len(deps), err)
		}
		return entriesKV(deps[0].Config.Entries)
	}
	flat := read("test-deployment-key-value-configuration.yaml")
	nested := read("test-deployment-yaml-configuration.yaml")
	if diff := cmp.Diff(flat, nested); diff != "" {
		t.Errorf("flat vs nested flinkConfiguration (-flat +nested):\n%s", diff)
	}
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
// parsers: whatever the outcome, nothing panics and every span and error
// position is inside the file.
func TestCorpusAnyFileIsSafe(t *testing.T) {
	dir := edittest.CorpusDir(t, "")
	files, err := filepath.Glob(filepath.Join(dir, "*", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files in %s (%v)", dir, err)
	}
	for _, path := range files {
		t.Run(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), func(t *testing.T) {
			src := readFile(t, path)
			checkFile(t, ParseConfig(path, src))
			deps, perr := ParseManifests(path, src)
			if perr != nil && (perr.Pos.Line < 1 || perr.Pos.Offset > len(src)) {
				t.Fatalf("error position %+v out of bounds", perr.Pos)
			}
			for _, d := range deps {
				checkFile(t, d.Config)
			}
		})
	}
}
