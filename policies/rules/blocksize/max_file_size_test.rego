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

# Without a state size the cap is only a risk: info, naming the fact that
# decides it (issue 23).
test_one_mib_blocks_without_state_sizes_are_info_with_both_options if {
	some f in rule.deny with input as base
	contains(f.detail, "dfs.blocksize 1 MiB (from hdfs-site.xml:4) x dfs.namenode.fs-limits.max-blocks-per-file 10000 (from the Hadoop default) caps every HDFS file at 9.8 GiB")
	contains(f.detail, "\"File has reached the limit on maximum number of blocks (dfs.namenode.fs-limits.max-blocks-per-file): 10000 >= 10000\"")
	contains(f.detail, "RocksDB state is bounded by local disk")
	contains(f.detail, "Set dfs.blocksize to 2m (19.5 GiB per file) if the DataNodes' scheduled-space headroom allows it")
	contains(f.detail, "raise dfs.namenode.fs-limits.max-blocks-per-file to at least 16384")
	contains(f.detail, "declare state_size, the checkpointed state of the job's largest subtask")
	f.loc.line == 4
	f.severity == "info"
}

test_heap_backend_is_info if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/state_backend/type", "value": {"value": null, "set": false}}])
	some f in rule.deny with input as inp
	f.severity == "info"
	contains(f.detail, "(the default (hashmap) state backend keeps that state on the TaskManager heap, where it rarely grows this large)")
}

test_declared_cluster_checks_the_headroom_of_the_suggestion if {
	inp := json.patch(base, [{"op": "replace", "path": "/cluster", "value": {"declared": true, "datanodes": 3, "datanode_free_bytes": 46170898432}}])
	some f in rule.deny with input as inp

	# 8 files x 3 replicas over 3 DataNodes = 8 per DataNode; at 128 MiB 43 GiB
	# still holds 344 blocks, more than 10x: CKPT101's choice, and 1.2 TiB per file.
	contains(f.detail, "Set dfs.blocksize to 128m (1.2 TiB per file), the size CKPT101 recommends: each DataNode can still schedule 344 blocks at once for the about 8 checkpoint files in flight per DataNode")
}

test_tight_cluster_advises_raising_the_limit if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/cluster", "value": {"declared": true, "datanodes": 3, "datanode_free_bytes": 2147483648}},
		{"op": "replace", "path": "/deployment", "value": {"declared": true, "jobs": 10, "stateful_operators": 10}},
	])
	some f in rule.deny with input as inp

	# 10 x 8 x 10 = 800 files x 3 / 3 = 800 per DataNode; 2 GiB / 2 MiB = 1024 blocks < 2 x 800.
	contains(f.detail, "A larger dfs.blocksize would leave too little scheduled space")
	contains(f.detail, "raise dfs.namenode.fs-limits.max-blocks-per-file to at least 16384 on the NameNode instead")
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
	contains(f.detail, "if the DataNodes' scheduled-space headroom allows it")
}

with_state(size) := json.patch(base, [{"op": "replace", "path": "/deployment", "value": {
	"declared": true, "state_size": size,
	"facts": {"state_size": {"cite": "facts from jobmanager http://jm:8081/jobs/a1b2/checkpoints/details/412/subtasks/0a44, 2026-12-01"}},
}}])

# A largest subtask of 12 GiB against the 9.8 GiB cap: a warning with the numbers.
test_state_above_the_cap_warns if {
	some f in rule.deny with input as with_state(12884901888)
	not f.severity
	contains(f.detail, "The largest subtask holds 12 GiB of state (state_size in .ckptlint.hcl, facts from jobmanager http://jm:8081/jobs/a1b2/checkpoints/details/412/subtasks/0a44, 2026-12-01), at or above the cap")
}

# Whatever the backend: the heap snapshot writes one file too.
test_state_above_the_cap_warns_on_a_heap_backend if {
	inp := json.patch(with_state(12884901888), [{"op": "replace", "path": "/effective/state_backend/type", "value": {"value": "hashmap", "set": true}}])
	some f in rule.deny with input as inp
	not f.severity
}

test_state_near_the_cap_warns if {
	some f in rule.deny with input as with_state(6442450944)
	not f.severity
	contains(f.detail, "The largest subtask holds 6 GiB of state")
	contains(f.detail, "more than half the cap")
}

# Far below the cap: the evidence says there is nothing to report.
test_small_state_is_silent if {
	count(rule.deny) == 0 with input as with_state(1073741824)
}

# 8 subtasks x 2 declared stateful operators and a 200 GiB observed
# checkpoint: 12.5 GiB per subtask on average, above the 9.8 GiB cap even
# with a heap backend, and the largest subtask holds at least the average.
observed(size, ops) := json.patch(base, [
	{"op": "replace", "path": "/effective/state_backend/type", "value": {"value": null, "set": false}},
	{"op": "replace", "path": "/deployment", "value": {
		"declared": true, "checkpoint_size": size, "stateful_operators": ops,
		"facts": {"checkpoint_size": {"cite": "facts from jobmanager http://jm:8081/jobs/a1b2/checkpoints, 2026-12-01"}},
	}},
])

test_observed_size_above_the_cap_warns if {
	some f in rule.deny with input as observed(214748364800, 2)
	not f.severity
	contains(f.detail, "The observed p99 checkpointed size 200 GiB (checkpoint_size in .ckptlint.hcl, facts from jobmanager http://jm:8081/jobs/a1b2/checkpoints, 2026-12-01) over parallelism 8 x 2 stateful operator(s) is about 12.5 GiB per subtask, already at or above the cap")
}

test_observed_size_below_the_cap_is_info if {
	some f in rule.deny with input as observed(1073741824, 2)
	f.severity == "info"
	contains(f.detail, "is about 64 MiB per subtask over parallelism 8 x 2 stateful operator(s), below the cap, but an average")
	contains(f.detail, "declare state_size")
}

# Without the stateful operators declared the job's total over the
# parallelism is no bound of one subtask (several operators share it):
# info, asking for state_size.
test_observed_size_without_operators_is_no_evidence if {
	inp := json.patch(observed(214748364800, 2), [{"op": "remove", "path": "/deployment/stateful_operators"}])
	some f in rule.deny with input as inp
	f.severity == "info"
	contains(f.detail, "declare state_size")
}

# Issue 23: the default limit is 10000 only from Hadoop 3.0 (HDFS-5517);
# 2.x allows 1048576 blocks per file. With the default and no Hadoop version
# the cap is Hadoop 3's: info even with a state size above it.
test_default_limit_of_unknown_hadoop_is_info if {
	inp := json.patch(with_state(12884901888), [{"op": "add", "path": "/effective/hdfs_cluster/max_blocks_per_file/varies", "value": "10000 from Hadoop 3.0; 1048576 in 2.1 to 2.x (HDFS-4305, HDFS-5517)"}])
	some f in rule.deny with input as inp
	f.severity == "info"
	contains(f.detail, "caps every HDFS file at 9.8 GiB on Hadoop 3.0 or later (the default is 10000 from Hadoop 3.0; 1048576 in 2.1 to 2.x (HDFS-4305, HDFS-5517); declare hadoop_version to decide which applies)")
}
