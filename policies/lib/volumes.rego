# METADATA
# title: FlinkDeployment volumes
# description: Which Kubernetes volume of a FlinkDeployment's pod templates a file:// path lies on, whether that volume is shared between pods, and how to name it in a message (input.flink.manifest.mounts, docs/input.md).
package ckptlint.lib.volumes

import data.ckptlint.lib.storage

# titles name the components in messages.
titles := {"jobmanager": "JobManager", "taskmanager": "TaskManager"}

# fs_path is the path a file:// URI (or a path without a scheme) names in
# the container: file:///data/x and file:/data/x are /data/x.
fs_path(p) := regex.replace(trim_space(p), `^[A-Za-z]+:(//[^/]*)?`, "") if {
	storage.scheme(p) == "file"
} else := trim_space(p)

# under is true when path lies at or below mount path mp.
under(path, mp) if {
	m := trim_suffix(mp, "/")
	path == m
}

under(path, mp) if startswith(path, concat("", [trim_suffix(mp, "/"), "/"]))

# mount(p, comp) is the mount of the Flink container of component comp
# ("jobmanager" or "taskmanager") that holds path p: the one with the
# longest mount path, as the kernel resolves it.
mount(p, comp) := m if {
	path := fs_path(p)
	ms := [x | some x in input.flink.manifest.mounts[comp]; under(path, x.mount_path)]
	count(ms) > 0
	longest := max([count(x.mount_path) | some x in ms])
	m := [x | some x in ms; count(x.mount_path) == longest][0]
}

# shared(p, comps) is true when every component of comps mounts a shared
# volume (a PersistentVolumeClaim, NFS, CSI or other network file system)
# at p: the pods then see the same files there.
shared(p, comps) if {
	input.flink.manifest
	every c in comps {
		mount(p, c).class == "shared"
	}
}

# any_mount is true when some component mounts a volume at p.
any_mount(p, comps) if {
	some c in comps
	mount(p, c)
}

origin(m) := sprintf("%s at %s:%d", [m.template, m.loc.file, m.loc.line])

source(m) := sprintf("%s, %s", [m.volume_type, m.detail]) if {
	m.detail != ""
} else := m.volume_type if {
	m.volume_type != ""
} else := "no source"

meaning(m) := "an emptyDir lives and dies with its pod, so every pod has its own" if {
	m.volume_type == "emptyDir"
} else := "a hostPath is the disk of the node each pod runs on, shared only by pods on the same node" if {
	m.volume_type == "hostPath"
} else := "a generic ephemeral volume is a claim of its own for each pod" if {
	m.volume_type == "ephemeral"
} else := "a block device attaches to one node at a time" if {
	m.class == "node"
} else := "a configuration volume is read-only and per pod" if {
	m.class == "config"
} else := "the pod template declares no volume of that name, so Kubernetes refuses the pod" if {
	m.class == "missing"
} else := "shared by every pod that mounts it" if {
	m.class == "shared"
} else := "ckptlint does not know whether it is shared"

describe(m) := sprintf("volume %s (%s) mounted at %s (%s): %s", [m.volume, source(m), m.mount_path, origin(m), meaning(m)])

body(p, c) := describe(mount(p, c)) if {
	mount(p, c)
} else := "no volume is mounted there, so it is the container's own file system, lost with the pod"

# note names, for a FlinkDeployment, the volume each component has at p:
# " (in the JobManager and TaskManager pods, volume ... mounted at ...)".
note(p, comps) := sprintf(" (in the %s pods, %s)", [concat(" and ", [titles[c] | some c in comps]), body(p, comps[0])]) if {
	input.flink.manifest.mounts
	count({body(p, c) | some c in comps}) == 1
} else := sprintf(" (%s)", [concat("; ", [sprintf("in the %s pods, %s", [titles[c], body(p, c)]) | some c in comps])]) if {
	input.flink.manifest.mounts
} else := ""

# single_node_claims are the mounts at p, among comps, of a
# PersistentVolumeClaim declared in the same file whose access modes let
# only one node (ReadWriteOnce) or one pod (ReadWriteOncePod) mount it
# read-write (https://kubernetes.io/docs/concepts/storage/persistent-volumes/#access-modes).
single_node_claims(p, comps) := {m |
	some c in comps
	m := mount(p, c)
	m.volume_type == "persistentVolumeClaim"
	count(m.access_modes) > 0
	every a in m.access_modes {
		a in {"ReadWriteOnce", "ReadWriteOncePod"}
	}
}
