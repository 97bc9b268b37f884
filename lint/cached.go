package lint

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/ckptlint/ckptlint/internal/buildinfo"
	"github.com/ckptlint/ckptlint/internal/ordered"
	"github.com/ckptlint/ckptlint/lint/cache"
	"github.com/ckptlint/ckptlint/lint/config"
	"github.com/ckptlint/ckptlint/lint/engine"
	"github.com/ckptlint/ckptlint/lint/evaluate"
	"github.com/ckptlint/ckptlint/lint/evidence"
	"github.com/ckptlint/ckptlint/lint/finding"
	"github.com/ckptlint/ckptlint/lint/inputfs"
	"github.com/ckptlint/ckptlint/lint/model"
	"github.com/ckptlint/ckptlint/lint/parsed"
	"github.com/ckptlint/ckptlint/lint/suppress"
)

// Cache is the result cache of a run (docs/cache.md). Store nil lints
// without it.
type Cache struct {
	Store *cache.Store
	// Policies are the policy bundle: its Hash is part of every key, its
	// Rules name the rules an ignore comment may name, and its Engine is
	// compiled only when some config set is not in the cache.
	Policies *engine.Lazy
	// Background writes a run's entry on a goroutine of its own, while the
	// caller reports the result; Wait waits for it, and must be called
	// before the process exits (`ckptlint lint` does, then Trim). The
	// write is atomic either way (lint/cache).
	Background bool
	writes     sync.WaitGroup
}

// Wait waits for the entries being written in the background.
func (c *Cache) Wait() { c.writes.Wait() }

// put stores e under key, in the background when c.Background is set;
// nothing may change e after.
func (c *Cache) put(e *runEntry, key cache.Key) {
	if !c.Background {
		e.store(c.Store, key)
		return
	}
	c.writes.Go(func() { e.store(c.Store, key) })
}

// entryFormat is the layout of a run entry; an entry of another layout is
// ignored.
const entryFormat = 5

// entryMagic starts an entry's payload (lint/cache frames and checks it).
var entryMagic = []byte("ckptlint run entry 5\n")

// runEntry is what the cache keeps for one run: what the run looked at
// (Probes) and, per config set, its findings before the rule blocks of
// .ckptlint.hcl and the inline ignores apply.
//
// The payload is entryMagic, then the JSON of the sources and notes
// (length-prefixed), then a binary section of length-prefixed strings:
// the probes (four fields each; a symlink resolution that gives the path
// itself is written as sameAsPath), then each set's name, fingerprint,
// root, members (each the index of its read probe) and the JSON of its
// findings. A warm run over 2,000 config sets
// decodes some 20,000 probes and 8,000 paths: as JSON that was the
// largest part of its time, and a binary field is a substring of the
// read buffer, not a copy.
type runEntry struct {
	Format int             `json:"format"`
	Probes []inputfs.Probe `json:"-"`
	Notes  []string        `json:"notes,omitempty"`
	Files  int             `json:"files"`
	Sets   []setEntry      `json:"-"`
	// Sources are the files of the run whose bytes mention ckptlint: only
	// they can hold an ignore comment or a malformed one
	// (suppress.Mentions); the others need not be read again.
	Sources []evaluate.Source `json:"sources"`
	// Abs maps the display path of each file in Sources, and of each file
	// a finding names, to the absolute path its bytes were read from.
	Abs map[string]string `json:"abs"`

	// pending decodes the sets' findings (decodePending) once, for an entry
	// read from the store; nil for one built in this run.
	pending *pendingOnce
}

// pendingOnce is the decoding of an entry's findings and its outcome.
type pendingOnce struct {
	once sync.Once
	ok   bool
}

// decodePending decodes the findings of every set of an entry read from
// the store (their JSON, rawPending), once, and reports whether each was
// valid; an entry with one that is not is not used. The findings are
// most of an entry's decoding, and the policies start to compile only
// once the entry is loaded and its replay meets a changed file (Cached):
// Cached decodes them while the replay runs (docs/performance.md, "One
// file edited").
func (e *runEntry) decodePending() bool {
	if e.pending == nil {
		return true
	}
	e.pending.once.Do(func() {
		for i := range e.Sets {
			st := &e.Sets[i]
			pj := st.rawPending
			if pj == "null" || pj == "[]" {
				continue
			}
			if err := json.Unmarshal(unsafe.Slice(unsafe.StringData(pj), len(pj)), &st.Pending); err != nil || !pendingValid(st.Pending) { //nolint:gosec // G103: read only, as in decodeEntry
				return
			}
		}
		e.pending.ok = true
	})
	return e.pending.ok
}

