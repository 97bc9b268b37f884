package ckptlint.rules.hygiene.hadoop_xml_test

import data.ckptlint.rules.hygiene.hadoop_xml

loc(line) := {"file": "conf/hdfs-site.xml", "line": line, "col": 11}

inp(notices, hadoop_version) := {
	"versions": {"flink": {"value": "1.20", "major": 1, "minor": 20, "declared": true}, "hadoop": hadoop_version},
	"hadoop": {"client": [{
		"file": "conf/hdfs-site.xml", "format": "hdfs-site", "via": "same-dir", "notices": notices,
		"keys": {"dfs.replication": {"value": "2", "final": true, "loc": loc(4)}},
	}]},
	"effective": {"hdfs_client": {
		"blocksize": {"key": "dfs.blocksize"},
		"replication": {"key": "dfs.replication"},
	}},
}

h3 := {"value": "3.3.6", "major": 3, "minor": 3, "declared": true}

unknown := {"source": "unknown", "declared": false}

test_override_of_a_final_client_key_is_an_error if {
	n := {"code": "xml-final-override", "key": "dfs.replication", "loc": loc(9), "message": "conf/hdfs-site.xml:an attempt to override final parameter: dfs.replication;  Ignoring."}
	some f in hadoop_xml.deny with input as inp([n], unknown)
	f.severity == "error"
	contains(f.detail, "keeps \"2\" (conf/hdfs-site.xml:4)")
}

test_redefinition_of_a_final_key_without_value_quotes_no_warning if {
	n := {"code": "xml-final-empty-override", "key": "dfs.replication", "loc": loc(9), "message": "\"dfs.replication\" is final with no value on line 4, so Hadoop ignores this definition without a warning and \"dfs.replication\" keeps no value"}
	some f in hadoop_xml.deny with input as inp([n], unknown)
	f.severity == "error"
	contains(f.detail, "without a warning")
	not contains(f.detail, "an attempt to override")
}

test_another_root_element_is_info if {
	n := {"code": "xml-root-element", "key": "", "loc": loc(2), "message": "root element is <conf>, not <configuration>; Hadoop reads the <property> elements inside it all the same"}
	some f in hadoop_xml.deny with input as inp([n], unknown)
	f.severity == "info"
	contains(f.detail, "reads the <property> elements")
}

test_dtd_attribute_default_is_info if {
	n := {"code": "xml-dtd-attribute-default", "key": "", "loc": loc(2), "message": "the DOCTYPE gives <property> the default final=\"true\" (<!ATTLIST>): Hadoop's parser adds it to every <property> that does not set final itself"}
	some f in hadoop_xml.deny with input as inp([n], unknown)
	f.severity == "info"
	contains(f.detail, "adds it to every <property>")
}

h321 := {"value": "3.2.1", "major": 3, "minor": 2, "patch": 1, "declared": true}

h32 := {"value": "3.2", "major": 3, "minor": 2, "declared": true}

cdata_ignored := {"code": "xml-cdata-ignored", "key": "dfs.blocksize", "loc": loc(14), "message": "Hadoop 2.9.0-2.10.0, 3.0.x, 3.1.0-3.1.3 and 3.2.0-3.2.1 ignore CDATA sections in <value>: \"dfs.blocksize\" reads as no value"}

cdata_read := {"code": "xml-cdata", "key": "dfs.blocksize", "loc": loc(14), "message": "\"dfs.blocksize\" reads as \"1m\" with CDATA"}

test_cdata_on_a_declared_release_that_drops_it_is_an_error if {
	some f in hadoop_xml.deny with input as inp([cdata_ignored], h321)
	f.severity == "error"
	contains(f.detail, "on Hadoop 3.2.1")
}

test_cdata_without_a_hadoop_version_is_info if {
	some f in hadoop_xml.deny with input as inp([cdata_read], unknown)
	f.severity == "info"
	contains(f.detail, "declare hadoop_version")
}

test_cdata_without_the_patch_level_is_info if {
	some f in hadoop_xml.deny with input as inp([cdata_read], h32)
	f.severity == "info"
	contains(f.detail, "declare it as 3.2.N")
}

test_cdata_on_a_release_that_reads_it_is_silent if {
	count(hadoop_xml.deny) == 0 with input as inp([cdata_read], h3)
}

test_external_entity_on_a_client_key_is_a_warning if {
	n := {"code": "xml-external-entity", "key": "dfs.blocksize", "loc": loc(3), "message": "\"dfs.blocksize\": ckptlint does not resolve external entities; Hadoop would read file:///x, so its value is unknown"}
	some f in hadoop_xml.deny with input as inp([n], unknown)
	f.severity == "warning"
	contains(f.detail, "Hadoop would read file:///x")
}

test_final_empty_in_an_earlier_resource_is_an_error if {
	n := {"code": "xml-final-empty-resource", "key": "dfs.blocksize", "loc": loc(3), "message": "dfs.blocksize is final with no value in conf/core-site.xml:5, loaded earlier; Hadoop ignores this definition"}
	some f in hadoop_xml.deny with input as inp([n], unknown)
	f.severity == "error"
	contains(f.detail, "conf/core-site.xml:5")
}

