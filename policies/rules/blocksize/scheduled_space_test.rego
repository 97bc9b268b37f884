package ckptlint.rules.blocksize.scheduled_space_test

import data.ckptlint.rules.blocksize.scheduled_space

# Story (a): 3 DataNodes with 43 GiB free each, replication 1, default 128 MiB
# blocks, 4 jobs x parallelism 100 x 1 operator = 400 files, 134 per DataNode.
story_a := {
	"flink": {"file": "flink-conf.yaml"},
	"effective": {
		"checkpointing": {
			"interval": {"value": 60000, "set": true},
			"dir": {"value": "hdfs://nn:8020/flink/checkpoints", "set": true, "loc": {"file": "flink-conf.yaml", "line": 3}},
			"max_concurrent": {"value": 1, "set": false},
		},
		"parallelism": {"default": {"value": 100, "set": true}},
		"hdfs_client": {
			"blocksize": {"value": 134217728, "display": "128 MiB", "set": false, "source": "default"},
			"replication": {"value": 1, "set": true},
			"default_fs": {"value": "file:///"},
		},
		"hdfs_cluster": {
			"min_blocks_for_write": {"value": 1},
			"min_block_size": {"value": 1048576},
			"replication_min": {"value": 1},
		},
	},
	"cluster": {"declared": true, "datanodes": 3, "datanode_free_bytes": 46170898432},
	"deployment": {"declared": true, "jobs": 4, "stateful_operators": 3},
}

test_story_a_fires_with_the_arithmetic if {
	some f in scheduled_space.deny with input as story_a
	contains(f.detail, "schedule only 344 blocks")
	contains(f.detail, "1200 files")
	contains(f.detail, "400 per DataNode")
	contains(f.detail, "could only be written to 0 of the 1 minReplication nodes. There are 3 datanode(s) running")
	contains(f.detail, "can then schedule 5504 blocks, 13x the about 400 files in flight: 8m is the largest of 128m, 64m, 32m, 16m, 8m, 4m, 2m and 1m that leaves at least 10x")
	f.fix == [{"op": "set", "target": "hdfs-client", "key": "dfs.blocksize", "value": "8m"}]
	f.loc.line == 3
}

test_one_mib_blocks_pass if {
	inp := json.patch(story_a, [{"op": "replace", "path": "/effective/hdfs_client/blocksize", "value": {"value": 1048576, "display": "1 MiB", "set": true}}])
	count(scheduled_space.deny) == 0 with input as inp
}

test_small_load_passes if {
	inp := json.patch(story_a, [{"op": "replace", "path": "/deployment", "value": {"declared": false}}])
	count(scheduled_space.deny) == 0 with input as inp
}

test_half_headroom_warns if {
	# 2 jobs x 100 x 3 = 600 files → 200 per DataNode: between capacity/2 and capacity.
	inp := json.patch(story_a, [{"op": "replace", "path": "/deployment/jobs", "value": 2}])
	some f in scheduled_space.deny with input as inp
	f.severity == "warning"
}

test_missing_cluster_facts_is_info if {
	inp := json.patch(story_a, [{"op": "replace", "path": "/cluster", "value": {"declared": false}}])
	some f in scheduled_space.deny with input as inp
	f.severity == "info"
	contains(f.detail, "declare datanodes and datanode_free_bytes")
}

test_not_on_hdfs_is_silent if {
	inp := json.patch(story_a, [{"op": "replace", "path": "/effective/checkpointing/dir/value", "value": "s3://bucket/ckpt"}])
	count(scheduled_space.deny) == 0 with input as inp
}

test_checkpointing_off_is_silent if {
	inp := json.patch(story_a, [{"op": "replace", "path": "/effective/checkpointing/interval", "value": {"set": false}}])
	count(scheduled_space.deny) == 0 with input as inp
}

test_unreadable_hadoop_conf_dir_makes_it_a_warning if {
	inp := object.union(story_a, {"hadoop": {"conf_refs": [{"key": "env.hadoop.conf.dir", "value": "/etc/hadoop/conf", "resolved": "", "reason": "outside"}]}})
	some f in scheduled_space.deny with input as inp
	f.severity == "warning"
	contains(f.detail, "(assumed: env.hadoop.conf.dir: /etc/hadoop/conf is not in the repository")
	not error_in(scheduled_space.deny) with input as inp
}

error_in(fs) if {
	some f in fs
	not f.severity
}

test_unreadable_block_size_is_left_to_ckpt104 if {
	inp := json.patch(story_a, [{"op": "add", "path": "/effective/hdfs_client/blocksize/error", "value": "Invalid size prefix"}])
	count(scheduled_space.deny) == 0 with input as inp
}

test_no_round_size_with_10x_takes_the_largest_above_2x if {
	# 1 DataNode with 1 GiB free, 400 files in flight: 1m gives 1024 blocks (2.56x).
	inp := json.patch(story_a, [
		{"op": "replace", "path": "/cluster", "value": {"declared": true, "datanodes": 1, "datanode_free_bytes": 1073741824}},
		{"op": "replace", "path": "/deployment/stateful_operators", "value": 1},
		{"op": "add", "path": "/effective/hdfs_cluster/max_blocks_per_file", "value": {"value": 10000}},
	])
	some f in scheduled_space.deny with input as inp
	contains(f.detail, "no round size leaves 10x, and 1m is the largest that leaves more than 2x")
	contains(f.detail, "it caps one file at 9.8 GiB")
}

test_namenode_minimum_off_the_ladder_is_a_candidate if {
	inp := json.patch(story_a, [{"op": "replace", "path": "/effective/hdfs_cluster/min_block_size/value", "value": 3145728}])
	some f in scheduled_space.deny with input as inp
	f.fix == [{"op": "set", "target": "hdfs-client", "key": "dfs.blocksize", "value": "8m"}]
}

# 180 blocks already scheduled on the busiest DataNode leave room for fewer
# checkpoint files: 1 job x 100 x 1 = 100 files, 34 per DataNode + 312 >= 344.
test_scheduled_blocks_count_and_are_cited if {
	inp := json.patch(story_a, [
		{"op": "replace", "path": "/deployment", "value": {"declared": false}},
		{"op": "replace", "path": "/cluster", "value": {
			"declared": true, "datanodes": 3, "datanode_free_bytes": 46170898432, "datanode_blocks_scheduled": 312,
			"facts": {
				"datanodes": {"cite": "facts from namenode http://nn:9870/jmx, 2026-12-01"},
				"datanode_free_bytes": {"cite": "facts from namenode http://nn:9870/jmx, 2026-12-01"},
				"datanode_blocks_scheduled": {"cite": "facts from namenode http://nn:9870/jmx, 2026-12-01"},
			},
		}},
	])
	some f in scheduled_space.deny with input as inp
	not f.severity
	contains(f.detail, "= 346 per DataNode (including 312 blocks already scheduled on the busiest DataNode, datanode_blocks_scheduled)) (observed: datanodes, datanode_free_bytes, datanode_blocks_scheduled: facts from namenode http://nn:9870/jmx, 2026-12-01)")
}

test_without_scheduled_blocks_the_same_load_passes if {
	inp := json.patch(story_a, [{"op": "replace", "path": "/deployment", "value": {"declared": false}}])
	count(scheduled_space.deny) == 0 with input as inp
}
