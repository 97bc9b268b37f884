package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSplitHelmOutput(t *testing.T) {
	src := "---\n# Source: flink/templates/configmap.yaml\napiVersion: v1\nkind: ConfigMap\n---\n# Source: flink/templates/jm.yaml\napiVersion: apps/v1\nkind: Deployment\n"
	docs, ok := SplitHelmOutput([]byte(src))
	if !ok || len(docs) != 2 || docs[0].Source != "flink/templates/configmap.yaml" || docs[1].Source != "flink/templates/jm.yaml" ||
		!strings.HasPrefix(string(docs[1].Text), "# Source: flink/templates/jm.yaml\napiVersion: apps/v1") {
		t.Errorf("%v %q", ok, docs)
	}
	if _, ok := SplitHelmOutput([]byte("apiVersion: v1\nkind: ConfigMap\n")); ok {
		t.Error("plain manifests taken for Helm's output")
	}
}

// FuzzManifests: reading a rendered document against any source never
// panics, and every Exact Text lies in its container at its offsets.
func FuzzManifests(f *testing.F) {
	f.Add([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  a: |\n    x: 1\n"), []byte("data:\n  a: |\n    x: 1\n"))
	f.Add([]byte("# Source: c/templates/a.yaml\napiVersion: v1\nkind: ConfigMap\ndata:\n  k: v\n---\nkind: Pod\n"), []byte("k=v\n"))
	f.Fuzz(func(t *testing.T, rendered, src []byte) {
		docs, _ := SplitHelmOutput(rendered)
		out := &Output{Source: "helm", Files: map[string][]byte{"t.yaml": src, "f.conf": src}}
		for _, d := range docs {
			d.Source = "t.yaml"
			out.Docs = append(out.Docs, d)
		}
		ms, _ := Manifests(out)
		for _, m := range ms {
			for _, cm := range m.ConfigMaps {
				for _, txt := range cm.Data {
					c := out.Files[txt.Container]
					if txt.Exact && (txt.End > len(c) || txt.Start > txt.End || string(txt.Src[txt.Start:]) != string(c[txt.Start:txt.End])) {
						t.Fatalf("Exact text [%d:%d] not in %s", txt.Start, txt.End, txt.Container)
					}
				}
			}
		}
	})
}

// TestLocate: without a renderer beside ckptlint or on PATH, a chart is
// not rendered, with an error that says what to install; one on PATH is
// found.
func TestLocate(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", dir)
	_, err := Helm(Chart{Dir: "c"}, func(string) ([]byte, error) { return nil, nil }, DefaultLimits)
	if err == nil || !strings.HasPrefix(err.Error(), "helm chart c not rendered: ckptlint-render, the renderer of Helm charts and kustomizations, is not installed beside ckptlint or on PATH") {
		t.Errorf("without a renderer: %v", err)
	}
	exe := filepath.Join(dir, Name)
	if err := os.WriteFile(exe, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := locate(); err != nil || got != exe {
		t.Errorf("locate() = %q, %v; want %s", got, err, exe)
	}
}

// TestIdentity: the result cache's name for the renderer a run would
// start says whether there is one, and changes with its bytes.
func TestIdentity(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", dir)
	if got := Identity(); got != "none" {
		t.Errorf("without a renderer: Identity() = %q, want none", got)
	}
	exe := filepath.Join(dir, Name)
	if err := os.WriteFile(exe, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	first := Identity()
	if !strings.HasPrefix(first, "sha256:") {
		t.Errorf("a renderer without a Go build ID: Identity() = %q, want its SHA-256", first)
	}
	if err := os.WriteFile(exe, []byte("#!/bin/sh\nexit 2\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if second := Identity(); second == first || !strings.HasPrefix(second, "sha256:") {
		t.Errorf("another renderer at the same path: Identity() = %q, the first was %q", second, first)
	}
}
