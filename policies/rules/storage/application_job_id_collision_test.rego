package ckptlint.rules.storage.application_job_id_collision_test

import data.ckptlint.rules.storage.application_job_id_collision

loc(line) := {"file": "flink-conf.yaml", "line": line}

declared(major, minor) := {"value": sprintf("%d.%d", [major, minor]), "major": major, "minor": minor, "declared": true, "source": "config", "why": "flink_version in .ckptlint.hcl"}

base := {
	"flink": {"file": "flink-conf.yaml", "format": "flink-conf", "keys": {}},
	"versions": {"flink": declared(1, 14)},
	"effective": {
		"execution": {"target": {"value": "yarn-application", "set": true, "key": "execution.target", "loc": loc(1)}},
		"ha": {
			"type": {"value": "zookeeper", "set": true, "key": "high-availability", "loc": loc(2)},
			"cluster_id": {"value": "/default", "set": false, "source": "default", "key": "high-availability.cluster-id"},
		},
		"checkpointing": {"dir": {"value": "hdfs:///flink/checkpoints", "set": true, "key": "state.checkpoints.dir", "loc": loc(3)}},
	},
}

at(version) := json.patch(base, [{"op": "replace", "path": "/versions/flink", "value": version}])

fixed_cluster_id(inp) := json.patch(inp, [{"op": "replace", "path": "/effective/ha/cluster_id", "value": {"value": "/etl", "set": true, "key": "high-availability.cluster-id", "loc": loc(4)}}])

test_zero_job_id_before_1_16 if {
	some f in application_job_id_collision.deny with input as base
	contains(f.detail, "execution.target: yarn-application at flink-conf.yaml:1")
	contains(f.detail, "on Flink 1.11 to 1.15 (this set: Flink 1.14 (flink_version in .ckptlint.hcl)) every application gets job ID 00000000000000000000000000000000")
	contains(f.detail, "hdfs:///flink/checkpoints/00000000000000000000000000000000/")
	f.loc.line == 1
	object.get(f, "fix", null) == null
}

test_kubernetes_application_before_1_16 if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/execution/target/value", "value": "kubernetes-application"}])
	count(application_job_id_collision.deny) == 1 with input as inp
}

test_1_16_with_derived_cluster_id_is_silent if {
	count(application_job_id_collision.deny) == 0 with input as at(declared(1, 16))
}

test_1_16_yarn_with_fixed_cluster_id_warns if {
	some f in application_job_id_collision.deny with input as fixed_cluster_id(at(declared(1, 18)))
	contains(f.detail, "fixed high-availability.cluster-id /etl (at flink-conf.yaml:4)")
	f.loc.line == 4
}

test_1_16_kubernetes_with_fixed_cluster_id_is_silent if {
	inp := json.patch(fixed_cluster_id(at(declared(1, 18))), [{"op": "replace", "path": "/effective/execution/target/value", "value": "kubernetes-application"}])
	count(application_job_id_collision.deny) == 0 with input as inp
}

test_session_target_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/execution/target/value", "value": "yarn-session"}])
	count(application_job_id_collision.deny) == 0 with input as inp
}

test_without_ha_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/ha/type/value", "value": "NONE"}])
	count(application_job_id_collision.deny) == 0 with input as inp
}

test_fixed_job_id_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/flink/keys", "value": {"$internal.pipeline.job-id": {"value": "ab12"}}}])
	count(application_job_id_collision.deny) == 0 with input as inp
}

test_before_1_11_is_silent if {
	count(application_job_id_collision.deny) == 0 with input as at(declared(1, 10))
}
