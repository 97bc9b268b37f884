# A standalone Flink cluster with 4 TaskManagers.
cluster "standalone" {
  taskmanagers = 4
}

deployment "job" {
  flink_conf = "flink-conf.yaml"
  cluster    = "standalone"
}
