# METADATA
# title: Key in one of Flink's own namespaces that this Flink version has no option for
# description: |
#   Flink does not validate configuration keys: a key no option reads is stored and never
#   looked at, so a misspelt or outdated key (state.backend.incremental spelt
#   state.backend.incremantal, high-availability.storagedir for high-availability.storageDir)
#   silently leaves the setting at its default. The rule checks the keys under
#   high-availability.*, state.*, execution.checkpointing.*, kubernetes.*, restart-strategy.*
#   and fs.* against the option list of each Flink release from 0.9 to 2.3, generated from
#   Flink's own ConfigOptions, option tables and, before 1.13, the key constants of its sources
#   (internal/model/flinkoptions_gen.go from the apache/flink release branches of 1.13 on,
#   internal/model/flinkoptions_legacy_gen.go from the release tags of 0.9 to 1.12, both written by
#   internal/flinkoptions; the commits are listed in the files), and proposes the nearest known
#   key. When the Flink version is known (declared,
#   or pinned in the repository: FlinkDeployment, image tag, build file, tarball name) and the
#   table has that release, a key that release does not know is a warning that names the
#   releases that do. Without such a version (not known, only a lower bound, or a release the
#   table does not cover) only keys that no release of the table knows are reported, as an
#   info: declaring the version makes the check exact.
#   Not checked: fs.<scheme>.* keys (read by that scheme's file system plugin, such as Hadoop
#   S3A), kubernetes.operator.* keys (read by the Flink Kubernetes Operator), fs.hdfs.* keys
#   (CKPT605) and keys CKPT604 reports as spellings of a known option.
# related_resources:
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-core/src/main/java/org/apache/flink/configuration/ConfigOptions.java
#     description: ConfigOptions, where every Flink option declares its key, fallback and deprecated keys
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/deployment/config/
#     description: Flink configuration reference, generated from the ConfigOption classes
# custom:
#   id: CKPT608
#   name: unknown-flink-key
#   severity: warning
#   fixable: false
package ckptlint.rules.hygiene.unknown_key

import data.ckptlint.lib.hygiene
import data.ckptlint.lib.result

fv := input.versions.flink

# version_text names the version with its source (docs/versions.md).
version_text := fv.text if is_string(fv.text)

else := sprintf("Flink %s (%s)", [fv.value, fv.why]) if fv.value

else := "the Flink version (unknown)"

# reported elsewhere: CKPT604 names the key's spelling for this version,
# CKPT605 owns fs.hdfs.*.
elsewhere(key) if {
	some u in input.flink.key_uses
	u.key == key
}

elsewhere(key) if startswith(key, "fs.hdfs.")

suggestion(u) := sprintf(" Did you mean %s?", [u.suggestion]) if u.suggestion

else := ""

known_text(u) := sprintf("releases %s know it, so it is a key of another version", [concat(", ", u.known_ranges)]) if {
	count(u.known_ranges) > 0
} else := sprintf("releases %s know it, so it is a key of another version", [concat(", ", u.known_in)]) if {
	count(u.known_in) > 0
} else := sprintf("no release from %s knows it", [trim_prefix(u.table, "Flink ")])

# inexact_note says why the key was not checked against one release: a
# known release outside the list, or a version that is not known.
inexact_note := sprintf("%s, so the list cannot check the key against that release's options", [fv.coverage]) if {
	is_string(fv.coverage)
	fv.coverage != ""
} else := sprintf("The version here is %s, which the list cannot check exactly: declare flink_version in .ckptlint.hcl to check the key against that release's options", [version_text])

ignored := "Flink does not validate keys: one that no option reads is kept and never looked at, so this setting has no effect and the option it was meant for keeps its default"

deny contains f if {
	some u in input.flink.unknown_keys
	u.exact
	not elsewhere(u.key)
	f := result.warning(u, result.msg(
		sprintf("%s is not an option of %s, so Flink ignores it.", [u.key, hygiene.release]),
		sprintf(
			"%s (%s) is not an option of %s: %s (option list generated from Flink's sources, internal/model/flinkoptions*_gen.go). %s.%s",
			[u.key, hygiene.where(u.loc), version_text, known_text(u), ignored, suggestion(u)],
		),
	))
}

deny contains f if {
	some u in input.flink.unknown_keys
	not u.exact
	count(u.known_in) == 0
	not elsewhere(u.key)
	f := result.info(u, result.msg(
		sprintf("%s is not an option of any Flink release from %s, so Flink ignores it.", [u.key, trim_prefix(u.table, "Flink ")]),
		sprintf(
			"%s (%s) is not an option of any Flink release from %s (option list generated from Flink's sources, internal/model/flinkoptions*_gen.go). %s.%s %s",
			[u.key, hygiene.where(u.loc), trim_prefix(u.table, "Flink "), ignored, suggestion(u), inexact_note],
		),
	))
}
