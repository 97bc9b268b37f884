package fix_test

import (
	"os"
	"path/filepath"
	"testing"
)

// inputFile is one real-world-shaped configuration file, linted or fixed on
// its own under its real name.
type inputFile struct {
	kind, base string // where it comes from, for messages
	name       string // the name it has in its project
	src        []byte
}

// sharedCorpusFiles reads ../shared/corpus beside the repository, or skips
// the test when it is absent (realWorldFiles covers the same from a clone).
func sharedCorpusFiles(t *testing.T) []inputFile {
	t.Helper()
	dir, _ := filepath.Abs("../../shared/corpus")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("corpus not found at %s (it lives in ../shared beside the repository)", dir)
	}
	names := map[string]string{"flink-conf": "flink-conf.yaml", "flink-config-yaml": "config.yaml",
		"core-site": "core-site.xml", "hdfs-site": "hdfs-site.xml", "flinkdeployment": "flinkdeployment.yaml"}
	var out []inputFile
	for kind, name := range names {
		files, _ := os.ReadDir(filepath.Join(dir, kind))
		for _, f := range files {
			src, err := os.ReadFile(filepath.Join(dir, kind, f.Name()))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, inputFile{kind, f.Name(), name, src})
		}
	}
	return out
}

// realWorldFiles reads the deployments of testdata/realworld, written for
// this repository in the shapes real deployments take.
func realWorldFiles(t *testing.T) []inputFile {
	t.Helper()
	paths, err := filepath.Glob("../testdata/realworld/*/*")
	if err != nil || len(paths) < 5 {
		t.Fatalf("%d files in testdata/realworld (%v), want at least 5", len(paths), err)
	}
	var out []inputFile
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, inputFile{filepath.Base(filepath.Dir(p)), filepath.Base(p), filepath.Base(p), src})
	}
	return out
}
