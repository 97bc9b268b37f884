package lint

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ckptlint/ckptlint/internal/cache"
	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/internal/evaluate"
	"github.com/ckptlint/ckptlint/internal/finding"
)

// TestCacheOverCap: a run whose entry would pass its cap (maxRunEntry, some
// 23,000 config sets) stored nothing, and every later run paid for building
// the entry again, and failed again (issue 25: 8 s of CPU each run). The
// first such run says so once and records it (a small marker under the
// run's key); later runs with that key lint as --no-cache does, without
// building an entry, and say so once; once the repository has shrunk well
// below the size that passed the cap, the marker goes and the cache is
// used again. Results are those of a run without the cache throughout.
func TestCacheOverCap(t *testing.T) {
	old := maxRunEntry
	maxRunEntry = 16 << 10 // 40 sets take some 60 KB
	t.Cleanup(func() { maxRunEntry = old })
	repo := t.TempDir()
	for i := range 40 {
		p := filepath.Join(repo, fmt.Sprintf("s%02d", i), "flink-conf.yaml")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("execution.checkpointing.interval: 10 s\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(repo)
	lazy, err := engine.NewLazy(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	store, err := cache.Open(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	c := &Cache{Store: store, Policies: lazy}
	ctx := context.Background()
	now := time.Now()
	findings := func(res *Result) string {
		b, err := json.Marshal(res.Findings)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	eng, err := lazy.Engine(ctx)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := Lint(ctx, eng, nil, Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	run := func(name string) ([]string, CacheStats) {
		t.Helper()
		var notes []string
		res, st, err := Cached(ctx, c, nil, Options{Now: now, Note: func(s string) { notes = append(notes, s) }})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		c.Wait()
		if got := findings(res); got != findings(plain) && len(res.Sets) == len(plain.Sets) {
			t.Errorf("%s: findings differ from a run without the cache", name)
		}
		return notes, st
	}
	overCapNotes := func(notes []string) int {
		n := 0
		for _, s := range notes {
			if strings.Contains(s, "result cache") && strings.Contains(s, "cap") {
				n++
			}
		}
		return n
	}
	// mtimes are the modification times of the store's subdirectories: a
	// run that writes (or tries to write) an entry makes a temporary file in
	// one of them, which moves its time.
	mtimes := func() map[string]time.Time {
		m := map[string]time.Time{}
		ds, _ := os.ReadDir(dir)
		for _, d := range ds {
			if st, err := os.Stat(filepath.Join(dir, d.Name())); err == nil {
				m[d.Name()] = st.ModTime()
			}
		}
		return m
	}

	notes, st := run("first run")
	if n := overCapNotes(notes); n != 1 {
		t.Errorf("first run past the cap: %d notes about it, want 1: %q", n, notes)
	}
	before := mtimes()
	time.Sleep(10 * time.Millisecond)
	notes, st = run("second run")
	if n := overCapNotes(notes); n != 1 {
		t.Errorf("second run past the cap: %d notes about it, want 1: %q", n, notes)
	}
	if st.Hit || !st.OverCap {
		t.Errorf("second run: stats %+v, want a run without the cache (OverCap)", st)
	}
	if after := mtimes(); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("second run past the cap wrote to the store (subdirectories %v, then %v)", before, after)
	}

	// The repository shrinks well below the cap: the marker goes, the next
	// run stores an entry and the one after is a hit.
	for i := 8; i < 40; i++ {
		if err := os.RemoveAll(filepath.Join(repo, fmt.Sprintf("s%02d", i))); err != nil {
			t.Fatal(err)
		}
	}
	if plain, err = Lint(ctx, eng, nil, Options{Now: now}); err != nil {
		t.Fatal(err)
	}
	run("run after shrinking")
	if notes, st = run("run after the marker went"); overCapNotes(notes) != 0 || st.OverCap {
		t.Errorf("a run below the cap: notes %q, stats %+v", notes, st)
	}
	if _, st = run("a run after it"); !st.Hit {
		t.Errorf("below the cap again, the cache is not used: stats %+v", st)
	}
}

// TestStoreMarksOverCap: an entry whose lower bound (leastSize) is under
// the cap but whose encoding is not (a finding's fix operations are not
// counted) is found out while it is written: the marker is stored then.
func TestStoreMarksOverCap(t *testing.T) {
	old := maxRunEntry
	maxRunEntry = 4 << 10
	t.Cleanup(func() { maxRunEntry = old })
	store, err := cache.Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	e := &runEntry{Format: entryFormat, Sets: []setEntry{{Name: "s", Fingerprint: strings.Repeat("f", 64),
		Pending: []evaluate.Pending{{Finding: finding.Finding{RuleID: "CKPT101", Severity: finding.Warning, Message: "m",
			Fix: []finding.Op{{Op: "set", Target: "flink", Key: "k", Value: strings.Repeat("v", 8<<10)}}}}}}}}
	if e.leastSize() > maxRunEntry {
		t.Fatalf("leastSize %d: the test needs it under the cap", e.leastSize())
	}
	key := cache.NewHasher("test").String("over").Sum()
	(&Cache{Store: store}).put(e, key)
	if _, ok := store.Get(key); ok {
		t.Error("an entry over the cap was stored")
	}
	if n, ok := overCapSets(store, key); !ok || n != 1 {
		t.Errorf("overCapSets = %d, %v; want the marker of a run of 1 set", n, ok)
	}
}
