# METADATA
# title: High availability without a durable storage directory
# description: |
#   ZooKeeper and Kubernetes high availability keep only small pointers in ZooKeeper or
#   ConfigMaps; high-availability.storageDir (documented as required) "stores all metadata
#   needed to recover a JobManager failure". Without it the JobManager does not start:
#   "IllegalConfigurationException: Configuration is missing the mandatory parameter: ...
#   high-availability.storageDir". That is an error with no automatic fix (the path is yours).
#   A storageDir on the local file system (file://, or no scheme while fs.default-scheme is
#   unset) is a warning: the JobManager that takes over after a failure, on another host or in
#   a new pod, must read what the failed one wrote there, which a local disk does not give
#   unless the same shared mount is at that path. Use a durable shared file system such as
#   hdfs://namenode:8020/flink/ha. In a FlinkDeployment, a path under a volumeMount of the
#   JobManager's flink-main-container whose volume is a PersistentVolumeClaim, NFS, CSI or other
#   network file system is such a mount and is not reported; an emptyDir, hostPath or no volume
#   stays local, and the finding names the volume it reasoned from.
# related_resources:
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/deployment/ha/zookeeper_ha/
#     description: ZooKeeper HA, high-availability.storageDir (required)
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/deployment/ha/kubernetes_ha/
#     description: Kubernetes HA, high-availability.storageDir (required)
#   - ref: https://github.com/apache/flink/blob/release-1.20.0/flink-runtime/src/main/java/org/apache/flink/runtime/highavailability/HighAvailabilityServicesUtils.java
#     description: getClusterHighAvailableStoragePath, "Configuration is missing the mandatory parameter"
# custom:
#   id: CKPT508
#   name: ha-storage-dir
#   severity: error
#   fixable: false
package ckptlint.rules.storage.ha_storage_dir

import data.ckptlint.lib.result
import data.ckptlint.lib.storage
import data.ckptlint.lib.volumes

ha := input.effective.ha.type

sd := input.effective.ha.storage_dir

has_dir if {
	sd.set
	is_string(sd.value)
	trim_space(sd.value) != ""
}

ha_text := sprintf("%s: %s at %s", [ha.key, ha.value, storage.origin(ha)])

# dir_key is the spelling of the HA storage directory this release reads:
# recovery.zookeeper.storageDir on 0.10 to 1.1, high-availability.storageDir
# from 1.2 (FLINK-4768; internal/model/flinkkeys.go).
dir_key := sd.key if is_string(sd.key)

else := "high-availability.storageDir"

# refusal is what the JobManager throws without the directory, per release:
# ZooKeeperUtils "Missing recovery path. Specify via configuration key
# 'recovery.zookeeper.storageDir'." (release-0.10.0 to 1.1.5), "Missing
# high-availability storage path for metadata. Specify via configuration key
# 'high-availability.storageDir'." (release-1.2.x), and from 1.3 the blob
# store's check first (BlobUtils, later HighAvailabilityServicesUtils,
# release-1.18.0), which the versions not known are read as.
refusal := "\"IllegalConfigurationException: Missing recovery path. Specify via configuration key 'recovery.zookeeper.storageDir'.\"" if {
	input.versions.flink.declared
	not storage.at_least(1, 2)
} else := "\"IllegalConfigurationException: Missing high-availability storage path for metadata. Specify via configuration key 'high-availability.storageDir'.\"" if {
	input.versions.flink.declared
	not storage.at_least(1, 3)
} else := "\"IllegalConfigurationException: Configuration is missing the mandatory parameter: Key: 'high-availability.storageDir'\""

deny contains f if {
	storage.ha_needs_storage
	not has_dir
	f := result.finding(ha, result.msg(
		sprintf("High availability is on but %s is not set, so the JobManager does not start.", [dir_key]),
		sprintf(
			"high availability is on (%s) but %s is not set: it is where the JobManager stores all metadata needed to recover from a JobManager failure (the persisted job graphs among them), and the JobManager does not start without it (%s). Set %s to a durable shared directory, e.g. hdfs://<namenode>:8020/flink/ha",
			[ha_text, dir_key, refusal, dir_key],
		),
	))
}

takeover := "a JobManager pod that replaces a failed one must mount the same volume at that path (an emptyDir or the container's own file system is lost with the pod, a hostPath volume differs per node)" if {
	input.flink.format == "flink-deployment"
} else := "the JobManager that takes over after a failure, usually on another host, reads what the failed one wrote there, which a local disk does not give unless the same network mount is at that path on every JobManager host"

deny contains f if {
	storage.ha_on
	has_dir
	storage.local(sd.value)
	not volumes.shared(sd.value, ["jobmanager"])
	f := result.warning(sd, result.msg(
		sprintf("high-availability.storageDir %s is on the local file system, so a failover cannot recover the jobs.", [result.short(sd.value)]),
		sprintf(
			"high-availability.storageDir %s (%s at %s) is on the local file system%s%s while high availability is on (%s): %s, so a failover cannot recover the jobs and their checkpoints. Use a durable shared file system, e.g. hdfs://<namenode>:8020/flink/ha",
			[sd.value, sd.key, storage.origin(sd), storage.scheme_note(sd.value), volumes.note(sd.value, ["jobmanager"]), ha_text, takeover],
		),
	))
}
