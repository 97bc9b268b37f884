# METADATA
# title: Job parallelism needs more task slots than the TaskManagers offer
# description: |
#   With Flink's default slot sharing a job needs one task slot per parallel
#   subtask of its widest operator, so jobs x parallelism slots at least. When
#   .ckptlint.hcl declares a fixed number of TaskManagers (taskmanagers, with
#   slots_per_taskmanager or taskmanager.numberOfTaskSlots), a parallelism that
#   needs more slots than taskmanagers x slots cannot be scheduled: the job fails
#   with "NoResourceAvailableException: Could not acquire the minimum required
#   resources." and never takes a checkpoint. This is an error on a standalone
#   cluster; on YARN or native Kubernetes (which start TaskManagers on demand) and
#   with the adaptive scheduler (which lowers the parallelism to the slots it
#   gets) it is a warning. For a FlinkDeployment the Kubernetes operator sizes the
#   TaskManagers itself, but when spec.taskManager.replicas is set it ignores
#   spec.job.parallelism and runs the job with replicas x numberOfTaskSlots; a
#   different spec.job.parallelism is reported as a warning. Fix by lowering the
#   parallelism or adding TaskManagers or slots.
# related_resources:
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-runtime/src/main/java/org/apache/flink/runtime/jobmaster/slotpool/DeclarativeSlotPoolBridge.java
#     description: the slot pool fails pending slot requests with NoResourceAvailableException
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/concepts/flink-architecture/
#     description: task slots and slot sharing
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/deployment/elastic_scaling/
#     description: the adaptive scheduler runs a job with the slots it gets
#   - ref: https://github.com/apache/flink-kubernetes-operator/blob/main/flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/config/FlinkConfigBuilder.java
#     description: FlinkConfigBuilder.getParallelism, replicas x slots wins over spec.job.parallelism
# custom:
#   id: CKPT401
#   name: parallelism-exceeds-slots
#   severity: error
#   fixable: false
package ckptlint.rules.capacity.slots

import data.ckptlint.lib.capacity
import data.ckptlint.lib.flink
import data.ckptlint.lib.result

deployment_manifest if input.flink.format == "flink-deployment"

par := flink.parallelism

jobs := flink.jobs

# slots per TaskManager: declared for the set's Flink cluster in
# .ckptlint.hcl (input.deployment: the deployment block's, else the cluster
# block's, docs/input.md), else the Flink file's.
slots := {"value": input.deployment.slots_per_taskmanager, "from": "slots_per_taskmanager in .ckptlint.hcl"} if {
	input.deployment.slots_per_taskmanager
} else := {
	"value": s.value,
	"from": sprintf("taskmanager.numberOfTaskSlots, %s", [capacity.from(s)]),
} if {
	s := input.effective.parallelism.slots_per_taskmanager
	is_number(s.value)
}

tms := input.deployment.taskmanagers

needed := jobs.value * par.value

offered := tms * slots.value

at := input.effective.parallelism["default"] if {
	par.from == "parallelism.default"
} else := input.flink.manifest.job_parallelism if {
	par.from == "spec.job.parallelism"
} else := null

par_text := sprintf("parallelism %d (%s, %s)", [par.value, par.from, capacity.from(at)]) if {
	at != null
} else := sprintf("parallelism %d (%s)", [par.value, par.from])

jobs_text := sprintf(" x %d jobs (jobs in .ckptlint.hcl)", [jobs.value]) if {
	jobs.declared
	jobs.value != 1
} else := ""

# active: a resource manager that starts TaskManagers on demand.
active if {
	t := input.effective.execution.target.value
	is_string(t)
	some p in ["yarn-", "kubernetes-"]
	startswith(lower(t), p)
}

adaptive if raw_lower("jobmanager.scheduler") == "adaptive"

adaptive if raw_lower("scheduler-mode") == "reactive"

# raw_lower is a key's value as written in the Flink file, lower-cased.
raw_lower(k) := lower(v) if {
	v := input.flink.keys[k].value
	is_string(v)
}

advice := concat(", or ", [x |
	some x in [
		lower_par,
		sprintf("run at least %d TaskManagers", [ceil(needed / slots.value)]),
		sprintf("set taskmanager.numberOfTaskSlots to at least %d", [ceil(needed / tms)]),
	]
	x != ""
])

lower_par := sprintf("Lower the parallelism to at most %d per job", [floor(offered / jobs.value)]) if {
	floor(offered / jobs.value) >= 1
} else := ""

shortfall := sprintf(
	"%s%s needs at least %d task slots (one per parallel subtask of the widest operator with Flink's default slot sharing), but the declared %d TaskManager(s) (taskmanagers in .ckptlint.hcl) x %d slot(s) (%s) offer %d",
	[par_text, jobs_text, needed, tms, slots.value, slots.from, offered],
)

