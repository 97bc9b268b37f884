package lint_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ckptlint/ckptlint/internal/cache"
	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/inputfs"
	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/internal/rule"
	"github.com/ckptlint/ckptlint/lint"
)

var (
	lazyOnce sync.Once
	lazyEng  *engine.Lazy
)

// embeddedLazy is one lazy engine over the embedded bundle for the whole
// test binary: compiled at most once.
func embeddedLazy(t *testing.T) *engine.Lazy {
	t.Helper()
	lazyOnce.Do(func() {
		var err error
		if lazyEng, err = engine.NewLazy(engine.Options{}); err != nil {
			t.Fatal(err)
		}
	})
	return lazyEng
}

// resultJSON is everything of a result the reporters read, as bytes.
func resultJSON(t *testing.T, res *lint.Result) string {
	t.Helper()
	var names []string
	for _, s := range res.Sets {
		names = append(names, s.Name)
	}
	// The bytes the reporters read for each file a finding names: the
	// result's Sources, or (a run keeping its sets) the sets' files, as
	// `ckptlint lint` takes them.
	sources := res.Sources
	if sources == nil {
		sources = map[string][]byte{}
		for _, s := range res.Sets {
			for _, f := range s.Files() {
				sources[f.Path] = f.Src
				if f.Embed != nil {
					sources[f.Path] = f.Embed.Container
				}
			}
		}
	}
	shown := map[string]string{}
	for _, f := range slices.Concat(res.Findings, res.Suppressed) {
		if b, ok := sources[f.Range.File]; ok {
			shown[f.Range.File] = string(b)
		}
	}
	b, err := json.MarshalIndent(struct {
		Findings, Suppressed any
		Files                int
		Unread               []string
		Sets                 []string
		Shown                map[string]string
	}{res.Findings, res.Suppressed, res.Files, res.Unread, names, shown}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// cachedTwice lints the working directory without the cache, then twice
// with store: the results must be byte-identical, and the second run must
// come from the cache unless something could not be read.
func cachedTwice(t *testing.T, name string, store *cache.Store, opts lint.Options) {
	t.Helper()
	c := &lint.Cache{Store: store, Policies: embeddedLazy(t)}
	eng, err := c.Policies.Engine(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	plain, err := lint.Lint(context.Background(), eng, nil, opts)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	want := resultJSON(t, plain)
	lintRun := func(o lint.Options) (*lint.Result, error) { return lint.Lint(context.Background(), eng, nil, o) }
	if got := resultJSON(t, reported(t, name+": with Report", opts, lintRun)); got != want {
		t.Errorf("%s: the groups of a run with Report differ from its result without:\n--- without\n%s\n--- with\n%s", name, want, got)
	}
	for run := range 2 {
		// The first run with the cache hands its groups on as it goes
		// (Options.Report); the second, from the cache, at its end: run
		// twice, without Report and then with it.
		var st lint.CacheStats
		cachedRun := func(o lint.Options) (*lint.Result, error) {
			res, s, err := lint.Cached(context.Background(), c, nil, o)
			st = s
			return res, err
		}
		var res *lint.Result
		if run == 0 {
			res = reported(t, fmt.Sprintf("%s: cached run %d with Report", name, run), opts, cachedRun)
		} else {
			var err error
			if res, err = cachedRun(opts); err != nil {
				t.Fatalf("%s: cached run %d: %v", name, run, err)
			}
			if got := resultJSON(t, reported(t, name+": cache hit with Report", opts, cachedRun)); got != want {
				t.Errorf("%s: a cache hit with Report differs from the run without the cache:\n--- without\n%s\n--- with\n%s", name, want, got)
			}
		}
		if got := resultJSON(t, res); got != want {
			t.Errorf("%s: cached run %d differs from the run without the cache:\n--- without\n%s\n--- with\n%s", name, run, want, got)
		}
		// A run with an unread file or a fix leftover in the tree
		// (CKPT005) is not kept (docs/suppressions.md).
		if wantHit := wantHitOf(run, plain); st.Hit != wantHit {
			t.Errorf("%s: run %d: cache hit %v, want %v", name, run, st.Hit, wantHit)
		}
		if run == 1 {
			// Without Sources (Options.NoSources: no report reads them)
			// the hit reads no file again, and gives the same findings.
			ns := opts
			ns.NoSources = true
			got := reported(t, name+": cache hit without sources", ns, cachedRun)
			if len(got.Sources) != 0 {
				t.Errorf("%s: a cache hit with NoSources hands on sources", name)
			}
			if st.Hit != wantHitOf(run, plain) {
				t.Errorf("%s: NoSources: cache hit %v", name, st.Hit)
			}
			if a, b := findingsJSON(t, plain), findingsJSON(t, got); a != b {
				t.Errorf("%s: a cache hit with NoSources differs from the run without the cache:\n--- without\n%s\n--- with\n%s", name, a, b)
			}
		}
		for _, o := range []bool{true, false} {
			if run == 0 {
				break
			}
			// The inline ignores apply after the cache, both ways.
			opts2 := opts
			opts2.NoInlineIgnores = o
			plain2, err := lint.Lint(context.Background(), eng, nil, opts2)
			if err != nil {
				t.Fatal(err)
			}
			res2, _, err := lint.Cached(context.Background(), c, nil, opts2)
			if err != nil {
				t.Fatal(err)
			}
			if resultJSON(t, plain2) != resultJSON(t, res2) {
				t.Errorf("%s: NoInlineIgnores=%v: cached result differs", name, o)
			}
		}
	}
}

// wantHitOf says whether the cached run number run (0, 1) of a working
// directory whose run without the cache gave plain comes from the cache.
func wantHitOf(run int, plain *lint.Result) bool {
	leftover := slices.ContainsFunc(plain.Findings, func(f finding.Finding) bool { return f.RuleID == rule.FixLeftover })
	return run == 1 && len(plain.Unread) == 0 && !leftover
}

// findingsJSON is a result's findings and suppressed findings, as bytes.
func findingsJSON(t *testing.T, res *lint.Result) string {
	t.Helper()
	b, err := json.MarshalIndent([]any{res.Findings, res.Suppressed}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// lintDirs are the directories of testdata a test lints from inside.
func lintDirs(t *testing.T) []string {
	t.Helper()
	root, _ := filepath.Abs("../testdata")
	var dirs []string
	add := func(glob string) {
		m, err := filepath.Glob(filepath.Join(root, glob))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range m {
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				dirs = append(dirs, d)
			}
		}
	}
	for _, g := range []string{"rules/*/bad", "rules/*/good", "stories/*", "stories-fixed/*", "templates/*", "suppress/*", "k8s", "realworld/*"} {
		add(g)
	}
	if len(dirs) < 50 {
		t.Fatalf("%d directories under %s; the globs no longer match the test data", len(dirs), root)
	}
	return dirs
}

// TestCacheIdentical lints every fixture directory of testdata without the
// cache, with it cold and with it warm: the results are byte-identical,
// collected and streamed (Options.Report, what `ckptlint lint` does:
// cachedTwice runs both).
func TestCacheIdentical(t *testing.T) {
	store, err := cache.Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range lintDirs(t) {
		t.Chdir(d)
		rel, _ := filepath.Rel(filepath.Dir(filepath.Dir(d)), d)
		cachedTwice(t, rel, store, lint.Options{Config: linttest.LoadConfig(t, ".")})
	}
}

// TestCacheCorpus is TestCacheIdentical over ../shared/corpus (skipped
// when absent), each file alone under its real name, as TestCorpus lints it.
func TestCacheCorpus(t *testing.T) {
	store, err := cache.Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	eachCorpusFile(t, func(label, _ string) {
		cachedTwice(t, label, store, lint.Options{})
	})
}

// writeTree writes files (slash paths) below dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCacheInvalidation changes one input at a time after a warm run: each
// change that can change a finding must make the next run miss and give
// what a run without the cache gives; a rule block's severity and the
// inline-ignore switch must not make it miss, and still apply.
func TestCacheInvalidation(t *testing.T) {
	base := map[string]string{
		".git/HEAD":  "ref: refs/heads/main\n",
		"Dockerfile": "FROM flink:1.18.1\n",
		"conf/flink-conf.yaml": "state.backend.type: rocksdb\nstate.checkpoints.dir: hdfs://nn:8020/flink/checkpoints\n" +
			"execution.checkpointing.interval: 10 s\nexecution.checkpointing.timeout: 5 s\n",
		"conf/core-site.xml": "<configuration>\n<property><name>fs.defaultFS</name><value>hdfs://nn:8020</value></property>\n</configuration>\n",
		"conf/hdfs-site.xml": "<configuration xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n<xi:include href=\"extra.xml\"/>\n" +
			"<property><name>dfs.replication</name><value>3</value></property>\n</configuration>\n",
		"conf/extra.xml":     "<configuration>\n<property><name>dfs.blocksize</name><value>128m</value></property>\n</configuration>\n",
		"policy/custom.rego": "package ckptlint.user.helpers\n\nimport rego.v1\n\nx := 1\n",
		".ckptlint.hcl":      "cluster \"prod\" {\n  datanodes = 3\n}\n",
	}
	type step struct {
		name    string
		change  func(t *testing.T, dir string, opts *lint.Options, c **lint.Cache)
		wantHit bool
	}
	write := func(p, s string) func(t *testing.T, dir string, _ *lint.Options, _ **lint.Cache) {
		return func(t *testing.T, dir string, _ *lint.Options, _ **lint.Cache) {
			writeTree(t, dir, map[string]string{p: s})
		}
	}
	reloadConfig := func(hcl string) func(t *testing.T, dir string, opts *lint.Options, _ **lint.Cache) {
		return func(t *testing.T, dir string, opts *lint.Options, _ **lint.Cache) {
			writeTree(t, dir, map[string]string{".ckptlint.hcl": hcl})
			opts.Config = linttest.LoadConfig(t, ".")
		}
	}
	steps := []step{
		{"nothing changed", func(*testing.T, string, *lint.Options, **lint.Cache) {}, true},
		{"flink-conf.yaml content", write("conf/flink-conf.yaml", strings.Replace(base["conf/flink-conf.yaml"], "5 s", "1 min", 1)), false},
		{"core-site.xml content", write("conf/core-site.xml", strings.Replace(base["conf/core-site.xml"], "nn:8020", "other:8020", 1)), false},
		{"hdfs-site.xml content", write("conf/hdfs-site.xml", strings.Replace(base["conf/hdfs-site.xml"], "<value>3</value>", "<value>1</value>", 1)), false},
		{"xi:include target", write("conf/extra.xml", strings.Replace(base["conf/extra.xml"], "128m", "1k", 1)), false},
		{"version evidence (Dockerfile)", write("Dockerfile", "FROM flink:2.0.0\n"), false},
		{"a new file where discovery looks (config.yaml)", write("conf/config.yaml", "execution.checkpointing.interval: 1 min\n"), false},
		{"a new config set in a new directory", write("other/flink-conf.yaml", "execution.checkpointing.interval: 1 s\n"), false},
		{"a file removed", func(t *testing.T, dir string, _ *lint.Options, _ **lint.Cache) {
			if err := os.Remove(filepath.Join(dir, "other/flink-conf.yaml")); err != nil {
				t.Fatal(err)
			}
		}, false},
		{".ckptlint.hcl fact", reloadConfig("cluster \"prod\" {\n  datanodes = 1\n}\n"), false},
		{".ckptlint.hcl rule severity", reloadConfig("cluster \"prod\" {\n  datanodes = 1\n}\nrule \"CKPT004\" {\n  severity = \"error\"\n}\n"), true},
		{".ckptlint.hcl rule disabled", reloadConfig("cluster \"prod\" {\n  datanodes = 1\n}\nrule \"CKPT004\" {\n  enabled = false\n}\n"), true},
		{"--flink-version", func(_ *testing.T, _ string, opts *lint.Options, _ **lint.Cache) { opts.Versions.Flink = "1.20" }, false},
		{"--hadoop-version", func(_ *testing.T, _ string, opts *lint.Options, _ **lint.Cache) { opts.Versions.Hadoop = "3.3.6" }, false},
		{"--placeholders", func(_ *testing.T, _ string, opts *lint.Options, _ **lint.Cache) {
			opts.Placeholders = lint.PlaceholdersLiteral
		}, false},
		{"--no-inline-ignores", func(_ *testing.T, _ string, opts *lint.Options, _ **lint.Cache) { opts.NoInlineIgnores = true }, true},
		{"policy file", func(t *testing.T, dir string, _ *lint.Options, c **lint.Cache) {
			writeTree(t, dir, map[string]string{"policy/custom.rego": "package ckptlint.user.helpers\n\nimport rego.v1\n\nx := 2\n"})
			lz, err := engine.NewLazy(engine.Options{PolicyDirs: []string{filepath.Join(dir, "policy")}})
			if err != nil {
				t.Fatal(err)
			}
			*c = &lint.Cache{Store: (*c).Store, Policies: lz}
		}, false},
		{"ckptlint version", func(t *testing.T, _ string, _ *lint.Options, _ **lint.Cache) {
			lint.SetBuildVersionForTest(t, "v9.9.9")
		}, false},
	}
	dir := t.TempDir()
	writeTree(t, dir, base)
	t.Chdir(dir)
	store, err := cache.Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	lz, err := engine.NewLazy(engine.Options{PolicyDirs: []string{filepath.Join(dir, "policy")}})
	if err != nil {
		t.Fatal(err)
	}
	c := &lint.Cache{Store: store, Policies: lz}
	opts := lint.Options{Config: linttest.LoadConfig(t, ".")}
	check := func(name string, wantHit bool) {
		t.Helper()
		eng, err := c.Policies.Engine(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		plain, err := lint.Lint(context.Background(), eng, nil, opts)
		if err != nil {
			t.Fatal(err)
		}
		res, st, err := lint.Cached(context.Background(), c, nil, opts)
		if err != nil {
			t.Fatal(err)
		}
		if st.Hit != wantHit {
			t.Errorf("%s: cache hit %v, want %v", name, st.Hit, wantHit)
		}
		if want, got := resultJSON(t, plain), resultJSON(t, res); want != got {
			t.Errorf("%s: cached result differs from the run without the cache:\n--- without\n%s\n--- with\n%s", name, want, got)
		}
	}
	check("first run", false)
	for _, s := range steps {
		s.change(t, dir, &opts, &c)
		check(s.name, s.wantHit)
		if !s.wantHit {
			check(s.name+", run again", true)
		}
	}
}

// TestCacheSetReuse edits one file of many config sets: only its set is
// evaluated again, the others' findings come from the cache.
func TestCacheSetReuse(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{".git/HEAD": "ref: refs/heads/main\n"}
	for _, n := range []string{"a", "b", "c", "d"} {
		files[n+"/flink-conf.yaml"] = "execution.checkpointing.interval: 10 s\nexecution.checkpointing.timeout: 5 s\n"
	}
	writeTree(t, dir, files)
	t.Chdir(dir)
	store, err := cache.Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	c := &lint.Cache{Store: store, Policies: embeddedLazy(t)}
	if _, st, err := lint.Cached(context.Background(), c, nil, lint.Options{}); err != nil || st.Evaluated != 4 {
		t.Fatalf("cold run: %+v, %v; want 4 sets evaluated", st, err)
	}
	writeTree(t, dir, map[string]string{"c/flink-conf.yaml": "execution.checkpointing.interval: 1 min\n"})
	_, st, err := lint.Cached(context.Background(), c, nil, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Hit || st.Evaluated != 1 || st.Reused != 3 {
		t.Errorf("one file edited: %+v, want 1 set evaluated and 3 reused", st)
	}
}

// oneSetCached lints a one-set tree in a temporary working directory with
// a result cache of its own: the cache, its directory and the result.
func oneSetCached(t *testing.T) (c *lint.Cache, cdir, want string) {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"conf/flink-conf.yaml": "execution.checkpointing.interval: 10 s\nexecution.checkpointing.timeout: 5 s\n"})
	t.Chdir(dir)
	cdir = t.TempDir()
	store, err := cache.Open(cdir, 0)
	if err != nil {
		t.Fatal(err)
	}
	c = &lint.Cache{Store: store, Policies: embeddedLazy(t)}
	first, _, err := lint.Cached(context.Background(), c, nil, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c, cdir, resultJSON(t, first)
}

// TestCacheBadEntries damages the stored run entry in each way a cache
// directory on a runner can hold: the next run ignores it, lints from
// scratch and gives the right result.
func TestCacheBadEntries(t *testing.T) {
	c, cdir, want := oneSetCached(t)
	// An entry is two files: its head and its sets (lint/cache.go,
	// entryFormat 9); either damaged makes the run afresh.
	entries, _ := filepath.Glob(filepath.Join(cdir, "*", "*-e"))
	if len(entries) != 2 {
		t.Fatalf("%d entries in the cache, want 2 (the head and the sets)", len(entries))
	}
	for _, entry := range entries {
		good, err := os.ReadFile(entry)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []struct {
			name string
			b    []byte
		}{
			{"truncated", good[:len(good)/2]},
			{"empty", nil},
			{"a byte changed", func() []byte { b := append([]byte(nil), good...); b[len(b)-3] ^= 1; return b }()},
			{"foreign format", append([]byte("CKPTLC99"), good[8:]...)},
			{"not JSON", []byte("garbage")},
		} {
			if err := os.WriteFile(entry, bad.b, 0o600); err != nil {
				t.Fatal(err)
			}
			res, st, err := lint.Cached(context.Background(), c, nil, lint.Options{})
			if err != nil {
				t.Fatalf("%s: %v", bad.name, err)
			}
			if st.Hit {
				t.Errorf("%s %s: the damaged entry was used", filepath.Base(entry), bad.name)
			}
			if got := resultJSON(t, res); got != want {
				t.Errorf("%s: result differs:\n%s\nwant\n%s", bad.name, got, want)
			}
		}
		// The run rewrote both; each next round damages one of them.
	}
}

// newCache is an empty result cache over the embedded policies, and
// their engine for runs without it.
func newCache(t *testing.T) (*lint.Cache, *engine.Engine) {
	t.Helper()
	store, err := cache.Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	c := &lint.Cache{Store: store, Policies: embeddedLazy(t)}
	eng, err := c.Policies.Engine(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return c, eng
}

// sameAsPlain lints the working directory with the cache and without it
// and fails the test (naming what) unless the results are byte-identical.
func sameAsPlain(t *testing.T, what string, c *lint.Cache, eng *engine.Engine, opts lint.Options) (*lint.Result, lint.CacheStats) {
	t.Helper()
	plain, err := lint.Lint(context.Background(), eng, nil, opts)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	res, st, err := lint.Cached(context.Background(), c, nil, opts)
	if err != nil {
		t.Fatalf("%s: cached: %v", what, err)
	}
	if want, got := resultJSON(t, plain), resultJSON(t, res); want != got {
		t.Errorf("%s (%+v): cached result differs from the run without the cache:\n--- without\n%s\n--- with\n%s", what, st, want, got)
	}
	return res, st
}

// TestCacheEditedIdentical copies every fixture directory, fills the
// cache, then edits its configuration files one at a time (a comment
// appended, then the file cut in half, which often breaks it): after each
// edit the cached run (incremental or afresh) must give byte for byte
// what a run without the cache gives.
func TestCacheEditedIdentical(t *testing.T) {
	c, eng := newCache(t)
	incremental := 0
	for _, src := range lintDirs(t) {
		name, _ := filepath.Rel(filepath.Join(src, "../.."), src)
		dir := filepath.Join(t.TempDir(), "repo")
		linttest.CopyTree(t, src, dir, nil)
		if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Chdir(dir)
		opts := lint.Options{Config: linttest.LoadConfig(t, ".")}
		check := func(what string) {
			t.Helper()
			if _, st := sameAsPlain(t, name+", "+what, c, eng, opts); st.Incremental {
				incremental++
			}
		}
		check("first run")
		checkNoSources := func(what string) {
			t.Helper()
			ns := opts
			ns.NoSources = true
			plain, err := lint.Lint(context.Background(), eng, nil, ns)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			res, st, err := lint.Cached(context.Background(), c, nil, ns)
			if err != nil {
				t.Fatalf("%s: cached: %v", what, err)
			}
			if st.Incremental {
				incremental++
			}
			if want, got := findingsJSON(t, plain), findingsJSON(t, res); want != got || len(res.Sources) != 0 {
				t.Errorf("%s (%+v): cached result differs from the run without the cache (or has sources):\n--- without\n%s\n--- with\n%s", what, st, want, got)
			}
		}
		var files []string
		_ = filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".xml")) {
				files = append(files, p)
			}
			return nil
		})
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			comment := "\n# edited\n"
			if strings.HasSuffix(f, ".xml") {
				comment = "\n<!-- edited -->\n"
			}
			writeTree(t, dir, map[string]string{f: string(b) + comment})
			check(f + " with a comment appended")
			// Incremental without Sources too (Options.NoSources).
			writeTree(t, dir, map[string]string{f: string(b) + comment + comment})
			checkNoSources(f + " with two comments appended, NoSources")
			writeTree(t, dir, map[string]string{f: string(b[:len(b)/2])})
			check(f + " cut in half")
			writeTree(t, dir, map[string]string{f: string(b)})
			check(f + " restored")
		}
	}
	if incremental == 0 {
		t.Error("no edit was taken incrementally")
	}
	t.Logf("%d runs incremental", incremental)
}

// TestCacheFactsClock: with a facts block in .ckptlint.hcl, runs a second
// apart come from the cache and read the same; the run at which the block
// turns stale misses and gives what a run without the cache gives.
func TestCacheFactsClock(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		".git/HEAD":            "ref: refs/heads/main\n",
		"conf/flink-conf.yaml": "execution.checkpointing.interval: 10 s\nstate.checkpoints.dir: hdfs://nn:8020/ck\n",
		".ckptlint.hcl": "facts_max_age = \"30d\"\ncluster \"prod\" {\n  datanodes = 3\n  facts \"namenode\" {\n" +
			"    source = \"http://nn:9870/jmx\"\n    observed_at = \"2026-11-01T08:00:00Z\"\n    attributes = [\"datanodes\"]\n  }\n}\n",
	})
	t.Chdir(dir)
	c, eng := newCache(t)
	cfg := linttest.LoadConfig(t, ".")
	for _, step := range []struct {
		now     string
		wantHit bool
	}{
		{"2026-11-30T20:00:00Z", false}, // 29 days: fresh
		{"2026-11-30T20:00:01Z", true},
		{"2026-12-01T07:59:59Z", false}, // another day
		{"2026-12-01T08:00:01Z", false}, // 30 days and a second: stale
		{"2026-12-01T08:00:02Z", true},
	} {
		now, err := time.Parse(time.RFC3339, step.now)
		if err != nil {
			t.Fatal(err)
		}
		res, st := sameAsPlain(t, step.now, c, eng, lint.Options{Config: cfg, Now: now})
		if st.Hit != step.wantHit {
			t.Errorf("%s: hit %v, want %v", step.now, st.Hit, step.wantHit)
		}
		stale := strings.Contains(resultJSON(t, res), "CKPT609")
		if wantStale := step.now >= "2026-12-01T08:00:01Z"; stale != wantStale {
			t.Errorf("%s: CKPT609 reported %v, want %v", step.now, stale, wantStale)
		}
	}
}

