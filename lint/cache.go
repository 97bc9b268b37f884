package lint

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ckptlint/ckptlint/internal/assemble"
	"github.com/ckptlint/ckptlint/internal/buildinfo"
	"github.com/ckptlint/ckptlint/internal/cache"
	"github.com/ckptlint/ckptlint/internal/config"
	"github.com/ckptlint/ckptlint/internal/deploy/render"
	"github.com/ckptlint/ckptlint/internal/discover"
	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/internal/evaluate"
	"github.com/ckptlint/ckptlint/internal/evidence"
	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/inputfs"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/testhook"
)

// Cache is the result cache of a run (docs/cache.md). Store nil lints
// without it.
//
// The cache wraps the pipeline of Lint and changes none of its steps:
//
//   - the run's file system records every answer it gives
//     (inputfs.Record), and the entry keeps those probes with each set's
//     result (runEntry);
//   - a run whose probes all still hold is answered from the entry
//     (fromEntry: the report stage over the stored results, nothing
//     parsed or compiled);
//   - after a few files changed, the pipeline runs over the directories
//     of the sets holding them (incremental) and the other sets' stored
//     results are spliced in;
//   - otherwise the pipeline runs whole (fresh); either way the per-set
//     step skips the sets whose fingerprint the entry holds (step).
type Cache struct {
	Store *cache.Store
	// Policies are the policy bundle: its Hash is part of every key, its
	// Rules name the rules an ignore comment may name, and its Engine is
	// compiled only when some config set is not in the cache.
	Policies *engine.Lazy
	// Background writes a run's entry on a goroutine of its own, while the
	// caller reports the result; Wait waits for it, and must be called
	// before the process exits (`ckptlint lint` does, then Trim). The
	// write is atomic either way (internal/cache).
	Background bool
	writes     sync.WaitGroup

	// reported names the result the last run reported (Reported).
	reportedMu sync.Mutex
	reported   struct {
		run, entry cache.Key
		ok         bool
	}
}

// Reported names the result the last run of Cached reported, once Wait
// returned: the run's key and the name of the findings of the cache entry
// that holds that result (loaded, or written by the run: entryID); false when no entry holds
// it (no store, a run the cache did not answer or store, a write that
// failed). A caller that keeps what it made of the result (the CLI's
// stored reports) keeps it under these, and Options.Replay is asked with
// the same two when a later run is answered by that entry.
func (c *Cache) Reported() (run, entry cache.Key, ok bool) {
	c.reportedMu.Lock()
	defer c.reportedMu.Unlock()
	r := c.reported
	return r.run, r.entry, r.ok
}

// report records that the run's result is the entry whose findings are
// named id (ok), or is in no entry (!ok).
func (c *Cache) report(id cache.Key, ok bool) {
	c.reportedMu.Lock()
	c.reported.entry, c.reported.ok = id, ok
	c.reportedMu.Unlock()
}

// Wait waits for the entries being written in the background.
func (c *Cache) Wait() { c.writes.Wait() }

// put stores e under key, in the background when c.Background is set;
// nothing may change e after. A cache that cannot be written only costs
// time, so the error is dropped; an entry over its cap is recorded as such
// (markOverCap).
func (c *Cache) put(e *runEntry, key cache.Key) { c.putGated(e, key, nil) }

// errPutWithdrawn ends a gated put whose entry is not to be stored.
var errPutWithdrawn = errors.New("the entry was withdrawn")

// putEarly starts storing e under key before the caller knows whether it
// is to be stored: in the background, its sets are encoded and written
// while the caller reports the result, and commit(true) puts them in
// place (commit(false) drops them). Nothing may change e after. Without
// c.Background, nothing happens before commit, which then stores e as
// put does.
func (c *Cache) putEarly(e *runEntry, key cache.Key) (commit func(ok bool)) {
	if !c.Background {
		return func(ok bool) {
			if ok {
				c.put(e, key)
			}
		}
	}
	gate := make(chan bool, 1)
	c.putGated(e, key, gate)
	return func(ok bool) { gate <- ok }
}

// putGated is put; with gate, the sets, once written, wait for a value on
// it and are stored only for true.
func (c *Cache) putGated(e *runEntry, key cache.Key, gate <-chan bool) {
	store := func() {
		// The sets first, then the head that pairs with them: a reader
		// sees the old head (whose sets no longer pair: a miss), or the new
		// head and its sets.
		var head bytes.Buffer
		var pair [16]byte
		_, _ = rand.Read(pair[:]) // never fails (crypto/rand)
		err := c.Store.PutWith(setsKey(key), func(w io.Writer) error {
			if err := e.encodeTo(&head, w, pair); err != nil {
				return err // the caller's commit does not block: gate holds one value
			}
			if gate != nil && !<-gate {
				return errPutWithdrawn
			}
			return nil
		})
		if err == nil {
			err = c.Store.PutWith(key, func(w io.Writer) error { _, err := w.Write(head.Bytes()); return err })
		}
		switch {
		case err == nil:
			c.report(entryID(pair), true)
		case errors.Is(err, errEntryTooLarge) || errors.Is(err, cache.ErrTooLarge):
			markOverCap(c.Store, key, len(e.Sets))
		}
	}
	if !c.Background {
		store()
		return
	}
	c.writes.Go(store)
}

// CacheStats says what the cache did in a run.
type CacheStats struct {
	// Hit: every finding came from the cache and nothing was parsed.
	Hit bool
	// Incremental: only the directories of the config sets holding a
	// changed file were walked and parsed (incremental).
	Incremental bool
	// Reused and Evaluated count the config sets whose findings came from
	// the cache after discovery, and those evaluated.
	Reused, Evaluated int
	// OverCap: the run's entry passes its cap, so nothing was stored; a
	// run that found that recorded (overCapRun) was made as without the
	// cache.
	OverCap bool
}

// Cached is Lint with the result cache: when nothing the last run with
// the same key looked at has changed, the findings come from the cache
// and nothing is parsed or compiled; otherwise the files are discovered
// and parsed again and only the config sets whose inputs changed are
// evaluated (compiling the policies then). The rule blocks of .ckptlint.hcl
// and the inline ignores are applied afresh on every run. Runs with an
// overlay (fix) do not use the cache. Without a store it is Lint.
func Cached(ctx context.Context, c *Cache, paths []string, opts Options) (*Result, CacheStats, error) {
	c.Wait() // a run reads what the one before it wrote
	c.reportedMu.Lock()
	c.reported.ok = false
	c.reportedMu.Unlock()
	if opts.Now.IsZero() {
		opts.Now = time.Now() // one clock for the key and the run (facts' ages)
	}
	base, ok := baseKey(c, opts)
	if c.Store == nil || opts.Overlay != nil || !ok {
		eng, err := c.Policies.Engine(ctx)
		if err != nil {
			return nil, CacheStats{}, err
		}
		res, err := Lint(ctx, eng, paths, opts)
		return res, CacheStats{}, err
	}
	key, err := runKey(base, paths)
	if err != nil {
		return nil, CacheStats{}, err
	}
	if n, over := overCapSets(c.Store, key); over {
		return overCapRun(ctx, c, key, n, paths, opts)
	}
	c.reportedMu.Lock()
	c.reported.run = key
	c.reportedMu.Unlock()
	prev := loadEntry(c.Store, key)
	if prev != nil {
		c.report(prev.sum, true)
		res, stats, done, err := c.fromPrevious(ctx, key, base, prev, paths, opts)
		if err != nil || done {
			return res, stats, err
		}
		if !prev.loadSets() {
			prev = nil
		}
	}
	c.report(cache.Key{}, false) // fresh's result is in no entry until its own is written
	return c.fresh(ctx, key, base, prev, paths, opts)
}

