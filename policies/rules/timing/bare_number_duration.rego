# METADATA
# title: Checkpoint duration written without a unit is read as milliseconds
# description: |
#   Flink reads a duration without a unit as milliseconds (TimeUtils.parseDuration), so
#   execution.checkpointing.timeout: 600 is a 600 ms timeout, not 10 minutes. The rule
#   warns when a bare number gives an implausibly small value for the key: an interval or a
#   timeout below 1 s (checkpoints triggered more than once a second, or expiring after less
#   than a second of writing to HDFS), or a min-pause below 100 ms (no real pause). It names
#   the seconds reading ("did you mean 600 s?"). Writing the unit fixes it, and only the user
#   knows which unit was meant, so there is no automatic fix.
# related_resources:
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-core/src/main/java/org/apache/flink/util/TimeUtils.java
#     description: parseDuration, a missing unit means milliseconds
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/deployment/config/
#     description: the Duration syntax of Flink configuration values
# custom:
#   id: CKPT206
#   name: duration-without-unit
#   severity: warning
#   fixable: false
package ckptlint.rules.timing.bare_number_duration

import data.ckptlint.lib.result
import data.ckptlint.lib.timing
import data.ckptlint.lib.units

# limits: below these a bare number is implausible for the key (ms).
checks := [
	{"field": "interval", "below": 1000, "effect": "Flink would trigger a checkpoint every %s"},
	{"field": "timeout", "below": 1000, "effect": "every checkpoint that takes longer than %s to write expires and its chk-N directory is deleted"},
	{"field": "min_pause", "below": 100, "effect": "the pause between checkpoints is only %s"},
]

# seconds_reading renders n read as seconds: "600 s (10 min)", or "30 s".
seconds_reading(n) := s if {
	s := sprintf("%d s", [n])
	units.duration(n * 1000) == s
} else := sprintf("%d s (%s)", [n, units.duration(n * 1000)])

deny contains f if {
	some c in checks
	v := input.effective.checkpointing[c.field]
	v.set
	timing.readable(v)
	regex.match(`^\s*[0-9]+\s*$`, v.raw)
	v.value > 0
	v.value < c.below
	f := result.finding(v, result.msg(
		sprintf(
			"%s %s has no unit, so Flink reads it as %s (did you mean %s?).",
			[v.key, trim_space(v.raw), units.duration(v.value), seconds_reading(v.value)],
		),
		sprintf(
			"%s: %s (%s) has no unit, and Flink reads a number without a unit as milliseconds, so this is %s: %s. Did you mean %s? Write the unit: \"%d s\" for seconds, or \"%d ms\" to keep %s",
			[
				v.key, v.raw, timing.origin(v), units.duration(v.value), sprintf(c.effect, [units.duration(v.value)]),
				seconds_reading(v.value), v.value, v.value, units.duration(v.value),
			],
		),
	))
}
