package ckptlint.rules.blocksize.max_file_size_test

import data.ckptlint.rules.blocksize.max_file_size as rule

base := {
	"flink": {"file": "flink-conf.yaml", "hadoop_passthrough": {}},
	"cluster": {"declared": false},
	"deployment": {"declared": false},
	"effective": {
		"checkpointing": {
			"interval": {"value": 60000, "set": true},
			"dir": {"value": "hdfs://nn:8020/ckpt", "set": true, "loc": {"file": "flink-conf.yaml", "line": 2}},
			"max_concurrent": {"value": 1},
		},
		"state_backend": {"type": {"value": "rocksdb", "set": true}},
		"parallelism": {"default": {"value": 8, "set": true}},
		"hdfs_client": {
			"blocksize": {"value": 1048576, "display": "1 MiB", "set": true, "source": "file", "raw": "1m", "loc": {"file": "hdfs-site.xml", "line": 4}},
			"replication": {"value": 3},
			"default_fs": {"value": "file:///"},
		},
		"hdfs_cluster": {
			"min_block_size": {"value": 1048576, "display": "1 MiB", "set": false, "source": "default"},
			"max_blocks_per_file": {"value": 10000, "display": "10000", "set": false, "source": "default"},
			"min_blocks_for_write": {"value": 1},
		},
	},
}

test_one_mib_blocks_warn_with_both_options if {
	some f in rule.deny with input as base
	contains(f.message, "dfs.blocksize 1 MiB (from hdfs-site.xml:4) x dfs.namenode.fs-limits.max-blocks-per-file 10000 (from the Hadoop default) caps every HDFS file at 9.8 GiB")
	contains(f.message, "\"File has reached the limit on maximum number of blocks (dfs.namenode.fs-limits.max-blocks-per-file): 10000 >= 10000\"")
	contains(f.message, "RocksDB state is bounded by local disk")
	contains(f.message, "Set dfs.blocksize to 2m (19.5 GiB per file) if the DataNodes' scheduled-space headroom allows it")
	contains(f.message, "raise dfs.namenode.fs-limits.max-blocks-per-file to at least 16384")
	f.loc.line == 4
	not f.severity
}

test_heap_backend_is_info if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/state_backend/type", "value": {"value": null, "set": false}}])
	some f in rule.deny with input as inp
	f.severity == "info"
	contains(f.message, "(the default (hashmap) state backend keeps that state on the TaskManager heap, where it rarely grows this large)")
}

test_declared_cluster_checks_the_headroom_of_the_suggestion if {
	inp := json.patch(base, [{"op": "replace", "path": "/cluster", "value": {"declared": true, "datanodes": 3, "datanode_free_bytes": 46170898432}}])
	some f in rule.deny with input as inp

	# 8 files x 3 replicas over 3 DataNodes = 8 per DataNode; at 128 MiB 43 GiB
	# still holds 344 blocks, more than 10x: CKPT101's choice, and 1.2 TiB per file.
	contains(f.message, "Set dfs.blocksize to 128m (1.2 TiB per file), the size CKPT101 recommends: each DataNode can still schedule 344 blocks at once for the about 8 checkpoint files in flight per DataNode")
}

test_tight_cluster_advises_raising_the_limit if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/cluster", "value": {"declared": true, "datanodes": 3, "datanode_free_bytes": 2147483648}},
		{"op": "replace", "path": "/deployment", "value": {"declared": true, "jobs": 10, "stateful_operators": 10}},
	])
	some f in rule.deny with input as inp

	# 10 x 8 x 10 = 800 files x 3 / 3 = 800 per DataNode; 2 GiB / 2 MiB = 1024 blocks < 2 x 800.
	contains(f.message, "A larger dfs.blocksize would leave too little scheduled space")
	contains(f.message, "raise dfs.namenode.fs-limits.max-blocks-per-file to at least 16384 on the NameNode instead")
}

test_two_mib_blocks_pass if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/hdfs_client/blocksize/value", "value": 2097152}])
	count(rule.deny) == 0 with input as inp
}

test_raised_block_limit_passes if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/hdfs_cluster/max_blocks_per_file/value", "value": 20000}])
	count(rule.deny) == 0 with input as inp
}

test_not_on_hdfs_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/checkpointing/dir/value", "value": "s3://b/ckpt"}])
	count(rule.deny) == 0 with input as inp
}

test_savepoints_on_hdfs_count if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/effective/checkpointing/dir/value", "value": "s3://b/ckpt"},
		{"op": "add", "path": "/effective/checkpointing/savepoint_dir", "value": {"value": "hdfs://nn/sp", "set": true}},
	])
	count(rule.deny) == 1 with input as inp
}

test_hadoop_only_set_is_silent if {
	inp := json.remove(base, ["flink"])
	count(rule.deny) == 0 with input as inp
}

test_datanodes_without_free_space_use_the_generic_advice if {
	inp := json.patch(base, [{"op": "replace", "path": "/cluster", "value": {"declared": true, "datanodes": 3}}])
	some f in rule.deny with input as inp
	contains(f.message, "if the DataNodes' scheduled-space headroom allows it")
}

# 8 subtasks and a 100 GiB observed checkpoint: 12.5 GiB per subtask, above
# the 9.8 GiB cap even with a heap backend.
observed(size) := json.patch(base, [
	{"op": "replace", "path": "/effective/state_backend/type", "value": {"value": null, "set": false}},
	{"op": "replace", "path": "/deployment", "value": {
		"declared": true, "checkpoint_size": size,
		"facts": {"checkpoint_size": {"cite": "facts from jobmanager http://jm:8081/jobs/a1b2/checkpoints, 2026-12-01"}},
	}},
])

test_observed_size_above_the_cap_is_not_info if {
	some f in rule.deny with input as observed(107374182400)
	not f.severity
	contains(f.message, "The observed p99 checkpointed size 100 GiB (checkpoint_size in .ckptlint.hcl, facts from jobmanager http://jm:8081/jobs/a1b2/checkpoints, 2026-12-01) is about 12.5 GiB per subtask over parallelism 8, already above the cap")
}

test_observed_size_below_the_cap_keeps_the_severity if {
	some f in rule.deny with input as observed(1073741824)
	f.severity == "info"
	contains(f.message, "is about 128 MiB per subtask over parallelism 8, below the cap; an incremental checkpoint's size counts only what it uploaded")
}