// fromPrevious answers a run from prev, the entry of the last run with its
// key: wholly when every probe still holds (a hit), incrementally when
// only a few files changed; done is false when it cannot, and the run is
// then made afresh.
func (c *Cache) fromPrevious(ctx context.Context, key, base cache.Key, prev *runEntry, paths []string, opts Options) (*Result, CacheStats, bool, error) {
	// A file whose bytes changed almost always means a config set to
	// evaluate: the policies compile meanwhile, on the core the replay's
	// system calls leave idle, instead of after it.
	rp := replay(prev, func() {
		go func() { _, _ = c.Policies.Engine(ctx) }() // its error, if any, is the one Engine returns to the run that needs it
	})
	if rp.changed != nil {
		if !prev.loadSets() {
			return nil, CacheStats{}, false, nil
		}
		c.report(cache.Key{}, false) // until the spliced entry is written
		return c.incremental(ctx, key, base, prev, rp, paths, opts)
	}
	if !rp.holds {
		return nil, CacheStats{}, false, nil
	}
	if opts.Replay != nil && opts.Replay(key, prev.sum) {
		// The caller holds what it made of this very entry: nothing of
		// the stored findings is decoded. Its notes are the run's, as
		// fromEntry gives them.
		if opts.Note != nil {
			for _, n := range prev.Notes {
				opts.Note(n)
			}
		}
		c.upgrade(prev, rp, key)
		c.Store.Touch(setsKey(key)) // not read, but what the next edit needs: not to be evicted first
		return &Result{Files: prev.Files, Cached: true, Replayed: true}, CacheStats{Hit: true}, true, nil
	}
	if !prev.loadSets() {
		return nil, CacheStats{}, false, nil
	}
	res, ok, err := c.fromEntry(prev, storedResults(prev), rp.srcs, opts)
	if err != nil || !ok {
		return nil, CacheStats{}, false, err
	}
	c.upgrade(prev, rp, key)
	return res, CacheStats{Hit: true}, true, nil
}

// upgrade records in prev the stat signatures rp found trustworthy now,
// rewriting the entry when they are enough to be worth it: files checked
// by their bytes this time that are now old enough to trust their stat
// signature are then checked by stat alone. For a handful (the file
// edited last), reading them again costs less than rewriting the entry.
// The rewritten head pairs with the same sets: the same findings, under
// the same name (entryID).
func (c *Cache) upgrade(prev *runEntry, rp replayed, key cache.Key) {
	if n := len(rp.upgrades); n > 0 && (n >= minUpgrades || n*16 >= len(prev.Probes)) {
		for i, sig := range rp.upgrades {
			prev.Probes[i].Sig = sig
		}
		if prev.stored {
			c.putHead(prev, key) // the sets are as they were: the head alone, with their pair mark
			return
		}
		c.put(prev, key)
	}
}

// putHead writes e's head again under key, with the pair mark of its sets
// (not decoded, and unchanged), as put does: in the background when
// c.Background is set.
func (c *Cache) putHead(e *runEntry, key cache.Key) {
	pair := e.pair
	store := func() {
		if err := c.Store.PutWith(key, func(w io.Writer) error { return e.encodeHead(w, pair) }); err == nil {
			c.report(entryID(pair), true) // the same findings: what was made of them still holds
		}
	}
	if !c.Background {
		store()
		return
	}
	c.writes.Go(store)
}

// step is the pipeline's per-set step with the cache: a set whose
// fingerprint the previous entry holds takes its stored result and is
// neither parsed nor evaluated (evaluateSet otherwise).
func (c *Cache) step(base cache.Key, prev *runEntry) func(context.Context, *run, *assemble.Plan) (*setResult, error) {
	known := map[string]*setEntry{}
	if prev != nil {
		for i := range prev.Sets {
			known[prev.Sets[i].Fingerprint] = &prev.Sets[i]
		}
	}
	return func(ctx context.Context, r *run, p *assemble.Plan) (*setResult, error) {
		fp, ok := fingerprint(base, p)
		if e := known[fp]; ok && e != nil && e.Name == p.Set.Name {
			return &setResult{Name: e.Name, Fingerprint: fp, Root: p.Root, Members: members(p), Pending: e.Pending,
				Sources: e.Sources, Deployed: p.Set.Deployed != nil, bytes: r.planBytes(p, nil), reused: true}, nil
		}
		res, err := evaluateSet(ctx, r, p)
		if err == nil && ok {
			res.Fingerprint = fp
		}
		return res, err
	}
}

// fresh is a run of the whole pipeline whose file system records what it
// reads; its entry is stored under key.
func (c *Cache) fresh(ctx context.Context, key, base cache.Key, prev *runEntry, paths []string, opts Options) (*Result, CacheStats, error) {
	var notes []string
	note := opts.Note
	opts.Note = func(s string) {
		notes = append(notes, s)
		if note != nil {
			note(s)
		}
	}
	rec := inputfs.Record(inputfs.OS())
	r := newRun(opts, c.Policies.Engine, paths)
	r.fs, r.step = rec, c.step(base, prev)
	policyRules, err := c.policyRules(opts.NoInlineIgnores)
	if err != nil {
		return nil, CacheStats{}, err
	}
	res := &Result{}
	out := opts.Report
	if out == nil {
		out = collect(res)
	}
	rp := newReporter(policyRules, opts, out, r.readSource)
	entry := &runEntry{Format: entryFormat}
	storable := true
	var stats CacheStats
	// least is the sets' share of entry.leastSize; once it passes the cap
	// the entry is past it whatever follows, and the sets are no longer
	// kept for it (overSets counts them): an over-cap run of many findings
	// otherwise held every set's findings to the end for nothing.
	least, overSets := 0, 0
	err = r.pipeline(ctx, func(sr *setResult) error {
		storable = storable && sr.Fingerprint != ""
		if overSets > 0 {
			overSets++
		} else if se := sr.entry(); least+se.leastSize() > maxRunEntry {
			overSets, entry.Sets = len(entry.Sets)+1, nil
		} else {
			least += se.leastSize()
			entry.Sets = append(entry.Sets, se)
		}
		if sr.reused {
			stats.Reused++
		} else {
			stats.Evaluated++
		}
		return rp.set(sr)
	})
	if err != nil {
		return nil, stats, err
	}
	if err := rp.last(leftoverFindings(r.tree, rp.rules)); err != nil {
		return nil, stats, err
	}
	res.Sets, res.Files, res.Unread, res.Unlinted = rp.setList(), r.tree.Len(), r.tree.Unread(), r.unlinted
	// A run that could not read something, or did not lint every set, is
	// not stored: the next run tries again (and ends with exit code 2
	// again). Nor is one that found a fix journal or staged file in the
	// tree: the entry would not repeat its CKPT005 warnings.
	if storable && len(res.Unread) == 0 && res.Unlinted == nil && len(r.tree.Leftovers()) == 0 {
		entry.Probes, entry.Notes, entry.Files = rec.Probes(), notes, r.tree.Len()
		entry.setAbs(nil)
		if overSets > 0 || entry.leastSize() > maxRunEntry {
			// Past the cap before it is encoded: not written at all.
			n := max(overSets, len(entry.Sets))
			markOverCap(c.Store, key, n)
			noteOverCap(note, n)
			stats.OverCap = true
		} else {
			c.put(entry, key)
		}
	}
	return res, stats, nil
}

