deployment "jobs" {
  flink_conf         = "flink-conf.yaml"
  jobs               = 4
  stateful_operators = 3
}
