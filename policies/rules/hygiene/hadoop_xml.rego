# METADATA
# title: Hadoop XML that the client reads differently than written
# description: |
#   Hadoop's Configuration reads core-site.xml and hdfs-site.xml with rules that are easy to miss.
#   A key marked <final>true</final> cannot be changed by a later definition in the files loaded
#   after it (logged as "an attempt to override final parameter: <key>;  Ignoring."), and final
#   means exactly the text true: TRUE or " true" lock nothing. When a file sets a key twice, the last definition wins and the earlier
#   one does nothing. Hadoop 2.9.0-2.10.0, 3.0.x, 3.1.0-3.1.3 and 3.2.0-3.2.1 parse the XML with
#   StAX and append only character events to a value, so on those releases a value written as a CDATA
#   section is dropped and the key keeps its earlier or default value (HADOOP-16749, in 2.10.1,
#   3.1.4, 3.2.2 and 3.3.0, made later releases read it).
#   ckptlint never reads an external (SYSTEM or PUBLIC) entity: such a value is unknown. A final key with an empty value is locked to no value. A ${var} expansion deeper than 20
#   steps throws on every read of the key. Deprecated keys such as dfs.block.size still work:
#   Hadoop stores their value under the new key (dfs.blocksize) and logs "<old> is deprecated.
#   Instead, use <new>". Findings on keys that Flink's HDFS client or the checkpoint rules read
#   (dfs.blocksize, replication, fs.defaultFS, dfs.client.*, HA nameservices, NameNode limits,
#   DataNode scanner settings) are errors when the written value silently does not apply and
#   warnings otherwise; deprecated keys are info, with a rename as fix. An xi:include ckptlint does
#   not read (a URL, a file outside the repository, not a regular file) is a warning: Hadoop loads
#   it at run time, but no rule sees its values.
# related_resources:
#   - ref: https://issues.apache.org/jira/browse/HADOOP-16749
#     description: "HADOOP-16749: Configuration parsing of CDATA values are blank (fixed in 2.10.1, 3.1.4, 3.2.2, 3.3.0 per the release changelogs)"
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-common-project/hadoop-common/src/main/java/org/apache/hadoop/conf/Configuration.java
#     description: Configuration.loadResource (StAX parsing, final, deprecation) and substitution depth
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-common-project/hadoop-common/src/test/java/org/apache/hadoop/conf/TestConfiguration.java
#     description: testFinalWarnings, testFinalParam and the other Configuration tests
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs-client/src/main/java/org/apache/hadoop/hdfs/HdfsConfiguration.java
#     description: HdfsConfiguration.addDeprecatedKeys (dfs.block.size -> dfs.blocksize)
# custom:
#   id: CKPT607
#   name: hadoop-xml-hygiene
#   severity: error
#   fixable: false
package ckptlint.rules.hygiene.hadoop_xml

import data.ckptlint.lib.hygiene
import data.ckptlint.lib.result

# Every Hadoop file with its fix target, client files first; a cluster
# hdfs-site.xml that is also a client file counts once.
files contains [c, target] if {
	some c in input.hadoop.client
	target := client_target(c.format)
}

files contains [input.hadoop.cluster_hdfs_site, "hdfs-cluster"] if {
	cl := input.hadoop.cluster_hdfs_site
	not cl.file in {c.file | some c in input.hadoop.client}
}

client_target("core-site") := "core-client"

client_target("hdfs-site") := "hdfs-client"

# notes are [notice, target, file object] triples.
notes contains [n, pair[1], pair[0]] if {
	some pair in files
	some n in pair[0].notices
}

level(key, hard) := "error" if {
	hard
	hygiene.hadoop_relevant(key)
} else := "warning"

# A later definition of a final key: ignored.
deny contains f if {
	some note in notes
	[n, _, file] := note
	n.code == "xml-final-override"
	msg := result.msg(
		sprintf("%s is final in an earlier definition, so Hadoop ignores this one.", [result.short(n.key)]),
		sprintf(
			"%s is final in an earlier definition, so Hadoop ignores this one (it logs \"%s\") and %s keeps %s; remove <final>true</final> from the earlier definition or delete this one",
			[n.key, trim_space(n.message), n.key, kept(file, n.key)],
		),
	)
	f := hygiene.emit(n, msg, [], level(n.key, true))
}

