package ckptlint.rules.hygiene.legacy_parser_test

import data.ckptlint.rules.hygiene.legacy_parser

loc(line, col) := {"file": "flink-conf.yaml", "line": line, "col": col}

base := {
	"versions": {"flink": {"value": "1.18", "major": 1, "minor": 18, "declared": false, "source": "assumed"}},
	"flink": {"file": "flink-conf.yaml", "format": "flink-conf", "keys": {}, "notices": []},
	"effective": {"checkpointing": {
		"interval": {"key": "execution.checkpointing.interval", "set": false, "source": "unset", "value": null},
		"timeout": {"key": "execution.checkpointing.timeout", "set": false, "source": "default", "value": 600000, "display": "10 min"},
	}},
}

# execution:\n  checkpointing:\n    interval: 10 s
nested := json.patch(base, [{"op": "replace", "path": "/flink/notices", "value": [
	{"code": "legacy-nested-yaml", "key": "execution", "loc": loc(1, 1), "message": "Flink's legacy flink-conf.yaml parser does not read nested YAML: it skips \"execution:\" and reads the indented keys below it as top-level keys; write each key in full on one line (\"execution.<key>: <value>\")"},
	{"code": "legacy-nested-yaml", "key": "execution.checkpointing", "loc": loc(2, 3), "message": "Flink's legacy flink-conf.yaml parser does not read nested YAML: it skips \"checkpointing:\" and reads the indented keys below it as top-level keys; write each key in full on one line (\"execution.checkpointing.<key>: <value>\")"},
	{"code": "legacy-nested-yaml", "key": "execution.checkpointing.interval", "loc": loc(3, 5), "message": "Flink reads this as the top-level key \"interval\", not \"execution.checkpointing.interval\": the legacy flink-conf.yaml parser does not read nested YAML; write \"execution.checkpointing.interval: 10 s\""},
]}])

test_nested_interval_is_an_error_with_the_flat_key_as_fix if {
	findings := legacy_parser.deny with input as nested
	count(findings) == 1
	some f in findings
	f.severity == "error"
	f.loc.line == 3
	contains(f.detail, "checkpointing stays off")
	contains(f.detail, "top-level key \"interval\"")
	f.fix == [{"op": "set", "target": "flink", "key": "execution.checkpointing.interval", "value": "10 s"}]
}

test_nested_timeout_names_the_default if {
	inp := json.patch(nested, [{"op": "replace", "path": "/flink/notices/2", "value": {
		"code": "legacy-nested-yaml", "key": "execution.checkpointing.timeout", "loc": loc(3, 5),
		"message": "Flink reads this as the top-level key \"timeout\", not \"execution.checkpointing.timeout\": the legacy flink-conf.yaml parser does not read nested YAML; write \"execution.checkpointing.timeout: 5 min\"",
	}}])
	some f in legacy_parser.deny with input as inp
	contains(f.detail, "Flink uses the default 10 min instead")
}

# env.java.opts:\n  - -Xmx1g\n  - -Xms1g
block_list := json.patch(base, [{"op": "replace", "path": "/flink/notices", "value": [
	{"code": "legacy-nested-yaml", "key": "env.java.opts", "loc": loc(1, 1), "message": "Flink's legacy flink-conf.yaml parser does not read nested YAML: it skips \"env.java.opts:\" and reads the indented keys below it as top-level keys; write each key in full on one line (\"env.java.opts.<key>: <value>\")"},
	{"code": "legacy-no-separator", "key": "", "loc": loc(2, 3), "message": "Flink skips this line: it has no \": \" between a key and a value"},
	{"code": "legacy-no-separator", "key": "", "loc": loc(3, 3), "message": "Flink skips this line: it has no \": \" between a key and a value"},
	{"code": "legacy-no-separator", "key": "", "loc": loc(5, 1), "message": "Flink skips this line: it has no \": \" between a key and a value"},
]}])

test_block_list_is_one_warning_at_its_header_and_later_lines_still_count if {
	findings := legacy_parser.deny with input as block_list
	count(findings) == 2
	some f in findings
	f.loc.line == 1
	f.severity == "warning"
	contains(f.detail, "\"env.java.opts\" is not set")
	some g in findings
	g.loc.line == 5
}

missing_space(key, value) := json.patch(base, [{"op": "replace", "path": "/flink/notices", "value": [{
	"code": "legacy-missing-space", "key": key, "loc": loc(1, 1),
	"message": sprintf("Flink skips this line, so %q is not set: the legacy parser needs \": \" (a colon and a space) between key and value; write %q", [key, sprintf("%s: %s", [key, value])]),
}]}])

test_missing_space_on_a_state_key_is_an_error_with_fix if {
	some f in legacy_parser.deny with input as missing_space("state.backend", "rocksdb")
	f.severity == "error"
	contains(f.detail, "missing space after ':'?")
	f.fix == [{"op": "set", "target": "flink", "key": "state.backend", "value": "rocksdb"}]
}

test_missing_space_on_other_keys_is_a_warning if {
	some f in legacy_parser.deny with input as missing_space("web.port", "8081")
	f.severity == "warning"
}

test_no_fix_when_the_key_is_not_a_flink_key if {
	some f in legacy_parser.deny with input as missing_space("hdfs", "//nn/x")
	not f.fix
}

