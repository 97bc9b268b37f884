flink_version  = "1.19"
hadoop_version = "2.7.3"

# A write stall measured on this cluster: the evidence that makes the zero
# tolerance a warning (without it, a 30 s timeout alone is an info).
cluster "small" {
  datanodes           = 5
  datanode_free_bytes = "1t"
  write_stall         = "20s"
}
