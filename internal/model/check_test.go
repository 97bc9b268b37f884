package model

import (
	"testing"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

func TestFlinkValueError(t *testing.T) {
	for _, tc := range []struct {
		key, value string
		kind       parsed.Kind
		v          Version
		known, bad bool
	}{
		{"execution.checkpointing.timeout", "10 m", parsed.KindString, V(1, 14), true, true}, // "m" is minutes from 1.15 (FLINK-24886)
		{"execution.checkpointing.timeout", "10 m", parsed.KindString, V(1, 15), true, false},
		{"execution.checkpointing.timeout", "10 min", parsed.KindString, V(1, 14), true, false},
		{"state.checkpoints.dir", "hdfs://nn/ckpt", parsed.KindString, V(1, 18), true, false},
		{"execution.checkpointing.tolerable-failed-checkpoints", "3", parsed.KindString, V(1, 18), true, false},
		{"execution.checkpointing.tolerable-failed-checkpoints", "three", parsed.KindString, V(1, 18), true, true},
		{"execution.checkpointing.data-inline-threshold", "1mb", parsed.KindString, V(1, 20), true, false},
		{"execution.checkpointing.data-inline-threshold", "1 MiB", parsed.KindString, V(1, 20), true, true},
		{"state.backend.incremental", "true", parsed.KindBool, V(1, 18), true, false},
		{"no.such.key", "x", parsed.KindString, V(1, 18), false, false},
	} {
		known, err := FlinkValueError(tc.key, &parsed.Entry{Key: tc.key, Value: tc.value, Kind: tc.kind}, tc.v)
		if known != tc.known || (err != nil) != tc.bad {
			t.Errorf("FlinkValueError(%s, %q, %s) = %v, %v; want known %v, error %v", tc.key, tc.value, tc.v, known, err, tc.known, tc.bad)
		}
	}
}

func TestHadoopValueError(t *testing.T) {
	for _, tc := range []struct {
		key, value string
		known, bad bool
	}{
		{"dfs.blocksize", "8m", true, false},
		{"dfs.blocksize", "8 MB", true, true},
		{"dfs.block.size", "8 MB", true, true}, // the deprecated name of dfs.blocksize
		{"dfs.replication", "2", true, false},
		{"dfs.replication", "two", true, true},
		{"dfs.client.block.write.replace-datanode-on-failure.best-effort", "true", true, false},
		{"dfs.client.block.write.replace-datanode-on-failure.best-effort", "yes", true, true},
		{"dfs.datanode.directoryscan.interval", "6h", true, false},
		{"fs.no.such.key", "x", false, false},
	} {
		known, err := HadoopValueError(tc.key, tc.value)
		if known != tc.known || (err != nil) != tc.bad {
			t.Errorf("HadoopValueError(%s, %q) = %v, %v; want known %v, error %v", tc.key, tc.value, known, err, tc.known, tc.bad)
		}
	}
}
