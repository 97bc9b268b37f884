package lint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ckptlint/ckptlint/internal/assemble"
	"github.com/ckptlint/ckptlint/internal/suppress"
)

// TestManifestReadOnceForItsSets: the sets of a manifest of N
// FlinkDeployments share what is made of its bytes: it is parsed once (at
// discovery, every set taking its own deployment's configuration), its
// ignore comments are parsed once and its digest is taken once (issue 25:
// 1,000 documents took 54-68 s when each set parsed, searched and hashed
// the whole file again).
func TestManifestReadOnceForItsSets(t *testing.T) {
	const n = 50
	var b strings.Builder
	b.WriteString("# ckptlint:ignore-file CKPT503 - demo jobs\n")
	for i := range n {
		fmt.Fprintf(&b, "---\napiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata:\n  name: job-%d\nspec:\n  flinkConfiguration:\n    execution.checkpointing.interval: %d s\n", i, i+1)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "jobs.yaml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	r := newRun(Options{Unbounded: true}, nil, []string{dir})
	var files []*suppress.File
	cfgs := map[any]bool{}
	var mu sync.Mutex // steps run in parallel
	r.step = func(_ context.Context, r *run, p *assemble.Plan) (*setResult, error) {
		s := p.Parse(r.tree)
		mu.Lock()
		cfgs[s.Flink] = true
		mu.Unlock()
		return r.result(p, s, nil), nil
	}
	if err := r.pipeline(context.Background(), func(res *setResult) error {
		if len(res.Sources) != 1 {
			t.Fatalf("set %s: %d ignore sources, want the manifest's", res.Name, len(res.Sources))
		}
		files = append(files, res.Sources[0].File)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(files) != n || len(cfgs) != n {
		t.Fatalf("%d sets, %d configurations; want %d of each", len(files), len(cfgs), n)
	}
	for i, f := range files {
		if f != files[0] {
			t.Fatalf("set %d parsed the manifest's ignore comments again", i)
		}
	}
}
