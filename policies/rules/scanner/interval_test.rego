package ckptlint.rules.scanner.interval_test

import data.ckptlint.rules.scanner.interval

written(raw, value) := {"effective": {"hdfs_cluster": {"directoryscan_interval": {
	"value": value, "raw": raw, "set": true, "source": "file",
	"loc": {"file": "hdfs-site.xml", "line": 4},
}}}}

unreadable(raw, err) := json.patch(written(raw, 21600000), [{"op": "add", "path": "/effective/hdfs_cluster/directoryscan_interval/error", "value": err}])

test_inner_space_is_an_error if {
	some f in interval.deny with input as unreadable("6 h", "For input string: \"6 \"; Hadoop does not allow a space before the unit suffix: write \"6h\"")
	not f.severity
	contains(f.detail, "\"6 h\" (hdfs-site.xml:4) is not a Hadoop time duration")
	contains(f.detail, "write \"6h\"")
	contains(f.detail, "NumberFormatException")
	f.loc.line == 4
}

test_min_suffix_and_decimals_are_errors if {
	some f in interval.deny with input as unreadable("10min", "For input string: \"10min\"")
	not f.severity
	some g in interval.deny with input as unreadable("1.5h", "For input string: \"1.5\"")
	not g.severity
}

test_zero_warns if {
	some f in interval.deny with input as written("0", 0)
	f.severity == "warning"
	contains(f.detail, "ThreadLocalRandom.nextLong(0)")
	not contains(f.detail, "truncates")
}

test_sub_second_warns_as_truncated if {
	some f in interval.deny with input as written("500ms", 0)
	f.severity == "warning"
	contains(f.detail, "truncates it to whole seconds")
}

test_negative_is_info if {
	some f in interval.deny with input as written("-1", -1000)
	f.severity == "info"
	contains(f.detail, "disables the DataNode DirectoryScanner")
}

test_valid_intervals_are_silent if {
	count(interval.deny) == 0 with input as written("21600", 21600000)
	count(interval.deny) == 0 with input as written("6h", 21600000)
	count(interval.deny) == 0 with input as written("21600s", 21600000)
}

test_default_is_silent if {
	count(interval.deny) == 0 with input as {"effective": {"hdfs_cluster": {"directoryscan_interval": {"value": 21600000, "set": false, "source": "default"}}}}
}
