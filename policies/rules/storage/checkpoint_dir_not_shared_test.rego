package ckptlint.rules.storage.checkpoint_dir_not_shared_test

import data.ckptlint.rules.storage.checkpoint_dir_not_shared

loc(line) := {"file": "flink-conf.yaml", "line": line}

base := {
	"flink": {"file": "flink-conf.yaml", "format": "flink-conf", "keys": {}},
	"versions": {"flink": {"value": "1.18", "major": 1, "minor": 18, "declared": true, "source": "config", "why": "flink_version in .ckptlint.hcl"}},
	"effective": {
		"checkpointing": {"dir": {"value": "file:///data/checkpoints", "set": true, "key": "state.checkpoints.dir", "loc": loc(2)}},
		"ha": {"type": {"value": "NONE", "set": false, "key": "high-availability.type"}},
	},
	"cluster": {"declared": false},
}

three_tms := json.patch(base, [{"op": "add", "path": "/deployment", "value": {"declared": true, "name": "etl", "taskmanagers": 3, "taskmanagers_in": "deployment \"etl\""}}])

test_declared_taskmanagers_is_an_error if {
	some f in checkpoint_dir_not_shared.deny with input as three_tms
	not f.severity
	contains(f.detail, "file:///data/checkpoints (state.checkpoints.dir at flink-conf.yaml:2)")
	contains(f.detail, "deployment \"etl\" in .ckptlint.hcl declares 3 TaskManagers")
	f.loc.line == 2
}

# The old place, the cluster block, as model.Input resolves it into
# input.deployment for a set of that cluster.
test_cluster_taskmanagers_is_an_error if {
	inp := json.patch(base, [{"op": "add", "path": "/deployment", "value": {"declared": false, "taskmanagers": 3, "taskmanagers_in": "cluster \"prod\""}}])
	some f in checkpoint_dir_not_shared.deny with input as inp
	contains(f.detail, "cluster \"prod\" in .ckptlint.hcl declares 3 TaskManagers")
}

test_manifest_replicas_is_an_error if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/flink/format", "value": "flink-deployment"},
		{"op": "add", "path": "/flink/manifest", "value": {"taskmanager_replicas": {"value": "4", "loc": {"file": "deploy.yaml", "line": 30}}}},
	])
	some f in checkpoint_dir_not_shared.deny with input as inp
	not f.severity
	contains(f.detail, "4 TaskManager replicas (spec.taskManager.replicas at deploy.yaml:30)")
}

test_ha_implies_warning if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/ha/type", "value": {"value": "zookeeper", "set": true, "key": "high-availability.type", "loc": loc(5)}}])
	some f in checkpoint_dir_not_shared.deny with input as inp
	f.severity == "warning"
	contains(f.detail, "high availability is on (high-availability.type: zookeeper at flink-conf.yaml:5)")
}

test_flink_deployment_implies_warning if {
	inp := json.patch(base, [{"op": "replace", "path": "/flink/format", "value": "flink-deployment"}])
	some f in checkpoint_dir_not_shared.deny with input as inp
	f.severity == "warning"
	contains(f.detail, "separate pod")
}

test_unknown_hosts_is_info if {
	some f in checkpoint_dir_not_shared.deny with input as base
	f.severity == "info"
	contains(f.detail, "Declare taskmanagers")
}

test_schemeless_path_is_local_without_default_scheme if {
	some f in checkpoint_dir_not_shared.deny with input as json.patch(three_tms, [{"op": "replace", "path": "/effective/checkpointing/dir/value", "value": "/data/checkpoints"}])
	contains(f.detail, "fs.default-scheme is not set")
}

test_schemeless_path_with_hdfs_default_scheme_is_silent if {
	inp := json.patch(three_tms, [
		{"op": "replace", "path": "/effective/checkpointing/dir/value", "value": "/flink/checkpoints"},
		{"op": "replace", "path": "/flink/keys", "value": {"fs.default-scheme": {"value": "hdfs://nn:8020/"}}},
	])
	count(checkpoint_dir_not_shared.deny) == 0 with input as inp
}

