package discover

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestListing: the walk keeps the listing of every directory that holds a
// discovered file, as it read it, and of no other (the version-evidence
// search reads those directories again otherwise).
func TestListing(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "job", "conf")
	if err := os.MkdirAll(conf, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]string{
		"flink-conf.yaml": "execution.checkpointing.interval: 1 min\n",
		"Dockerfile":      "FROM flink:1.18.1\n",
	} {
		if err := os.WriteFile(filepath.Join(conf, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d, err := Walk([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	entries, ok := d.Listing(conf)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !ok || !slices.Equal(names, []string{"Dockerfile", "flink-conf.yaml"}) {
		t.Errorf("Listing(job/conf) = %v, %v; want Dockerfile and flink-conf.yaml", names, ok)
	}
	for _, other := range []string{dir, filepath.Join(dir, "job")} {
		if _, ok := d.Listing(other); ok {
			t.Errorf("Listing(%s) kept: it holds no discovered file", other)
		}
	}
}
