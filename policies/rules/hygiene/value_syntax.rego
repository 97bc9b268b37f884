# METADATA
# title: Flink cannot parse this value for its option type
# description: |
#   Flink stores configuration values as text (or YAML scalars) and converts them only when an
#   option is read; a value it cannot convert throws IllegalArgumentException "Could not parse value
#   '...' for key '...'." and the cluster or the job fails to start. The syntax is strict: a boolean
#   is only true or false (any case), so yes, on or 1 are refused with "Unrecognized option for
#   boolean"; an integer goes through Integer.parseInt, so " 5", 1_000, 2.5 or 10k are refused; a
#   memory size is whole digits and one of the units b, k/kb, m/mb, g/gb, t/tb (powers of 1024), with
#   no p or e unit and no fraction ("1.5m" must be written 1536k); an enum must be one of its
#   constants, in any letter case (EXACTLY_ONCE, not exactly-once). Duration values are checked by
#   CKPT207, and values broken by quotes or a YAML yes/no by CKPT601 and CKPT602. Write the value in
#   the option's syntax; where the intended value is unambiguous the finding carries it.
# related_resources:
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-core/src/main/java/org/apache/flink/configuration/ConfigurationUtils.java
#     description: convertToBoolean, convertToInt and convertToEnum
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-core-api/src/main/java/org/apache/flink/configuration/MemorySize.java
#     description: MemorySize.parseBytes and its units
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-core/src/main/java/org/apache/flink/configuration/Configuration.java
#     description: Configuration.getOptional, "Could not parse value ... for key ..."
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/deployment/config/
#     description: Flink configuration, value types and their syntax
# custom:
#   id: CKPT606
#   name: flink-value-rejected
#   severity: error
#   fixable: false
package ckptlint.rules.hygiene.value_syntax

import data.ckptlint.lib.hygiene
import data.ckptlint.lib.result

# Duration fields belong to CKPT207.
durations := {
	["checkpointing", "interval"],
	["checkpointing", "timeout"],
	["checkpointing", "min_pause"],
	["checkpointing", "aligned_checkpoint_timeout"],
}

# The notices whose rules already report the value on that line.
owned_codes := {"legacy-quoted-value", "legacy-comment-cut", "yaml-bool-like-string", "yaml-null-value"}

owned(v) if {
	some n in input.flink.notices
	n.code in owned_codes
	n.loc.file == v.loc.file
	n.loc.line == v.loc.line
}

deny contains f if {
	some sec, name
	not sec in hygiene.hadoop_sections
	not [sec, name] in durations
	v := input.effective[sec][name]
	v.error
	not v.lenient
	v.loc
	not owned(v)
	msg := result.msg(
		sprintf("%s %q is a value Flink cannot parse, so the cluster or job using it fails to start.", [v.key, result.short(trim_space(v.raw))]),
		sprintf(
			"%s is %q, which Flink cannot parse: when it reads the option it throws IllegalArgumentException \"Could not parse value '%s' for key '%s'.\" Caused by: %s. The cluster or job using it fails to start (ckptlint goes on with %s)%s",
			[v.key, v.raw, v.raw, v.key, trim_suffix(v.error, "."), fallback(v), suggestion(v)],
		),
	)
	f := hygiene.emit(v, msg, fix_ops(v), "error")
}

# Before 1.10 (typed options, FLIP-77) Flink reads such a value leniently
# and goes on: a boolean that is not "true" is false, an unreadable number
# the default with a WARN (release-1.9.3 Configuration.convertToBoolean,
# convertToInt). The setting then silently does something else.
deny contains f if {
	some sec, name
	not sec in hygiene.hadoop_sections
	not [sec, name] in durations
	v := input.effective[sec][name]
	v.error
	v.lenient
	v.loc
	not owned(v)
	msg := result.msg(
		sprintf("%s %q is read leniently by %s, so it runs with %s and no error.", [v.key, result.short(trim_space(v.raw)), hygiene.release, result.short(lenient_value(v))]),
		sprintf(
			"%s is %q, which %s does not parse as written: it reads the value leniently, %s, so it runs with %s and no error%s",
			[v.key, v.raw, hygiene.version, v.error, lenient_value(v), suggestion(v)],
		),
	)
	f := hygiene.emit(v, msg, fix_ops(v), "error")
}

lenient_value(v) := sprintf("%s", [v.display]) if v.display != ""

else := "no value"

fallback(v) := sprintf("the default %s", [v.display]) if {
	v.display != ""
} else := "no value"

suggestion(v) := sprintf(". Write %s: %s", [v.key, s]) if {
	s := fixed(v)
} else := ""

fix_ops(v) := [result.set("flink", v.key, s)] if {
	s := fixed(v)
} else := []

# fixed(v) is the value meant, when it is unambiguous.
fixed(v) := hygiene.bool_word[lower(trim_space(v.raw))] if {
	is_boolean(v.value)
} else := s if {
	is_number(v.value)
	s := replace(trim_space(v.raw), "_", "")
	regex.match(`^[0-9]+$`, s)
} else := s if {
	# The memory parser proposes the exact integer spelling ("1.5m" -> "1536k").
	s := hygiene.suggested(v.error)
	regex.match(`^[0-9]+ ?[a-z]*$`, s)
} else := s if {
	is_string(v.value)
	m := regex.find_all_string_submatch_n(`is not one of (.*)$`, v.error, 1)
	count(m) == 1
	allowed := split(m[0][1], ", ")
	s := upper(replace(replace(trim_space(v.raw), "-", "_"), " ", "_"))
	s in allowed
}
