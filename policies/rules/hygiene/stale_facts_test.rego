package ckptlint.rules.hygiene.stale_facts_test

import data.ckptlint.rules.hygiene.stale_facts

block(stale) := {
	"kind": "namenode", "source": "http://nn:9870/jmx", "observed_at": "2026-10-01T08:00:00Z", "date": "2026-10-01",
	"attributes": ["datanodes", "datanode_free_bytes"], "at": ".ckptlint.hcl:7", "age": "61 days", "stale": stale,
}

doc(stale) := {
	"facts": {"today": "2026-12-01", "max_age": "30 days", "max_age_ms": 2592000000},
	"cluster": {"declared": true, "name": "prod", "fact_blocks": [block(stale)]},
	"deployment": {"declared": false},
}

test_stale_block_is_info if {
	fs := stale_facts.deny with input as doc(true)
	count(fs) == 1
	some f in fs
	f.severity == "info"
	contains(f.detail, `the facts "namenode" block of cluster "prod" at .ckptlint.hcl:7 (datanodes, datanode_free_bytes from http://nn:9870/jmx) was observed at 2026-10-01T08:00:00Z, 61 days before this run on 2026-12-01, more than facts_max_age 30 days`)
}

test_fresh_block_is_quiet if {
	count(stale_facts.deny) == 0 with input as doc(false)
}

test_no_facts_is_quiet if {
	count(stale_facts.deny) == 0 with input as {"cluster": {"declared": false}, "deployment": {"declared": false}, "facts": {}}
}