// storedResults are the results an entry holds, as the report stage
// takes them.
func storedResults(e *runEntry) []*setResult {
	out := make([]*setResult, len(e.Sets))
	for i := range e.Sets {
		s := &e.Sets[i]
		out[i] = &setResult{Name: s.Name, Fingerprint: s.Fingerprint, Root: s.Root, Members: s.Members, Pending: s.Pending, Sources: s.Sources, Deployed: s.Deployed}
	}
	return out
}

// fromEntry is the report stage over results (an entry's, some of them
// perhaps made in this run), with the bytes of the files the findings name
// read again and checked against e's probes (srcs holds those the replay
// read already): false when one changed since, and the run is then made
// afresh, so the groups are handed on only once all are made.
//
// What that check guards is the bytes the reports show beside the
// findings (Group.Sources: snippets, code point columns). The replay
// checked every file of the entry, but one it trusted by its stat
// signature is read here for the first time, and a file changed between
// the replay and this read would give bytes other than those the stored
// spans point into. With opts.NoSources (no report reads them) nothing is
// read here and nothing read after the replay reaches the report: the
// output is a function of the entry alone, every probe of which the
// replay found holding, which is what a run made at the replay gives.
// There is then nothing to check, and the run reads no file again.
func (c *Cache) fromEntry(e *runEntry, results []*setResult, srcs map[string][]byte, opts Options) (*Result, bool, error) {
	eb, bytesOf := &entryBytes{}, func(string) []byte { return nil } // NoSources: not called, the grouper asks for no bytes
	if !opts.NoSources {
		eb = newEntryBytes(e, srcs)
		bytesOf = eb.of
	}
	policyRules, err := c.policyRules(opts.NoInlineIgnores)
	if err != nil {
		return nil, false, err
	}
	var groups []Group
	rp := newReporter(policyRules, opts, func(g Group) error { groups = append(groups, g); return nil }, bytesOf)
	for _, r := range results {
		_ = rp.set(r) // the collector never fails
	}
	_ = rp.last(nil) // an entry is never stored with leftovers (fresh)
	if eb.changed {
		return nil, false, nil
	}
	res := &Result{Files: e.Files, Cached: true, Sets: namedSets(rp.names)}
	out := opts.Report
	if out == nil {
		out = collect(res)
	}
	for _, g := range groups {
		if err := out(g); err != nil {
			return nil, false, err
		}
	}
	if opts.Note != nil {
		for _, n := range e.Notes {
			opts.Note(n)
		}
	}
	return res, true, nil
}

// entryBytes reads again the files the findings of an entry name, by
// display path, each checked against the entry's read probe (changed is
// set when one differs); srcs holds those the replay read already.
type entryBytes struct {
	reads   map[string]inputfs.Probe
	abs     map[string]string
	srcs    map[string][]byte
	read    map[string][]byte
	changed bool
}

func newEntryBytes(e *runEntry, srcs map[string][]byte) *entryBytes {
	eb := &entryBytes{reads: map[string]inputfs.Probe{}, abs: map[string]string{}, srcs: srcs, read: map[string][]byte{}}
	for _, p := range e.Probes {
		if _, seen := eb.reads[p.Path]; !seen && strings.HasPrefix(p.Op, inputfs.OpRead+":") {
			eb.reads[p.Path] = p
		}
	}
	for _, a := range e.Abs {
		eb.abs[a.Path] = a.Abs
	}
	return eb
}

// of gives the bytes of the file a finding names by its display path.
func (eb *entryBytes) of(path string) []byte {
	if b, ok := eb.read[path]; ok {
		return b
	}
	var b []byte
	if a, ok := eb.abs[path]; ok {
		var fresh bool
		if b, fresh = eb.srcs[a]; !fresh {
			p := eb.reads[a]
			var ok bool
			if b, ok = inputfs.ReadProbe(p); !ok && p.Op != "" {
				eb.changed = true
			}
		}
		b = evaluate.Text(path, b)
	} else {
		b = evaluate.ReadSource(path, nil) // unreachable: the entry lists every file a finding names (setAbs)
	}
	eb.read[path] = b
	return b
}

// policyRules are the policy rules an ignore comment may name, from the
// policies' metadata (nothing is compiled); none when inline ignores are
// not read.
func (c *Cache) policyRules(noInline bool) ([]*engine.Rule, error) {
	if noInline {
		return nil, nil
	}
	return c.Policies.Rules()
}

// incremental makes a run whose previous entry prev holds except for the
// read probes rp.changed (files whose bytes changed; every directory
// listing, type, symlink and repository root is as it was): the pipeline
// walks only the root directories of the config sets those files belong
// to, over the read boundary of the whole run, and every other set's
// result is prev's. done is false, and the caller makes the run afresh,
// whenever the sets that walk assembles might differ from what a whole
// walk would assemble: a changed file no set holds (a file discovery
// classified away, a version-evidence file), a set the walk finds that
// prev does not have or whose files differ, deployment blocks in
// .ckptlint.hcl (they claim files across directories), notes or unread
// files, a path named that is not a directory, a budget that a whole walk
// might spend otherwise (withinBudgets). The entry it stores is prev with
// those sets and probes replaced.
func (c *Cache) incremental(ctx context.Context, key, base cache.Key, prev *runEntry, rp replayed,
	paths []string, opts Options) (res *Result, stats CacheStats, done bool, err error) {
	roots, affected, ok := changedRoots(prev, rp, paths, opts)
	if !ok {
		return nil, stats, false, nil
	}
	// The pipeline over the roots, within the boundary of the whole run.
	found, probes, ok := c.walkRoots(ctx, base, prev, roots, paths, opts)
	if !ok {
		return nil, stats, false, nil
	}
	next, results, stats, ok := splice(prev, found, affected)
	if !ok {
		return nil, stats, false, nil
	}
	next.Probes = mergeProbes(prev.Probes, rp.upgrades, probes)
	for _, i := range rp.changed { // every changed file was read again
		if j, ok := slices.BinarySearchFunc(next.Probes, prev.Probes[i], probeOrder); !ok || next.Probes[j] == prev.Probes[i] {
			return nil, stats, false, nil
		}
	}
	next.setAbs(prev.Abs)
	if !next.valid() || !withinBudgets(next.Probes) {
		return nil, stats, false, nil
	}
	// The entry is stored while the result is reported (fromEntry, which
	// only reads it): encoding and writing every set is about an eighth of
	// the CPU of an edited run of many findings (docs/performance.md).
	commit, committed := c.putEarly(next, key), false
	defer func() {
		if !committed { // fromEntry panicked: Wait must not wait for it
			commit(false)
		}
	}()
	res, ok, err = c.fromEntry(next, results, nil, opts)
	committed = true
	commit(err == nil && ok)
	if err != nil || !ok {
		return nil, stats, false, err
	}
	stats.Incremental = true
	return res, stats, true, nil
}

