package lint

import (
	"bytes"
	"reflect"
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
		Sets: []setEntry{{Name: "conf", Fingerprint: "fp", Root: "conf", Members: []string{"/r/conf/flink-conf.yaml"},
			Pending: []evaluate.Pending{{Finding: finding.Finding{RuleID: "CKPT101", Severity: finding.Warning, Message: "m"}}}}},
		Sources: []evaluate.Source{{Path: "conf/flink-conf.yaml", Syntax: 1, Set: "conf", Evaluated: true}},
		Abs:     map[string]string{"conf/flink-conf.yaml": "/r/conf/flink-conf.yaml"},
	}
	b, err := e.encode()
	if err != nil {
		t.Fatal(err)
	}
	got, ok := decodeEntry(b)
	if !ok {
		t.Fatal("the encoded entry does not decode")
	}
	again, err := got.encode() // the findings' JSON written back as it was read
	if err != nil || !bytes.Equal(again, b) {
		t.Errorf("a decoded entry encodes to other bytes (%v)", err)
	}
	for i := range got.Sets {
		got.Sets[i].rawPending = ""
	}
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
			_ = e.valid() // must not panic either
		}
	}
}
