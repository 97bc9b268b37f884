# Story (a): tiny checkpoint files x the default 128 MiB client block size.
# 3 nodes, each running a TaskManager and a DataNode with 43 GiB free,
# replication 1, several jobs with a large total parallelism.
flink_version  = "1.13"
hadoop_version = "2.7.3"

path_mappings = {
  "/opt/flink/conf" = "flink/conf"
}

cluster "test" {
  datanodes             = 3
  datanode_free_bytes   = "43g"
  taskmanagers          = 3
  slots_per_taskmanager = 48
}

deployment "streaming" {
  flink_conf         = "flink/conf"
  cluster            = "test"
  jobs               = 6
  stateful_operators = 8
}