// changedRoots are the root directories of the config sets of prev that
// hold a file rp found changed, and those sets' names; false when the run
// cannot be made incrementally (incremental).
func changedRoots(prev *runEntry, rp replayed, paths []string, opts Options) (roots []string, affected map[string]bool, ok bool) {
	if len(prev.Notes) > 0 || (opts.Config != nil && len(opts.Config.Deployments) > 0) || !withinBudgets(prev.Probes) ||
		slices.ContainsFunc(prev.Sets, func(s setEntry) bool { return s.Deployed }) {
		// Deployment blocks and deployment files join files across
		// directories: a walk of a few directories cannot tell which sets
		// they make.
		return nil, nil, false
	}
	named := namedDirs(paths)
	if named == nil {
		return nil, nil, false // a file named alone is linted as a whole run, which reports a missing path
	}
	changedPath := map[string]bool{}
	for _, i := range rp.changed {
		changedPath[prev.Probes[i].Path] = true
	}
	held := map[string]bool{}
	affected = map[string]bool{}
	for _, s := range prev.Sets {
		for _, m := range s.Members {
			if !changedPath[m] {
				continue
			}
			held[m] = true
			if !affected[s.Name] {
				affected[s.Name] = true
				if !slices.Contains(roots, s.Root) {
					roots = append(roots, s.Root)
				}
			}
		}
	}
	if len(held) != len(changedPath) || !rootsWithin(roots, named) {
		return nil, nil, false
	}
	return roots, affected, true
}

// namedDirs are the paths a run names ("." when none), nil when one is
// not a directory.
func namedDirs(paths []string) []string {
	named := paths
	if len(named) == 0 {
		named = []string{"."}
	}
	for _, p := range named {
		if st, err := os.Stat(p); err != nil || !st.IsDir() {
			return nil
		}
	}
	return named
}

// walkRoots runs the pipeline over roots, within the read boundary of the
// paths the run names, and returns each set it found by name and the
// probes it recorded; false when that walk could differ from a whole one
// (a note, an unread file, a set found twice, the set cap) or failed (the
// whole run the caller makes then reports it).
func (c *Cache) walkRoots(ctx context.Context, base cache.Key, prev *runEntry, roots, paths []string, opts Options) (map[string]*setResult, []inputfs.Probe, bool) {
	noted := false
	opts.Note = func(string) { noted = true }
	rec := inputfs.Record(inputfs.OS())
	r := newRun(opts, c.Policies.Engine, roots)
	// The sets of the paths the run names, as the whole run keeps them.
	r.fs, r.step, r.boundary, r.scope = rec, c.step(base, prev), namedDirs(paths), scopeOf(paths, opts.Overlay)
	found := map[string]*setResult{}
	dup := false
	err := r.pipeline(ctx, func(sr *setResult) error {
		dup = dup || found[sr.Name] != nil
		found[sr.Name] = sr
		return nil
	})
	if err != nil || noted || dup || len(r.tree.Unread()) > 0 || r.unlinted != nil {
		return nil, nil, false
	}
	return found, rec.Probes(), true
}

// splice is prev with the results found in place of the affected sets':
// the entry to store and the results to report, in prev's order. false
// when found holds a set prev does not have, or one whose files differ,
// or misses an affected set.
func splice(prev *runEntry, found map[string]*setResult, affected map[string]bool) (*runEntry, []*setResult, CacheStats, bool) {
	var stats CacheStats
	next := *prev
	next.Sets = slices.Clone(prev.Sets)
	results := storedResults(prev)
	for i, s := range prev.Sets {
		sr := found[s.Name]
		switch {
		case sr == nil && affected[s.Name]:
			return nil, nil, stats, false
		case sr == nil:
			continue
		case !slices.Equal(sr.Members, s.Members) || sr.Root != s.Root || sr.Fingerprint == "":
			return nil, nil, stats, false
		}
		delete(found, s.Name)
		if !affected[s.Name] {
			continue // unchanged: prev's result stands
		}
		next.Sets[i], results[i] = sr.entry(), sr
		if sr.reused {
			stats.Reused++
		} else {
			stats.Evaluated++
		}
	}
	if len(found) > 0 {
		return nil, nil, stats, false // a set prev does not have
	}
	stats.Reused += len(prev.Sets) - len(affected)
	return &next, results, stats, true
}

