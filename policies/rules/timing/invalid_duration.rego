# METADATA
# title: Checkpoint duration that Flink cannot read on this version
# description: |
#   Flink reads the checkpoint durations (interval, timeout, min-pause, aligned checkpoint
#   timeout) with TimeUtils.parseDuration: digits, then an optional unit out of d, h, min, s,
#   ms, micros, ns and their long forms. It refuses anything else when it reads the option
#   ("Could not parse value '...' for key '...'."), so the job does not start: "mins",
#   "us", ISO-8601 ("PT10M"), fractions ("1.5 min"). The unit "m" is read as minutes only
#   from Flink 1.15; on an older declared version it is an error, and when the version is not
#   known (a lower bound from the files) it is reported as info and names the release the files were read with.
#   Where the intended value is certain ("m", a unit Flink spells differently, a fraction with
#   an exact integer form) the finding carries the fix. A value broken by the way the file is
#   parsed (quotes kept by flink-conf.yaml's line parser, a "#" that cuts it, a YAML null) is
#   reported once, by CKPT601 or CKPT602.
# related_resources:
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-core/src/main/java/org/apache/flink/util/TimeUtils.java
#     description: parseDuration and the unit labels Flink accepts
#   - ref: https://issues.apache.org/jira/browse/FLINK-24886
#     description: "FLINK-24886: \"m\" accepted as minutes from Flink 1.15"
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-core/src/main/java/org/apache/flink/configuration/Configuration.java
#     description: "getOptional: \"Could not parse value '%s' for key '%s'.\""
# custom:
#   id: CKPT207
#   name: invalid-checkpoint-duration
#   severity: error
#   fixable: false
package ckptlint.rules.timing.invalid_duration

import data.ckptlint.lib.result

durations := ["interval", "timeout", "min_pause", "aligned_checkpoint_timeout"]

version := input.versions.flink

# version_text names the version with its source (docs/versions.md).
version_text := version.text if {
	is_string(version.text)
} else := sprintf("Flink %s, the declared version", [version.value])

# version_dependent is the one error a newer Flink would not raise: the unit
# "m", read as minutes only from Flink 1.15 (FLINK-24886).
version_dependent(v) if startswith(v.error, `"m" means minutes only from Flink 1.15`)

_number(raw) := regex.find_n(`[0-9]+`, trim_space(raw), 1)[0] if {
	regex.match(`^\s*[0-9]+`, raw)
}

# owned: the parser's notice on the same line already explains the value (a
# quote kept by flink-conf.yaml's line parser, a cut comment, a YAML null or
# yes/no); CKPT601/CKPT602 report it, as CKPT606 leaves them too.
owned_codes := {"legacy-quoted-value", "legacy-comment-cut", "yaml-bool-like-string", "yaml-null-value"}

owned(v) if {
	some n in input.flink.notices
	n.code in owned_codes
	n.loc.file == v.loc.file
	n.loc.line == v.loc.line
}

# canonical is the spelling Flink reads, when the intended value is certain.
canonical(v) := sprintf("%s min", [_number(v.raw)]) if {
	regex.match(`^\s*[0-9]+\s*[mM]\s*$`, v.raw)
} else := sprintf("%s %s", [_number(v.raw), unit]) if {
	m := regex.find_all_string_submatch_n(`does not accept "[^"]*"; use (?:"[^"]*" or )?"([^"]+)"`, v.error, 1)
	count(m) == 1
	unit := m[0][1]
} else := spelled if {
	m := regex.find_all_string_submatch_n(`; write "([^"]+)"$`, v.error, 1)
	count(m) == 1
	spelled := m[0][1]
}

fix_advice(v) := sprintf(" Write \"%s\".", [canonical(v)]) if canonical(v)

fix_advice(v) := " Write the value as digits and a unit such as \"10 min\" or \"30 s\"." if not canonical(v)

# refusal quotes Flink's wrapper as Configuration.get prints it, then the
# inner cause (TimeUtils.parseDuration's message).
refusal(v) := sprintf("Flink refuses it when it reads the option, so the job does not start: \"Could not parse value '%s' for key '%s'.\" Caused by: %s.", [v.raw, v.key, trim_suffix(v.error, ".")])

message(v, reason, short_reason) := result.msg(
	sprintf("%s %q %s, so the job does not start.", [v.key, result.short(trim_space(v.raw)), short_reason]),
	sprintf("%s: %s (%s:%d) %s. %s%s", [v.key, v.raw, v.loc.file, v.loc.line, reason, refusal(v), fix_advice(v)]),
)

finding(v, msg) := result.fix(v, msg, [result.set("flink", v.key, canonical(v))]) if {
	canonical(v)
} else := result.finding(v, msg)

deny contains f if {
	some d in durations
	v := input.effective.checkpointing[d]
	v.set
	v.error
	not owned(v)
	not version_dependent(v)
	f := finding(v, message(v, "is not a duration Flink can read", "is not a duration Flink can read"))
}

deny contains f if {
	some d in durations
	v := input.effective.checkpointing[d]
	v.set
	v.error
	not owned(v)
	version_dependent(v)
	version.declared
	f := finding(v, message(v, sprintf("cannot be read by %s", [version_text]), sprintf("cannot be read by Flink %s", [version.value])))
}

deny contains f if {
	some d in durations
	v := input.effective.checkpointing[d]
	v.set
	v.error
	not owned(v)
	version_dependent(v)
	not version.declared
	f := result.versioned(object.union(
		finding(v, result.msg(
			sprintf(
				"%s %q uses the unit \"m\", which Flink 1.14 and older refuse, and the Flink version is not known.",
				[v.key, result.short(trim_space(v.raw))],
			),
			sprintf(
				"%s: %s (%s:%d) uses the unit \"m\", which Flink reads as minutes only from 1.15, and the Flink version is not known; ckptlint read the files as Flink %s (%s). On Flink 1.14 or older, %s Write \"%s\", which every version reads.",
				[v.key, v.raw, v.loc.file, v.loc.line, version.value, version.why, refusal(v), canonical(v)],
			),
		)),
		{"severity": "warning"},
	))
}
