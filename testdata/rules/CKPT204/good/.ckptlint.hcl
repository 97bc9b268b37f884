# Story (c) on a Hadoop 3 cluster: overlapping checkpoints every 10 s.
flink_version  = "1.17"
hadoop_version = "3.3.6"

cluster "small" {
  datanodes           = 5
  datanode_free_bytes = "1t"
}
