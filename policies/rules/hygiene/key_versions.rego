# METADATA
# title: Key spelling that this Flink version deprecates, ignores or does not read
# description: |
#   Flink looks a setting up under its current key first, then under its fallback and deprecated
#   spellings, and ignores keys it does not know without any error. Renames matter: 1.17 added
#   suffixes to keys that were also prefixes of other keys (state.backend became state.backend.type,
#   restart-strategy became restart-strategy.type, high-availability became high-availability.type,
#   env.java.opts became env.java.opts.all, execution.checkpointing.unaligned became
#   .unaligned.enabled), 1.20 moved state.checkpoints.*, state.savepoints.dir,
#   state.backend.incremental, state.storage.fs.* and state.checkpoint-storage under
#   execution.checkpointing.*, and 2.0 removed state.backend.async and
#   state.backend.rocksdb.checkpointdir. A deprecated spelling still works but logs a WARN and
#   may go in a later release (info, since the release still reads it; the fix renames it). When
#   the current and a deprecated spelling are both set, Flink reads the current one and silently
#   ignores the other (warning; the fix deletes the ignored line). Which spelling a release reads
#   depends on the release: while the Flink version is not known (docs/versions.md) these are info
#   and ckptlint fix holds the rename or deletion back. A key the version does not read at all, because it is
#   newer (execution.checkpointing.dir on 1.17) or removed, silently does nothing: an error when
#   the Flink version is known (declared or pinned), an info when it is not. For a known
#   release older or newer than the releases the key catalogue covers (docs/versions.md gives
#   the range and its sources) every finding of this rule is at most info and ckptlint fix
#   edits nothing. fs.hdfs.* keys are
#   reported by CKPT605.
# related_resources:
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-core/src/main/java/org/apache/flink/configuration/Configuration.java
#     description: Configuration lookup order (exact key, fallback keys, deprecated keys) and the deprecated-key WARN
#   - ref: https://issues.apache.org/jira/browse/FLINK-29372
#     description: "FLINK-29372: add a suffix to all options that conflict with YAML (1.17 renames)"
#   - ref: https://issues.apache.org/jira/browse/FLINK-34482
#     description: "FLINK-34482: rename checkpointing options to execution.checkpointing.* (1.20)"
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-2.0/release-notes/flink-2.0/
#     description: Flink 2.0 release notes, removed configuration options
# custom:
#   id: CKPT604
#   name: key-spelling-for-version
#   severity: error
#   fixable: false
package ckptlint.rules.hygiene.key_versions

import data.ckptlint.lib.hygiene
import data.ckptlint.lib.result

uses := [u |
	some u in input.flink.key_uses
	not startswith(u.key, "fs.hdfs.")
	not null_value(u)
]

# A null value in config.yaml is CKPT602's: the key is to be deleted.
null_value(u) if {
	some n in input.flink.notices
	n.code == "yaml-null-value"
	n.key == u.key
}

written(key) := input.flink.keys[key]

value_text(key) := sprintf("%q", [written(key).value]) if {
	is_string(written(key).value)
} else := "its value"

# place is "file:line, value" of a key in the Flink file.
place(key) := sprintf("%s, %s", [hygiene.where(written(key).loc), value_text(key)]) if {
	written(key).loc
} else := "in this file"

# Deprecated spelling: still read.
deny contains f if {
	some u in uses
	u.problem == "deprecated"
	u.use != ""
	msg := result.msg(
		sprintf("%s is deprecated: %s still reads it, but later releases drop such keys; rename it to %s.", [u.key, hygiene.release, u.use]),
		sprintf(
			"%s is deprecated on %s: Flink still reads it%s, and deprecated keys are dropped in later releases (several were in Flink 2.0). Rename it to %s, with the same value (a release older than %s does not read that name)",
			[u.key, hygiene.version, deprecation_log(u), u.use, since(u.use)],
		),
	)
	f := result.versioned(hygiene.emit(u, msg, rename_ops(u), "info"))
}

