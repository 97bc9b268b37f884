cluster "small" {
  datanodes = 3
}

deployment "job" {
  flink_conf = "flink-conf.yaml"
  cluster    = "small"
}
