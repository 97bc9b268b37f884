package lint

import (
	"bytes"
	"encoding/gob"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/cache"
	"github.com/ckptlint/ckptlint/internal/evaluate"
	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/inputfs"
	"github.com/ckptlint/ckptlint/internal/suppress"
)

// testEntry is a small valid entry.
func testEntry() *runEntry {
	return &runEntry{
		Format: entryFormat,
		Files:  3,
		Probes: []inputfs.Probe{
			{Op: "dir", Path: "/r", Result: "abc", Sig: "1:2:3:4:5:6"},
			{Op: inputfs.ReadOp(16 << 20), Path: "/r/conf/flink-conf.yaml", Result: "12:ff"},
			{Op: "real", Path: "/r/conf/flink-conf.yaml", Result: "/r/conf/flink-conf.yaml"},
		},
		Sets: []setEntry{{Name: "conf", Fingerprint: strings.Repeat("f", 64), Root: "conf", Members: []string{"/r/conf/flink-conf.yaml"},
			Pending: []evaluate.Pending{{Finding: finding.Finding{RuleID: "CKPT101", Severity: finding.Warning, Message: "m",
				Edits: []finding.Replacement{{File: "conf/flink-conf.yaml", Text: "dfs.blocksize: 8m"}}}}},
			Sources: []evaluate.Source{{Path: "conf/flink-conf.yaml", Set: "conf", Evaluated: true,
				File: &suppress.File{Path: "conf/flink-conf.yaml", Syntax: suppress.FlinkConf,
					Ignores: []suppress.Ignore{{Kind: suppress.KindInline, Rules: []string{"CKPT101"}, Reason: "r", From: 2, To: 2}}}}},
		}},
		Abs: []absPath{{"conf/flink-conf.yaml", "/r/conf/flink-conf.yaml"}},
	}
}

// TestEntryRoundTrip: a run entry decodes to what was encoded (the exact
// edits of SARIF's fixes and the parsed ignore comments included), and
// every truncation or single-byte change of its payload (the store's
// checksum aside) decodes to an error or to a valid value, never a panic.
func TestEntryRoundTrip(t *testing.T) {
	e := testEntry()
	b, err := e.encode()
	if err != nil {
		t.Fatal(err)
	}
	got, ok := decodeEntry(b)
	if !ok {
		t.Fatal("the encoded entry does not decode")
	}
	// Field by field: the entry's lazySets (nil once decoded) holds a gob
	// decoder, which holds errors.
	if got.Format != e.Format || got.Files != e.Files || !reflect.DeepEqual(got.Probes, e.Probes) || !reflect.DeepEqual(got.Notes, e.Notes) ||
		!reflect.DeepEqual(got.Sets, e.Sets) || !reflect.DeepEqual(got.Abs, e.Abs) || got.sets != nil {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, e)
	}
	for n := range len(b) {
		if _, ok := decodeEntry(b[:n]); ok {
			t.Errorf("a payload cut to %d of %d bytes decodes", n, len(b))
		}
	}
	for i := range b {
		c := append([]byte(nil), b...)
		c[i] ^= 0x41
		if e, ok := decodeEntry(c); ok && !e.valid() {
			t.Errorf("a payload changed at byte %d decodes to an invalid entry", i)
		}
	}
}

