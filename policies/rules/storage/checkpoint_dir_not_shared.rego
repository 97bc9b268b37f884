# METADATA
# title: The checkpoint directory is on a local file system of a multi-host cluster
# description: |
#   Flink requires the checkpoint directory to be "accessible from all participating
#   processes/nodes (i.e. all TaskManagers and JobManagers)": every TaskManager writes the
#   state files of its tasks there and the JobManager writes the checkpoint's _metadata and
#   later reads and deletes all of it. A file:// path (or a path without a scheme while
#   fs.default-scheme is unset, which Flink resolves to file://) names a different disk on
#   every machine, so with several TaskManagers or a JobManager on another host no process sees
#   a complete checkpoint: a task restored on another machine cannot read its state and the
#   JobManager cannot discard old checkpoints. This is an error when .ckptlint.hcl declares
#   more than one TaskManager or the FlinkDeployment more than one TaskManager replica, a
#   warning when high availability is on or the set is a FlinkDeployment (JobManager and
#   TaskManagers in separate pods), and an info otherwise. The fix is a shared file system URI
#   (hdfs://, s3://, ...); a file:// path only works when the same network mount (NFS, a
#   ReadWriteMany volume) is at that path on every JobManager and TaskManager. In a
#   FlinkDeployment, a path under a volumeMount of the flink-main-container whose volume is a
#   PersistentVolumeClaim, NFS, CSI or other network file system in both the JobManager and the
#   TaskManager pod templates is such a mount and is not reported; an emptyDir, hostPath or no
#   volume stays local, and the finding names the volume it reasoned from. Where the
#   repository deploys the cluster (docker-compose services, Kubernetes workloads: the
#   input's deployed.peers), the rule reasons from what every Flink process mounts at the
#   path instead: an error when two or more processes run and one of them mounts nothing
#   there, a volume that is each process's own (an emptyDir, a hostPath on Kubernetes, a
#   ReadWriteOnce claim) or another volume than the others; an info when whether the volume
#   is shared is unknown (a claim defined elsewhere); nothing when all of them mount one
#   shared volume (a compose named volume or bind mount on one Docker host, NFS, a
#   ReadWriteMany claim) or a single process runs.
# related_resources:
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/deployment/config/#execution-checkpointing-dir
#     description: execution.checkpointing.dir must be accessible from all TaskManagers and JobManagers
#   - ref: https://kubernetes.io/docs/concepts/storage/volumes/
#     description: Kubernetes volume types (emptyDir per pod, hostPath per node, persistentVolumeClaim, nfs, csi)
#   - ref: https://github.com/apache/flink/pull/5928
#     description: Docs hotfix, use file:// only for local setups
#   - ref: https://github.com/apache/flink/blob/release-1.20.0/flink-core/src/main/java/org/apache/flink/core/fs/FileSystem.java
#     description: FileSystem.getUnguardedFileSystem resolves a path without a scheme with fs.default-scheme, else file://
# custom:
#   id: CKPT502
#   name: checkpoint-dir-not-shared
#   severity: error
#   fixable: false
package ckptlint.rules.storage.checkpoint_dir_not_shared

import data.ckptlint.lib.result
import data.ckptlint.lib.storage
import data.ckptlint.lib.volumes

dir := storage.dir

replicas := to_number(v) if {
	v := input.flink.manifest.taskmanager_replicas.value
	is_string(v)
	regex.match(`^[0-9]+$`, v)
} else := v if {
	v := input.flink.manifest.taskmanager_replicas.value
	is_number(v)
}

# declared is the stated evidence of several hosts.
declared contains sprintf("%s in .ckptlint.hcl declares %d TaskManagers", [input.deployment.taskmanagers_in, n]) if {
	n := input.deployment.taskmanagers
	n > 1
}

declared contains sprintf("the FlinkDeployment runs %d TaskManager replicas (spec.taskManager.replicas at %s)", [replicas, storage.origin(input.flink.manifest.taskmanager_replicas)]) if {
	replicas > 1
}

