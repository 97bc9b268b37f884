package deploy

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// valueNode returns the value node of key at the path keys in the first
// document of src.
func valueNode(t *testing.T, src string, keys ...string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	n := doc.Content[0]
	for _, k := range keys {
		found := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				n, found = n.Content[i+1], true
				break
			}
		}
		if !found {
			t.Fatalf("no key %q", k)
		}
	}
	return n
}

// TestBlockTextExact: a literal block's content keeps its lines, columns
// and offsets in the masked Src, and ends at its last content line.
func TestBlockTextExact(t *testing.T) {
	src := "apiVersion: v1\nkind: ConfigMap\ndata:\n  flink-conf.yaml: |+\n    state.backend.type: rocksdb\n\n    execution.checkpointing.interval: 10 s\n  log4j.properties: |-\n    rootLogger.level = INFO\n"
	tx := BlockText("k8s/cm.yaml", []byte(src), valueNode(t, src, "data", "flink-conf.yaml"), "flink-conf.yaml")
	if !tx.Exact || tx.Indent != "    " || tx.Loc.Line != 5 {
		t.Fatalf("not exact at line 5 with 4 spaces: %+v", tx)
	}
	if got := src[tx.Start:tx.End]; got != "    state.backend.type: rocksdb\n\n    execution.checkpointing.interval: 10 s\n" {
		t.Errorf("block = %q", got)
	}
	if len(tx.Src) != tx.End || string(tx.Src[tx.Start:]) != src[tx.Start:tx.End] || strings.TrimSpace(string(tx.Src[:tx.Start])) != "" ||
		strings.Count(string(tx.Src[:tx.Start]), "\n") != 4 {
		t.Errorf("masked Src %q", tx.Src)
	}
	tx = BlockText("k8s/cm.yaml", []byte(src), valueNode(t, src, "data", "log4j.properties"), "log4j.properties")
	if !tx.Exact || src[tx.Start:tx.End] != "    rootLogger.level = INFO\n" {
		t.Errorf("second block: %+v", tx)
	}
}

// TestBlockTextNotExact: a quoted or folded scalar is its decoded value at
// the key's line.
func TestBlockTextNotExact(t *testing.T) {
	for _, src := range []string{
		"data:\n  flink-conf.yaml: \"a: 1\\nb: 2\\n\"\n",
		"data:\n  flink-conf.yaml: >\n    a: 1\n    b: 2\n",
	} {
		tx := BlockText("f.yaml", []byte(src), valueNode(t, src, "data", "flink-conf.yaml"), "flink-conf.yaml")
		if tx.Exact || tx.Loc.Line != 2 || !strings.Contains(string(tx.Src), "a: 1") {
			t.Errorf("%q: %+v", src, tx)
		}
	}
}
