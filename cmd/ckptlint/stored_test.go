package main

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"io"
	"testing"

	"github.com/ckptlint/ckptlint/internal/cache"
	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/report"
)

// storedFixture is a run with two outputs (JSON on standard output,
// GitHub to a file) whose stored reports live in a store of its own.
func storedFixture(t *testing.T, entry cache.Key) *storedReports {
	t.Helper()
	store, err := cache.Open(t.TempDir(), cache.DefaultMaxSize)
	if err != nil {
		t.Fatal(err)
	}
	rep := &reports{outs: []output{{name: "json"}, {name: "github", path: "gh.txt"}}, streams: []*streamOut{{}, {}}, counts: report.Counts(nil),
		show: []finding.Severity{finding.Info, finding.Warning}, hidden: make([]int, 2)}
	return &storedReports{store: store, spec: []byte("spec"), rep: rep,
		entry: func() (cache.Key, bool) { return entry, true }}
}

var (
	storedJSON   = []byte("{\n  \"findings\": [\n    {\"message\": \"caf\u00e9 \u2192 x\"}\n  ]\n}\n")
	storedGitHub = []byte("::warning file=conf/flink-conf.yaml,line=1,col=1,endLine=1,endColumn=2,title=CKPT501 x::m%0A%0Ad\n")
)

// record stores outs (by output index, in that order) as a run would.
func record(sr *storedReports, run cache.Key, outs ...[]byte) {
	rc := sr.record(run)
	for i, b := range outs {
		_, _ = rc.tee(i).Write(b)
	}
	sr.rep.counts["warning"], sr.rep.max, sr.rep.hidden[1] = 2, finding.Warning, 1
	rc.done(3)
}

func TestStoredReportsRoundTrip(t *testing.T) {
	run, entry := cache.Key{1}, cache.Key{2}
	sr := storedFixture(t, entry)
	record(sr, run, storedJSON, storedGitHub)

	sr.rep.counts, sr.rep.max, sr.rep.hidden = report.Counts(nil), 0, make([]int, 2)
	if sr.replay(run, cache.Key{3}) {
		t.Fatal("replayed for another entry")
	}
	if sr.replay(cache.Key{4}, entry) {
		t.Fatal("replayed for another run")
	}
	if !sr.replay(run, entry) {
		t.Fatal("not replayed")
	}
	r := sr.rep
	if !bytes.Equal(r.replayed[0], storedJSON) || !bytes.Equal(r.replayed[1], storedGitHub) {
		t.Fatalf("replayed %q", r.replayed)
	}
	if r.replayedSets != 3 || r.max != finding.Warning || r.counts["warning"] != 2 || r.hidden[1] != 1 {
		t.Fatalf("replayed sets %d max %v counts %v hidden %v", r.replayedSets, r.max, r.counts, r.hidden)
	}
	other := *sr
	other.spec = []byte("another spec")
	if other.replay(run, entry) {
		t.Fatal("replayed for another spec")
	}
	// A record that lacks an output the run writes is not replayed.
	sr = storedFixture(t, entry)
	rc := sr.record(run)
	_, _ = rc.tee(0).Write(storedJSON)
	rc.done(1)
	if sr.replay(run, entry) {
		t.Fatal("replayed a record without the GitHub output")
	}
}

// TestStoredReportsRefuseActive: a stored report holding what a CI runner
// or a terminal acts on beyond the renderers' own output is not replayed,
// whoever wrote it into the cache.
func TestStoredReportsRefuseActive(t *testing.T) {
	run, entry := cache.Key{1}, cache.Key{2}
	for name, outs := range map[string][2][]byte{
		"workflow command in JSON":   {append(bytes.Clone(storedJSON), "::stop-commands::x\n"...), storedGitHub},
		"legacy command":             {append(bytes.Clone(storedJSON), "  ##[set-output name=x]y\n"...), storedGitHub},
		"escape sequence":            {append(bytes.Clone(storedJSON), "\x1b]52;c;aGk=\x07\n"...), storedGitHub},
		"other GitHub command":       {storedJSON, []byte("::add-mask::secret\n")},
		"indented GitHub command":    {storedJSON, []byte("  ::warning file=x::m\n")},
		"carriage return in GitHub":  {storedJSON, []byte("::warning file=x::m\r::stop-commands::x\n")},
		"invalid UTF-8":              {append(bytes.Clone(storedJSON), 0xff), storedGitHub},
		"bidirectional control char": {append(bytes.Clone(storedJSON), "\u202e"...), storedGitHub},
		"a JUnit doctype":            {[]byte("<?xml version=\"1.0\"?>\n<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>\n<x>&e;</x>\n"), storedGitHub},
	} {
		t.Run(name, func(t *testing.T) {
			sr := storedFixture(t, entry)
			if name == "a JUnit doctype" {
				sr.rep.outs[0].name = "junit"
			}
			record(sr, run, outs[0], outs[1])
			if sr.replay(run, entry) {
				t.Fatalf("replayed %q", outs)
			}
		})
	}
}

