package ckptlint.rules.storage.ha_storage_dir_test

import data.ckptlint.rules.storage.ha_storage_dir

loc(line) := {"file": "flink-conf.yaml", "line": line}

base := {
	"flink": {"file": "flink-conf.yaml", "format": "flink-conf", "keys": {}},
	"versions": {"flink": {"value": "1.18", "major": 1, "minor": 18, "declared": true, "source": "config", "why": "flink_version in .ckptlint.hcl"}},
	"effective": {"ha": {
		"type": {"value": "zookeeper", "set": true, "key": "high-availability.type", "loc": loc(1)},
		"storage_dir": {"value": null, "set": false, "source": "unset", "key": "high-availability.storageDir"},
	}},
}

with_dir(d) := json.patch(base, [{"op": "replace", "path": "/effective/ha/storage_dir", "value": {"value": d, "set": true, "key": "high-availability.storageDir", "loc": loc(2)}}])

test_missing_storage_dir_is_an_error if {
	some f in ha_storage_dir.deny with input as base
	not f.severity
	contains(f.detail, "high availability is on (high-availability.type: zookeeper at flink-conf.yaml:1)")
	contains(f.detail, "Configuration is missing the mandatory parameter")
	f.loc.line == 1
	object.get(f, "fix", null) == null
}

test_kubernetes_and_factory_need_storage if {
	every t in ["KUBERNETES", "org.apache.flink.kubernetes.highavailability.KubernetesHaServicesFactory"] {
		count(ha_storage_dir.deny) == 1 with input as json.patch(base, [{"op": "replace", "path": "/effective/ha/type/value", "value": t}])
	}
}

test_local_storage_dir_warns if {
	some f in ha_storage_dir.deny with input as with_dir("file:///var/flink/ha")
	f.severity == "warning"
	contains(f.detail, "file:///var/flink/ha (high-availability.storageDir at flink-conf.yaml:2)")
	contains(f.detail, "another host")
	f.loc.line == 2
}

test_local_storage_dir_in_a_pod if {
	inp := json.patch(with_dir("/flink-data/ha"), [{"op": "replace", "path": "/flink/format", "value": "flink-deployment"}])
	some f in ha_storage_dir.deny with input as inp
	f.severity == "warning"
	contains(f.detail, "must mount the same volume")
	contains(f.detail, "fs.default-scheme is not set")
}

test_shared_storage_dir_is_silent if {
	count(ha_storage_dir.deny) == 0 with input as with_dir("hdfs:///flink/ha")
}

test_ha_off_is_silent if {
	every t in ["NONE", "none", "standalone"] {
		count(ha_storage_dir.deny) == 0 with input as json.patch(with_dir("file:///ha"), [{"op": "replace", "path": "/effective/ha/type/value", "value": t}])
	}
}

test_custom_factory_without_storage_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/ha/type/value", "value": "com.example.MyHaFactory"}])
	count(ha_storage_dir.deny) == 0 with input as inp
}

# A FlinkDeployment whose JobManager mounts a claim at the directory keeps
# its HA metadata across pods; an emptyDir does not, and the finding says so.
in_pod(mounts) := json.patch(with_dir("file:///flink-data/ha"), [
	{"op": "replace", "path": "/flink/format", "value": "flink-deployment"},
	{"op": "add", "path": "/flink/manifest", "value": {"mounts": mounts}},
])

jm_mount(typ, class) := {
	"mount_path": "/flink-data", "volume": "ha", "volume_type": typ, "class": class, "detail": "",
	"template": "spec.jobManager.podTemplate", "loc": {"file": "deploy.yaml", "line": 30},
}

test_pvc_mounted_in_the_jobmanager_is_silent if {
	count(ha_storage_dir.deny) == 0 with input as in_pod({"jobmanager": [jm_mount("persistentVolumeClaim", "shared")], "taskmanager": []})
}

test_emptydir_in_the_jobmanager_warns_and_names_it if {
	some f in ha_storage_dir.deny with input as in_pod({"jobmanager": [jm_mount("emptyDir", "local")], "taskmanager": []})
	f.severity == "warning"
	contains(f.detail, "in the JobManager pods, volume ha (emptyDir) mounted at /flink-data (spec.jobManager.podTemplate at deploy.yaml:30)")
}

# Issue 23: the oldest release with JobManager HA, 0.10 (FLINK-2291), reads
# recovery.mode and recovery.zookeeper.storageDir, and refuses another text.
test_oldest_release_names_its_key_and_error if {
	doc := json.patch(base, [
		{"op": "replace", "path": "/versions/flink", "value": {"value": "0.10.2", "major": 0, "minor": 10, "declared": true, "source": "config"}},
		{"op": "replace", "path": "/effective/ha/type/key", "value": "recovery.mode"},
		{"op": "replace", "path": "/effective/ha/storage_dir/key", "value": "recovery.zookeeper.storageDir"},
	])
	some f in ha_storage_dir.deny with input as doc
	contains(f.detail, "but recovery.zookeeper.storageDir is not set")
	contains(f.detail, "Missing recovery path. Specify via configuration key 'recovery.zookeeper.storageDir'.")
	contains(f.detail, "Set recovery.zookeeper.storageDir to")
	not contains(f.detail, "high-availability.storageDir")
}

test_1_2_error_text if {
	doc := json.patch(base, [{"op": "replace", "path": "/versions/flink", "value": {"value": "1.2.1", "major": 1, "minor": 2, "declared": true, "source": "config"}}])
	some f in ha_storage_dir.deny with input as doc
	contains(f.detail, "Missing high-availability storage path for metadata.")
}

# The newest release: the mandatory-parameter check of
# HighAvailabilityServicesUtils.
test_newest_release_error_text if {
	doc := json.patch(base, [{"op": "replace", "path": "/versions/flink", "value": {"value": "2.3", "major": 2, "minor": 3, "declared": true, "source": "config"}}])
	some f in ha_storage_dir.deny with input as doc
	contains(f.detail, "Configuration is missing the mandatory parameter: Key: 'high-availability.storageDir'")
}
