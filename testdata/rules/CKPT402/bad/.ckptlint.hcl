cluster "four" {
  datanodes = 4
}

deployment "job" {
  flink_conf = "flink-conf.yaml"
  cluster    = "four"
}
