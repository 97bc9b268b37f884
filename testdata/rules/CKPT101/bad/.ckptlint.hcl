flink_version = "1.20"

cluster "small" {
  datanodes           = 3
  datanode_free_bytes = "43g"
}

deployment "jobs" {
  flink_conf         = "flink-conf.yaml"
  jobs               = 4
  stateful_operators = 3
}