// TestForgedEntryBoundsAllocation: a payload that claims many probes or
// sets, or a message far longer than itself, is refused, and decoding it
// allocates a small multiple of its size: encoding/gob grows a slice as
// its elements arrive and reads a message in chunks (the entry holds no
// map, whose size gob would take on trust).
func TestForgedEntryBoundsAllocation(t *testing.T) {
	valid, err := testEntry().encode()
	if err != nil {
		t.Fatal(err)
	}
	// A message claiming 1 GiB, then a few bytes.
	longMsg := append(append([]byte(nil), entryMagic...), 0xFC, 0x3F, 0xFF, 0xFF, 0xFF)
	longMsg = append(longMsg, make([]byte, 64)...)
	// A head counting 100M sets, or one set more or fewer than follow.
	entryOf := func(count int, sets ...setEntry) []byte {
		var b bytes.Buffer
		b.Write(entryMagic)
		enc := gob.NewEncoder(&b)
		if err := enc.Encode(entryHead{Format: entryFormat, Sets: count}); err != nil {
			t.Fatal(err)
		}
		b.Write(setsMagic)
		b.Write(make([]byte, 16)) // the head's Pair, zero
		for i := range sets {
			if err := enc.Encode(&sets[i]); err != nil {
				t.Fatal(err)
			}
		}
		return b.Bytes()
	}
	one := testEntry().Sets[0]
	forged := map[string][]byte{
		"a 1 GiB message claimed":  longMsg,
		"100M sets claimed":        entryOf(100<<20, one),
		"more sets than the head":  entryOf(1, one, one),
		"fewer sets than the head": entryOf(2, one),
		"a negative count of sets": entryOf(-1),
	}
	for name, b := range forged {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, ok := decodeEntry(b)
		runtime.ReadMemStats(&after)
		if ok {
			t.Errorf("%s: decoded", name)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20 {
			t.Errorf("%s: decoding %d bytes allocated %d", name, len(b), got)
		}
	}
	if _, ok := decodeEntry(valid); !ok {
		t.Error("the valid entry does not decode")
	}
}

// TestEntryBadFindings: an entry that decodes but one of whose sets'
// findings names no rule or has no valid severity, or whose ignore source
// names no set of the entry, is not used.
func TestEntryBadFindings(t *testing.T) {
	for name, change := range map[string]func(*runEntry){
		"no rule":           func(e *runEntry) { e.Sets[0].Pending[0].RuleID = "" },
		"severity too high": func(e *runEntry) { e.Sets[0].Pending[0].Severity = 9 },
		"source of no set":  func(e *runEntry) { e.Sets[0].Sources[0].Set = "other" },
		"relative member":   func(e *runEntry) { e.Sets[0].Members = []string{"conf/flink-conf.yaml"} },
		"unknown probe":     func(e *runEntry) { e.Probes[0].Op = "exec" },
		"short fingerprint": func(e *runEntry) { e.Sets[0].Fingerprint = "f" },
	} {
		e := testEntry()
		change(e)
		b, err := e.encode()
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := decodeEntry(b); ok {
			t.Errorf("%s: the entry is used", name)
		}
	}
}

// TestEntryHeadAndSetsPair: an entry's head and sets are two cache
// entries, each written whole; a head read with the sets another write
// left (two runs writing at once) does not pair with them and is not used.
func TestEntryHeadAndSetsPair(t *testing.T) {
	encode := func(e *runEntry, pair byte) (head, sets []byte) {
		var h, s bytes.Buffer
		if err := e.encodeTo(&h, &s, [16]byte{pair}); err != nil {
			t.Fatal(err)
		}
		return h.Bytes(), s.Bytes()
	}
	other := testEntry()
	other.Sets[0].Pending[0].Message = "another run's finding"
	head, sets := encode(testEntry(), 1)
	_, otherSets := encode(other, 2)
	load := func(sets []byte) (*runEntry, bool) {
		e, ok := decodeHead(head)
		if !ok || len(e.sets.r.b) != 0 {
			t.Fatal("the head does not decode alone")
		}
		e.sets.fetch = func() ([]byte, bool) { return sets, true }
		return e, e.loadSets()
	}
	if e, ok := load(sets); !ok || !reflect.DeepEqual(e.Sets, testEntry().Sets) {
		t.Fatal("a head and its own sets do not load")
	}
	if _, ok := load(otherSets); ok {
		t.Fatal("a head loaded another write's sets")
	}
}

// TestPutEarly: an entry put early is stored on commit(true) alone, in
// the background and without it.
func TestPutEarly(t *testing.T) {
	for _, background := range []bool{true, false} {
		for _, ok := range []bool{true, false} {
			store, err := cache.Open(t.TempDir(), 0)
			if err != nil {
				t.Fatal(err)
			}
			c := &Cache{Store: store, Background: background}
			key := cache.NewHasher("test").String("key").Sum()
			commit := c.putEarly(testEntry(), key)
			commit(ok)
			c.Wait()
			got := loadEntry(store, key)
			if stored := got != nil && got.loadSets(); stored != ok {
				t.Errorf("background %v, commit(%v): stored %v", background, ok, stored)
			}
			if _, _, reported := c.Reported(); reported != ok {
				t.Errorf("background %v, commit(%v): reported %v", background, ok, reported)
			}
		}
	}
}
