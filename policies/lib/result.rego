# METADATA
# title: Finding helpers
# description: Every rule builds its findings through these functions, so the finding shape lives in one place.
package ckptlint.lib.result

# finding reports msg at the location of `at`: an effective value or a raw
# key entry of the input document (anything with a `loc`), or null to report
# at the top of the config set's Flink file. msg is msg(headline, detail), or
# one string that is the whole headline.
finding(at, msg) := object.union({"loc": loc(at)}, text(msg))

# fix is a finding that carries fix operations (see ops below).
fix(at, msg, ops) := object.union({"loc": loc(at), "fix": ops}, text(msg))

# info is a finding reported at info severity whatever the rule's default:
# used when a rule lacks a cluster fact and says which one to declare.
info(at, msg) := object.union({"loc": loc(at), "severity": "info"}, text(msg))

# warning is a finding reported at warning severity whatever the rule's default.
warning(at, msg) := object.union({"loc": loc(at), "severity": "warning"}, text(msg))

# msg is a finding's text in two parts: the headline, one sentence of at
# most 160 characters that says the fact and its consequence (what an
# annotation or a compact report shows), and the detail, the evidence: the
# values and where they came from, the arithmetic, the error seen in
# production and the value that fixes it (docs/output.md, "Headline and
# detail").
msg(headline, detail) := {"headline": headline, "detail": detail}

# short is a value as a headline quotes it: at most 40 characters, cut
# with "…" (the detail quotes it whole).
short(s) := s if {
	count(s) <= 40
} else := concat("", [substring(s, 0, 39), "…"])

text(m) := {"message": m.headline, "detail": m.detail} if {
	is_object(m)
} else := {"message": m}

loc(at) := at.loc if {
	is_object(at)
	at.loc
} else := null

# set, delete and rename build fix operations. target is one of "flink",
# "hdfs-client", "core-client" or "hdfs-cluster".
set(target, key, value) := {"op": "set", "target": target, "key": key, "value": value}

delete(target, key) := {"op": "delete", "target": target, "key": key}

rename(target, key, new_key) := {"op": "rename", "target": target, "key": key, "new_key": new_key}

# versioned marks a finding whose truth depends on the Flink version. While
# the version is not known (docs/versions.md) ckptlint reports it at most as
# info and appends what declaring the version changes.
versioned(f) := object.union(f, {"version_dependent": true})

# needs_version marks a fix operation that is right only for some Flink
# releases (a rename, a version-specific value, a quoting change): ckptlint
# fix holds it back while the Flink version is not known. Renames of Flink
# keys are held back whether marked or not.
needs_version(op) := object.union(op, {"needs_version": true})