// mergeProbes is prev's probes with the new signatures (by index), and
// fresh's probes in place of the same operations on the same paths, sorted
// as inputfs.Recorder sorts them.
func mergeProbes(prev []inputfs.Probe, upgrades map[int]string, fresh []inputfs.Probe) []inputfs.Probe {
	out := slices.Clone(prev)
	for i, sig := range upgrades {
		out[i].Sig = sig
	}
	at := make(map[[2]string]int, len(out))
	for i, p := range out {
		at[[2]string{p.Op, p.Path}] = i
	}
	for _, p := range fresh {
		if i, ok := at[[2]string{p.Op, p.Path}]; ok {
			out[i] = p
		} else {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, probeOrder)
	return out
}

// probeOrder orders probes by path, then operation.
func probeOrder(a, b inputfs.Probe) int {
	if c := strings.Compare(a.Path, b.Path); c != 0 {
		return c
	}
	return strings.Compare(a.Op, b.Op)
}

// --- keys ---

// buildVersion names this build of ckptlint: its version, commit and Go
// release, and its content (buildinfo.Content: its Go build ID, else the
// SHA-256 of the executable), since two development builds may carry one
// version string (issue 25). "" when nothing names the build: the run then
// does not use the cache. Tests replace it.
var buildVersion = func() string {
	bi := buildinfo.Get()
	content := buildinfo.Content()
	if content == "" {
		// The executable cannot be read (an execute-only install): a
		// release build from a clean tree is still named by its version and
		// commit; any other could be two builds under one name.
		if bi.Source != "ldflags" || bi.Commit == "" || bi.Modified == nil || *bi.Modified {
			return ""
		}
		content = "release"
	}
	return bi.Version + "\x00" + bi.Commit + "\x00" + bi.GoVersion + "\x00" + content
}

// baseKey hashes what every finding of the run depends on besides the
// files: ckptlint's version, the renderer it would start
// (render.Identity), the policy bundle, the parts of .ckptlint.hcl
// that feed the model (everything but the rule blocks) and the flags that
// do (and whether the fixes' exact edits are computed:
// Options.NoEdits). false when .ckptlint.hcl cannot be hashed, or nothing names the
// build (buildVersion).
func baseKey(c *Cache, opts Options) (cache.Key, bool) {
	v := buildVersion()
	if v == "" {
		return cache.Key{}, false
	}
	h := cache.NewHasher("ckptlint base")
	h.String(v)
	// The renderer of charts and kustomizations is an executable of its
	// own, found at run time: whether there is one, and which.
	h.String(render.Identity())
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
	// Observed facts age with the clock (CKPT609): the day, and each facts
	// block's age as messages show it and whether it is stale, are part of
	// the key, so a result from the cache is what a fresh run would give.
	h.String(model.FactsState(opts.Config, model.FactsClock{Now: opts.Now, MaxAge: opts.Config.MaxFactsAge()}))
	h.String(strconv.FormatBool(opts.Unbounded))
	// An entry made without the fixes' exact edits cannot answer a run
	// whose report shows them (SARIF).
	h.String("edits " + strconv.FormatBool(!opts.NoEdits))
	return h.Sum(), true
}

// runKey is the key of a run over paths from the working directory.
func runKey(base cache.Key, paths []string) (cache.Key, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return cache.Key{}, fmt.Errorf("working directory: %w", err)
	}
	h := cache.NewHasher("ckptlint run").Bytes(base[:]).String(cwd)
	for _, p := range paths {
		h.String(p)
	}
	return h.Sum(), nil
}

// fingerprint hashes everything the result of one set's step depends on
// besides base: its name, its files (path, format, bytes, what discovery
// refused, the xi:include targets read and the Helm chart), its Flink
// file's parse, the manifest, the Hadoop resources and references, the
// resolved versions and the cluster and deployment facts. The step is a
// function of these and the policies (evaluateSet reads nothing else).
func fingerprint(base cache.Key, p *assemble.Plan) (string, bool) {
	sum := func(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }
	type fileDoc struct {
		Path     string             `json:"path"`
		Format   parsed.Format      `json:"format"`
		Sum      string             `json:"sum"`
		Err      *parsed.ParseError `json:"err,omitempty"`
		Template *parsed.Template   `json:"template,omitempty"`
		Chart    string             `json:"chart,omitempty"`
		Includes []string           `json:"includes,omitempty"`
	}
	found := func(f *discover.Found) fileDoc {
		d := fileDoc{Path: f.Disp, Format: f.Format, Sum: f.Sum(), Err: f.Err, Template: f.Template, Chart: f.Chart}
		for _, inc := range f.Includes() {
			d.Includes = append(d.Includes, inc.Path+"\x00"+inc.Real+"\x00"+sum(inc.Src)+"\x00"+inc.Err)
		}
		return d
	}
	parsedDoc := func(f *parsed.File) *fileDoc {
		if f == nil {
			return nil
		}
		// Its bytes are those of a file of Files (a manifest's, for each
		// of its FlinkDeployments): Files hashes them once.
		return &fileDoc{Path: f.Path, Format: f.Format, Err: f.Err, Template: f.Template}
	}
	type resDoc struct {
		File  fileDoc `json:"file"`
		Via   string  `json:"via"`
		Dir   string  `json:"dir"`
		Chain string  `json:"chain,omitempty"`
	}
	s := p.Set
	doc := struct {
		Name           string             `json:"name"`
		Files          []fileDoc          `json:"files"`
		Flink          *fileDoc           `json:"flink"`
		FlinkIgnored   *fileDoc           `json:"flink_ignored"`
		Manifest       *model.Manifest    `json:"manifest"`
		Client         []resDoc           `json:"client"`
		ClusterHDFS    *fileDoc           `json:"cluster_hdfs"`
		IgnoreCDATA    bool               `json:"ignore_cdata"`
		HadoopConfRefs []model.ConfRef    `json:"refs"`
		FlinkVersion   model.Resolved     `json:"flink_version"`
		HadoopVersion  model.Resolved     `json:"hadoop_version"`
		Cluster        *config.Cluster    `json:"cluster"`
		Deployment     *config.Deployment `json:"deployment"`
		FlinkOverlay   *fileDoc           `json:"flink_overlay,omitempty"`
		Deployed       *model.Deployed    `json:"deployed,omitempty"`
		ClusterChain   string             `json:"cluster_chain,omitempty"`
	}{Name: s.Name, Flink: parsedDoc(s.Flink), FlinkIgnored: parsedDoc(s.FlinkIgnored), FlinkOverlay: parsedDoc(s.FlinkOverlay), Deployed: s.Deployed, ClusterChain: p.ClusterHDFSChain, Manifest: s.Manifest, IgnoreCDATA: p.IgnoreCDATA,
		HadoopConfRefs: s.HadoopConfRefs, FlinkVersion: s.FlinkVersion, HadoopVersion: s.HadoopVersion, Cluster: s.Cluster, Deployment: s.Deployment}
	for _, f := range p.Flink {
		doc.Files = append(doc.Files, found(f))
	}
	for _, r := range p.Hadoop {
		doc.Client = append(doc.Client, resDoc{File: found(r.File), Via: r.Via, Dir: r.Dir, Chain: r.Chain})
	}
	if p.ClusterHDFS != nil {
		d := found(p.ClusterHDFS)
		doc.ClusterHDFS = &d
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return "", false
	}
	return cache.NewHasher("ckptlint set").Bytes(base[:]).Bytes(b).Sum().String(), true
}

// --- the entry ---

// entryFormat is the layout of a run entry; an entry of another layout is
// ignored. 7: a finding's message is its headline and its evidence is in
// Detail (issue 24), so an entry of 6 holds findings without either split.
// 8: each set is a gob value of its own, after a head that counts them.
// 9: the sets are a cache entry of their own (setsKey), so a run answered
// by the CLI's stored reports reads the head alone.
const entryFormat = 9

// entryMagic starts an entry's payload (internal/cache frames and checks it);
// gob values follow: the entry's head (what the replay needs, and how many
// sets follow), then, in the sets' own cache entry (setsMagic, the pair
// mark of the head, then the rest of the same gob stream), each set. One
// value per set keeps what gob buffers to one set's encoding: a single
// value of every set was encoded whole in memory before its first byte was
// written (355 MB peak RSS at 10,000 sets of many findings, an entry then
// refused for its cap).
var entryMagic = []byte("ckptlint run entry 9\n")

// setsMagic starts the payload of an entry's sets, followed by the head's
// Pair: a head and sets written by two runs at once (each writes its sets,
// then its head) do not pair, and the entry is a miss.
var setsMagic = []byte("ckptlint run sets 9\n")