# implied is evidence that at least two machines or containers are involved.
implied contains sprintf("high availability is on (%s: %s at %s), so a JobManager that takes over elsewhere must read the checkpoints", [input.effective.ha.type.key, input.effective.ha.type.value, storage.origin(input.effective.ha.type)]) if {
	storage.ha_on
}

implied contains "a FlinkDeployment runs the JobManager and each TaskManager in a separate pod, each with its own file system" if {
	input.flink.format == "flink-deployment"
}

subject := sprintf("checkpoint directory %s (%s at %s) is on the local file system of each process%s%s", [dir.value, dir.key, storage.origin(dir), storage.scheme_note(dir.value), volumes.note(dir.value, components)])

# components are the pods that read and write the checkpoint directory.
components := ["jobmanager", "taskmanager"]

# local is true when the directory is on a local file system that no shared
# volume of the FlinkDeployment covers.
local if {
	not deployed
	storage.local(dir.value)
	not volumes.shared(dir.value, components)
}

consequence := "each TaskManager writes its checkpoint files under that path on its own disk and the JobManager writes _metadata on its own, so no process sees a complete checkpoint: a task restored elsewhere cannot read its state and the JobManager cannot discard old checkpoints (Flink requires this directory to be accessible from all TaskManagers and JobManagers)"

remedy := "Use a shared file system URI such as hdfs://<namenode>:8020/flink/checkpoints; a file:// path works only when the same network mount (NFS, a ReadWriteMany volume) is at that path on every JobManager and TaskManager"

evidence(set) := concat("; ", sort([s | some s in set]))

deny contains f if {
	local
	count(declared) > 0
	f := result.finding(dir, result.msg(
		sprintf("Checkpoint directory %s is on each process's local disk, so no process sees a complete checkpoint to restore.", [result.short(dir.value)]),
		sprintf("%s, but %s: %s. %s", [subject, evidence(declared | implied), consequence, remedy]),
	))
}

deny contains f if {
	local
	count(declared) == 0
	count(implied) > 0
	f := result.warning(dir, result.msg(
		sprintf("Checkpoint directory %s is a local path: unless it is one shared mount, no process sees a complete checkpoint.", [result.short(dir.value)]),
		sprintf("%s, but %s: unless that path is one shared mount, %s. %s", [subject, evidence(implied), consequence, remedy]),
	))
}

deny contains f if {
	local
	count(declared) == 0
	count(implied) == 0
	f := result.info(dir, result.msg(
		sprintf("Checkpoint directory %s is a local path, which works only if every Flink process sees the same mount there.", [result.short(dir.value)]),
		sprintf("%s: this works only when the JobManager and every TaskManager run on one machine or see the same mount at that path. Declare taskmanagers in a cluster block of .ckptlint.hcl so ckptlint can tell, or use a shared file system URI such as hdfs://<namenode>:8020/flink/checkpoints", [subject]),
	))
}

# A claim every pod mounts is shared storage, but one declared in the same
# file as ReadWriteOnce can be mounted only by pods on one node, and
# ReadWriteOncePod by one pod: the TaskManagers elsewhere cannot start.
deny contains f if {
	not deployed
	storage.local(dir.value)
	volumes.shared(dir.value, components)
	some m in volumes.single_node_claims(dir.value, components)
	f := result.info(dir, result.msg(
		sprintf("Checkpoint directory %s is on a volume Kubernetes attaches to one node at a time, so pods on other nodes cannot start.", [result.short(dir.value)]),
		sprintf(
			"checkpoint directory %s (%s at %s) is on volume %s (%s) mounted at %s (%s), a claim every pod mounts; its PersistentVolumeClaim in this file allows only %s, so Kubernetes attaches it to one node at a time (ReadWriteOncePod: one pod) and JobManager and TaskManager pods scheduled on other nodes stay Pending. Use a ReadWriteMany claim (NFS, CephFS, EFS, Filestore...) unless the cluster has one node",
			[dir.value, dir.key, storage.origin(dir), m.volume, volumes.source(m), m.mount_path, volumes.origin(m), concat(", ", m.access_modes)],
		),
	))
}

