package lint_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ckptlint/ckptlint/internal/cache"
	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/lint"
)

// cachedBench fills a result cache for the benchmark monorepo of 2,000
// config sets and returns what a run needs.
func cachedBench(b *testing.B) (*lint.Cache, lint.Options, string) {
	root := benchRepo(b, 2000)
	b.Chdir(root)
	cfg := benchConfig(b, root)
	store, err := cache.Open(b.TempDir(), 0)
	if err != nil {
		b.Fatal(err)
	}
	lz, err := engine.NewLazy(engine.Options{})
	if err != nil {
		b.Fatal(err)
	}
	c := &lint.Cache{Store: store, Policies: lz}
	opts := lint.Options{Config: cfg}
	if _, _, err := lint.Cached(context.Background(), c, nil, opts); err != nil {
		b.Fatal(err)
	}
	return c, opts, root
}

// BenchmarkCacheWarm2000 is a run over 2,000 config sets in which nothing
// changed since the last: every observation replayed, nothing parsed or
// compiled.
func BenchmarkCacheWarm2000(b *testing.B) {
	c, opts, _ := cachedBench(b)
	for b.Loop() {
		_, st, err := lint.Cached(context.Background(), c, nil, opts)
		if err != nil || !st.Hit {
			b.Fatalf("%+v %v", st, err)
		}
	}
}

// BenchmarkCacheOneEdited2000 is a run over 2,000 config sets after one
// file was edited: discovery and parsing again, one set evaluated (the
// policies already compiled, as in a process that compiled them once).
func BenchmarkCacheOneEdited2000(b *testing.B) {
	c, opts, root := cachedBench(b)
	m, _ := filepath.Glob(filepath.Join(root, "*", "*", "flink-conf.yaml"))
	if len(m) == 0 {
		m, _ = filepath.Glob(filepath.Join(root, "*", "*", "*", "flink-conf.yaml"))
	}
	if len(m) == 0 {
		b.Fatal("no flink-conf.yaml in the benchmark repository")
	}
	orig, err := os.ReadFile(m[0])
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		b.StopTimer()
		i++
		src := append(append([]byte(nil), orig...), []byte("\n# edit "+string(rune('a'+i%26))+"\n")...)
		if err := os.WriteFile(m[0], src, 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		_, st, err := lint.Cached(context.Background(), c, nil, opts)
		if err != nil || st.Hit || st.Evaluated != 1 {
			b.Fatalf("%+v %v", st, err)
		}
	}
}
