flink_version = "1.18"

cluster "prod" {
  taskmanagers = 3
}