# A later definition in the same file of a key made final without a value:
# ignored, and Hadoop logs nothing (Configuration.checkForOverride warns only
# about a key that holds a value).
deny contains f if {
	some note in notes
	n := note[0]
	n.code == "xml-final-empty-override"
	msg := result.msg(
		sprintf("%s is final without a value in an earlier definition, so Hadoop ignores this one.", [result.short(n.key)]),
		sprintf(
			"%s (Configuration.loadProperty locks a final key even without a value; only flink.hadoop.%s, which Flink applies with Configuration.set(), still changes it); give the final definition a value or remove its <final>, or delete this one",
			[n.message, n.key],
		),
	)
	f := hygiene.emit(n, msg, [], level(n.key, true))
}

kept(file, key) := sprintf("%q (%s)", [file.keys[key].value, hygiene.where(file.keys[key].loc)]) if {
	file.keys[key].final
} else := "the final value"

# A later resource (another file Flink's HDFS client loads) redefines a key
# an earlier resource made final: Hadoop ignores it. CKPT108 already reports
# a dfs.blocksize locked with a value.
deny contains f if {
	some note in notes
	n := note[0]
	n.code == "xml-final-override-resource"
	n.key != "dfs.blocksize"
	msg := result.msg(
		sprintf("%s is final in a resource loaded earlier, so Hadoop ignores this definition.", [result.short(n.key)]),
		sprintf(
			"%s is final in a resource Flink's HDFS client loads earlier, so Hadoop ignores this definition (it logs \"%s\"); remove <final>true</final> there or delete this one",
			[n.key, trim_space(n.message)],
		),
	)
	f := hygiene.emit(n, msg, [], level(n.key, true))
}

# The same, when the earlier final definition has no value: Hadoop ignores
# this one silently and the key has no value at all.
deny contains f if {
	some note in notes
	n := note[0]
	n.code == "xml-final-empty-resource"
	msg := result.msg(
		sprintf("%s is final without a value in a resource loaded earlier, so this value never applies.", [result.short(n.key)]),
		sprintf(
			"%s: Configuration.loadProperty locks a final key even without a value, so this value never applies (only flink.hadoop.%s, which Flink applies with Configuration.set(), still changes it); give the final definition a value or remove its <final>",
			[n.message, n.key],
		),
	)
	f := hygiene.emit(n, msg, [], level(n.key, true))
}

# <final> that is not exactly "true".
deny contains f if {
	some note in notes
	n := note[0]
	n.code == "xml-final-not-true"
	msg := result.msg(
		sprintf("%s is not locked: Hadoop makes a key final only when <final> is exactly true.", [result.short(n.key)]),
		sprintf(
			"%s is not locked: Hadoop makes a key final only when <final> is exactly the text true (%s), so a file loaded later can still change it; write <final>true</final> to lock it against later files",
			[n.key, final_text(n)],
		),
	)
	f := hygiene.emit(n, msg, [], "warning")
}

final_text(n) := sprintf("this one says %s", [m[0][1]]) if {
	m := regex.find_all_string_submatch_n(`^final is ("[^"]*")`, n.message, 1)
	count(m) == 1
} else := "case and spaces count"

# The same key twice in one file: the earlier one does nothing. When both
# hold the same value (internal/format/hadoopxml marks the notice "the same value
# as this definition") nothing changes whichever wins: info, not warning.
deny contains f if {
	some note in notes
	n := note[0]
	n.code == "xml-duplicate-key"
	hygiene.hadoop_relevant(n.key)
	not same_value(n)
	msg := result.msg(
		sprintf("%s is defined more than once in this file, and Hadoop ignores this definition.", [result.short(n.key)]),
		sprintf("%s and ignores this definition; delete the one you do not mean", [n.message]),
	)
	f := hygiene.emit(n, msg, [], "warning")
}

deny contains f if {
	some note in notes
	n := note[0]
	n.code == "xml-duplicate-key"
	hygiene.hadoop_relevant(n.key)
	same_value(n)
	msg := result.msg(
		sprintf("%s is defined twice with the same value, so this definition changes nothing.", [result.short(n.key)]),
		sprintf("%s, so this definition changes nothing; delete one of the two", [n.message]),
	)
	f := hygiene.emit(n, msg, [], "info")
}

same_value(n) if endswith(n.message, "(the same value as this definition)")

