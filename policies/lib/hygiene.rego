# METADATA
# title: Config-file hygiene helpers
# description: Shared facts for the hygiene rules (CKPT6xx) - which keys matter to checkpoints, how a finding names a place and the Flink version, and the key/value a parser notice suggests.
package ckptlint.lib.hygiene

import data.ckptlint.lib.result

# where renders a loc as "file:line".
where(loc) := sprintf("%s:%d", [loc.file, loc.line])

# Flink keys whose loss or change affects checkpoints, state or the HDFS
# client: the catalogue of input.effective plus these prefixes.
flink_prefixes := [
	"execution.checkpointing.",
	"execution.savepoint",
	"execution.state-recovery.",
	"state.",
	"savepoints.",
	"high-availability",
	"recovery.",
	"restart-strategy",
	"fs.",
	"flink.hadoop.",
	"env.hadoop.",
]

flink_exact := {"parallelism.default", "taskmanager.numberOfTaskSlots", "execution.target"}

hadoop_sections := {"hdfs_client", "hdfs_cluster"}

# relevant(key) is true for a Flink key that matters to checkpoints, state
# or Flink's HDFS client.
relevant(key) if {
	some p in flink_prefixes
	startswith(key, p)
}

relevant(key) if key in flink_exact

relevant(key) if {
	some sec, name
	not sec in hadoop_sections
	input.effective[sec][name].key == key
}

# Hadoop keys Flink's HDFS client (or the NameNode/DataNode limits the
# checkpoint rules use) reads: the effective catalogue plus these prefixes.
hadoop_prefixes := [
	"dfs.blocksize",
	"dfs.bytes-per-checksum",
	"dfs.replication",
	"dfs.client.",
	"dfs.nameservices",
	"dfs.ha.namenodes.",
	"dfs.namenode.rpc-address",
	"dfs.namenode.fs-limits.",
	"dfs.namenode.replication.min",
	"dfs.datanode.directoryscan.",
	"dfs.datanode.reconcile.",
	"fs.defaultFS",
]

# hadoop_relevant(key) is true for a Hadoop key that matters to Flink's
# checkpoints on HDFS.
hadoop_relevant(key) if {
	some p in hadoop_prefixes
	startswith(key, p)
}

hadoop_relevant(key) if {
	some sec in hadoop_sections
	some name
	input.effective[sec][name].key == key
}

# version describes the Flink version for messages with how ckptlint knows
# it: "Flink 1.10 (image flink:1.10.0-scala_2.12, docker-compose.yml:12)"
# (versions.flink.text, written by ckptlint; the branches below serve input
# documents built without it, e.g. in policy tests).
version := input.versions.flink.text if {
	is_string(input.versions.flink.text)
} else := sprintf("Flink %s", [input.versions.flink.value]) if {
	input.versions.flink.declared
} else := sprintf("Flink %s (inferred from the files, a lower bound; declare flink_version in .ckptlint.hcl)", [input.versions.flink.value]) if {
	input.versions.flink.source == "evidence"
} else := sprintf("Flink %s (assumed; declare flink_version in .ckptlint.hcl)", [input.versions.flink.value])

# at_least(major, minor) compares the Flink version.
at_least(major, _) if input.versions.flink.major > major

at_least(major, minor) if {
	input.versions.flink.major == major
	input.versions.flink.minor >= minor
}

# suggested(msg) is the text a parser notice proposes after `; write "`
# (Go %q quoting): given only when it holds no escape, so it is the literal
# text to write.
suggested(msg) := s if {
	parts := split(msg, "; write \"")
	count(parts) > 1
	tail := parts[count(parts) - 1]
	endswith(tail, "\"")
	s := trim_suffix(tail, "\"")
	not contains(s, "\\")
	not contains(s, "\"")
}

# split_kv splits "key: value" at the first ": " into [key, value].
split_kv(s) := [k, v] if {
	i := indexof(s, ": ")
	i > 0
	k := substring(s, 0, i)
	v := substring(s, i + 2, -1)
	v != ""
}

# flink_key_like(k) is true for a dotted key made of Flink's key characters,
# so a fix never invents a key out of a URL or prose.
flink_key_like(k) if regex.match(`^[A-Za-z][A-Za-z0-9_-]*(\.[A-Za-z0-9_+-]+)+$`, k)

# unquoted(v) is v without its matching outer quotes, when nothing inside
# needs unescaping.
unquoted(v) := s if {
	startswith(v, "\"")
	endswith(v, "\"")
	count(v) >= 2
	s := substring(v, 1, count(v) - 2)
	not contains(s, "\\")
	not contains(s, "\"")
} else := s if {
	startswith(v, "'")
	endswith(v, "'")
	count(v) >= 2
	s := substring(v, 1, count(v) - 2)
	not contains(s, "'")
}

# bool_word maps the YAML 1.1 booleans that Flink refuses to the boolean
# they were meant as.
bool_word := {
	"yes": "true", "y": "true", "on": "true",
	"no": "false", "n": "false", "off": "false",
}

# emit builds a finding at severity lvl ("error", "warning" or "info"),
# with the fix operations ops when there are any.
emit(at, msg, ops, lvl) := f if {
	count(ops) > 0
	f := object.union(result.fix(at, msg, ops), {"severity": lvl})
} else := object.union(result.finding(at, msg), {"severity": lvl})

# release names the Flink release the files are read as, briefly, for a
# headline ("Flink 1.18"); version says how ckptlint knows it.
release := sprintf("Flink %s", [input.versions.flink.value]) if {
	is_string(input.versions.flink.value)
} else := sprintf("Flink %d.%d", [input.versions.flink.major, input.versions.flink.minor]) if {
	is_number(input.versions.flink.major)
	is_number(input.versions.flink.minor)
} else := "this Flink release"
