# Story (b): Flink on a shared Hadoop 3.1.0 cluster whose DataNodes hold
# ~10^8 block replicas each; the DirectoryScanner (HDFS-14476, not fixed in
# any 3.1.x release) stalls checkpoint writes for ~38 s every 10-30 minutes
# against a 10 s checkpoint timeout.
flink_version  = "1.13"
hadoop_version = "3.1.0"

cluster "shared" {
  datanodes           = 20
  datanode_free_bytes = "20t"
  datanode_blocks     = 100000000
  write_stall         = "38s"
}

deployment "saas-app" {
  flink_conf        = "flink/flink-conf.yaml"
  hadoop_conf       = "hadoop/client"
  cluster_hdfs_site = "hadoop/cluster/hdfs-site.xml"
  cluster           = "shared"
}
