package ckptlint.rules.capacity.slots_test

import data.ckptlint.rules.capacity.slots

# A standalone cluster of 2 TaskManagers x 2 slots, parallelism 8.
base := {
	"flink": {"file": "flink-conf.yaml", "format": "flink-conf", "keys": {}},
	"effective": {
		"parallelism": {
			"default": {"value": 8, "set": true, "source": "file", "loc": {"file": "flink-conf.yaml", "line": 3}},
			"slots_per_taskmanager": {"value": 2, "set": true, "source": "file", "loc": {"file": "flink-conf.yaml", "line": 2}},
		},
		"execution": {"target": {"set": false, "source": "unset", "value": null}},
	},
	"cluster": {"declared": true},
	"deployment": {"declared": false, "taskmanagers": 2, "taskmanagers_in": "cluster \"prod\""},
}

test_standalone_shortfall_is_an_error if {
	some f in slots.deny with input as base
	not f.severity
	contains(f.detail, "parallelism 8 (parallelism.default, flink-conf.yaml:3) needs at least 8 task slots")
	contains(f.detail, "2 TaskManager(s) (taskmanagers in .ckptlint.hcl) x 2 slot(s) (taskmanager.numberOfTaskSlots, flink-conf.yaml:2) offer 4")
	contains(f.detail, "NoResourceAvailableException: Could not acquire the minimum required resources.")
	contains(f.detail, "Lower the parallelism to at most 4 per job, or run at least 4 TaskManagers, or set taskmanager.numberOfTaskSlots to at least 4")
	f.loc.line == 3
}

test_jobs_multiply_the_need if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/effective/parallelism/default/value", "value": 2},
		{"op": "replace", "path": "/deployment", "value": {"declared": true, "jobs": 3, "taskmanagers": 2, "taskmanagers_in": "deployment \"d\""}},
	])
	some f in slots.deny with input as inp
	contains(f.detail, "parallelism 2 (parallelism.default, flink-conf.yaml:3) x 3 jobs (jobs in .ckptlint.hcl) needs at least 6 task slots")
	contains(f.detail, "at most 1 per job")
}

test_declared_slots_win if {
	inp := json.patch(base, [{"op": "add", "path": "/deployment/slots_per_taskmanager", "value": 4}])
	count(slots.deny) == 0 with input as inp
}

test_enough_slots_are_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/deployment/taskmanagers", "value": 4}])
	count(slots.deny) == 0 with input as inp
}

test_no_declared_taskmanagers_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/deployment", "value": {"declared": false}}])
	count(slots.deny) == 0 with input as inp
}

test_active_resource_manager_warns if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/execution/target", "value": {"value": "yarn-application", "set": true}}])
	some f in slots.deny with input as inp
	f.severity == "warning"
	contains(f.detail, "starts TaskManagers on demand")
}

test_adaptive_scheduler_warns if {
	inp := json.patch(base, [{"op": "replace", "path": "/flink/keys", "value": {"jobmanager.scheduler": {"value": "Adaptive"}}}])
	some f in slots.deny with input as inp
	f.severity == "warning"
	contains(f.detail, "adaptive scheduler")
}

deployment := {
	"flink": {
		"file": "flinkdeployment.yaml", "format": "flink-deployment", "keys": {},
		"manifest": {
			"job_parallelism": {"value": "8", "loc": {"file": "flinkdeployment.yaml", "line": 30}},
			"taskmanager_replicas": {"value": "2", "loc": {"file": "flinkdeployment.yaml", "line": 25}},
		},
	},
	"effective": {"parallelism": {
		"default": {"value": 1, "set": false, "source": "default"},
		"slots_per_taskmanager": {"value": 2, "set": true, "source": "file", "loc": {"file": "flinkdeployment.yaml", "line": 9}},
	}},
	"cluster": {"declared": false},
	"deployment": {"declared": false},
}

test_replicas_override_job_parallelism if {
	some f in slots.deny with input as deployment
	f.severity == "warning"
	contains(f.detail, "spec.job.parallelism 8 (flinkdeployment.yaml:30) is ignored")
	contains(f.detail, "= 2 x 2 = 4")
	contains(f.detail, "fewer parallel subtasks than written")
	f.loc.line == 30
}

test_matching_replicas_are_silent if {
	inp := json.patch(deployment, [{"op": "replace", "path": "/flink/manifest/taskmanager_replicas/value", "value": "4"}])
	count(slots.deny) == 0 with input as inp
}

test_deployment_without_replicas_is_silent if {
	inp := json.patch(deployment, [{"op": "remove", "path": "/flink/manifest/taskmanager_replicas"}])
	count(slots.deny) == 0 with input as inp
}

# Issue 23: the error text is the declarative slot pool's from 1.13 only;
# the oldest release (0.9) and 1.12 fail with another NoResourceAvailableException
# text, and the newest (2.3) with the 1.13 one.
test_error_text_per_release if {
	old := json.patch(base, [{"op": "add", "path": "/versions", "value": {"flink": {"major": 0, "minor": 9, "declared": true}}}])
	some f in slots.deny with input as old
	contains(f.detail, "Not enough free slots available to run the job.")
	not contains(f.detail, "Could not acquire the minimum required resources.")
	v112 := json.patch(base, [{"op": "add", "path": "/versions", "value": {"flink": {"major": 1, "minor": 12, "declared": true}}}])
	some g in slots.deny with input as v112
	not contains(g.detail, "Could not acquire the minimum required resources.")
	new := json.patch(base, [{"op": "add", "path": "/versions", "value": {"flink": {"major": 2, "minor": 3, "declared": true}}}])
	some h in slots.deny with input as new
	contains(h.detail, "NoResourceAvailableException: Could not acquire the minimum required resources.")
}
