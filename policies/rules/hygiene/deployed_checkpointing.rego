# METADATA
# title: The running job's checkpoint settings differ from the repository's Flink configuration
# description: |
#   A running_checkpointing block in .ckptlint.hcl holds the checkpoint configuration the running
#   job reports (`ckptlint facts --jobmanager`, Flink REST GET /jobs/:jobid/checkpoints/config,
#   CheckpointConfigInfo: interval, timeout, min_pause, max_concurrent, tolerable_failed_checkpoints,
#   unaligned_checkpoints). When a value differs from what the repository's Flink configuration
#   gives (the file's value, or Flink's default when the file does not set it), the deployed job
#   does not run what the repository says: the job's code overrides the file
#   (StreamExecutionEnvironment.enableCheckpointing, CheckpointConfig setters), the submission
#   passes -D options, or the job was deployed from another revision. Every other finding about
#   these settings then describes a configuration that is not running. Each differing setting is
#   a warning naming both values and their sources. Make the repository say what runs (or
#   redeploy from it), then read the facts again.
# related_resources:
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/ops/rest_api/#jobs-jobid-checkpoints-config
#     description: "GET /jobs/:jobid/checkpoints/config: the running job's checkpointing configuration"
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-runtime/src/main/java/org/apache/flink/runtime/rest/messages/checkpoints/CheckpointConfigInfo.java
#     description: CheckpointConfigInfo, the fields of that response
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/dev/datastream/fault-tolerance/checkpointing/
#     description: checkpoint settings set in code take precedence over the configuration file
# custom:
#   id: CKPT610
#   name: deployed-checkpointing-differs
#   severity: warning
#   fixable: false
package ckptlint.rules.hygiene.deployed_checkpointing

import data.ckptlint.lib.facts
import data.ckptlint.lib.result
import data.ckptlint.lib.units

running := input.deployment.running_checkpointing

eff := input.effective.checkpointing

# fields pairs each running_checkpointing value with the effective setting
# it reports; kind says how to render it.
fields := [
	{"running": "interval_ms", "eff": "interval", "kind": "duration"},
	{"running": "timeout_ms", "eff": "timeout", "kind": "duration"},
	{"running": "min_pause_ms", "eff": "min_pause", "kind": "duration"},
	{"running": "max_concurrent", "eff": "max_concurrent", "kind": "number"},
	{"running": "tolerable_failures", "eff": "tolerable_failed", "kind": "number"},
	{"running": "unaligned", "eff": "unaligned", "kind": "bool"},
]

render("duration", v) := units.duration(v)

render("number", v) := sprintf("%d", [v])

render("bool", v) := sprintf("%v", [v])

from(v) := sprintf("%s:%d", [v.loc.file, v.loc.line]) if {
	v.loc
} else := "Flink's default, the file does not set it"

job := sprintf(" %s", [running.job_id]) if running.job_id

else := ""

observed := sprintf("running_checkpointing%s%s", [at, facts.note(input.deployment, "running_checkpointing")])

at := sprintf(" at %s", [running.at]) if running.at

else := ""

repo(e, fd) := sprintf("%s %s (%s)", [e.key, render(fd.kind, e.value), from(e)])

consequence := "the job's code (StreamExecutionEnvironment.enableCheckpointing, CheckpointConfig setters) or its submission (-D) overrides the file, or the job was deployed from another revision, so findings about this setting describe a configuration that is not running. Make the repository say what runs, or redeploy from it, then read the facts again (`ckptlint facts --jobmanager`)"

deny contains f if {
	input.flink
	input.deployment.declared
	some fd in fields
	r := running[fd.running]
	e := eff[fd.eff]
	not e.template
	not e.error
	comparable(e, r)
	e.value != r
	f := result.warning(at_value(e), result.msg(
		sprintf("The running job uses %s %s, not what the repository gives, so findings on the repository miss what runs.", [e.key, result.short(render(fd.kind, r))]),
		sprintf(
			"the deployed job does not run what the repository says: the repository gives %s, but the running job%s uses %s (%s): %s",
			[repo(e, fd), job, render(fd.kind, r), observed, consequence],
		),
	))
}

# Checkpointing is off in the repository (no interval) but the job checkpoints.
deny contains f if {
	input.flink
	input.deployment.declared
	r := running.interval_ms
	e := eff.interval
	not e.template
	not e.error
	not is_number(e.value)
	f := result.warning(at_value(e), result.msg(
		sprintf("The running job checkpoints every %s though the repository does not enable checkpointing, so the repository is not what runs.", [units.duration(r)]),
		sprintf(
			"the deployed job does not run what the repository says: the repository does not enable checkpointing (%s unset), but the running job%s checkpoints every %s (%s): %s",
			[e.key, job, units.duration(r), observed, consequence],
		),
	))
}

comparable(e, r) if {
	is_number(e.value)
	is_number(r)
}

comparable(e, r) if {
	is_boolean(e.value)
	is_boolean(r)
}

at_value(e) := e if e.loc

else := null