// entryID names the findings of an entry (Reported): its pair mark, new
// with every write of its sets (put) and kept when only its head is
// written again (putHead), which changes no finding, note or count of
// files.
func entryID(pair [16]byte) cache.Key {
	return cache.NewHasher("ckptlint entry").Bytes(pair[:]).Sum()
}

// setsKey is the key of the sets of the entry under key.
func setsKey(key cache.Key) cache.Key {
	return cache.NewHasher("ckptlint run sets").Bytes(key[:]).Sum()
}

// maxRunEntry bounds a run entry's payload, written or read (about
// 23,000 config sets). A variable for tests (TestCacheOverCap).
var maxRunEntry = 32 << 20

// errEntryTooLarge is the error of encoding an entry past maxRunEntry.
var errEntryTooLarge = fmt.Errorf("run entry over %d bytes", maxRunEntry)

// cappedWriter fails with errEntryTooLarge past maxRunEntry bytes.
type cappedWriter struct {
	w    io.Writer
	left int
}

func (c *cappedWriter) Write(p []byte) (int, error) {
	if len(p) > c.left {
		return 0, errEntryTooLarge
	}
	c.left -= len(p)
	return c.w.Write(p)
}

// runEntry is what the cache keeps for one run: what the run looked at
// (Probes) and each set's result before the rule blocks of .ckptlint.hcl
// and the inline ignores apply. It is encoded with encoding/gob, which
// bounds what it allocates by the bytes it reads for every type the entry
// holds (slices, strings, structs: no maps, whose size gob takes on trust).
type runEntry struct {
	Format int
	Probes []inputfs.Probe
	Notes  []string
	Files  int
	Sets   []setEntry
	// Abs maps the display path of each file a finding or an ignore
	// comment names to the absolute path its bytes were read from.
	Abs []absPath

	// Not encoded: the name of the findings the entry was loaded with
	// (entryID, Reported), its
	// sets while they are not decoded yet (loadSets), and, for an entry read
	// from the store (stored), the pair mark its head and sets carry.
	sum    cache.Key
	sets   *lazySets
	pair   [16]byte
	stored bool
}

type absPath struct{ Path, Abs string }

// setEntry is one set's result in an entry.
type setEntry struct {
	Name, Fingerprint, Root string
	Members                 []string
	Pending                 []evaluate.Pending
	Sources                 []evaluate.Source
	// Deployed: the repository's deployment files made the set.
	Deployed bool
}

// entry is what an entry keeps of sr.
func (sr *setResult) entry() setEntry {
	return setEntry{Name: sr.Name, Fingerprint: sr.Fingerprint, Root: sr.Root, Members: sr.Members, Pending: sr.Pending, Sources: sr.Sources, Deployed: sr.Deployed}
}

// setAbs lists in e.Abs every file a finding or an ignore comment of e's
// sets names, with the absolute path its bytes are read from: prev's
// (an earlier entry's) where it has one, else resolved now.
func (e *runEntry) setAbs(prev []absPath) {
	// Listed afresh: an incremental run's entry starts as a copy of the
	// one before it (splice), whose list would otherwise be kept and
	// appended to, growing the head by every file on every edit until the
	// entry passed its cap and the tree went uncached
	// (TestCacheEditsKeepEntrySize).
	e.Abs = nil
	cwd, _ := os.Getwd()
	known := map[string]string{}
	for _, a := range prev {
		known[a.Path] = a.Abs
	}
	seen := map[string]bool{}
	add := func(path string) {
		if path == "" || seen[path] {
			return
		}
		seen[path] = true
		abs, ok := known[path]
		if !ok {
			abs = filepath.FromSlash(path)
			if !filepath.IsAbs(abs) {
				abs = filepath.Join(cwd, abs)
			}
			if r, err := filepath.EvalSymlinks(abs); err == nil {
				abs = r
			}
		}
		e.Abs = append(e.Abs, absPath{path, abs})
	}
	for _, s := range e.Sets {
		for _, src := range s.Sources {
			add(src.Path)
		}
		for _, f := range s.Pending {
			add(f.Range.File)
		}
	}
}

// encodeTo writes the entry's head to head and its sets to sets, the sets
// marked with pair, failing with errEntryTooLarge past maxRunEntry bytes in
// all. Each is a gob stream of its own, so a head can be written again
// without its sets (upgrade) and still pair with them.
func (e *runEntry) encodeTo(head, sets io.Writer, pair [16]byte) error {
	w := &cappedWriter{w: head, left: maxRunEntry}
	if err := e.encodeHead(w, pair); err != nil {
		return err
	}
	w.w = sets
	if _, err := w.Write(append(slices.Clone(setsMagic), pair[:]...)); err != nil {
		return err
	}
	enc := gob.NewEncoder(w)
	for i := range e.Sets {
		if err := enc.Encode(&e.Sets[i]); err != nil {
			return err
		}
	}
	return nil
}

// encodeHead writes the entry's head, marked with pair, to w.
func (e *runEntry) encodeHead(w io.Writer, pair [16]byte) error {
	if _, err := w.Write(entryMagic); err != nil {
		return err
	}
	return gob.NewEncoder(w).Encode(entryHead{Format: e.Format, Probes: e.Probes, Notes: e.Notes, Files: e.Files, Abs: e.Abs,
		Sets: e.setCount(), Pair: pair})
}

// setCount is how many sets the entry has, decoded or not.
func (e *runEntry) setCount() int {
	if e.sets != nil {
		return e.sets.count
	}
	return len(e.Sets)
}

// entryHead is the first gob value of an entry.
type entryHead struct {
	Format int
	Probes []inputfs.Probe
	Notes  []string
	Files  int
	Abs    []absPath
	Sets   int      // the set values that follow
	Pair   [16]byte // random, repeated at the start of the sets (setsMagic)
}

// encode is the entry's head and sets in one buffer (tests; put streams
// encodeTo into two cache entries).
func (e *runEntry) encode() ([]byte, error) {
	var b bytes.Buffer
	err := e.encodeTo(&b, &b, [16]byte{})
	return b.Bytes(), err
}

// decodeEntry is encode's inverse; false for anything else.
func decodeEntry(b []byte) (*runEntry, bool) {
	e, ok := decodeHead(b)
	if !ok || !e.loadSets() {
		return nil, false
	}
	return e, true
}

// decodeHead decodes an entry's head and checks it (headValid), leaving
// its sets to loadSets: a run answered by the caller's stored reports
// (Options.Replay) needs only the probes, and decoding the sets is most of
// loading an entry of many findings. b may hold the sets after the head
// (encode); else loadSets fetches them.
func decodeHead(b []byte) (*runEntry, bool) {
	if !bytes.HasPrefix(b, entryMagic) || len(b) > maxRunEntry {
		return nil, false
	}
	r := &entryReader{b: b[len(entryMagic):]}
	var h entryHead
	if err := gob.NewDecoder(r).Decode(&h); err != nil || h.Format != entryFormat {
		return nil, false
	}
	if h.Sets < 0 || h.Sets > MaxSets {
		return nil, false
	}
	e := &runEntry{Format: h.Format, Probes: h.Probes, Notes: h.Notes, Files: h.Files, Abs: h.Abs,
		sets: &lazySets{r: r, count: h.Sets, pair: h.Pair}}
	if !e.headValid() {
		return nil, false
	}
	return e, true
}

