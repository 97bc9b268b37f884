# The same six rules as ../policy.rego for conftest's default mode, one
# input per file (`conftest test DIR`): a Flink file is a flat map of keys,
# a Hadoop file {"configuration": {"property": ...}}. Without --combine a
# rule sees one file, so every rule here reads one file only (the
# directory-scan rule compares with Flink's default interval instead of
# the set's).
package main

import rego.v1

datanodes := 12

props := {p.name: p.value | some p in input.configuration.property} if is_array(input.configuration.property)

props := {input.configuration.property.name: input.configuration.property.value} if is_object(input.configuration.property)

is_flink if endswith(data.conftest.file.name, ".yaml")

hdfs := props if endswith(data.conftest.file.name, "hdfs-site.xml")

duration_units := {
	"": 1, "ms": 1, "milli": 1, "millis": 1, "millisecond": 1, "milliseconds": 1,
	"s": 1000, "sec": 1000, "secs": 1000, "second": 1000, "seconds": 1000,
	"m": 60000, "min": 60000, "minute": 60000, "minutes": 60000,
	"h": 3600000, "hour": 3600000, "hours": 3600000,
	"d": 86400000, "day": 86400000, "days": 86400000,
}

duration_ms(v) := v if is_number(v)

duration_ms(v) := to_number(m[1]) * duration_units[m[2]] if {
	is_string(v)
	m := regex.find_all_string_submatch_n(`^\s*([0-9]+)\s*([a-z]*)\s*$`, lower(v), 1)[0]
}

byte_units := {"": 1, "k": 1024, "m": 1048576, "g": 1073741824, "t": 1099511627776}

bytes(v) := to_number(m[1]) * byte_units[m[2]] if {
	m := regex.find_all_string_submatch_n(`^\s*([0-9]+)\s*([kmgt]?)\s*$`, lower(v), 1)[0]
}

interval := duration_ms(input["execution.checkpointing.interval"]) if is_flink

deny contains sprintf("dfs.blocksize %s is below 1 MiB", [v]) if {
	v := hdfs["dfs.blocksize"]
	bytes(v) < 1048576
}

deny contains sprintf("checkpoint timeout %v is not longer than the interval", [t]) if {
	t := input["execution.checkpointing.timeout"]
	duration_ms(t) <= interval
}

deny contains sprintf("min-pause %v is not shorter than the interval", [p]) if {
	p := input["execution.checkpointing.min-pause"]
	duration_ms(p) >= interval
}

deny contains "execution.checkpointing.tolerable-failed-checkpoints is not set" if {
	is_flink
	not input["execution.checkpointing.tolerable-failed-checkpoints"]
}

deny contains sprintf("dfs.datanode.directoryscan.interval %v s is shorter than 3 minutes", [s]) if {
	s := object.get(hdfs, "dfs.datanode.directoryscan.interval", "21600")
	to_number(s) < 180
}

deny contains sprintf("dfs.replication %v does not fit %d DataNodes", [r, datanodes]) if {
	r := to_number(object.get(hdfs, "dfs.replication", "3"))
	r > datanodes
}

deny contains sprintf("dfs.replication %v is below 2", [r]) if {
	r := to_number(object.get(hdfs, "dfs.replication", "3"))
	r < 2
}
