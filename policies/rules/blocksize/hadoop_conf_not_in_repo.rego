# METADATA
# title: The Hadoop configuration directory Flink reads is not in the repository
# description: |
#   Flink's HDFS client takes dfs.blocksize, dfs.replication and the other client
#   settings from the core-site.xml and hdfs-site.xml of the directory named by
#   fs.hdfs.hadoopconf (Flink 1.x) or env.hadoop.conf.dir. When that directory is an
#   absolute path on the Flink hosts, or does not exist in the repository, ckptlint
#   cannot read those files: the block size it checks (CKPT101 and the other blocksize
#   rules) is then the Hadoop default or what the files beside the Flink configuration
#   say, which may not be what the HDFS client uses. Copy the files into the repository
#   and map the path in .ckptlint.hcl with path_mappings (or name the directory in a
#   deployment block's hadoop_conf) so the checks use the real values.
# related_resources:
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-filesystems/flink-hadoop-fs/src/main/java/org/apache/flink/runtime/util/HadoopUtils.java
#     description: where Flink looks for core-site.xml and hdfs-site.xml
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/deployment/config/#env-hadoop-conf-dir
#     description: env.hadoop.conf.dir
# custom:
#   id: CKPT111
#   name: hadoop-conf-dir-not-in-repository
#   severity: info
#   fixable: false
package ckptlint.rules.blocksize.hadoop_conf_not_in_repo

import data.ckptlint.lib.blocksize as bs
import data.ckptlint.lib.result

# Flink 2.x does not read fs.hdfs.hadoopconf at all, and bin/config.sh reads
# env.hadoop.conf.dir only from 1.6 (FLINK-6222; CKPT604 reports it as
# unread before): nothing to map.
read_by_flink(ref) if not ref.key in {"fs.hdfs.hadoopconf", "env.hadoop.conf.dir"}

read_by_flink(ref) if {
	ref.key == "fs.hdfs.hadoopconf"
	input.versions.flink.major < 2
}

read_by_flink(ref) if {
	ref.key == "env.hadoop.conf.dir"
	env_conf_dir_read
}

env_conf_dir_read if input.versions.flink.major > 1

env_conf_dir_read if {
	input.versions.flink.major == 1
	input.versions.flink.minor >= 6
}

env_conf_dir_read if not input.versions.flink.declared

instead := "; the core-site.xml/hdfs-site.xml beside the Flink configuration are used in their place" if {
	some r in input.hadoop.client
	r.via == "same-dir"
} else := ""

# tilde(ref): a directory written with ~, which neither bin/config.sh (for
# env.hadoop.conf.dir, exported as HADOOP_CONF_DIR) nor java.io.File
# (HadoopUtils.getHadoopConfiguration: new File(dir).exists()) expands, so
# Flink loads nothing from it and there is nothing to map (CKPT605 reports
# fs.hdfs.hadoopconf).
tilde(ref) if startswith(trim_space(ref.value), "~")

deny contains f if {
	input.flink
	bs.writes_hdfs
	some ref in input.hadoop.conf_refs
	ref.resolved == ""
	read_by_flink(ref)
	tilde(ref)
	ref.key != "fs.hdfs.hadoopconf"
	f := result.info(ref, result.msg(
		sprintf("%s starts with ~, which nothing expands, so Flink loads no Hadoop configuration from it.", [ref.key]),
		sprintf(
			"%s: %s names the Hadoop configuration directory with ~, which nothing expands: bin/config.sh exports it as HADOOP_CONF_DIR as written and Flink checks it with java.io.File (new File(\"%s\").exists() in HadoopUtils.getHadoopConfiguration), which looks for a directory named \"~\" under the working directory, so Flink loads no core-site.xml or hdfs-site.xml from it; dfs.blocksize %s (from %s) and the other HDFS client values are checked without them%s. Write the absolute path of the directory on the Flink hosts",
			[ref.key, trim_space(ref.value), trim_space(ref.value), bs.client.display, bs.source(bs.client), instead],
		),
	))
}

deny contains f if {
	input.flink
	bs.writes_hdfs
	some ref in input.hadoop.conf_refs
	ref.resolved == ""
	read_by_flink(ref)
	not tilde(ref)
	f := result.info(ref, result.msg(
		sprintf("%s names a Hadoop configuration directory that is not in the repository, so ckptlint checks HDFS client values without it.", [ref.key]),
		sprintf(
			"%s: %s names the Hadoop configuration directory of Flink's HDFS client, but it is not in the repository (%s): ckptlint cannot read the core-site.xml and hdfs-site.xml Flink loads from it, so dfs.blocksize %s (from %s) and the other HDFS client values are checked without them%s. Copy those files into the repository and map the path in .ckptlint.hcl, e.g. path_mappings = { %q = \"hadoop/conf\" }",
			[ref.key, trim_space(ref.value), ref.reason, bs.client.display, bs.source(bs.client), instead, trim_space(ref.value)],
		),
	))
}
