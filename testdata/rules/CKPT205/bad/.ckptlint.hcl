flink_version  = "1.19"
hadoop_version = "2.7.3"

cluster "small" {
  datanodes           = 5
  datanode_free_bytes = "1t"
}
