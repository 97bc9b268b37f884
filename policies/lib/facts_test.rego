package ckptlint.lib.facts_test

import data.ckptlint.lib.facts

dep := {"checkpoint_p99_ms": 41000, "facts": {"checkpoint_p99": {"cite": "facts from jobmanager http://jm:8081/jobs/a/checkpoints, 2026-12-01"}}}

test_cite_observed if {
	facts.cite(dep, "checkpoint_p99") == "facts from jobmanager http://jm:8081/jobs/a/checkpoints, 2026-12-01"
	facts.note(dep, "checkpoint_p99") == ", facts from jobmanager http://jm:8081/jobs/a/checkpoints, 2026-12-01"
	facts.origin(dep, "checkpoint_p99", "checkpoint_p99 in .ckptlint.hcl") == "checkpoint_p99 in .ckptlint.hcl, facts from jobmanager http://jm:8081/jobs/a/checkpoints, 2026-12-01"
	facts.observed(dep, "checkpoint_p99")
}

test_cite_declared_by_hand if {
	facts.cite(dep, "jobs") == ""
	facts.note({}, "jobs") == ""
	facts.origin({"declared": true}, "jobs", "jobs in .ckptlint.hcl") == "jobs in .ckptlint.hcl"
	not facts.observed(dep, "jobs")
}

test_stale_blocks if {
	blocks := facts.stale_blocks with input as {
		"cluster": {"fact_blocks": [{"kind": "namenode", "stale": true}, {"kind": "dfsadmin", "stale": false}]},
		"deployment": {"declared": false},
	}
	blocks == {["cluster", {"kind": "namenode", "stale": true}]}
}

cluster := {"facts": {
	"datanodes": {"cite": "facts from namenode http://nn:9870/jmx, 2026-12-01"},
	"datanode_free_bytes": {"cite": "facts from namenode http://nn:9870/jmx, 2026-12-01"},
	"taskmanagers": {"cite": "facts from jobmanager http://jm:8081/overview, 2026-11-30"},
}}

test_sources_groups_by_block if {
	facts.sources(cluster, ["datanodes", "datanode_free_bytes", "taskmanagers", "other_writers"]) == "taskmanagers: facts from jobmanager http://jm:8081/overview, 2026-11-30; datanodes, datanode_free_bytes: facts from namenode http://nn:9870/jmx, 2026-12-01"
	facts.observed_note(cluster, ["datanodes"]) == " (observed: datanodes: facts from namenode http://nn:9870/jmx, 2026-12-01)"
	facts.observed_note(cluster, ["other_writers"]) == ""
}