test_shared_file_systems_are_silent if {
	every d in ["hdfs://nn:8020/flink/checkpoints", "hdfs:///flink/checkpoints", "s3://bucket/checkpoints", "oss://b/c"] {
		count(checkpoint_dir_not_shared.deny) == 0 with input as json.patch(three_tms, [{"op": "replace", "path": "/effective/checkpointing/dir/value", "value": d}])
	}
}

test_no_dir_is_silent if {
	inp := json.patch(three_tms, [{"op": "replace", "path": "/effective/checkpointing/dir", "value": {"value": null, "set": false, "key": "state.checkpoints.dir"}}])
	count(checkpoint_dir_not_shared.deny) == 0 with input as inp
}

# FlinkDeployment pod templates: the volume mounted at the directory decides.
k8s(mounts) := json.patch(base, [
	{"op": "replace", "path": "/flink/format", "value": "flink-deployment"},
	{"op": "add", "path": "/flink/manifest", "value": {"mounts": mounts}},
])

mnt(typ, class, detail) := {
	"mount_path": "/data", "volume": "flink-volume", "volume_type": typ, "class": class, "detail": detail,
	"template": "spec.podTemplate", "loc": {"file": "deploy.yaml", "line": 40},
}

test_pvc_in_both_pods_is_shared if {
	m := mnt("persistentVolumeClaim", "shared", "claim flink-data")
	count(checkpoint_dir_not_shared.deny) == 0 with input as k8s({"jobmanager": [m], "taskmanager": [m]})
}

test_nfs_and_csi_are_shared if {
	n := mnt("nfs", "shared", "nfs.internal:/exports")
	c := json.patch(mnt("csi", "shared", "driver efs.csi.aws.com"), [{"op": "replace", "path": "/mount_path", "value": "/"}])
	count(checkpoint_dir_not_shared.deny) == 0 with input as k8s({"jobmanager": [n], "taskmanager": [c]})
}

test_emptydir_stays_local_and_is_named if {
	m := mnt("emptyDir", "local", "")
	some f in checkpoint_dir_not_shared.deny with input as k8s({"jobmanager": [m], "taskmanager": [m]})
	f.severity == "warning"
	contains(f.detail, "in the JobManager and TaskManager pods, volume flink-volume (emptyDir) mounted at /data (spec.podTemplate at deploy.yaml:40): an emptyDir lives and dies with its pod")
}

test_hostpath_stays_local_and_is_named if {
	m := mnt("hostPath", "local", "node path /mnt/flink")
	some f in checkpoint_dir_not_shared.deny with input as k8s({"jobmanager": [m], "taskmanager": [m]})
	contains(f.detail, "volume flink-volume (hostPath, node path /mnt/flink)")
}

test_shared_in_one_pod_only_is_local if {
	m := mnt("persistentVolumeClaim", "shared", "claim jm")
	some f in checkpoint_dir_not_shared.deny with input as k8s({"jobmanager": [m], "taskmanager": []})
	contains(f.detail, "in the JobManager pods, volume flink-volume (persistentVolumeClaim, claim jm)")
	contains(f.detail, "in the TaskManager pods, no volume is mounted there")
}

test_mount_must_hold_the_path if {
	m := json.patch(mnt("persistentVolumeClaim", "shared", "claim x"), [{"op": "replace", "path": "/mount_path", "value": "/dat"}])
	some f in checkpoint_dir_not_shared.deny with input as k8s({"jobmanager": [m], "taskmanager": [m]})
	contains(f.detail, "no volume is mounted there")
}

test_longest_mount_wins if {
	outer := json.patch(mnt("persistentVolumeClaim", "shared", "claim x"), [{"op": "replace", "path": "/mount_path", "value": "/"}])
	inner := mnt("emptyDir", "local", "")
	some f in checkpoint_dir_not_shared.deny with input as k8s({"jobmanager": [outer, inner], "taskmanager": [outer, inner]})
	contains(f.detail, "(emptyDir)")
}

