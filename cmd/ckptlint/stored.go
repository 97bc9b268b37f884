package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/ckptlint/ckptlint/internal/cache"
	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/report"
	"github.com/ckptlint/ckptlint/internal/safetext"
	"github.com/ckptlint/ckptlint/lint"
)

// Stored reports (docs/cache.md, "Stored reports"). A run the result cache
// answers whole (a hit) renders every stored finding again, which on a
// tree of many findings is most of the run: decoding the entry's findings
// and encoding them as JSON or SARIF again (docs/performance.md). The
// bytes of a run's reports are therefore kept in the cache too, beside
// the entry whose findings they render: under the run's key and
// everything else the reports are made of (storedSpec), with the name of
// that entry's findings (lint.Cache.Reported) inside. A later hit on the
// same entry with the same spec writes them again as they are
// (lint.Options.Replay), through the same two-step write as a rendered
// report, and takes its exit code and notes from them.
//
// Bytes read back from the cache are printed as they are, so they are
// checked first: whoever can write the cache directory can make ckptlint
// report what they wrote (docs/cache.md, "Size, writes and trust"), but a
// stored report that holds anything a terminal or a CI runner would act on
// beyond what the renderers write (safetext.Inert: escape sequences,
// workflow commands other than GitHub's annotations) is not replayed, so
// a forged one is no worse than a forged entry. Colored text on a
// terminal, whose escapes Inert refuses, is neither stored nor replayed.

// storedMagic starts a stored-reports payload; the layout is the reports'
// bytes, one chunk per report in the order they were written, then the
// trailer (a gob storedTrailer) and its length in 4 bytes.
const storedMagic = "ckptlint stored reports 1\n"

// storedTrailer says what the chunks are and what the run that wrote them
// found besides them.
type storedTrailer struct {
	Entry  cache.Key // the name of the findings the reports render (lint.Cache.Reported)
	Chunks []storedChunk
	// Counts are the findings per severity (error, warning, info), Max the
	// highest (0: none), Hidden per output what its display threshold
	// left out, Sets the config sets linted.
	Counts [3]int
	Max    int
	Hidden []int
	Sets   int
}

// storedChunk is one report's bytes: outs[Output], Len bytes.
type storedChunk struct{ Output, Len int }

// maxTrailer bounds a trailer's encoding (a handful of outputs).
const maxTrailer = 64 << 10

// storedReports is what a run does with stored reports: replay them
// (replay, as lint.Options.Replay) or record what it writes (record).
type storedReports struct {
	store *cache.Store
	spec  []byte
	rep   *reports
	// entry waits for the run's entry to be written and names it
	// (lint.Cache Wait, then Reported).
	entry func() (cache.Key, bool)
}

// newStoredReports are the stored reports of a run with the cache c.
func newStoredReports(c *lint.Cache, rep *reports, spec []byte) *storedReports {
	return &storedReports{store: c.Store, spec: spec, rep: rep, entry: func() (cache.Key, bool) {
		c.Wait()
		_, e, ok := c.Reported()
		return e, ok
	}}
}

// storedSpec is what a run's reports are made of besides the findings
// and the run's key (which holds the build, the policies, .ckptlint.hcl
// but its rule blocks, the flags that change findings, the working
// directory and the paths): the outputs (format, standard output or a
// file) and their options, the display
// thresholds, the head (version, rules, the disabled ones, the fail
// level, the directory links are relative to), the rule selection and
// the rule blocks (applied after the cache) and whether inline ignores
// apply. nil when it cannot be encoded: the run then stores no report.
func storedSpec(rep *reports, head report.Result, opts lint.Options, quiet, compact bool) []byte {
	// An output's destination counts as standard output or a file: what
	// is written does not depend on the file's name (the Action names a
	// fresh temporary file on every run).
	type out struct {
		Name   string
		Stdout bool
		Show   finding.Severity
	}
	spec := struct {
		Outs            []out
		Quiet, Compact  bool
		Head            report.Result
		Rules           lint.RuleFlags
		RuleBlocks      any
		NoInlineIgnores bool
	}{Quiet: quiet, Compact: compact, Head: head, Rules: opts.Rules, NoInlineIgnores: opts.NoInlineIgnores}
	for i, o := range rep.outs {
		spec.Outs = append(spec.Outs, out{o.name, o.path == "", rep.show[i]})
	}
	if opts.Config != nil {
		spec.RuleBlocks = opts.Config.Rules
	}
	b, err := json.Marshal(spec)
	if err != nil {
		return nil
	}
	return b
}

