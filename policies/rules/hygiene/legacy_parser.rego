# METADATA
# title: Flink's legacy flink-conf.yaml parser drops or misreads this line
# description: |
#   flink-conf.yaml is not read as YAML. Flink's legacy parser (used by Flink up to 1.20
#   whenever flink-conf.yaml exists, and by the 2.x migration script) cuts every line at its
#   first "#", splits it at the first ": " (colon and space) and keeps key and value as raw
#   text. Lines it cannot split are skipped with nothing but a WARN in the log: "key:value"
#   without a space, nested YAML ("execution:" then an indented "checkpointing:" block, whose
#   indented lines become top-level keys such as "interval"), a key without a value, a value
#   without a key. What it does read can differ from what YAML would read: quotes are kept as
#   part of the value, a "#" inside a value or URL cuts it, and a YAML list such as [a, b] is
#   one literal string. The finding is an error when the key concerned matters to checkpoints,
#   state or the HDFS client (for example a nested execution.checkpointing.interval leaves
#   checkpointing off), a warning otherwise. Write every key in full on one line as
#   "key: value", without quotes, with lists as a;b;c; where the intended key and value are
#   unambiguous the finding carries the fix.
# related_resources:
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-core/src/main/java/org/apache/flink/configuration/GlobalConfiguration.java
#     description: GlobalConfiguration.loadLegacyYAMLResource, the line parser of flink-conf.yaml
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-core/src/test/java/org/apache/flink/configuration/GlobalConfigurationTest.java
#     description: testConfigurationWithLegacyYAML, the lines the legacy parser skips or splits
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/deployment/config/
#     description: Flink configuration file, flink-conf.yaml versus config.yaml
# custom:
#   id: CKPT601
#   name: legacy-parser-drops-line
#   severity: error
#   fixable: false
package ckptlint.rules.hygiene.legacy_parser

import data.ckptlint.lib.hygiene
import data.ckptlint.lib.result

# The legacy parser's notices, on a release that reads flink-conf.yaml:
# every release before 2.0 (GlobalConfiguration.loadYAMLResource); Flink 2.x
# reads only config.yaml (CKPT603 reports the file).
notices := [n | some n in input.flink.notices; startswith(n.code, "legacy-")] if {
	not declared_2x
} else := []

declared_2x if {
	input.versions.flink.declared
	hygiene.at_least(2, 0)
}

# unread_note says that the release does not read a key at all (the key
# catalogue, input.flink.unread; CKPT604 reports the key itself).
# lost_headline is the headline of a line the parser skips: why, or that
# the release does not read the key anyway.
lost_headline(key, why) := sprintf("%q is not set by this line, but this release does not read that key anyway.", [result.short(key)]) if {
	input.flink.unread[key]
} else := sprintf("%q is not set: %s.", [result.short(key), why])

unread_note(key) := sprintf(" (%s, so writing it does nothing on this release)", [input.flink.unread[key]]) if {
	input.flink.unread[key]
} else := ""

# The WARN GlobalConfiguration.loadYAMLResource logs for a skipped line,
# per release: from 1.17 (FLINK-24679, which hid the line's text) it ends in
# "Line is not a key-value pair (missing space after ':'?)" and "Key or
# value was empty"; before, the same prefix is followed by the line itself
# (release-1.16.2; release-0.9.1 to 1.3 without the line number). A version
# that is not known is read as 1.18.
split_warn := "\"Error while trying to split key and value in configuration file <file>:<line>: Line is not a key-value pair (missing space after ':'?)\"" if {
	new_warn
} else := "\"Error while trying to split key and value in configuration file ...\" (with the line's text)"

empty_warn := "\"Error after splitting key and value in configuration file <file>:<line>: Key or value was empty\"" if {
	new_warn
} else := "\"Error after splitting key and value in configuration file ...\" (with the line's text)"

new_warn if hygiene.at_least(1, 17)

new_warn if not input.versions.flink.declared

# A nested-YAML notice either marks an indented "child: value" line that
# Flink reads as a top-level key (its key is the dotted key meant), or a
# skipped "parent:" header.
is_child(n) if {
	n.code == "legacy-nested-yaml"
	startswith(n.message, "Flink reads this as the top-level key")
}

headers := [h | some h in notices; h.code == "legacy-nested-yaml"; not is_child(h)]

children := [c | some c in notices; is_child(c)]

