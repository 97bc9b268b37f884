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

# Flink 2.x does not read fs.hdfs.hadoopconf at all: nothing to map.
read_by_flink(ref) if ref.key != "fs.hdfs.hadoopconf"

read_by_flink(ref) if {
	ref.key == "fs.hdfs.hadoopconf"
	input.versions.flink.major < 2
}

instead := "; the core-site.xml/hdfs-site.xml beside the Flink configuration are used in their place" if {
	some r in input.hadoop.client
	r.via == "same-dir"
} else := ""

deny contains f if {
	input.flink
	bs.writes_hdfs
	some ref in input.hadoop.conf_refs
	ref.resolved == ""
	read_by_flink(ref)
	f := result.info(ref, sprintf(
		"%s: %s names the Hadoop configuration directory of Flink's HDFS client, but it is not in the repository (%s): ckptlint cannot read the core-site.xml and hdfs-site.xml Flink loads from it, so dfs.blocksize %s (from %s) and the other HDFS client values are checked without them%s. Copy those files into the repository and map the path in .ckptlint.hcl, e.g. path_mappings = { %q = \"hadoop/conf\" }",
		[ref.key, trim_space(ref.value), ref.reason, bs.client.display, bs.source(bs.client), instead, trim_space(ref.value)],
	))
}
