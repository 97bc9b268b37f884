package ckptlint.rules.timing.invalid_duration_test

import data.ckptlint.rules.timing.invalid_duration

declared := {"value": "1.14", "major": 1, "minor": 14, "declared": true, "source": "config", "why": "flink_version in .ckptlint.hcl"}

evidence := {"value": "1.13", "major": 1, "minor": 13, "declared": false, "source": "evidence", "why": "execution.checkpointing.aligned-checkpoint-timeout exists from Flink 1.13 (a lower bound; declare flink_version in .ckptlint.hcl)"}

doc(version, format, raw, err) := {
	"versions": {"flink": version},
	"flink": {"file": "flink-conf.yaml", "format": format},
	"effective": {"checkpointing": {"timeout": {
		"value": 600000, "display": "10 min", "raw": raw, "error": err, "set": true,
		"key": "execution.checkpointing.timeout", "loc": {"file": "flink-conf.yaml", "line": 2},
	}}},
}

m_error := `"m" means minutes only from Flink 1.15; use "min"`

test_m_on_declared_old_version_is_an_error_with_fix if {
	some f in invalid_duration.deny with input as doc(declared, "flink-conf", "10m", m_error)
	object.get(f, "severity", null) == null
	contains(f.detail, "cannot be read by Flink 1.14, the declared version")
	contains(f.detail, "Could not parse value '10m' for key 'execution.checkpointing.timeout'.")
	f.fix == [{"op": "set", "target": "flink", "key": "execution.checkpointing.timeout", "value": "10 min"}]
}

# A lower bound is no known version: the finding is version-dependent (the
# Go side lowers it to info) and its fix, a unit every release reads, is not
# held back.
test_m_on_inferred_version_is_version_dependent if {
	some f in invalid_duration.deny with input as doc(evidence, "flink-conf", "10 M", m_error)
	f.severity == "warning"
	f.version_dependent
	contains(f.detail, "ckptlint read the files as Flink 1.13")
	contains(f.detail, "(a lower bound; declare flink_version in .ckptlint.hcl)). On Flink 1.14 or older, Flink refuses it")
	endswith(f.detail, `Write "10 min", which every version reads.`)
	not contains(f.detail, "MISSING")
	f.fix[0].value == "10 min"
	not f.fix[0].needs_version
}

test_quoted_value_is_left_to_ckpt601 if {
	inp := json.patch(doc(evidence, "flink-conf", `"10 s"`, "text does not start with a number"), [{"op": "add", "path": "/flink/notices", "value": [{
		"code": "legacy-quoted-value", "key": "execution.checkpointing.timeout",
		"loc": {"file": "flink-conf.yaml", "line": 2, "col": 34},
	}]}])
	count(invalid_duration.deny) == 0 with input as inp
}

test_unexplained_quotes_still_fire if {
	some f in invalid_duration.deny with input as doc(evidence, "flink-conf", `"10 s"`, "text does not start with a number")
	object.get(f, "fix", null) == null
}

test_mins_gets_min if {
	some f in invalid_duration.deny with input as doc(declared, "config-yaml", "15mins", `Flink does not accept "mins"; use "min"`)
	f.fix[0].value == "15 min"
}

test_us_gets_micros if {
	some f in invalid_duration.deny with input as doc(declared, "config-yaml", "100 us", `Flink does not accept "us"; use "µs" or "micros"`)
	f.fix[0].value == "100 micros"
}

test_fraction_gets_exact_spelling if {
	some f in invalid_duration.deny with input as doc(declared, "flink-config-yaml", "1.5 min", `Flink durations are integers: "1.5 min" has a fraction; write "90 s"`)
	f.fix[0].value == "90 s"
}

test_iso_has_no_fix if {
	some f in invalid_duration.deny with input as doc(declared, "flink-config-yaml", "PT10M", `text does not start with a number; Flink does not read ISO-8601 durations such as "PT10M"; write e.g. "10 min"`)
	object.get(f, "fix", null) == null
	contains(f.detail, "is not a duration Flink can read")
}

test_valid_value_passes if {
	inp := json.patch(doc(declared, "flink-conf", "10 min", "x"), [{"op": "remove", "path": "/effective/checkpointing/timeout/error"}])
	count(invalid_duration.deny) == 0 with input as inp
}
