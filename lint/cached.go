package lint

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/ckptlint/ckptlint/internal/buildinfo"
	"github.com/ckptlint/ckptlint/lint/cache"
	"github.com/ckptlint/ckptlint/lint/config"
	"github.com/ckptlint/ckptlint/lint/engine"
	"github.com/ckptlint/ckptlint/lint/evaluate"
	"github.com/ckptlint/ckptlint/lint/finding"
	"github.com/ckptlint/ckptlint/lint/inputfs"
	"github.com/ckptlint/ckptlint/lint/model"
	"github.com/ckptlint/ckptlint/lint/parsed"
)

// Cache is the result cache of a run (docs/cache.md). Store nil lints
// without it.
type Cache struct {
	Store *cache.Store
	// Policies are the policy bundle: its Hash is part of every key, its
	// Rules name the rules an ignore comment may name, and its Engine is
	// compiled only when some config set is not in the cache.
	Policies *engine.Lazy
}

// entryFormat is the layout of a run entry; an entry of another layout is
// ignored.
const entryFormat = 1

// runEntry is what the cache keeps for one run: what the run looked at
// (Probes) and, per config set, its findings before the rule blocks of
// .ckptlint.hcl and the inline ignores apply.
type runEntry struct {
	Format  int               `json:"format"`
	Probes  []inputfs.Probe   `json:"probes"`
	Notes   []string          `json:"notes,omitempty"`
	Files   int               `json:"files"`
	Sets    []setEntry        `json:"sets"`
	Sources []evaluate.Source `json:"sources"`
	// Abs maps the display path of each source to the absolute path its
	// bytes were read from.
	Abs map[string]string `json:"abs"`
}

type setEntry struct {
	Name        string             `json:"name"`
	Fingerprint string             `json:"fingerprint"`
	Pending     []evaluate.Pending `json:"pending"`
}

// CacheStats says what the cache did in a run.
type CacheStats struct {
	// Hit: every finding came from the cache and nothing was parsed.
	Hit bool
	// Reused and Evaluated count the config sets whose findings came from
	// the cache after discovery, and those evaluated.
	Reused, Evaluated int
}

// Cached is Lint with the result cache: when nothing the last run with
// the same key looked at has changed, the findings come from the cache
// and nothing is parsed or compiled; otherwise the files are discovered
// and parsed again and only the config sets whose inputs changed are
// evaluated (compiling the policies then). The rule blocks of .ckptlint.hcl
// and the inline ignores are applied afresh on every run. Runs with an
// overlay (fix) do not use the cache. Without a store it is Lint.
func Cached(ctx context.Context, c *Cache, paths []string, opts Options) (*Result, CacheStats, error) {
	if c.Store == nil || opts.Overlay != nil {
		eng, err := c.Policies.Engine(ctx)
		if err != nil {
			return nil, CacheStats{}, err
		}
		res, err := Lint(ctx, eng, paths, opts)
		return res, CacheStats{}, err
	}
	base, ok := baseKey(c, opts)
	if !ok {
		eng, err := c.Policies.Engine(ctx)
		if err != nil {
			return nil, CacheStats{}, err
		}
		res, err := Lint(ctx, eng, paths, opts)
		return res, CacheStats{}, err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, CacheStats{}, fmt.Errorf("working directory: %w", err)
	}
	h := cache.NewHasher("ckptlint run").Bytes(base[:]).String(cwd)
	for _, p := range paths {
		h.String(p)
	}
	key := h.Sum()
	prev := loadEntry(c.Store, key)
	if prev != nil {
		if srcs, ok := replay(prev); ok {
			res, err := fromEntry(c, prev, srcs, opts)
			return res, CacheStats{Hit: true}, err
		}
	}
	return lintAndStore(ctx, c, key, base, prev, paths, opts)
}

// buildVersion names this build of ckptlint: its version, commit and Go
// release (tests replace it).
var buildVersion = func() string {
	bi := buildinfo.Get()
	return bi.Version + "\x00" + bi.Commit + "\x00" + bi.GoVersion
}

// baseKey hashes what every finding of the run depends on besides the
// files: ckptlint's version, the policy bundle, the parts of .ckptlint.hcl
// that feed the model (everything but the rule blocks) and the flags that
// do. false when .ckptlint.hcl cannot be hashed.
func baseKey(c *Cache, opts Options) (cache.Key, bool) {
	h := cache.NewHasher("ckptlint base")
	h.String(buildVersion())
	h.String(c.Policies.Hash())
	if opts.Config != nil {
		cfg := *opts.Config
		cfg.Rules = nil // severities and enable flags apply after the cache
		b, err := json.Marshal(cfg)
		if err != nil {
			return cache.Key{}, false
		}
		h.Bytes(b)
	} else {
		h.String("no .ckptlint.hcl")
	}
	h.String(opts.Versions.Flink).String(opts.Versions.Hadoop).String(opts.Placeholders)
	// Observed facts age with the clock (CKPT609): the day they are judged
	// at is part of the key, so a stale-facts finding appears on its day.
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	h.String(now.UTC().Format("2006-01-02"))
	h.String(strconv.FormatBool(opts.Unbounded))
	return h.Sum(), true
}

