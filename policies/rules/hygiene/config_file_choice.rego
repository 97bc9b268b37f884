# METADATA
# title: Flink does not read this configuration file
# description: |
#   Which file Flink reads from its conf directory depends on the version. Up to 1.18 it reads
#   only flink-conf.yaml and fails to start without it. 1.19 and 1.20 read flink-conf.yaml
#   (with the legacy line parser) whenever it exists and ignore config.yaml; only without a
#   flink-conf.yaml do they read config.yaml. 2.0 and later read only config.yaml and fail to
#   start without it, with IllegalConfigurationException "The Flink config file '.../config.yaml'
#   (...) does not exist."; a flink-conf.yaml is only an input for bin/migrate-config-file.sh.
#   When both files are present, every setting of the file this version ignores silently does
#   nothing (a warning at that file). When the only file is one that a declared version does not
#   read, Flink does not start (an error). Keep one file per conf directory, the one your version
#   reads; convert flink-conf.yaml for Flink 2.x with bin/migrate-config-file.sh.
# related_resources:
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/deployment/config/
#     description: Flink 1.19/1.20 read flink-conf.yaml when it exists, else config.yaml
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-2.0/docs/deployment/config/
#     description: Flink 2.0 reads only config.yaml
#   - ref: https://github.com/apache/flink/blob/release-2.0/flink-core/src/main/java/org/apache/flink/configuration/GlobalConfiguration.java
#     description: GlobalConfiguration.loadConfiguration, the missing-file IllegalConfigurationException
#   - ref: https://issues.apache.org/jira/browse/FLINK-33677
#     description: "FLINK-33677: remove flink-conf.yaml support in Flink 2.0"
# custom:
#   id: CKPT603
#   name: config-file-not-read
#   severity: error
#   fixable: false
package ckptlint.rules.hygiene.config_file_choice

import data.ckptlint.lib.hygiene
import data.ckptlint.lib.result

base(path) := parts[count(parts) - 1] if {
	parts := split(path, "/")
}

read_file := input.flink.file

ignored := input.flink.ignored_file

other_choice := "; on Flink 2.x it would be the other way round (config.yaml read, flink-conf.yaml ignored)" if {
	not input.versions.flink.declared
} else := ""

# Both files: 1.19/1.20 read flink-conf.yaml.
deny contains f if {
	ignored.format == "flink-config-yaml"
	hygiene.at_least(1, 19)
	msg := result.msg(
		sprintf("%s reads %s whenever it exists and ignores this %s, so none of its settings take effect.", [hygiene.release, base(read_file), base(ignored.file)]),
		sprintf(
			"%s reads %s whenever it exists (with the legacy line parser) and ignores this %s, so none of its settings take effect%s. Move the settings you need into %s and delete this file, or delete %s to switch to %s",
			[hygiene.version, read_file, base(ignored.file), other_choice, read_file, read_file, base(ignored.file)],
		),
	)
	f := result.warning(ignored, msg)
}

# reads_every_yaml: 0.9 to 1.1 load every *.yaml and *.yml file of the
# conf directory with the line parser (GlobalConfiguration.loadConfiguration,
# release-1.1.5: filterFilesBySuffix(confDirFile, ".yaml", ".yml"), then
# loadYAMLResource on each); 1.2 reads flink-conf.yaml alone and fails
# without it ("The Flink config file ... does not exist.", release-1.2.1).
reads_every_yaml if {
	input.versions.flink.declared
	not hygiene.at_least(1, 2)
}

every_yaml := "reads every .yaml file of its conf directory with its line parser (GlobalConfiguration.loadConfiguration of Flink 0.9 to 1.1), config.yaml included, one after the other in the order the directory lists them"

# Both files on 0.9 to 1.1: both are read.
deny contains f if {
	ignored.format == "flink-config-yaml"
	reads_every_yaml
	msg := result.msg(
		sprintf("%s reads every YAML file of the directory, so a key set in this %s and in %s takes an arbitrary value.", [hygiene.release, base(ignored.file), base(read_file)]),
		sprintf(
			"%s %s: a key set in both this %s and %s takes the value of the file read last, which depends on the directory listing, and this file is read as \"key: value\" lines, not as YAML (nested keys are lost). Move the settings you need into %s and delete this file",
			[hygiene.version, every_yaml, base(ignored.file), base(read_file), read_file],
		),
	)
	f := result.warning(ignored, msg)
}