# Deployment evidence: the Flink processes the repository deploys
# (input.deployed.peers, docs/input.md), each with what it mounts.
deployed if {
	input.flink.format != "flink-deployment"
	count(input.deployed.peers) > 0
}

dir_path := volumes.fs_path(dir.value)

# processes is how many Flink processes run.
processes := sum([p.replicas | some p in input.deployed.peers])

# cover(p) is the mount of process p that holds the directory: the one
# with the longest path, as the kernel resolves it.
cover(p) := ms[i] if {
	ms := [m | some m in p.mounts; volumes.under(dir_path, m.path)]
	count(ms) > 0
	longest := max([count(m.path) | some m in ms])
	i := min([j | some j, m in ms; count(m.path) == longest])
}

proc_name(p) := sprintf("the %s service (%s:%d)", [p.name, p.loc.file, p.loc.line]) if {
	p.source == "compose"
} else := sprintf("%s (%s:%d)", [p.name, p.loc.file, p.loc.line])

mount_text(p) := sprintf("%s mounts %s at %s (%s:%d): %s", [proc_name(p), m.volume, m.path, m.loc.file, m.loc.line, m.why]) if {
	m := cover(p)
}

# apart are the reasons the processes do not share the directory.
apart contains sprintf("%s mounts nothing at %s, so it writes into its container's own file system", [proc_name(p), dir_path]) if {
	some p in input.deployed.peers
	not cover(p)
}

# A volume each process has for itself: the processes are several
# (deny checks processes > 1).
apart contains mount_text(p) if {
	some p in input.deployed.peers
	cover(p).sharing == "local"
}

apart contains sprintf("the processes mount different volumes there (%s)", [concat("; ", sort(texts))]) if {
	vols := {cover(p).volume | some p in input.deployed.peers}
	count(vols) > 1
	texts := {sprintf("%s: %s", [proc_name(p), cover(p).volume]) | some p in input.deployed.peers}
}

several_text := sprintf("%d Flink processes run (%s)", [processes, concat(", ", sort(names))]) if {
	names := {sprintf("%s ×%d", [proc_name(p), p.replicas]) | some p in input.deployed.peers}
}

deploy_remedy := concat("", [remedy, ", or, on one Docker host, the same named volume or bind mount in every service"]) if {
	some p in input.deployed.peers
	p.source == "compose"
} else := remedy

deploy_subject := sprintf("checkpoint directory %s (%s at %s) is a path on each process's own file system%s", [dir.value, dir.key, storage.origin(dir), storage.scheme_note(dir.value)])

deny contains f if {
	deployed
	storage.local(dir.value)
	processes > 1
	count(apart) > 0
	f := result.finding(dir, result.msg(
		sprintf("Checkpoint directory %s is not one shared volume for the %d Flink processes, so no process sees a complete checkpoint.", [result.short(dir.value), processes]),
		sprintf("%s, and %s: %s: %s. %s", [deploy_subject, several_text, concat("; ", sort(apart)), consequence, deploy_remedy]),
	))
}

deny contains f if {
	deployed
	storage.local(dir.value)
	processes > 1
	count(apart) == 0
	some p in input.deployed.peers
	cover(p).sharing == "unknown"
	f := result.info(dir, result.msg(
		sprintf("Checkpoint directory %s is on %s, and whether all Flink processes share it is unknown.", [result.short(dir.value), result.short(cover(p).volume)]),
		sprintf("%s, and %s; every one mounts %s at %s, but whether it is one file system for all of them is unknown: %s. If it is not, %s. %s", [deploy_subject, several_text, cover(p).volume, cover(p).path, cover(p).why, consequence, remedy]),
	))
}
