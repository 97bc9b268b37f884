package ckptlint.rules.capacity.replace_policy_test

import data.ckptlint.rules.capacity.replace_policy

with_policy(raw) := {
	"effective": {"hdfs_client": {
		"replace_datanode_policy": {
			"value": trim_space(raw), "raw": raw, "set": true, "source": "file",
			"loc": {"file": "hdfs-site.xml", "line": 5},
		},
		"replace_datanode_enable": {"value": true, "set": false, "source": "default"},
	}},
	"cluster": {"declared": false},
}

test_disable_is_an_error_fixed_to_never if {
	some f in replace_policy.deny with input as with_policy("DISABLE")
	not "severity" in object.keys(f)
	contains(f.detail, "Illegal configuration value for dfs.client.block.write.replace-datanode-on-failure.policy: DISABLE")
	contains(f.detail, "DISABLE is only the internal state of enable=false")
	f.fix == [{"op": "set", "target": "hdfs-client", "key": "dfs.client.block.write.replace-datanode-on-failure.policy", "value": "NEVER"}]
	f.loc.line == 5
	count(replace_policy.deny) == 1 with input as with_policy("DISABLE")
}

test_whitespace_is_an_error_fixed_by_trimming if {
	some f in replace_policy.deny with input as with_policy(" never\n")
	contains(f.detail, "surrounding whitespace included")
	f.fix[0].value == "NEVER"
}

test_typo_is_an_error_without_a_fix if {
	some f in replace_policy.deny with input as with_policy("DEFUALT")
	not f.fix
	contains(f.detail, "Write ALWAYS, NEVER or DEFAULT")
}

test_legal_values_any_case_are_silent if {
	count(replace_policy.deny) == 0 with input as with_policy("never")
	count(replace_policy.deny) == 0 with input as with_policy("Always")
	count(replace_policy.deny) == 0 with input as with_policy("DEFAULT")
}

test_disabled_feature_does_not_read_the_policy if {
	inp := json.patch(with_policy("DISABLE"), [{"op": "replace", "path": "/effective/hdfs_client/replace_datanode_enable/value", "value": false}])
	count(replace_policy.deny) == 0 with input as inp
}
