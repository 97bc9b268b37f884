# METADATA
# title: Checkpoint storage and HA facts
# description: Derived facts the storage rules share (where a checkpoint or HA directory lives, whether HA is on, which Flink version applies) and how a value's origin is named in a message.
package ckptlint.lib.storage

# origin names where an effective value came from: "file:line", or
# "the default" for a value no file set.
origin(v) := sprintf("%s:%d", [v.loc.file, v.loc.line]) if {
	is_object(v.loc)
} else := "the default"

# scheme is the lower-cased URI scheme of path p ("hdfs", "file", "s3"), or
# "" when p has none. Like Flink's Path, a scheme is what precedes the first
# colon when no slash comes before it; one letter is a Windows drive, not a
# scheme.
scheme(p) := lower(m[0][1]) if {
	m := regex.find_all_string_submatch_n(`^([A-Za-z][A-Za-z0-9+.\-]+):`, trim_space(p), 1)
	count(m) == 1
} else := ""

# default_scheme is Flink's fs.default-scheme when set: the file system
# Flink applies to a path without a scheme (FileSystem.getUnguardedFileSystem;
# unset means the local file system). Hadoop's fs.defaultFS plays no part.
default_scheme := s if {
	s := input.flink.keys["fs.default-scheme"].value
	is_string(s)
	trim_space(s) != ""
}

# local(p) is true when Flink resolves path p to the local file system of
# the process that reads or writes it.
local(p) if scheme(p) == "file"

local(p) if {
	scheme(p) == ""
	not default_scheme
}

local(p) if {
	scheme(p) == ""
	scheme(default_scheme) == "file"
}

# hdfs(p) is true when Flink resolves path p to HDFS.
hdfs(p) if scheme(p) == "hdfs"

hdfs(p) if {
	scheme(p) == ""
	scheme(default_scheme) == "hdfs"
}

# scheme_note explains how a path without a scheme is resolved, for messages.
scheme_note(p) := "" if {
	scheme(p) != ""
} else := sprintf(" (no scheme: Flink applies fs.default-scheme %s)", [default_scheme]) if {
	default_scheme
} else := " (no scheme, and fs.default-scheme is not set: Flink resolves it to file://)"

# dir is the effective checkpoint directory value object, when one is set.
dir := d if {
	d := input.effective.checkpointing.dir
	d.set
	is_string(d.value)
	trim_space(d.value) != ""
}

# ha_type is the effective high-availability mode, upper-cased.
ha_type := upper(trim_space(input.effective.ha.type.value)) if {
	input.flink
	is_string(input.effective.ha.type.value)
}

# ha_on is true when high availability is enabled: Flink reads NONE (and
# the legacy "standalone") as off, anything else as a mode or a factory class.
ha_on if {
	ha_type
	not ha_type in {"NONE", "STANDALONE"}
}

# ha_needs_storage is true for the HA services that keep their metadata
# under high-availability.storageDir: ZooKeeper and Kubernetes (by mode
# name or by the Kubernetes factory class of Flink 1.12).
ha_needs_storage if ha_type in {"ZOOKEEPER", "KUBERNETES", "ORG.APACHE.FLINK.KUBERNETES.HIGHAVAILABILITY.KUBERNETESHASERVICESFACTORY"}

# backend_name is the configured state backend name, lower-cased.
backend_name := lower(trim_space(input.effective.state_backend.type.value)) if {
	input.flink
	is_string(input.effective.state_backend.type.value)
}

# version is the Flink version of the set; at_least(major, minor) compares it.
version := input.versions.flink

at_least(major, _) if version.major > major

at_least(major, minor) if {
	version.major == major
	version.minor >= minor
}

# version_text names the version and how ckptlint knows it, for messages.
version_text := version.text if {
	is_string(version.text)
} else := sprintf("Flink %s (%s)", [version.value, version.why]) if {
	version.declared
} else := sprintf("Flink %s or later (%s; declare flink_version in .ckptlint.hcl)", [version.value, evidence]) if {
	version.source == "evidence"
} else := sprintf("Flink %s, assumed because no version is declared (declare flink_version in .ckptlint.hcl)", [version.value])

evidence := regex.replace(version.why, ` \(a lower bound[^)]*\)$`, "")

# jobs_text says how many jobs share the configuration, declared or not.
jobs_text := sprintf("the deployment block of .ckptlint.hcl declares %d jobs sharing this configuration", [input.deployment.jobs]) if {
	input.deployment.jobs
} else := "every job submitted with this configuration uses it (jobs is not declared in .ckptlint.hcl)"

# host_in_path is true for an hdfs: URI with the NameNode written into
# its path (hdfs:///namenode:8020/x, hdfs:/namenode:8020/x): the
# authority is empty and "namenode:8020" is the first path component.
host_in_path(p) if regex.match(`^(?i)hdfs:(/|///)[^/:]+:[0-9]+(/|$)`, trim_space(p))