consequence := sprintf("the scheduler cannot get the missing slots and fails with %s; the job restarts under its restart strategy without ever running, so it never takes a checkpoint", [no_resource])

# no_resource is the scheduler's error, per release: from 1.13 the
# declarative slot pool's "Could not acquire the minimum required resources."
# (DeclarativeSlotPoolBridge, release-1.13.6 to 1.18.0); before, a
# NoResourceAvailableException whose text depends on the scheduler ("Not
# enough free slots available to run the job.", NoResourceAvailableException
# BASE_MESSAGE from 0.9; "Could not allocate all requires slots within
# timeout" from 1.4). A version that is not known is read as 1.18.
no_resource := "NoResourceAvailableException, whose text depends on the scheduler of this release (\"Not enough free slots available to run the job.\", or \"Could not allocate all requires slots within timeout\" once the slot request times out)" if {
	input.versions.flink.declared
	not at_least_1_13
} else := "\"NoResourceAvailableException: Could not acquire the minimum required resources.\""

at_least_1_13 if input.versions.flink.major > 1

at_least_1_13 if {
	input.versions.flink.major == 1
	input.versions.flink.minor >= 13
}

# Standalone: the TaskManagers are fixed.
deny contains f if {
	not deployment_manifest
	input.flink
	tms
	needed > offered
	not active
	not adaptive
	f := result.finding(at, result.msg(
		sprintf("The job needs %d task slots but %d TaskManager(s) x %d slot(s) offer %d, so it never runs and never checkpoints.", [needed, tms, slots.value, offered]),
		sprintf("%s: %s. %s", [shortfall, consequence, first_upper(advice)]),
	))
}

# YARN / native Kubernetes: more TaskManagers may be started.
deny contains f if {
	not deployment_manifest
	input.flink
	tms
	needed > offered
	active
	not adaptive
	f := result.warning(at, result.msg(
		sprintf("The job needs %d task slots but the declared %d TaskManager(s) x %d slot(s) offer %d: it runs only if the cluster grows.", [needed, tms, slots.value, offered]),
		sprintf(
			"%s; execution.target %s starts TaskManagers on demand, so this only holds if the cluster cannot grow beyond the declared TaskManagers: then %s. %s",
			[shortfall, input.effective.execution.target.value, consequence, first_upper(advice)],
		),
	))
}

# Adaptive scheduler: the job runs with the slots it gets.
deny contains f if {
	not deployment_manifest
	input.flink
	tms
	needed > offered
	adaptive
	f := result.warning(at, result.msg(
		sprintf("The job needs %d task slots but %d TaskManager(s) x %d slot(s) offer %d, so the adaptive scheduler runs it below its parallelism.", [needed, tms, slots.value, offered]),
		sprintf(
			"%s; the adaptive scheduler runs the job with the slots it gets, so it runs below the written parallelism (and rescales when slots appear). %s",
			[shortfall, first_upper(advice)],
		),
	))
}

first_upper(s) := concat("", [upper(substring(s, 0, 1)), substring(s, 1, -1)])

# FlinkDeployment: replicas x slots replaces spec.job.parallelism.
replicas := to_number(input.flink.manifest.taskmanager_replicas.value)

job_par := to_number(input.flink.manifest.job_parallelism.value)

# An operator option proposed in FLINK-40992 (apache/flink-kubernetes-operator
# PR #1222) lets spec.job.parallelism win; when it is false the override does
# not apply.
derive_off if raw_lower("kubernetes.operator.job.parallelism.derive-from-replicas") == "false"

derive_from_replicas if not derive_off

deny contains f if {
	deployment_manifest
	derive_from_replicas
	replicas >= 1
	job_par > 0
	s := input.effective.parallelism.slots_per_taskmanager.value
	job_par != replicas * s
	jp := input.flink.manifest.job_parallelism
	rp := input.flink.manifest.taskmanager_replicas
	f := result.warning(jp, result.msg(
		sprintf("spec.job.parallelism %d is ignored: with spec.taskManager.replicas %d the operator runs the job at parallelism %d.", [job_par, replicas, replicas * s]),
		sprintf(
			"spec.job.parallelism %d (%s) is ignored: spec.taskManager.replicas %d (%s) is set, and the Flink Kubernetes operator then runs the job with replicas x taskmanager.numberOfTaskSlots = %d x %d = %d (it logs WARN \"Job parallelism setting is ignored as TaskManager replicas are set\"), %s. Remove spec.job.parallelism, or size spec.taskManager.replicas x taskmanager.numberOfTaskSlots to %d",
			[job_par, capacity.from(jp), replicas, capacity.from(rp), replicas, s, replicas * s, direction(job_par, replicas * s), job_par],
		),
	))
}

direction(written, runs) := "fewer parallel subtasks than written" if runs < written

else := "more parallel subtasks than written, each occupying a slot"
