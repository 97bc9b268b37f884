# Hadoop 3.2.1 has neither DirectoryScanner lock fix (HDFS-14476 reached the
# 3.2 line in 3.2.2); its DataNodes hold 12 million block replicas each and
# checkpoint writes were seen to stall for 45 s during a scan.
hadoop_version = "3.2.1"

cluster "shared" {
  datanodes       = 12
  datanode_blocks = 12000000
  write_stall     = "45s"
}

deployment "etl" {
  flink_conf = "flink-conf.yaml"
  cluster    = "shared"
}