// storedFor are the stored reports of a lint run, set as opts.Replay; nil
// for coloured text on a terminal (tty), a run with an overlay (the
// cache does not answer it) or without the cache.
func storedFor(c *lint.Cache, rep *reports, head report.Result, opts *lint.Options, p *lintParams, tty bool) *storedReports {
	if c.Store == nil || opts.Overlay != nil || tty {
		return nil
	}
	spec := storedSpec(rep, head, *opts, p.quiet, p.compact)
	if spec == nil {
		return nil
	}
	sr := newStoredReports(c, rep, spec)
	opts.Replay = sr.replay
	return sr
}

func (s *storedReports) key(run cache.Key) cache.Key {
	return cache.NewHasher("ckptlint stored reports").Bytes(run[:]).Bytes(s.spec).Sum()
}

// replay is lint.Options.Replay: true when the reports stored for run,
// rendering the findings named entry, are there, one for each output the
// run writes, and pass every check; the run's reports are then those
// bytes.
func (s *storedReports) replay(run, entry cache.Key) bool {
	b, ok := s.store.Get(s.key(run))
	if !ok {
		return false
	}
	outs, tr, ok := decodeStored(b, len(s.rep.outs))
	if !ok || tr.Entry != entry {
		return false
	}
	for i, o := range outs {
		name := s.rep.outs[i].name
		skipped := report.Streams(name) && s.rep.streams[i] == nil // --quiet text
		if o == nil && !skipped || o != nil && !safetext.Inert(o, name == "github") {
			return false
		}
		if name == "junit" && bytes.Contains(o, []byte("<!")) {
			return false // a DOCTYPE (entities for a JUnit reader to resolve): encoding/xml writes none
		}
	}
	r := s.rep
	r.replayed, r.replayedSets = outs, tr.Sets
	r.counts = map[string]int{"error": tr.Counts[0], "warning": tr.Counts[1], "info": tr.Counts[2]}
	r.max = finding.Severity(tr.Max)
	copy(r.hidden, tr.Hidden)
	return true
}

// decodeStored splits a stored-reports payload into each output's bytes
// (nil for one not written, as --quiet text) and its trailer; false for
// anything that is not one for n outputs.
func decodeStored(b []byte, n int) ([][]byte, storedTrailer, bool) {
	var tr storedTrailer
	if !bytes.HasPrefix(b, []byte(storedMagic)) || len(b) < len(storedMagic)+4 {
		return nil, tr, false
	}
	body := b[len(storedMagic):]
	tl32 := binary.BigEndian.Uint32(body[len(body)-4:])
	if tl32 > maxTrailer { // compared unconverted: an int of 32 bits would go negative
		return nil, tr, false
	}
	tl := int(tl32)
	if tl > len(body)-4 {
		return nil, tr, false
	}
	chunks := body[:len(body)-4-tl]
	if err := gob.NewDecoder(bytes.NewReader(body[len(body)-4-tl : len(body)-4])).Decode(&tr); err != nil {
		return nil, tr, false
	}
	if len(tr.Hidden) != n || len(tr.Chunks) > n || tr.Sets < 0 || tr.Max < 0 || tr.Max > int(finding.Error) ||
		slices.ContainsFunc(tr.Hidden, func(h int) bool { return h < 0 }) || tr.Counts[0] < 0 || tr.Counts[1] < 0 || tr.Counts[2] < 0 {
		return nil, tr, false
	}
	outs := make([][]byte, n)
	off := 0
	for _, c := range tr.Chunks {
		if c.Output < 0 || c.Output >= n || outs[c.Output] != nil || c.Len < 0 || c.Len > len(chunks)-off {
			return nil, tr, false
		}
		outs[c.Output] = chunks[off : off+c.Len : off+c.Len]
		off += c.Len
	}
	if off != len(chunks) {
		return nil, tr, false
	}
	return outs, tr, true
}

// errNotStored ends a record whose run's result is in no entry.
var errNotStored = errors.New("the run's result is in no cache entry")

// recording streams the reports a run writes into the cache as they are
// written (tee), on a goroutine of its own, and finishes the payload with
// the trailer once the run's entry is written (done). The reports hand
// it blocks on a channel, so writing them and storing them overlap.
type recording struct {
	s      *storedReports
	blocks chan []byte
	bw     *bufio.Writer // over blockSink: a streamer's many small writes go in large blocks
	wg     sync.WaitGroup
	failed atomic.Bool // the store stopped taking blocks: what follows is dropped
	cancel atomic.Bool // abort: the store is to keep nothing
	chunks []storedChunk
	size   int // the reports' bytes so far
	closed bool
}

