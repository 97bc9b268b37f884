package discover

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/lint/format"
	"github.com/ckptlint/ckptlint/lint/parsed"
)

// TestManifestParsedOnceForItsSets: a streaming run's sets of a manifest
// of N FlinkDeployments parse it once more between them, not once each
// (issue 25: 1,000 documents took 54-68 s). Counted in allocations: holding
// and releasing every deployment in turn, as the sets do, allocates a few
// times what one parse of the file does, where parsing it again per
// deployment allocated N times as much.
func TestManifestParsedOnceForItsSets(t *testing.T) {
	const n = 200
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "---\napiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata:\n  name: job-%d\nspec:\n  flinkConfiguration:\n    execution.checkpointing.interval: %d s\n", i, i+1)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "jobs.yaml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tree, err := Walk([]string{dir}, Options{Unbounded: true, Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	f := tree.Get(filepath.Join(dir, "jobs.yaml"))
	if f == nil || len(f.Deps) != n {
		t.Fatalf("manifest not found with %d deployments: %+v", n, f)
	}
	for i, d := range f.Deps {
		if d.Config.Entries != nil {
			t.Fatalf("deployment %d not dropped by a lazy run", i)
		}
	}
	holdAll := func() {
		for i := range f.Deps {
			cfg := f.Deps[i].Config
			tree.Hold(cfg)
			if len(cfg.Entries) != 1 || cfg.Entries[0].Value != fmt.Sprintf("%d s", i+1) {
				t.Fatalf("deployment %d held: entries %+v", i, cfg.Entries)
			}
			tree.Release(cfg)
		}
	}
	src := []byte(b.String())
	once := testing.AllocsPerRun(2, func() {
		format.Of(parsed.FlinkDeployment).Parse("jobs.yaml", src, format.Options{})
	})
	all := testing.AllocsPerRun(2, holdAll)
	if all > 4*once {
		t.Errorf("holding each of %d deployments allocated %.0f, %.1f times one parse of the file (%.0f): it is parsed again per deployment",
			n, all, all/once, once)
	}
}