test_override_across_resources_names_both if {
	n := {"code": "xml-final-override-resource", "key": "dfs.replication", "loc": loc(3), "message": "conf/hdfs-site.xml:an attempt to override final parameter: dfs.replication;  Ignoring. (final in conf/core-site.xml:5, which holds \"2\")"}
	some f in hadoop_xml.deny with input as inp([n], unknown)
	f.severity == "error"
	contains(f.detail, "conf/core-site.xml:5")
	f.loc.file == "conf/hdfs-site.xml"
}

test_deprecated_client_key_is_info_with_rename if {
	n := {"code": "xml-deprecated-key", "key": "dfs.blocksize", "loc": loc(22), "message": "dfs.block.size is deprecated. Instead, use dfs.blocksize"}
	some f in hadoop_xml.deny with input as inp([n], unknown)
	f.severity == "info"
	f.fix == [{"op": "rename", "target": "hdfs-client", "key": "dfs.block.size", "new_key": "dfs.blocksize"}]
}

test_keys_flink_does_not_read_are_left_alone if {
	notices := [
		{"code": "xml-deprecated-key", "key": "dfs.namenode.name.dir", "loc": loc(22), "message": "dfs.name.dir is deprecated. Instead, use dfs.namenode.name.dir"},
		{"code": "xml-duplicate-key", "key": "dfs.namenode.handler.count", "loc": loc(26), "message": "\"dfs.namenode.handler.count\" is set again on line 30; Hadoop uses the later value \"20\""},
		{"code": "xml-empty-value", "key": "hadoop.security.authorization", "loc": loc(40), "message": "\"hadoop.security.authorization\" has no value here (empty or missing <value>); Hadoop ignores this definition"},
	]
	count(hadoop_xml.deny) == 0 with input as inp(notices, unknown)
}

test_cluster_file_that_is_also_a_client_file_counts_once if {
	n := {"code": "xml-final-not-true", "key": "dfs.replication", "loc": loc(6), "message": "final is \"TRUE\", not exactly \"true\"; Hadoop does not make \"dfs.replication\" final"}
	i := json.patch(inp([n], unknown), [{"op": "add", "path": "/hadoop/cluster_hdfs_site", "value": {"file": "conf/hdfs-site.xml", "notices": [n]}}])
	findings := hadoop_xml.deny with input as i
	count(findings) == 1
	some f in findings
	contains(f.detail, "this one says \"TRUE\"")
}

test_deprecated_key_next_to_its_new_name_gets_no_rename if {
	notices := [
		{"code": "xml-duplicate-key", "key": "fs.defaultFS", "loc": loc(509), "message": "\"fs.defaultFS\" is set again on line 519; Hadoop uses the later value \"file:///\""},
		{"code": "xml-deprecated-key", "key": "fs.defaultFS", "loc": loc(519), "message": "fs.default.name is deprecated. Instead, use fs.defaultFS"},
	]
	findings := hadoop_xml.deny with input as inp(notices, unknown)
	count(findings) == 2
	some f in findings
	f.severity == "info"
	contains(f.detail, "the file also sets fs.defaultFS")
	not f.fix
}

test_include_not_followed_is_a_warning_naming_the_href if {
	n := {"code": "xml-include-not-followed", "key": "", "loc": loc(3), "message": "xi:include of \"/home/runner/.git-credentials\" not followed: it lies outside the repository"}
	some f in hadoop_xml.deny with input as inp([n], unknown)
	f.severity == "warning"
	contains(f.detail, "/home/runner/.git-credentials")
	contains(f.detail, "unknown to ckptlint")
}

test_parameter_entity_is_info if {
	n := {"code": "xml-parameter-entity", "key": "", "loc": loc(2), "message": "the DOCTYPE uses parameter entities %p; (Hadoop would read http://h/x.dtd); ckptlint does not resolve external entities, so declarations they hold are unknown to it"}
	some f in hadoop_xml.deny with input as inp([n], unknown)
	f.severity == "info"
	contains(f.detail, "Hadoop would read http://h/x.dtd")
}

test_duplicate_with_the_same_value_is_info if {
	same := {"code": "xml-duplicate-key", "key": "fs.defaultFS", "loc": loc(509), "message": "\"fs.defaultFS\" is set again on line 519; Hadoop uses the later value \"file:///\" (the same value as this definition)"}
	some f in hadoop_xml.deny with input as inp([same], unknown)
	f.severity == "info"
	contains(f.detail, "changes nothing")
	differ := {"code": "xml-duplicate-key", "key": "fs.defaultFS", "loc": loc(509), "message": "\"fs.defaultFS\" is set again on line 519; Hadoop uses the later value \"file:///\""}
	some g in hadoop_xml.deny with input as inp([differ], unknown)
	g.severity == "warning"
}

test_deprecated_key_rename_waits_for_a_hadoop_version_that_reads_the_new_name if {
	n := {"code": "xml-deprecated-key", "key": "fs.defaultFS", "loc": loc(21), "message": "fs.default.name is deprecated. Instead, use fs.defaultFS"}
	some f in hadoop_xml.deny with input as inp([n], unknown)
	contains(f.detail, "Hadoop 1.x reads only the old name")
	f.fix[0].op == "rename"
	some g in hadoop_xml.deny with input as inp([n], {"value": "3.3.6", "major": 3, "minor": 3, "declared": true})
	not contains(g.detail, "Hadoop 1.x")
	endswith(g.detail, "rename it to fs.defaultFS")
	some h in hadoop_xml.deny with input as inp([n], {"value": "1.2.1", "major": 1, "minor": 2, "declared": true})
	contains(h.detail, "Hadoop 1.x reads only the old name")
}
