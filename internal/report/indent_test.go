package report

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzIndentJSON holds indentJSON to json.Indent on every document
// json.Marshal could write (any valid JSON, compacted).
func FuzzIndentJSON(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[],"b":{},"c":[1,{"d":"e\"f\\"}],"g":null}`, `"x"`, `[[[]]]`,
		`{"message":"a \"quoted\" value: 1, 2 [3] {4}","edits":[{"start":1,"end":2}]}`, `{"k":"\u2028\\\\"}`} {
		f.Add(s, "    ")
	}
	f.Fuzz(func(t *testing.T, doc, prefix string) {
		var compact bytes.Buffer
		if err := json.Compact(&compact, []byte(doc)); err != nil {
			return
		}
		var want bytes.Buffer
		if err := json.Indent(&want, compact.Bytes(), prefix, "  "); err != nil {
			t.Fatal(err)
		}
		if got := indentJSON(nil, compact.Bytes(), prefix, "  "); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("%q:\n got %q\nwant %q", compact.Bytes(), got, want.Bytes())
		}
	})
}

// BenchmarkIndentJSON indents the compact JSON of a finding with a detail
// of a few hundred bytes, as the JSON streamer does for each element.
func BenchmarkIndentJSON(b *testing.B) {
	f := map[string]any{"rule_id": "CKPT505", "severity": "info",
		"message": "RocksDB with incremental checkpoints off uploads the whole state every 10 s, so checkpoint time grows with the state.",
		"detail": "state backend rocksdb (state.backend at svc0/env0/job-0000/flink/flink-conf.yaml:5) with incremental checkpoints off " +
			"(state.backend.incremental unset, default false): every checkpoint, every 10 s (execution.checkpointing.interval at " +
			"svc0/env0/job-0000/flink/flink-conf.yaml:7), uploads the complete RocksDB state of every stateful task to " +
			"hdfs://nn:8020/flink/checkpoints/job-0, so the bytes written to HDFS and the checkpoint duration grow with the whole state",
		"range": map[string]any{"file": "svc0/env0/job-0000/flink/flink-conf.yaml", "start": map[string]int{"line": 5, "column": 1}}}
	src, _ := json.Marshal(f)
	b.SetBytes(int64(len(src)))
	var dst []byte
	for b.Loop() {
		dst = indentJSON(dst[:0], src, "    ", "  ")
	}
}
