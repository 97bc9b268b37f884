package hadoopxml

// deprecations maps a deprecated Hadoop key to the key Hadoop stores its
// value under. Hadoop keeps one global table: Configuration's
// defaultDeprecations plus what HdfsConfiguration adds when the HDFS client
// classes load, which they do in every process that talks to hdfs://, so the
// table applies to core-site.xml and hdfs-site.xml alike. Every entry has a
// single replacement key.
//
// Sources (apache/hadoop, 3.x):
//   - Configuration.java defaultDeprecations, with the values of
//     CommonConfigurationKeys(Public);
//   - hadoop-hdfs-client HdfsConfiguration.addDeprecatedKeys, with the values
//     of HdfsClientConfigKeys and HdfsClientConfigKeys.DeprecatedKeys
//     (Hadoop 3.4.1 HdfsConfiguration.java L129, L143, L147 for
//     dfs.replication.min, dfs.block.size and io.bytes.per.checksum).
var deprecations = map[string]string{
	// Configuration.defaultDeprecations
	"topology.script.file.name":         "net.topology.script.file.name",
	"topology.script.number.args":       "net.topology.script.number.args",
	"hadoop.configured.node.mapping":    "net.topology.configured.node.mapping",
	"topology.node.switch.mapping.impl": "net.topology.node.switch.mapping.impl",
	"dfs.df.interval":                   "fs.df.interval",
	"fs.default.name":                   "fs.defaultFS",
	"dfs.umaskmode":                     "fs.permissions.umask-mode",
	"dfs.nfs.exports.allowed.hosts":     "nfs.exports.allowed.hosts",

	// HdfsConfiguration.addDeprecatedKeys
	"dfs.backup.address":                           "dfs.namenode.backup.address",
	"dfs.backup.http.address":                      "dfs.namenode.backup.http-address",
	"dfs.balance.bandwidthPerSec":                  "dfs.datanode.balance.bandwidthPerSec",
	"dfs.data.dir":                                 "dfs.datanode.data.dir",
	"dfs.http.address":                             "dfs.namenode.http-address",
	"dfs.https.address":                            "dfs.namenode.https-address",
	"dfs.max.objects":                              "dfs.namenode.max.objects",
	"dfs.name.dir":                                 "dfs.namenode.name.dir",
	"dfs.name.dir.restore":                         "dfs.namenode.name.dir.restore",
	"dfs.name.edits.dir":                           "dfs.namenode.edits.dir",
	"dfs.read.prefetch.size":                       "dfs.client.read.prefetch.size",
	"dfs.safemode.extension":                       "dfs.namenode.safemode.extension",
	"dfs.safemode.threshold.pct":                   "dfs.namenode.safemode.threshold-pct",
	"dfs.secondary.http.address":                   "dfs.namenode.secondary.http-address",
	"dfs.socket.timeout":                           "dfs.client.socket-timeout",
	"fs.checkpoint.dir":                            "dfs.namenode.checkpoint.dir",
	"fs.checkpoint.edits.dir":                      "dfs.namenode.checkpoint.edits.dir",
	"fs.checkpoint.period":                         "dfs.namenode.checkpoint.period",
	"heartbeat.recheck.interval":                   "dfs.namenode.heartbeat.recheck-interval",
	"dfs.https.client.keystore.resource":           "dfs.client.https.keystore.resource",
	"dfs.https.need.client.auth":                   "dfs.client.https.need-auth",
	"slave.host.name":                              "dfs.datanode.hostname",
	"session.id":                                   "dfs.metrics.session-id",
	"dfs.access.time.precision":                    "dfs.namenode.accesstime.precision",
	"dfs.replication.considerLoad":                 "dfs.namenode.redundancy.considerLoad",
	"dfs.namenode.replication.considerLoad":        "dfs.namenode.redundancy.considerLoad",
	"dfs.namenode.replication.considerLoad.factor": "dfs.namenode.redundancy.considerLoad.factor",
	"dfs.replication.interval":                     "dfs.namenode.redundancy.interval.seconds",
	"dfs.namenode.replication.interval":            "dfs.namenode.redundancy.interval.seconds",
	"dfs.replication.min":                          "dfs.namenode.replication.min",
	"dfs.replication.pending.timeout.sec":          "dfs.namenode.reconstruction.pending.timeout-sec",
	"dfs.namenode.replication.pending.timeout-sec": "dfs.namenode.reconstruction.pending.timeout-sec",
	"dfs.max-repl-streams":                         "dfs.namenode.replication.max-streams",
	"dfs.permissions":                              "dfs.permissions.enabled",
	"dfs.permissions.supergroup":                   "dfs.permissions.superusergroup",
	"dfs.write.packet.size":                        "dfs.client-write-packet-size",
	"dfs.block.size":                               "dfs.blocksize",
	"dfs.datanode.max.xcievers":                    "dfs.datanode.max.transfer.threads",
	"io.bytes.per.checksum":                        "dfs.bytes-per-checksum",
	"dfs.federation.nameservices":                  "dfs.nameservices",
	"dfs.federation.nameservice.id":                "dfs.nameservice.id",
	"dfs.encryption.key.provider.uri":              "hadoop.security.key.provider.path",
}

// Deprecated reports whether key is a deprecated Hadoop key and, if so, the
// key Hadoop stores its value under (Hadoop 3.4.1 Configuration.java L3432-3445).
// The match is exact; callers pass the trimmed key as Hadoop does.
func Deprecated(key string) (newKey string, ok bool) {
	newKey, ok = deprecations[key]
	return newKey, ok
}

// deprecationMessage is Hadoop's warning text for a deprecated key
// (Configuration.DeprecatedKeyInfo.getWarningMessage).
func deprecationMessage(oldKey, newKey string) string {
	return oldKey + " is deprecated. Instead, use " + newKey
}