# CDATA on a declared Hadoop release that drops it (2.9.0-2.10.0, 3.0.x,
# 3.1.0-3.1.3, 3.2.0-3.2.1): ckptlint read the file as that release does.
deny contains f if {
	some note in notes
	n := note[0]
	n.code == "xml-cdata-ignored"
	msg := result.msg(
		sprintf("This Hadoop release ignores the CDATA value of %s, so it keeps its earlier or default value.", [result.short(n.key)]),
		sprintf(
			"%s: its Configuration.Parser appends only character events, never a CDATA section (HADOOP-16749, fixed in 2.10.1, 3.1.4, 3.2.2 and 3.3.0), so %s keeps its earlier or default value on %s. Write the text without CDATA (escape < and & as &lt; and &amp;) or upgrade",
			[n.message, n.key, hadoop_text],
		),
	)
	f := hygiene.emit(n, msg, [], level(n.key, true))
}

# hadoop_text names the Hadoop version with its source (docs/versions.md).
hadoop_text := input.versions.hadoop.text if {
	is_string(input.versions.hadoop.text)
} else := sprintf("Hadoop %s", [input.versions.hadoop.value])

# CDATA read as text, as current releases do, while the exact Hadoop release
# is not known: at most info, saying what declaring it changes.
deny contains f if {
	some note in notes
	n := note[0]
	n.code == "xml-cdata"
	cdata_uncertain
	msg := result.msg(
		sprintf("The value of %s is in CDATA, which Hadoop releases without HADOOP-16749 ignore.", [result.short(n.key)]),
		sprintf(
			"%s. ckptlint reads the value as current releases do; %s",
			[n.message, cdata_declare],
		),
	)
	f := hygiene.emit(n, msg, [], "info")
}

cdata_declare := "declare hadoop_version (with the patch level) in .ckptlint.hcl: on a release that ignores CDATA, ckptlint reads the file that way and reports what changes" if {
	not input.versions.hadoop.declared
} else := sprintf("Hadoop %s is declared without the patch level, which decides this on the %d.%d line: declare it as %d.%d.N", [
	input.versions.hadoop.value, input.versions.hadoop.major, input.versions.hadoop.minor,
	input.versions.hadoop.major, input.versions.hadoop.minor,
])

# The exact release decides when it is unknown, a lower bound below 3.3, or a
# 2.10/3.1/3.2 version without the patch level.
cdata_uncertain if not input.versions.hadoop.major

cdata_uncertain if {
	not input.versions.hadoop.declared
	[input.versions.hadoop.major, input.versions.hadoop.minor] < [3, 3]
}

cdata_uncertain if {
	input.versions.hadoop.declared
	[input.versions.hadoop.major, input.versions.hadoop.minor] in {[2, 10], [3, 1], [3, 2]}
	count(split(input.versions.hadoop.value, ".")) < 3
}

# An external (SYSTEM or PUBLIC) entity: never read, the value is unknown.
deny contains f if {
	some note in notes
	n := note[0]
	n.code == "xml-external-entity"
	msg := result.msg(
		sprintf("The value of %s comes from an external entity ckptlint does not read, so rules use its default.", [result.short(n.key)]),
		sprintf(
			"%s; rules that need %s use its default instead. Write the value into the file (an internal <!ENTITY name \"value\"> is read)",
			[n.message, n.key],
		),
	)
	f := hygiene.emit(n, msg, [], external_level(n.key))
}

# A DOCTYPE using parameter entities: never expanded nor fetched.
deny contains f if {
	some note in notes
	n := note[0]
	n.code == "xml-parameter-entity"
	msg := result.msg(
		"This file declares parameter entities ckptlint does not expand, so the values they define are unknown to it.",
		sprintf("%s. Hadoop's parser would expand them; write the declarations into the DOCTYPE or the values into the file", [n.message]),
	)
	f := hygiene.emit(n, msg, [], "info")
}

external_level(key) := "warning" if {
	hygiene.hadoop_relevant(key)
} else := "info"

# A final key without a value: locked to nothing.
deny contains f if {
	some note in notes
	n := note[0]
	n.code == "xml-empty-value"
	contains(n.message, "is final with no value")
	msg := result.msg(
		sprintf("%s is final with no value, so its default applies and later files cannot change it.", [result.short(n.key)]),
		sprintf(
			"%s is final with no value: Hadoop leaves it without a value (its default applies) and ignores every later definition of it in the files loaded after this one (only a flink.hadoop.%s in the Flink configuration, which Flink applies with Configuration.set(), still changes it); give it a value or remove <final>",
			[n.key, n.key],
		),
	)
	f := hygiene.emit(n, msg, [], level(n.key, true))
}