// entryReader is what an entry's gob streams are read from: the head's
// bytes, then the sets' (loadSets). It is an io.ByteReader, so gob reads
// no byte past the value it decodes.
type entryReader struct{ b []byte }

func (r *entryReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

func (r *entryReader) ReadByte() (byte, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c, nil
}

// lazySets are the sets of a loaded entry not decoded yet (loadSets).
type lazySets struct {
	r     *entryReader // after the head: the sets, when the head's bytes held them
	count int          // as the head says, checked against MaxSets
	pair  [16]byte
	// fetch reads the sets' cache entry (loadEntry); nil when r holds
	// them after the head (decodeEntry).
	fetch func() ([]byte, bool)
	done  bool // tried, and failed (a decoded entry has no lazySets)
}

// loadSets decodes the sets of an entry decodeHead read, once, and
// checks the whole entry (valid); false when they do not decode, are more
// or fewer than the head counts, or fail the check. An entry made in
// memory has its sets already.
func (e *runEntry) loadSets() bool {
	ls := e.sets
	if ls == nil {
		return true
	}
	if ls.done {
		return false
	}
	ls.done = true
	if testhook.Env("CKPTLINT_TEST_PANIC") == "decode" { // test hook: testdata/script/stored_reports.txtar
		panic("test hook: panic decoding a cache entry's findings")
	}
	if ls.fetch != nil {
		b, ok := ls.fetch()
		if !ok || len(b) > maxRunEntry { // the bound of every payload of an entry
			return false
		}
		ls.r.b = b
	}
	mark := append(slices.Clone(setsMagic), ls.pair[:]...)
	if !bytes.HasPrefix(ls.r.b, mark) {
		return false // not the sets of this head
	}
	ls.r.b = ls.r.b[len(mark):]
	dec := gob.NewDecoder(ls.r)
	e.Sets = make([]setEntry, 0, min(ls.count, 1024)) // a forged count allocates nothing up front
	for range ls.count {
		var s setEntry
		if err := dec.Decode(&s); err != nil {
			e.Sets = nil
			return false
		}
		e.Sets = append(e.Sets, s)
	}
	if err := dec.Decode(new(setEntry)); !errors.Is(err, io.EOF) || !e.valid() {
		e.Sets = nil // more than the head counts, or values out of range
		return false
	}
	e.sets = nil // decoded: the entry is as one made in memory
	return true
}

// loadEntry reads the run entry under key and checks its head; nil when
// there is none or it is not one this build wrote. Its sets are decoded
// when a step needs them (loadSets).
func loadEntry(s *cache.Store, key cache.Key) *runEntry {
	b, ok := s.Get(key)
	if !ok {
		return nil
	}
	e, ok := decodeHead(b)
	if !ok || len(e.sets.r.b) != 0 { // the head's entry holds the head alone
		return nil
	}
	e.pair, e.stored = e.sets.pair, true
	e.sum = entryID(e.pair)
	e.sets.fetch = func() ([]byte, bool) { return s.Get(setsKey(key)) }
	return e
}

// valid checks what decoding does not: every probe is an operation this
// build replays on an absolute path, every set has a name and a
// fingerprint, every finding a rule and a severity, every source a set of
// the entry, every listed path is absolute.
func (e *runEntry) valid() bool {
	if !e.headValid() {
		return false
	}
	names := map[string]bool{}
	for _, s := range e.Sets {
		names[s.Name] = true
		if s.Name == "" || len(s.Fingerprint) != 2*sha256.Size || !pendingValid(s.Pending) {
			return false
		}
		for _, m := range s.Members {
			if !filepath.IsAbs(m) {
				return false
			}
		}
	}
	for _, s := range e.Sets {
		for _, src := range s.Sources {
			if !names[src.Set] || src.File == nil {
				return false
			}
		}
	}
	return true
}

// headValid is valid's check of what the head holds: every probe an
// operation this build replays on an absolute path, every listed path
// absolute.
func (e *runEntry) headValid() bool {
	for _, p := range e.Probes {
		if !filepath.IsAbs(p.Path) || !knownOp(p.Op) {
			return false
		}
	}
	for _, a := range e.Abs {
		if !filepath.IsAbs(a.Abs) {
			return false
		}
	}
	return e.Files >= 0
}

// pendingValid checks a set's stored findings.
func pendingValid(ps []evaluate.Pending) bool {
	for _, p := range ps {
		if p.RuleID == "" || p.Severity < finding.Info || p.Severity > finding.Error || p.Cap < 0 || p.Cap > finding.Error {
			return false
		}
	}
	return true
}

// knownOp reports whether op is a probe operation this build replays; a
// read's limit is at most parsed.MaxFileSize, as every read of a run.
func knownOp(op string) bool {
	switch op {
	case inputfs.OpStat, inputfs.OpLstat, inputfs.OpDir, inputfs.OpReal, inputfs.OpRepoRoot:
		return true
	}
	l, ok := strings.CutPrefix(op, inputfs.OpRead+":")
	n, err := strconv.ParseInt(l, 10, 64)
	return ok && err == nil && n >= 0 && n <= parsed.MaxFileSize
}

// leastSize is a lower bound of the size of e's payload: the bytes of the
// strings every encoding of it holds in full (paths, digests, names,
// fingerprints, the findings' rule ids, messages and files), computed
// without encoding.
func (e *runEntry) leastSize() int {
	n := len(entryMagic)
	for _, p := range e.Probes {
		n += len(p.Op) + len(p.Path) + len(p.Result) + len(p.Sig)
	}
	for i := range e.Sets {
		n += e.Sets[i].leastSize()
	}
	return n
}

// leastSize is a set's share of runEntry.leastSize.
func (st *setEntry) leastSize() int {
	n := len(st.Name) + len(st.Fingerprint) + len(st.Root)
	for _, f := range st.Pending {
		n += len(f.RuleID) + len(f.RuleName) + len(f.Message) + len(f.Detail) + len(f.Range.File)
	}
	return n
}

// A run whose entry passes its cap (maxRunEntry, about 23,000 config sets)
// stores none, and every later run with the same key would build the entry
// again to find that out (issue 25: 8 s of CPU each run). Instead the run
// that finds it stores a marker under the key (overCapKey: "ckptlint over
// cap" and the number of config sets), and a run that finds the marker
// lints as --no-cache does (overCapRun); each says so once. A run that
// finds the repository shrunk below three quarters of that number of sets
// removes the marker, and the next builds an entry again. The marker goes
// with the key too, at the latest the next day (the key holds the date).
const overCapMagic = "ckptlint over cap\n"

func overCapKey(key cache.Key) cache.Key {
	return cache.NewHasher("ckptlint over cap").Bytes(key[:]).Sum()
}

// markOverCap stores the marker for key: a run of sets config sets passed
// the cap.
func markOverCap(s *cache.Store, key cache.Key, sets int) {
	_ = s.Put(overCapKey(key), []byte(overCapMagic+strconv.Itoa(sets)))
}

// overCapSets returns the number of config sets of the run that passed the
// cap under key, and whether there was one.
func overCapSets(s *cache.Store, key cache.Key) (int, bool) {
	b, ok := s.Get(overCapKey(key))
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimPrefix(string(b), overCapMagic))
	if !strings.HasPrefix(string(b), overCapMagic) || err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

// noteOverCap says once that a run of sets config sets does not use the
// cache.
func noteOverCap(note func(string), sets int) {
	if note != nil {
		note(fmt.Sprintf("result cache not used: the entry of a run over these paths passes its %d MiB cap (%d config sets); such runs lint as with --no-cache (docs/cache.md)",
			maxRunEntry>>20, sets))
	}
}

// overCapRun is a run under a key whose last entry passed the cap: as
// without the cache. When it finds far fewer config sets than that run
// had, it removes the marker.
func overCapRun(ctx context.Context, c *Cache, key cache.Key, sets int, paths []string, opts Options) (*Result, CacheStats, error) {
	noteOverCap(opts.Note, sets)
	eng, err := c.Policies.Engine(ctx)
	if err != nil {
		return nil, CacheStats{}, err
	}
	res, err := Lint(ctx, eng, paths, opts)
	if err == nil && len(res.Sets) < sets/4*3 {
		_ = c.Store.Remove(overCapKey(key))
	}
	return res, CacheStats{OverCap: true}, err
}

// --- the replay ---

// minUpgrades is how many new stat signatures make a warm run rewrite its
// entry (or a sixteenth of its probes, for small runs).
const minUpgrades = 32

// maxChanged is how many changed files a run takes incrementally
// (incremental); more, and it is made afresh.
const maxChanged = 32

// replayed is what replaying an entry's probes found.
type replayed struct {
	// holds: every probe holds.
	holds bool
	// srcs are the bytes of the files the replay read again, by absolute
	// path; upgrades the stat signatures that became trustworthy, by
	// probe index.
	srcs     map[string][]byte
	upgrades map[int]string
	// changed lists the read probes that no longer hold when nothing else
	// changed and they are at most maxChanged (the run can then be made
	// incrementally); nil when some other probe fails too.
	changed []int
}

// replay re-executes every probe of e, on GOMAXPROCS goroutines, each
// taking a contiguous part of them (probes are sorted by path, so one
// goroutine's Replayer remembers the directories its files share).
// onChange is called once, at the first probe that does not hold.
func replay(e *runEntry, onChange func()) replayed {
	workers := max(runtime.GOMAXPROCS(0), 1)
	rs := &replaying{e: e, onChange: onChange, trustBefore: time.Now().Add(-inputfs.RacyWindow),
		out: replayed{srcs: map[string][]byte{}, upgrades: map[int]string{}}}
	var wg sync.WaitGroup
	chunk := (len(e.Probes) + workers - 1) / workers
	for w := range workers {
		lo, hi := w*chunk, min((w+1)*chunk, len(e.Probes))
		if lo >= hi {
			break
		}
		wg.Go(func() { rs.part(lo, hi) })
	}
	wg.Wait()
	rp := rs.out
	switch {
	case rs.stop.Load() || len(rp.changed) > maxChanged:
		return replayed{}
	case len(rp.changed) > 0:
		slices.Sort(rp.changed)
		return rp
	}
	rp.changed, rp.holds = nil, true
	return rp
}

// replaying is the state the goroutines of one replay share.
type replaying struct {
	e           *runEntry
	onChange    func()
	once        sync.Once
	trustBefore time.Time
	stop        atomic.Bool // no incremental run: stop replaying
	noGit       sync.Map    // inputfs.Replayer.NoGit
	mu          sync.Mutex
	out         replayed
}

// part replays the probes [lo, hi) and adds what it found to rs.out.
func (rs *replaying) part(lo, hi int) {
	readOp := inputfs.ReadOp(parsed.MaxFileSize)
	local := map[string][]byte{}
	up := map[int]string{}
	var ch []int
	r := &inputfs.Replayer{TrustBefore: rs.trustBefore, Read: func(p string, b []byte) { local[p] = b }, NoGit: &rs.noGit}
	for i := lo; i < hi; i++ {
		if rs.stop.Load() {
			return
		}
		p := rs.e.Probes[i]
		holds, sig := r.Check(p)
		switch {
		case !holds && (p.Op != readOp || len(ch) >= maxChanged):
			rs.stop.Store(true)
			return
		case !holds:
			ch = append(ch, i)
			if rs.onChange != nil {
				rs.once.Do(rs.onChange)
			}
		case sig != p.Sig:
			up[i] = sig
		}
	}
	rs.mu.Lock()
	maps.Copy(rs.out.srcs, local)
	maps.Copy(rs.out.upgrades, up)
	rs.out.changed = append(rs.out.changed, ch...)
	rs.mu.Unlock()
}

// rootsWithin reports whether every root lies within one of the paths
// named (all directories): an entry's roots are checked before they are
// walked, so not even a forged entry makes the run walk elsewhere.
func rootsWithin(roots, named []string) bool {
	cwd, err := os.Getwd()
	if err != nil {
		return false
	}
	for _, r := range roots {
		abs, _ := inputfs.AbsFrom(cwd, r)
		if !slices.ContainsFunc(named, func(n string) bool {
			na, _ := inputfs.AbsFrom(cwd, n)
			return inputfs.Within(abs, na)
		}) {
			return false
		}
	}
	return true
}

// withinBudgets reports whether a run that made probes stayed well inside
// the two per-run read budgets whose use depends on the order a whole
// walk reads files in, which an incremental run (reading only a few
// directories) does not repeat:
//
//   - the version-evidence search (internal/evidence: at most MaxFiles files
//     and MaxTotalBytes bytes per run, read as "read:<limit>" with a limit
//     of at most MaxFileBytes): it never ran short when it read fewer files
//     than its limit and had room for one more file of the largest size;
//   - the input budget of discovery (inputfs.MaxRunInput, reads of
//     parsed.MaxFileSize): half of it.
//
// Otherwise the run is made whole: found by review, an incremental run
// over a repository whose evidence search had run out resolved a version
// the whole run could not.
func withinBudgets(probes []inputfs.Probe) bool {
	lim := evidence.DefaultLimits
	discoverOp := inputfs.ReadOp(parsed.MaxFileSize)
	var evFiles int
	var evBytes, input int64
	for _, p := range probes {
		n, ok := inputfs.ReadSize(p)
		switch {
		case !ok:
		case p.Op == discoverOp:
			input += n
		default:
			evFiles++
			evBytes += n
		}
	}
	return evFiles < lim.MaxFiles && evBytes+lim.MaxFileBytes <= lim.MaxTotalBytes && input <= inputfs.MaxRunInput/2
}
