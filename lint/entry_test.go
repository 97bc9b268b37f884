package lint

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/lint/evaluate"
	"github.com/ckptlint/ckptlint/lint/finding"
	"github.com/ckptlint/ckptlint/lint/inputfs"
)

// TestEntryRoundTrip: a run entry decodes to what was encoded, and every
// truncation or single-byte change of its payload (the store's checksum
// aside) decodes to an error or to a value, never a panic.
func TestEntryRoundTrip(t *testing.T) {
	e := &runEntry{
		Format: entryFormat,
		Files:  3,
		Probes: []inputfs.Probe{
			{Op: "dir", Path: "/r", Result: "abc", Sig: "1:2:3:4:5:6"},
			{Op: inputfs.ReadOp(16 << 20), Path: "/r/conf/flink-conf.yaml", Result: "12:ff"},
			{Op: "real", Path: "/r/conf/flink-conf.yaml", Result: "/r/conf/flink-conf.yaml"},
		},
		Sets: []setEntry{{Name: "conf", Fingerprint: strings.Repeat("f", 64), Root: "conf", Members: []string{"/r/conf/flink-conf.yaml"},
			Pending: []evaluate.Pending{{Finding: finding.Finding{RuleID: "CKPT101", Severity: finding.Warning, Message: "m"}}}}},
		Sources: []evaluate.Source{{Path: "conf/flink-conf.yaml", Syntax: 1, Set: "conf", Evaluated: true}},
		Abs:     map[string]string{"conf/flink-conf.yaml": "/r/conf/flink-conf.yaml"},
	}
	b, err := e.encode()
	if err != nil {
		t.Fatal(err)
	}
	got, ok := decodeEntry(b)
	if !ok || !got.decodePending() {
		t.Fatal("the encoded entry does not decode")
	}
	again, err := got.encode() // the findings' JSON written back as it was read
	if err != nil || !bytes.Equal(again, b) {
		t.Errorf("a decoded entry encodes to other bytes (%v)", err)
	}
	for i := range got.Sets {
		got.Sets[i].rawPending = ""
	}
	got.pending = nil
	if !reflect.DeepEqual(got, e) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, e)
	}
	if !got.valid() {
		t.Error("the decoded entry is not valid")
	}
	for n := range len(b) {
		if _, ok := decodeEntry(b[:n]); ok && n < len(b) {
			t.Errorf("a payload cut to %d of %d bytes decodes", n, len(b))
		}
	}
	for i := range b {
		c := append([]byte(nil), b...)
		c[i] ^= 0x41
		if e, ok := decodeEntry(c); ok {
			_ = e.decodePending() && e.valid() // must not panic either
		}
	}
}

// TestForgedEntryBoundsAllocation: a payload that claims many sets (or
// probes) is refused, and decoding a payload of valid minimal probes
// allocates a small multiple of its size (found by review: a count
// checked only against the bytes left let an 8 MiB entry allocate 896 MiB).
func TestForgedEntryBoundsAllocation(t *testing.T) {
	head := append([]byte(nil), entryMagic...)
	head = binary.AppendUvarint(head, 2)
	head = append(head, "{}"...)

	manySets := binary.AppendUvarint(append([]byte(nil), head...), 0) // no probes
	manySets = binary.AppendUvarint(manySets, 8<<20)                  // 8M sets
	manySets = append(manySets, make([]byte, 8<<20)...)
	probes := binary.AppendUvarint(append([]byte(nil), head...), 1<<20)
	for range 1 << 20 {
		probes = append(probes, 3, 'd', 'i', 'r', 1, '/', 0, 0)
	}
	probes = binary.AppendUvarint(probes, 0) // no sets
	for name, b := range map[string][]byte{"8M sets claimed": manySets, "1M minimal probes": probes} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, ok := decodeEntry(b)
		runtime.ReadMemStats(&after)
		if name == "8M sets claimed" && ok {
			t.Errorf("%s: decoded", name)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 12*uint64(len(b)) {
			t.Errorf("%s: decoding %d bytes allocated %d", name, len(b), got)
		}
	}
}

// TestEntryBadFindings: an entry whose framing decodes but one of whose
// sets' findings is not JSON, or names no rule, or has no valid severity,
// is not used (decodePending, which decodes the findings apart from the
// rest of the entry, refuses it, and so does fromEntry).
func TestEntryBadFindings(t *testing.T) {
	for name, pending := range map[string]string{
		"not JSON":          `[{"rule_id":`,
		"no rule":           `[{"severity":"warning","message":"m"}]`,
		"severity too high": `[{"rule_id":"CKPT101","severity":9}]`,
	} {
		e := &runEntry{Format: entryFormat, Probes: []inputfs.Probe{{Op: "dir", Path: "/r", Result: "abc"}},
			Sets: []setEntry{
				{Name: "a", Fingerprint: strings.Repeat("a", 64), Root: "a"},
				{Name: "b", Fingerprint: strings.Repeat("b", 64), Root: "b", rawPending: pending},
			},
			Abs: map[string]string{}}
		b, err := e.encode()
		if err != nil {
			t.Fatal(err)
		}
		got, ok := decodeEntry(b)
		if !ok || !got.valid() {
			t.Fatalf("%s: the entry's framing does not decode", name)
		}
		if got.decodePending() {
			t.Errorf("%s: the findings decode", name)
			continue
		}
		if _, ok, err := fromEntry(&Cache{}, got, nil, Options{}); ok || err != nil {
			t.Errorf("%s: fromEntry used the entry (%v)", name, err)
		}
	}
}
