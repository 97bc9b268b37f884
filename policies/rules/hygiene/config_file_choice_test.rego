package ckptlint.rules.hygiene.config_file_choice_test

import data.ckptlint.rules.hygiene.config_file_choice

version(v, major, minor, declared) := {"flink": {"value": v, "major": major, "minor": minor, "declared": declared, "source": source(declared)}}

source(true) := "config"

source(false) := "assumed"

both(v, major, minor, declared, read, ignored_format) := {
	"versions": version(v, major, minor, declared),
	"flink": {
		"file": read, "format": "x",
		"ignored_file": {"file": sprintf("conf/%s", [file_of(ignored_format)]), "format": ignored_format, "loc": {"file": sprintf("conf/%s", [file_of(ignored_format)]), "line": 1, "col": 1}},
	},
}

file_of("flink-conf") := "flink-conf.yaml"

file_of("flink-config-yaml") := "config.yaml"

test_config_yaml_ignored_on_1_20 if {
	some f in config_file_choice.deny with input as both("1.20", 1, 20, true, "conf/flink-conf.yaml", "flink-config-yaml")
	f.severity == "warning"
	f.loc.file == "conf/config.yaml"
	contains(f.detail, "Flink 1.20 reads conf/flink-conf.yaml whenever it exists")
}

test_assumed_version_says_so if {
	some f in config_file_choice.deny with input as both("1.18", 1, 18, false, "conf/flink-conf.yaml", "flink-config-yaml")
	f.severity == "warning"
	contains(f.detail, "assumed")
	contains(f.detail, "on Flink 2.x it would be the other way round")
}

test_flink_conf_ignored_on_2_0 if {
	some f in config_file_choice.deny with input as both("2.0", 2, 0, true, "conf/config.yaml", "flink-conf")
	f.loc.file == "conf/flink-conf.yaml"
	contains(f.detail, "migrate-config-file.sh")
}

only(format, v, major, minor, declared) := {
	"versions": version(v, major, minor, declared),
	"flink": {"file": "conf/x", "format": format},
}

test_flink_conf_alone_on_declared_2_0_is_an_error if {
	some f in config_file_choice.deny with input as only("flink-conf", "2.0", 2, 0, true)
	not f.severity
	contains(f.detail, "The Flink config file '.../conf/config.yaml' (...) does not exist.")
}

test_config_yaml_alone_on_declared_1_17_is_an_error if {
	some f in config_file_choice.deny with input as only("flink-config-yaml", "1.17", 1, 17, true)
	contains(f.detail, "The Flink config file '.../conf/flink-conf.yaml' (...) does not exist.")
}

test_single_file_read_by_its_version_is_silent if {
	count(config_file_choice.deny) == 0 with input as only("flink-conf", "1.20", 1, 20, true)
	count(config_file_choice.deny) == 0 with input as only("flink-config-yaml", "2.0", 2, 0, true)
	count(config_file_choice.deny) == 0 with input as only("flink-conf", "1.18", 1, 18, false)
}

# Issue 23: Flink 0.9 to 1.1 read every .yaml file of the conf directory
# (GlobalConfiguration.loadConfiguration, release-1.1.5): a lone config.yaml
# is read with the line parser, no start failure; 1.2 is the oldest release
# that needs flink-conf.yaml.
lone_config_yaml(minor) := {
	"versions": {"flink": {"major": 1, "minor": minor, "declared": true, "source": "config", "text": sprintf("Flink 1.%d (flink_version in .ckptlint.hcl)", [minor])}},
	"flink": {"file": "conf/config.yaml", "format": "flink-config-yaml"},
}

test_oldest_releases_read_every_yaml if {
	some f in config_file_choice.deny with input as lone_config_yaml(1)
	f.severity == "warning"
	contains(f.detail, "reads every .yaml file of its conf directory")
	not contains(f.detail, "does not exist")
	some g in config_file_choice.deny with input as lone_config_yaml(2)
	contains(g.detail, "does not exist")
}