# A header is reported through the lines below it: its child entries, or a
# deeper header that is reported itself.
covered(h) if {
	some c in children
	startswith(c.key, concat("", [h.key, "."]))
}

covered(h) if {
	some h2 in headers
	startswith(h2.key, concat("", [h.key, "."]))
}

# in_block(n) is true for a skipped line inside the block of a reported
# header (e.g. the "- item" lines of a YAML block list): the header's
# finding covers it.
in_block(n) if {
	some h in headers
	not covered(h)
	h.loc.line < n.loc.line
	h.loc.col < n.loc.col
	not interrupted(h, n)
}

interrupted(h, n) if {
	some k
	e := input.flink.keys[k]
	e.loc.line > h.loc.line
	e.loc.line < n.loc.line
	e.loc.col <= h.loc.col
}

interrupted(h, n) if {
	some m in notices
	m.loc.line > h.loc.line
	m.loc.line < n.loc.line
	m.loc.col <= h.loc.col
}

level(key) := "error" if hygiene.relevant(key)

else := "warning"

# read_level is level for a key the release reads; a key it does not read
# at all (input.flink.unread) is only a warning: the line does nothing either way.
read_level(key) := "warning" if input.flink.unread[key]

else := level(key)

# effective(key) is the effective Flink value whose key is key.
effective(key) := v if {
	some sec, name
	not sec in hygiene.hadoop_sections
	v := input.effective[sec][name]
	v.key == key
}

# consequence says what Flink uses for a key whose line it lost.
consequence(key) := sprintf("that changes nothing on this release, though: %s", [input.flink.unread[key]]) if {
	input.flink.unread[key]
} else := "checkpointing stays off (execution.checkpointing.interval has no default)" if {
	key == "execution.checkpointing.interval"
	not input.effective.checkpointing.interval.set
} else := sprintf("Flink uses %s from %s instead", [v.display, hygiene.where(v.loc)]) if {
	v := effective(key)
	v.set
	v.loc
} else := sprintf("Flink uses the default %s instead", [v.display]) if {
	v := effective(key)
	v.source == "default"
} else := sprintf("%s stays unset", [key]) if {
	v := effective(key)
	v.source == "unset"
} else := "Flink runs as if the line were not there"

# fix_written sets the key and value a notice spells out ("write k: v"),
# when they are a plain Flink key and an unquoted value.
fix_written(n) := [result.set("flink", kv[0], kv[1])] if {
	kv := hygiene.split_kv(hygiene.suggested(n.message))
	kv[0] == n.key
	not input.flink.unread[kv[0]]
	hygiene.flink_key_like(kv[0])
	not startswith(kv[1], "\"")
	not startswith(kv[1], "'")
} else := []

# set_hint says how to write the line Flink would read; nothing for a key
# the release does not read at all.
set_hint(n) := "" if {
	input.flink.unread[n.key]
} else := sprintf(". To set it, %s", [write_hint(n)])

write_hint(n) := sprintf("write %q", [s]) if {
	s := hygiene.suggested(n.message)
} else := "put a space after the colon"

# A lost line whose key another line sets is dead rather than missing: a
# warning, and no fix that would override the value Flink uses.
set_elsewhere(key) if effective(key).set

lost_level(key) := "warning" if set_elsewhere(key)

else := "warning" if input.flink.unread[key]

else := level(key)

lost_fix(n) := [] if set_elsewhere(n.key)

else := fix_written(n)

# "key:value": skipped.
deny contains f if {
	some n in notices
	n.code == "legacy-missing-space"
	msg := result.msg(
		lost_headline(n.key, "Flink's legacy parser skips a line with no \": \" after the key"),
		sprintf(
			"%q is not set: Flink's legacy flink-conf.yaml parser splits a line at the first \": \" (colon and space), finds none here and skips the line with only WARN %s; %s%s",
			[n.key, split_warn, consequence(n.key), set_hint(n)],
		),
	)
	f := hygiene.emit(n, msg, lost_fix(n), lost_level(n.key))
}

# An indented "child: value" under a nested-YAML header.
deny contains f if {
	some n in children
	not in_block(n)
	msg := result.msg(
		lost_headline(n.key, "Flink's legacy flink-conf.yaml parser does not read nested YAML"),
		sprintf(
			"%q is not set: Flink's legacy flink-conf.yaml parser does not read nested YAML, skips the lines of its parent keys above (they have no \": \") and reads this line as the top-level key %s; %s%s",
			[n.key, top_level(n), consequence(n.key), set_hint(n)],
		),
	)
	f := hygiene.emit(n, msg, lost_fix(n), lost_level(n.key))
}

