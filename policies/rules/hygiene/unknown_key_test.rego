package ckptlint.rules.hygiene.unknown_key_test

import data.ckptlint.rules.hygiene.unknown_key

loc := {"file": "flink-conf.yaml", "line": 3}

typo := {"key": "state.backend.incremantal", "loc": loc, "known_in": [], "checked_against": "Flink 1.17", "table": "Flink 1.13 to 2.3", "exact": true, "suggestion": "state.backend.incremental"}

declared := {"value": "1.17", "major": 1, "minor": 17, "source": "config", "declared": true, "why": "flink_version in .ckptlint.hcl"}

assumed := {"value": "1.18", "major": 1, "minor": 18, "source": "assumed", "declared": false, "why": "assumed"}

test_declared_version_warns_with_suggestion if {
	some f in unknown_key.deny with input as {"versions": {"flink": declared}, "flink": {"unknown_keys": [typo], "key_uses": []}}
	f.severity == "warning"
	contains(f.detail, "state.backend.incremantal (flink-conf.yaml:3) is not an option of Flink 1.17 (flink_version in .ckptlint.hcl)")
	contains(f.detail, "no release from 1.13 to 2.3 knows it")
	contains(f.detail, "Did you mean state.backend.incremental?")
}

test_key_of_other_release_names_them if {
	u := object.union(typo, {"key": "execution.checkpointing.dir", "known_in": ["1.20", "2.0"]})
	some f in unknown_key.deny with input as {"versions": {"flink": declared}, "flink": {"unknown_keys": [u], "key_uses": []}}
	contains(f.detail, "releases 1.20, 2.0 know it")
}

test_unknown_version_is_info if {
	u := object.union(typo, {"exact": false, "checked_against": "Flink 1.13 to 2.3"})
	some f in unknown_key.deny with input as {"versions": {"flink": assumed}, "flink": {"unknown_keys": [u], "key_uses": []}}
	f.severity == "info"
	contains(f.detail, "declare flink_version")
}

test_unknown_version_key_of_some_release_is_silent if {
	u := object.union(typo, {"exact": false, "known_in": ["1.20"]})
	count(unknown_key.deny) == 0 with input as {"versions": {"flink": assumed}, "flink": {"unknown_keys": [u], "key_uses": []}}
}

test_key_use_reported_by_ckpt604_is_silent if {
	count(unknown_key.deny) == 0 with input as {"versions": {"flink": declared}, "flink": {"unknown_keys": [typo], "key_uses": [{"key": typo.key}]}}
}

test_no_unknown_keys_is_silent if {
	count(unknown_key.deny) == 0 with input as {"versions": {"flink": declared}, "flink": {"unknown_keys": [], "key_uses": []}}
}
