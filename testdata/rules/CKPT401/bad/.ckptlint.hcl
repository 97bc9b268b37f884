# A standalone Flink cluster with 3 TaskManagers.
cluster "standalone" {
  taskmanagers = 3
}

deployment "job" {
  flink_conf = "flink-conf.yaml"
  cluster    = "standalone"
}