# Both files: 1.2 to 1.18 read only flink-conf.yaml.
deny contains f if {
	ignored.format == "flink-config-yaml"
	not hygiene.at_least(1, 19)
	not reads_every_yaml
	msg := result.msg(
		sprintf("%s reads only %s, so none of the settings in this %s take effect.", [hygiene.release, base(read_file), base(ignored.file)]),
		sprintf(
			"%s reads only %s; config.yaml is read from Flink 1.19, so none of the settings in this %s take effect%s. Move the settings you need into %s and delete this file",
			[hygiene.version, read_file, base(ignored.file), other_choice, read_file],
		),
	)
	f := result.warning(ignored, msg)
}

# Both files: 2.x reads only config.yaml.
deny contains f if {
	ignored.format == "flink-conf"
	msg := result.msg(
		sprintf("%s reads only %s and ignores this %s, so none of its settings take effect.", [hygiene.release, base(read_file), base(ignored.file)]),
		sprintf(
			"%s reads only %s and ignores this %s (flink-conf.yaml is no longer read from Flink 2.0), so none of its settings take effect. Move the settings you need into %s (bin/migrate-config-file.sh converts a flink-conf.yaml) and delete this file",
			[hygiene.version, read_file, base(ignored.file), read_file],
		),
	)
	f := result.warning(ignored, msg)
}

# Only flink-conf.yaml on a declared 2.x: Flink does not start.
deny contains f if {
	input.flink.format == "flink-conf"
	not ignored
	input.versions.flink.declared
	hygiene.at_least(2, 0)
	msg := result.msg(
		sprintf("%s reads only config.yaml, so without one it fails to start.", [hygiene.release]),
		sprintf(
			"%s reads only config.yaml and does not read %s: without a config.yaml in the conf directory it fails to start with IllegalConfigurationException \"The Flink config file '.../conf/config.yaml' (...) does not exist.\". Convert this file with bin/migrate-config-file.sh (shipped with Flink 2.x) and deploy the config.yaml it writes",
			[hygiene.version, read_file],
		),
	)
	f := result.finding(null, msg)
}

# Only config.yaml on 0.9 to 1.1: read, but with the line parser.
deny contains f if {
	input.flink.format == "flink-config-yaml"
	not ignored
	reads_every_yaml
	msg := result.msg(
		sprintf("%s reads this %s as \"key: value\" lines, not as YAML, so nested keys and YAML quoting are lost.", [hygiene.release, base(read_file)]),
		sprintf(
			"%s %s, so this %s is read as \"key: value\" lines with the flink-conf.yaml parser, not as YAML: nested keys and YAML quoting are not understood (config.yaml as YAML is read from Flink 1.19). Write the settings as flat \"key: value\" lines into flink-conf.yaml",
			[hygiene.version, every_yaml, base(read_file)],
		),
	)
	f := result.warning(null, msg)
}

# Only config.yaml on a declared 1.2 to 1.18: Flink does not start.
deny contains f if {
	input.flink.format == "flink-config-yaml"
	not ignored
	input.versions.flink.declared
	not hygiene.at_least(1, 19)
	not reads_every_yaml
	msg := result.msg(
		sprintf("%s reads only flink-conf.yaml, so without one it fails to start.", [hygiene.release]),
		sprintf(
			"%s reads only flink-conf.yaml and does not read %s (config.yaml is read from Flink 1.19): without a flink-conf.yaml in the conf directory it fails to start with IllegalConfigurationException \"The Flink config file '.../conf/flink-conf.yaml' (...) does not exist.\". Write the settings as flat \"key: value\" lines into flink-conf.yaml, or run Flink 1.19 or later",
			[hygiene.version, read_file],
		),
	)
	f := result.finding(null, msg)
}