# deprecation_log is the WARN Configuration logs for a deprecated key, from
# 1.3 (release-1.3.3 Configuration.java; 1.2's ConfigOption lookup reads
# deprecated keys without a log line).
deprecation_log(u) := sprintf(", but logs WARN \"Config uses deprecated configuration key '%s' instead of proper key '%s'\"", [u.key, u.use]) if {
	hygiene.at_least(1, 3)
} else := " without a log line (the WARN about deprecated keys came with Flink 1.3)" if {
	input.versions.flink.declared
} else := sprintf(", but logs WARN \"Config uses deprecated configuration key '%s' instead of proper key '%s'\"", [u.key, u.use])

# since names the release that introduced a key, from the catalogue.
since(key) := sprintf("Flink %s", [input.flink.key_since[key]]) if {
	input.flink.key_since[key]
} else := "the one that introduced it"

rename_ops(u) := [] if {
	u.key == "recovery.mode"
} else := [result.needs_version(result.rename("flink", u.key, u.use))]

# Two spellings set: the one Flink reads first wins silently.
deny contains f if {
	some u in uses
	u.problem == "shadowed"
	msg := result.msg(
		sprintf("%s is ignored: %s is also set and %s reads that spelling first.", [u.key, u.use, hygiene.release]),
		sprintf(
			"%s (%s) is ignored: %s is also set (%s) and Flink reads that spelling first, so this line never applies on %s. Delete it (or move its value to %s)",
			[u.key, value_text(u.key), u.use, place(u.use), hygiene.version, u.use],
		),
	)
	f := result.versioned(hygiene.emit(u, msg, [result.needs_version(result.delete("flink", u.key))], "warning"))
}

# Not read by this version, which is declared: the setting does nothing. A
# declared release outside the key tables (docs/versions.md) is judged as
# the nearest release they cover, so the finding is versioned: at most info
# there, and fix holds the edit back.
deny contains f if {
	some u in uses
	u.problem == "unread"
	input.versions.flink.declared
	msg := result.msg(
		sprintf("%s is not read by %s, so this setting silently does nothing.", [u.key, hygiene.release]),
		sprintf(
			"%s, so this setting silently does nothing (Flink does not reject unknown keys)%s",
			[with_source(u.message), instead(u)],
		),
	)
	f := result.versioned(hygiene.emit(u, msg, unread_ops(u), "error"))
}

# Not read by the release the files are read with, which is not known: say so, without a fix.
deny contains f if {
	some u in uses
	u.problem == "unread"
	not input.versions.flink.declared
	msg := result.msg(
		sprintf("%s is not read by %s, the release the files are read as; if that is what runs, the setting does nothing.", [u.key, hygiene.release]),
		sprintf(
			"%s does not read %s; if that is the version you run, the setting does nothing%s",
			[hygiene.version, u.key, instead(u)],
		),
	)
	f := result.info(u, msg)
}

# with_source puts the version's source into a model message that starts
# with "Flink <version>".
with_source(msg) := concat("", [hygiene.version, substring(msg, count(m), -1)]) if {
	m := regex.find_n(`^Flink [0-9]+\.[0-9]+(\.[0-9]+)?`, msg, 1)[0]
} else := msg

# instead says what applies in place of an unread key.
instead(u) := sprintf("; %s is also set (%s) and applies", [u.use, place(u.use)]) if {
	u.use != ""
	written(u.use)
} else := sprintf("; write it as %s", [u.use]) if {
	u.use != ""
} else := "; delete it: this version has no replacement"

# unread_ops renames an unread key to the spelling this version reads, or
# deletes it when that spelling is already set or there is none.
unread_ops(u) := [result.rename("flink", u.key, u.use)] if {
	u.use != ""
	not written(u.use)
} else := [result.needs_version(result.delete("flink", u.key))]