test_quoted_value_is_unquoted if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/flink/keys", "value": {"state.checkpoints.dir": {"value": "\"hdfs://nn/ckpt\"", "loc": loc(4, 1)}}},
		{"op": "replace", "path": "/flink/notices", "value": [{
			"code": "legacy-quoted-value", "key": "state.checkpoints.dir", "loc": loc(4, 24),
			"message": "Flink's legacy parser keeps quotes: \"state.checkpoints.dir\" is set to \"hdfs://nn/ckpt\", quotes included; remove them",
		}]},
	])
	some f in legacy_parser.deny with input as inp
	f.severity == "error"
	f.fix == [{"op": "set", "target": "flink", "key": "state.checkpoints.dir", "value": "hdfs://nn/ckpt"}]
}

test_clean_file_is_silent if {
	count(legacy_parser.deny) == 0 with input as base
}

test_lost_line_of_a_key_set_elsewhere_is_a_warning_without_fix if {
	inp := json.patch(missing_space("execution.checkpointing.interval", "10 s"), [{"op": "replace", "path": "/effective/checkpointing/interval", "value": {
		"key": "execution.checkpointing.interval", "set": true, "source": "file", "value": 60000, "display": "1 min", "loc": loc(9, 1),
	}}])
	some f in legacy_parser.deny with input as inp
	f.severity == "warning"
	contains(f.detail, "Flink uses 1 min from flink-conf.yaml:9 instead")
	not f.fix
}

java_opts(major, minor) := json.patch(base, [
	{"op": "replace", "path": "/versions/flink", "value": {"value": sprintf("%d.%d", [major, minor]), "major": major, "minor": minor, "declared": true, "source": "image"}},
	{"op": "replace", "path": "/flink/keys", "value": {"env.java.opts": {"value": "\"-XX:+UseG1GC -Dx=1\"", "loc": loc(2, 1)}}},
	{"op": "replace", "path": "/flink/notices", "value": [{
		"code": "legacy-quoted-value", "key": "env.java.opts", "loc": loc(2, 16),
		"message": "Flink's legacy parser keeps quotes: \"env.java.opts\" is set to \"-XX:+UseG1GC -Dx=1\", quotes included; remove them",
	}]},
])

# Up to 1.18 bin/config.sh strips the quotes: the message says so, info.
test_java_opts_quotes_up_to_1_18_are_stripped_by_the_scripts if {
	fs := legacy_parser.deny with input as java_opts(1, 18)
	count(fs) == 1
	some f in fs
	f.severity == "info"
	f.version_dependent
	contains(f.detail, "bin/config.sh of Flink 1.18 and older removes one pair of surrounding double quotes")
	not contains(f.detail, "keeps quotes")
	f.fix == [{"op": "set", "target": "flink", "key": "env.java.opts", "value": "-XX:+UseG1GC -Dx=1", "needs_version": true}]
}

# From 1.19 (FLINK-33221) the leading quote reaches the JVM: a warning.
test_java_opts_quotes_from_1_19_reach_the_jvm if {
	some f in legacy_parser.deny with input as java_opts(1, 19)
	f.severity == "warning"
	contains(f.detail, "FLINK-33221")
}

# Issue 23: what the rule claims per release. 0.9, the oldest release the key
# tables cover: the key exists from 1.10, so losing the line changes
# nothing and no fix writes a key 0.9 does not read; and GlobalConfiguration
# logs the line's text, not "Line is not a key-value pair" (FLINK-24679, 1.17).
on_release(major, minor, unread) := json.patch(nested, [
	{"op": "replace", "path": "/versions/flink", "value": {"value": sprintf("%d.%d", [major, minor]), "major": major, "minor": minor, "declared": true, "source": "config"}},
	{"op": "add", "path": "/flink/unread", "value": unread},
])

no_space := json.patch(base, [{"op": "replace", "path": "/flink/notices", "value": [{"code": "legacy-missing-space", "key": "execution.checkpointing.interval", "loc": loc(1, 1), "message": "x; write \"execution.checkpointing.interval: 10 s\""}]}])

test_oldest_release_unread_key_no_fix if {
	inp := on_release(0, 9, {"execution.checkpointing.interval": "Flink 0.9 does not read execution.checkpointing.interval (it exists from Flink 1.10)"})
	some f in legacy_parser.deny with input as inp
	f.severity == "warning"
	contains(f.detail, "that changes nothing on this release, though: Flink 0.9 does not read execution.checkpointing.interval")
	not contains(f.detail, "To set it")
	not f.fix
}

test_warn_text_per_release if {
	old := json.patch(no_space, [{"op": "replace", "path": "/versions/flink", "value": {"major": 1, "minor": 16, "declared": true, "source": "config"}}])
	some f in legacy_parser.deny with input as old
	not contains(f.detail, "Line is not a key-value pair")
	contains(f.detail, "Error while trying to split key and value in configuration file")
	new := json.patch(no_space, [{"op": "replace", "path": "/versions/flink", "value": {"major": 1, "minor": 20, "declared": true, "source": "config"}}])
	some g in legacy_parser.deny with input as new
	contains(g.detail, "Line is not a key-value pair (missing space after ':'?)")
}

# The newest release that reads flink-conf.yaml is 1.20; a declared 2.x
# reads only config.yaml (CKPT603), so the legacy parser's notices say nothing.
test_newest_release_reading_flink_conf if {
	some f in legacy_parser.deny with input as on_release(1, 20, {})
	f.severity == "error"
	count(legacy_parser.deny) == 0 with input as on_release(2, 0, {})
}
