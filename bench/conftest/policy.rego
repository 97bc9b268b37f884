# The conftest side of bench/run.sh: six checkpoint rules written the way a
# team would write them for `conftest test --combine`, over the same
# generated monorepo ckptlint lints (internal/benchrepo: flink-conf.yaml,
# core-site.xml and hdfs-site.xml per config set). With --combine, input is
# one array of {"path", "contents"}; the rules group the files by directory
# (one config set each) so that a rule can read the Flink and the HDFS file
# of the same set, as ckptlint's rules do. conftest's XML parser
# (basgys/goxml2json) turns <configuration><property> into an object when a
# file has one property and an array when it has more; props handles both.
#
# Units follow Flink's TimeUtils.parseDuration (bare number = ms) and
# Hadoop's Configuration.getLongBytes / getTimeDuration (bare number =
# bytes / the key's default unit).
package main

import rego.v1

datanodes := 12 # the cluster block of the benchmark's .ckptlint.hcl

dir(path) := regex.replace(path, `/[^/]*$`, "")

flink[d] := f.contents if {
	some f in input
	endswith(f.path, "flink-conf.yaml")
	d := dir(f.path)
}

hdfs[d] := props(f.contents) if {
	some f in input
	endswith(f.path, "hdfs-site.xml")
	d := dir(f.path)
}

props(doc) := {p.name: p.value | some p in doc.configuration.property} if is_array(doc.configuration.property)

props(doc) := {doc.configuration.property.name: doc.configuration.property.value} if is_object(doc.configuration.property)

duration_units := {
	"": 1, "ms": 1, "milli": 1, "millis": 1, "millisecond": 1, "milliseconds": 1,
	"s": 1000, "sec": 1000, "secs": 1000, "second": 1000, "seconds": 1000,
	"m": 60000, "min": 60000, "minute": 60000, "minutes": 60000,
	"h": 3600000, "hour": 3600000, "hours": 3600000,
	"d": 86400000, "day": 86400000, "days": 86400000,
}

# duration_ms is a Flink duration in milliseconds.
duration_ms(v) := v if is_number(v)

duration_ms(v) := to_number(m[1]) * duration_units[m[2]] if {
	is_string(v)
	m := regex.find_all_string_submatch_n(`^\s*([0-9]+)\s*([a-z]*)\s*$`, lower(v), 1)[0]
}

byte_units := {"": 1, "k": 1024, "m": 1048576, "g": 1073741824, "t": 1099511627776}

# bytes is a Hadoop size (getLongBytes: an optional k/m/g/t suffix).
bytes(v) := to_number(m[1]) * byte_units[m[2]] if {
	m := regex.find_all_string_submatch_n(`^\s*([0-9]+)\s*([kmgt]?)\s*$`, lower(v), 1)[0]
}

interval(d) := duration_ms(flink[d]["execution.checkpointing.interval"])

# 1. block size: HDFS blocks below 1 MiB multiply NameNode objects per checkpoint file.
deny contains sprintf("%s: dfs.blocksize %s is below 1 MiB", [d, v]) if {
	some d, p in hdfs
	v := p["dfs.blocksize"]
	bytes(v) < 1048576
}

# 2. checkpoint timeout: a timeout not longer than the interval aborts checkpoints that would finish.
deny contains sprintf("%s: checkpoint timeout %v is not longer than the interval", [d, t]) if {
	some d, c in flink
	t := c["execution.checkpointing.timeout"]
	duration_ms(t) <= interval(d)
}

# 3. min pause: a pause as long as the interval halves the checkpoint rate.
deny contains sprintf("%s: min-pause %v is not shorter than the interval", [d, p]) if {
	some d, c in flink
	p := c["execution.checkpointing.min-pause"]
	duration_ms(p) >= interval(d)
}

# 4. tolerable failures: with 0 (Flink's default) one failed checkpoint fails the job.
deny contains sprintf("%s: execution.checkpointing.tolerable-failed-checkpoints is not set", [d]) if {
	some d, c in flink
	not c["execution.checkpointing.tolerable-failed-checkpoints"]
}

# 5. directory scan interval: the DataNode scan (default 21600 s) must not run more often than every checkpoint.
deny contains sprintf("%s: dfs.datanode.directoryscan.interval %v s is shorter than the checkpoint interval", [d, s]) if {
	some d, p in hdfs
	s := object.get(p, "dfs.datanode.directoryscan.interval", "21600")
	to_number(s) * 1000 < interval(d)
}

# 6. replication: more replicas than DataNodes can never be placed; fewer than 2 loses checkpoints with one node.
deny contains sprintf("%s: dfs.replication %v does not fit %d DataNodes", [d, r, datanodes]) if {
	some d, p in hdfs
	r := to_number(object.get(p, "dfs.replication", "3"))
	r > datanodes
}

deny contains sprintf("%s: dfs.replication %v is below 2", [d, r]) if {
	some d, p in hdfs
	r := to_number(object.get(p, "dfs.replication", "3"))
	r < 2
}
