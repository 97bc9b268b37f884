# METADATA
# title: Finding helpers
# description: Every rule builds its findings through these functions, so the finding shape lives in one place.
package ckptlint.lib.result

# finding reports msg at the location of `at`: an effective value or a raw
# key entry of the input document (anything with a `loc`), or null to report
# at the top of the config set's Flink file.
finding(at, msg) := {"message": msg, "loc": loc(at)}

# fix is a finding that carries fix operations (see ops below).
fix(at, msg, ops) := {"message": msg, "loc": loc(at), "fix": ops}

# info is a finding reported at info severity whatever the rule's default:
# used when a rule lacks a cluster fact and says which one to declare.
info(at, msg) := {"message": msg, "loc": loc(at), "severity": "info"}

# warning is a finding reported at warning severity whatever the rule's default.
warning(at, msg) := {"message": msg, "loc": loc(at), "severity": "warning"}

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