top_level(n) := sprintf("%q", [m[0][1]]) if {
	m := regex.find_all_string_submatch_n(`top-level key "([^"]*)"`, n.message, 1)
	count(m) == 1
} else := "of its last part"

# A nested-YAML header with no key read below it (e.g. a block list).
deny contains f if {
	some h in headers
	not covered(h)
	msg := result.msg(
		lost_headline(h.key, "Flink's legacy parser skips this line and the indented lines below it"),
		sprintf(
			"%q is not set: Flink's legacy flink-conf.yaml parser does not read nested YAML; it skips this line (no \": \" on it) and every indented line below it that has no \": \", such as the items of a block list; %s. Write the key in full on one line, a list as a;b;c",
			[h.key, consequence(h.key)],
		),
	)
	f := hygiene.emit(h, msg, [], level(h.key))
}

# A value in quotes: Flink keeps the quotes.
deny contains f if {
	some n in notices
	n.code == "legacy-quoted-value"
	e := input.flink.keys[n.key]
	e.loc.line == n.loc.line
	not script_unquoted(n.key, e.value)
	msg := result.msg(
		sprintf("Flink's legacy parser keeps quotes, so %s is set with its quote characters.", [result.short(n.key)]),
		sprintf(
			"Flink's legacy flink-conf.yaml parser keeps quotes: %q is set to %s, quote characters included%s; remove the quotes%s",
			[n.key, e.value, rejected(n.loc), unread_note(n.key)],
		),
	)
	f := hygiene.emit(n, msg, unquote_fix(n.key, e.value), read_level(n.key))
}

rejected(loc) := sprintf(", which Flink cannot read (%s)", [v.error]) if {
	some v in effective_at(loc)
	v.error
} else := ""

effective_at(loc) := {v |
	some sec, name
	not sec in hygiene.hadoop_sections
	v := input.effective[sec][name]
	v.loc.file == loc.file
	v.loc.line == loc.line
}

# unquote_fix removes the quotes of a key the release reads.
unquote_fix(key, value) := [] if {
	input.flink.unread[key]
} else := fix_unquote(key, value)

fix_unquote(key, value) := [result.set("flink", key, s)] if {
	s := hygiene.unquoted(value)
	s != ""
} else := []

# A key in quotes: it matches no option.
deny contains f if {
	some n in notices
	n.code == "legacy-quoted-key"
	k := key_name(n.key)
	msg := result.msg(
		sprintf("Flink's legacy parser keeps the quotes of the key, so Flink does not set %s.", [result.short(k)]),
		sprintf("%s; Flink does not set %s%s", [n.message, k, unread_note(k)]),
	)
	f := hygiene.emit(n, msg, fix_quoted_key(n.key, k), read_level(k))
}

key_name(written) := k if {
	k := hygiene.unquoted(written)
} else := written

fix_quoted_key(written, key) := [result.set("flink", key, input.flink.keys[written].value)] if {
	hygiene.flink_key_like(key)
	not input.flink.unread[key]
	v := input.flink.keys[written].value
	not startswith(v, "\"")
	not startswith(v, "'")
} else := []

# A "#" that cuts a value (inside quotes or not after a space).
deny contains f if {
	some n in notices
	n.code == "legacy-comment-cut"
	msg := result.msg(
		"Flink's legacy parser cuts the line at its first \"#\", so the rest of this value is dropped.",
		sprintf(
			"%s; flink-conf.yaml cannot hold a \"#\" in a value: choose a value without \"#\", or move to config.yaml (read from Flink 1.19), where \"#\" starts a comment only after a space",
			[n.message],
		),
	)
	f := hygiene.emit(n, msg, [], cut_level(n))
}

cut_level(n) := "error" if {
	n.key != ""
	hygiene.relevant(n.key)
} else := "warning"

# A YAML flow list or map, read literally.
deny contains f if {
	some n in notices
	n.code == "legacy-yaml-list"
	f := hygiene.emit(n, result.msg(sprintf("Flink's legacy parser reads the value of %s literally, not as a YAML list or map.", [result.short(n.key)]), n.message), [], level(n.key))
}

