package ckptlint.rules.acme.checkpoint_root_test

import data.ckptlint.rules.acme.checkpoint_root

# What the rule reads, copied from `ckptlint inspect` on a production config set.
prod := {
	"cluster": {"datanode_free_bytes": 2199023255552, "datanodes": 12, "declared": true, "name": "prod-eu"},
	"deployment": {"declared": true, "name": "payments"},
	"effective": {"checkpointing": {"dir": {
		"display": "hdfs://prod-nn/flink/payments/checkpoints",
		"file": "flink/flink-conf.yaml",
		"key": "state.checkpoints.dir",
		"loc": {"col": 1, "end_col": 65, "end_line": 5, "end_offset": 174, "file": "flink/flink-conf.yaml", "line": 5, "offset": 110},
		"raw": "hdfs://prod-nn/flink/payments/checkpoints",
		"set": true,
		"source": "file",
		"value": "hdfs://prod-nn/flink/payments/checkpoints",
	}}},
}

with_dir(path) := json.patch(prod, [{"op": "replace", "path": "/effective/checkpointing/dir/value", "value": path}])

test_team_directory_passes if {
	count(checkpoint_root.deny) == 0 with input as prod
}

test_team_root_itself_passes if {
	count(checkpoint_root.deny) == 0 with input as with_dir("hdfs://prod-nn/flink/payments")
}

test_other_team_fires if {
	some f in checkpoint_root.deny with input as with_dir("hdfs://prod-nn/flink/search/checkpoints")
	f.loc.line == 5
	contains(f.message, "state.checkpoints.dir hdfs://prod-nn/flink/search/checkpoints (at flink/flink-conf.yaml:5) is outside hdfs://prod-nn/flink/payments/")
	contains(f.message, "Set state.checkpoints.dir to hdfs://prod-nn/flink/payments/checkpoints")
	not f.severity # the rule's own severity, error
}

test_name_prefix_is_not_the_team_directory if {
	count(checkpoint_root.deny) == 1 with input as with_dir("hdfs://prod-nn/flink/payments-old/checkpoints")
}

test_other_namenode_fires if {
	count(checkpoint_root.deny) == 1 with input as with_dir("hdfs://backup-nn/flink/payments/checkpoints")
}

test_staging_cluster_is_silent if {
	inp := json.patch(with_dir("hdfs:///tmp/checkpoints"), [{"op": "replace", "path": "/cluster/name", "value": "staging"}])
	count(checkpoint_root.deny) == 0 with input as inp
}

test_without_deployment_asks_for_the_team if {
	inp := json.patch(prod, [{"op": "replace", "path": "/deployment", "value": {"declared": false}}])
	some f in checkpoint_root.deny with input as inp
	f.severity == "info"
	contains(f.message, "no deployment block names this config set's team")
}