// TestCacheIncrementalBudgets: an edit in a run whose per-run read budgets
// were spent in walk order is made whole, not incrementally, and gives
// what a run without the cache gives (found by review). The evidence
// search's 1,000 files are spent by a/ before b/'s Dockerfile; five files
// of 13 MB, one grown to 16 MB, pass discovery's 64 MiB.
func TestCacheIncrementalBudgets(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and lints 80 MB")
	}
	big := func(n int) string {
		return "execution.checkpointing.interval: 1 min\n# " + strings.Repeat("x", n) + "\n"
	}
	evidence := map[string]string{
		".git/HEAD":         "ref: refs/heads/main\n",
		"a/flink-conf.yaml": "state.checkpoints.dir: hdfs://nn:8020/cp\n",
		"b/Dockerfile":      "FROM flink:1.17.1\n",
		"b/flink-conf.yaml": "state.backend.incremental: true\nstate.checkpoints.dir: hdfs://nn:8020/cp\n",
	}
	for i := range 1000 {
		evidence[fmt.Sprintf("a/s%d.sh", i)] = "echo hi\n"
	}
	input := map[string]string{".git/HEAD": "ref: refs/heads/main\n"}
	for _, d := range []string{"a", "b", "c", "d", "e"} {
		input[d+"/flink-conf.yaml"] = big(13_000_000)
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		edit  map[string]string
	}{
		{"evidence search", evidence, map[string]string{"b/flink-conf.yaml": "state.backend.incremental: false\nstate.checkpoints.dir: hdfs://nn:8020/cp\n"}},
		{"input budget", input, map[string]string{"e/flink-conf.yaml": big(16_000_000)}},
	} {
		c, eng := newCache(t)
		dir := t.TempDir()
		writeTree(t, dir, tc.files)
		t.Chdir(dir)
		opts := lint.Options{Config: linttest.LoadConfig(t, ".")}
		sameAsPlain(t, tc.name+", first run", c, eng, opts)
		writeTree(t, dir, tc.edit)
		if _, st := sameAsPlain(t, tc.name+", edited", c, eng, opts); st.Incremental {
			t.Errorf("%s: taken incrementally (%+v)", tc.name, st)
		}
	}
}

