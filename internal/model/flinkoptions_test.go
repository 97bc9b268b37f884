package model

import (
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestOptionTable checks the generated option table against facts of the
// Flink sources it was read from: the .type keys arrived in 1.17
// (FLINK-29372), execution.checkpointing.dir in 1.20 (FLINK-34482), and
// fs.hdfs.hadoopconf is gone from 2.0.
func TestOptionTable(t *testing.T) {
	has := func(k string, v Version) bool {
		i := releaseIndex(v)
		if i < 0 {
			t.Fatalf("release %s not in the table", v)
		}
		return optionKeys()[k]&(1<<i) != 0
	}
	for _, c := range []struct {
		key  string
		v    Version
		want bool
	}{
		{"state.backend", V(1, 13), true},
		{"state.backend.type", V(1, 16), false},
		{"state.backend.type", V(1, 17), true},
		{"high-availability.type", V(1, 17), true},
		{"execution.checkpointing.dir", V(1, 19), false},
		{"execution.checkpointing.dir", V(1, 20), true},
		{"state.checkpoints.dir", V(1, 20), true},
		{"fs.hdfs.hadoopconf", V(1, 20), true},
		{"fs.hdfs.hadoopconf", V(2, 0), false},
		{"restart-strategy.fixed-delay.attempts", V(2, 3), true},
		// The releases before 1.13 (flinkoptions_legacy_gen.go, from release tags).
		{"state.backend", V(0, 9), true},
		{"state.backend.fs.checkpointdir", V(0, 9), true},
		{"fs.hdfs.hadoopconf", V(0, 9), true},
		{"high-availability.zookeeper.quorum", V(1, 1), false}, // recovery.zookeeper.quorum until FLINK-4253
		{"high-availability.zookeeper.quorum", V(1, 2), true},
		{"high-availability.storageDir", V(1, 2), true},
		{"state.checkpoints.dir", V(1, 1), false}, // FLINK-4512, 1.2
		{"state.checkpoints.dir", V(1, 2), true},
		{"state.backend.rocksdb.checkpointdir", V(1, 1), false}, // FLINK-4579, 1.2
		{"state.backend.incremental", V(1, 4), false},           // FLINK-7925, 1.5
		{"state.backend.incremental", V(1, 5), true},
		{"execution.checkpointing.interval", V(1, 9), false}, // FLINK-14788, 1.10
		{"execution.checkpointing.interval", V(1, 10), true},
		{"execution.checkpointing.alignment-timeout", V(1, 11), false}, // FLINK-19680, 1.12
		{"execution.checkpointing.alignment-timeout", V(1, 12), true},
		{"restart-strategy.type", V(1, 12), false}, // the SQL client's environment-file key is no option
	} {
		if got := has(c.key, c.v); got != c.want {
			t.Errorf("%s on %s: known = %v, want %v", c.key, c.v, got, c.want)
		}
	}
}

func TestUnknownKeysInput(t *testing.T) {
	f := flink(`state.backend.incremantal: true
state.backend.type: rocksdb
execution.checkpointing.dir: hdfs:///ckpt
fs.s3a.connection.maximum: 64
fs.overwrite-file: true
kubernetes.operator.savepoint.format.type: NATIVE
taskmanager.numberOfTaskSlots: 4
state.${X}: 1
`)
	keys := func(v Resolved) map[string]map[string]any {
		m := map[string]map[string]any{}
		for _, u := range plain(t, ast.NewObject(ast.Item(ast.StringTerm("u"), unknownKeysInput(f, v, nil))))["u"].([]any) {
			um := u.(map[string]any)
			m[um["key"].(string)] = um
		}
		return m
	}
	got := keys(Resolved{Version: V(1, 17), Source: "config"})
	if len(got) != 3 {
		t.Errorf("declared 1.17: got %v, want the typo, the 1.20 key and fs.overwrite-file", got)
	}
	if u := got["state.backend.incremantal"]; u == nil || u["suggestion"] != "state.backend.incremental" || u["exact"] != true {
		t.Errorf("typo: %v", u)
	}
	if u := got["execution.checkpointing.dir"]; u == nil || !strings.Contains(strings.Join(anyStrings(u["known_in"]), ","), "1.20") {
		t.Errorf("1.20 key on 1.17: %v", u)
	}
	if u := got["fs.overwrite-file"]; u == nil || u["suggestion"] != "fs.overwrite-files" {
		t.Errorf("fs typo: %v", u)
	}
	// Without a known version only keys no release knows are listed.
	got = keys(Resolved{Version: V(1, 18), Source: "unknown"})
	if len(got) != 2 || got["state.backend.incremantal"]["exact"] != false || got["execution.checkpointing.dir"] != nil {
		t.Errorf("assumed version: got %v", got)
	}
	// A lower bound from the files is not a known version.
	if got := keys(Resolved{Version: V(1, 17), Source: "evidence"}); len(got) != 2 {
		t.Errorf("evidence: got %v", got)
	}
	// A release the table does not cover is checked like an unknown one.
	for _, v := range []Version{V(0, 8), V(2, 4)} {
		if got := keys(Resolved{Version: v, Source: "config"}); len(got) != 2 {
			t.Errorf("%s: got %v", v, got)
		}
	}
	// 1.10 is in the table (from the release-1.10.3 tag): checked exactly.
	got = keys(Resolved{Version: V(1, 10), Source: "config"})
	if u := got["state.backend.type"]; u == nil || u["exact"] != true {
		t.Errorf("1.10: state.backend.type (1.17 on) not reported exactly: %v", got)
	}
}

func anyStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}
