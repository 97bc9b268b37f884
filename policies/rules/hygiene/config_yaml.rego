# METADATA
# title: config.yaml is read as YAML 1.2 and this value does not mean what it looks like
# description: |
#   Flink 1.19 and later read config.yaml with a standard YAML 1.2 parser, which differs from
#   YAML 1.1 habits and from the old flink-conf.yaml. yes, no,
#   on, off, y and n are strings, not booleans, and Flink's boolean options accept only true or
#   false: a boolean option written "incremental: yes" makes Flink fail with "Unrecognized option
#   for boolean: yes. Expected either true or false(case insensitive)". A key with no value (key:,
#   key: ~, key: null) is a null, which Flink's loader hands to Configuration.setValueInternal;
#   it throws "Value must not be null." and Flink stops with "Error parsing YAML configuration.".
#   A flat key and a nested path that flatten to the same key (a.b: 1 and a: {b: 2}) are not a YAML
#   error: Flink silently keeps the later one (this also applies to a FlinkDeployment's
#   flinkConfiguration). env.java.home must be written flat, because the start
#   scripts read it from the raw file with sed. Booleans of known boolean options and null values
#   are errors, the rest warnings. Write true or false, give every key a value or delete it, and set
#   each key once.
# related_resources:
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/deployment/config/
#     description: Flink configuration file, the standard YAML syntax of config.yaml and its differences
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-core/src/test/java/org/apache/flink/configuration/YamlParserUtilsTest.java
#     description: testYaml12Features, Yes/y/on stay strings under YAML 1.2
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-core/src/main/java/org/apache/flink/configuration/ConfigurationUtils.java
#     description: convertToBoolean, "Unrecognized option for boolean"
#   - ref: https://github.com/apache/flink/blob/release-2.0/flink-core/src/main/java/org/apache/flink/configuration/GlobalConfiguration.java
#     description: loadYAMLResource, flatten and setValueInternal of every value
# custom:
#   id: CKPT602
#   name: config-yaml-pitfall
#   severity: error
#   fixable: false
package ckptlint.rules.hygiene.config_yaml

import data.ckptlint.lib.hygiene
import data.ckptlint.lib.result

# The YAML notices, where Flink reads the file as YAML 1.2: a config.yaml on
# a release that reads config.yaml (1.19 on, FLINK-33364; an older declared
# release reads flink-conf.yaml, and CKPT603 reports the file it ignores),
# and the other YAML formats (FlinkDeployment manifests).
notices := [n | some n in input.flink.notices; startswith(n.code, "yaml-")] if {
	not ignored_config_yaml
} else := []

ignored_config_yaml if {
	input.flink.format == "flink-config-yaml"
	input.versions.flink.declared
	not hygiene.at_least(1, 19)
}

# Boolean options of the checkpoint and state catalogue (Flink 1.20 CheckpointingOptions.java and the other *Options classes).
boolean_keys := {
	"execution.checkpointing.unaligned.enabled",
	"execution.checkpointing.unaligned",
	"execution.checkpointing.unaligned.forced",
	"execution.checkpointing.incremental",
	"state.backend.incremental",
	"execution.checkpointing.create-subdir",
	"state.checkpoints.create-subdir",
	"execution.checkpointing.file-merging.enabled",
	"execution.checkpointing.file-merging.across-checkpoint-boundary",
	"execution.checkpointing.file-merging.pool-blocking",
	"execution.state-recovery.from-local",
	"execution.checkpointing.local-backup.enabled",
	"state.backend.local-recovery",
}

known_boolean(key) if key in boolean_keys

known_boolean(key) if {
	some sec, name
	not sec in hygiene.hadoop_sections
	v := input.effective[sec][name]
	v.key == key
	is_boolean(v.value)
}

# word is the yes/no/on/off text of a notice's key.
word(n) := w if {
	w := input.flink.keys[n.key].value
	lower(w) in object.keys(hygiene.bool_word)
} else := m[0][1] if {
	m := regex.find_all_string_submatch_n(`^"([^"]*)"`, n.message, 1)
	count(m) == 1
}

refusal(w) := sprintf("\"Unrecognized option for boolean: %s. Expected either true or false(case insensitive)\"", [w])

deny contains f if {
	some n in notices
	n.code == "yaml-bool-like-string"
	known_boolean(n.key)
	not input.flink.unread[n.key] # a key the release does not read is never parsed (CKPT604)
	w := word(n)
	b := hygiene.bool_word[lower(w)]
	msg := result.msg(
		sprintf("%s is %s, which config.yaml reads as a string, so Flink fails to read this boolean option.", [n.key, w]),
		sprintf(
			"%s is %s, which YAML 1.2 (the syntax of Flink's config.yaml) reads as a string, not a boolean; %s is a boolean option and Flink accepts only true or false, so it fails with %s when it reads the option. Write %s: %s",
			[n.key, w, n.key, refusal(w), n.key, b],
		),
	)
	f := result.fix(n, msg, [result.set("flink", n.key, b)])
}

deny contains f if {
	some n in notices
	n.code == "yaml-bool-like-string"
	not known_boolean(n.key)
	w := word(n)
	msg := result.msg(
		sprintf("%s is %s, which config.yaml reads as a string, not a boolean, so a boolean option fails to read it.", [n.key, w]),
		sprintf(
			"%s is %s, which YAML 1.2 (the syntax of Flink's config.yaml) reads as a string, not a boolean: if %s is a boolean option, Flink fails with %s when it reads it, so write true or false; if it is a text option, quote the value ('%s') to say so",
			[n.key, w, n.key, refusal(w), w],
		),
	)
	f := result.warning(n, msg)
}

deny contains f if {
	some n in notices
	n.code == "yaml-null-value"
	msg := result.msg(
		sprintf("%s has no value (YAML null), so Flink fails to start.", [n.key]),
		sprintf(
			"%s has no value (YAML null): Flink's config.yaml loader passes every flattened value to Configuration.setValueInternal, which throws NullPointerException \"Value must not be null.\", so Flink fails to start with \"Error parsing YAML configuration.\"; delete the key or give it a value",
			[n.key],
		),
	)
	f := result.fix(n, msg, [result.delete("flink", n.key)])
}

deny contains f if {
	some n in notices
	n.code == "yaml-flat-nested-overlap"
	msg := result.msg(
		sprintf("%s is set both as a flat key and as a nested path, so the earlier one silently does nothing.", [n.key]),
		sprintf(
			"%s (%s); the earlier one silently does nothing, because a flat key and a nested path that name the same option are not a YAML duplicate and raise no error. Keep one of them",
			[n.message, current(n.key)],
		),
	)
	f := result.warning(n, msg)
}

current(key) := sprintf("%s", [input.flink.keys[key].value]) if {
	is_string(input.flink.keys[key].value)
} else := "the later value"

deny contains f if {
	some n in notices
	n.code == "yaml-env-java-home-nested"
	msg := result.msg(
		"env.java.home written nested is not found, so the scripts use another Java.",
		sprintf(
			"%s; written nested, it is not found and the scripts use JAVA_HOME or the java on the PATH instead",
			[n.message],
		),
	)
	f := result.warning(n, msg)
}
