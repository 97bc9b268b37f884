package hadoopxml

import "testing"

func TestDeprecated(t *testing.T) {
	tests := []struct {
		name, key, want string
		ok              bool
	}{
		// Hadoop 3.4.1 HdfsConfiguration.java L143
		{name: "dfs.block.size (Hadoop 3.4.1 HdfsConfiguration L143)", key: "dfs.block.size", want: "dfs.blocksize", ok: true},
		// Hadoop 3.4.1 HdfsConfiguration.java L147
		{name: "io.bytes.per.checksum (Hadoop 3.4.1 HdfsConfiguration L147)", key: "io.bytes.per.checksum", want: "dfs.bytes-per-checksum", ok: true},
		// Hadoop 3.4.1 HdfsConfiguration.java L129
		{name: "dfs.replication.min (Hadoop 3.4.1 HdfsConfiguration L129)", key: "dfs.replication.min", want: "dfs.namenode.replication.min", ok: true},
		// HdfsConfiguration.addDeprecatedKeys, apache/hadoop 3.x
		{name: "dfs.max.objects", key: "dfs.max.objects", want: "dfs.namenode.max.objects", ok: true},
		{name: "dfs.replication.interval", key: "dfs.replication.interval", want: "dfs.namenode.redundancy.interval.seconds", ok: true},
		{name: "dfs.datanode.max.xcievers", key: "dfs.datanode.max.xcievers", want: "dfs.datanode.max.transfer.threads", ok: true},
		// Configuration.defaultDeprecations
		{name: "dfs.umaskmode", key: "dfs.umaskmode", want: "fs.permissions.umask-mode", ok: true},
		{name: "fs.default.name", key: "fs.default.name", want: "fs.defaultFS", ok: true},
		{name: "current key", key: "dfs.blocksize", ok: false},
		{name: "exact match only", key: " dfs.block.size", ok: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Deprecated(tt.key)
			if got != tt.want || ok != tt.ok {
				t.Errorf("Deprecated(%q) = %q, %v; want %q, %v", tt.key, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestDeprecationTableHasNoChains(t *testing.T) {
	for old, nk := range deprecations {
		if _, ok := deprecations[nk]; ok {
			t.Errorf("%s -> %s is itself deprecated", old, nk)
		}
	}
}