// pendingValid checks what decoding a set's findings does not.
func pendingValid(ps []evaluate.Pending) bool {
	for _, p := range ps {
		if p.RuleID == "" || p.Severity < finding.Info || p.Severity > finding.Error || p.Cap < 0 || p.Cap > finding.Error {
			return false
		}
	}
	return true
}

// sameAsPath stands for a probe result equal to the probe's path (no
// path holds a NUL byte).
const sameAsPath = "\x00="

// encodeTo writes the entry's payload to w.
func (e *runEntry) encodeTo(w io.Writer) error {
	j, err := json.Marshal(e)
	if err != nil {
		return err
	}
	bw := &byteWriter{w: w}
	bw.raw(entryMagic)
	bw.field(string(j))
	bw.uvarint(len(e.Probes))
	for _, p := range e.Probes {
		res := p.Result
		if p.Op == inputfs.OpReal && res == p.Path {
			res = sameAsPath
		}
		bw.field(p.Op)
		bw.field(p.Path)
		bw.field(res)
		bw.field(p.Sig)
	}
	// A member is a file the run read: written as 1 + the index of its
	// read probe, or 0 and the path when there is none.
	readAt := make(map[string]int, len(e.Probes))
	for i, p := range e.Probes {
		if _, seen := readAt[p.Path]; !seen && strings.HasPrefix(p.Op, inputfs.OpRead+":") {
			readAt[p.Path] = i
		}
	}
	bw.uvarint(len(e.Sets))
	for _, st := range e.Sets {
		bw.field(st.Name)
		bw.field(st.Fingerprint)
		bw.field(st.Root)
		bw.uvarint(len(st.Members))
		for _, m := range st.Members {
			if i, ok := readAt[m]; ok {
				bw.uvarint(i + 1)
				continue
			}
			bw.uvarint(0)
			bw.field(m)
		}
		pj := st.rawPending
		if pj == "" {
			b, err := json.Marshal(st.Pending)
			if err != nil {
				return err
			}
			pj = string(b)
		}
		bw.field(pj)
	}
	return bw.err
}

// encode is the entry's payload in memory (tests; Store.PutWith streams
// encodeTo).
func (e *runEntry) encode() ([]byte, error) {
	var b bytes.Buffer
	err := e.encodeTo(&b)
	return b.Bytes(), err
}

// store writes e under key; a cache that cannot be written only costs
// time, so the error is dropped. An entry over its cap is recorded as such
// (markOverCap).
func (e *runEntry) store(s *cache.Store, key cache.Key) {
	if err := s.PutWith(key, e.encodeTo); errors.Is(err, errEntryTooLarge) || errors.Is(err, cache.ErrTooLarge) {
		markOverCap(s, key, len(e.Sets))
	}
}

