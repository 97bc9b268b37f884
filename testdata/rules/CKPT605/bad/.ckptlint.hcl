deployment "still-on-1-17" {
  flink_conf    = "v1.17/conf"
  flink_version = "1.17"
}

deployment "upgraded-to-2-0" {
  flink_conf    = "v2.0/conf"
  flink_version = "2.0"
}