// recordBlocks is how many blocks of recordBlock bytes may wait for the
// store.
const (
	recordBlocks = 16
	recordBlock  = 256 << 10
)

// recordRun starts recording the reports of the run res, with the cache
// c, as they are written (reports.tee); nil (whose methods do nothing)
// when stored reports answered it, or the cache had no key for it.
func (s *storedReports) recordRun(c *lint.Cache, res *lint.Result) *recording {
	if s == nil || res.Replayed {
		return nil
	}
	run, _, _ := c.Reported()
	if run == (cache.Key{}) {
		return nil
	}
	rc := s.record(run)
	s.rep.tee = rc.tee
	return rc
}

// record starts recording the reports of the run with key run.
func (s *storedReports) record(run cache.Key) *recording {
	rc := &recording{s: s, blocks: make(chan []byte, recordBlocks)}
	k := s.key(run)
	rc.wg.Go(func() {
		err := s.store.PutWith(k, func(w io.Writer) error {
			for b := range rc.blocks {
				if _, err := w.Write(b); err != nil {
					return err
				}
			}
			if rc.cancel.Load() {
				return errNotStored
			}
			return nil
		})
		if err != nil {
			rc.failed.Store(true)
			for range rc.blocks { // the reports never wait on a store that gave up
			}
		}
	})
	rc.bw = bufio.NewWriterSize(blockSink{rc}, recordBlock)
	_, _ = rc.bw.WriteString(storedMagic)
	return rc
}

// blockSink hands the store a copy of each block and never fails: once
// the store gives up, the rest is dropped (recording.failed).
type blockSink struct{ rc *recording }

func (p blockSink) Write(b []byte) (int, error) {
	n := len(b)
	for len(b) > 0 && !p.rc.failed.Load() {
		// A copy (bufio reuses b) of at most one block: a whole report
		// written at once passes bufio by, and waits for the store a block
		// at a time instead of being copied whole.
		m := min(len(b), recordBlock)
		p.rc.blocks <- bytes.Clone(b[:m])
		b = b[m:]
	}
	return n, nil
}

// tee is where output i's bytes are copied as they are written: a writer
// that never fails, so a store that cannot keep them costs the reports
// nothing.
func (rc *recording) tee(i int) io.Writer {
	rc.chunks = append(rc.chunks, storedChunk{Output: i})
	return teeWriter{rc}
}

type teeWriter struct{ rc *recording }

func (t teeWriter) Write(p []byte) (int, error) {
	rc := t.rc
	if rc.size += len(p); rc.size > cache.MaxEntry {
		// Reports the store would refuse: stop copying them now, not
		// once it has taken 64 MiB to remove (done then drops the record).
		rc.failed.Store(true)
		return len(p), nil
	}
	_, _ = rc.bw.Write(p) // blockSink never fails
	rc.chunks[len(rc.chunks)-1].Len += len(p)
	return len(p), nil
}

// done finishes the record once the run's entry is written: the trailer,
// naming that entry; without one (lint.Cache.Reported false) the record
// is dropped.
func (rc *recording) done(sets int) {
	if rc == nil || rc.closed {
		return
	}
	_ = rc.bw.Flush()
	entry, ok := rc.s.entry()
	r := rc.s.rep
	tr := storedTrailer{Entry: entry, Chunks: rc.chunks, Max: int(r.max), Hidden: r.hidden, Sets: sets,
		Counts: [3]int{r.counts["error"], r.counts["warning"], r.counts["info"]}}
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(tr); !ok || rc.failed.Load() || err != nil || b.Len() > maxTrailer {
		rc.abort()
		return
	}
	b.Write(binary.BigEndian.AppendUint32(nil, uint32(b.Len()))) //nolint:gosec // G115: at most maxTrailer
	_, _ = blockSink{rc}.Write(b.Bytes())
	rc.closed = true
	close(rc.blocks)
	rc.wg.Wait()
}

// abort drops the record (the temporary file is removed) and waits for
// its goroutine; a no-op once done.
func (rc *recording) abort() {
	if rc == nil || rc.closed {
		return
	}
	rc.closed = true
	rc.cancel.Store(true)
	close(rc.blocks)
	rc.wg.Wait()
}