// TestStoredReportsDropped: a record the store stops reading, or whose
// run's result is in no entry, is not kept.
func TestStoredReportsDropped(t *testing.T) {
	run := cache.Key{1}
	sr := storedFixture(t, cache.Key{2})
	sr.entry = func() (cache.Key, bool) { return cache.Key{}, false }
	record(sr, run, storedJSON, storedGitHub)
	if _, ok := sr.store.Get(sr.key(run)); ok {
		t.Fatal("a record of a run in no entry was stored")
	}
	sr = storedFixture(t, cache.Key{2})
	rc := sr.record(run)
	_, _ = rc.tee(0).Write(storedJSON)
	rc.abort()
	rc.done(1) // a no-op once aborted
	if _, ok := sr.store.Get(sr.key(run)); ok {
		t.Fatal("an aborted record was stored")
	}
}

// storedPayload is a payload of chunks and the trailer tr.
func storedPayload(t testing.TB, tr storedTrailer, chunks ...[]byte) []byte {
	b := []byte(storedMagic)
	for _, c := range chunks {
		b = append(b, c...)
	}
	var g bytes.Buffer
	if err := gob.NewEncoder(&g).Encode(tr); err != nil {
		t.Fatal(err)
	}
	b = append(b, g.Bytes()...)
	return binary.BigEndian.AppendUint32(b, uint32(g.Len()))
}

func TestDecodeStoredRefuses(t *testing.T) {
	ok := storedTrailer{Chunks: []storedChunk{{0, 3}, {1, 2}}, Hidden: []int{0, 0}}
	if _, _, good := decodeStored(storedPayload(t, ok, []byte("abc"), []byte("de")), 2); !good {
		t.Fatal("a good payload refused")
	}
	for name, tr := range map[string]storedTrailer{
		"chunk past the end":     {Chunks: []storedChunk{{0, 3}, {1, 3}}, Hidden: []int{0, 0}},
		"bytes left over":        {Chunks: []storedChunk{{0, 3}}, Hidden: []int{0, 0}},
		"output twice":           {Chunks: []storedChunk{{0, 3}, {0, 2}}, Hidden: []int{0, 0}},
		"output out of range":    {Chunks: []storedChunk{{0, 3}, {2, 2}}, Hidden: []int{0, 0}},
		"negative length":        {Chunks: []storedChunk{{0, 5}, {1, -1}}, Hidden: []int{0, 0}},
		"outputs of another run": {Chunks: []storedChunk{{0, 3}, {1, 2}}, Hidden: []int{0}},
		"severity out of range":  {Chunks: []storedChunk{{0, 3}, {1, 2}}, Hidden: []int{0, 0}, Max: 9},
		"negative count":         {Chunks: []storedChunk{{0, 3}, {1, 2}}, Hidden: []int{0, 0}, Counts: [3]int{-1}},
		"negative hidden":        {Chunks: []storedChunk{{0, 3}, {1, 2}}, Hidden: []int{0, -2}},
	} {
		if _, _, good := decodeStored(storedPayload(t, tr, []byte("abc"), []byte("de")), 2); good {
			t.Errorf("%s: accepted", name)
		}
	}
	// A trailer length that an int of 32 bits would read as negative.
	huge := binary.BigEndian.AppendUint32([]byte(storedMagic+"abcde"), 0xfffffff0)
	if _, _, good := decodeStored(huge, 2); good {
		t.Error("a trailer length of 0xfffffff0: accepted")
	}
	good := storedPayload(t, ok, []byte("abc"), []byte("de"))
	for n := range len(good) {
		if _, _, ok := decodeStored(good[:n], 2); ok {
			t.Errorf("truncated to %d bytes: accepted", n)
		}
	}
}

// FuzzDecodeStored: any payload is refused or split within its bounds,
// never a panic.
func FuzzDecodeStored(f *testing.F) {
	f.Add(storedPayload(f, storedTrailer{Chunks: []storedChunk{{0, 3}, {1, 2}}, Hidden: []int{0, 0}}, []byte("abc"), []byte("de")))
	f.Add([]byte(storedMagic))
	f.Fuzz(func(t *testing.T, b []byte) {
		outs, _, ok := decodeStored(b, 2)
		if !ok {
			return
		}
		n := 0
		for _, o := range outs {
			n += len(o)
		}
		if n > len(b) {
			t.Fatalf("%d bytes of outputs from a %d-byte payload", n, len(b))
		}
	})
}

var _ io.Writer = teeWriter{}

// TestStoredReportsOverCap: reports past what one cache entry holds are
// not stored, and stop being copied once they pass it.
func TestStoredReportsOverCap(t *testing.T) {
	run, entry := cache.Key{1}, cache.Key{2}
	sr := storedFixture(t, entry)
	rc := sr.record(run)
	w := rc.tee(0)
	block := bytes.Repeat([]byte("{\"x\": 1}\n"), 1<<16)
	for n := 0; n <= cache.MaxEntry; n += len(block) {
		_, _ = w.Write(block)
	}
	if !rc.failed.Load() {
		t.Fatal("still copying past cache.MaxEntry")
	}
	_, _ = rc.tee(1).Write(storedGitHub)
	rc.done(1)
	if _, ok := sr.store.Get(sr.key(run)); ok {
		t.Fatal("reports over the cap were stored")
	}
}
