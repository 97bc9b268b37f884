# Hadoop 3.2.2 has both DirectoryScanner lock fixes (HDFS-14476, HDFS-15415),
# and the checkpoint timeout (2 min) is well above the measured 45 s stall.
hadoop_version = "3.2.2"

cluster "shared" {
  datanodes       = 12
  datanode_blocks = 12000000
  write_stall     = "45s"
}

deployment "etl" {
  flink_conf = "flink-conf.yaml"
  cluster    = "shared"
}
