# A shared cluster whose HDFS writes were measured to pause for up to 40 s,
# against a 30 s checkpoint timeout.
flink_version  = "1.18"
hadoop_version = "3.3.6"

cluster "shared" {
  datanodes           = 20
  datanode_free_bytes = "2t"
  write_stall         = "40s"
}