// leastSize is a lower bound of the size of e's payload: the bytes of the
// strings every encoding of it holds in full (paths, digests, names,
// fingerprints, the findings already encoded, else their rule ids,
// messages and files), computed without encoding.
func (e *runEntry) leastSize() int {
	n := len(entryMagic)
	for _, p := range e.Probes {
		n += len(p.Op) + len(p.Path) + len(p.Result) + len(p.Sig)
	}
	for _, st := range e.Sets {
		n += len(st.Name) + len(st.Fingerprint) + len(st.Root) + len(st.rawPending)
		if st.rawPending == "" {
			for _, f := range st.Pending {
				n += len(f.RuleID) + len(f.RuleName) + len(f.Message) + len(f.Range.File)
			}
		}
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

// byteWriter writes length-prefixed fields, keeping the first error;
// past maxRunEntry bytes it stops with an error (the entry is not kept).
type byteWriter struct {
	w   io.Writer
	buf [binary.MaxVarintLen64]byte
	n   int
	err error
}

var errEntryTooLarge = fmt.Errorf("run entry over %d bytes", maxRunEntry)

func (b *byteWriter) raw(p []byte) {
	b.write(len(p))
	if b.err == nil {
		_, b.err = b.w.Write(p)
	}
}

// write counts n more bytes against maxRunEntry.
func (b *byteWriter) write(n int) {
	if b.n += n; b.n > maxRunEntry && b.err == nil {
		b.err = errEntryTooLarge
	}
}

func (b *byteWriter) uvarint(n int) {
	b.raw(binary.AppendUvarint(b.buf[:0], uint64(n))) //nolint:gosec // G115: a length, never negative
}

func (b *byteWriter) field(s string) {
	b.uvarint(len(s))
	b.write(len(s))
	if b.err == nil {
		_, b.err = io.WriteString(b.w, s)
	}
}

// byteReader reads what byteWriter wrote: fields are substrings of str,
// the payload's bytes seen as a string.
type byteReader struct {
	b   []byte
	str string
	pos int
	bad bool
}

func (r *byteReader) uvarint() int {
	if r.bad {
		return 0
	}
	v, k := binary.Uvarint(r.b[r.pos:])
	if k <= 0 || v > uint64(len(r.b)-r.pos) { //nolint:gosec // G115: pos <= len(b)
		r.bad = true
		return 0
	}
	r.pos += k
	return int(v) //nolint:gosec // G115: v <= len(b), an int
}

// index reads a uvarint that is not a length: at most limit.
func (r *byteReader) index(limit int) int {
	if r.bad {
		return 0
	}
	v, k := binary.Uvarint(r.b[r.pos:])
	if k <= 0 || v > uint64(limit) { //nolint:gosec // G115: limit >= 0
		r.bad = true
		return 0
	}
	r.pos += k
	return int(v) //nolint:gosec // G115: v <= limit, an int
}

func (r *byteReader) field() string {
	n := r.uvarint()
	if r.bad || n > len(r.b)-r.pos {
		r.bad = true
		return ""
	}
	f := r.str[r.pos : r.pos+n]
	r.pos += n
	return f
}

// maxRunEntry bounds a run entry's payload, written or read (about
// 23,000 config sets): the decoder's allocations are bounded by a small
// multiple of it. A variable for tests (TestCacheOverCap).
var maxRunEntry = 32 << 20

// The smallest encodings of a probe (four length bytes, an op and a
// path of one byte each) and of a set (a one-byte name, a SHA-256 hex
// fingerprint, an empty root, no members, "[]" findings).
const (
	minProbeBytes = 6
	minSetBytes   = 2 + 1 + 2*sha256.Size + 1 + 1 + 3
)

// knownOp reports whether op is a probe operation this build replays; a
// read's limit is at most parsed.MaxFileSize, as every read of a run.
func knownOp(op string) bool {
	switch op {
	case inputfs.OpStat, inputfs.OpDir, inputfs.OpReal, inputfs.OpRepoRoot:
		return true
	}
	l, ok := strings.CutPrefix(op, inputfs.OpRead+":")
	n, err := strconv.ParseInt(l, 10, 64)
	return ok && err == nil && n >= 0 && n <= parsed.MaxFileSize
}

// decodeEntry is encodeTo's inverse; false for anything else.
func decodeEntry(b []byte) (*runEntry, bool) {
	if !bytes.HasPrefix(b, entryMagic) || len(b) == len(entryMagic) || len(b) > maxRunEntry {
		return nil, false
	}
	b = b[len(entryMagic):]
	// Every field is a substring of one string over the payload's bytes,
	// not a copy; the payload (a fresh buffer from Store.Get) is never
	// written to.
	r := &byteReader{b: b, str: unsafe.String(&b[0], len(b))} //nolint:gosec // G103: read-only view of a buffer this function owns, see above
	j := r.field()
	if r.bad {
		return nil, false
	}
	var e runEntry
	if err := json.Unmarshal(unsafe.Slice(unsafe.StringData(j), len(j)), &e); err != nil { //nolint:gosec // G103: read only, as above
		return nil, false
	}
	// Counts are bounded by the bytes left over the smallest encoding of
	// an element, and each element is checked as it is read, so a forged
	// entry cannot make the decoder allocate much more than its own size.
	count := r.uvarint()
	if r.bad || count > (len(b)-r.pos)/minProbeBytes {
		return nil, false
	}
	e.Probes = make([]inputfs.Probe, 0, count)
	for range count {
		p := inputfs.Probe{Op: r.field(), Path: r.field(), Result: r.field(), Sig: r.field()}
		if r.bad || !knownOp(p.Op) || !filepath.IsAbs(p.Path) {
			return nil, false
		}
		if p.Result == sameAsPath {
			p.Result = p.Path
		}
		e.Probes = append(e.Probes, p)
	}
	n := r.uvarint()
	if r.bad || n > (len(b)-r.pos)/minSetBytes {
		return nil, false
	}
	e.Sets = make([]setEntry, n)
	members := 0
	for i := range e.Sets {
		st := &e.Sets[i]
		st.Name, st.Fingerprint, st.Root = r.field(), r.field(), r.field()
		n := r.uvarint()
		members += n
		if r.bad || st.Name == "" || len(st.Fingerprint) != 2*sha256.Size || members > len(e.Probes) {
			return nil, false // every member is a file the run read
		}
		st.Members = make([]string, n)
		for k := range st.Members {
			if at := r.index(len(e.Probes)); at > 0 {
				st.Members[k] = e.Probes[at-1].Path
			} else {
				st.Members[k] = r.field()
			}
		}
		st.rawPending = r.field() // decoded by decodePending
		if r.bad {
			return nil, false
		}
	}
	if r.bad || r.pos != len(b) {
		return nil, false
	}
	e.pending = &pendingOnce{}
	return &e, true
}

type setEntry struct {
	Name        string
	Fingerprint string
	Pending     []evaluate.Pending
	// Members are the real absolute paths of the set's files and their
	// xi:include targets (members); Root is the directory, as the run
	// named it, whose walk finds the set (the incremental run walks it).
	Members []string
	Root    string
	// rawPending is Pending's JSON as the entry it was decoded from held
	// it, written back as is (encodeTo): a run after an edit rewrites the
	// entry with one set changed. Empty for a set built in this run.
	rawPending string
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
	if opts.Now.IsZero() {
		opts.Now = time.Now() // one clock for the key and the run (facts' ages)
	}
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
	if n, over := overCapSets(c.Store, key); over {
		return overCapRun(ctx, c, key, n, paths, opts)
	}
	prev := loadEntry(c.Store, key)
	if prev != nil {
		go prev.decodePending() // while the replay runs; its users wait for it
		// A file whose bytes changed almost always means a config set to
		// evaluate: the policies compile meanwhile, on the core the
		// replay's system calls leave idle, instead of after it.
		srcs, upgrades, changed, ok := replay(prev, func() {
			go func() { _, _ = c.Policies.Engine(ctx) }() // its error, if any, is the one Engine returns to the run that needs it
		})
		if changed != nil {
			res, stats, done, err := incremental(ctx, c, key, base, prev, changed, upgrades, paths, opts)
			if err != nil || done {
				return res, stats, err
			}
		}
		if ok {
			res, ok, err := fromEntry(c, prev, srcs, opts)
			if err != nil {
				return nil, CacheStats{}, err
			}
			if ok {
				if len(upgrades) > 0 && (len(upgrades) >= minUpgrades || len(upgrades)*16 >= len(prev.Probes)) {
					// Files checked by their bytes this time that are now
					// old enough to trust their stat signature: the next
					// run checks them by stat alone. For a handful (the
					// file edited last), reading them again costs less
					// than rewriting the entry.
					for i, sig := range upgrades {
						prev.Probes[i].Sig = sig
					}
					c.put(prev, key)
				}
				return res, CacheStats{Hit: true}, nil
			}
		}
	}
	return lintAndStore(ctx, c, key, base, prev, paths, opts)
}

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
// files: ckptlint's version, the policy bundle, the parts of .ckptlint.hcl
// that feed the model (everything but the rule blocks) and the flags that
// do. false when .ckptlint.hcl cannot be hashed, or nothing names the
// build (buildVersion).
func baseKey(c *Cache, opts Options) (cache.Key, bool) {
	v := buildVersion()
	if v == "" {
		return cache.Key{}, false
	}
	h := cache.NewHasher("ckptlint base")
	h.String(v)
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
	return h.Sum(), true
}

// loadEntry reads and checks the run entry under key; nil when there is
// none or it is not one this build wrote.
func loadEntry(s *cache.Store, key cache.Key) *runEntry {
	b, ok := s.Get(key)
	if !ok {
		return nil
	}
	e, ok := decodeEntry(b)
	if !ok || e.Format != entryFormat || !e.valid() {
		return nil
	}
	return e
}

// valid checks what decoding does not: every probe names an absolute
// path, every source a set of the entry, every finding decoded so far
// (decodePending) has a rule and a severity.
func (e *runEntry) valid() bool {
	names := map[string]bool{}
	for _, s := range e.Sets {
		names[s.Name] = true
		if !pendingValid(s.Pending) {
			return false
		}
	}
	for _, p := range e.Probes {
		if !filepath.IsAbs(p.Path) {
			return false
		}
	}
	for _, s := range e.Sources {
		if !names[s.Set] || s.Syntax <= 0 || !filepath.IsAbs(e.Abs[s.Path]) {
			return false
		}
	}
	for _, a := range e.Abs {
		if !filepath.IsAbs(a) {
			return false
		}
	}
	return e.Files >= 0
}

// minUpgrades is how many new stat signatures make a warm run rewrite its
// entry (or a sixteenth of its probes, for small runs).
const minUpgrades = 32

// maxChanged is how many changed files a run takes incrementally
// (incremental); more, and it is made afresh.
const maxChanged = 32

// replay re-executes every probe of e, on GOMAXPROCS goroutines, and
// returns the bytes of the files it re-read by absolute path and, by
// probe index, the stat signatures that became trustworthy. ok is true
// when every probe holds. Otherwise changed lists the read probes that
// no longer hold when nothing else changed and they are at most
// maxChanged (the run can then be made incrementally); nil when some
// other probe fails too.
func replay(e *runEntry, onChange func()) (srcs map[string][]byte, upgrades map[int]string, changed []int, ok bool) {
	var once sync.Once
	workers := max(runtime.GOMAXPROCS(0), 1)
	trustBefore := time.Now().Add(-inputfs.RacyWindow)
	var mu sync.Mutex
	srcs = map[string][]byte{}
	upgrades = map[int]string{}
	var stop atomic.Bool // no incremental run: stop replaying
	var noGit sync.Map   // inputfs.Replayer.NoGit
	var wg sync.WaitGroup
	readOp := inputfs.ReadOp(parsed.MaxFileSize)
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
			up := map[int]string{}
			var ch []int
			r := &inputfs.Replayer{TrustBefore: trustBefore, Read: func(p string, b []byte) { local[p] = b }, NoGit: &noGit}
			for i := lo; i < hi; i++ {
				if stop.Load() {
					return
				}
				p := e.Probes[i]
				holds, sig := r.Check(p)
				if !holds {
					if p.Op != readOp || len(ch) >= maxChanged {
						stop.Store(true)
						return
					}
					ch = append(ch, i)
					if onChange != nil {
						once.Do(onChange)
					}
					continue
				}
				if sig != p.Sig {
					up[i] = sig
				}
			}
			mu.Lock()
			maps.Copy(srcs, local)
			maps.Copy(upgrades, up)
			changed = append(changed, ch...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if stop.Load() || len(changed) > maxChanged {
		return nil, nil, nil, false
	}
	if len(changed) > 0 {
		slices.Sort(changed)
		return srcs, upgrades, changed, false
	}
	return srcs, upgrades, nil, true
}

// fromEntry builds the result of a run from a valid entry whose probes
// hold. It reads again only the files that mention ckptlint (for their
// ignore comments) and those a finding names (for snippets and columns),
// each checked against its recorded bytes: false when one changed since
// the replay, and the run is then made afresh.
func fromEntry(c *Cache, e *runEntry, srcs map[string][]byte, opts Options) (*Result, bool, error) {
	if !e.decodePending() {
		return nil, false, nil
	}
	// The read probes of the files this may read again: those of Abs.
	reads := make(map[string]inputfs.Probe, len(e.Abs))
	for _, abs := range e.Abs {
		reads[abs] = inputfs.Probe{}
	}
	op := inputfs.ReadOp(parsed.MaxFileSize)
	for _, p := range e.Probes {
		if _, want := reads[p.Path]; want && p.Op == op {
			reads[p.Path] = p
		}
	}
	readAbs := func(abs string) ([]byte, bool) {
		if b, ok := srcs[abs]; ok {
			return b, true
		}
		p, ok := reads[abs]
		if !ok || p.Op == "" {
			return nil, false
		}
		return inputfs.ReadProbe(p)
	}
	rules := evaluate.RuleSettings(opts.Config.RuleByID)
	res := &Result{Files: e.Files, Cached: true}
	bySet := map[string][]evaluate.Source{}
	for _, s := range e.Sources {
		b, ok := readAbs(e.Abs[s.Path])
		if !ok {
			return nil, false, nil
		}
		b = evaluate.Text(s.Path, b) // a UTF-16 file's ignore comments are in its text
		s.Src = func() []byte { return b }
		bySet[s.Set] = append(bySet[s.Set], s)
	}
	// The bytes of the files the findings name, read again and checked
	// against the entry's probes; a run that finds one changed is made
	// afresh, so the groups are handed on only once all are made.
	read := map[string][]byte{}
	changed := false
	bytes := func(path string) []byte {
		if b, ok := read[path]; ok {
			return b
		}
		var b []byte
		if abs, ok := e.Abs[path]; ok {
			if b, ok = readAbs(abs); !ok {
				changed = true
			}
			b = evaluate.Text(path, b)
		} else {
			b = evaluate.ReadSource(path, nil)
		}
		read[path] = b
		return b
	}
	var groups []Group
	policyRules, err := c.policyRules(opts.NoInlineIgnores)
	if err != nil {
		return nil, false, err
	}
	g := newGrouper(policyRules, rules, opts.NoInlineIgnores, func(grp Group) error { groups = append(groups, grp); return nil })
	for _, s := range e.Sets {
		res.Sets = append(res.Sets, &model.Set{Name: s.Name})
		_ = g.set(s.Name, bySet[s.Name], evaluate.Settle(s.Pending, rules), bytes) // the collector never fails
	}
	_ = g.last(nil, bytes) // an entry is never stored with leftovers (lintAndStore)
	if changed {
		return nil, false, nil
	}
	out := opts.Report
	if out == nil {
		out = collect(res)
	}
	for _, grp := range groups {
		if err := out(grp); err != nil {
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

// policyRules are the policy rules an ignore comment may name, from the
// policies' metadata (nothing is compiled); none when inline ignores are
// not read.
func (c *Cache) policyRules(noInline bool) ([]*engine.Rule, error) {
	if noInline {
		return nil, nil
	}
	return c.Policies.Rules()
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
	st, err := newStream(paths, opts, obs)
	if err != nil {
		return nil, CacheStats{}, err
	}
	known := map[string][]evaluate.Pending{}
	if prev != nil && prev.decodePending() {
		for _, s := range prev.Sets {
			known[s.Fingerprint] = s.Pending
		}
	}
	entry := &runEntry{Format: entryFormat, Abs: map[string]string{}}
	storable := true
	var (
		sets  []*model.Set
		names []string // Release: the sets' names (as Lint)
		stats CacheStats
		links inputfs.Symlinks
	)
	kept := &sourceNotes{readAgain: st.t.ReadAgain, kept: st.t.Kept, keep: true} // what is kept of each set (as Lint)
	rules := evaluate.RuleSettings(opts.Config.RuleByID)
	res := &Result{}
	out := opts.Report
	if out == nil {
		out = collect(res)
	}
	policyRules, err := c.policyRules(opts.NoInlineIgnores)
	if err != nil {
		return nil, CacheStats{}, err
	}
	g := newGrouper(policyRules, rules, opts.NoInlineIgnores, out)
	cwd, _ := os.Getwd()
	// Each set is fingerprinted and, on a miss, evaluated while the next
	// are assembled (stream); the policies are compiled at the first miss.
	type evaluated struct {
		fp       string
		ok, hit  bool
		findings []evaluate.Pending
	}
	err = ordered.Map(st.sets(), opts.Workers, func(s *model.Set) (e evaluated, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = &PanicError{Value: r, Stack: debug.Stack()}
			}
		}()
		fp, ok := fingerprint(base, s)
		if p, hit := known[fp]; ok && hit {
			return evaluated{fp: fp, ok: ok, hit: true, findings: p}, nil
		}
		eng, err := c.Policies.Engine(ctx)
		if err != nil {
			return evaluated{}, err
		}
		p, err := evaluate.Raw(ctx, eng, s)
		if err != nil {
			return evaluated{}, fmt.Errorf("config set %s: %w", s.Name, err)
		}
		return evaluated{fp: fp, ok: ok, findings: p}, nil
	}, func(s *model.Set, e evaluated) error {
		storable = storable && e.ok
		mem, root := members(&links, cwd, s)
		entry.Sets = append(entry.Sets, setEntry{Name: s.Name, Fingerprint: e.fp, Members: mem, Root: root, Pending: e.findings})
		if e.hit {
			stats.Reused++
		} else {
			stats.Evaluated++
		}
		defer st.done(s)
		// The entry keeps the ignore sources whatever opts.NoInlineIgnores
		// says (it is no part of the key); the grouper reads them only
		// when inline ignores apply.
		srcs := kept.add(s, true)
		if opts.Release {
			names = append(names, s.Name)
		} else {
			sets = append(sets, s)
		}
		return g.set(s.Name, srcs, evaluate.Settle(e.findings, rules), func(path string) []byte { return kept.fileBytes(s, path) })
	})
	if err == nil {
		err = st.err()
	}
	if err != nil {
		return nil, stats, err
	}
	// A run that finds a fix journal or staged file in the tree is not
	// stored either: the entry would not repeat its CKPT005 warnings.
	storable = storable && len(st.t.Leftovers()) == 0
	if err := g.last(leftoverFindings(st.t, rules), kept.lastBytes); err != nil {
		return nil, stats, err
	}
	t := st.t
	entry.Files = t.Len()
	if opts.Release {
		sets = namedSets(names)
	}
	sources := kept.srcs
	res.Sets, res.Files, res.Unread, res.Unlinted = sets, t.Len(), t.Unread(), st.unlinted
	// A run that could not read something, or did not lint every set, is
	// not stored: the next run tries again (and ends with exit code 2
	// again).
	if storable && len(res.Unread) == 0 && res.Unlinted == nil {
		entry.Probes = obs.Probes()
		entry.Notes = notes
		absOf := func(path string) string {
			abs := filepath.FromSlash(path)
			if !filepath.IsAbs(abs) {
				abs = filepath.Join(cwd, abs)
			}
			if r, err := filepath.EvalSymlinks(abs); err == nil {
				abs = r
			}
			return abs
		}
		for _, s := range sources {
			src := s.Src()
			s.Src = nil
			if !suppress.Mentions(src) {
				continue
			}
			entry.Sources = append(entry.Sources, s)
			entry.Abs[s.Path] = absOf(s.Path)
		}
		for _, se := range entry.Sets {
			for _, f := range se.Pending {
				if path := f.Range.File; path != "" && entry.Abs[path] == "" {
					entry.Abs[path] = absOf(path)
				}
			}
		}
		if entry.leastSize() > maxRunEntry {
			// Past the cap before it is encoded: not written at all.
			markOverCap(c.Store, key, len(entry.Sets))
			noteOverCap(note, len(entry.Sets))
			stats.OverCap = true
		} else {
			c.put(entry, key)
		}
	}
	return res, stats, nil
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
//   - the version-evidence search (lint/evidence: at most MaxFiles files
//     and MaxTotalBytes bytes per run, read as "read:<limit>" with a limit
//     of at most MaxFileBytes): it never ran short when it read fewer files
//     than its limit and had room for one more file of the largest size;
//   - the input budget of discovery (inputfs.MaxRunInput, reads of
//     parsed.MaxFileSize): half of it, since an xi:include target read
//     again for a Hadoop release that drops CDATA (lint/assemble) counts
//     twice.
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

// members returns the real absolute paths of the files of s and of their
// xi:include targets, and the directory (as the run names it) whose walk
// finds s: that of its first file.
func members(links *inputfs.Symlinks, cwd string, s *model.Set) (paths []string, root string) {
	add := func(p string) {
		abs, err := inputfs.AbsFrom(cwd, filepath.FromSlash(p))
		if err != nil {
			return
		}
		if r, err := links.Eval(abs); err == nil {
			abs = r
		}
		paths = append(paths, abs)
	}
	for _, f := range s.Files() {
		if f == nil {
			continue
		}
		if root == "" {
			root = filepath.Dir(filepath.FromSlash(f.Path))
		}
		add(f.Path)
		for _, inc := range f.Includes {
			add(inc)
		}
	}
	return paths, root
}

// incremental makes a run whose previous entry prev holds except for the
// read probes changed (files whose bytes changed; every directory
// listing, type, symlink and repository root is as it was), without
// walking and parsing the whole tree again: it walks only the root
// directories of the config sets those files belong to, over the read
// boundary of the whole run, and takes every other set's findings from
// prev. done is false, and the caller makes the run afresh, whenever the
// sets that walk assembles might differ from what a whole walk would
// assemble: a changed file no set holds (a file discovery classified
// away, a version-evidence file), a set the walk finds that prev does not
// have or whose files differ, deployment blocks in .ckptlint.hcl (they
// claim files across directories), notes or unread files, a path named
// that is not a directory. The entry it stores is prev with those sets
// and probes replaced; the result is what fromEntry gives for it, as for
// any run answered from the cache.
func incremental(ctx context.Context, c *Cache, key, base cache.Key, prev *runEntry, changed []int, upgrades map[int]string,
	paths []string, opts Options) (res *Result, stats CacheStats, done bool, err error) {
	if len(prev.Notes) > 0 || (opts.Config != nil && len(opts.Config.Deployments) > 0) || !prev.decodePending() {
		return nil, stats, false, nil
	}
	named := paths
	if len(named) == 0 {
		named = []string{"."}
	}
	for _, p := range named {
		if st, err := os.Stat(p); err != nil || !st.IsDir() {
			return nil, stats, false, nil //nolint:nilerr // a file named alone is linted as a whole run, which reports a missing path
		}
	}
	changedPath := map[string]bool{}
	for _, i := range changed {
		changedPath[prev.Probes[i].Path] = true
	}
	held := map[string]bool{}
	affected := map[string]bool{}
	var roots []string
	for _, s := range prev.Sets {
		for _, m := range s.Members {
			if changedPath[m] {
				held[m] = true
				if !affected[s.Name] {
					affected[s.Name] = true
					if !slices.Contains(roots, s.Root) {
						roots = append(roots, s.Root)
					}
				}
			}
		}
	}
	if len(held) != len(changedPath) || !withinBudgets(prev.Probes) || !rootsWithin(roots, named) {
		return nil, stats, false, nil
	}

	obs := inputfs.NewObserver()
	noted := false
	opts.Note = func(string) { noted = true }
	sets, t, err := assembleSetsWalking(roots, named, opts, obs)
	if err != nil || noted || len(t.Unread()) > 0 {
		return nil, stats, false, nil //nolint:nilerr // the whole run the caller makes then reports it
	}
	prevIdx := make(map[string]int, len(prev.Sets))
	for i, s := range prev.Sets {
		prevIdx[s.Name] = i
	}
	var links inputfs.Symlinks
	cwd, _ := os.Getwd()
	next := *prev
	next.Sets = slices.Clone(prev.Sets)
	found := map[string]*model.Set{}
	var miss []*model.Set
	var missIdx []int
	known := map[string][]evaluate.Pending{}
	for _, s := range prev.Sets {
		known[s.Fingerprint] = s.Pending
	}
	for _, s := range sets {
		i, ok := prevIdx[s.Name]
		if !ok || found[s.Name] != nil {
			return nil, stats, false, nil
		}
		mem, root := members(&links, cwd, s)
		if !slices.Equal(mem, prev.Sets[i].Members) || root != prev.Sets[i].Root {
			return nil, stats, false, nil
		}
		found[s.Name] = s
		if !affected[s.Name] {
			continue // unchanged: prev's findings stand
		}
		fp, ok := fingerprint(base, s)
		if !ok {
			return nil, stats, false, nil
		}
		next.Sets[i] = setEntry{Name: s.Name, Fingerprint: fp, Members: mem, Root: root}
		if p, hit := known[fp]; hit {
			next.Sets[i].Pending = p
			stats.Reused++
			continue
		}
		miss = append(miss, s)
		missIdx = append(missIdx, i)
	}
	for name := range affected {
		if found[name] == nil {
			return nil, stats, false, nil
		}
	}
	stats.Reused += len(prev.Sets) - len(affected)
	stats.Evaluated = len(miss)
	// Probes: prev's, with the walk's observations in place of the
	// same operations on the same paths, and the new signatures.
	fresh := obs.Probes()
	at := make(map[[2]string]int, len(prev.Probes))
	next.Probes = slices.Clone(prev.Probes)
	for i, sig := range upgrades {
		next.Probes[i].Sig = sig
	}
	for i, p := range next.Probes {
		at[[2]string{p.Op, p.Path}] = i
	}
	for _, p := range fresh {
		if i, ok := at[[2]string{p.Op, p.Path}]; ok {
			next.Probes[i] = p
		} else {
			next.Probes = append(next.Probes, p)
		}
	}
	for _, i := range changed { // every changed file was read again
		if _, ok := at[[2]string{prev.Probes[i].Op, prev.Probes[i].Path}]; !ok || next.Probes[i] == prev.Probes[i] {
			return nil, stats, false, nil
		}
	}
	slices.SortFunc(next.Probes, func(a, b inputfs.Probe) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return strings.Compare(a.Op, b.Op)
	})

	// Sources and Abs: prev's for the other sets, the walk's for the
	// sets it assembled.
	next.Abs = maps.Clone(prev.Abs)
	absOf := func(path string) string {
		abs, err := inputfs.AbsFrom(cwd, filepath.FromSlash(path))
		if err != nil {
			return path
		}
		if r, err := links.Eval(abs); err == nil {
			abs = r
		}
		return abs
	}
	marked := map[string][]evaluate.Source{}
	for _, src := range evaluate.Sources(sets, nil) {
		b := src.Src()
		src.Src = nil
		if suppress.Mentions(b) {
			marked[src.Set] = append(marked[src.Set], src)
			next.Abs[src.Path] = absOf(src.Path)
		}
	}
	next.Sources = nil
	prevSources := map[string][]evaluate.Source{}
	for _, src := range prev.Sources {
		prevSources[src.Set] = append(prevSources[src.Set], src)
	}
	for _, s := range next.Sets {
		if found[s.Name] != nil {
			next.Sources = append(next.Sources, marked[s.Name]...)
		} else {
			next.Sources = append(next.Sources, prevSources[s.Name]...)
		}
	}
	// The sets to evaluate wait for the compile (started by the replay)
	// only now: everything above ran while it did.
	if len(miss) > 0 {
		eng, err := c.Policies.Engine(ctx)
		if err != nil {
			return nil, stats, false, err
		}
		idx := make([]int, len(miss))
		for i := range idx {
			idx[i] = i
		}
		got, err := evaluate.RawAll(ctx, eng, miss, idx, opts.Workers)
		if err != nil {
			return nil, stats, false, err
		}
		for k, p := range got {
			next.Sets[missIdx[k]].Pending = p
		}
	}

	for _, i := range missIdx {
		for _, f := range next.Sets[i].Pending {
			if path := f.Range.File; path != "" && next.Abs[path] == "" {
				next.Abs[path] = absOf(path)
			}
		}
	}
	if !next.valid() || !withinBudgets(next.Probes) {
		return nil, stats, false, nil
	}
	res, ok, err := fromEntry(c, &next, nil, opts)
	if err != nil {
		return nil, stats, false, err
	}
	if !ok {
		return nil, stats, false, nil
	}
	c.put(&next, key)
	stats.Incremental = true
	return res, stats, true, nil
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