// TestCacheUpgradeHeadOnly: a hit that finds files old enough to trust by
// their stat signature now rewrites the entry's head alone (its sets are
// unchanged), whether stored reports answered it (Options.Replay) or the
// stored findings did; the next run is still a hit, with the same result.
func TestCacheUpgradeHeadOnly(t *testing.T) {
	for _, replayed := range []bool{true, false} {
		c, cdir, want := oneSetCached(t)
		c.Wait()
		_, id, ok := c.Reported()
		if !ok {
			t.Fatal("the first run's result is in no entry")
		}
		contents := func() map[string]string {
			m := map[string]string{}
			files, _ := filepath.Glob(filepath.Join(cdir, "*", "*-e"))
			for _, f := range files {
				b, _ := os.ReadFile(f)
				m[f] = string(b)
			}
			return m
		}
		before := contents()
		// The files were written within inputfs.RacyWindow of the first
		// run: checked by their bytes, recorded without a signature.
		time.Sleep(inputfs.RacyWindow + 100*time.Millisecond)
		opts := lint.Options{}
		asked := false
		if replayed {
			opts.Replay = func(run, entry cache.Key) bool { asked = true; return true }
		}
		// The sets, old in the eviction order: a replay does not read
		// them, and still keeps them (cache.Store.Touch).
		old := time.Now().Add(-3 * time.Hour)
		for f := range before {
			if err := os.Chtimes(f, old, old); err != nil {
				t.Fatal(err)
			}
		}
		_, st, err := lint.Cached(context.Background(), c, nil, opts)
		if err != nil || !st.Hit || replayed && !asked {
			t.Fatalf("replayed %v: second run: hit %v, asked %v, %v", replayed, st.Hit, asked, err)
		}
		c.Wait()
		// What a caller made of the findings still holds: they are the same.
		if _, again, ok := c.Reported(); !ok || again != id {
			t.Errorf("replayed %v: the upgraded entry is reported as other findings (%v)", replayed, ok)
		}
		after := contents()
		changed := 0
		for f, b := range before {
			if after[f] != b {
				changed++
			}
		}
		if len(after) != len(before) || changed != 1 {
			t.Errorf("replayed %v: %d of %d entries rewritten, want the head alone", replayed, changed, len(before))
		}
		for f := range before {
			if st, err := os.Stat(f); err != nil || time.Since(st.ModTime()) > time.Hour {
				t.Errorf("replayed %v: %s left old in the eviction order", replayed, filepath.Base(f))
			}
		}
		third, st, err := lint.Cached(context.Background(), c, nil, lint.Options{})
		if err != nil || !st.Hit {
			t.Fatalf("replayed %v: the run after the upgrade: hit %v, %v", replayed, st.Hit, err)
		}
		if got := resultJSON(t, third); got != want {
			t.Errorf("replayed %v: result after the upgrade differs:\n%s\nwant\n%s", replayed, got, want)
		}
	}
}