# ${var} expansion too deep: every read throws.
deny contains f if {
	some note in notes
	n := note[0]
	n.code == "xml-substitution-depth"
	msg := result.msg(
		sprintf("%s nests ${...} references over 20 levels deep, so Hadoop throws on every read of it.", [result.short(n.key)]),
		sprintf(
			"%s: Hadoop expands at most 20 levels of ${...} and throws IllegalStateException \"Variable substitution depth too large: 20 ...\" on every read of %s; remove the reference cycle",
			[n.message, n.key],
		),
	)
	f := hygiene.emit(n, msg, [], level(n.key, true))
}

# An attribute default of the internal DTD that Hadoop's parser applies to
# every <property> (or xi:include) lacking the attribute.
deny contains f if {
	some note in notes
	n := note[0]
	n.code == "xml-dtd-attribute-default"
	msg := result.msg(
		"The DTD gives attributes defaults, so Hadoop reads more per property than the file shows.",
		sprintf("%s, so what the file says per property is not all Hadoop reads; write the attribute on the elements that need it and drop the default", [n.message]),
	)
	f := hygiene.emit(n, msg, [], "info")
}

# A root element other than <configuration>: Hadoop reads the properties
# inside it anyway (Configuration.Parser has no root check).
deny contains f if {
	some note in notes
	n := note[0]
	n.code == "xml-root-element"
	msg := result.msg(
		"The root element of this file is not <configuration>, the name every Hadoop tool and editor expects.",
		sprintf("%s; rename the root element to <configuration>, the name every Hadoop tool and editor expects", [n.message]),
	)
	f := hygiene.emit(n, msg, [], "info")
}

# A <property> without a name: dropped.
deny contains f if {
	some note in notes
	n := note[0]
	n.code == "xml-property-no-name"
	f := hygiene.emit(n, result.msg("A <property> without a <name> sets nothing.", sprintf("%s, so whatever it was meant to set is not set", [n.message])), [], "warning")
}

# An xi:include ckptlint did not read (a URL, a file outside the
# repository, not a regular file): Hadoop reads it at run time, the rules
# cannot. The notice names the href and why, never the file's content.
deny contains f if {
	some note in notes
	n := note[0]
	n.code == "xml-include-not-followed"
	msg := result.msg(
		"An xi:include here is not followed, so no rule judges the values Hadoop reads from it.",
		sprintf("%s; the values Hadoop reads from it are unknown to ckptlint, so no rule judges them", [n.message]),
	)
	f := hygiene.emit(n, msg, [], "warning")
}

# A deprecated key: still works under its new name.
deny contains f if {
	some note in notes
	[n, target, file] := note
	n.code == "xml-deprecated-key"
	hygiene.hadoop_relevant(n.key)
	old := split(n.message, " is deprecated. Instead, use ")[0]
	old != n.message
	msg := result.msg(
		sprintf("%s is deprecated: Hadoop stores its value under %s.", [result.short(old), n.key]),
		sprintf(
			"%s is a deprecated key: Hadoop stores its value under %s and logs \"%s\"; %s",
			[old, n.key, n.message, rename_advice(file, n.key)],
		),
	)
	f := hygiene.emit(n, msg, rename_ops(file, target, old, n.key), "info")
}

# The file also defines the new key under its own name: a rename would
# collide, the duplicate finding says which definition wins.
both_spellings(file, key) if {
	some m in file.notices
	m.key == key
	m.code in {"xml-duplicate-key", "xml-final-override"}
}

rename_advice(file, key) := sprintf("the file also sets %s, so keep one definition under that name", [key]) if {
	both_spellings(file, key)
} else := sprintf("rename it to %s", [key]) if {
	new_names_read
} else := sprintf("rename it to %s once the cluster runs Hadoop 0.23/2.0 or later: Hadoop 1.x reads only the old name (the new names and their deprecation table came with 0.23, hadoop-common DeprecatedProperties), so fix renames it only when the Hadoop version is declared (--hadoop-version, hadoop_version in .ckptlint.hcl) or pinned in the repository (docs/versions.md)", [key])

# The Hadoop version is known (declared or pinned) and reads the new names:
# 2.0 or later, or 0.23 (1.x is the older 0.20.205 line and does not).
new_names_read if {
	input.versions.hadoop.declared
	input.versions.hadoop.major >= 2
}

new_names_read if {
	input.versions.hadoop.declared
	input.versions.hadoop.major == 0
	input.versions.hadoop.minor >= 23
}

rename_ops(file, target, old, key) := [] if {
	both_spellings(file, key)
} else := [result.rename(target, old, key)]