# Lines skipped with only a WARN in the log.
deny contains f if {
	some n in notices
	n.code == "legacy-empty-value"
	not in_block(n)
	msg := result.msg(
		lost_headline(n.key, "it has no value, so Flink's legacy parser skips the line"),
		sprintf(
			"%q has no value: Flink's legacy parser finds no \": \" on the line and skips it with only WARN %s; %s. Give it a value or delete the line",
			[n.key, split_warn, consequence(n.key)],
		),
	)
	f := hygiene.emit(n, msg, [], "warning")
}

deny contains f if {
	some n in notices
	n.code == "legacy-no-separator"
	not in_block(n)
	msg := result.msg(
		"This line has no \": \", so Flink's legacy parser skips it and sets nothing.",
		sprintf("%s (WARN %s), so whatever it was meant to set is not set; write \"key: value\" or comment it out with \"#\"", [n.message, split_warn]),
	)
	f := hygiene.emit(n, msg, [], "warning")
}

deny contains f if {
	some n in notices
	n.code == "legacy-empty-key"
	not in_block(n)
	msg := result.msg(
		"This line has an empty key, so Flink's legacy parser skips it.",
		sprintf("%s (WARN %s); write \"key: value\" or delete the line", [n.message, empty_warn]),
	)
	f := hygiene.emit(n, msg, [], "warning")
}

# A key set twice: the earlier line does nothing.
deny contains f if {
	some n in notices
	n.code == "legacy-duplicate-key"
	msg := result.msg(
		sprintf("%s is set again later in the file, so Flink ignores this line.", [result.short(n.key)]),
		sprintf("%s; delete the line that does nothing", [n.message]),
	)
	f := hygiene.emit(n, msg, [], "warning")
}

# A byte order mark glued to the first key.
deny contains f if {
	some n in notices
	n.code == "legacy-bom"
	k := trim_prefix(n.key, "\ufeff")
	msg := result.msg(
		"A byte order mark starts the file and becomes part of the first key, so that key matches no option.",
		sprintf("%s, which matches no option; save the file as UTF-8 without a byte order mark", [n.message]),
	)
	f := hygiene.emit(n, msg, [], bom_level(k))
}

bom_level(k) := "error" if {
	k != ""
	hygiene.relevant(k)
} else := "warning"

deny contains f if {
	some n in notices
	n.code == "legacy-invalid-utf8"
	f := hygiene.emit(n, result.msg("This line holds bytes that are not UTF-8, and Flink reads each of them as U+FFFD.", n.message), [], "warning")
}

# The JVM options in double quotes: Flink's start scripts, not the Java
# parser, read env.java.opts, and whether the quotes survive depends on the
# release. bin/config.sh up to 1.18 removes one leading and one trailing
# double quote from the value (sed -e 's/^"//' -e 's/"$//',
# https://github.com/apache/flink/blob/release-1.18/flink-dist/src/main/flink-bin/bin/config.sh);
# from 1.19 (FLINK-33221) the default JVM options are prepended before that
# strip, so the value's leading quote stays and reaches the JVM.
java_opts_keys := {"env.java.opts", "env.java.opts.all"}

script_unquoted(key, value) if {
	key in java_opts_keys
	startswith(value, "\"")
	endswith(value, "\"")
}

java_opts_why := "Flink's start scripts read this key: bin/config.sh of Flink 1.18 and older removes one pair of surrounding double quotes, so the JVM gets the options without them there; from Flink 1.19 (FLINK-33221) the default JVM options are put in front before that step, so the leading quote stays and reaches the JVM"

deny contains f if {
	some n in notices
	n.code == "legacy-quoted-value"
	e := input.flink.keys[n.key]
	e.loc.line == n.loc.line
	script_unquoted(n.key, e.value)
	msg := result.msg(
		sprintf("%s is in double quotes, which only some releases' start scripts strip, so the JVM options differ by release.", [n.key]),
		sprintf(
			"%s is set to %s in double quotes on %s. %s. Remove the quotes: the value then means the same on every release",
			[n.key, e.value, hygiene.version, java_opts_why],
		),
	)
	f := result.versioned(hygiene.emit(n, msg, [result.needs_version(op) | some op in fix_unquote(n.key, e.value)], java_opts_level))
}

# Harmless up to 1.18 (the scripts strip the quotes), wrong from 1.19.
java_opts_level := "warning" if {
	hygiene.at_least(1, 19)
} else := "info"