// TestCacheEditsKeepEntrySize: edits taken incrementally, one after the
// other, write entries of one size. The head used to keep the earlier
// entry's list of files and append the list again, growing by every file
// a finding names on every edit until the entry passed its cap and the
// tree went uncached (about 50 edits on the 2,000-set bench tree).
func TestCacheEditsKeepEntrySize(t *testing.T) {
	// In the background too, as `ckptlint lint` stores entries: an edited
	// run's entry is then written while its result is reported.
	for _, background := range []bool{false, true} {
		t.Run(fmt.Sprintf("background=%v", background), func(t *testing.T) { editsKeepEntrySize(t, background) })
	}
}

func editsKeepEntrySize(t *testing.T, background bool) {
	dir := t.TempDir()
	files := map[string]string{".git/HEAD": "ref: refs/heads/main\n"}
	for i := range 3 {
		files[fmt.Sprintf("job%d/conf/flink-conf.yaml", i)] = "execution.checkpointing.interval: 10 s\n" +
			"execution.checkpointing.timeout: 5 s\nstate.checkpoints.dir: hdfs://nn:8020/ckpt\n"
		files[fmt.Sprintf("job%d/conf/hdfs-site.xml", i)] = "<configuration>\n" +
			"<property><name>dfs.datanode.directoryscan.interval</name><value>60</value></property>\n</configuration>\n"
	}
	writeTree(t, dir, files)
	t.Chdir(dir)
	cdir := t.TempDir()
	store, err := cache.Open(cdir, 0)
	if err != nil {
		t.Fatal(err)
	}
	c := &lint.Cache{Store: store, Policies: embeddedLazy(t), Background: background}
	size := func() int64 {
		c.Wait()
		var n int64
		entries, _ := filepath.Glob(filepath.Join(cdir, "*", "*-e"))
		for _, f := range entries {
			if st, err := os.Stat(f); err == nil {
				n += st.Size()
			}
		}
		return n
	}
	if _, _, err := lint.Cached(context.Background(), c, nil, lint.Options{}); err != nil {
		t.Fatal(err)
	}
	var sizes []int64
	for i := range 5 {
		// Values of one length: the findings' bytes are the same size.
		writeTree(t, dir, map[string]string{"job0/conf/flink-conf.yaml": fmt.Sprintf("execution.checkpointing.interval: 2%d s\n"+
			"execution.checkpointing.timeout: 5 s\nstate.checkpoints.dir: hdfs://nn:8020/ckpt\n", i)})
		_, st, err := lint.Cached(context.Background(), c, nil, lint.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !st.Incremental {
			t.Fatalf("edit %d: not taken incrementally (%+v)", i, st)
		}
		sizes = append(sizes, size())
	}
	// Within a few bytes (gob's variable-length integers for times and
	// stat signatures): the list of six files is about 300 bytes.
	for i, n := range sizes {
		if n-sizes[0] > 64 || sizes[0]-n > 64 {
			t.Errorf("cache size after each edit %v: edit %d grew it", sizes, i)
			break
		}
	}
}