test_read_write_once_claim_is_info if {
	m := json.patch(mnt("persistentVolumeClaim", "shared", "claim flink-data"), [{"op": "add", "path": "/access_modes", "value": ["ReadWriteOnce"]}])
	fs := checkpoint_dir_not_shared.deny with input as k8s({"jobmanager": [m], "taskmanager": [m]})
	count(fs) == 1
	some f in fs
	f.severity == "info"
	contains(f.detail, "allows only ReadWriteOnce")
	contains(f.detail, "volume flink-volume (persistentVolumeClaim, claim flink-data) mounted at /data (spec.podTemplate at deploy.yaml:40)")
}

test_read_write_many_claim_is_silent if {
	m := json.patch(mnt("persistentVolumeClaim", "shared", "claim flink-data"), [{"op": "add", "path": "/access_modes", "value": ["ReadWriteMany"]}])
	count(checkpoint_dir_not_shared.deny) == 0 with input as k8s({"jobmanager": [m], "taskmanager": [m]})
}

# Deployment evidence (input.deployed.peers).
compose_proc(name, line, mounts, replicas) := {"name": name, "source": "compose", "role": name, "replicas": replicas, "loc": {"file": "docker-compose.yml", "line": line}, "mounts": mounts}

named_mount(line) := {"path": "/data", "kind": "named", "volume": "named volume ckpt", "sharing": "shared", "why": "a named volume is one directory on the Docker host for every service", "loc": {"file": "docker-compose.yml", "line": line}}

deployed_with(peers) := json.patch(base, [{"op": "add", "path": "/deployed", "value": {"peers": peers}}])

test_deployed_all_share_one_volume_passes if {
	inp := deployed_with([compose_proc("jobmanager", 3, [named_mount(5)], 1), compose_proc("taskmanager", 8, [named_mount(10)], 2)])
	count(checkpoint_dir_not_shared.deny) == 0 with input as inp
}

test_deployed_unmounted_process_is_an_error if {
	inp := deployed_with([compose_proc("jobmanager", 3, [named_mount(5)], 1), compose_proc("taskmanager", 8, [], 2)])
	some f in checkpoint_dir_not_shared.deny with input as inp
	not f.severity
	contains(f.detail, "3 Flink processes run")
	contains(f.detail, "the taskmanager service (docker-compose.yml:8) mounts nothing at /data/checkpoints")
}

test_deployed_local_volume_is_an_error if {
	empty := {"path": "/data", "kind": "empty", "volume": "emptyDir scratch", "sharing": "local", "why": "an emptyDir lives and dies with its pod, so every pod has its own", "loc": {"file": "tm.yaml", "line": 30}}
	inp := deployed_with([{"name": "Deployment/flink-taskmanager", "source": "kubernetes", "role": "taskmanager", "replicas": 2, "loc": {"file": "tm.yaml", "line": 2}, "mounts": [empty]}])
	some f in checkpoint_dir_not_shared.deny with input as inp
	not f.severity
	contains(f.detail, "Deployment/flink-taskmanager (tm.yaml:2) mounts emptyDir scratch at /data (tm.yaml:30)")
}

test_deployed_unknown_claim_is_info if {
	claim := {"path": "/data", "kind": "claim", "volume": "claim ckpt", "sharing": "unknown", "why": "its PersistentVolumeClaim is not in the repository, so its access modes are unknown", "loc": {"file": "tm.yaml", "line": 30}}
	inp := deployed_with([compose_proc("jobmanager", 3, [claim], 1), compose_proc("taskmanager", 8, [claim], 1)])
	some f in checkpoint_dir_not_shared.deny with input as inp
	f.severity == "info"
	contains(f.detail, "whether it is one file system for all of them is unknown")
}

test_deployed_single_process_passes if {
	inp := deployed_with([compose_proc("flink", 3, [], 1)])
	count(checkpoint_dir_not_shared.deny) == 0 with input as inp
}

test_deployed_different_volumes_is_an_error if {
	other := object.union(named_mount(10), {"volume": "named volume other"})
	inp := deployed_with([compose_proc("jobmanager", 3, [named_mount(5)], 1), compose_proc("taskmanager", 8, [other], 1)])
	some f in checkpoint_dir_not_shared.deny with input as inp
	not f.severity
	contains(f.detail, "the processes mount different volumes there")
}