// loadEntry reads and checks the run entry under key; nil when there is
// none or it is not one this build wrote.
func loadEntry(s *cache.Store, key cache.Key) *runEntry {
	b, ok := s.Get(key)
	if !ok {
		return nil
	}
	var e runEntry
	if err := json.Unmarshal(b, &e); err != nil || e.Format != entryFormat || !e.valid() {
		return nil
	}
	return &e
}

// valid checks what decoding does not: every probe names an absolute
// path, every source a set of the entry.
func (e *runEntry) valid() bool {
	names := map[string]bool{}
	for _, s := range e.Sets {
		names[s.Name] = true
		for _, p := range s.Pending {
			if p.RuleID == "" || p.Severity < finding.Info || p.Severity > finding.Error || p.Cap < 0 || p.Cap > finding.Error {
				return false
			}
		}
	}
	for _, p := range e.Probes {
		if !filepath.IsAbs(p.Path) {
			return false
		}
	}
	for _, s := range e.Sources {
		if !names[s.Set] || s.Syntax <= 0 {
			return false
		}
	}
	return e.Files >= 0
}

// replay re-executes every probe of e, on GOMAXPROCS goroutines, and
// returns the bytes of the files it re-read by absolute path; false as
// soon as one probe gives another result.
func replay(e *runEntry) (map[string][]byte, bool) {
	workers := max(runtime.GOMAXPROCS(0), 1)
	var mu sync.Mutex
	srcs := map[string][]byte{}
	var failed bool
	var wg sync.WaitGroup
	chunk := (len(e.Probes) + workers - 1) / workers
	for w := range workers {
		lo, hi := w*chunk, min((w+1)*chunk, len(e.Probes))
		if lo >= hi {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := map[string][]byte{}
			r := &inputfs.Replayer{Read: func(p string, b []byte) { local[p] = b }}
			for _, p := range e.Probes[lo:hi] {
				mu.Lock()
				stop := failed
				mu.Unlock()
				if stop {
					return
				}
				if !r.Holds(p) {
					mu.Lock()
					failed = true
					mu.Unlock()
					return
				}
			}
			mu.Lock()
			for k, v := range local {
				srcs[k] = v
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	return srcs, !failed
}

// fromEntry builds the result of a run from a valid entry.
func fromEntry(c *Cache, e *runEntry, srcs map[string][]byte, opts Options) (*Result, error) {
	if opts.Note != nil {
		for _, n := range e.Notes {
			opts.Note(n)
		}
	}
	rules := evaluate.RuleSettings(opts.Config.RuleByID)
	res := &Result{Files: e.Files, Sources: map[string][]byte{}, Cached: true}
	var all []finding.Finding
	for _, s := range e.Sets {
		res.Sets = append(res.Sets, &model.Set{Name: s.Name})
		all = append(all, evaluate.Settle(s.Pending, rules)...)
	}
	sources := make([]evaluate.Source, len(e.Sources))
	for i, s := range e.Sources {
		path, abs := s.Path, e.Abs[s.Path]
		b, ok := srcs[abs]
		if !ok {
			b = readSource(path)
		}
		res.Sources[path] = b
		s.Src = func() []byte { return b }
		sources[i] = s
	}
	if opts.NoInlineIgnores {
		res.Findings = finding.Sort(all)
		return res, nil
	}
	policyRules, err := c.Policies.Rules()
	if err != nil {
		return nil, err
	}
	kept, sup := evaluate.IgnoresIn(sources, policyRules, all, rules)
	res.Findings, res.Suppressed = finding.Sort(kept), finding.Sort(sup)
	return res, nil
}

// readSource reads a file by its display path (relative to the working
// directory unless absolute); nil when it cannot be read.
func readSource(path string) []byte {
	b, _ := inputfs.ReadRegular(filepath.FromSlash(path), parsed.MaxFileSize)
	return b
}

// lintAndStore is a run that discovers and parses: each set whose
// fingerprint the previous entry holds takes its findings from there,
// the others are evaluated, and the new entry is stored.
func lintAndStore(ctx context.Context, c *Cache, key, base cache.Key, prev *runEntry, paths []string, opts Options) (*Result, CacheStats, error) {
	obs := inputfs.NewObserver()
	var notes []string
	note := opts.Note
	opts.Note = func(s string) {
		notes = append(notes, s)
		if note != nil {
			note(s)
		}
	}
	sets, t, err := assembleSetsObserved(paths, opts, obs)
	if err != nil {
		return nil, CacheStats{}, err
	}
	known := map[string][]evaluate.Pending{}
	if prev != nil {
		for _, s := range prev.Sets {
			known[s.Fingerprint] = s.Pending
		}
	}
	entry := &runEntry{Format: entryFormat, Files: t.Len(), Abs: map[string]string{}}
	storable := true
	var miss []int
	pend := make([][]evaluate.Pending, len(sets))
	for i, s := range sets {
		fp, ok := fingerprint(base, s)
		storable = storable && ok
		entry.Sets = append(entry.Sets, setEntry{Name: s.Name, Fingerprint: fp})
		if p, hit := known[fp]; ok && hit {
			pend[i] = p
			continue
		}
		miss = append(miss, i)
	}
	stats := CacheStats{Reused: len(sets) - len(miss), Evaluated: len(miss)}
	if len(miss) > 0 {
		eng, err := c.Policies.Engine(ctx)
		if err != nil {
			return nil, stats, err
		}
		got, err := evaluate.RawAll(ctx, eng, sets, miss, opts.Workers)
		if err != nil {
			return nil, stats, err
		}
		for i, p := range got {
			pend[i] = p
		}
	}
	rules := evaluate.RuleSettings(opts.Config.RuleByID)
	var all []finding.Finding
	for i := range sets {
		all = append(all, evaluate.Settle(pend[i], rules)...)
		entry.Sets[i].Pending = pend[i]
	}
	res := &Result{Sets: sets, Files: t.Len(), Unread: t.Unread()}
	sources := evaluate.Sources(sets, nil)
	if opts.NoInlineIgnores {
		res.Findings = finding.Sort(all)
	} else {
		policyRules, err := c.Policies.Rules()
		if err != nil {
			return nil, stats, err
		}
		kept, sup := evaluate.IgnoresIn(sources, policyRules, all, rules)
		res.Findings, res.Suppressed = finding.Sort(kept), finding.Sort(sup)
	}
	// A run that could not read something is not stored: the next run
	// tries again (and ends with exit code 2 again).
	if storable && len(res.Unread) == 0 {
		entry.Probes = obs.Probes()
		entry.Notes = notes
		cwd, _ := os.Getwd()
		for _, s := range sources {
			s.Src = nil
			entry.Sources = append(entry.Sources, s)
			abs := filepath.FromSlash(s.Path)
			if !filepath.IsAbs(abs) {
				abs = filepath.Join(cwd, abs)
			}
			if r, err := filepath.EvalSymlinks(abs); err == nil {
				abs = r
			}
			entry.Abs[s.Path] = abs
		}
		if b, err := json.Marshal(entry); err == nil {
			_ = c.Store.Put(key, b) // a cache that cannot be written only costs time
		}
	}
	return res, stats, nil
}

// fingerprint hashes everything the findings of one assembled set depend
// on besides base: its name, each file's path, format, bytes, parse
// error, template marks and, for a Hadoop file with xi:include, the
// entries it read through them; the manifest, the Hadoop resources and
// references, the resolved versions and the cluster and deployment facts.
func fingerprint(base cache.Key, s *model.Set) (string, bool) {
	type fileDoc struct {
		Path     string             `json:"path"`
		Format   parsed.Format      `json:"format"`
		Sum      string             `json:"sum"`
		Err      *parsed.ParseError `json:"err,omitempty"`
		Template *parsed.Template   `json:"template,omitempty"`
		Includes []string           `json:"includes,omitempty"`
		Entries  []parsed.Entry     `json:"entries,omitempty"`
		Notices  []parsed.Notice    `json:"notices,omitempty"`
		Nested   bool               `json:"nested,omitempty"`
	}
	file := func(f *parsed.File) *fileDoc {
		if f == nil {
			return nil
		}
		sum := sha256.Sum256(f.Src)
		d := &fileDoc{Path: f.Path, Format: f.Format, Sum: hex.EncodeToString(sum[:]), Err: f.Err, Template: f.Template,
			Includes: f.Includes, Notices: f.Notices, Nested: f.Nested}
		if len(f.Includes) > 0 {
			d.Entries = f.Entries
		}
		return d
	}
	type resDoc struct {
		File *fileDoc `json:"file"`
		Via  string   `json:"via"`
		Dir  string   `json:"dir"`
	}
	doc := struct {
		Name           string             `json:"name"`
		Flink          *fileDoc           `json:"flink"`
		FlinkIgnored   *fileDoc           `json:"flink_ignored"`
		Manifest       *model.Manifest    `json:"manifest"`
		Client         []resDoc           `json:"client"`
		ClusterHDFS    *fileDoc           `json:"cluster_hdfs"`
		HadoopConfRefs []model.ConfRef    `json:"refs"`
		FlinkVersion   model.Resolved     `json:"flink_version"`
		HadoopVersion  model.Resolved     `json:"hadoop_version"`
		Cluster        *config.Cluster    `json:"cluster"`
		Deployment     *config.Deployment `json:"deployment"`
	}{Name: s.Name, Flink: file(s.Flink), FlinkIgnored: file(s.FlinkIgnored), Manifest: s.Manifest, ClusterHDFS: file(s.ClusterHDFS),
		HadoopConfRefs: s.HadoopConfRefs, FlinkVersion: s.FlinkVersion, HadoopVersion: s.HadoopVersion, Cluster: s.Cluster, Deployment: s.Deployment}
	for _, r := range s.Client {
		doc.Client = append(doc.Client, resDoc{File: file(r.File), Via: r.Via, Dir: r.Dir})
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return "", false
	}
	k := cache.NewHasher("ckptlint set").Bytes(base[:]).Bytes(b).Sum()
	return k.String(), true
}
