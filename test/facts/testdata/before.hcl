# Story (a) before its DataNode facts are known: CKPT101 can only say
# "declare datanodes and datanode_free_bytes".
flink_version  = "1.13"
hadoop_version = "2.7.3"

path_mappings = {
  "/opt/flink/conf" = "flink/conf"
}

cluster "test" {
  taskmanagers          = 3
  slots_per_taskmanager = 48
}

deployment "streaming" {
  flink_conf         = "flink/conf"
  cluster            = "test"
  jobs               = 6
  stateful_operators = 8
}
